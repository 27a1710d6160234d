#include "HelloIdentityProbe.h"

#include "IdentityProbeSocket.h"
#include "net/Auth.h"
#include "net/ControlMessage.h"
#include "net/Responder.h"

namespace wb {

ServerEvidence HelloIdentityProbe::probe(const Host &host, int timeoutMs, control::Hello *out)
{
    const QString source = QStringLiteral("wirebenchd hello");
    const quint16 port = host.port ? host.port : ResponderConfig::kDefaultPort;
    IdentityProbeSocket socket(host, port, QStringLiteral("wirebenchd"), timeoutMs);
    if (!socket.connect())
        return ServerEvidence::failure(source, socket.error());
    QByteArray buffer;
    control::Decoded d;
    for (;;) {
        d = control::decode(buffer, auth::kMaxPreAuthBytes);
        if (d.status != control::Decoded::Status::Incomplete)
            break;
        if (!socket.readMore(&buffer, QStringLiteral("hello")))
            return ServerEvidence::failure(source, socket.error());
    }
    socket.close();
    control::Hello hello;
    QString error;
    if (!d.ok() || !control::Hello::fromJson(d.message, &hello, &error)) {
        const QString why = d.ok() ? error : d.error;
        return ServerEvidence::failure(source, socket.failureLine(QStringLiteral("sent no valid hello (%1): is this port a wirebenchd?").arg(why)));
    }
    if (out)
        *out = hello;
    ServerEvidence e;
    e.source = source;
    e.said = QStringLiteral("%1 on %2: %3").arg(hello.software, hello.hostname, hello.osSummary());
    e.suggests = hello.osName.isEmpty() ? hello.kernel : hello.osName;
    e.rank = 90; // the server's own account of its OS
    return e;
}

} // namespace wb
