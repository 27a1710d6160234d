#pragma once

#include "net/Socket.h"
#include "wire/wirebenchd/ControlMessage.h"

#include <QString>

#include <sys/socket.h>

namespace wb {

/// A wirebenchd's control port greeted for something other than a test (docs/PROTOCOL.md: the client hello's
/// "want"): the latency echo's token, the far end's counters. The key's proof both ways, as a test's.
namespace greeting {

/// host:port to its first address; false when it does not resolve.
bool resolve(const QString &host, quint16 port, sockaddr_storage *out, socklen_t *len);
/// A TCP connection to a within timeoutMs (blocking afterwards, TCP_NODELAY); invalid when none.
net::Fd connectWithin(const sockaddr_storage &a, socklen_t len, int timeoutMs);

struct Greeted
{
    net::Fd fd; ///< the control connection, open
    control::Hello theirs;
    std::string nonce;    ///< ours, for the server's proof
    bool keyed = false;   ///< the server wants a key and we gave one: its answer must prove it knows it
    control::Json answer; ///< what the server answered our hello with
};

/// Connects, reads the server's hello, sends ours with `want` (and the key's proof when the server asks for one),
/// and reads the answer. false with *why (a phrase: "its control port did not answer") when any step fails; a busy
/// or error answer is a failure with the server's words.
bool greet(const sockaddr_storage &control, socklen_t len, const QString &key, const char *want, int timeoutMs,
           Greeted *out, QString *why);
/// Whether the answer's "mac" proves that the server knows the key (true when no key is in use).
bool proved(const Greeted &g, const QString &key);

} // namespace greeting
} // namespace wb
