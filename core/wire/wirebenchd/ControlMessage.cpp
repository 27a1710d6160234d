#include "ControlMessage.h"

#include "wire/Base64.h"
#include "wire/PeerJson.h"
#include "wire/PrintableText.h"
#include "wire/Text.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace wb::control {

using wire::format;

namespace {

std::uint32_t lengthOf(std::string_view buffer)
{
    const auto *p = reinterpret_cast<const unsigned char *>(buffer.data());
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
}

const Json *member(const Json &o, const char *key)
{
    if (!o.is_object())
        return nullptr;
    const auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
}

} // namespace

std::string encode(const Json &message)
{
    // Invalid UTF-8 in a text (a peer's, an OS's) goes out as U+FFFD rather than stopping the message.
    const std::string json = message.dump(-1, ' ', false, Json::error_handler_t::replace);
    const auto n = std::uint32_t(json.size());
    std::string frame;
    frame.reserve(kHeaderBytes + json.size());
    frame.push_back(char((n >> 24) & 0xff));
    frame.push_back(char((n >> 16) & 0xff));
    frame.push_back(char((n >> 8) & 0xff));
    frame.push_back(char(n & 0xff));
    frame += json;
    return frame;
}

Decoded decode(std::string_view buffer, int maxBytes)
{
    Decoded d;
    if (buffer.size() < std::size_t(kHeaderBytes)) {
        d.status = Decoded::Status::Incomplete;
        return d;
    }
    const std::uint32_t n = lengthOf(buffer);
    if (n == 0) {
        d.status = Decoded::Status::Error;
        d.error = "empty control message (length 0)";
        return d;
    }
    if (std::int64_t(n) > std::int64_t(maxBytes)) {
        d.status = Decoded::Status::Error;
        d.error = format("control message of %u bytes exceeds the limit of %d bytes", n, maxBytes);
        return d;
    }
    if (buffer.size() < std::size_t(kHeaderBytes) + n) {
        d.status = Decoded::Status::Incomplete;
        return d;
    }
    d.status = Decoded::Status::Error;
    d.consumed = std::size_t(kHeaderBytes) + n;
    Json doc;
    std::string why;
    if (!wire::parsePeerJson(buffer.substr(kHeaderBytes, n), &doc, &why)) {
        // Every exception the parser can raise is a refusal like any other bad message, never an abort.
        d.error = why.rfind("syntax error", 0) == 0 ? format("control message is not valid JSON (%s)", why.c_str())
                                                    : format("control message is not valid JSON: %s", why.c_str());
        return d;
    }
    if (!doc.is_object()) {
        d.error = "control message is not a JSON object";
        return d;
    }
    const Json *type = member(doc, "type");
    if (!type || !type->is_string() || type->get_ref<const std::string &>().empty()) {
        d.error = "control message has no \"type\"";
        return d;
    }
    d.status = Decoded::Status::Message;
    d.message = std::move(doc);
    return d;
}

Decoded decodeOne(std::string_view buffer, int maxBytes)
{
    Decoded d = decode(buffer, maxBytes);
    if (d.status == Decoded::Status::Incomplete) {
        d.status = Decoded::Status::Error;
        if (buffer.size() < std::size_t(kHeaderBytes))
            d.error = format("truncated control message: %zu of the %d header bytes", buffer.size(), kHeaderBytes);
        else
            d.error
                = format("truncated control message: %zu of %u bytes", buffer.size() - kHeaderBytes, lengthOf(buffer));
    } else if (d.status == Decoded::Status::Message && d.consumed != buffer.size()) {
        d.status = Decoded::Status::Error;
        d.error = format("%zu stray bytes after the control message", buffer.size() - d.consumed);
        d.message = Json::object();
    }
    return d;
}

std::string typeOf(const Json &message)
{
    return textAt(message, "type");
}

std::string quotedType(const Json &message)
{
    return wire::printableText(typeOf(message), kMaxQuotedTypeChars);
}

