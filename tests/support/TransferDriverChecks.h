#pragma once

#include "model/RunResult.h"
#include "model/RunSpec.h"
#include "protocols/ProtocolDriver.h"

#include <QByteArray>
#include <QDateTime>
#include <QString>
#include <QStringList>

#include <functional>

namespace wb::test {

class SmallLocalDisk;

/// What the FTP, SMB and copy driver tests (tests/protocols) check alike, written once. A check returns what is
/// wrong, empty when all holds, so that a test says QVERIFY2(problem.isEmpty(), qPrintable(problem)).

/// The offset of the first byte of the file at path that differs from the test pattern, -1 when none does, -2 when
/// the file cannot be read or is not expectedSize bytes long.
qint64 patternMismatchInFile(const QString &path, qint64 expectedSize);
/// Runs s with the driver DriverRegistry gives its protocol.
RunResult runDriver(const RunSpec &s, RunObserver &observer);
/// The same with an observer of its own, for a test that reads only the result.
RunResult runDriver(const RunSpec &s);
/// The bytes of r's samples, added up.
qint64 sampledBytes(const RunResult &r);
/// A FTP or SMB run of protocol against host: the file at `path` (host option pathKey), 1500-byte frames,
/// size bytes, transfer.verify on.
RunSpec transferSpec(const QString &protocol, const Host &host, const QString &pathKey, const QString &path,
                     qint64 size);

/// s with its host's option key set to value.
RunSpec withHostOption(RunSpec s, const QString &key, const QVariant &value);
/// s limited to 4 MiB/s (transfer.max_rate): slow enough for a test to stop it, or end its server, mid-transfer.
RunSpec rateLimited(RunSpec s);

/// r failed with extra.fault == fault (its error is logged).
QString failedWith(const RunResult &r, const QString &fault);
/// s, a 16 MiB GET/read into /dev/full, fails with local_disk_full, its error starting with errorStart and saying so;
/// the run in *ran when given.
QString localDiskFullProblem(RunSpec s, const QString &errorStart, RunResult *ran = nullptr);

/// The rows of a "foreign file is read as it is" test: path (in the server's root) and readOnly (a root-owned folder).
void foreignFileRows();
/// A GET/read of 1 MiB (specOf) finds someone else's 3 MiB + 5 file at path under root, in a folder that is
/// read-only (root's) or user's, and reads it as it is (readAsFoundProblem, read_as_found), its one warning saying
/// so (and alsoSays), the file untouched.
QString readsForeignFileAsItIsProblem(const std::function<RunSpec(qint64 size, const QString &path)> &specOf,
                                      const QString &root, const QString &user, const QString &path, bool readOnly,
                                      const QStringList &alsoSays);
/// r read someone else's file at full (found bytes, SHA-256 digest, last modified) as it is: r ok, the file
/// unchanged, the figure its real size, nothing seeded or verified, and one warning.
QString readAsFoundProblem(const RunResult &r, const QString &full, const QByteArray &digest, const QDateTime &modified,
                           qint64 found);

/// A GET/read of Wirebench's own file `path` (at full on the server) at 1 MiB seeds it, and a second at 2 MiB + 3
/// replaces it (replaced_test_file_bytes, verified, no warning, the pattern on the server). *small and *big are the
/// two results, for the test's own checks.
QString replacesOwnTestFileProblem(const std::function<RunSpec(qint64 size)> &specOfSize, const QString &full,
                                   RunResult *small, RunResult *big);
/// A write refuses to go over someone else's file theirs/keep.bin under root (its error starts with errorStart and
/// says why), and does go over Wirebench's own theirs/wirebench-own.bin. user owns the folder and the files.
QString keepsForeignFileProblem(const std::function<RunSpec(const QString &path)> &specOfPath, const QString &root,
                                const QString &user, const QString &errorStart);
/// s, a 16 MiB GET/read into download.bin on disk (4 MiB), fails with local_disk_full: its error starts with
/// errorStart + "the local disk is full while writing <file> (" and removes the partial file, freeing the disk; the
/// run in *ran when given.
QString fullLocalDiskProblem(RunSpec s, const SmallLocalDisk &disk, const QString &errorStart,
                             RunResult *ran = nullptr);

} // namespace wb::test

/// Fails the test with the problem a check above found, if any.
#define WB_CHECK(problem)                                                                                              \
    do {                                                                                                               \
        const QString wbProblem = (problem);                                                                           \
        QVERIFY2(wbProblem.isEmpty(), qPrintable(wbProblem));                                                          \
    } while (false)
