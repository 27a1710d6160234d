// `wirebench-cli schedule`: the systemd user units it writes are accepted by systemd-analyze verify (offline: the
// test's own runtime folder, no running systemd needed), say what they should, run the plan when their ExecStart
// runs (a real wirebenchd on 127.0.0.1) with the session marked scheduled, and go away with --remove.
#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include "support/CliTestSupport.h"

using namespace clitest;

namespace {

/// The words of an ExecStart= line as systemd reads them: double quotes group, a backslash escapes the next
/// character inside them, %% and $$ are one % and one $.
QStringList execWords(const QString &line)
{
    QStringList words;
    QString word;
    bool inQuotes = false, inWord = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (inQuotes && c == QLatin1Char('\\') && i + 1 < line.size()) {
            word += line.at(++i);
        } else if (c == QLatin1Char('"')) {
            inQuotes = !inQuotes;
            inWord = true;
        } else if ((c == QLatin1Char('%') || c == QLatin1Char('$')) && i + 1 < line.size() && line.at(i + 1) == c) {
            word += c;
            ++i;
            inWord = true;
        } else if (c.isSpace() && !inQuotes) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

/// The value of the first `key=` line.
QString keyValue(const QString &text, const QString &key)
{
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (line.startsWith(key + QLatin1Char('=')))
            return line.mid(key.size() + 1);
    }
    return QString();
}

} // namespace

class TestCliSchedule : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void writesUnitsSystemdAccepts();
    void serviceRunsThePlanMarkedScheduled();
    void everyIsChecked_data();
    void everyIsChecked();
    void removeTakesThemAway();
    void serverStoreKeptAsTyped();
    void secretsFilePassedOnAndChecked();

private:
    /// The CLI's environment: HOME and XDG_CONFIG_HOME in the test's folder, so no unit lands in the user's.
    QProcessEnvironment env() const
    {
        QProcessEnvironment e = sandboxEnvironment(m_dir.filePath(QStringLiteral("home")));
        e.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        return e;
    }
    QString unitPath(const QString &name) const
    {
        return m_dir.filePath(QStringLiteral("config/systemd/user/") + name);
    }
    QString store() const { return m_dir.filePath(QStringLiteral("store.db")); }

    QTemporaryDir m_dir;
    Daemon m_daemon;
    QString m_plan; ///< a name with a space and a %, which ExecStart= must carry as typed
};

void TestCliSchedule::initTestCase()
{
    QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
    QVERIFY(m_dir.isValid());
    QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("home"))));
    CLITEST_START_DAEMON(m_daemon);
    m_plan = m_dir.filePath(QStringLiteral("plans dir/quick 100%.wbplan.json"));
    QVERIFY(QDir().mkpath(QFileInfo(m_plan).path()));
    const Outcome saved = runCli({"run", "--host", m_daemon.hostArgument(), "--protocol", "tcp-send", "--duration",
                                  "0.5", "--reps", "1", "--no-store", "--skip-check", "--save-plan", m_plan},
                                 120000, env());
    QVERIFY2(saved.exitCode == 0, qPrintable(saved.out + saved.err));
}

