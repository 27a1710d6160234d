#include "Iperf3Protocol.h"

#include "platform/Platform.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QtEndian>

#include <algorithm>
#include <cmath>

namespace wb::iperf3 {

namespace {

/// The JSON object of a peer's message, or false with "the results are not valid JSON (...)" in *error.
bool parseObject(const QByteArray &json, const char *what, QJsonObject *out, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = QStringLiteral("the %1 are not valid JSON (%2)").arg(QLatin1String(what), parseError.errorString());
        return false;
    }
    *out = doc.object();
    return true;
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

QString stateName(int state)
{
    switch (state) {
    case TestStart: return QStringLiteral("TEST_START");
    case TestRunning: return QStringLiteral("TEST_RUNNING");
    case TestEnd: return QStringLiteral("TEST_END");
    case ParamExchange: return QStringLiteral("PARAM_EXCHANGE");
    case CreateStreams: return QStringLiteral("CREATE_STREAMS");
    case ServerTerminate: return QStringLiteral("SERVER_TERMINATE");
    case ClientTerminate: return QStringLiteral("CLIENT_TERMINATE");
    case ExchangeResults: return QStringLiteral("EXCHANGE_RESULTS");
    case DisplayResults: return QStringLiteral("DISPLAY_RESULTS");
    case IperfStart: return QStringLiteral("IPERF_START");
    case IperfDone: return QStringLiteral("IPERF_DONE");
    case AccessDenied: return QStringLiteral("ACCESS_DENIED");
    case ServerError: return QStringLiteral("SERVER_ERROR");
    default: return QStringLiteral("state %1").arg(state);
    }
}

bool isKnownState(int state)
{
    return !stateName(state).startsWith(QLatin1String("state "));
}

QString serverErrorText(int code)
{
    switch (code) {
    case 6: return QStringLiteral("the server refused the number of parallel streams");
    case 7: return QStringLiteral("the server refused the message length");
    case 8: return QStringLiteral("the server refused the socket buffer size");
    case 10: return QStringLiteral("the server refused the MSS");
    case 102: return QStringLiteral("the server could not listen for the data connections");
    case 104: return QStringLiteral("the server could not accept a data connection");
    case 114: return QStringLiteral("the server could not read our test parameters");
    case 117: return QStringLiteral("the server could not read our results");
    case ErrAccessDenied: return QStringLiteral("the server is busy running a test");
    case ErrSetMss: return QStringLiteral("the server could not set the MSS");
    case ErrSetBuf:
    case 130:
    case 141: return QStringLiteral("the server could not set the socket buffer size");
    case ErrAuthTest: return QStringLiteral("the server requires authentication");
    case 208: return QStringLiteral("the server did not recognise our stream ids");
    default: return QStringLiteral("the server reported iperf3 error %1").arg(code);
    }
}

QByteArray makeCookie()
{
    // iperf3's own alphabet (make_cookie): lower-case letters and the digits 2-7.
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
    QByteArray cookie(kCookieSize, '\0');
    QRandomGenerator *rng = QRandomGenerator::global();
    for (int i = 0; i < kCookieSize - 1; ++i)
        cookie[i] = alphabet[rng->bounded(32)];
    return cookie;
}

int streamId(int index)
{
    return index == 0 ? 1 : index + 2;
}

QByteArray frameJson(const QByteArray &json)
{
    QByteArray out(4, '\0');
    qToBigEndian<quint32>(quint32(json.size()), out.data());
    return out + json;
}

QByteArray serverErrorMessage(int code, int sysErrno)
{
    QByteArray out(9, '\0');
    out[0] = char(ServerError);
    qToBigEndian<qint32>(code, out.data() + 1);
    qToBigEndian<qint32>(sysErrno, out.data() + 5);
    return out;
}

qint64 decodeJsonLength(const QByteArray &prefix)
{
    if (prefix.size() != 4)
        return -1;
    const qint32 length = qFromBigEndian<qint32>(prefix.constData());
    if (length < 0 || length > kMaxJsonBytes)
        return -1;
    return length;
}

QByteArray TestParameters::toJson() const
{
    QJsonObject o;
    o.insert(udp ? QStringLiteral("udp") : QStringLiteral("tcp"), true);
    o.insert(QStringLiteral("omit"), omitSeconds);
    o.insert(QStringLiteral("time"), timeSeconds);
    o.insert(QStringLiteral("num"), 0);
    o.insert(QStringLiteral("blockcount"), 0);
    if (mss > 0)
        o.insert(QStringLiteral("MSS"), mss);
    o.insert(QStringLiteral("parallel"), parallel);
    if (reverse)
        o.insert(QStringLiteral("reverse"), true);
    if (window > 0)
        o.insert(QStringLiteral("window"), window);
    o.insert(QStringLiteral("len"), blockSize);
    if (bandwidth > 0)
        o.insert(QStringLiteral("bandwidth"), bandwidth);
    o.insert(QStringLiteral("pacing_timer"), 1000);
    o.insert(QStringLiteral("client_version"), clientVersion);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

bool ClientParameters::fromJson(const QByteArray &json, ClientParameters *out, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    QJsonObject o;
    if (!parseObject(json, "parameters", &o, error))
        return false;
    // Numbers must be numbers: a string where iperf3 puts a number is not an iperf3 client.
    static const char *const numeric[] = {"omit", "time", "num", "blockcount", "MSS", "parallel", "window", "len", "bandwidth"};
    for (const char *key : numeric) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isUndefined() && (!v.isDouble() || v.toDouble() < 0 || v.toDouble() > 9e18))
            return fail(QStringLiteral("\"%1\" is not a number of 0 or more").arg(QLatin1String(key)));
    }
    auto flag = [&o](const char *key) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isBool() ? v.toBool() : v.toDouble() != 0;
    };
    auto clampedInt = [&o](const char *key, int fallback) {
        const QJsonValue v = o.value(QLatin1String(key));
        return v.isUndefined() ? fallback : int(qMin(v.toDouble(), 2147483647.0));
    };
    ClientParameters p;
    if (flag("udp"))
        p.protocol = QStringLiteral("udp");
    else if (flag("sctp"))
        p.protocol = QStringLiteral("sctp");
    p.bidirectional = flag("bidirectional");
    p.test.reverse = flag("reverse");
    p.test.omitSeconds = clampedInt("omit", 0);
    p.test.timeSeconds = clampedInt("time", 10);
    p.test.parallel = clampedInt("parallel", 1);
    p.test.blockSize = clampedInt("len", 0);
    p.test.window = clampedInt("window", 0);
    p.test.mss = clampedInt("MSS", 0);
    p.test.clientVersion = o.value(QLatin1String("client_version")).toString();
    p.bytes = qint64(o.value(QLatin1String("num")).toDouble());
    p.blocks = qint64(o.value(QLatin1String("blockcount")).toDouble());
    p.bitrate = qint64(o.value(QLatin1String("bandwidth")).toDouble());
    p.noDelay = flag("nodelay");
    p.congestion = o.value(QLatin1String("congestion")).toString();
    p.hasAuthToken = o.contains(QLatin1String("authtoken"));
    p.udpCounters64 = flag("udp_counters_64bit");
    p.getServerOutput = flag("get_server_output");
    *out = p;
    return true;
}

