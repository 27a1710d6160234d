#include "RefusedAdvice.h"

#include "ControlMessage.h"

namespace wb::control {

QString wirebenchdRefusedText(quint16 port)
{
    constexpr quint16 standard = kDefaultPort;
    if (port == 0 || port == standard) {
        return QStringLiteral(
                   "connection refused: nothing listens on port %1, wirebenchd's default: start wirebenchd there "
                   "(wirebenchd --listen 0.0.0.0:%1), or check that no firewall rejects the port")
            .arg(standard);
    }
    return QStringLiteral(
               "connection refused: nothing listens on port %1 of this host: check the port in the host's settings "
               "(wirebenchd listens on %2 unless started with --listen ADDR:PORT), that wirebenchd is running "
               "there, and that no firewall rejects the port")
        .arg(port)
        .arg(standard);
}

} // namespace wb::control
