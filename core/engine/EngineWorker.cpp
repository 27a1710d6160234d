#include "EngineWorker.h"

#include "analysis/RepeatUntilStable.h"
#include "protocols/DriverRegistry.h"
#include "protocols/transfer/TransferError.h"

#include <QDateTime>
#include <QHash>
#include <QSet>

namespace wb {

namespace {

constexpr int kFarCountersTimeoutMs = 1000; // a LAN's round trip many times over; a host without wirebenchd refuses

} // namespace

namespace {
constexpr qint64 kFlushIntervalMs = 100; // batch live samples for the GUI at this rhythm at most
}

EngineWorker::EngineWorker(QObject *parent)
    : QObject(parent)
{
}

void EngineWorker::runPlan(const TestPlan &plan, const PreflightReport &checked)
{
    m_stop.store(false);
    m_analyzer.reset();
    m_smbIdentity.clear();
    m_farNone.clear(); // a wirebenchd started since the last plan is asked again
    m_checked = checked;
    m_lasting.clear();
    m_runs = checked.planToRun(plan).expand(); // without the reference streams the check found no server for
    const QList<RunSpec> &runs = m_runs;
    m_doneCount = 0;
    m_totalCount = int(runs.size());
    emit planStarted(int(runs.size()));
    emit progressChanged(0, int(runs.size()), estimateSecondsLeft(runs, 0));

    bool cancelled = false;
    QHash<QString, QList<double>> figures; // per test, for "repeat until stable"
    QSet<QString> settled;                 // tests that need no more repetitions
    int skipped = 0;
    for (int i = 0; i < runs.size(); ++i) {
        if (m_stop.load()) {
            cancelled = true;
            break;
        }
        const RunSpec &spec = runs.at(i);
        const QString key = stabilityKey(spec);
        if (settled.contains(key)) {
            ++skipped;
            continue;
        }
        m_current = i;
        RunResult result;
        if (const QString why = doomedReason(spec); !why.isEmpty()) {
            result.spec = spec; // kept in the record, in its turn, with the reason
            result.status = RunStatus::NotRun;
            result.error = why;
        } else {
            emit runStarted(spec);
            result = runOne(spec);
            flushSamples();
            noteLastingFailure(result);
        }
        if (plan.params.stableTargetPercent > 0 && result.ok()) {
            figures[key].append(result.megabytesPerSecond());
            const StableDecision d = RepeatUntilStable::decide(figures.value(key), plan.params.minRepetitions,
                                                               plan.repetitions, plan.params.stableTargetPercent);
            if (!d.repeat) {
                settled.insert(key);
                result.extra.insert(QStringLiteral("stability"), d.note);
                if (!d.targetReached)
                    result.warnings.append(d.note);
            }
        }
        emit runFinished(result);
        // Settled tests shrink the plan: the remaining repetitions of each are not run.
        int left = 0;
        for (int j = i + 1; j < runs.size(); ++j)
            left += settled.contains(stabilityKey(runs.at(j))) ? 0 : 1;
        m_doneCount = i + 1 - skipped;
        m_totalCount = m_doneCount + left;
        const double share = left / qMax(1.0, double(runs.size() - i - 1));
        emit progressChanged(m_doneCount, m_totalCount, estimateSecondsLeft(runs, i + 1) * share);
        if (result.status == RunStatus::Cancelled) {
            cancelled = true;
            break;
        }
        if (result.status == RunStatus::Failed && plan.params.stopOnError) {
            emit statusChanged(QStringLiteral("Stopped after a failed run, as the plan asks."));
            break;
        }
    }
    for (const QString &line : m_analyzer.endPlan()) // interface MTUs set for frame sizes go back
        emit statusChanged(line);
    emit planFinished(cancelled);
}

RunResult EngineWorker::runOne(const RunSpec &spec)
{
    m_pendingSamples.clear();
    m_sinceFlush.start();
    m_runClock.start();
    m_leadMs = 0;
    const QDateTime startedAt = QDateTime::currentDateTimeUtc();

    RunResult result;
    std::unique_ptr<ProtocolDriver> driver = DriverRegistry::create(spec.protocol);
    if (!driver) {
        result.spec = spec;
        result.status = RunStatus::Failed;
        result.error = QStringLiteral("%1: unknown protocol \"%2\"; choose one that this build offers.")
                           .arg(spec.host.displayName(), spec.protocol);
    } else {
        emit statusChanged(QStringLiteral("Run %1: %2 to %3 at frame size %4, repetition %5")
                               .arg(spec.index + 1)
                               .arg(spec.protocol, spec.host.displayName())
                               .arg(spec.frameSize)
                               .arg(spec.repetition));
        m_analyzer.beforeRun(spec);
        if (const QString why = m_analyzer.notRunReason(); !why.isEmpty()) { // frame size above the path MTU
            result.status = RunStatus::NotRun;
            result.error = why; // names the host; no probe went out: nothing reached it
        } else {
            // The latency probe's idle lead, only for a run that goes ahead; the meters start after it, so that
            // the run's CPU, drop and error counts are the load's.
            if (const int idleMs = LatencyRecorder::idleMsOf(spec); idleMs > 0)
                emit statusChanged(QStringLiteral("Timing the round trip to %1 before the load (%2 s)")
                                       .arg(spec.host.displayName())
                                       .arg(idleMs / 1000.0));
            m_latency.begin(spec, [this] { return m_stop.load(); });
            m_analyzer.startMeters();
            greetFarEnd(spec);
            m_latency.driverStarts();
            m_leadMs = m_runClock.elapsed();
            result = driver->run(spec, *this);
            result.latency = m_latency.finish();
            m_far.close();
            // What the far end dropped in the timed part, where its wirebenchd could tell and the driver did not.
            if (!m_farDrops.isEmpty() && !result.extra.contains(QStringLiteral("remote_drops"))) {
                result.extra.insert(QStringLiteral("remote_drops"), m_farDrops);
                result.extra.insert(QStringLiteral("remote_drops_source"), QStringLiteral("wirebenchd counters"));
            }
            m_farDrops.clear();
        }
        result.spec = spec; // drivers may not rewrite what was asked
    }
    if (!result.startedAt.isValid())
        result.startedAt = startedAt;
    if (m_stop.load() && result.status == RunStatus::Ok)
        result.status = RunStatus::Cancelled;
    addSmbIdentity(result);
    m_analyzer.afterRun(result);
    if (result.ok() && result.bytes > 0) {
        const ProtocolInfo *info = DriverRegistry::find(spec.protocol);
        if (info && !info->timed)
            m_secondsPerByte = (m_runClock.elapsed() - m_leadMs) / 1000.0 / double(result.bytes);
    }
    return result;
}

void EngineWorker::addSmbIdentity(RunResult &result)
{
    // SMB drivers cannot see who answers (libsmbclient hides it): ask the server once, after its first run,
    // so that results name e.g. "Samba 4.17.12-Debian (NTLMSSP 6.1 build 0)".
    const RunSpec &spec = result.spec;
    const ProtocolInfo *info = DriverRegistry::find(spec.protocol);
    if (!info || info->serverProbe != ProtocolInfo::ServerProbe::Smb || !result.serverOs.isEmpty() || m_stop.load()
        || result.status == RunStatus::Cancelled || result.status == RunStatus::NotRun)
        return;
    const QString key = spec.host.address + QLatin1Char(':') + QString::number(SmbIdentityProbe::portOf(spec.host));
    auto it = m_smbIdentity.constFind(key);
    if (it == m_smbIdentity.cend())
        it = m_smbIdentity.insert(key, SmbIdentityProbe::probe(spec.host));
    if (it->serverOs.isEmpty())
        return;
    result.serverOs = it->serverOs;
    if (!result.extra.contains(QStringLiteral("server_identity_source")))
        result.extra.insert(QStringLiteral("server_identity_source"), it->source);
}

QString EngineWorker::doomedReason(const RunSpec &spec) const
{
    if (const QString why = m_checked.notRunReason(spec); !why.isEmpty())
        return why;
    const auto it = m_lasting.constFind(stabilityKey(spec));
    if (it == m_lasting.cend())
        return {};
    return QStringLiteral("not run: same cause as run %1, which repeating cannot cure: %2")
        .arg(it->spec.index + 1)
        .arg(it->error);
}

void EngineWorker::noteLastingFailure(RunResult &result)
{
    // The driver classified the failure (RunResult::extra["fault"]); a refused connection, a refused login or a
    // missing share meets every repetition of the test in the same way, so the remaining ones are not run.
    if (result.status != RunStatus::Failed
        || !repeatCannotCure(transferFaultFromName(result.extra.value(QStringLiteral("fault")).toString())))
        return;
    result.extra.insert(QStringLiteral("repeat_cannot_cure"), true);
    m_lasting.insert(stabilityKey(result.spec), result);
}

void EngineWorker::sample(const Sample &s)
{
    m_pendingSamples.append(s);
    m_latency.sampled(s);
    m_analyzer.duringRun(); // MSS of connections the driver does not own (sock_diag)
    if (m_sinceFlush.elapsed() >= kFlushIntervalMs)
        flushSamples();
}

void EngineWorker::status(const QString &text)
{
    emit statusChanged(text);
}

void EngineWorker::timedPartStarts()
{
    m_analyzer.startMeters();
    if (m_far.greeted() && !m_far.mark(kFarCountersTimeoutMs))
        m_far.close();
}

void EngineWorker::timedPartEnds()
{
    m_analyzer.stopMeters();
    if (m_far.greeted())
        m_farDrops = m_far.take(kFarCountersTimeoutMs);
}

void EngineWorker::greetFarEnd(const RunSpec &spec)
{
    m_far.close();
    m_farDrops.clear();
    const ProtocolInfo *info = DriverRegistry::find(spec.protocol);
    // The transfers that another server carries: FTP and SMB (wirebenchd's own runs report their far end themselves).
    if (!info || (info->family != QLatin1String("ftp") && info->family != QLatin1String("smb")) || m_stop.load())
        return;
    const QString key = spec.host.address + QLatin1Char(':')
        + QString::number(spec.host.port ? spec.host.port : control::kDefaultPort);
    if (m_farNone.contains(key))
        return;
    QString why;
    if (!m_far.greet(spec.host, kFarCountersTimeoutMs, &why))
        m_farNone.insert(key); // no wirebenchd there, or an older one: the far end's counters are not known
}

void EngineWorker::flushSamples()
{
    if (const LatencySampleList live = m_latency.takeLive(); !live.isEmpty())
        emit latencyReady(live);
    if (!m_pendingSamples.isEmpty()) {
        emit samplesReady(m_pendingSamples);
        m_pendingSamples.clear();
        // Time left counts down during a run too, not only at its end.
        const double inRun = m_runClock.isValid() ? m_runClock.elapsed() / 1000.0 : 0;
        const double left = estimateSecondsLeft(m_runs, m_current);
        emit progressChanged(m_doneCount, m_totalCount, qMax(0.0, left - inRun));
    }
    m_sinceFlush.restart();
}

QString EngineWorker::stabilityKey(const RunSpec &spec)
{
    return spec.host.name + QLatin1Char('|') + spec.host.address + QLatin1Char(':') + QString::number(spec.host.port)
        + QLatin1Char('|') + spec.testKey();
}

double EngineWorker::estimateSecondsLeft(const QList<RunSpec> &runs, int current) const
{
    double left = 0;
    for (int i = current; i < runs.size(); ++i) {
        const RunSpec &spec = runs.at(i);
        if (!doomedReason(spec).isEmpty())
            continue; // reported at once, not run
        const ProtocolInfo *info = DriverRegistry::find(spec.protocol);
        left += LatencyRecorder::idleMsOf(spec) / 1000.0; // the latency probe's idle lead
        if (!info || info->timed) {
            left += (spec.params.durationMs + spec.params.warmupMs) / 1000.0 + 0.2; // + connection set-up
        } else {
            // A sized transfer: use what the finished ones took, else assume 100 MB/s.
            const double perByte = m_secondsPerByte > 0 ? m_secondsPerByte : 1e-8;
            left += spec.params.fileSizeBytes * perByte + 0.5;
        }
    }
    return left;
}

} // namespace wb
