// libsmbclient is opened when SMB is first used, not linked: a process that never tests SMB does not map it
// (issue 17: wirebench-cli at most 25 MiB resident; the Samba libraries were 11 MiB of it).
#include "protocols/smb/SmbClientLibrary.h"

#include <QFile>
#include <QTest>

using namespace wb;

namespace {

bool mapped(const char *name)
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    if (!maps.open(QIODevice::ReadOnly))
        qFatal("cannot read /proc/self/maps");
    return maps.readAll().contains(name);
}

void noCredentials(SMBCCTX *, const char *, const char *, char *, int, char *, int, char *, int) { }

} // namespace

class TestSmbClientLibrary : public QObject
{
    Q_OBJECT
private slots:
    void notMappedUntilUsed()
    {
        // This test links wirebench_core whole, as wirebench-cli does.
        QVERIFY2(!mapped("libsmbclient.so"), "libsmbclient is mapped before any SMB use: it is linked again");
        QVERIFY(!mapped("libsamba-errors.so"));
    }

    void opensOnFirstUse()
    {
        QString error;
        QVERIFY2(SmbClientLibrary::load(&error), qPrintable(error));
        QVERIFY(error.isEmpty());
        QVERIFY(mapped("libsmbclient.so"));
        const SmbClientApi &api = smbc();
        QVERIFY(api.new_context && api.getFunctionOpen && api.getFunctionClosedir && api.setOptionProtocols);
        QVERIFY(SmbClientLibrary::load(&error)); // once per process; a second call is free
    }

    void makesAContextWithoutAServer()
    {
        int marker = 0;
        SmbContextOptions options;
        options.userData = &marker;
        options.auth = noCredentials; // libsmbclient refuses a context without one (EINVAL)
        options.port = 1445;
        QString error;
        SMBCCTX *ctx = SmbClientLibrary::newContext(options, &error);
        QVERIFY2(ctx, qPrintable(error));
        QCOMPARE(smbc().getOptionUserData(ctx), static_cast<void *>(&marker));
        QCOMPARE(smbc().free_context(ctx, 1), 0);
    }
};

QTEST_GUILESS_MAIN(TestSmbClientLibrary)
#include "TestSmbClientLibrary.moc"
