#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace wb {

/// The wirebenchd control protocol (docs/PROTOCOL.md): each message is a 4-byte big-endian length followed by
/// that many bytes of compact UTF-8 JSON holding one object with a "type" member. Standard C++ and nlohmann::json,
/// so that wirebenchd links no Qt; the Qt side turns these into its own types at its edge (wire/QtWire.h).
namespace control {

using Json = nlohmann::json;

/// wirebenchd's documented default control port (the server's default and every client's when a host names none).
constexpr std::uint16_t kDefaultPort = 5301;
constexpr int kProtocolVersion = 2; ///< 2: nonces, key proofs, welcome and queued
constexpr int kHeaderBytes = 4;
/// The most data connections one test may ask for (as iperf3's -P).
constexpr int kMaxStreams = 128;

/// Message types.
inline constexpr char kHello[] = "hello";
inline constexpr char kTest[] = "test";
inline constexpr char kReady[] = "ready";
inline constexpr char kProgress[] = "progress";
inline constexpr char kResult[] = "result";
inline constexpr char kStop[] = "stop";
inline constexpr char kError[] = "error";
inline constexpr char kBusy[] = "busy";
inline constexpr char kWelcome[] = "welcome";
inline constexpr char kQueued[] = "queued";

/// One frame: the length prefix and the compact JSON of the object.
std::string encode(const Json &message);

struct Decoded
{
    enum class Status { Message, Incomplete, Error };
    Status status = Status::Incomplete;
    Json message = Json::object(); ///< with Status::Message
    std::size_t consumed = 0;      ///< bytes of the buffer this frame used (Status::Message)
    std::string error;             ///< one line, with Status::Error
    bool ok() const { return status == Status::Message; }
};

/// Decodes the first frame of a stream buffer. Incomplete means: wait for more bytes. A length above
/// maxBytes, invalid JSON, a non-object or an object without a string "type" is an Error.
Decoded decode(std::string_view buffer, int maxBytes);
/// Decodes a buffer that must hold exactly one whole frame: a short buffer is a "truncated" Error.
Decoded decodeOne(std::string_view buffer, int maxBytes);

/// The longest message type that an error or log line quotes.
constexpr int kMaxQuotedTypeChars = 80;
/// A message's "type" (empty when it is not a string).
std::string typeOf(const Json &message);
/// A message's "type" as an error or a log line quotes it: escaped and at most kMaxQuotedTypeChars characters,
/// since it comes from the peer (before authentication, too).
std::string quotedType(const Json &message);

/// Member key of an object as text; empty when absent or not a string.
std::string textAt(const Json &o, const char *key);
/// Member key of an object as a number; fallback when absent or not a number.
double numberAt(const Json &o, const char *key, double fallback);
/// Member key of an object as an object; an empty object when absent or not one.
Json objectAt(const Json &o, const char *key);

/// Reads member `key` of a message as a non-negative integer; false (with *error set) when it is
/// missing or not a whole number in [minValue, maxValue].
bool readInt(const Json &message, const char *key, std::int64_t *value, std::string *error, std::int64_t minValue = 0,
             std::int64_t maxValue = std::numeric_limits<std::int64_t>::max());
bool readString(const Json &message, const char *key, std::string *value, std::string *error);

/// hello, both ways.
struct Hello
{
    int version = kProtocolVersion;
    std::string software;  ///< "wirebenchd 0.1.0" / "wirebench 0.1.0"
    std::string osName;    ///< "Debian GNU/Linux 12 (bookworm)"
    std::string osVersion; ///< "12"
    std::string kernel;    ///< "Linux 6.1.0-18-amd64"
    std::string hostname;
    int cpus = 0;
    std::string nonce; ///< fresh random bytes of this connection (base64 in JSON)
    std::string auth;  ///< server: "hmac-sha256" (a key is required) or "none" (open mode)
    std::string mac;   ///< client: HMAC proof of the key (auth::clientProof), empty without a key
    std::string want;  ///< client: "echo" asks for a latency-echo token instead of a test (wire/wirebenchd/EchoWire.h)
    double linkSpeedMbps
        = 0; ///< server: speed of the interface that serves this client, Mbit/s, 0 = unknown or not trusted
    /// server: facts of that interface (kind, driver, speed; the JSON of wb::InterfaceFacts, its own "version"),
    /// so that the client judges the far speed by the same rule as its own; optional, empty from older servers.
    Json link = Json::object();
    /// server: the most parallel data connections it serves in one test (TestRequest::streams); 1 from a
    /// wirebenchd that predates parallel streams, which sends none and would open one data connection only.
    int maxStreams = 1;
    /// server: it serves both directions at once (TestRequest::Direction::Bidir); false from a wirebenchd that
    /// predates it, which would refuse the test request.
    bool bidir = false;

