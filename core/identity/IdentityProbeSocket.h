#pragma once

#include "model/Host.h"

#include <QByteArray>
#include <QString>
#include <QTcpSocket>

namespace wb {

/// A blocking QTcpSocket for the identity probes: every wait has the probe's timeout, and every failure
/// becomes one line naming the host, the protocol and port, what failed and what to try.
class IdentityProbeSocket
{
public:
    IdentityProbeSocket(const Host &host, quint16 port, const QString &protocol, int timeoutMs);

    bool connect();
    /// Appends what arrives within the timeout to *buffer; false (error() set) on timeout or close.
    bool readMore(QByteArray *buffer, const QString &waitingFor);
    /// Reads until *buffer holds at least n bytes.
    bool readAtLeast(QByteArray *buffer, qsizetype n, const QString &waitingFor);
    bool write(const QByteArray &bytes);
    void close();

    QString error() const { return m_error; }
    /// The last read failed because the server closed the connection (not a timeout).
    bool closedByServer() const { return m_closed; }
    /// "fs1 (10.0.0.5:445): SMB <text>"
    QString failureLine(const QString &text) const;
    /// "fs1 (10.0.0.5:445)"
    QString where() const;
    quint16 port() const { return m_port; }

private:
    Host m_host;
    quint16 m_port;
    QString m_protocol;
    int m_timeoutMs;
    QTcpSocket m_socket;
    QString m_error;
    bool m_closed = false;
};

} // namespace wb