QByteArray Results::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("cpu_util_total"), cpuTotal);
    o.insert(QStringLiteral("cpu_util_user"), cpuUser);
    o.insert(QStringLiteral("cpu_util_system"), cpuSystem);
    o.insert(QStringLiteral("sender_has_retransmits"), senderHasRetransmits);
    QJsonArray list;
    for (const StreamResult &s : streams) {
        QJsonObject j;
        j.insert(QStringLiteral("id"), s.id);
        j.insert(QStringLiteral("bytes"), s.bytes);
        j.insert(QStringLiteral("retransmits"), s.retransmits);
        j.insert(QStringLiteral("jitter"), s.jitter);
        j.insert(QStringLiteral("errors"), s.errors);
        j.insert(QStringLiteral("omitted_errors"), s.omittedErrors);
        j.insert(QStringLiteral("packets"), s.packets);
        j.insert(QStringLiteral("omitted_packets"), s.omittedPackets);
        j.insert(QStringLiteral("start_time"), s.startTime);
        j.insert(QStringLiteral("end_time"), s.endTime);
        list.append(j);
    }
    o.insert(QStringLiteral("streams"), list);
    if (!serverOutputText.isEmpty())
        o.insert(QStringLiteral("server_output_text"), serverOutputText);
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

bool Results::fromJson(const QByteArray &json, Results *out, QString *error)
{
    auto fail = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    QJsonObject o;
    if (!parseObject(json, "results", &o, error))
        return false;
    const QJsonValue streams = o.value(QLatin1String("streams"));
    if (!streams.isArray())
        return fail(QStringLiteral("the results carry no \"streams\" list"));
    Results r;
    r.cpuTotal = o.value(QLatin1String("cpu_util_total")).toDouble();
    r.cpuUser = o.value(QLatin1String("cpu_util_user")).toDouble();
    r.cpuSystem = o.value(QLatin1String("cpu_util_system")).toDouble();
    r.senderHasRetransmits = o.value(QLatin1String("sender_has_retransmits")).toInt(-1);
    r.serverOutputText = o.value(QLatin1String("server_output_text")).toString();
    for (const QJsonValue &v : streams.toArray()) {
        const QJsonObject j = v.toObject();
        if (!j.value(QLatin1String("bytes")).isDouble() || !j.value(QLatin1String("id")).isDouble())
            return fail(QStringLiteral("a stream in the results lacks \"id\" or \"bytes\""));
        StreamResult s;
        s.id = j.value(QLatin1String("id")).toInt();
        const double bytes = j.value(QLatin1String("bytes")).toDouble();
        if (bytes < 0 || bytes > 9e18)
            return fail(QStringLiteral("a stream in the results has an impossible byte count"));
        s.bytes = qint64(bytes);
        s.retransmits = j.value(QLatin1String("retransmits")).toInt(-1);
        s.jitter = j.value(QLatin1String("jitter")).toDouble();
        s.errors = qint64(j.value(QLatin1String("errors")).toDouble());
        s.packets = qint64(j.value(QLatin1String("packets")).toDouble());
        s.startTime = j.value(QLatin1String("start_time")).toDouble();
        s.endTime = j.value(QLatin1String("end_time")).toDouble();
        s.omittedErrors = qint64(j.value(QLatin1String("omitted_errors")).toDouble());
        s.omittedPackets = qint64(j.value(QLatin1String("omitted_packets")).toDouble());
        r.streams.append(s);
    }
    *out = r;
    return true;
}

