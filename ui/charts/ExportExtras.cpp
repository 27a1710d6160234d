#include "ExportExtras.h"

#include "ChartExporter.h"
#include "ChartTextElement.h"

#include <qcustomplot.h>

#include <QApplication>
#include <QBuffer>
#include <QClipboard>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QMessageBox>
#include <QSpinBox>
#include <QStandardPaths>
#include <QSvgGenerator>

#include <algorithm>

namespace wb {

namespace {

/// Adds the footnote as the last row of the plot's layout for the life of the object.
class FootnoteRow
{
public:
    FootnoteRow(QCustomPlot *plot, const QString &text)
        : m_plot(plot)
    {
        if (text.isEmpty())
            return;
        QCPLayoutGrid *layout = plot->plotLayout();
        m_row = layout->rowCount();
        layout->insertRow(m_row);
        QFont font = plot->font();
        font.setPointSizeF(font.pointSizeF() * 0.85);
        m_element = new ChartTextElement(plot, text, font); // many hosts: the line breaks at the chart's width
        m_element->setTextColor(QColor(90, 90, 90));
        m_element->setMargins(QMargins(6, 2, 6, 6));
        layout->addElement(m_row, 0, m_element);
        layout->setRowStretchFactor(m_row, 0.001);
    }
    ~FootnoteRow()
    {
        if (!m_element)
            return;
        QCPLayoutGrid *layout = m_plot->plotLayout();
        layout->remove(m_element);
        layout->simplify(); // drops the now empty row
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    FootnoteRow(const FootnoteRow &) = delete;
    FootnoteRow &operator=(const FootnoteRow &) = delete;

private:
    QCustomPlot *m_plot = nullptr;
    QCPTextElement *m_element = nullptr;
    int m_row = -1;
};

bool fail(QString *error, const QString &text)
{
    if (error)
        *error = text;
    return false;
}

} // namespace

bool ExportExtras::exportChart(QCustomPlot *plot, const QString &path, const ChartExportOptions &options,
                               QString *error)
{
    if (!plot)
        return fail(error, QStringLiteral("No chart to export."));
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    const QSize size = options.size;
    if (options.dpi < 24 || options.dpi > 2400)
        return fail(
            error,
            QStringLiteral("Resolution %1 dpi is outside 24..2400 dpi: choose another resolution.").arg(options.dpi));
    FootnoteRow footnote(plot, options.footnote);
    if (suffix != QLatin1String("svg")) // PNG, JPEG, PDF: ChartExporter validates size, folder and suffix
        return ChartExporter::exportPlot(plot, path, size, options.dpi, error);

    if (size.width() < 16 || size.height() < 16 || size.width() > 20000 || size.height() > 20000)
        return fail(error,
                    QStringLiteral("Image size %1 x %2 px is outside 16..20000 px: choose another size.")
                        .arg(size.width())
                        .arg(size.height()));
    if (!info.absoluteDir().exists())
        return fail(error,
                    QStringLiteral("Folder %1 does not exist: choose an existing folder.")
                        .arg(QDir::toNativeSeparators(info.absolutePath())));
    plot->replot(QCustomPlot::rpImmediateRefresh);
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(options.dpi);
    svg.setTitle(plot->objectName());
    svg.setDescription(options.footnote.isEmpty() ? QStringLiteral("Wirebench chart") : options.footnote);
    QCPPainter painter;
    bool ok = painter.begin(&svg);
    if (ok) {
        plot->toPainter(&painter, size.width(), size.height());
        ok = painter.end();
    }
    ok = ok && QFileInfo(path).size() > 0;
    if (!ok)
        return fail(error,
                    QStringLiteral("Could not write %1: check that the folder is writable and the disk not full.")
                        .arg(QDir::toNativeSeparators(info.absoluteFilePath())));
    return true;
}

QByteArray ExportExtras::renderPng(QCustomPlot *plot, const ChartExportOptions &options)
{
    if (!plot)
        return {};
    FootnoteRow footnote(plot, options.footnote);
    plot->replot(QCustomPlot::rpImmediateRefresh);
    const QPixmap pixmap = plot->toPixmap(options.size.width(), options.size.height());
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    pixmap.save(&buffer, "PNG");
    return bytes;
}

bool ExportExtras::copyToClipboard(QCustomPlot *plot, const ChartExportOptions &options, QString *error)
{
    if (!plot)
        return fail(error, QStringLiteral("No chart to copy."));
    QClipboard *clipboard = QGuiApplication::clipboard();
    if (!clipboard)
        return fail(error, QStringLiteral("No clipboard on this display: export the chart to a file instead."));
    QImage image;
    image.loadFromData(renderPng(plot, options), "PNG");
    if (image.isNull())
        return fail(error,
                    QStringLiteral("The chart could not be drawn for the clipboard: export it to a file instead."));
    clipboard->setImage(image);
    return true;
}

QString ExportExtras::footnoteFor(const RunResultList &runs)
{
    QStringList hosts;
    QList<int> frames;
    QDateTime first, last;
    for (const RunResult &r : runs) {
        const QString os = r.spec.host.osLabel.isEmpty() ? r.serverOs : r.spec.host.osLabel;
        const QString host
            = os.isEmpty() ? r.spec.host.displayName() : QStringLiteral("%1 (%2)").arg(r.spec.host.displayName(), os);
        if (!hosts.contains(host))
            hosts << host;
        if (r.spec.frameSize > 0 && !frames.contains(r.spec.frameSize))
            frames << r.spec.frameSize;
        if (r.startedAt.isValid()) {
            if (!first.isValid() || r.startedAt < first)
                first = r.startedAt;
            if (!last.isValid() || r.startedAt > last)
                last = r.startedAt;
        }
    }
    std::sort(frames.begin(), frames.end());
    QStringList frameTexts;
    for (int f : frames)
        frameTexts << QString::number(f);
    QStringList parts;
    if (!hosts.isEmpty())
        parts << QObject::tr("Hosts: %1").arg(hosts.join(QLatin1String(", ")));
    if (!frameTexts.isEmpty())
        parts << QObject::tr("frame sizes: %1 B").arg(frameTexts.join(QLatin1String(", ")));
    const QString format = QStringLiteral("yyyy-MM-dd HH:mm");
    if (first.isValid()) {
        const QString a = first.toLocalTime().toString(format);
        const QString b = last.toLocalTime().toString(format);
        parts << (a == b ? QObject::tr("measured %1").arg(a) : QObject::tr("measured %1 to %2").arg(a, b));
    }
    return parts.join(QLatin1String(" - "));
}

bool ExportExtras::exportWithDialog(QWidget *parent, QCustomPlot *plot, const QString &baseName,
                                    const QString &footnote)
{
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    const QString suggested
        = QDir(folder.isEmpty() ? QDir::homePath() : folder).filePath(baseName + QLatin1String(".png"));
    ExportDialog dialog(suggested, ChartExporter::kDefaultSize, parent);
    dialog.setWindowTitle(QObject::tr("Export chart (PNG, JPEG, PDF or SVG)"));
    auto *dpi = new QSpinBox(&dialog);
    dpi->setObjectName(QStringLiteral("exportDpiSpin"));
    dpi->setRange(24, 2400);
    dpi->setValue(96);
    dpi->setSuffix(QObject::tr(" dpi"));
    if (auto *form = qobject_cast<QFormLayout *>(dialog.layout()))
        form->insertRow(form->rowCount() - 1, QObject::tr("Resolution (.png, .jpg):"), dpi);
    if (dialog.exec() != QDialog::Accepted)
        return false;
    ChartExportOptions options;
    options.size = dialog.pixelSize();
    options.dpi = dpi->value();
    options.footnote = footnote;
    QString error;
    if (!exportChart(plot, dialog.path(), options, &error)) {
        QMessageBox::warning(parent, QObject::tr("Export failed"), error);
        return false;
    }
    return true;
}

} // namespace wb
