#pragma once

#include <QHostAddress>
#include <QTcpServer>

namespace wb::test {

/// A TCP port free on 127.0.0.1 a moment ago (bound, read, released), for a server a test starts; 0 when none.
inline quint16 freeLoopbackPort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

} // namespace wb::test