qint64 Results::totalBytes() const
{
    qint64 total = 0;
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

QByteArray udpConnectMessage()
{
    return QByteArrayLiteral("9876");
}

QByteArray udpConnectReply()
{
    const quint32 reply = 0x39383736u;
    return QByteArray(reinterpret_cast<const char *>(&reply), sizeof(reply));
}

bool isUdpConnectReply(const QByteArray &datagram)
{
    if (datagram.size() != 4)
        return false;
    const quint32 big = qFromBigEndian<quint32>(datagram.constData());
    const quint32 little = qFromLittleEndian<quint32>(datagram.constData());
    for (quint32 v : {big, little}) {
        if (v == 0x39383736u || v == 987654321u)
            return true;
    }
    return false;
}

void UdpHeader::write(char *datagram, bool counters64) const
{
    qToBigEndian<quint32>(sec, datagram);
    qToBigEndian<quint32>(usec, datagram + 4);
    if (counters64)
        qToBigEndian<quint64>(counter, datagram + 8);
    else
        qToBigEndian<quint32>(quint32(counter), datagram + 8);
}

bool UdpHeader::read(const char *datagram, qint64 size, bool counters64, UdpHeader *out)
{
    if (size < (counters64 ? 16 : 12))
        return false;
    out->sec = qFromBigEndian<quint32>(datagram);
    out->usec = qFromBigEndian<quint32>(datagram + 4);
    out->counter = counters64 ? qFromBigEndian<quint64>(datagram + 8) : qFromBigEndian<quint32>(datagram + 8);
    return true;
}

void UdpReceiveStats::add(quint64 counter, double sentSeconds, double arrivalSeconds)
{
    const qint64 c = qint64(counter);
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
