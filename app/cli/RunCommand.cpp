#include "RunCommand.h"

#include "ChartOutput.h"
#include "Console.h"
#include "FindingsOutput.h"
#include "KeychainSecrets.h"
#include "PreflightOutput.h"
#include "StoreCommands.h"
#include "analysis/Bottleneck.h"
#include "analysis/Bufferbloat.h"
#include "model/Frame.h"
#include "model/Streams.h"
#include "engine/Preflight.h"
#include "latency/LatencyRecorder.h"
#include "formats/CsvExport.h"
#include "formats/JsonExport.h"
#include "protocols/DriverRegistry.h"
#include "stats/TestSummary.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QSet>

#include <csignal>
#include <unistd.h>
#include <functional>

namespace wb::cli {

namespace {

volatile std::sig_atomic_t g_interrupted = 0;
volatile std::sig_atomic_t g_checking = 0; ///< the check before the first run: no event loop looks at the flag

extern "C" void onInterruptSignal(int sig)
{
    if (g_checking) {
        // Nothing has run and nothing is kept yet: end now, as the signal asks (write and _exit are signal-safe).
        static const char message[] = "wirebench-cli: interrupted while checking the plan's hosts; nothing was run\n";
        [[maybe_unused]] const auto written = ::write(STDERR_FILENO, message, sizeof message - 1);
        ::_exit(128 + sig);
    }
    g_interrupted = 1;
    // A second Ctrl-C ends the process at once.
    std::signal(SIGINT, SIG_DFL);
}

QString osOf(const RunResult &r)
{
    const QString os = r.spec.host.osLabel.isEmpty() ? r.serverOs : r.spec.host.osLabel;
    return os.isEmpty() ? QStringLiteral("OS unknown") : os;
}

/// The host as the user named it: NAME, or ADDR[:PORT] with IPv6 in brackets.
QString hostLabel(const Host &h)
{
    if (!h.name.isEmpty())
        return h.name;
    const QString address
        = h.address.contains(QLatin1Char(':')) && h.port ? QStringLiteral("[%1]").arg(h.address) : h.address;
    return h.port ? QStringLiteral("%1:%2").arg(address).arg(h.port) : address;
}

/// Why a run was not run, without a leading "not run: " that the status already says.
QString notRunReason(const RunResult &r)
{
    static const QLatin1String prefix("not run: ");
    if (r.error.isEmpty())
        return QStringLiteral("no reason given");
    return r.error.startsWith(prefix, Qt::CaseInsensitive) ? r.error.mid(prefix.size()) : r.error;
}

/// How long each kind of test in the plan is, and the whole: timed tests run for the duration, file transfers
/// move a file of the plan's size ("tcp-send, tcp-recv: 10 s each; ftp-get: a 256 MiB file each; about 20 s of
/// timed measuring and 512 MiB of file transfers").
QString lengthOf(const TestPlan &plan)
{
    QStringList timed;
    QStringList files;
    for (const QString &protocol : plan.protocols) {
        const ProtocolInfo *info = DriverRegistry::find(protocol);
        (info && !info->timed ? files : timed) << protocol;
    }
    int timedRuns = 0;
    int fileRuns = 0;
    for (const RunSpec &spec : plan.expand())
        (files.contains(spec.protocol) ? fileRuns : timedRuns) += 1;
    const TestParams &params = plan.params;
    QStringList parts;
    if (!timed.isEmpty()) {
        QString each
            = QStringLiteral("%1: %2 s each").arg(timed.join(QStringLiteral(", "))).arg(params.durationMs / 1000.0);
        if (params.warmupMs > 0)
            each += QStringLiteral(" after a %1 s warm-up").arg(params.warmupMs / 1000.0);
        parts << each;
    }
    if (!files.isEmpty())
        parts << QStringLiteral("%1: a %2 file each")
                     .arg(files.join(QStringLiteral(", ")), Units::formatBytes(params.fileSizeBytes));
    double leadSeconds = 0; // the latency probe's idle lead before each run that has a far host
    double leadEach = 0;
    for (const RunSpec &spec : plan.expand()) {
        leadSeconds += LatencyRecorder::idleMsOf(spec) / 1000.0;
        leadEach = qMax(leadEach, LatencyRecorder::idleMsOf(spec) / 1000.0);
    }
    const double seconds = timedRuns * (params.durationMs + params.warmupMs) / 1000.0 + leadSeconds;
    const QString moved = Units::formatBytes(fileRuns * params.fileSizeBytes);
    const QString lead = leadEach > 0
        ? QStringLiteral(" (%1 s of idle round trips before each run included)").arg(leadEach)
        : QString();
    if (files.isEmpty())
        parts << QStringLiteral("about %1 s of measuring%2").arg(seconds).arg(lead);
    else if (timed.isEmpty())
        parts << QStringLiteral("%1 to move in all").arg(moved)
                + (leadSeconds > 0 ? QStringLiteral(", after about %1 s of idle round trips").arg(leadSeconds)
                                   : QString());
    else
        parts
            << QStringLiteral("about %1 s of timed measuring%2 and %3 of file transfers").arg(seconds).arg(lead, moved);
    return parts.join(QStringLiteral("; "));
}

/// "2 failed, 1 not run"
QString countsOf(int failed, int notRun)
{
    QStringList parts;
    if (failed > 0)
        parts << QStringLiteral("%1 failed").arg(failed);
    if (notRun > 0)
        parts << QStringLiteral("%1 not run").arg(notRun);
    return parts.join(QStringLiteral(", "));
}

QString fixed(double v, RateUnit unit)
{
    const double x = Units::fromBytesPerSecond(v * 1e6, unit); // v is in MB/s
    return QString::number(x, 'f', std::abs(x) >= 100 ? 1 : 2);
}

} // namespace

RunCommand::RunCommand(const CliOptions &options, QObject *parent)
    : QObject(parent)
    , m_options(options)
{
    connect(&m_engine, &Engine::planStarted, this, &RunCommand::onPlanStarted);
    connect(&m_engine, &Engine::runFinished, this, &RunCommand::onRunFinished);
    connect(&m_engine, &Engine::planFinished, this, &RunCommand::onPlanFinished);
    m_signalPoll.setInterval(100);
    connect(&m_signalPoll, &QTimer::timeout, this, &RunCommand::checkInterrupt);
}

int RunCommand::exec()
{
    g_interrupted = 0;
    std::signal(SIGINT, onInterruptSignal);
    std::signal(SIGTERM, onInterruptSignal);
    for (const QString &note : m_options.notes)
        Console::out(note);
    // The passwords the command line and --secrets did not give: those the window saved, if a keychain answers.
    for (const QString &note : KeychainSecrets::fill(&m_options.plan))
        Console::out(note);
    if (!m_options.savePlanPath.isEmpty()) {
        QString error;
        QStringList notes;
        if (!CliOptions::savePlan(m_options.savePlanPath, m_options.plan, &notes, &error)) {
            Console::err(QStringLiteral("wirebench-cli: %1; nothing was run").arg(error));
            return 1;
        }
        Console::out(QStringLiteral("plan saved to %1").arg(m_options.savePlanPath));
        for (const QString &note : notes)
            Console::out(note);
    }
    if (!m_options.skipCheck && m_options.plan.validate().isEmpty()) {
        g_checking = 1;
        m_checked = Preflight::check(m_options.plan); // every host and protocol at once, a few seconds at most
        g_checking = 0;
        m_options.plan = m_checked.planToRun(m_options.plan);
        if (!PreflightOutput::print(m_checked, m_options.plan, m_options.strictCheck))
            return 1;
    }
    m_signalPoll.start();
    if (m_options.useStore) {
        // Results go to the store as each run ends, so that `sessions`, `show` and the GUI's History have them.
        QString error;
        if (!StoreCommands::openStore(&m_store, m_options.storePath, &error))
            Console::err(QStringLiteral("wirebench-cli: results are not kept in the store: %1. The runs go ahead and "
                                        "print their results here%2")
                             .arg(error,
                                  m_options.jsonPath.isEmpty() && m_options.csvPath.isEmpty()
                                      ? QStringLiteral("; --json FILE or --csv FILE keeps them in a file")
                                      : QStringLiteral(", and into the file you named")));
        connect(&m_recorder, &SessionRecorder::storeError, this,
                [](const QString &message) { Console::err(QStringLiteral("wirebench-cli: ") + message); });
        connect(&m_recorder, &SessionRecorder::sessionEnded, this, [](qint64 id) {
            Console::out(QStringLiteral("Kept in the result store as session %1 (wirebench-cli show %1).").arg(id));
        });
        if (m_options.plan.validate().isEmpty() && m_recorder.begin(m_options.plan) > 0
            && !m_options.scheduledEvery.isEmpty()) {
            // A run of `wirebench-cli schedule`'s timer: the title is History's mark of it.
            const QString title = QStringLiteral("Scheduled every %1: %2")
                                      .arg(m_options.scheduledEvery, QFileInfo(m_options.planPath).fileName());
            if (!m_store.setSessionTitle(m_recorder.sessionId(), title, &error))
                Console::err(QStringLiteral("wirebench-cli: ") + error);
        }
    }
    if (!m_engine.start(m_options.plan, m_checked)) {
        Console::err(QStringLiteral("wirebench-cli: the plan cannot run: %1")
                         .arg(m_options.plan.validate().join(QLatin1Char(' '))));
        return 2;
    }
    const int status = QCoreApplication::exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return status;
}

void RunCommand::checkInterrupt()
{
    if (!g_interrupted || m_interrupted)
        return;
    m_interrupted = true;
    Console::err(QStringLiteral("wirebench-cli: interrupted; stopping the current run (within a second). "
                                "Press Ctrl-C again to quit at once."));
    m_engine.stop();
}

void RunCommand::onPlanStarted(int runCount)
{
    m_runCount = runCount;
    const TestPlan &p = m_options.plan;
    Console::out(QStringLiteral("%1: %2 runs (%3 host(s) x %4 protocol(s) x %5 frame size(s) x %6 repetitions); %7")
                     .arg(CliOptions::versionText())
                     .arg(runCount)
                     .arg(p.hosts.size())
                     .arg(p.protocols.size())
                     .arg(p.frameSizes.size())
                     .arg(p.repetitions)
                     .arg(lengthOf(p)));
}

QString RunCommand::runLine(const RunResult &r) const
{
    QString mss = r.mss > 0 ? QStringLiteral(" (MSS %1)").arg(r.mss) : QString();
    const int connections = qMax(r.extra.value(QStringLiteral("smb_write_connections")).toInt(),
                                 r.extra.value(QStringLiteral("smb_read_connections")).toInt());
    if (connections > 1)
        mss += QStringLiteral(" over %1 connections").arg(connections);
    if (const int streams = Streams::of(r); streams > 1)
        mss += QStringLiteral(", %1").arg(Streams::label(streams));
    if (const QString zeroCopy = r.extra.value(QStringLiteral("zero_copy")).toString(); !zeroCopy.isEmpty())
        mss += QStringLiteral(", zero copy (%1)").arg(zeroCopy);
    // A reference stream is one run, not a repetition of the comparison.
    const QString rep = TestPlan::isReference(r.spec)
        ? QStringLiteral("reference")
        : QStringLiteral("rep %1/%2").arg(r.spec.repetition).arg(m_options.plan.repetitions);
    QString line = QStringLiteral("run %1/%2  %3  [%4]  %5  frame %6%7  %8  ")
                       .arg(r.spec.index + 1)
                       .arg(m_runCount)
                       .arg(hostLabel(r.spec.host), osOf(r), r.spec.protocol, Frame::frameText(r))
                       .arg(mss, rep);
    switch (r.status) {
    case RunStatus::Ok: {
        if (r.reverse) // both directions at once
            line += QStringLiteral("send %1  receive %2")
                        .arg(figureText(r.bytes, r.seconds), figureText(r.reverse->bytes, r.reverse->seconds));
        else
            line += figureText(r.bytes, r.seconds);
        break;
    }
    case RunStatus::Cancelled:
        line += QStringLiteral("CANCELLED") + (r.error.isEmpty() ? QString() : QStringLiteral(": ") + r.error);
        break;
    case RunStatus::NotRun:
        line += QStringLiteral("NOT RUN: ") + notRunReason(r);
        break;
    case RunStatus::Failed:
        line += QStringLiteral("FAILED: ") + (r.error.isEmpty() ? QStringLiteral("no reason given") : r.error);
        break;
    }
    if (const QString latency = Bufferbloat::figures(r.latency); !latency.isEmpty() && r.status == RunStatus::Ok)
        line += QStringLiteral("\n    ") + latency;
    if (const QString note = Bufferbloat::note(r.latency); !note.isEmpty() && r.status == RunStatus::Ok)
        line += QStringLiteral("\n    note: ") + note; // 5 to 30 ms; from 30 ms it is among the warnings below
    for (const QString &w : r.warnings)
        line += QStringLiteral("\n    warning: ") + w;
    const QString stability = r.extra.value(QStringLiteral("stability")).toString();
    if (!stability.isEmpty() && !r.warnings.contains(stability))
        line += QStringLiteral("\n    ") + stability;
    return line;
}

/// "11.43 MB/s  91.47 Mbit/s  (34.3 MB in 3.00 s)": one direction's figure.
QString RunCommand::figureText(qint64 bytes, double seconds) const
{
    const double rate = seconds > 0 ? bytes / seconds : 0;
    QString text
        = QStringLiteral("%1  %2").arg(Units::format(rate, RateUnit::MBps), Units::format(rate, RateUnit::Mbps));
    if (m_options.unit == RateUnit::MiBps)
        text += QStringLiteral("  %1").arg(Units::format(rate, RateUnit::MiBps));
    return text + QStringLiteral("  (%1 in %2 s)").arg(Units::formatBytes(bytes)).arg(seconds, 0, 'f', 2);
}

void RunCommand::onRunFinished(const RunResult &result)
{
    m_results.append(result);
    Console::out(runLine(result));
}

void RunCommand::printSummary()
{
    const QList<TestSummary> tests = TestSummary::build(m_results);
    if (tests.isEmpty())
        return;
    const QString unit = Units::label(m_options.unit);
    QList<QStringList> rows;
    rows << QStringList{QStringLiteral("host"),   QStringLiteral("OS"),          QStringLiteral("test"),
                        QStringLiteral("MSS"),    QStringLiteral("ok/runs"),     QStringLiteral("min"),
                        QStringLiteral("median"), QStringLiteral("mean"),        QStringLiteral("max"),
                        QStringLiteral("stddev"), QStringLiteral("95% CI (+/-)")};
    const auto addRow = [&](const TestSummary &t, const QString &direction, const Summary &MBps) {
        QStringList row{hostLabel(t.host), t.host.osLabel.isEmpty() ? QStringLiteral("-") : t.host.osLabel,
                        t.protocol + direction + QStringLiteral(" @ ") + Frame::frameText(t.runsOf(m_results)),
                        t.mss > 0 ? QString::number(t.mss) : QStringLiteral("-"),
                        QStringLiteral("%1/%2").arg(t.okRuns).arg(t.okRuns + t.failedRuns)};
        if (t.okRuns > 0) {
            row << fixed(MBps.min, m_options.unit) << fixed(MBps.median, m_options.unit)
                << fixed(MBps.mean, m_options.unit) << fixed(MBps.max, m_options.unit)
                << fixed(MBps.stddev, m_options.unit)
                << (t.okRuns > 1 ? fixed(MBps.ci95HalfWidth, m_options.unit) : QStringLiteral("-"));
        } else {
            for (int i = 0; i < 6; ++i)
                row << QStringLiteral("-");
        }
        rows << row;
    };
    for (const TestSummary &t : tests) {
        if (!t.bothWays) {
            addRow(t, QString(), t.MBps);
            continue;
        }
        addRow(t, QStringLiteral(" send"), t.MBps); // both directions at once: a row each
        addRow(t, QStringLiteral(" receive"), t.reverseMBps);
    }
    QList<qsizetype> widths(rows.first().size(), 0);
    for (const QStringList &row : rows)
        for (qsizetype c = 0; c < row.size(); ++c)
            widths[c] = qMax(widths[c], row.at(c).size());
    Console::out(QStringLiteral("\nSummary per test over its successful repetitions (values in %1):").arg(unit));
    for (const QStringList &row : rows) {
        QString line;
        for (qsizetype c = 0; c < row.size(); ++c) {
            // Text columns left-aligned, numbers right-aligned.
            line += c < 3 ? row.at(c).leftJustified(widths[c]) : row.at(c).rightJustified(widths[c]);
            line += QStringLiteral("  ");
        }
        Console::out(line.trimmed());
    }
    // One line per test that has something to say, under a heading printed only then.
    auto perTest = [&](const QString &heading, const std::function<QString(const TestSummary &)> &lineOf) {
        bool headed = false;
        for (const TestSummary &t : tests) {
            const QString text = lineOf(t);
            if (text.isEmpty())
                continue;
            if (!headed)
                Console::out(QStringLiteral("\n") + heading);
            headed = true;
            Console::out(QStringLiteral("%1  %2 @ %3: %4")
                             .arg(hostLabel(t.host), t.protocol, Frame::frameText(t.runsOf(m_results)), text));
        }
    };
    perTest(QStringLiteral("Likely bottleneck per test:"), [this](const TestSummary &t) {
        return t.okRuns == 0 ? QString() : Bottleneck::sentence(Bottleneck::evidenceFrom(t.runsOf(m_results)));
    });
    perTest(QStringLiteral("Latency under load per test (round trips to the host before and during the load):"),
            [](const TestSummary &t) { return Bufferbloat::testFigures(t.idleLatencyMs, t.loadedLatencyMs); });
    FindingsOutput::print(m_results, &m_store);
}

bool RunCommand::writeOutputs()
{
    bool ok = true;
    QString error;
    if (!m_options.jsonPath.isEmpty()) {
        JsonExport::Options opts;
        opts.includeSamples = m_options.includeSamples;
        if (JsonExport::write(m_options.jsonPath, m_results, opts, &error)) {
            Console::out(QStringLiteral("Wrote %1 (JSON, throughput in MB/s and Mbit/s).").arg(m_options.jsonPath));
        } else {
            Console::err(QStringLiteral("wirebench-cli: ") + error);
            ok = false;
        }
    }
    if (!m_options.csvPath.isEmpty()) {
        if (CsvExport::write(m_options.csvPath, m_results, &error)) {
            Console::out(QStringLiteral("Wrote %1 (CSV, throughput in MB/s and Mbit/s).").arg(m_options.csvPath));
        } else {
            Console::err(QStringLiteral("wirebench-cli: ") + error);
            ok = false;
        }
    }
    if (!m_options.chartPath.isEmpty()) {
        if (ChartOutput::write(m_results, m_options.unit, m_options.chartPath, m_options.chartSize, &error)) {
            Console::out(QStringLiteral("Wrote %1 (comparison chart, %2x%3 px, %4).")
                             .arg(m_options.chartPath)
                             .arg(m_options.chartSize.width())
                             .arg(m_options.chartSize.height())
                             .arg(Units::label(m_options.unit)));
        } else {
            Console::err(QStringLiteral("wirebench-cli: ") + error);
            ok = false;
        }
    }
    return ok;
}

void RunCommand::onPlanFinished(bool cancelled)
{
    m_signalPoll.stop();
    // Runs the plan never reached are part of the record too (status "not-run").
    // Tests that "repeat until stable" settled early need no more repetitions: those are not missing runs.
    auto testOf = [](const RunSpec &spec) {
        return spec.host.name + QLatin1Char('|') + spec.host.address + QLatin1Char(':')
            + QString::number(spec.host.port) + QLatin1Char('|') + spec.testKey();
    };
    const qsizetype reported = m_results.size();
    QSet<int> done;
    QSet<QString> settled;
    for (const RunResult &r : m_results) {
        done.insert(r.spec.index);
        if (r.extra.contains(QStringLiteral("stability")))
            settled.insert(testOf(r.spec));
    }
    int notRun = 0;
    for (const RunSpec &spec : m_options.plan.expand()) {
        if (done.contains(spec.index) || settled.contains(testOf(spec)))
            continue;
        RunResult r;
        r.spec = spec;
        r.status = RunStatus::NotRun;
        r.error = m_interrupted || cancelled ? QStringLiteral("not run: the plan was interrupted")
                                             : QStringLiteral("not run: the plan stopped after a failed run");
        m_results.append(r);
        ++notRun;
    }
    if (notRun > 0)
        Console::out(QStringLiteral("%1 of %2 runs not run (the plan stopped early).").arg(notRun).arg(m_runCount));

    printSummary();
    const bool written = writeOutputs();
    QCoreApplication::exit(exitStatus(reported, cancelled, written));
}

int RunCommand::exitStatus(qsizetype reported, bool cancelled, bool written) const
{
    if (m_interrupted || cancelled) {
        int finished = 0;
        for (const RunResult &r : m_results)
            finished += r.status == RunStatus::Ok || r.status == RunStatus::Failed ? 1 : 0;
        Console::err(QStringLiteral("wirebench-cli: interrupted after %1 of %2 runs; the finished runs are above")
                         .arg(finished)
                         .arg(m_runCount));
        return 130;
    }
    // The runs the engine reported: those the CLI marked not run after a failure follow from that failure.
    int ok = 0;
    int failed = 0;
    int notRun = 0;
    const RunResult *first = nullptr;
    for (qsizetype i = 0; i < reported; ++i) {
        const RunResult &r = m_results.at(i);
        ok += r.ok() ? 1 : 0;
        failed += r.status == RunStatus::Failed ? 1 : 0;
        notRun += r.status == RunStatus::NotRun ? 1 : 0;
        if (!first && (r.status == RunStatus::Failed || r.status == RunStatus::NotRun))
            first = &r;
    }
    if (!first)
        return written ? 0 : 1;
    const QString why
        = first->status == RunStatus::Failed ? first->error : QStringLiteral("not run: ") + notRunReason(*first);
    const int runNumber = first->spec.index + 1;
    if (ok == 0 && notRun > 0)
        Console::err(QStringLiteral("wirebench-cli: not one of the %1 runs succeeded (%2); first: run %3: %4")
                         .arg(m_runCount)
                         .arg(countsOf(failed, notRun))
                         .arg(runNumber)
                         .arg(why));
    else if (failed + notRun == 1)
        Console::err(first->status == RunStatus::Failed
                         ? QStringLiteral("wirebench-cli: run %1 failed: %2").arg(runNumber).arg(why)
                         : QStringLiteral("wirebench-cli: run %1 was %2").arg(runNumber).arg(why));
    else
        Console::err(QStringLiteral("wirebench-cli: %1 of %2 runs did not succeed (%3); first: run %4: %5")
                         .arg(failed + notRun)
                         .arg(m_runCount)
                         .arg(countsOf(failed, notRun))
                         .arg(runNumber)
                         .arg(why));
    return 1;
}

} // namespace wb::cli
