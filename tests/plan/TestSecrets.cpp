// Secrets: the one test of what is a secret (OptionSpec::Type::Secret of a registered protocol).
#include "plan/Secrets.h"

#include "plan/TestPlan.h"
#include "protocols/DriverRegistry.h"

#include <QTest>

using namespace wb;

class TestSecrets : public QObject
{
    Q_OBJECT
private slots:
    void theDeclaredSecrets()
    {
        const QStringList keys = Secrets::keys();
        QVERIFY(keys.contains(QStringLiteral("ftp.password")));
        QVERIFY(keys.contains(QStringLiteral("smb.password")));
        QVERIFY(keys.contains(QStringLiteral("wirebenchd.secret")));
        QVERIFY(!keys.contains(QStringLiteral("ftp.user")));
        for (const ProtocolInfo &info : DriverRegistry::protocols()) {
            for (const OptionSpec &option : info.hostOptions)
                QCOMPARE(Secrets::isSecret(option.key), option.type == OptionSpec::Type::Secret);
        }
    }

    void without()
    {
        Host h;
        h.options.insert(QStringLiteral("ftp.user"), QStringLiteral("bob"));
        h.options.insert(QStringLiteral("ftp.password"), QStringLiteral("hunter2"));
        const Host out = Secrets::without(h);
        QCOMPARE(out.options.keys(), QStringList{QStringLiteral("ftp.user")});
    }

    void notesNameTheSecretsLeftOut()
    {
        TestPlan plan;
        Host h;
        h.name = QStringLiteral("srv");
        h.address = QStringLiteral("192.0.2.1");
        h.options.insert(QStringLiteral("ftp.password"), QStringLiteral("hunter2"));
        h.options.insert(QStringLiteral("wirebenchd.secret"), QStringLiteral("k"));
        plan.hosts = {h};
        const QString notes = Secrets::notes(plan).join(QLatin1Char('|'));
        QVERIFY2(notes.contains(QStringLiteral("--set ftp.password=@FILE")), qPrintable(notes));
        QVERIFY2(notes.contains(QStringLiteral("--key-file FILE")), qPrintable(notes));
        QVERIFY2(!notes.contains(QStringLiteral("hunter2")), qPrintable(notes));
    }
};

QTEST_GUILESS_MAIN(TestSecrets)
#include "TestSecrets.moc"
