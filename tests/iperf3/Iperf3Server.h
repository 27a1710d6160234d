#pragma once

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>

// The real iperf3 server (Debian package) on 127.0.0.1, started by a test. Its -J output gives the
// server's own figures for each test, independently of what our driver records. A test that runs many
// tests on it calls takeReports() now and then, so that the server never blocks on a full stdout pipe.
class Iperf3Server
{
public:
    ~Iperf3Server() { stop(); }

    static quint16 freePort()
    {
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost, 0);
        return probe.serverPort();
    }

    /// Starts `iperf3 -s -J` on a free loopback port and waits until it listens. Empty string = ok.
    QString start(const QStringList &extraArgs = {})
    {
        const QString exe = QStandardPaths::findExecutable(QStringLiteral("iperf3"));
        if (exe.isEmpty())
            return QStringLiteral("iperf3 is not installed (apt-get install iperf3)");
        m_port = freePort();
        m_output.clear();
        m_process.setProgram(exe);
        m_process.setArguments(QStringList{QStringLiteral("-s"), QStringLiteral("-p"), QString::number(m_port),
                                           QStringLiteral("-B"), QStringLiteral("127.0.0.1"), QStringLiteral("-J"),
                                           QStringLiteral("--forceflush")}
                               + extraArgs);
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start();
        if (!m_process.waitForStarted(5000))
            return QStringLiteral("iperf3 -s did not start: %1").arg(m_process.errorString());
        // Listening is read from /proc so that no probe connection shows up as a failed test.
        for (int i = 0; i < 100; ++i) {
            if (isListening())
                return {};
            if (m_process.state() != QProcess::Running)
                return QStringLiteral("iperf3 -s exited: %1")
                    .arg(QString::fromLocal8Bit(m_process.readAllStandardError()));
            QTest::qWait(50);
        }
        return QStringLiteral("iperf3 -s did not listen on 127.0.0.1:%1 within 5 s").arg(m_port);
    }

    /// What `iperf3 -c 127.0.0.1 -p PORT` plus args (with -J) reports against this server, in *report. Tried again, 10
    /// times 300 ms apart, while the server is still wrapping up the previous test (busy) or re-opening its listening
    /// socket (refused, reset): the real client does not retry. False when a client did not end within 30 s.
    bool clientReport(const QStringList &args, QJsonObject *report) const
    {
        const QString exe = QStandardPaths::findExecutable(QStringLiteral("iperf3"));
        for (int attempt = 0; attempt < 10; ++attempt) {
            QProcess client;
            client.start(exe,
                         QStringList{QStringLiteral("-c"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"),
                                     QString::number(m_port)}
                             + args);
            if (!client.waitForFinished(30000))
                return false;
            *report = QJsonDocument::fromJson(client.readAllStandardOutput()).object();
            const QString error = report->value(QLatin1String("error")).toString();
            if (!error.contains(QLatin1String("busy")) && !error.contains(QLatin1String("Connection refused"))
                && !error.contains(QLatin1String("Connection reset")))
                break;
            QTest::qWait(300);
        }
        return true;
    }

    void stop()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(5000);
        }
    }

    QProcess &process() { return m_process; }
    quint16 port() const { return m_port; }

    /// The server's JSON reports printed so far (one per test, errors included), consumed in order.
    QList<QJsonObject> takeReports()
    {
        // Pull what waits in the pipe even without an event loop: a server whose stdout pipe fills up
        // blocks and stops answering new clients (seen after ~17 unread reports).
        while (m_process.waitForReadyRead(0)) {
        }
        m_output += m_process.readAllStandardOutput();
        QList<QJsonObject> reports;
        // -J prints each test as a pretty-printed object that closes with "}" alone on a line.
        for (;;) {
            const qsizetype end = m_output.indexOf("\n}\n");
            if (end < 0)
                break;
            const QByteArray one = m_output.left(end + 3);
            m_output.remove(0, end + 3);
            const QJsonDocument doc = QJsonDocument::fromJson(one);
            if (doc.isObject())
                reports << doc.object();
        }
        return reports;
    }

private:
    bool isListening() const
    {
        QFile f(QStringLiteral("/proc/net/tcp"));
        if (!f.open(QIODevice::ReadOnly))
            return false;
        // local_address 0100007F:PORT, state 0A = LISTEN
        const QByteArray needle
            = QStringLiteral("0100007F:%1 00000000:0000 0A").arg(m_port, 4, 16, QLatin1Char('0')).toUpper().toLatin1();
        return f.readAll().contains(needle);
    }

    QProcess m_process;
    quint16 m_port = 0;
    QByteArray m_output;
};