void TestCliSchedule::writesUnitsSystemdAccepts()
{
    const Outcome o = runCli({"schedule", "--plan", m_plan, "--every", "1h", "--store", store()}, 60000, env());
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    const QString service = unitPath(QStringLiteral("wirebench-quick-100-.service"));
    const QString timer = unitPath(QStringLiteral("wirebench-quick-100-.timer"));
    QVERIFY2(o.out.contains(QStringLiteral("Wrote ") + service), qPrintable(o.out));
    QVERIFY2(o.out.contains(QStringLiteral("systemctl --user enable --now wirebench-quick-100-.timer")),
             qPrintable(o.out));
    QCOMPARE(QFile::permissions(service) & (QFileDevice::ReadOther | QFileDevice::ReadGroup),
             QFileDevice::Permissions());

    const QString serviceText = readText(service);
    const QString timerText = readText(timer);
    QCOMPARE(keyValue(serviceText, QStringLiteral("Type")), QStringLiteral("oneshot"));
    QCOMPARE(keyValue(serviceText, QStringLiteral("Description")),
             QStringLiteral("Wirebench plan quick 100%%.wbplan.json (scheduled every 1h)")); // %%: systemd's %
    QCOMPARE(execWords(keyValue(serviceText, QStringLiteral("ExecStart"))),
             QStringList({QFileInfo(kCli).absoluteFilePath(), "run", "--plan", m_plan, "--scheduled", "1h", "--store",
                          store()}));
    QCOMPARE(keyValue(timerText, QStringLiteral("OnUnitActiveSec")), QStringLiteral("1h"));
    QCOMPARE(keyValue(timerText, QStringLiteral("OnActiveSec")), QStringLiteral("1min"));
    QCOMPARE(keyValue(timerText, QStringLiteral("Unit")), QStringLiteral("wirebench-quick-100-.service"));
    QCOMPARE(keyValue(timerText, QStringLiteral("WantedBy")), QStringLiteral("timers.target"));

    // systemd's own reading of both files. It prints what it cannot parse and still exits 0: both must be silent.
    const QString analyze = QStandardPaths::findExecutable(QStringLiteral("systemd-analyze"));
    WB_REQUIRE(!analyze.isEmpty(), QStringLiteral("systemd-analyze is missing: apt-get install systemd"));
    QTemporaryDir runtime; // a user manager's runtime folder, so that --user works without one running
    QProcess verify;
    QProcessEnvironment e = env();
    e.insert(QStringLiteral("XDG_RUNTIME_DIR"), runtime.path());
    verify.setProcessEnvironment(e);
    verify.start(analyze, {"verify", "--user", timer, service});
    const Outcome v = outcomeOf(verify, 60000);
    QVERIFY2(v.exitCode == 0, qPrintable(v.out + v.err));
    QVERIFY2(v.err.trimmed().isEmpty() && v.out.trimmed().isEmpty(), qPrintable(v.out + v.err));

    // What verify would say of a broken timer, so that its silence above means something.
    QFile broken(m_dir.filePath(QStringLiteral("config/systemd/user/wirebench-broken.timer")));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write(timerText.toUtf8().replace("OnUnitActiveSec=1h", "OnUnitActiveSec=1 hour and a bit"));
    broken.close();
    verify.start(analyze, {"verify", "--user", broken.fileName()});
    const Outcome b = outcomeOf(verify, 60000);
    QVERIFY2(b.err.contains(QStringLiteral("Failed to parse")), qPrintable(b.out + b.err));
    QFile::remove(broken.fileName());
}

