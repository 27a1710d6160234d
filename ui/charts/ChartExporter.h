#pragma once

#include "model/RunResult.h"
#include "stats/Units.h"

#include <QDialog>
#include <QSize>
#include <QString>

class QCustomPlot;
class QLineEdit;
class QSpinBox;

namespace wb {

/// Writes a chart as PNG, JPEG or PDF at a chosen pixel size. The plot's own title, axis labels (with
/// units) and legend are part of the image. The format comes from the file name's suffix.
class ChartExporter
{
public:
    static constexpr QSize kDefaultSize{1600, 1000};

    /// ".png", ".jpg"/".jpeg", ".pdf". Returns false with a one-line reason in *error.
    static bool exportPlot(QCustomPlot *plot, const QString &path, QSize size, QString *error = nullptr);
    /// The same with the resolution written into a PNG's or JPEG's metadata (96 dpi above).
    static bool exportPlot(QCustomPlot *plot, const QString &path, QSize size, int dpi, QString *error);

    /// Renders the same comparison chart as the GUI's, without a window (the CLI's --chart). Needs a
    /// QApplication (any platform; QT_QPA_PLATFORM=offscreen works headless); when no application object
    /// exists yet it creates a temporary one on the offscreen platform.
    static bool renderComparison(const RunResultList &results, RateUnit unit, const QString &path,
                                 QSize size = kDefaultSize, QString *error = nullptr);
};

/// The small dialog of an export: file (with Browse...), width and height in pixels.
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    ExportDialog(const QString &suggestedPath, QSize size, QWidget *parent = nullptr);
    QString path() const;
    QSize pixelSize() const;
    void setPath(const QString &path);
    void setPixelSize(QSize size);

private:
    void browse();

    QLineEdit *m_path = nullptr;
    QSpinBox *m_width = nullptr;
    QSpinBox *m_height = nullptr;
};

} // namespace wb
