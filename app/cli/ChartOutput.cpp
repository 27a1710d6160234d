#include "ChartOutput.h"

#ifdef WIREBENCH_CLI_CHART
#include "ChartExporter.h"
#include "ReportWriter.h"

#include <QApplication>
#endif

#ifdef WIREBENCH_CLI_CHARTS_NAME
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>

#include <unistd.h>
#endif

namespace wb::cli {

namespace {
/// Why handOver() could not hand a chart command over, for the message of the command that then cannot draw.
QString &handOverProblem()
{
    static QString problem;
    return problem;
}
} // namespace

bool ChartOutput::available()
{
#ifdef WIREBENCH_CLI_CHART
    return true;
#else
    return false;
#endif
}

bool ChartOutput::handOver(char **argv, QString *error)
{
#ifdef WIREBENCH_CLI_CHARTS_NAME
    // This executable's folder (Qt's reading of it: argv[0] may be a bare name found on PATH).
    const QDir dir(QCoreApplication::applicationDirPath());
    const QString name = QStringLiteral(WIREBENCH_CLI_CHARTS_NAME);
    const QStringList candidates{
        dir.filePath(name),
        QDir::cleanPath(dir.filePath(QStringLiteral("../" WIREBENCH_CLI_CHARTS_LIBEXEC "/") + name))};
    for (const QString &path : candidates) {
        if (!QFileInfo(path).isExecutable())
            continue;
        const QByteArray file = QFile::encodeName(path);
        ::execv(file.constData(), argv);
        handOverProblem() = QStringLiteral("cannot start %1 (%2), which draws the charts: reinstall Wirebench")
                                .arg(path, QString::fromLocal8Bit(std::strerror(errno)));
        if (error)
            *error = handOverProblem();
        return false;
    }
    handOverProblem() = QStringLiteral("%1, which draws the charts, is missing (looked in %2): reinstall Wirebench")
                            .arg(name, candidates.join(QStringLiteral(" and ")));
    if (error)
        *error = handOverProblem();
    return false;
#else
    Q_UNUSED(argv)
    Q_UNUSED(error)
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
    if (error) {
        *error = handOverProblem().isEmpty()
            ? QStringLiteral("cannot write the chart %1: charts are not available in this build of wirebench-cli (it "
                             "was built without the GUI library); use --json or --csv")
                  .arg(path)
            : QStringLiteral("cannot write the chart %1: %2; or use --json or --csv").arg(path, handOverProblem());
    }
    return false;
#endif
}

bool ChartOutput::writeReport(const ReportInput &input, const QString &htmlPath, const QString &pdfPath, QString *error)
{
#ifdef WIREBENCH_CLI_CHART
    return ReportWriter::write(input, htmlPath, pdfPath, error);
#else
    Q_UNUSED(input)
    Q_UNUSED(htmlPath)
    Q_UNUSED(pdfPath)
    if (error) {
        *error = handOverProblem().isEmpty()
            ? QStringLiteral("report is not available in this build (built without the GUI library that draws its "
                             "charts); use `show SESSION --json` instead")
            : QStringLiteral("report: %1; or use `show SESSION --json`").arg(handOverProblem());
    }
    return false;
#endif
}

} // namespace wb::cli