std::string textAt(const Json &o, const char *key)
{
    const Json *v = member(o, key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

double numberAt(const Json &o, const char *key, double fallback)
{
    const Json *v = member(o, key);
    return v && v->is_number() ? v->get<double>() : fallback;
}

Json objectAt(const Json &o, const char *key)
{
    const Json *v = member(o, key);
    return v && v->is_object() ? *v : Json::object();
}

bool readInt(const Json &message, const char *key, std::int64_t *value, std::string *error, std::int64_t minValue,
             std::int64_t maxValue)
{
    const Json *v = member(message, key);
    if (!v) {
        if (error)
            *error = format("\"%s\" message lacks \"%s\"", quotedType(message).c_str(), key);
        return false;
    }
    const double dv = v->is_number() ? v->get<double>() : std::nan("");
    if (!wire::wholeNumberIn(dv, minValue, maxValue, value)) {
        if (error)
            *error = format("\"%s\" in a \"%s\" message must be a whole number from %lld to %lld", key,
                            quotedType(message).c_str(), static_cast<long long>(minValue),
                            static_cast<long long>(maxValue));
        return false;
    }
    return true;
}

bool readString(const Json &message, const char *key, std::string *value, std::string *error)
{
    const Json *v = member(message, key);
    if (!v || !v->is_string()) {
        if (error)
            *error = format("\"%s\" message lacks the text \"%s\"", quotedType(message).c_str(), key);
        return false;
    }
    *value = v->get<std::string>();
    return true;
}

namespace {

bool readDouble(const Json &o, const char *key, double *value, std::string *error)
{
    const Json *v = member(o, key);
    if (!v || !v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0) {
        if (error)
            *error = format("\"%s\" in a \"%s\" message must be a non-negative number", key, quotedType(o).c_str());
        return false;
    }
    *value = v->get<double>();
    return true;
}

bool isType(const Json &o, const char *type, std::string *error)
{
    if (typeOf(o) == type)
        return true;
    if (error)
        *error = format("expected a \"%s\" message, got \"%s\"", type, quotedType(o).c_str());
    return false;
}

constexpr std::int64_t kIntMax = std::numeric_limits<int>::max();

/// What QJsonValue::toInt gave: a whole number in int's range, else the fallback.
int intAt(const Json &o, const char *key, int fallback)
{
    const double d = numberAt(o, key, std::nan(""));
    if (std::isnan(d) || d != std::floor(d) || d < double(std::numeric_limits<int>::min()) || d > double(kIntMax))
        return fallback;
    return int(d);
}

} // namespace

Json Hello::toJson() const
{
    Json o{{"type", kHello},          {"version", version}, {"software", software}, {"os_name", osName},
           {"os_version", osVersion}, {"kernel", kernel},   {"hostname", hostname}, {"cpus", cpus}};
    if (!nonce.empty())
        o["nonce"] = wire::toBase64(nonce);
    if (!auth.empty())
        o["auth"] = auth;
    if (!mac.empty())
        o["mac"] = wire::toBase64(mac);
    if (!want.empty())
        o["want"] = want;
    if (linkSpeedMbps > 0)
        o["link_speed_mbps"] = linkSpeedMbps;
    if (link.is_object() && !link.empty())
        o["link"] = link;
    if (maxStreams > 1)
        o["max_streams"] = maxStreams;
    if (bidir)
        o["bidir"] = true;
    return o;
}

bool Hello::fromJson(const Json &o, Hello *out, std::string *error)
{
    std::int64_t v = 0;
    if (!isType(o, kHello, error) || !readInt(o, "version", &v, error, 0, kIntMax))
        return false;
    Hello h;
    h.version = int(v);
    // Everything but the version is informative: a newer peer may describe itself differently.
    h.software = textAt(o, "software");
    h.osName = textAt(o, "os_name");
    h.osVersion = textAt(o, "os_version");
    h.kernel = textAt(o, "kernel");
    h.hostname = textAt(o, "hostname");
    h.cpus = intAt(o, "cpus", 0);
    h.auth = textAt(o, "auth");
    h.want = textAt(o, "want");
    h.linkSpeedMbps = std::max(0.0, numberAt(o, "link_speed_mbps", 0));
    h.link = objectAt(o, "link");
    h.maxStreams = std::clamp(intAt(o, "max_streams", 1), 1, kMaxStreams);
    const Json *bidir = member(o, "bidir");
    h.bidir = bidir && bidir->is_boolean() && bidir->get<bool>();
    // Nonce and proof: base64 of at most 64 bytes; anything else is a malformed hello.
    for (const auto &[key, target] : {std::pair{"nonce", &h.nonce}, std::pair{"mac", &h.mac}}) {
        const Json *value = member(o, key);
        if (!value)
            continue;
        const std::string text = value->is_string() ? value->get<std::string>() : std::string();
        const std::optional<std::string> decoded = wire::fromBase64(text);
        if (!value->is_string() || text.size() > 128 || !decoded) {
            if (error)
                *error = format("\"%s\" in a \"hello\" message must be base64 of at most 64 bytes", key);
            return false;
        }
        *target = *decoded;
    }
    *out = h;
    return true;
}

std::string Hello::osSummary() const
{
    std::string s = osName;
    if (!kernel.empty() && osName.find(kernel) == std::string::npos)
        s += (s.empty() ? "" : ", ") + kernel;
    return s;
}

Json TestRequest::toJson() const
{
    return Json{{"type", kTest},
                {"direction", directionName(direction)},
                {"duration_ms", durationMs},
                {"message_size", messageSize},
                {"send_buffer", sendBuffer},
                {"recv_buffer", recvBuffer},
                {"mss", mss},
                {"sample_interval_ms", sampleIntervalMs},
                {"warmup_ms", warmupMs},
                {"streams", streams}};
}

bool TestRequest::fromJson(const Json &o, TestRequest *out, std::string *error)
{
    if (!isType(o, kTest, error))
        return false;
    TestRequest r;
    std::string dir;
    if (!readString(o, "direction", &dir, error))
        return false;
    if (dir == "send") {
        r.direction = Direction::Send;
    } else if (dir == "recv") {
        r.direction = Direction::Recv;
    } else if (dir == "bidir") {
        r.direction = Direction::Bidir;
    } else {
        if (error)
            *error = format("\"direction\" must be \"send\", \"recv\" or \"bidir\", not \"%s\"",
                            wire::printableText(dir, kMaxQuotedTypeChars).c_str());
        return false;
    }
    std::int64_t duration = 0, size = 0, sndbuf = 0, rcvbuf = 0, mss = 0, interval = 0;
    if (!readInt(o, "duration_ms", &duration, error, 1, kIntMax)
        || !readInt(o, "message_size", &size, error, 1, kIntMax)
        || !readInt(o, "send_buffer", &sndbuf, error, 0, kIntMax)
        || !readInt(o, "recv_buffer", &rcvbuf, error, 0, kIntMax) || !readInt(o, "mss", &mss, error, 0, 65535)
        || !readInt(o, "sample_interval_ms", &interval, error, 10, 60000))
        return false;
    r.durationMs = int(duration);
    r.messageSize = int(size);
    r.sendBuffer = int(sndbuf);
    r.recvBuffer = int(rcvbuf);
    r.mss = int(mss);
    r.sampleIntervalMs = int(interval);
    // Optional: a client that predates warm-up does not send it.
    std::int64_t warmup = 0;
    if (member(o, "warmup_ms") && !readInt(o, "warmup_ms", &warmup, error, 0, 600000))
        return false;
    r.warmupMs = int(warmup);
    // Optional: a client that predates parallel streams asks for one.
    std::int64_t streams = 1;
    if (member(o, "streams") && !readInt(o, "streams", &streams, error, 1, kMaxStreams))
        return false;
    r.streams = int(streams);
    *out = r;
    return true;
}

Json Ready::toJson() const
{
    return Json{{"type", kReady}, {"data_port", dataPort}};
}

bool Ready::fromJson(const Json &o, Ready *out, std::string *error)
{
    std::int64_t port = 0;
    if (!isType(o, kReady, error) || !readInt(o, "data_port", &port, error, 1, 65535))
        return false;
    out->dataPort = int(port);
    return true;
}

Json Progress::toJson() const
{
    return Json{{"type", kProgress}, {"bytes", bytes}, {"seconds", seconds}};
}

bool Progress::fromJson(const Json &o, Progress *out, std::string *error)
{
    Progress p;
    if (!isType(o, kProgress, error) || !readInt(o, "bytes", &p.bytes, error)
        || !readDouble(o, "seconds", &p.seconds, error))
        return false;
    *out = p;
    return true;
}

Json Result::toJson() const
{
    Json o{{"type", kResult}, {"bytes", bytes},  {"seconds", seconds},    {"sender_bytes", senderBytes},
           {"mss", mss},      {"rtt_us", rttUs}, {"rttvar_us", rttVarUs}, {"retransmits", retransmits}};
    if (cpuPercent >= 0)
        o["cpu_percent"] = cpuPercent;
    if (warmupMs > 0)
        o["warmup_ms"] = warmupMs;
    if (totalBytes >= 0)
        o["total_bytes"] = totalBytes;
    if (drops.is_object() && !drops.empty())
        o["drops"] = drops;
    if (!streamBytes.empty())
        o["stream_bytes"] = streamBytes;
    return o;
}

bool Result::fromJson(const Json &o, Result *out, std::string *error)
{
    Result r;
    std::int64_t mss = 0;
    if (!isType(o, kResult, error) || !readInt(o, "bytes", &r.bytes, error)
        || !readDouble(o, "seconds", &r.seconds, error) || !readInt(o, "sender_bytes", &r.senderBytes, error)
        || !readInt(o, "mss", &mss, error, 0, 65535))
        return false;
    r.mss = int(mss);
    // TCP facts are optional: not every platform has TCP_INFO.
    r.rttUs = wire::countAt(o, "rtt_us", 0);
    r.rttVarUs = wire::countAt(o, "rttvar_us", 0);
    r.retransmits = wire::countAt(o, "retransmits", 0);
    r.cpuPercent = numberAt(o, "cpu_percent", -1);
    r.warmupMs = std::clamp(intAt(o, "warmup_ms", 0), 0, 600000);
    if (member(o, "total_bytes") && !readInt(o, "total_bytes", &r.totalBytes, error))
        return false;
    r.drops = objectAt(o, "drops"); // optional: an older wirebenchd sends none
    if (const Json *list = member(o, "stream_bytes");
        list && list->is_array() && list->size() <= std::size_t(kMaxStreams)) {
        for (const Json &b : *list) {
            std::int64_t bytes = 0;
            if (!b.is_number() || !wire::wholeNumberIn(b.get<double>(), 0, INT64_MAX, &bytes)) {
                if (error)
                    *error = "\"stream_bytes\" in a \"result\" message must hold whole numbers of bytes";
                return false;
            }
            r.streamBytes.push_back(bytes);
        }
    }
    *out = r;
    return true;
}

Json errorMessage(const std::string &code, const std::string &text)
{
    return Json{{"type", kError}, {"code", code}, {"message", text}};
}

Json busyMessage(const std::string &text, int retryAfterMs)
{
    Json o{{"type", kBusy}, {"message", text}};
    if (retryAfterMs > 0)
        o["retry_after_ms"] = retryAfterMs;
    return o;
}

int retryAfterMs(const Json &busy)
{
    const double ms = numberAt(busy, "retry_after_ms", 0);
    return ms > 0 && ms <= 10000 ? int(ms) : 0;
}

Json countersMessage(const Json &drops, const std::string &mac)
{
    Json o{{"type", kCounters}, {"drops", drops.is_object() ? drops : Json::object()}};
    if (!mac.empty())
        o["mac"] = wire::toBase64(mac);
    return o;
}

Json stopMessage()
{
    return Json{{"type", kStop}};
}

Json welcomeMessage(const std::string &mac)
{
    Json o{{"type", kWelcome}};
    if (!mac.empty())
        o["mac"] = wire::toBase64(mac);
    return o;
}

Json queuedMessage(int position)
{
    return Json{{"type", kQueued}, {"position", position}};
}

} // namespace wb::control
