#include "Auth.h"

#include "wire/Base64.h"
#include "wire/Text.h"

#include <cstring>

namespace wb::auth {

using wire::format;
using wire::trimmed;

std::string generateKey()
{
    return wire::toBase64(randomBytes(kKeyBytes));
}

namespace {

std::string proof(const char *label, const std::string &key, const std::string &serverNonce,
                  const std::string &clientNonce)
{
    return hmacSha256(trimmed(key), std::string(label) + "\n" + serverNonce + clientNonce);
}

} // namespace

std::string clientProof(const std::string &key, const std::string &serverNonce, const std::string &clientNonce)
{
    return proof("wirebench client v2", key, serverNonce, clientNonce);
}

std::string serverProof(const std::string &key, const std::string &serverNonce, const std::string &clientNonce)
{
    return proof("wirebenchd server v2", key, serverNonce, clientNonce);
}

bool sameBytes(const std::string &a, const std::string &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

ClientHelloCheck checkClientHello(const control::Json &message, const std::string &key, const std::string &serverNonce,
                                  const std::string &serverSoftware)
{
    ClientHelloCheck c;
    c.code = "bad-message";
    if (control::typeOf(message) != control::kHello) {
        c.error = format("expected a \"hello\" message, got \"%s\"", control::quotedType(message).c_str());
        return c;
    }
    if (!control::Hello::fromJson(message, &c.hello, &c.error))
        return c;
    if (c.hello.version != control::kProtocolVersion) {
        c.verdict = ClientHelloCheck::Verdict::Version;
        c.code = "version";
        c.error = format("client speaks control protocol version %d, this wirebenchd (%s) speaks version %d: "
                         "use matching Wirebench versions",
                         c.hello.version, serverSoftware.c_str(), control::kProtocolVersion);
        return c;
    }
    c.clientNonce = c.hello.nonce;
    if (trimmed(key).empty()) { // open mode
        c.verdict = ClientHelloCheck::Verdict::Ok;
        c.code.clear();
        return c;
    }
    c.code = "auth";
    if (c.hello.mac.empty()) {
        c.verdict = ClientHelloCheck::Verdict::NoKey;
        c.error = "this wirebenchd requires a key: set it in the host's settings or use --key";
        return c;
    }
    if (c.clientNonce.size() < 16 || !sameBytes(c.hello.mac, clientProof(key, serverNonce, c.clientNonce))) {
        c.verdict = ClientHelloCheck::Verdict::WrongKey;
        c.error = "authentication failed: wrong key";
        return c;
    }
    c.verdict = ClientHelloCheck::Verdict::Ok;
    c.code.clear();
    return c;
}

} // namespace wb::auth
