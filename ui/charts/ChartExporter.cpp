#include "ChartExporter.h"

#include "ComparisonChart.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include <memory>

namespace wb {

bool ChartExporter::exportPlot(QCustomPlot *plot, const QString &path, QSize size, QString *error)
{
    return exportPlot(plot, path, size, 96, error);
}

bool ChartExporter::exportPlot(QCustomPlot *plot, const QString &path, QSize size, int dpi, QString *error)
{
    auto fail = [error](const QString &text) {
        if (error)
            *error = text;
        return false;
    };
    if (!plot)
        return fail(QStringLiteral("No chart to export."));
    if (path.trimmed().isEmpty())
        return fail(QStringLiteral("No file name given: choose a file ending in .png, .jpg or .pdf."));
    if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000)
        return fail(QStringLiteral("Image size %1 x %2 px is outside 16..20000 px: choose another size.")
                        .arg(size.width())
                        .arg(size.height()));
    const QFileInfo info(path);
    if (!info.absoluteDir().exists())
        return fail(QStringLiteral("Folder %1 does not exist: choose an existing folder.")
                        .arg(QDir::toNativeSeparators(info.absolutePath())));
    const QString suffix = info.suffix().toLower();
    bool ok = false;
    // The layout must be computed for the target size; replot once so the data is current.
    plot->replot(QCustomPlot::rpImmediateRefresh);
    if (suffix == QLatin1String("png"))
        ok = plot->savePng(path, size.width(), size.height(), 1.0, -1, dpi);
    else if (suffix == QLatin1String("jpg") || suffix == QLatin1String("jpeg"))
        ok = plot->saveJpg(path, size.width(), size.height(), 1.0, 92, dpi);
    else if (suffix == QLatin1String("pdf"))
        ok = plot->savePdf(path, size.width(), size.height(), QCP::epNoCosmetic,
                           QStringLiteral("Wirebench " WIREBENCH_VERSION), plot->objectName());
    else
        return fail(QStringLiteral("Unknown image format \"%1\": use a file name ending in .png, .jpg or .pdf.")
                        .arg(info.fileName()));
    if (!ok)
        return fail(QStringLiteral("Could not write %1: check that the folder is writable and the disk not full.")
                        .arg(QDir::toNativeSeparators(info.absoluteFilePath())));
    return true;
}

bool ChartExporter::renderComparison(const RunResultList &results, RateUnit unit, const QString &path, QSize size,
                                     QString *error)
{
    std::unique_ptr<QApplication> ownApp;
    if (!QCoreApplication::instance()) {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        static int argc = 1;
        static char name[] = "wirebench-chart";
        static char *argv[] = {name, nullptr};
        ownApp = std::make_unique<QApplication>(argc, argv);
    } else if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
        if (error)
            *error = QStringLiteral("Drawing a chart needs a QApplication, not a QCoreApplication: "
                                    "create a QApplication (QT_QPA_PLATFORM=offscreen works without a display).");
        return false;
    }
    ComparisonChart chart;
    chart.resize(size);
    chart.setUnit(unit);
    chart.setResults(results);
    return exportPlot(chart.plot(), path, size, error);
}

ExportDialog::ExportDialog(const QString &suggestedPath, QSize size, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("exportDialog"));
    setWindowTitle(tr("Export chart"));
    m_path = new QLineEdit(suggestedPath, this);
    m_path->setObjectName(QStringLiteral("exportPathEdit"));
    m_path->setMinimumWidth(360);
    auto *browse = new QPushButton(tr("Browse..."), this);
    browse->setObjectName(QStringLiteral("exportBrowseButton"));
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);

    auto makeSpin = [this](const QString &name, int value) {
        auto *spin = new QSpinBox(this);
        spin->setObjectName(name);
        spin->setRange(16, 20000);
        spin->setSuffix(tr(" px"));
        spin->setValue(value);
        return spin;
    };
    m_width = makeSpin(QStringLiteral("exportWidthSpin"), size.width());
    m_height = makeSpin(QStringLiteral("exportHeightSpin"), size.height());

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *form = new QFormLayout(this);
    form->addRow(tr("File (.png, .jpg, .pdf):"), pathRow);
    form->addRow(tr("Width:"), m_width);
    form->addRow(tr("Height:"), m_height);
    form->addRow(buttons);
}

QString ExportDialog::path() const
{
    return m_path->text().trimmed();
}

QSize ExportDialog::pixelSize() const
{
    return {m_width->value(), m_height->value()};
}

void ExportDialog::setPath(const QString &path)
{
    m_path->setText(path);
}

void ExportDialog::setPixelSize(QSize size)
{
    m_width->setValue(size.width());
    m_height->setValue(size.height());
}

void ExportDialog::browse()
{
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export chart"), path(), tr("PNG image (*.png);;JPEG image (*.jpg *.jpeg);;PDF document (*.pdf)"));
    if (!file.isEmpty())
        m_path->setText(file);
}

} // namespace wb
