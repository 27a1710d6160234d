#include "IdentityProbeSocket.h"

namespace wb {

IdentityProbeSocket::IdentityProbeSocket(const Host &host, quint16 port, const QString &protocol, int timeoutMs)
    : m_host(host)
    , m_port(port)
    , m_protocol(protocol)
    , m_timeoutMs(timeoutMs)
{
}

QString IdentityProbeSocket::where() const
{
    QString address = m_host.address.trimmed();
    if (address.startsWith(QLatin1Char('[')) && address.endsWith(QLatin1Char(']')))
        address = address.mid(1, address.size() - 2);
    const QString hostPort = address.contains(QLatin1Char(':')) ? QStringLiteral("[%1]:%2").arg(address).arg(m_port)
                                                                : QStringLiteral("%1:%2").arg(address).arg(m_port);
    return m_host.name.isEmpty() || m_host.name == address ? hostPort
                                                           : QStringLiteral("%1 (%2)").arg(m_host.name, hostPort);
}

QString IdentityProbeSocket::failureLine(const QString &text) const
{
    return QStringLiteral("%1: %2 %3").arg(where(), m_protocol, text);
}

bool IdentityProbeSocket::connect()
{
    QString address = m_host.address.trimmed();
    if (address.startsWith(QLatin1Char('[')) && address.endsWith(QLatin1Char(']')))
        address = address.mid(1, address.size() - 2);
    if (address.isEmpty()) {
        m_error = QStringLiteral("%1: no address given: enter the host name or IP address").arg(m_host.displayName());
        return false;
    }
    m_socket.connectToHost(address, m_port);
    if (m_socket.waitForConnected(m_timeoutMs))
        return true;
    switch (m_socket.error()) {
    case QAbstractSocket::ConnectionRefusedError:
        m_error = failureLine(
            QStringLiteral("connection refused: is the server running and listening on port %1?").arg(m_port));
        break;
    case QAbstractSocket::HostNotFoundError:
        m_error = failureLine(
            QStringLiteral("cannot resolve \"%1\": check the spelling or use an IP address").arg(address));
        break;
    case QAbstractSocket::SocketTimeoutError:
        m_error = failureLine(
            QStringLiteral("no answer to the connection within %1 s: check the address and the firewall (TCP port %2)")
                .arg(m_timeoutMs / 1000.0)
                .arg(m_port));
        break;
    default:
        m_error = failureLine(
            QStringLiteral("cannot connect (%1): check the address and the network").arg(m_socket.errorString()));
        break;
    }
    m_socket.abort();
    return false;
}

bool IdentityProbeSocket::readMore(QByteArray *buffer, const QString &waitingFor)
{
    if (m_socket.bytesAvailable() == 0 && !m_socket.waitForReadyRead(m_timeoutMs) && m_socket.bytesAvailable() == 0) {
        m_closed = m_socket.state() != QAbstractSocket::ConnectedState
            || m_socket.error() == QAbstractSocket::RemoteHostClosedError;
        if (m_closed)
            m_error = failureLine(
                QStringLiteral("server closed the connection while we waited for its %1").arg(waitingFor));
        else
            m_error = failureLine(QStringLiteral("sent no %1 within %2 s: check that port %3 is the %4 server's")
                                      .arg(waitingFor)
                                      .arg(m_timeoutMs / 1000.0)
                                      .arg(m_port)
                                      .arg(m_protocol));
        return false;
    }
    buffer->append(m_socket.readAll());
    return true;
}

bool IdentityProbeSocket::readAtLeast(QByteArray *buffer, qsizetype n, const QString &waitingFor)
{
    while (buffer->size() < n) {
        if (!readMore(buffer, waitingFor))
            return false;
    }
    return true;
}

bool IdentityProbeSocket::write(const QByteArray &bytes)
{
    if (m_socket.write(bytes) != bytes.size() || !m_socket.waitForBytesWritten(m_timeoutMs)) {
        m_error = failureLine(QStringLiteral("could not send a request (%1)").arg(m_socket.errorString()));
        return false;
    }
    return true;
}

void IdentityProbeSocket::close()
{
    m_socket.abort();
}

} // namespace wb
