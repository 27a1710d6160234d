#include "LatencyTarget.h"

#include "net/Socket.h"
#include "protocols/DriverRegistry.h"
#include "protocols/tcp/TcpDriver.h"
#include "protocols/tcp/WirebenchdGreeting.h"
#include "wire/Base64.h"
#include "wire/PrintableText.h"
#include "wire/QtWire.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/ControlChannel.h"

#include <cerrno>
#include <cstring>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>

namespace wb {

using namespace wb::net;

namespace {

void setPort(sockaddr_storage *a, int port)
{
    if (a->ss_family == AF_INET)
        reinterpret_cast<sockaddr_in *>(a)->sin_port = htons(quint16(port));
    else
        reinterpret_cast<sockaddr_in6 *>(a)->sin6_port = htons(quint16(port));
}

/// The hello exchange of a test, asking for the echo instead (docs/PROTOCOL.md): the key's proof both ways. A
/// wirebenchd that predates the echo answers welcome or queued; the connection is closed then, before a test.
bool fetchGrant(const sockaddr_storage &control, socklen_t len, const QString &key, int timeoutMs, echo::Grant *grant,
                QString *why)
{
    greeting::Greeted g;
    if (!greeting::greet(control, len, key, echo::kWantEcho, timeoutMs, &g, why))
        return false;
    std::string err;
    if (control::typeOf(g.answer) != echo::kEchoType || !echo::grantFromJson(g.answer, grant, &err)
        || grant->port == 0) {
        *why = QStringLiteral(
            "it offers no latency echo (a wirebenchd older than this Wirebench, or one whose UDP port was taken)");
        return false;
    }
    if (!greeting::proved(g, key)) {
        *why = QStringLiteral("it did not prove that it knows the key");
        return false;
    }
    return true;
}

int servicePort(const ProtocolInfo &info, const Host &host)
{
    if (!info.servicePortOption.isEmpty()) {
        const int p = host.options.value(info.servicePortOption).toInt();
        return p > 0 && p <= 65535 ? p : info.defaultServicePort;
    }
    return host.port ? host.port : info.defaultServicePort;
}

} // namespace

QString LatencyTarget::methodName() const
{
    switch (method) {
    case Method::Echo:
        return QStringLiteral("udp-echo");
    case Method::Connect:
        return QStringLiteral("tcp-connect");
    case Method::None:
        break;
    }
    return {};
}

LatencyTarget LatencyTarget::forSpec(const RunSpec &spec, int timeoutMs)
{
    LatencyTarget t;
    const ProtocolInfo *info = DriverRegistry::find(spec.protocol);
    if (!info || info->latencyProbe == ProtocolInfo::LatencyProbe::None)
        return t; // no far host: nothing to say
    const int port = servicePort(*info, spec.host);
    if (!greeting::resolve(spec.host.address, quint16(port), &t.address, &t.addressLength)) {
        t.note = QStringLiteral("latency not measured: %1 did not resolve").arg(spec.host.displayName());
        return t;
    }
    const QString ip = wire::qs(hostText(t.address));
    if (info->latencyProbe == ProtocolInfo::LatencyProbe::Connect) {
        t.method = Method::Connect;
        t.text = QStringLiteral("%1 TCP port %2").arg(ip).arg(port);
        return t;
    }
    QString why;
    const QString key = spec.host.options.value(QLatin1String(TcpDriver::kKeyOption)).toString().trimmed();
    if (!fetchGrant(t.address, t.addressLength, key, timeoutMs, &t.grant, &why)) {
        t.note = QStringLiteral("latency not measured: wirebenchd on %1 gave no echo token: %2")
                     .arg(spec.host.displayName(), why);
        return t;
    }
    setPort(&t.address, t.grant.port);
    t.method = Method::Echo;
    t.text = QStringLiteral("%1 UDP port %2").arg(ip).arg(t.grant.port);
    return t;
}

} // namespace wb
