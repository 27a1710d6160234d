#include "Iperf3Protocol.h"

#include "platform/Platform.h"
#include "wire/PeerJson.h"
#include "wire/Text.h"
#include "wire/wirebenchd/Hmac.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace wb::iperf3 {

using Json = nlohmann::json;
using wire::format;

namespace {

/// The JSON object of a peer's message, or false with "the results are not valid JSON (...)" in *error.
bool parseObject(const std::string &json, const char *what, Json *out, std::string *error)
{
    std::string why = "not an object";
    // Every exception the parser can raise (1e999, deep nesting) is a refusal, from a client or a far server.
    wire::parsePeerJson(json, out, &why);
    if (!out->is_object()) {
        if (error)
            *error = format("the %s are not valid JSON (%s)", what, why.c_str());
        return false;
    }
    return true;
}

const Json *member(const Json &o, const char *key)
{
    const auto it = o.find(key);
    return it == o.end() ? nullptr : &*it;
}

/// QJsonValue::toDouble's reading: a number, else 0.
double numberOf(const Json &o, const char *key)
{
    const Json *v = member(o, key);
    return v && v->is_number() ? v->get<double>() : 0;
}

/// QJsonValue::toInt's reading: a whole number in int's range, else the fallback.
int intOf(const Json &o, const char *key, int fallback)
{
    const Json *v = member(o, key);
    if (!v || !v->is_number())
        return fallback;
    const double d = v->get<double>();
    return d == std::floor(d) && d >= -2147483648.0 && d <= 2147483647.0 ? int(d) : fallback;
}

std::string textOf(const Json &o, const char *key)
{
    const Json *v = member(o, key);
    return v && v->is_string() ? v->get<std::string>() : std::string();
}

std::string dumped(const Json &o)
{
    return o.dump(-1, ' ', false, Json::error_handler_t::replace);
}

void putBig32(char *at, std::uint32_t v)
{
    at[0] = char(v >> 24);
    at[1] = char(v >> 16);
    at[2] = char(v >> 8);
    at[3] = char(v);
}

std::uint32_t big32(const char *at)
{
    const auto *p = reinterpret_cast<const unsigned char *>(at);
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | std::uint32_t(p[3]);
}

std::uint32_t little32(const char *at)
{
    const auto *p = reinterpret_cast<const unsigned char *>(at);
    return (std::uint32_t(p[3]) << 24) | (std::uint32_t(p[2]) << 16) | (std::uint32_t(p[1]) << 8) | std::uint32_t(p[0]);
}

} // namespace

ThreadCpuTimes ThreadCpuTimes::now()
{
    ThreadCpuTimes t;
    if (const auto split = platform::Platform::cpuTimes().threadSplit()) {
        t.user = split->user;
        t.system = split->system;
    }
    return t;
}

std::string stateName(int state)
{
    switch (state) {
    case TestStart:
        return "TEST_START";
    case TestRunning:
        return "TEST_RUNNING";
    case TestEnd:
        return "TEST_END";
    case ParamExchange:
        return "PARAM_EXCHANGE";
    case CreateStreams:
        return "CREATE_STREAMS";
    case ServerTerminate:
        return "SERVER_TERMINATE";
    case ClientTerminate:
        return "CLIENT_TERMINATE";
    case ExchangeResults:
        return "EXCHANGE_RESULTS";
    case DisplayResults:
        return "DISPLAY_RESULTS";
    case IperfStart:
        return "IPERF_START";
    case IperfDone:
        return "IPERF_DONE";
    case AccessDenied:
        return "ACCESS_DENIED";
    case ServerError:
        return "SERVER_ERROR";
    default:
        return format("state %d", state);
    }
}

bool isKnownState(int state)
{
    return stateName(state).rfind("state ", 0) != 0;
}

std::string serverErrorText(int code)
{
    switch (code) {
    case 6:
        return "the server refused the number of parallel streams";
    case 7:
        return "the server refused the message length";
    case 8:
        return "the server refused the socket buffer size";
    case 10:
        return "the server refused the MSS";
    case 102:
        return "the server could not listen for the data connections";
    case 104:
        return "the server could not accept a data connection";
    case 114:
        return "the server could not read our test parameters";
    case 117:
        return "the server could not read our results";
    case ErrAccessDenied:
        return "the server is busy running a test";
    case ErrSetMss:
        return "the server could not set the MSS";
    case ErrSetBuf:
    case 130:
    case 141:
        return "the server could not set the socket buffer size";
    case ErrAuthTest:
        return "the server requires authentication";
    case 208:
        return "the server did not recognise our stream ids";
    default:
        return format("the server reported iperf3 error %d", code);
    }
}

