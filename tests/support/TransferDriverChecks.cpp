#include "TransferDriverChecks.h"

#include "protocols/DriverRegistry.h"
#include "protocols/FileServerFixture.h"
#include "protocols/SmallLocalDisk.h"
#include "protocols/transfer/TestPattern.h"
#include "protocols/transfer/TransferSettings.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QtTest>

namespace wb::test {

qint64 patternMismatchInFile(const QString &path, qint64 expectedSize)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() != expectedSize)
        return -2;
    const QByteArray all = f.readAll();
    return TestPattern::firstMismatch(all.constData(), 0, all.size());
}

RunResult runDriver(const RunSpec &s, RunObserver &observer)
{
    auto driver = DriverRegistry::create(s.protocol);
    Q_ASSERT(driver);
    return driver->run(s, observer);
}

RunResult runDriver(const RunSpec &s)
{
    TestObserver observer;
    return runDriver(s, observer);
}

qint64 sampledBytes(const RunResult &r)
{
    qint64 sampled = 0;
    for (const Sample &s : r.samples)
        sampled += s.bytes;
    return sampled;
}

RunSpec transferSpec(const QString &protocol, const Host &host, const QString &pathKey, const QString &path,
                     qint64 size)
{
    RunSpec s;
    s.protocol = protocol;
    s.host = host;
    s.host.options.insert(pathKey, path);
    s.frameSize = 1500;
    s.params.fileSizeBytes = size;
    s.params.options.insert(QLatin1String(TransferSettings::VerifyKey), true);
    return s;
}

RunSpec withHostOption(RunSpec s, const QString &key, const QVariant &value)
{
    s.host.options.insert(key, value);
    return s;
}

RunSpec rateLimited(RunSpec s)
{
    s.params.options.insert(QLatin1String(TransferSettings::MaxRateKey), 4 * 1024 * 1024);
    return s;
}

QString failedWith(const RunResult &r, const QString &fault)
{
    qInfo("%s", qPrintable(r.error));
    if (r.status != RunStatus::Failed)
        return QStringLiteral("the run did not fail: %1").arg(r.error);
    const QString got = r.extra.value(QStringLiteral("fault")).toString();
    if (got != fault)
        return QStringLiteral("fault %1, expected %2: %3").arg(got, fault, r.error);
    return {};
}

QString localDiskFullProblem(RunSpec s, const QString &errorStart, RunResult *ran)
{
    sinkToFile(s, QStringLiteral("/dev/full"));
    TestObserver o;
    const RunResult r = runDriver(s, o);
    if (ran)
        *ran = r;
    return faultProblem(r, QStringLiteral("local_disk_full"), errorStart,
                        QStringLiteral("the local disk is full while writing /dev/full"), s.params.fileSizeBytes);
}

void foreignFileRows()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("readOnly");
    QTest::newRow("writable folder") << QStringLiteral("theirs/foreign.bin") << false;
    QTest::newRow("read-only folder") << QStringLiteral("pub/big.bin") << true;
    QTest::newRow("Wirebench's name, someone's content") << QStringLiteral("theirs/wirebench-lookalike.bin") << false;
}

QString readAsFoundProblem(const RunResult &r, const QString &full, const QByteArray &digest, const QDateTime &modified,
                           qint64 found)
{
    qInfo("%s", qPrintable(r.warnings.join(QLatin1Char('|'))));
    if (!r.ok())
        return r.error;
    if (fileDigest(full) != digest || QFileInfo(full).lastModified() != modified)
        return QStringLiteral("%1 changed").arg(full); // it must stay byte-identical
    if (r.bytes != found || r.senderBytes != found)    // the file's real size is the transfer's
        return QStringLiteral("%1 B (sender %2 B), the file holds %3 B").arg(r.bytes).arg(r.senderBytes).arg(found);
    if (r.extra.contains(QStringLiteral("seeded")) || r.extra.contains(QStringLiteral("verified")))
        return QStringLiteral("the file was seeded or verified");
    if (r.warnings.size() != 1)
        return QStringLiteral("%1 warnings, not one: %2").arg(r.warnings.size()).arg(r.warnings.join(QLatin1Char('|')));
    return {};
}

QString readsForeignFileAsItIsProblem(const std::function<RunSpec(qint64 size, const QString &path)> &specOf,
                                      const QString &root, const QString &user, const QString &path, bool readOnly,
                                      const QStringList &alsoSays)
{
    const QString full = root + QLatin1Char('/') + path;
    const QString folder = QFileInfo(full).absolutePath();
    if (!(readOnly ? makeReadOnlyFolder(folder) : QDir().mkpath(folder)))
        return QStringLiteral("cannot make the folder %1").arg(folder);
    if (!readOnly && QProcess::execute(QStringLiteral("chown"), {user, folder}) != 0)
        return QStringLiteral("cannot give %1 to %2").arg(folder, user);
    const qint64 found = 3 * 1024 * 1024 + 5;
    const qint64 planned = 1024 * 1024;
    const QByteArray digest = makeForeignFile(full, found, readOnly ? QString() : user);
    if (digest.isEmpty())
        return QStringLiteral("cannot make %1").arg(full);
    const QDateTime modified = QFileInfo(full).lastModified();

    TestObserver o;
    const RunResult r = runDriver(specOf(planned, path), o); // transfer.verify on
    const QString problem = readAsFoundProblem(r, full, digest, modified, found);
    if (!problem.isEmpty())
        return problem;
    if (!r.extra.value(QStringLiteral("read_as_found")).toBool())
        return QStringLiteral("read_as_found is not set");
    const QString w = r.warnings.first();
    QStringList says{
        QStringLiteral("\"%1\" on the server holds %2 bytes, not the plan's %3").arg(path).arg(found).arg(planned),
        QStringLiteral("not a Wirebench test file"), QStringLiteral("read as it is")};
    says << alsoSays << QStringLiteral("not verified");
    for (const QString &words : says) {
        if (!w.contains(words))
            return QStringLiteral("the warning does not say \"%1\": %2").arg(words, w);
    }
    if (w.contains(QStringLiteral("replaced")))
        return QStringLiteral("the warning says replaced: %1").arg(w);
    return {};
}

