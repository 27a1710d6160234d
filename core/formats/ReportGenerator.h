#pragma once

#include "model/RunResult.h"
#include "stats/Units.h"
#include "storage/StoreTypes.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

namespace wb {

class ResultStore;

/// A chart the caller rendered (the GUI or CLI draws; core does not).
struct ReportChart
{
    QString title;
    QByteArray png;  ///< PNG bytes
    QString caption; ///< optional line under the chart (hosts, frame sizes, date)
};

/// Everything a report shows. fromStore() fills it for a stored session; the caller adds charts.
struct ReportInput
{
    QString title;       ///< empty = "Wirebench report: <date>, session <uuid>"
    SessionInfo session; ///< plan, hosts as they were, machine, versions, state
    RunResultList runs;
    /// TCP streams the store kept from the hour before the session (StoredStreams), for its findings.
    StoredRunList earlier;
    QList<ReportChart> charts;
    /// One sentence per test on what limited it; empty = each test's `bottleneck` (see docs/TRUST.md), computed
    /// by RunAnalyzer when its runs do not carry one.
    QStringList findings;
    RateUnit unit = RateUnit::MBps; ///< tables show this unit and Mbit/s beside it
    QDateTime generatedAt;          ///< invalid = now
};

/// The session report as one self-contained HTML file (charts embedded as data: URIs), well-formed XHTML so
/// that tools can parse it and simple enough for QTextDocument (the PDF path, outside core: ui/report/ReportPdfWriter).
class ReportGenerator
{
public:
    enum class Images { Embedded, Named }; ///< data: URIs, or `wirebench-chart:N` names for QTextDocument resources

    /// Numbers and units are joined by a no-break space (U+00A0), so that "118.00 MB/s" never wraps.
    static QString html(const ReportInput &input, Images images = Images::Embedded, double fontPoints = 10);
    /// Writes atomically (QSaveFile). On failure returns false with a one-line reason in *error.
    static bool writeHtml(const QString &path, const ReportInput &input, QString *error = nullptr);
    /// Session, hosts and runs from the store; charts are left to the caller.
    static bool fromStore(const ResultStore &store, qint64 sessionId, ReportInput *input, QString *error = nullptr);
    /// The resource name of chart `index` in Images::Named mode.
    static QString chartName(int index);
};

} // namespace wb
