#pragma once

#include "formats/ReportGenerator.h"
#include "model/RunResult.h"
#include "stats/Units.h"

#include <QCoreApplication>
#include <QSize>
#include <QString>

#include <memory>

namespace wb::cli {

/// The comparison chart for --chart and the report come from the GUI library (ChartExporter, ReportWriter), linked
/// only into wirebench-cli-charts (see app/cli/CMakeLists.txt); wirebench-cli hands such a command over to it.
class ChartOutput
{
public:
    static bool available();
    /// Without the GUI library: replaces this process by wirebench-cli-charts with the same arguments (execv), and
    /// returns only when that cannot be done, with why in *error. With it: returns false at once. After
    /// createApplication().
    static bool handOver(char **argv, QString *error);
    /// QApplication on the offscreen platform when withChart and available(), QCoreApplication otherwise.
    static std::unique_ptr<QCoreApplication> createApplication(int &argc, char **argv, bool withChart);
    static bool write(const RunResultList &results, RateUnit unit, const QString &path, const QSize &size,
                      QString *error);
    /// The session report with its charts (the GUI library's ReportWriter).
    static bool writeReport(const ReportInput &input, const QString &htmlPath, const QString &pdfPath, QString *error);
};

} // namespace wb::cli
