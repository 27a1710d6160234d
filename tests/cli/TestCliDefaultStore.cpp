// One result store for the window and every CLI command, found without --store: the built wirebench-cli (and the
// built wirebench window, offscreen) in a sandboxed HOME, with XDG_DATA_HOME unset and set, against a real
// wirebenchd on 127.0.0.1; and the store that earlier builds of wirebench-cli kept apart, moved in once.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include "support/CliTestSupport.h"

using namespace clitest;

namespace {

/// A home of its own per case; paths as Qt lays them out on Linux (docs/STORE.md).
struct Home
{
    QTemporaryDir dir;
    QString xdgDataHome; ///< empty: unset

    QString dataFolder() const
    {
        return xdgDataHome.isEmpty() ? dir.filePath(QStringLiteral(".local/share")) : xdgDataHome;
    }
    QString store() const { return dataFolder() + QStringLiteral("/Wirebench/wirebench/results.sqlite"); }
    QString legacyStore() const { return dataFolder() + QStringLiteral("/wirebench-cli/results.sqlite"); }
    QProcessEnvironment env() const { return sandboxEnvironment(dir.path(), xdgDataHome); }
    Outcome cli(const QStringList &args) const { return runCli(args, 120000, env()); }
};

/// The uuid of every session `sessions` lists (one per line, second column), in its order.
QStringList sessionIds(const QString &sessionsOut)
{
    static const QRegularExpression row(QStringLiteral("^\\s*(\\d+)\\s+([0-9a-f]{8})\\s"),
                                        QRegularExpression::MultilineOption);
    QStringList ids;
    for (auto it = row.globalMatch(sessionsOut); it.hasNext();)
        ids << it.next().captured(2);
    return ids;
}

} // namespace

class TestCliDefaultStore : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void runThenShowWithoutStore_data();
    void runThenShowWithoutStore();
    void windowAndCliShareOneStore();
    void earlierCliStoreIsMovedInOnce();
    void unreadableEarlierStoreIsNamed();
    void cleanupTestCase();

private:
    QStringList runArgs() const
    {
        return {QStringLiteral("run"),        QStringLiteral("--host"),     m_daemon.hostArgument(),
                QStringLiteral("--protocol"), QStringLiteral("tcp-send"),   QStringLiteral("--reps"),
                QStringLiteral("1"),          QStringLiteral("--duration"), QStringLiteral("0.5")};
    }

    Daemon m_daemon;
};

void TestCliDefaultStore::initTestCase()
{
    QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
#ifndef Q_OS_LINUX
    QSKIP("the expected folders are Linux's (XDG)");
#endif
}

void TestCliDefaultStore::runThenShowWithoutStore_data()
{
    QTest::addColumn<bool>("xdgSet");
    QTest::newRow("XDG_DATA_HOME unset") << false;
    QTest::newRow("XDG_DATA_HOME set") << true;
}

void TestCliDefaultStore::runThenShowWithoutStore()
{
    QFETCH(bool, xdgSet);
    CLITEST_START_DAEMON(m_daemon);
    Home home;
    QVERIFY(home.dir.isValid());
    QTemporaryDir xdg;
    if (xdgSet)
        home.xdgDataHome = xdg.path();

    const Outcome run = home.cli(runArgs());
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("Kept in the result store as session 1 (wirebench-cli show 1).")),
             qPrintable(run.out));
    QVERIFY2(!run.err.contains(QStringLiteral("earlier")), qPrintable(run.err)); // nothing to move in a new home

    // What run said is true: show and sessions find it, without --store.
    const Outcome show = home.cli({QStringLiteral("show"), QStringLiteral("1")});
    QVERIFY2(show.exitCode == 0, qPrintable(show.out + show.err));
    QVERIFY2(show.out.contains(QStringLiteral("tcp-send")) && show.out.contains(QStringLiteral("MB/s")),
             qPrintable(show.out));
    const Outcome sessions = home.cli({QStringLiteral("sessions")});
    QCOMPARE(sessions.exitCode, 0);
    QCOMPARE(sessionIds(sessions.out).size(), 1);
    QVERIFY(sessions.err.isEmpty());

    // In the window's folder (XDG_DATA_HOME when set), nowhere else; --help names it.
    QVERIFY2(QFileInfo::exists(home.store()), qPrintable(home.store()));
    QVERIFY(!QFileInfo::exists(home.legacyStore()));
    if (xdgSet)
        QVERIFY(!QFileInfo::exists(home.dir.filePath(QStringLiteral(".local/share"))));
    const Outcome help = home.cli({QStringLiteral("sessions"), QStringLiteral("--help")});
    QVERIFY2(help.out.contains(QStringLiteral("(default: %1)").arg(home.store())), qPrintable(help.out));
}