void TestCliSchedule::serviceRunsThePlanMarkedScheduled()
{
    const QString service = unitPath(QStringLiteral("wirebench-quick-100-.service"));
    QStringList words = execWords(keyValue(readText(service), QStringLiteral("ExecStart")));
    if (words.isEmpty())
        QFAIL("writesUnitsSystemdAccepts wrote no service");
    // What systemd would run, as it would read it.
    QProcess p;
    p.setProcessEnvironment(env());
    p.start(words.takeFirst(), words);
    const Outcome run = outcomeOf(p, 120000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
    const Outcome list = runCli({"sessions", "--store", store()}, 60000, env());
    QVERIFY2(list.exitCode == 0, qPrintable(list.out + list.err));
    QVERIFY2(list.out.contains(QStringLiteral("[Scheduled every 1h: quick 100%.wbplan.json]")), qPrintable(list.out));
    // A run by hand is not marked.
    const Outcome byHand = runCli({"run", "--plan", m_plan, "--store", store()}, 120000, env());
    QVERIFY2(byHand.exitCode == 0, qPrintable(byHand.out + byHand.err));
    const Outcome again = runCli({"sessions", "--store", store()}, 60000, env());
    QCOMPARE(again.out.count(QStringLiteral("Scheduled every")), 1);
}

void TestCliSchedule::everyIsChecked_data()
{
    QTest::addColumn<QString>("every");
    QTest::addColumn<QString>("said"); ///< the error, or the timer's OnUnitActiveSec when accepted
    QTest::newRow("no unit") << "10"
                             << "--every \"10\" is not an interval: write a number and its unit, e.g. 15m, 1h";
    QTest::newRow("unknown unit") << "1x"
                                  << "--every \"1x\" is not an interval";
    QTest::newRow("words") << "hourly"
                           << "--every \"hourly\" is not an interval";
    QTest::newRow("too short") << "30s"
                               << "--every \"30s\" is 30s: the interval must be from 1 minute to 31 days";
    QTest::newRow("too long") << "32d"
                              << "--every \"32d\" is more than 31 days: the interval must be from 1 minute";
    QTest::newRow("empty") << ""
                           << "--every needs an interval";
    QTest::newRow("minutes") << "15m"
                             << "15min";
    QTest::newRow("two parts") << "2h30m"
                               << "2h 30min";
    QTest::newRow("a day") << "1d"
                           << "1d";
    QTest::newRow("seconds") << "90s"
                             << "1min 30s";
}

void TestCliSchedule::everyIsChecked()
{
    QFETCH(QString, every);
    QFETCH(QString, said);
    const Outcome o = runCli({"schedule", "--plan", m_plan, "--every", every, "--name", "every-check"}, 60000, env());
    const QString timer = unitPath(QStringLiteral("wirebench-every-check.timer"));
    if (said.startsWith(QLatin1String("--every"))) {
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(o.err.contains(said), qPrintable(o.err));
        QVERIFY(!QFile::exists(timer));
        return;
    }
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    QCOMPARE(keyValue(readText(timer), QStringLiteral("OnUnitActiveSec")), said);
    QVERIFY(runCli({"schedule", "--name", "every-check", "--remove"}, 60000, env()).exitCode == 0);
}

void TestCliSchedule::removeTakesThemAway()
{
    const Outcome missingPlan = runCli({"schedule", "--every", "1h"}, 60000, env());
    QCOMPARE(missingPlan.exitCode, 2);
    QVERIFY2(missingPlan.err.contains(QStringLiteral("give the plan with --plan FILE")), qPrintable(missingPlan.err));
    const Outcome noFile
        = runCli({"schedule", "--plan", m_dir.filePath("none.wbplan.json"), "--every", "1h"}, 60000, env());
    QCOMPARE(noFile.exitCode, 2);
    QVERIFY2(noFile.err.contains(QStringLiteral("none.wbplan.json")), qPrintable(noFile.err));

    QVERIFY(runCli({"schedule", "--plan", m_plan, "--every", "6h"}, 60000, env()).exitCode == 0);
    const QString timer = unitPath(QStringLiteral("wirebench-quick-100-.timer"));
    QVERIFY(QFile::exists(timer));
    const Outcome removed = runCli({"schedule", "--plan", m_plan, "--remove"}, 60000, env());
    QVERIFY2(removed.exitCode == 0, qPrintable(removed.out + removed.err));
    QVERIFY2(removed.out.contains(QStringLiteral("Removed ") + timer), qPrintable(removed.out));
    QVERIFY2(removed.out.contains(QStringLiteral("systemctl --user disable --now wirebench-quick-100-.timer")),
             qPrintable(removed.out));
    QVERIFY(!QFile::exists(timer));
    QVERIFY(!QFile::exists(unitPath(QStringLiteral("wirebench-quick-100-.service"))));
    const Outcome again = runCli({"schedule", "--plan", m_plan, "--remove"}, 60000, env());
    QCOMPARE(again.exitCode, 0);
    QVERIFY2(again.out.contains(QStringLiteral("nothing to remove")), qPrintable(again.out));
}

// A team's store (docs/SCALE.md) is an address, not a path: the service gets it as typed.
void TestCliSchedule::serverStoreKeptAsTyped()
{
    const QString url = QStringLiteral("postgresql://bench@db.example.org:5433/wirebench");
    const Outcome o
        = runCli({"schedule", "--plan", m_plan, "--every", "1h", "--name", "team", "--store", url}, 60000, env());
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    const QStringList words = execWords(
        keyValue(readText(unitPath(QStringLiteral("wirebench-team.service"))), QStringLiteral("ExecStart")));
    QCOMPARE(words.mid(words.indexOf(QStringLiteral("--store")) + 1, 1), QStringList{url});
}

// The hosts' passwords of a scheduled plan: the service gets the secrets file by its absolute path, and a file
// other users may read is refused when the schedule is written, not at each run of the timer.
void TestCliSchedule::secretsFilePassedOnAndChecked()
{
    const QString secrets = m_dir.filePath(QStringLiteral("lab.secrets"));
    QFile f(secrets);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("lab-srv smb.password=Pw-sched\n");
    f.close();
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    const Outcome o = runCli({"schedule", "--plan", m_plan, "--every", "1h", "--name", "secret", "--secrets", secrets},
                             60000, env());
    QVERIFY2(o.exitCode == 0, qPrintable(o.out + o.err));
    const QString service = unitPath(QStringLiteral("wirebench-secret.service"));
    const QStringList words = execWords(keyValue(readText(service), QStringLiteral("ExecStart")));
    QCOMPARE(words.mid(words.indexOf(QStringLiteral("--secrets")), 2), (QStringList{"--secrets", secrets}));
    QVERIFY(!readText(service).contains(QStringLiteral("Pw-sched")));
    QVERIFY(runCli({"schedule", "--name", "secret", "--remove"}, 60000, env()).exitCode == 0);

    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
    const Outcome open = runCli(
        {"schedule", "--plan", m_plan, "--every", "1h", "--name", "secret", "--secrets", secrets}, 60000, env());
    QCOMPARE(open.exitCode, 2);
    QVERIFY2(open.err.contains(QStringLiteral("(mode 0640): make it yours alone with chmod 600 ") + secrets),
             qPrintable(open.err));
    QVERIFY(!QFile::exists(service));
}

QTEST_GUILESS_MAIN(TestCliSchedule)
#include "TestCliSchedule.moc"