std::string makeCookie()
{
    // iperf3's own alphabet (make_cookie): lower-case letters and the digits 2-7.
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
    const std::string random = auth::randomBytes(kCookieSize - 1);
    std::string cookie(kCookieSize, '\0');
    for (int i = 0; i < kCookieSize - 1; ++i)
        cookie[std::size_t(i)] = alphabet[static_cast<unsigned char>(random[std::size_t(i)]) % 32];
    return cookie;
}

int streamId(int index)
{
    return index == 0 ? 1 : index + 2;
}

std::string frameJson(const std::string &json)
{
    std::string out(4, '\0');
    putBig32(out.data(), std::uint32_t(json.size()));
    return out + json;
}

std::string serverErrorMessage(int code, int sysErrno)
{
    std::string out(9, '\0');
    out[0] = char(ServerError);
    putBig32(out.data() + 1, std::uint32_t(code));
    putBig32(out.data() + 5, std::uint32_t(sysErrno));
    return out;
}

std::int64_t decodeJsonLength(const std::string &prefix)
{
    if (prefix.size() != 4)
        return -1;
    const auto length = std::int32_t(big32(prefix.data()));
    if (length < 0 || length > kMaxJsonBytes)
        return -1;
    return length;
}

std::string TestParameters::toJson() const
{
    Json o = Json::object();
    o[udp ? "udp" : "tcp"] = true;
    o["omit"] = omitSeconds;
    o["time"] = timeSeconds;
    o["num"] = 0;
    o["blockcount"] = 0;
    if (mss > 0)
        o["MSS"] = mss;
    o["parallel"] = parallel;
    if (reverse)
        o["reverse"] = true;
    if (bidirectional)
        o["bidirectional"] = true;
    if (window > 0)
        o["window"] = window;
    o["len"] = blockSize;
    if (bandwidth > 0)
        o["bandwidth"] = bandwidth;
    o["pacing_timer"] = 1000;
    o["client_version"] = clientVersion;
    return dumped(o);
}

bool ClientParameters::fromJson(const std::string &json, ClientParameters *out, std::string *error)
{
    auto fail = [error](const std::string &why) {
        if (error)
            *error = why;
        return false;
    };
    Json o;
    if (!parseObject(json, "parameters", &o, error))
        return false;
    // Numbers must be numbers: a string where iperf3 puts a number is not an iperf3 client.
    static const char *const numeric[]
        = {"omit", "time", "num", "blockcount", "MSS", "parallel", "window", "len", "bandwidth"};
    for (const char *key : numeric) {
        const Json *v = member(o, key);
        if (v && (!v->is_number() || v->get<double>() < 0 || v->get<double>() > 9e18))
            return fail(format("\"%s\" is not a number of 0 or more", key));
    }
    auto flag = [&o](const char *key) {
        const Json *v = member(o, key);
        return v && v->is_boolean() ? v->get<bool>() : numberOf(o, key) != 0;
    };
    auto clampedInt = [&o](const char *key, int fallback) {
        return member(o, key) ? int(std::min(numberOf(o, key), 2147483647.0)) : fallback;
    };
    ClientParameters p;
    if (flag("udp"))
        p.protocol = "udp";
    else if (flag("sctp"))
        p.protocol = "sctp";
    p.bidirectional = flag("bidirectional");
    p.test.reverse = flag("reverse");
    p.test.omitSeconds = clampedInt("omit", 0);
    p.test.timeSeconds = clampedInt("time", 10);
    p.test.parallel = clampedInt("parallel", 1);
    p.test.blockSize = clampedInt("len", 0);
    p.test.window = clampedInt("window", 0);
    p.test.mss = clampedInt("MSS", 0);
    p.test.clientVersion = textOf(o, "client_version");
    p.bytes = std::int64_t(numberOf(o, "num"));
    p.blocks = std::int64_t(numberOf(o, "blockcount"));
    p.bitrate = std::int64_t(numberOf(o, "bandwidth"));
    p.noDelay = flag("nodelay");
    p.congestion = textOf(o, "congestion");
    p.hasAuthToken = member(o, "authtoken") != nullptr;
    p.udpCounters64 = flag("udp_counters_64bit");
    p.getServerOutput = flag("get_server_output");
    *out = p;
    return true;
}

std::string Results::toJson() const
{
    Json o = Json::object();
    o["cpu_util_total"] = cpuTotal;
    o["cpu_util_user"] = cpuUser;
    o["cpu_util_system"] = cpuSystem;
    o["sender_has_retransmits"] = senderHasRetransmits;
    Json list = Json::array();
    for (const StreamResult &s : streams) {
        list.push_back(Json{{"id", s.id},
                            {"bytes", s.bytes},
                            {"retransmits", s.retransmits},
                            {"jitter", s.jitter},
                            {"errors", s.errors},
                            {"omitted_errors", s.omittedErrors},
                            {"packets", s.packets},
                            {"omitted_packets", s.omittedPackets},
                            {"start_time", s.startTime},
                            {"end_time", s.endTime}});
    }
    o["streams"] = list;
    if (!serverOutputText.empty())
        o["server_output_text"] = serverOutputText;
    return dumped(o);
}

