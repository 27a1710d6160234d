#include "LatencyTarget.h"

#include "net/Socket.h"
#include "protocols/DriverRegistry.h"
#include "protocols/tcp/TcpDriver.h"
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

bool resolve(const QString &host, quint16 port, sockaddr_storage *out, socklen_t *len)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo *list = nullptr;
    if (::getaddrinfo(host.toUtf8().constData(), QByteArray::number(port).constData(), &hints, &list) != 0 || !list)
        return false;
    std::memcpy(out, list->ai_addr, list->ai_addrlen);
    *len = socklen_t(list->ai_addrlen);
    ::freeaddrinfo(list);
    return true;
}

void setPort(sockaddr_storage *a, int port)
{
    if (a->ss_family == AF_INET)
        reinterpret_cast<sockaddr_in *>(a)->sin_port = htons(quint16(port));
    else
        reinterpret_cast<sockaddr_in6 *>(a)->sin6_port = htons(quint16(port));
}

Fd connectWithin(const sockaddr_storage &a, socklen_t len, int timeoutMs)
{
    Fd fd(::socket(a.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (!fd.valid())
        return {};
    if (::connect(fd.get(), reinterpret_cast<const sockaddr *>(&a), len) != 0 && errno != EINPROGRESS)
        return {};
    pollfd p{fd.get(), POLLOUT, 0};
    int soError = 0;
    socklen_t sl = sizeof(soError);
    if (::poll(&p, 1, timeoutMs) <= 0 || getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &soError, &sl) != 0 || soError != 0)
        return {};
    setNonBlocking(fd.get(), false);
    setIntOption(fd.get(), IPPROTO_TCP, TCP_NODELAY, 1);
    return fd;
}

/// The hello exchange of a test, asking for the echo instead (docs/PROTOCOL.md): the key's proof both ways. A
/// wirebenchd that predates the echo answers welcome or queued; the connection is closed then, before a test.
bool fetchGrant(const sockaddr_storage &control, socklen_t len, const QString &key, int timeoutMs, echo::Grant *grant,
                QString *why)
{
    Fd fd = connectWithin(control, len, timeoutMs);
    if (!fd.valid()) {
        *why = QStringLiteral("its control port did not answer");
        return false;
    }
    control::ControlChannel ch(fd.get(), 64 * 1024);
    control::Json m;
    std::string err;
    control::Hello theirs;
    if (ch.read(&m, timeoutMs, &err) != control::ControlChannel::Read::Message
        || !control::Hello::fromJson(m, &theirs, &err)) {
        *why = QStringLiteral("it sent no hello");
        return false;
    }
    control::Hello mine = control::Hello::local("wirebench " WIREBENCH_VERSION);
    mine.nonce = auth::randomBytes(auth::kNonceBytes);
    mine.want = echo::kWantEcho;
    const bool keyed = theirs.auth == auth::kAuthHmac && !key.isEmpty();
    if (keyed)
        mine.mac = auth::clientProof(key.toStdString(), theirs.nonce, mine.nonce);
    if (!ch.write(mine.toJson(), &err, timeoutMs)
        || ch.read(&m, timeoutMs, &err) != control::ControlChannel::Read::Message) {
        *why = QStringLiteral("it closed the connection");
        return false;
    }
    const std::string type = control::typeOf(m);
    if (type == control::kError || type == control::kBusy) {
        *why = QStringLiteral("it refused: %1")
                   .arg(wire::printableText(wire::qs(control::textAt(m, "message")), wire::kMaxPeerTextChars));
        return false;
    }
    if (type != echo::kEchoType || !echo::grantFromJson(m, grant, &err) || grant->port == 0) {
        *why = QStringLiteral(
            "it offers no latency echo (a wirebenchd older than this Wirebench, or one whose UDP port was taken)");
        return false;
    }
    if (keyed && !auth::sameBytes(grant->mac, auth::serverProof(key.toStdString(), theirs.nonce, mine.nonce))) {
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
    if (!resolve(spec.host.address, quint16(port), &t.address, &t.addressLength)) {
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
