#pragma once
// What the CLI tests share: running the built wirebench-cli as a user would, and a real wirebenchd on 127.0.0.1.
#include "support/CiRule.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>
#include <vector>

namespace clitest {

inline const QString kCli = QStringLiteral(WIREBENCH_CLI_PATH);
inline const QString kDaemon = QStringLiteral(WIREBENCHD_PATH);

struct Outcome
{
    int exitCode = -1;
    QString out;
    QString err;
};

/// The environment of a CLI under test: HOME is `home` and no XDG_* folder is inherited (XDG_DATA_HOME is
/// `xdgDataHome` when given), so that it never reads or writes the user's settings, result store or keychain.
inline QProcessEnvironment sandboxEnvironment(const QString &home, const QString &xdgDataHome = QString())
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString &name : env.keys()) {
        if (name.startsWith(QLatin1String("XDG_")) && name != QLatin1String("XDG_RUNTIME_DIR"))
            env.remove(name);
    }
    env.insert(QStringLiteral("HOME"), home);
    // Nor the user's keychain: a test that reads one starts its own (tests/protocols/TestCliHostSecrets).
    env.insert(QStringLiteral("WIREBENCH_NO_KEYCHAIN"), QStringLiteral("1"));
    if (!xdgDataHome.isEmpty())
        env.insert(QStringLiteral("XDG_DATA_HOME"), xdgDataHome);
    return env;
}

/// One sandboxed home for the whole test process (removed when it ends).
inline QProcessEnvironment defaultSandbox()
{
    static QTemporaryDir home;
    return sandboxEnvironment(home.path());
}

/// What p, just started, said and its exit status once it ends; exit status -1 and nothing said when it does not
/// start within 30 s or end within timeoutMs (then it is killed).
inline Outcome outcomeOf(QProcess &p, int timeoutMs)
{
    Outcome o;
    if (!p.waitForStarted(30000))
        return o;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return o;
    }
    o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    o.out = QString::fromUtf8(p.readAllStandardOutput());
    o.err = QString::fromUtf8(p.readAllStandardError());
    return o;
}

inline Outcome runCli(const QStringList &args, int timeoutMs = 120000,
                      const QProcessEnvironment &env = defaultSandbox())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(kCli, args);
    return outcomeOf(p, timeoutMs);
}

/// `count` wirebench-cli started at once with the same arguments (two writers of one store, say): their outcomes, in
/// the order they were started.
inline QList<Outcome> runCliTogether(const QStringList &args, int count, int timeoutMs = 120000,
                                     const QProcessEnvironment &env = defaultSandbox())
{
    std::vector<std::unique_ptr<QProcess>> started;
    for (int i = 0; i < count; ++i) {
        started.push_back(std::make_unique<QProcess>());
        started.back()->setProcessEnvironment(env);
        started.back()->start(kCli, args);
    }
    QList<Outcome> out;
    for (const std::unique_ptr<QProcess> &p : started)
        out << outcomeOf(*p, timeoutMs);
    return out;
}

/// wirebenchd on 127.0.0.1 on a free port, ended when this goes away. The built one by default; another
/// program (wine with wirebenchd.exe) with its own arguments, which must make it listen on 127.0.0.1, and
/// environment when given.
class Daemon
{
public:
    Daemon() = default;
    Daemon(const QString &program, const QStringList &arguments, const QProcessEnvironment &env)
        : m_program(program)
        , m_arguments(arguments)
    {
        m_process.setProcessEnvironment(env);
    }
    ~Daemon() { stop(); }

    /// Starts it (once); false with a reason when it cannot.
    bool start(QString *why)
    {
        if (m_process.state() == QProcess::Running)
            return true;
        if (!QFile::exists(m_program) && m_program == kDaemon) {
            *why = QStringLiteral("wirebenchd was not built at %1").arg(kDaemon);
            return false;
        }
        m_log.clear();
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(m_program, m_arguments);
        if (!m_process.waitForStarted(30000)) {
            *why = QStringLiteral("wirebenchd did not start: %1").arg(m_process.errorString());
            return false;
        }
        static const QRegularExpression listening(QStringLiteral("listening on 127\\.0\\.0\\.1:(\\d+)"));
        QRegularExpressionMatch m;
        for (int i = 0; i < 300 && !m.hasMatch(); ++i) {
            if (m_process.state() != QProcess::Running)
                break;
            m_process.waitForReadyRead(100);
            m_log += QString::fromUtf8(m_process.readAll());
            m = listening.match(m_log);
        }
        if (!m.hasMatch()) {
            *why = QStringLiteral("wirebenchd did not report its port: %1").arg(m_log);
            m_process.kill();
            m_process.waitForFinished();
            return false;
        }
        m_port = quint16(m.captured(1).toUInt());
        return m_port != 0;
    }

    void stop()
    {
        if (m_process.state() != QProcess::Running)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(10000)) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }

    quint16 port() const { return m_port; }
    QString hostArgument() const { return QStringLiteral("127.0.0.1:%1").arg(m_port); }
    /// Everything it said so far (stdout and stderr).
    QString log()
    {
        m_log += QString::fromUtf8(m_process.readAll());
        return m_log;
    }
    /// Waits up to timeoutMs for text in what it says.
    bool waitForLog(const QString &text, int timeoutMs = 10000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!log().contains(text) && !deadline.hasExpired() && m_process.state() == QProcess::Running)
            m_process.waitForReadyRead(100);
        return log().contains(text);
    }

private:
    QString m_program = kDaemon;
    QStringList m_arguments{QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")};
    QProcess m_process;
    quint16 m_port = 0;
    QString m_log;
};

} // namespace clitest

/// Starts `daemon` or ends the test: QFAIL under CI=true, QSKIP elsewhere.
#define CLITEST_START_DAEMON(daemon)                                                                                   \
    do {                                                                                                               \
        QString why_;                                                                                                  \
        const bool started_ = (daemon).start(&why_);                                                                   \
        WB_REQUIRE(started_, why_);                                                                                    \
    } while (false)
