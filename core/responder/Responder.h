#pragma once

#include "ServerConfig.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QHostAddress>
#include <QList>
#include <QObject>
#include <QPair>
#include <QString>

#include <memory>

namespace wb {
class WirebenchdServer;
}

namespace wb {

/// Settings of the responder (wirebenchd), with the documented defaults.
struct ResponderConfig
{
    QHostAddress address = QHostAddress::Any;
    quint16 port = control::kDefaultPort;   ///< 0 = any free port (the GUI's embedded responder)
    int maxDurationMs = 60000;              ///< a longer test request is refused
    int maxMessageSize = 16 * 1024 * 1024;  ///< a larger send size is refused
    int maxControlMessageBytes = 64 * 1024; ///< a longer control message is an error (before
                                            ///< authentication: at most auth::kMaxPreAuthBytes)
    int handshakeTimeoutMs = 5000;          ///< hello and key proof must arrive within this, or the client is dropped
    int idleTimeoutMs = 15000; ///< after the handshake: longest silence (test request, data connection, data)
    QString key;               ///< pre-shared key (auth.h); empty = open mode, no key asked
    QList<QPair<QHostAddress, int>> allow; ///< client networks (CIDR) served; empty = all
    int maxConcurrent = 1;                 ///< tests run at the same time
    int maxQueued = 0;                     ///< clients that wait for a slot ("queued"); the next one gets "busy"
    int maxConnections = 32;               ///< connections handled at once (any stage); more are closed at once
    int maxUnprovenPerAddress = 4;         ///< connections one address holds before they prove the key
    qint64 maxRateBytesPerSec = 0;         ///< pace what this responder sends (tcp-recv), 0 = no cap
    bool echo = true;                      ///< the latency echo on UDP; off: as a wirebenchd without it

    /// True when the allow-list is empty or holds the client's network (shared by the iperf3 responder).
    bool allows(const QHostAddress &client) const;
    /// The allow-list as "192.168.1.0/24, 2001:db8::/32", for refusals.
    QString allowListText() const;
    /// The same settings in plain C++, for WirebenchdServer and Iperf3Server.
    ServerConfig toServerConfig() const;
};

/// The Qt face of WirebenchdServer (the far end of a Wirebench test, in plain C++): the same server, its log
/// lines as a signal and its settings in Qt types. The GUI runs it in-process on 127.0.0.1 ("This computer
/// (loopback)"), the tests against their clients; wirebenchd runs WirebenchdServer without Qt.
class Responder : public QObject
{
    Q_OBJECT
public:
    explicit Responder(const ResponderConfig &config, QObject *parent = nullptr);
    ~Responder() override;

    /// Binds and starts serving. On failure returns false with a one-line reason in *error.
    bool start(QString *error = nullptr);
    void stop();
    bool isRunning() const;
    QHostAddress address() const;
    quint16 port() const; ///< the bound port (useful with port 0)

signals:
    /// One line per accepted test, refusal or error, for the log.
    void logLine(const QString &line);

private:
    ResponderConfig m_config;
    std::unique_ptr<WirebenchdServer> m_server;
};

} // namespace wb
