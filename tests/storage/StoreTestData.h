#pragma once

// Plans and runs with every field filled, shared by the store tests and the crash helper.

#include "model/RunResult.h"
#include "plan/TestPlan.h"
#include "support/HostRows.h"

#include <QDateTime>

namespace wbtest {

inline wb::Host host(const QString &name, const QString &address, const QString &os)
{
    wb::Host h = wb::test::namedHost(name, address, os);
    h.linkSpeedMbps = 1000;
    h.options.insert(QStringLiteral("smb.share"), QStringLiteral("bench"));
    h.options.insert(QStringLiteral("ftp.password"), QStringLiteral("hunter2")); // must never be stored
    return h;
}

inline wb::TestPlan plan()
{
    wb::TestPlan p;
    p.hosts = {host(QStringLiteral("linux-fs"), QStringLiteral("127.0.0.2"), QStringLiteral("Linux")),
               host(QStringLiteral("win-fs"), QStringLiteral("127.0.0.3"), QStringLiteral("Windows Server 2003"))};
    p.protocols = {QStringLiteral("tcp-send"), QStringLiteral("tcp-recv")};
    p.frameSizes = {1500, 9000};
    p.repetitions = 2;
    p.params.durationMs = 3000;
    p.params.messageSize = 1472;
    return p;
}

/// A run of `spec` with `sampleCount` samples of 100 ms whose bytes add up to `bytes`.
inline wb::RunResult run(const wb::RunSpec &spec, qint64 bytesPerSample, int sampleCount)
{
    wb::RunResult r;
    r.spec = spec;
    r.status = wb::RunStatus::Ok;
    r.startedAt = QDateTime(QDate(2026, 11, 2), QTime(10, 0, spec.index), Qt::UTC);
    r.mss = spec.frameSize - 52;
    r.serverOs = QStringLiteral("Linux 6.1.0");
    for (int i = 0; i < sampleCount; ++i) {
        wb::Sample s;
        s.runIndex = spec.index;
        s.endSeconds = (i + 1) * 0.1;
        s.intervalSeconds = 0.1;
        s.bytes = bytesPerSample + i; // distinct values so that order mistakes show
        r.samples.append(s);
        r.bytes += s.bytes;
    }
    r.seconds = sampleCount * 0.1;
    r.senderBytes = r.bytes + 4096;
    r.extra.insert(QStringLiteral("sample_count"), sampleCount);
    r.extra.insert(QStringLiteral("rtt_us"), 41.5);
    return r;
}

} // namespace wbtest
