#pragma once

#include "wire/QtWire.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QDeadlineTimer>
#include <QJsonObject>
#include <QTcpSocket>

#include <sys/socket.h>

namespace wb::test {

using namespace wb::control;

/// A message as a test reads it: a QJsonObject, and the control::Json the wire code takes.
struct RawMessage : QJsonObject
{
    RawMessage() = default;
    RawMessage(const QJsonObject &o)
        : QJsonObject(o)
    {
    }                                                     // NOLINT: a QJsonObject with one more face
    operator Json() const { return wire::fromQt(*this); } // NOLINT
};

/// A control connection driven by hand, to send what a well-behaved client never would.
class RawClient
{
public:
    bool connectTo(quint16 port, const QHostAddress &address = QHostAddress::LocalHost)
    {
        m_socket.connectToHost(address, port);
        return m_socket.waitForConnected(5000);
    }
    void sendRaw(const QByteArray &bytes)
    {
        m_socket.write(bytes);
        m_socket.flush();
        m_socket.waitForBytesWritten(1000);
    }
    void send(const QJsonObject &o) { send(wire::fromQt(o)); }
    void send(const Json &o) { sendRaw(wire::qb(encode(o))); }
    void halfClose() { ::shutdown(int(m_socket.socketDescriptor()), SHUT_WR); }
    /// The next message, or an empty object when none came within timeoutMs.
    RawMessage next(int timeoutMs = 10000)
    {
        QDeadlineTimer deadline(timeoutMs);
        for (;;) {
            const Decoded d = decode(std::string_view(m_in.constData(), std::size_t(m_in.size())), 1 << 20);
            if (d.ok()) {
                m_in.remove(0, qsizetype(d.consumed));
                return wire::toQt(d.message);
            }
            if (d.status == Decoded::Status::Error || deadline.hasExpired())
                return {};
            if (m_socket.bytesAvailable() == 0 && !m_socket.waitForReadyRead(100)
                && m_socket.state() != QAbstractSocket::ConnectedState)
                return {};
            m_in += m_socket.readAll();
        }
    }
    /// True when the server closes the connection within timeoutMs.
    bool closedByServer(int timeoutMs = 10000)
    {
        QDeadlineTimer deadline(timeoutMs);
        while (!deadline.hasExpired()) {
            if (m_socket.state() == QAbstractSocket::UnconnectedState)
                return true;
            m_socket.waitForReadyRead(100);
            m_in += m_socket.readAll();
        }
        return false;
    }
    QTcpSocket m_socket;
    QByteArray m_in;
};

inline QString typeOf(const QJsonObject &o) // NOLINT: the Qt face of control::typeOf
{
    return o.value(QLatin1String("type")).toString();
}

} // namespace wb::test
