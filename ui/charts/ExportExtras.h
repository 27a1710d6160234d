#pragma once

#include "model/RunResult.h"

#include <QSize>
#include <QString>
#include <QStringList>

class QCustomPlot;

namespace wb {

/// What an export of a history/comparison chart carries beyond ui's ChartExporter: a chosen resolution, a
/// footnote (hosts, frame sizes, date), SVG output and the clipboard.
struct ChartExportOptions
{
    QSize size{1600, 1000}; ///< pixels (PNG, JPEG, SVG) or points (PDF)
    int dpi = 96;           ///< resolution written into PNG/JPEG metadata
    QString footnote;       ///< one line under the chart; empty = none
};

/// Builds on ChartExporter, which writes every PNG, JPEG and PDF, and adds SVG (QSvgGenerator), the footnote and
/// the clipboard.
class ExportExtras
{
public:
    /// ".png", ".jpg"/".jpeg", ".pdf", ".svg" (from the file name). Returns false with a one-line reason.
    static bool exportChart(QCustomPlot *plot, const QString &path, const ChartExportOptions &options,
                            QString *error = nullptr);
    /// The chart as an image on the clipboard (and as PNG bytes when png != nullptr).
    static bool copyToClipboard(QCustomPlot *plot, const ChartExportOptions &options, QString *error = nullptr);
    /// The chart as PNG bytes at `size` with the footnote (for reports).
    static QByteArray renderPng(QCustomPlot *plot, const ChartExportOptions &options);
    /// "Hosts: a (Linux), b (Windows) - frame sizes: 1500, 9000 B - measured 2024-05-01 ... 2024-05-03"
    static QString footnoteFor(const RunResultList &runs);

    /// Shows the export dialog of ui (ExportDialog) with SVG added, asks the resolution, writes, reports errors.
    static bool exportWithDialog(QWidget *parent, QCustomPlot *plot, const QString &baseName, const QString &footnote);
};

} // namespace wb
