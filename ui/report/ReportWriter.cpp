#include "ReportWriter.h"

#include "ComparisonChart.h"
#include "ExportExtras.h"
#include "ReportPdfWriter.h"
#include "RunOverlayChart.h"
#include "storage/ResultStore.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

namespace wb {

namespace {
constexpr QSize kChartSize{900, 500}; // fonts stay readable when the PDF lays it 620 px wide
}

QList<ReportChart> ReportWriter::renderCharts(const RunResultList &runs, RateUnit unit, int maxTests)
{
    QList<ReportChart> charts;
    if (runs.isEmpty())
        return charts;
    ChartExportOptions options;
    options.size = kChartSize;
    const QString footnote = ExportExtras::footnoteFor(runs);
    options.footnote = footnote;

    ComparisonChart comparison;
    comparison.resize(kChartSize);
    comparison.setUnit(unit);
    comparison.setResults(runs);
    charts << ReportChart{QObject::tr("Throughput per test (%1)").arg(Units::label(unit)),
                          ExportExtras::renderPng(comparison.plot(), options), footnote};

    // One live-graph chart per test (host x protocol x frame size), its repetitions overlaid.
    QStringList testKeys;
    QHash<QString, QList<RunOverlayChart::Line>> linesByTest;
    for (const RunResult &run : runs) {
        if (run.samples.isEmpty())
            continue;
        const QString key = run.spec.host.displayName() + QLatin1String(" - ") + run.spec.testKey();
        if (!testKeys.contains(key))
            testKeys << key;
        linesByTest[key] << RunOverlayChart::Line{QObject::tr("rep %1").arg(run.spec.repetition), run};
    }
    for (int i = 0; i < testKeys.size() && i < maxTests; ++i) {
        const QString &key = testKeys.at(i);
        RunOverlayChart overlay;
        overlay.resize(kChartSize);
        overlay.setUnit(unit);
        overlay.setLines(linesByTest.value(key));
        overlay.setTitle(QObject::tr("Live throughput: %1 B frame").arg(key));
        ChartExportOptions o = options;
        o.footnote = ExportExtras::footnoteFor(overlay.runs());
        charts << ReportChart{QObject::tr("Live throughput: %1 B frame").arg(key),
                              ExportExtras::renderPng(overlay.plot(), o), o.footnote};
    }
    return charts;
}

bool ReportWriter::write(ReportInput input, const QString &htmlPath, const QString &pdfPath, QString *error)
{
    if (htmlPath.isEmpty() && pdfPath.isEmpty()) {
        if (error)
            *error = QStringLiteral("No report file given: name an HTML file, a PDF file or both.");
        return false;
    }
    if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
        if (error)
            *error = QStringLiteral("Drawing the report's charts needs a QApplication "
                                    "(QT_QPA_PLATFORM=offscreen works without a display).");
        return false;
    }
    if (input.charts.isEmpty())
        input.charts = renderCharts(input.runs, input.unit);
    if (!htmlPath.isEmpty() && !ReportGenerator::writeHtml(htmlPath, input, error))
        return false;
    if (!pdfPath.isEmpty() && !ReportPdfWriter::write(pdfPath, input, error))
        return false;
    return true;
}

bool ReportWriter::write(const ResultStore &store, qint64 sessionId, const QString &htmlPath, const QString &pdfPath,
                         QString *error)
{
    ReportInput input;
    if (!ReportGenerator::fromStore(store, sessionId, &input, error))
        return false;
    return write(input, htmlPath, pdfPath, error);
}

} // namespace wb
