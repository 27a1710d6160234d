#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QJsonObject>
#include <QString>

#include <limits>

namespace wb {

/// The wirebenchd control protocol (docs/PROTOCOL.md): each message is a 4-byte big-endian length followed by
/// that many bytes of compact UTF-8 JSON holding one object with a "type" member.
namespace control {

/// wirebenchd's documented default control port (the server's default and every client's when a host names none).
constexpr quint16 kDefaultPort = 5301;
constexpr int kProtocolVersion = 2; ///< 2: nonces, key proofs, welcome and queued
constexpr int kHeaderBytes = 4;

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
QByteArray encode(const QJsonObject &message);

struct Decoded
{
    enum class Status { Message, Incomplete, Error };
    Status status = Status::Incomplete;
    QJsonObject message;   ///< with Status::Message
    qsizetype consumed = 0; ///< bytes of the buffer this frame used (Status::Message)
    QString error;         ///< one line, with Status::Error
    bool ok() const { return status == Status::Message; }
};

/// Decodes the first frame of a stream buffer. Incomplete means: wait for more bytes. A length above
/// maxBytes, invalid JSON, a non-object or an object without a string "type" is an Error.
Decoded decode(QByteArrayView buffer, int maxBytes);
/// Decodes a buffer that must hold exactly one whole frame: a short buffer is a "truncated" Error.
Decoded decodeOne(QByteArrayView buffer, int maxBytes);

/// The longest message type that an error or log line quotes.
constexpr int kMaxQuotedTypeChars = 80;
/// A message's "type" as an error or a log line quotes it: escaped and at most kMaxQuotedTypeChars characters,
/// since it comes from the peer (before authentication, too).
QString quotedType(const QJsonObject &message);

/// Reads member `key` of a message as a non-negative integer; false (with *error set) when it is
/// missing or not a whole number in [minValue, maxValue].
bool readInt(const QJsonObject &message, const char *key, qint64 *value, QString *error,
             qint64 minValue = 0, qint64 maxValue = std::numeric_limits<qint64>::max());
bool readString(const QJsonObject &message, const char *key, QString *value, QString *error);

/// hello, both ways.
struct Hello
{
    int version = kProtocolVersion;
    QString software;   ///< "wirebenchd 0.1.0" / "wirebench 0.1.0"
    QString osName;     ///< "Debian GNU/Linux 12 (bookworm)"
    QString osVersion;  ///< "12"
    QString kernel;     ///< "Linux 6.1.0-18-amd64"
    QString hostname;
    int cpus = 0;
    QByteArray nonce;       ///< fresh random bytes of this connection (base64 in JSON)
    QString auth;           ///< server: "hmac-sha256" (a key is required) or "none" (open mode)
    QByteArray mac;         ///< client: HMAC proof of the key (auth::clientProof), empty without a key
    double linkSpeedMbps = 0; ///< server: speed of the interface that serves this client, Mbit/s, 0 = unknown or not trusted
    /// server: facts of that interface (kind, driver, speed; wb::InterfaceFacts::toJson, its own "version"), so
    /// that the client judges the far speed by the same rule as its own; optional, empty from older servers.
    QJsonObject link;

    /// This process's description of itself.
    static Hello local(const QString &software);
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &o, Hello *out, QString *error);
    /// "Debian GNU/Linux 12 (bookworm), Linux 6.1.0-18-amd64"
    QString osSummary() const;
};

/// test: what the client asks for. direction is the client's viewpoint.
struct TestRequest
{
    enum class Direction { Send, Recv }; ///< Send: client -> server; Recv: server -> client
    Direction direction = Direction::Send;
    int durationMs = 10000;
    int messageSize = 128 * 1024;
    int sendBuffer = 0;       ///< SO_SNDBUF for the server's data socket, 0 = system default
    int recvBuffer = 0;       ///< SO_RCVBUF for the server's data socket, 0 = system default
    int mss = 0;              ///< TCP_MAXSEG for the server's data socket, 0 = system default
    int sampleIntervalMs = 100;
    int warmupMs = 0;         ///< leading time the receiver leaves out of its count; the sender adds it to the duration

    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &o, TestRequest *out, QString *error);
    static QString directionName(Direction d) { return d == Direction::Send ? QStringLiteral("send") : QStringLiteral("recv"); }
};

/// ready: the server listens for the data connection on this port.
struct Ready
{
    int dataPort = 0;
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &o, Ready *out, QString *error);
};

/// progress: the receiver's cumulative count, sent by the server while it receives.
struct Progress
{
    qint64 bytes = 0;
    double seconds = 0;
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &o, Progress *out, QString *error);
};

/// result: the end of a test, as one side counted it. The server sends it; in a recv test the client
/// answers with its own (receiver's) count so that the server's log holds the figure too.
struct Result
{
    qint64 bytes = 0;         ///< counted by the receiver (0 when the sender reports)
    double seconds = 0;       ///< receiver's first byte to last byte
    qint64 senderBytes = 0;   ///< counted by the sender (0 when unknown)
    int mss = 0;              ///< TCP_INFO tcpi_snd_mss of this side's data socket
    qint64 rttUs = 0;
    qint64 rttVarUs = 0;
    qint64 retransmits = 0;
    double cpuPercent = -1;   ///< CPU time of this side's data thread over the test, -1 = unknown
    int warmupMs = 0;         ///< the warm-up this side left out (absent from a wirebenchd that predates it)
    qint64 totalBytes = -1;   ///< the receiver's count with the warm-up, -1 = same as bytes
    /// What this side's kernel dropped during the test (wb::DropCounts::toJson, its own "version"): its qdisc,
    /// input backlog, interface and TCP counters. Empty from a wirebenchd that predates it: unknown, not zero.
    QJsonObject drops;
    qint64 receivedBytes() const { return totalBytes >= 0 ? totalBytes : bytes; }
    QJsonObject toJson() const;
    static bool fromJson(const QJsonObject &o, Result *out, QString *error);
};

/// error: code is a short word ("bad-message", "too-long", "version", "limit", "socket", "timeout").
QJsonObject errorMessage(const QString &code, const QString &text);
QJsonObject busyMessage(const QString &text);
QJsonObject stopMessage();
/// welcome: the server accepted the client (after its hello); mac = auth::serverProof when a key is in use.
QJsonObject welcomeMessage(const QByteArray &mac);
/// queued: all test slots are taken; the client waits, position 1 is next.
QJsonObject queuedMessage(int position);

} // namespace control
} // namespace wb
