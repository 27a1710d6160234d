#pragma once

#include "Iperf3Server.h"
#include "Responder.h"

#include <QList>
#include <QObject>
#include <QString>

#include <memory>

namespace wb {

/// The Qt face of Iperf3Server (wirebenchd's iperf3 port, in plain C++; see there for what it speaks and its
/// limits): the same server, its log lines as a signal and its settings in Qt types, for the tests and any Qt
/// program that serves iperf3 clients. wirebenchd runs Iperf3Server without Qt.
class Iperf3Responder : public QObject
{
    Q_OBJECT
public:
    /// config.address and config.port say where to listen (port 0 = any free port); the rest are the limits.
    explicit Iperf3Responder(const ResponderConfig &config, QObject *parent = nullptr);
    ~Iperf3Responder() override;

    /// Binds and starts serving. On failure returns false with a one-line reason in *error.
    bool start(QString *error = nullptr);
    /// Ends a running test with SERVER_TERMINATE (the client prints its summary) and stops listening.
    void stop();
    bool isRunning() const;
    quint16 port() const; ///< the bound port (useful with port 0)
    /// True while a client holds the server, from its control connection to the end of its test.
    bool isBusy() const;
    /// The tests served so far (the last 100), oldest first. Safe from any thread.
    QList<Iperf3TestRecord> tests() const;

signals:
    /// One line per test, refusal or error, for the log (the same style as Responder's); emitted from the
    /// server's thread.
    void logLine(const QString &line);

private:
    std::unique_ptr<Iperf3Server> m_server;
};

} // namespace wb
