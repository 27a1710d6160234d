#pragma once

// Stores filled through the ResultStore API with sessions whose figures are known exactly.

#include "model/RunResult.h"
#include "plan/TestPlan.h"
#include "storage/ResultStore.h"
#include "support/HostRows.h"

#include <QDateTime>

namespace histtest {

inline wb::Host host(const QString &name, const QString &address, const QString &os)
{
    return wb::test::namedHost(name, address, os);
}

/// Throughput of a run in bytes/s: distinct per host, protocol, frame size and repetition.
inline double rateOf(const wb::RunSpec &spec)
{
    const double base = spec.host.osLabel == QLatin1String("Linux") ? 100e6 : 60e6;
    const double frame = spec.frameSize >= 9000 ? 1.5 : 1.0;
    const double proto = spec.protocol == QLatin1String("tcp-recv") ? 0.9 : 1.0;
    return base * frame * proto + spec.repetition * 1e6; // reps 1..3: +1, +2, +3 MB/s
}

/// A finished run whose samples (10 of 100 ms) add up exactly to its bytes.
inline wb::RunResult run(const wb::RunSpec &spec, const QDateTime &start)
{
    wb::RunResult r;
    r.spec = spec;
    r.status = wb::RunStatus::Ok;
    r.startedAt = start.addSecs(spec.index * 2);
    r.mss = spec.frameSize - 52;
    r.serverOs = spec.host.osLabel;
    const qint64 perSample = qint64(rateOf(spec) / 10);
    for (int i = 0; i < 10; ++i) {
        wb::Sample s;
        s.runIndex = spec.index;
        s.endSeconds = (i + 1) * 0.1;
        s.intervalSeconds = 0.1;
        s.bytes = perSample;
        r.samples << s;
        r.bytes += perSample;
    }
    r.seconds = 1.0;
    r.senderBytes = r.bytes;
    r.extra.insert(QStringLiteral("percent_of_ceiling"), rateOf(spec) / 118.75e6 * 100);
    return r;
}

inline wb::TestPlan plan(const QList<wb::Host> &hosts, const QList<int> &frames, int reps = 3)
{
    wb::TestPlan p;
    p.hosts = hosts;
    p.protocols = {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
    p.frameSizes = frames;
    p.repetitions = reps;
    p.params.durationMs = 1000;
    return p;
}

/// Runs the whole plan into the store; returns the session id.
inline qint64 addSession(wb::ResultStore &store, const wb::TestPlan &p, const QDateTime &start,
                         wb::SessionState end = wb::SessionState::Finished)
{
    const qint64 id = store.beginSession(p);
    if (id == 0)
        return 0;
    for (const wb::RunSpec &spec : p.expand()) {
        if (store.addRun(id, run(spec, start)) == 0)
            return 0;
    }
    if (end != wb::SessionState::Running)
        store.endSession(id, end);
    return id;
}

inline wb::Host linuxHost()
{
    return host(QStringLiteral("linux-fs"), QStringLiteral("127.0.0.2"), QStringLiteral("Linux"));
}
inline wb::Host windowsHost()
{
    return host(QStringLiteral("win-fs"), QStringLiteral("127.0.0.3"), QStringLiteral("Windows Server 2003"));
}

} // namespace histtest
