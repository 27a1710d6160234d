#pragma once

#include "ControlMessage.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace wb::echo {

/// wirebenchd's latency echo (docs/PROTOCOL.md, "Latency echo"): a client that proved the key on the control
/// connection (hello with "want": "echo") gets a token bound to its address and an expiry; it then sends small
/// UDP datagrams carrying the token to the control port's number, and wirebenchd sends each one back, marked as an
/// answer, within a rate limit. A datagram without a valid token is dropped unanswered, and an answer is never
/// larger than the request, so the echo reflects nothing for a stranger.

inline constexpr char kWantEcho[] = "echo"; ///< the client hello's "want"
inline constexpr char kEchoType[] = "echo"; ///< the server's answer: token, port, expiry
constexpr int kTokenBytes = 32;
constexpr int kDatagramBytes = 4 + 8 + kTokenBytes + 8; ///< magic, expiry, token, sequence number: 52 bytes
constexpr int kTokenLifetimeSeconds = 600;
constexpr int kMaxPerSecondPerClient = 50; ///< answers per second to one address (the probe sends 20)
constexpr int kMaxPerSecondTotal = 2000;

/// The token for one client address until expirySeconds (the server's steady clock): HMAC-SHA256 with the
/// server's secret, which is new every time it starts.
std::string token(const std::string &secret, const std::string &clientAddress, std::uint64_t expirySeconds);

/// The echo answer on the control connection; port 0 when the server has no echo socket.
control::Json tokenMessage(const std::string &token, std::uint64_t expirySeconds, int port, const std::string &mac);
struct Grant
{
    std::string token;
    std::uint64_t expirySeconds = 0;
    int port = 0;
    std::string mac; ///< the server's proof, as in welcome
};
bool grantFromJson(const control::Json &o, Grant *out, std::string *error);

/// A request datagram (magic "WBE1") and the answer the server makes of it (magic "WBR1", same bytes after it).
std::string request(const Grant &grant, std::uint64_t sequence);
struct Request
{
    std::uint64_t expirySeconds = 0;
    std::string token;
    std::uint64_t sequence = 0;
};
std::optional<Request> parseRequest(std::string_view datagram);
std::string answerTo(std::string_view request);
/// The sequence number of an answer, nothing when the datagram is not one.
std::optional<std::uint64_t> parseAnswer(std::string_view datagram);

} // namespace wb::echo
