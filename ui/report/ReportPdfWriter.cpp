#include "ReportPdfWriter.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QPageLayout>
#include <QPageSize>
#include <QPdfWriter>
#include <QTextDocument>
#include <QTextOption>
#include <QUrl>

namespace wb {

bool ReportPdfWriter::write(const QString &path, const ReportInput &input, QString *error)
{
    auto fail = [&](const QString &why) {
        if (error)
            *error = QStringLiteral("Report %1: %2").arg(QDir::toNativeSeparators(path), why);
        return false;
    };
    // QPdfWriter reports nothing when it cannot write: find out first.
    {
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly))
            return fail(
                QStringLiteral("cannot be written (%1); check the folder and free space").arg(probe.errorString()));
    }

    QTextDocument doc;
    // Break lines at spaces only: a column is then at least as wide as its widest "118.00 MB/s" (no-break space).
    QTextOption wrap;
    wrap.setWrapMode(QTextOption::WordWrap);
    doc.setDefaultTextOption(wrap);
    doc.setDefaultStyleSheet(QStringLiteral("th { background-color: #e8e8e8; } .note { color: #555555; }"));
    for (int i = 0; i < input.charts.size(); ++i) {
        QImage image;
        if (!image.loadFromData(input.charts.at(i).png, "PNG"))
            return fail(
                QStringLiteral("chart \"%1\" is not a PNG image; render it again").arg(input.charts.at(i).title));
        // Laid out at 96 dots per inch. 620 px (about 165 x 90 mm for the 900 x 500 charts) leave room on page 1,
        // under the title, for the first sentences after the comparison chart; at 900 px it went to page 2 alone.
        if (image.width() > 620)
            image = image.scaledToWidth(620, Qt::SmoothTransformation);
        doc.addResource(QTextDocument::ImageResource, QUrl(ReportGenerator::chartName(i)), image);
    }
    // 8 pt: the results table has 14 columns.
    doc.setHtml(ReportGenerator::html(input, ReportGenerator::Images::Named, 8));

    QPdfWriter pdf(path);
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setPageOrientation(QPageLayout::Landscape);
    pdf.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
    pdf.setTitle(doc.metaInformation(QTextDocument::DocumentTitle));
    pdf.setCreator(QStringLiteral("Wirebench %1").arg(QStringLiteral(WIREBENCH_VERSION)));
    doc.print(&pdf);
    if (QFile(path).size() == 0)
        return fail(QStringLiteral("the PDF came out empty; check the folder and free space"));
    return true;
}

} // namespace wb
