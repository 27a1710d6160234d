#pragma once

#include "formats/ReportGenerator.h"
#include "model/RunResult.h"
#include "stats/Units.h"

#include <QCoreApplication>
#include <QSize>
#include <QString>

#include <memory>

namespace wb::cli {

/// The comparison chart for --chart comes from the GUI library (ChartExporter), linked only into builds
/// that have it; the CLI stays a QCoreApplication unless a chart is asked for.
class ChartOutput
{
public:
    static bool available();
    /// QApplication on the offscreen platform when withChart and available(), QCoreApplication otherwise.
    static std::unique_ptr<QCoreApplication> createApplication(int &argc, char **argv, bool withChart);
    static bool write(const RunResultList &results, RateUnit unit, const QString &path, const QSize &size,
                      QString *error);
    /// The session report with its charts (the GUI library's ReportWriter).
    static bool writeReport(const ReportInput &input, const QString &htmlPath, const QString &pdfPath,
                            QString *error);
};

} // namespace wb::cli