void TestCliDefaultStore::windowAndCliShareOneStore()
{
#ifndef WIREBENCH_GUI_PATH
    QSKIP("this build has no wirebench window");
#else
    CLITEST_START_DAEMON(m_daemon);
    Home home;
    // The window measures its built-in loopback host, then quits.
    QProcess gui;
    QProcessEnvironment env = home.env();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    gui.setProcessEnvironment(env);
    gui.start(QStringLiteral(WIREBENCH_GUI_PATH),
              {QStringLiteral("--start"), QStringLiteral("--quit-when-done"), QStringLiteral("--reps"),
               QStringLiteral("1"), QStringLiteral("--duration"), QStringLiteral("0.5"), QStringLiteral("--protocol"),
               QStringLiteral("tcp-send"), QStringLiteral("--frame"), QStringLiteral("1500")});
    QVERIFY(gui.waitForStarted(30000));
    QVERIFY2(gui.waitForFinished(120000), "the window did not quit after its plan");
    QVERIFY2(gui.exitCode() == 0, gui.readAllStandardError().constData());

    const Outcome run = home.cli(runArgs());
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    QVERIFY2(run.out.contains(QStringLiteral("as session 2 (wirebench-cli show 2)")), qPrintable(run.out));
    const Outcome sessions = home.cli({QStringLiteral("sessions")});
    QCOMPARE(sessionIds(sessions.out).size(), 2);
    QVERIFY2(sessions.out.contains(QStringLiteral("This computer (loopback)")), qPrintable(sessions.out));
    static const QRegularExpression cliRow(QStringLiteral("tcp-send\\s+127\\.0\\.0\\.1$"),
                                           QRegularExpression::MultilineOption);
    QVERIFY2(sessions.out.contains(cliRow), qPrintable(sessions.out));
    QVERIFY(QFileInfo::exists(home.store()));
#endif
}

void TestCliDefaultStore::earlierCliStoreIsMovedInOnce()
{
    CLITEST_START_DAEMON(m_daemon);
    Home home;
    // A session in the user's store, and one that an earlier wirebench-cli kept in its own folder.
    QVERIFY(home.cli(runArgs()).exitCode == 0);
    QVERIFY(QDir().mkpath(QFileInfo(home.legacyStore()).absolutePath()));
    const Outcome old = home.cli(runArgs() + QStringList{QStringLiteral("--store"), home.legacyStore()});
    QVERIFY2(old.exitCode == 0, qPrintable(old.out + old.err));
    const QStringList oldIds
        = sessionIds(home.cli({QStringLiteral("sessions"), QStringLiteral("--store"), home.legacyStore()}).out);
    QCOMPARE(oldIds.size(), 1);

    const Outcome first = home.cli({QStringLiteral("sessions")});
    QCOMPARE(first.exitCode, 0);
    const QString moved = QStringLiteral("wirebench-cli: moved 1 session(s) of earlier wirebench-cli runs from %1 into "
                                         "the result store %2")
                              .arg(home.legacyStore(), home.store());
    QVERIFY2(first.err.contains(moved), qPrintable(first.err));
    QVERIFY2(first.err.contains(QStringLiteral("kept as %1.imported").arg(home.legacyStore())), qPrintable(first.err));
    const QStringList ids = sessionIds(first.out);
    QCOMPARE(ids.size(), 2);
    QVERIFY2(ids.contains(oldIds.first()), qPrintable(first.out)); // the same session (uuid), not a copy of it
    QVERIFY(!QFileInfo::exists(home.legacyStore()));
    QVERIFY(QFileInfo::exists(home.legacyStore() + QStringLiteral(".imported")));

    // Whole: its run and samples.
    const Outcome show
        = home.cli({QStringLiteral("show"), oldIds.first(), QStringLiteral("--json"), QStringLiteral("--samples")});
    QVERIFY2(show.exitCode == 0, qPrintable(show.err));
    const QJsonArray results
        = QJsonDocument::fromJson(show.out.toUtf8()).object().value(QStringLiteral("results")).toArray();
    QCOMPARE(results.size(), 1);
    QCOMPARE(results.at(0).toObject().value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QVERIFY(!results.at(0).toObject().value(QStringLiteral("samples")).toArray().isEmpty());

    // Once: nothing more is said or copied.
    const Outcome again = home.cli({QStringLiteral("sessions")});
    QVERIFY2(!again.err.contains(QStringLiteral("earlier")), qPrintable(again.err));
    QCOMPARE(sessionIds(again.out), ids);
}

void TestCliDefaultStore::unreadableEarlierStoreIsNamed()
{
    Home home;
    QVERIFY(QDir().mkpath(QFileInfo(home.legacyStore()).absolutePath()));
    const QByteArray junk(4096, 'x');
    {
        QFile f(home.legacyStore());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(junk);
    }
    const Outcome o = home.cli({QStringLiteral("sessions")});
    QCOMPARE(o.exitCode, 0); // the user's store is fine
    QVERIFY2(o.err.contains(QStringLiteral("earlier runs of wirebench-cli are still in %1 (see them with "
                                           "`wirebench-cli sessions --store %1`); it cannot be read")
                                .arg(home.legacyStore())),
             qPrintable(o.err));
    QCOMPARE(o.err.count(QLatin1Char('\n')), 1);
    QFile f(home.legacyStore());
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), junk); // left as it was
}

void TestCliDefaultStore::cleanupTestCase()
{
    m_daemon.stop();
}

QTEST_GUILESS_MAIN(TestCliDefaultStore)
#include "TestCliDefaultStore.moc"
