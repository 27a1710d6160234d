#pragma once

#include "model/RunResult.h"

#include <QTest>

namespace wb::test {

/// QCOMPAREs the fields of a run that every round trip keeps (the JSON export, the result store): the spec's index,
/// host (name, address, port, OS label), protocol, frame, repetition, duration and message size; status, error,
/// warnings, start, bytes, seconds, sender bytes, MSS and server OS. A caller that goes on checks
/// QTest::currentTestFailed() first.
inline void compareKeptFields(const RunResult &got, const RunResult &want)
{
    const RunSpec &g = got.spec;
    const RunSpec &w = want.spec;
    QCOMPARE(g.index, w.index);
    QCOMPARE(g.host.name, w.host.name);
    QCOMPARE(g.host.address, w.host.address);
    QCOMPARE(g.host.port, w.host.port);
    QCOMPARE(g.host.osLabel, w.host.osLabel);
    QCOMPARE(g.protocol, w.protocol);
    QCOMPARE(g.frameSize, w.frameSize);
    QCOMPARE(g.repetition, w.repetition);
    QCOMPARE(g.params.durationMs, w.params.durationMs);
    QCOMPARE(g.params.messageSize, w.params.messageSize);
    QCOMPARE(got.status, want.status);
    QCOMPARE(got.error, want.error);
    QCOMPARE(got.warnings, want.warnings);
    QCOMPARE(got.startedAt, want.startedAt);
    QCOMPARE(got.bytes, want.bytes);
    QCOMPARE(got.seconds, want.seconds);
    QCOMPARE(got.senderBytes, want.senderBytes);
    QCOMPARE(got.mss, want.mss);
    QCOMPARE(got.serverOs, want.serverOs);
}

} // namespace wb::test
