#pragma once

#include "TransferDriver.h"
#include "TransferError.h"
#include "TransferSettings.h"
#include "protocols/ProtocolDriver.h"
#include "protocols/ThroughputMeter.h"

#include <QByteArray>
#include <QString>

namespace wb {

class LocalSink;
class LocalSource;

/// One run of a file-transfer driver (FTP, SMB, copy): what each of them does the same way, written once. run()
/// takes the steps every family has (start, the size, reach the server, then download() or upload()); the
/// endings (failed with a fault, stopped by the user, succeeded), the meter's timing and the rules of test files
/// (a foreign file is read as it is and never written over) are here; the family writes its own steps.
class TransferRun
{
public:
    virtual ~TransferRun() = default;

    RunResult run();
    /// What run() would meet first, each step within timeoutMs; every problem found (none: nothing in the way).
    virtual PreflightProblemList check(int timeoutMs) = 0;

    /// The problem of a check that ended in a failed result: its fault and error (none when it did not fail).
    static PreflightProblemList problemsOf(const RunResult &result);
    static PreflightProblem problemOf(const RunResult &result);
    /// The fault of a LocalSink::write() that failed.
    static TransferFault sinkFault(const LocalSink &sink);

protected:
    TransferRun(const RunSpec &spec, RunObserver &observer, TransferDriver::Direction direction, const QString &title);

    /// Before the size is looked at (FTP: libcurl and the TLS settings). False: m_result says why.
    virtual bool start() { return true; }
    /// After the size: whatever the family needs before the file (a path, a share, the server's kind).
    virtual bool reach() = 0;
    virtual RunResult download(qint64 size) = 0;
    virtual RunResult upload(qint64 size) = 0;
    /// What a successful run adds to the result before its status turns Ok.
    virtual void noteSuccess() { }
    /// What every ending adds (FTP: the server's identity); fail(), cancelled() and succeeded() call it.
    virtual void noteEnd() { }

    RunResult fail(TransferFault fault, const QString &what);
    RunResult cancelled();
    RunResult succeeded();
    /// Ends the meter (now, or at endNs on its clock when that is > 0): its samples and time, and bytes as the
    /// count, go into the result.
    void finishTiming(qint64 bytes, qint64 endNs = 0);

    /// A GET/read found `path` with `remote` bytes where the plan asked for `planned`, and it is not Wirebench's:
    /// it is read as it is (warning, no verification) and *expected becomes its size.
    void readAsFound(const QString &path, qint64 remote, qint64 planned, qint64 *expected);
    /// A PUT/write may go over the file whose first bytes are head only when it is Wirebench's own; false (and
    /// the ForeignFile failure in m_result) otherwise.
    bool mayOverwrite(const QByteArray &head, const QString &path, qint64 remote);
    /// The status of a seed upload and the words of its failure ("while creating the seed file", ...).
    QString seedDuring(const QString &path, qint64 size, qint64 replacing);
    /// A seed file was written (replacing >= 0: the size of Wirebench's own file it replaced).
    void noteSeeded(qint64 replacing);
    /// The end of a download into sink: the sink's flush (sinkOk), its disk speed, the count against expected
    /// (-1: unknown) and the pattern check. False: m_result holds the failure.
    bool endDownload(const LocalSink &sink, bool sinkOk, const QString &localError, qint64 received, qint64 expected,
                     const QString &countVerb);
    /// The local source's read speed, when it is a file.
    void noteSourceDisk(const LocalSource &source);
    /// A read-back that read `got` bytes of `size` and found them all equal. False: m_result holds the mismatch.
    bool endReadBack(qint64 got, qint64 size);
    /// With a local file source or sink: the local disk's own rate on it (LocalDiskRate), after the timed transfer,
    /// into local_disk_rate_MBps and local_disk_rate_op (or local_disk_rate_note when it could not be measured).
    void noteLocalDisk();
    /// Halves the I/O size after a call slower than 300 ms (down to 64 KiB), so that Stop stays quick.
    static void shrinkAfterSlowCall(qint64 callNs, qint64 *ioBytes);

    RunSpec m_spec;
    RunObserver &m_observer;
    TransferDriver::Direction m_direction;
    TransferSettings m_transfer;
    ThroughputMeter m_meter;
    RunResult m_result;
    QString m_title;
    int m_port = 0;     ///< the server's port in error lines (0: none, a local path)
    qint64 m_moved = 0; ///< bytes of the timed transfer so far
};

} // namespace wb