bool Results::fromJson(const std::string &json, Results *out, std::string *error)
{
    auto fail = [error](const std::string &why) {
        if (error)
            *error = why;
        return false;
    };
    Json o;
    if (!parseObject(json, "results", &o, error))
        return false;
    const Json *streams = member(o, "streams");
    if (!streams || !streams->is_array())
        return fail("the results carry no \"streams\" list");
    Results r;
    r.cpuTotal = numberOf(o, "cpu_util_total");
    r.cpuUser = numberOf(o, "cpu_util_user");
    r.cpuSystem = numberOf(o, "cpu_util_system");
    r.senderHasRetransmits = intOf(o, "sender_has_retransmits", -1);
    r.serverOutputText = textOf(o, "server_output_text");
    for (const Json &j : *streams) {
        const Json *bytesValue = j.is_object() ? member(j, "bytes") : nullptr;
        const Json *idValue = j.is_object() ? member(j, "id") : nullptr;
        if (!bytesValue || !bytesValue->is_number() || !idValue || !idValue->is_number())
            return fail("a stream in the results lacks \"id\" or \"bytes\"");
        StreamResult s;
        s.id = intOf(j, "id", 0);
        const double bytes = bytesValue->get<double>();
        if (bytes < 0 || bytes > 9e18)
            return fail("a stream in the results has an impossible byte count");
        s.bytes = std::int64_t(bytes);
        s.retransmits = intOf(j, "retransmits", -1);
        s.jitter = numberOf(j, "jitter");
        s.errors = wire::countAt(j, "errors", 0);
        s.packets = wire::countAt(j, "packets", 0);
        s.startTime = numberOf(j, "start_time");
        s.endTime = numberOf(j, "end_time");
        s.omittedErrors = wire::countAt(j, "omitted_errors", 0);
        s.omittedPackets = wire::countAt(j, "omitted_packets", 0);
        r.streams.push_back(s);
    }
    *out = r;
    return true;
}

std::int64_t Results::totalBytes() const
{
    std::int64_t total = 0;
    for (const StreamResult &s : streams)
        total += s.bytes;
    return total;
}

double Results::longestSeconds() const
{
    double longest = 0;
    for (const StreamResult &s : streams)
        longest = std::max(longest, s.endTime - s.startTime);
    return longest;
}

int Results::totalRetransmits() const
{
    int total = -1;
    for (const StreamResult &s : streams) {
        if (s.retransmits >= 0)
            total = std::max(total, 0) + s.retransmits;
    }
    return total;
}

std::string udpConnectMessage()
{
    return "9876";
}

std::string udpConnectReply()
{
    const std::uint32_t reply = 0x39383736u;
    return std::string(reinterpret_cast<const char *>(&reply), sizeof(reply));
}

bool isUdpConnectReply(const std::string &datagram)
{
    if (datagram.size() != 4)
        return false;
    for (std::uint32_t v : {big32(datagram.data()), little32(datagram.data())}) {
        if (v == 0x39383736u || v == 987654321u)
            return true;
    }
    return false;
}

void UdpHeader::write(char *datagram, bool counters64) const
{
    putBig32(datagram, sec);
    putBig32(datagram + 4, usec);
    if (counters64) {
        putBig32(datagram + 8, std::uint32_t(counter >> 32));
        putBig32(datagram + 12, std::uint32_t(counter));
    } else {
        putBig32(datagram + 8, std::uint32_t(counter));
    }
}

bool UdpHeader::read(const char *datagram, std::int64_t size, bool counters64, UdpHeader *out)
{
    if (size < (counters64 ? 16 : 12))
        return false;
    out->sec = big32(datagram);
    out->usec = big32(datagram + 4);
    out->counter = counters64 ? (std::uint64_t(big32(datagram + 8)) << 32) | big32(datagram + 12) : big32(datagram + 8);
    return true;
}

void UdpReceiveStats::add(std::uint64_t counter, double sentSeconds, double arrivalSeconds)
{
    const auto c = std::int64_t(counter);
    if (c >= packets + 1) {
        if (c > packets + 1)
            lost += (c - 1) - packets;
        packets = c;
    } else {
        ++outOfOrder;
        if (lost > 0)
            --lost;
    }
    const double transit = arrivalSeconds - sentSeconds;
    if (hasTransit)
        jitter += (std::abs(transit - previousTransit) - jitter) / 16.0;
    previousTransit = transit;
    hasTransit = true;
}

} // namespace wb::iperf3
