#pragma once

#include <QHostAddress>
#include <QObject>
#include <QString>

#include <memory>

namespace wb {

/// Settings of the responder (wirebenchd), with the documented defaults.
struct ResponderConfig
{
    static constexpr quint16 kDefaultPort = 5301; ///< wirebenchd's documented default control port
    QHostAddress address = QHostAddress::Any;
    quint16 port = kDefaultPort;                 ///< 0 = any free port (the GUI's embedded responder)
    int maxDurationMs = 60000;                   ///< a longer test request is refused
    int maxMessageSize = 16 * 1024 * 1024;       ///< a larger send size is refused
    int maxControlMessageBytes = 64 * 1024;      ///< a longer control message is an error
    int handshakeTimeoutMs = 5000;               ///< a client that says nothing is dropped
};

/// The far end of a Wirebench test: answers hellos and test requests, runs the data side on its own
/// thread(s), serves one test at a time and answers a second concurrent client "busy".
/// Used by wirebenchd and, in-process on 127.0.0.1, by the GUI ("This computer (loopback)").
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
    quint16 port() const;   ///< the bound port (useful with port 0)

signals:
    /// One line per accepted test, refusal or error, for the log.
    void logLine(const QString &line);

private:
    class Private;
    std::unique_ptr<Private> d;
};

} // namespace wb
