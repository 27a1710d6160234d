#include "EchoWire.h"

#include "Hmac.h"
#include "wire/Base64.h"

namespace wb::echo {

namespace {

constexpr char kRequestMagic[] = "WBE1";
constexpr char kAnswerMagic[] = "WBR1";

void putU64(std::string *out, std::uint64_t v)
{
    for (int shift = 56; shift >= 0; shift -= 8)
        out->push_back(char((v >> shift) & 0xff));
}

std::uint64_t getU64(std::string_view in, std::size_t at)
{
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < 8; ++i)
        v = (v << 8) | static_cast<unsigned char>(in[at + i]);
    return v;
}

} // namespace

std::string token(const std::string &secret, const std::string &clientAddress, std::uint64_t expirySeconds)
{
    std::string message = "wirebenchd echo v1\n" + clientAddress + "\n";
    putU64(&message, expirySeconds);
    return auth::hmacSha256(secret, message);
}

control::Json tokenMessage(const std::string &token, std::uint64_t expirySeconds, int port, const std::string &mac)
{
    control::Json o{{"type", kEchoType}, {"token", wire::toBase64(token)}, {"expiry", expirySeconds}, {"port", port}};
    if (!mac.empty())
        o["mac"] = wire::toBase64(mac);
    return o;
}

bool grantFromJson(const control::Json &o, Grant *out, std::string *error)
{
    if (control::typeOf(o) != kEchoType) {
        if (error)
            *error = "the server answered \"" + control::quotedType(o) + "\", not \"echo\"";
        return false;
    }
    std::int64_t expiry = 0;
    std::int64_t port = 0;
    if (!control::readInt(o, "expiry", &expiry, error) || !control::readInt(o, "port", &port, error, 0, 65535))
        return false;
    const std::optional<std::string> t = wire::fromBase64(control::textAt(o, "token"));
    if (!t || t->size() != std::size_t(kTokenBytes)) {
        if (error)
            *error = "\"token\" in an \"echo\" message must be base64 of 32 bytes";
        return false;
    }
    out->token = *t;
    out->expirySeconds = std::uint64_t(expiry);
    out->port = int(port);
    out->mac = wire::fromBase64(control::textAt(o, "mac")).value_or(std::string());
    return true;
}

std::string request(const Grant &grant, std::uint64_t sequence)
{
    std::string d(kRequestMagic, 4);
    putU64(&d, grant.expirySeconds);
    d += grant.token;
    putU64(&d, sequence);
    return d;
}

std::optional<Request> parseRequest(std::string_view datagram)
{
    if (datagram.size() != std::size_t(kDatagramBytes) || datagram.substr(0, 4) != std::string_view(kRequestMagic, 4))
        return std::nullopt;
    Request r;
    r.expirySeconds = getU64(datagram, 4);
    r.token = std::string(datagram.substr(12, kTokenBytes));
    r.sequence = getU64(datagram, 12 + kTokenBytes);
    return r;
}

std::string answerTo(std::string_view request)
{
    // Only the magic changes: a forged request that names another wirebenchd as its source makes that one drop the
    // answer (it is no request), so two servers cannot be set to bounce datagrams between them.
    std::string a(request);
    a.replace(0, 4, kAnswerMagic, 4);
    return a;
}

std::optional<std::uint64_t> parseAnswer(std::string_view datagram)
{
    if (datagram.size() != std::size_t(kDatagramBytes) || datagram.substr(0, 4) != std::string_view(kAnswerMagic, 4))
        return std::nullopt;
    return getU64(datagram, 12 + kTokenBytes);
}

} // namespace wb::echo
