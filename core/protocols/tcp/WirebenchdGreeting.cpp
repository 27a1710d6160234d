#include "WirebenchdGreeting.h"

#include "wire/Base64.h"
#include "wire/PrintableText.h"
#include "wire/QtWire.h"
#include "wire/wirebenchd/Auth.h"
#include "wire/wirebenchd/ControlChannel.h"

#include <QByteArray>

#include <cerrno>
#include <cstring>

#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>

namespace wb::greeting {

using namespace wb::net;

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

bool greet(const sockaddr_storage &control, socklen_t len, const QString &key, const char *want, int timeoutMs,
           Greeted *out, QString *why)
{
    out->fd = connectWithin(control, len, timeoutMs);
    if (!out->fd.valid()) {
        *why = QStringLiteral("its control port did not answer");
        return false;
    }
    control::ControlChannel ch(out->fd.get(), 64 * 1024);
    std::string err;
    if (ch.read(&out->answer, timeoutMs, &err) != control::ControlChannel::Read::Message
        || !control::Hello::fromJson(out->answer, &out->theirs, &err)) {
        *why = QStringLiteral("it sent no hello");
        return false;
    }
    control::Hello mine = control::Hello::local("wirebench " WIREBENCH_VERSION);
    mine.nonce = auth::randomBytes(auth::kNonceBytes);
    mine.want = want;
    out->nonce = mine.nonce;
    out->keyed = out->theirs.auth == auth::kAuthHmac && !key.isEmpty();
    if (out->keyed)
        mine.mac = auth::clientProof(key.toStdString(), out->theirs.nonce, mine.nonce);
    if (!ch.write(mine.toJson(), &err, timeoutMs)
        || ch.read(&out->answer, timeoutMs, &err) != control::ControlChannel::Read::Message) {
        *why = QStringLiteral("it closed the connection");
        return false;
    }
    const std::string type = control::typeOf(out->answer);
    if (type == control::kError || type == control::kBusy) {
        *why
            = QStringLiteral("it refused: %1")
                  .arg(wire::printableText(wire::qs(control::textAt(out->answer, "message")), wire::kMaxPeerTextChars));
        return false;
    }
    return true;
}

bool proved(const Greeted &g, const QString &key)
{
    if (!g.keyed)
        return true;
    const std::string mac = wire::fromBase64(control::textAt(g.answer, "mac")).value_or(std::string());
    return auth::sameBytes(mac, auth::serverProof(key.toStdString(), g.theirs.nonce, g.nonce));
}

} // namespace wb::greeting
