#pragma once
// A real Prometheus for a test (the `prometheus` package): started on a free port of 127.0.0.1 with the test's own
// configuration and a storage folder of its own, waited for on /-/ready, asked through /api/v1/query, stopped and
// reaped when the object goes. Its log is kept for the test to print when it fails.
#include "HttpFetch.h"
#include "support/FreePort.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

namespace wb::test {

class PrometheusServer
{
public:
    PrometheusServer() = default;
    PrometheusServer(const PrometheusServer &) = delete;
    PrometheusServer &operator=(const PrometheusServer &) = delete;
    ~PrometheusServer() { stop(); }

    static QString program() { return QStandardPaths::findExecutable(QStringLiteral("prometheus")); }

    /// Starts it with the configuration (YAML) and waits until it is ready (up to readyMs); false with the reason.
    /// A port taken between the pick and the bind is picked again (3 tries).
    bool start(const QByteArray &config, QString *why, int readyMs = 120000)
    {
        if (!m_dir.isValid())
            return fail(why, QStringLiteral("no temporary folder: %1").arg(m_dir.errorString()));
        QFile f(m_dir.filePath(QStringLiteral("prometheus.yml")));
        if (!f.open(QIODevice::WriteOnly) || f.write(config) != config.size())
            return fail(why, QStringLiteral("cannot write %1").arg(f.fileName()));
        f.close();
        for (int attempt = 0; attempt < 3; ++attempt) {
            m_port = freeLoopbackPort();
            m_process.setProcessChannelMode(QProcess::MergedChannels);
            m_process.start(program(),
                            {QStringLiteral("--config.file=%1").arg(f.fileName()),
                             QStringLiteral("--storage.tsdb.path=%1").arg(m_dir.filePath(QStringLiteral("data"))),
                             QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_port),
                             QStringLiteral("--log.level=debug")});
            if (!m_process.waitForStarted(30000))
                return fail(why, QStringLiteral("prometheus did not start: %1").arg(m_process.errorString()));
            if (waitReady(readyMs))
                return true;
            const bool portTaken = log().contains(QStringLiteral("address already in use"));
            stop();
            if (!portTaken)
                return fail(why,
                            QStringLiteral("prometheus was not ready within %1 s on 127.0.0.1:%2")
                                .arg(readyMs / 1000)
                                .arg(m_port));
        }
        return fail(why, QStringLiteral("prometheus found no free port in 3 tries"));
    }

    void stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return;
        m_process.terminate();
        if (!m_process.waitForFinished(30000)) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
        m_log += QString::fromUtf8(m_process.readAll());
    }

    quint16 port() const { return m_port; }

    /// Everything it has logged so far.
    QString log()
    {
        m_log += QString::fromUtf8(m_process.readAll());
        return m_log;
    }

    /// The result vector of an instant query (/api/v1/query); empty when there is none yet or the query failed.
    QJsonArray query(const QString &promql, QString *error)
    {
        const HttpAnswer a = httpGet(
            m_port, QStringLiteral("/api/v1/query?query=%1").arg(QString::fromLatin1(QUrl::toPercentEncoding(promql))));
        if (a.status != 200) {
            *error = a.error.isEmpty() ? QStringLiteral("HTTP %1: %2").arg(a.status).arg(QString::fromUtf8(a.body))
                                       : a.error;
            return {};
        }
        return QJsonDocument::fromJson(a.body)
            .object()
            .value(QStringLiteral("data"))
            .toObject()
            .value(QStringLiteral("result"))
            .toArray();
    }

private:
    bool waitReady(int ms)
    {
        const QDeadlineTimer deadline(ms);
        while (!deadline.hasExpired()) {
            if (m_process.state() == QProcess::NotRunning)
                return false;
            if (httpGet(m_port, QStringLiteral("/-/ready"), {}, 5000).status == 200)
                return true;
            m_process.waitForReadyRead(250); // its log meanwhile: wakes at once when it says something
            m_log += QString::fromUtf8(m_process.readAll());
        }
        return false;
    }

    static bool fail(QString *why, const QString &message)
    {
        *why = message;
        return false;
    }

    QTemporaryDir m_dir;
    QProcess m_process;
    quint16 m_port = 0;
    QString m_log;
};

} // namespace wb::test
