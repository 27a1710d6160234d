#pragma once

#include "Socket.h"

#include <QHostAddress>
#include <QString>

#include <sys/socket.h>

namespace wb::net {

/// address:port as a socket address. QHostAddress::Any becomes "::" (dual stack, see openListenSocket).
/// False for an address that is neither IPv4 nor IPv6.
bool toSockaddr(const QHostAddress &address, quint16 port, sockaddr_storage *out, socklen_t *len);

/// The client's address as QHostAddress, IPv4-mapped IPv6 turned back into IPv4 (for the allow-list).
QHostAddress peerAddress(const sockaddr_storage &peer);

/// Why openListenSocket failed: the step ("create a socket", "listen") and errno. An empty step means the
/// address itself was unusable.
struct ListenFailure
{
    QString step;
    int error = 0;
};

/// A non-blocking listening TCP socket on address:port (port 0 = any free port), SO_REUSEADDR, "Any" and
/// "::" dual stack, other IPv6 addresses IPv6 only. The responders of wirebenchd (its own protocol and the
/// iperf3 one) listen the same way. On success *boundPort holds the port actually bound.
bool openListenSocket(const QHostAddress &address, quint16 port, Fd *out, quint16 *boundPort, ListenFailure *failure);

} // namespace wb::net
