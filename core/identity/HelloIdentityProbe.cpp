#include "HelloIdentityProbe.h"

#include "IdentityProbeSocket.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/PrintableText.h"
#include "wire/QtWire.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QElapsedTimer>
#include <QThread>

#include <optional>

namespace wb {

ServerEvidence HelloIdentityProbe::probe(const Host &host, int timeoutMs, control::Hello *out)
{
    const QString source = QStringLiteral("wirebenchd hello");
    const quint16 port = host.port ? host.port : control::kDefaultPort;
    QElapsedTimer clock;
    clock.start();
    control::Decoded d;
    std::optional<IdentityProbeSocket> socket;
    for (;;) {
        socket.emplace(host, port, QStringLiteral("wirebenchd"), timeoutMs);
        if (!socket->connect())
            return ServerEvidence::failure(source, socket->error());
        QByteArray buffer;
        for (;;) {
            d = control::decode(std::string_view(buffer.constData(), std::size_t(buffer.size())),
                                auth::kMaxPreAuthBytes);
            if (d.status != control::Decoded::Status::Incomplete)
                break;
            if (!socket->readMore(&buffer, QStringLiteral("hello")))
                return ServerEvidence::failure(source, socket->error());
        }
        socket->close();
        // A refusal that passes by itself (this address's own connections still closing): once more, within the time.
        const int retry = d.ok() && control::typeOf(d.message) == control::kBusy ? control::retryAfterMs(d.message) : 0;
        if (retry <= 0 || clock.elapsed() + retry >= timeoutMs)
            break;
        QThread::msleep(ulong(retry));
    }
    // A full queue or a connection limit: the server's own words, as the run itself would give them.
    if (d.ok() && control::typeOf(d.message) == control::kBusy) {
        const QString said = wire::printableText(wire::qs(control::textAt(d.message, "message")).trimmed(), 300);
        // Its words name it ("wirebenchd holds ...", "wirebenchd on ... is busy"): not "wirebenchd wirebenchd".
        return ServerEvidence::failure(source,
                                       said.isEmpty() ? socket->failureLine(QStringLiteral("is busy: try again later"))
                                                      : socket->where() + QStringLiteral(": ") + said);
    }
    control::Hello hello;
    std::string error;
    if (!d.ok() || !control::Hello::fromJson(d.message, &hello, &error)) {
        const QString why = wire::qs(d.ok() ? error : d.error);
        return ServerEvidence::failure(
            source,
            socket->failureLine(QStringLiteral("sent no valid hello (%1): is this port a wirebenchd?").arg(why)));
    }
    if (out)
        *out = hello;
    ServerEvidence e;
    e.source = source;
    e.said = QStringLiteral("%1 on %2: %3")
                 .arg(wire::qs(hello.software), wire::qs(hello.hostname), wire::qs(hello.osSummary()));
    e.suggests = wire::qs(hello.osName.empty() ? hello.kernel : hello.osName);
    e.rank = 90; // the server's own account of its OS
    return e;
}

} // namespace wb