QString replacesOwnTestFileProblem(const std::function<RunSpec(qint64 size)> &specOfSize, const QString &full,
                                   RunResult *small, RunResult *big)
{
    TestObserver first;
    *small = runDriver(specOfSize(1024 * 1024), first);
    if (!small->ok())
        return small->error;
    if (!small->extra.value(QStringLiteral("seeded")).toBool())
        return QStringLiteral("the first run did not seed the file");
    const qint64 size = 2 * 1024 * 1024 + 3;
    TestObserver second;
    *big = runDriver(specOfSize(size), second);
    if (!big->ok())
        return big->error;
    if (big->bytes != size)
        return QStringLiteral("%1 B of %2").arg(big->bytes).arg(size);
    if (big->extra.value(QStringLiteral("replaced_test_file_bytes")).toLongLong() != 1024 * 1024)
        return QStringLiteral("replaced_test_file_bytes is %1")
            .arg(big->extra.value(QStringLiteral("replaced_test_file_bytes")).toLongLong());
    if (!big->extra.contains(QStringLiteral("verified")))
        return QStringLiteral("the second run did not verify");
    if (!big->warnings.isEmpty())
        return big->warnings.join(QLatin1Char('|'));
    if (patternMismatchInFile(full, size) != -1)
        return QStringLiteral("%1 is not the %2-byte test pattern").arg(full).arg(size);
    return {};
}

QString keepsForeignFileProblem(const std::function<RunSpec(const QString &path)> &specOfPath, const QString &root,
                                const QString &user, const QString &errorStart)
{
    const QString path = QStringLiteral("theirs/keep.bin");
    const QString full = root + QLatin1Char('/') + path;
    if (!QDir().mkpath(QFileInfo(full).absolutePath()))
        return QStringLiteral("cannot make the folder of %1").arg(full);
    if (QProcess::execute(QStringLiteral("chown"), {user, QFileInfo(full).absolutePath()}) != 0)
        return QStringLiteral("cannot give the folder of %1 to %2").arg(full, user);
    const QByteArray digest = makeForeignFile(full, 12345, user);
    TestObserver o;
    const RunResult r = runDriver(specOfPath(path), o);
    const QString refused = failedWith(r, QStringLiteral("foreign_file"));
    if (!refused.isEmpty())
        return refused;
    if (!r.error.startsWith(errorStart
                            + QStringLiteral("\"theirs/keep.bin\" already exists on the server (12345 bytes) "
                                             "and is not a Wirebench test file"))
        || !r.error.contains(QStringLiteral("Wirebench does not overwrite it: choose another file name")))
        return r.error;
    if (fileDigest(full) != digest)
        return QStringLiteral("%1 changed").arg(full);

    const QString own = QStringLiteral("theirs/wirebench-own.bin");
    if (makeTestPatternFile(root + QLatin1Char('/') + own, 1000, user).isEmpty())
        return QStringLiteral("cannot make %1").arg(own);
    const RunResult put = runDriver(specOfPath(own), o);
    if (!put.ok())
        return put.error;
    const qint64 size = specOfPath(own).params.fileSizeBytes;
    if (patternMismatchInFile(root + QLatin1Char('/') + own, size) != -1)
        return QStringLiteral("%1 is not the %2-byte test pattern").arg(own).arg(size);
    return {};
}

QString fullLocalDiskProblem(RunSpec s, const SmallLocalDisk &disk, const QString &errorStart, RunResult *ran)
{
    const QString local = disk.path() + QStringLiteral("/download.bin");
    sinkToFile(s, local);
    TestObserver o;
    const RunResult r = runDriver(s, o);
    if (ran)
        *ran = r;
    const QString problem
        = faultProblem(r, QStringLiteral("local_disk_full"),
                       errorStart + QStringLiteral("the local disk is full while writing %1 (").arg(local),
                       QStringLiteral("B received); the partial file was removed: free space on this computer"),
                       s.params.fileSizeBytes);
    if (!problem.isEmpty())
        return problem;
    if (QFile::exists(local))
        return QStringLiteral("the partial file %1 is still there").arg(local);
    if (disk.usedBytes() >= 64 * 1024)
        return QStringLiteral("%1 B still used on the small disk").arg(disk.usedBytes());
    return {};
}

} // namespace wb::test