    /// This process's description of itself (platform::SystemInfo).
    static Hello local(const std::string &software);
    Json toJson() const;
    static bool fromJson(const Json &o, Hello *out, std::string *error);
    /// "Debian GNU/Linux 12 (bookworm), Linux 6.1.0-18-amd64"
    std::string osSummary() const;
};

/// test: what the client asks for. direction is the client's viewpoint.
struct TestRequest
{
    /// Send: client -> server; Recv: server -> client; Bidir: both at once, `streams` data connections each way (the
    /// client opens the client -> server ones first, then the server -> client ones, one after the other).
    enum class Direction { Send, Recv, Bidir };
    Direction direction = Direction::Send;
    int durationMs = 10000;
    int messageSize = 128 * 1024;
    int sendBuffer = 0; ///< SO_SNDBUF for the server's data socket, 0 = system default
    int recvBuffer = 0; ///< SO_RCVBUF for the server's data socket, 0 = system default
    int mss = 0;        ///< TCP_MAXSEG for the server's data socket, 0 = system default
    int sampleIntervalMs = 100;
    int warmupMs = 0; ///< leading time the receiver leaves out of its count; the sender adds it to the duration
    int streams = 1;  ///< parallel data connections, 1..kMaxStreams (absent from older clients: 1)

    Json toJson() const;
    static bool fromJson(const Json &o, TestRequest *out, std::string *error);
    static std::string directionName(Direction d)
    {
        return d == Direction::Send ? "send" : d == Direction::Recv ? "recv" : "bidir";
    }
    /// The data connections the test opens: streams, twice over for both directions.
    int dataConnections() const { return direction == Direction::Bidir ? 2 * streams : streams; }
};

/// ready: the server listens for the data connection on this port.
struct Ready
{
    int dataPort = 0;
    Json toJson() const;
    static bool fromJson(const Json &o, Ready *out, std::string *error);
};

/// progress: the receiver's cumulative count, sent by the server while it receives.
struct Progress
{
    std::int64_t bytes = 0;
    double seconds = 0;
    Json toJson() const;
    static bool fromJson(const Json &o, Progress *out, std::string *error);
};

/// result: the end of a test, as one side counted it. The server sends it; in a recv test the client
/// answers with its own (receiver's) count so that the server's log holds the figure too.
struct Result
{
    std::int64_t bytes = 0;       ///< counted by the receiver (0 when the sender reports)
    double seconds = 0;           ///< receiver's first byte to last byte
    std::int64_t senderBytes = 0; ///< counted by the sender (0 when unknown)
    int mss = 0;                  ///< TCP_INFO tcpi_snd_mss of this side's data socket
    std::int64_t rttUs = 0;
    std::int64_t rttVarUs = 0;
    std::int64_t retransmits = 0;
    double cpuPercent = -1;       ///< CPU time of this side's data thread over the test, -1 = unknown
    int warmupMs = 0;             ///< the warm-up this side left out (absent from a wirebenchd that predates it)
    std::int64_t totalBytes = -1; ///< the receiver's count with the warm-up, -1 = same as bytes
    /// What this side's kernel dropped during the test (the JSON of wb::DropCounts, its own "version"): its qdisc,
    /// input backlog, interface and TCP counters. Empty from a wirebenchd that predates it: unknown, not zero.
    Json drops = Json::object();
    /// The receiver's bytes of each data connection over the window common to all (they add up to bytes); empty
    /// with one stream and from a wirebenchd that predates parallel streams.
    std::vector<std::int64_t> streamBytes;
    std::int64_t receivedBytes() const { return totalBytes >= 0 ? totalBytes : bytes; }
    Json toJson() const;
    static bool fromJson(const Json &o, Result *out, std::string *error);
};

/// error: code is a short word ("bad-message", "too-long", "version", "limit", "socket", "timeout").
Json errorMessage(const std::string &code, const std::string &text);
/// retryAfterMs > 0: the refusal passes by itself (the client's own connections close): "retry_after_ms", after which a
/// client may try once more (see docs/PROTOCOL.md). 0: a full queue or a limit that waits for a test to end.
Json busyMessage(const std::string &text, int retryAfterMs = 0);
/// A busy message's "retry_after_ms" (0 when it has none, or none that makes sense: at most 10 s).
int retryAfterMs(const Json &busy);
Json stopMessage();
/// The far end's counters (docs/PROTOCOL.md, "Counters"): a client hello with "want": "counters" is answered, once the
/// key is proved, with a counters message (its "mac" the server's proof, its "drops" empty: the count starts now);
/// each counters message the client sends then gets one back, its "drops" what this end dropped since the answer before
/// (the JSON of wb::DropCounts) on the interface the connection came in on.
inline constexpr char kWantCounters[] = "counters";
inline constexpr char kCounters[] = "counters";
Json countersMessage(const Json &drops, const std::string &mac = {});
/// welcome: the server accepted the client (after its hello); mac = auth::serverProof when a key is in use.
Json welcomeMessage(const std::string &mac);
/// queued: all test slots are taken; the client waits, position 1 is next.
Json queuedMessage(int position);

} // namespace control
} // namespace wb
