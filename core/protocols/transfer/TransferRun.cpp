#include "TransferRun.h"

#include "LocalDiskRate.h"
#include "LocalSink.h"
#include "LocalSource.h"
#include "TestFile.h"

#include <algorithm>

namespace wb {

namespace {

constexpr qint64 SlowCallNs = 300LL * 1000 * 1000;
constexpr qint64 MinIoBytes = 64 * 1024;

} // namespace

TransferRun::TransferRun(const RunSpec &spec, RunObserver &observer, TransferDriver::Direction direction,
                         const QString &title)
    : m_spec(spec)
    , m_observer(observer)
    , m_direction(direction)
    , m_transfer(TransferSettings::fromParams(spec.params))
    , m_meter(spec.index, spec.params.sampleIntervalMs, observer)
    , m_title(title)
{
    m_result.spec = spec;
    m_result.startedAt = QDateTime::currentDateTimeUtc();
    m_meter.setLine(spec.host.linkSpeedMbps, spec.frameSize);
}

RunResult TransferRun::run()
{
    if (!start())
        return m_result;
    const qint64 size = m_spec.params.fileSizeBytes;
    if (size <= 0)
        return fail(TransferFault::Other, QStringLiteral("the file size must be more than 0 bytes"));
    if (!reach())
        return m_result;
    return m_direction == TransferDriver::Direction::Download ? download(size) : upload(size);
}

PreflightProblem TransferRun::problemOf(const RunResult &result)
{
    return PreflightProblem{{}, {}, result.extra.value(QStringLiteral("fault")).toString(), result.error};
}

PreflightProblemList TransferRun::problemsOf(const RunResult &result)
{
    if (result.status != RunStatus::Failed)
        return {};
    return {problemOf(result)};
}

RunResult TransferRun::fail(TransferFault fault, const QString &what)
{
    m_result.status = RunStatus::Failed;
    m_result.error = transferErrorLine(m_spec, m_port, m_title, fault, what);
    m_result.extra.insert(QStringLiteral("fault"), transferFaultName(fault));
    noteEnd();
    return m_result;
}

RunResult TransferRun::cancelled()
{
    m_result.status = RunStatus::Cancelled;
    m_result.error = QStringLiteral("%1: %2 stopped by the user").arg(m_spec.host.displayName(), m_title);
    noteEnd();
    return m_result;
}

RunResult TransferRun::succeeded()
{
    noteSuccess();
    noteLocalDisk();
    m_result.status = RunStatus::Ok;
    noteEnd();
    return m_result;
}

void TransferRun::finishTiming(qint64 bytes, qint64 endNs)
{
    if (endNs > 0)
        m_meter.finish(endNs);
    else
        m_meter.finish();
    m_result.samples = m_meter.samples();
    m_result.bytes = bytes;
    m_result.seconds = m_meter.elapsedSeconds();
}

void TransferRun::readAsFound(const QString &path, qint64 remote, qint64 planned, qint64 *expected)
{
    const bool verifySkipped = m_transfer.verify;
    m_transfer.verify = false; // the file is not the test pattern
    m_result.warnings << TestFile::readAsFoundWarning(path, remote, planned, verifySkipped);
    m_result.extra.insert(QStringLiteral("read_as_found"), true);
    *expected = remote;
}

bool TransferRun::mayOverwrite(const QByteArray &head, const QString &path, qint64 remote)
{
    if (TestFile::isOwn(head))
        return true;
    m_result = fail(TransferFault::ForeignFile, TestFile::notOverwritten(path, remote));
    return false;
}

QString TransferRun::seedDuring(const QString &path, qint64 size, qint64 replacing)
{
    m_observer.status(QStringLiteral("writing the seed file %1 (%2 bytes)").arg(path).arg(size));
    return replacing < 0
        ? QStringLiteral("while creating the seed file")
        : QStringLiteral("while replacing Wirebench's %1-byte test file with a %2-byte one").arg(replacing).arg(size);
}

void TransferRun::noteSeeded(qint64 replacing)
{
    m_result.extra.insert(QStringLiteral("seeded"), true);
    if (replacing >= 0)
        m_result.extra.insert(QStringLiteral("replaced_test_file_bytes"), replacing);
}

bool TransferRun::endDownload(const LocalSink &sink, bool sinkOk, const QString &localError, qint64 received,
                              qint64 expected, const QString &countVerb)
{
    if (!sinkOk) {
        m_result = fail(sink.localDiskFull() ? TransferFault::LocalDiskFull : TransferFault::LocalError, localError);
        return false;
    }
    if (sink.isFile())
        m_result.extra.insert(QStringLiteral("disk_MBps"), sink.disk().megabytesPerSecond());
    if (expected >= 0 && received != expected) {
        m_result = fail(TransferFault::Mismatch,
                        QStringLiteral("%1 %2 bytes of %3").arg(countVerb).arg(received).arg(expected));
        return false;
    }
    if (m_transfer.verify)
        m_result.extra.insert(QStringLiteral("verified"), QStringLiteral("content matches the test pattern"));
    return true;
}

void TransferRun::noteSourceDisk(const LocalSource &source)
{
    if (source.isFile())
        m_result.extra.insert(QStringLiteral("disk_MBps"), source.disk().megabytesPerSecond());
}

bool TransferRun::endReadBack(qint64 got, qint64 size)
{
    if (got != size) {
        m_result = fail(TransferFault::Mismatch, QStringLiteral("read back %1 bytes of %2").arg(got).arg(size));
        return false;
    }
    m_result.extra.insert(QStringLiteral("verified"), QStringLiteral("read back and compared byte for byte"));
    return true;
}

void TransferRun::noteLocalDisk()
{
    const bool upload = m_direction == TransferDriver::Direction::Upload;
    if (upload ? !m_transfer.fileSource : !m_transfer.fileSink)
        return;
    // After the timed transfer, so that it costs the figure nothing: the disk alone on the same file.
    m_observer.status(
        upload ? QStringLiteral("reading %1 again to measure the local disk (not part of the figure)")
                     .arg(m_transfer.localPath)
               : QStringLiteral("writing a sample beside %1 to measure the local disk (not part of the figure)")
                     .arg(m_transfer.localPath));
    const auto stop = [this] { return m_observer.stopRequested(); };
    const qint64 bytes = std::max(m_result.bytes, qint64(1));
    const LocalDiskRate::Rate rate = upload
        ? LocalDiskRate::readOf(m_transfer.localPath, bytes, m_transfer.unbuffered, stop)
        : LocalDiskRate::writeBeside(m_transfer.localPath, bytes, m_transfer.unbuffered, stop);
    if (!rate.problem.isEmpty()) {
        m_result.extra.insert(QStringLiteral("local_disk_rate_note"), rate.problem);
        return;
    }
    m_result.extra.insert(QStringLiteral("local_disk_rate_MBps"), rate.MBps);
    m_result.extra.insert(QStringLiteral("local_disk_rate_op"),
                          upload ? QStringLiteral("read") : QStringLiteral("write"));
    m_result.extra.insert(QStringLiteral("local_disk_rate_bytes"), rate.bytes);
    m_result.extra.insert(QStringLiteral("local_disk_rate_unbuffered"), rate.direct);
}

TransferFault TransferRun::sinkFault(const LocalSink &sink)
{
    return sink.localDiskFull()  ? TransferFault::LocalDiskFull
        : sink.mismatchAt() >= 0 ? TransferFault::Mismatch
                                 : TransferFault::LocalError;
}

void TransferRun::shrinkAfterSlowCall(qint64 callNs, qint64 *ioBytes)
{
    if (callNs > SlowCallNs && *ioBytes > MinIoBytes)
        *ioBytes /= 2;
}

} // namespace wb
