#include "ChartOutput.h"

#ifdef WIREBENCH_CLI_CHART
#include "ChartExporter.h"
#include "ReportWriter.h"

#include <QApplication>
#endif

namespace wb::cli {

bool ChartOutput::available()
{
#ifdef WIREBENCH_CLI_CHART
    return true;
#else
    return false;
#endif
}

std::unique_ptr<QCoreApplication> ChartOutput::createApplication(int &argc, char **argv, bool withChart)
{
#ifdef WIREBENCH_CLI_CHART
    if (withChart) {
        // Charts are drawn with widgets; the offscreen platform needs no display.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        return std::make_unique<QApplication>(argc, argv);
    }
#else
    Q_UNUSED(withChart)
#endif
    return std::make_unique<QCoreApplication>(argc, argv);
}

bool ChartOutput::write(const RunResultList &results, RateUnit unit, const QString &path, const QSize &size,
                        QString *error)
{
#ifdef WIREBENCH_CLI_CHART
    return ChartExporter::renderComparison(results, unit, path, size, error);
#else
    Q_UNUSED(results)
    Q_UNUSED(unit)
    Q_UNUSED(size)
    if (error)
        *error = QStringLiteral("cannot write the chart %1: charts are not available in this build of "
                                "wirebench-cli (it was built without the GUI library); use --json or --csv")
                     .arg(path);
    return false;
#endif
}

bool ChartOutput::writeReport(const ReportInput &input, const QString &htmlPath, const QString &pdfPath,
                              QString *error)
{
#ifdef WIREBENCH_CLI_CHART
    return ReportWriter::write(input, htmlPath, pdfPath, error);
#else
    Q_UNUSED(input)
    Q_UNUSED(htmlPath)
    Q_UNUSED(pdfPath)
    if (error)
        *error = QStringLiteral("report is not available in this build (built without the GUI library that draws "
                                "its charts); use `show SESSION --json` instead");
    return false;
#endif
}

} // namespace wb::cli
