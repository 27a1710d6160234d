#include "ControlMessage.h"

#include "wire/PrintableText.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QJsonValue>
#include <QSysInfo>
#include <QThread>

#include <cmath>
#include <utility>

namespace wb::control {

QByteArray encode(const QJsonObject &message)
{
    const QByteArray json = QJsonDocument(message).toJson(QJsonDocument::Compact);
    const quint32 n = quint32(json.size());
    QByteArray frame;
    frame.reserve(kHeaderBytes + json.size());
    frame.append(char((n >> 24) & 0xff));
    frame.append(char((n >> 16) & 0xff));
    frame.append(char((n >> 8) & 0xff));
    frame.append(char(n & 0xff));
    frame.append(json);
    return frame;
}

Decoded decode(QByteArrayView buffer, int maxBytes)
{
    Decoded d;
    if (buffer.size() < kHeaderBytes) {
        d.status = Decoded::Status::Incomplete;
        return d;
    }
    const auto *p = reinterpret_cast<const uchar *>(buffer.data());
    const quint32 n = (quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | quint32(p[3]);
    if (n == 0) {
        d.status = Decoded::Status::Error;
        d.error = QStringLiteral("empty control message (length 0)");
        return d;
    }
    if (qint64(n) > qint64(maxBytes)) {
        d.status = Decoded::Status::Error;
        d.error = QStringLiteral("control message of %1 bytes exceeds the limit of %2 bytes").arg(n).arg(maxBytes);
        return d;
    }
    if (buffer.size() < kHeaderBytes + qsizetype(n)) {
        d.status = Decoded::Status::Incomplete;
        return d;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray(buffer.data() + kHeaderBytes, qsizetype(n)), &pe);
    d.status = Decoded::Status::Error;
    d.consumed = kHeaderBytes + qsizetype(n);
    if (pe.error != QJsonParseError::NoError) {
        d.error = QStringLiteral("control message is not valid JSON (%1 at offset %2)").arg(pe.errorString()).arg(pe.offset);
        return d;
    }
    if (!doc.isObject()) {
        d.error = QStringLiteral("control message is not a JSON object");
        return d;
    }
    const QJsonObject o = doc.object();
    if (!o.value(QLatin1String("type")).isString() || o.value(QLatin1String("type")).toString().isEmpty()) {
        d.error = QStringLiteral("control message has no \"type\"");
        return d;
    }
    d.status = Decoded::Status::Message;
    d.message = o;
    return d;
}

Decoded decodeOne(QByteArrayView buffer, int maxBytes)
{
    Decoded d = decode(buffer, maxBytes);
    if (d.status == Decoded::Status::Incomplete) {
        d.status = Decoded::Status::Error;
        if (buffer.size() < kHeaderBytes) {
            d.error = QStringLiteral("truncated control message: %1 of the %2 header bytes").arg(buffer.size()).arg(kHeaderBytes);
        } else {
            const auto *p = reinterpret_cast<const uchar *>(buffer.data());
            const quint32 n = (quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | quint32(p[3]);
            d.error = QStringLiteral("truncated control message: %1 of %2 bytes")
                          .arg(buffer.size() - kHeaderBytes)
                          .arg(n);
        }
    } else if (d.status == Decoded::Status::Message && d.consumed != buffer.size()) {
        d.status = Decoded::Status::Error;
        d.error = QStringLiteral("%1 stray bytes after the control message").arg(buffer.size() - d.consumed);
        d.message = {};
    }
    return d;
}

QString quotedType(const QJsonObject &message)
{
    return wire::printableText(message.value(QLatin1String("type")).toString(), kMaxQuotedTypeChars);
}

bool readInt(const QJsonObject &message, const char *key, qint64 *value, QString *error, qint64 minValue, qint64 maxValue)
{
    const QJsonValue v = message.value(QLatin1String(key));
    if (v.isUndefined()) {
        if (error)
            *error = QStringLiteral("\"%1\" message lacks \"%2\"").arg(quotedType(message), QLatin1String(key));
        return false;
    }
    const double dv = v.toDouble(std::nan(""));
    if (!v.isDouble() || std::isnan(dv) || dv != std::floor(dv) || dv < double(minValue) || dv > double(maxValue)) {
        if (error)
            *error = QStringLiteral("\"%1\" in a \"%2\" message must be a whole number from %3 to %4")
                         .arg(QLatin1String(key), quotedType(message))
                         .arg(minValue)
                         .arg(maxValue);
        return false;
    }
    *value = qint64(dv);
    return true;
}

bool readString(const QJsonObject &message, const char *key, QString *value, QString *error)
{
    const QJsonValue v = message.value(QLatin1String(key));
    if (!v.isString()) {
        if (error)
            *error = QStringLiteral("\"%1\" message lacks the text \"%2\"").arg(quotedType(message), QLatin1String(key));
        return false;
    }
    *value = v.toString();
    return true;
}

namespace {

bool readDouble(const QJsonObject &o, const char *key, double *value, QString *error)
{
    const QJsonValue v = o.value(QLatin1String(key));
    if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < 0) {
        if (error)
            *error = QStringLiteral("\"%1\" in a \"%2\" message must be a non-negative number")
                         .arg(QLatin1String(key), quotedType(o));
        return false;
    }
    *value = v.toDouble();
    return true;
}

bool isType(const QJsonObject &o, const char *type, QString *error)
{
    const QString t = o.value(QLatin1String("type")).toString();
    if (t == QLatin1String(type))
        return true;
    if (error)
        *error = QStringLiteral("expected a \"%1\" message, got \"%2\"").arg(QLatin1String(type), quotedType(o));
    return false;
}

constexpr qint64 kIntMax = std::numeric_limits<int>::max();

} // namespace

Hello Hello::local(const QString &software)
{
    Hello h;
    h.software = software;
    h.osName = QSysInfo::prettyProductName();
    h.osVersion = QSysInfo::productVersion();
    h.kernel = QSysInfo::kernelType() + QLatin1Char(' ') + QSysInfo::kernelVersion();
    if (h.kernel.isEmpty())
        h.kernel = QStringLiteral("unknown");
    h.kernel[0] = h.kernel[0].toUpper(); // "linux 6.1" -> "Linux 6.1"
    h.hostname = QSysInfo::machineHostName();
    h.cpus = QThread::idealThreadCount();
    return h;
}

QJsonObject Hello::toJson() const
{
    QJsonObject o{{QStringLiteral("type"), QLatin1String(kHello)},
                       {QStringLiteral("version"), version},
                       {QStringLiteral("software"), software},
                       {QStringLiteral("os_name"), osName},
                       {QStringLiteral("os_version"), osVersion},
                       {QStringLiteral("kernel"), kernel},
                       {QStringLiteral("hostname"), hostname},
                       {QStringLiteral("cpus"), cpus}};
    if (!nonce.isEmpty())
        o.insert(QStringLiteral("nonce"), QString::fromLatin1(nonce.toBase64()));
    if (!auth.isEmpty())
        o.insert(QStringLiteral("auth"), auth);
    if (!mac.isEmpty())
        o.insert(QStringLiteral("mac"), QString::fromLatin1(mac.toBase64()));
    if (linkSpeedMbps > 0)
        o.insert(QStringLiteral("link_speed_mbps"), linkSpeedMbps);
    if (!link.isEmpty())
        o.insert(QStringLiteral("link"), link);
    return o;
}

bool Hello::fromJson(const QJsonObject &o, Hello *out, QString *error)
{
    qint64 v = 0;
    if (!isType(o, kHello, error) || !readInt(o, "version", &v, error, 0, kIntMax))
        return false;
    Hello h;
    h.version = int(v);
    // Everything but the version is informative: a newer peer may describe itself differently.
    h.software = o.value(QLatin1String("software")).toString();
    h.osName = o.value(QLatin1String("os_name")).toString();
    h.osVersion = o.value(QLatin1String("os_version")).toString();
    h.kernel = o.value(QLatin1String("kernel")).toString();
    h.hostname = o.value(QLatin1String("hostname")).toString();
    h.cpus = o.value(QLatin1String("cpus")).toInt();
    h.auth = o.value(QLatin1String("auth")).toString();
    h.linkSpeedMbps = qMax(0.0, o.value(QLatin1String("link_speed_mbps")).toDouble(0));
    h.link = o.value(QLatin1String("link")).toObject();
    // Nonce and proof: base64 of at most 64 bytes; anything else is a malformed hello.
    for (const auto &[key, target] : {std::pair{"nonce", &h.nonce}, std::pair{"mac", &h.mac}}) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (v.isUndefined())
            continue;
        const QString text = v.toString();
        const auto decoded = QByteArray::fromBase64Encoding(text.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!v.isString() || text.size() > 128 || !decoded) {
            if (error)
                *error = QStringLiteral("\"%1\" in a \"hello\" message must be base64 of at most 64 bytes").arg(QLatin1String(key));
            return false;
        }
        *target = *decoded;
    }
    *out = h;
    return true;
}

QString Hello::osSummary() const
{
    QStringList parts;
    if (!osName.isEmpty())
        parts << osName;
    if (!kernel.isEmpty() && !osName.contains(kernel))
        parts << kernel;
    return parts.join(QLatin1String(", "));
}

QJsonObject TestRequest::toJson() const
{
    return QJsonObject{{QStringLiteral("type"), QLatin1String(kTest)},
                       {QStringLiteral("direction"), directionName(direction)},
                       {QStringLiteral("duration_ms"), durationMs},
                       {QStringLiteral("message_size"), messageSize},
                       {QStringLiteral("send_buffer"), sendBuffer},
                       {QStringLiteral("recv_buffer"), recvBuffer},
                       {QStringLiteral("mss"), mss},
                       {QStringLiteral("sample_interval_ms"), sampleIntervalMs},
                       {QStringLiteral("warmup_ms"), warmupMs}};
}

bool TestRequest::fromJson(const QJsonObject &o, TestRequest *out, QString *error)
{
    if (!isType(o, kTest, error))
        return false;
    TestRequest r;
    QString dir;
    if (!readString(o, "direction", &dir, error))
        return false;
    if (dir == QLatin1String("send")) {
        r.direction = Direction::Send;
    } else if (dir == QLatin1String("recv")) {
        r.direction = Direction::Recv;
    } else {
        if (error)
            *error = QStringLiteral("\"direction\" must be \"send\" or \"recv\", not \"%1\"").arg(dir);
        return false;
    }
    qint64 duration = 0, size = 0, sndbuf = 0, rcvbuf = 0, mss = 0, interval = 0;
    if (!readInt(o, "duration_ms", &duration, error, 1, kIntMax) || !readInt(o, "message_size", &size, error, 1, kIntMax)
        || !readInt(o, "send_buffer", &sndbuf, error, 0, kIntMax) || !readInt(o, "recv_buffer", &rcvbuf, error, 0, kIntMax)
        || !readInt(o, "mss", &mss, error, 0, 65535) || !readInt(o, "sample_interval_ms", &interval, error, 10, 60000))
        return false;
    r.durationMs = int(duration);
    r.messageSize = int(size);
    r.sendBuffer = int(sndbuf);
    r.recvBuffer = int(rcvbuf);
    r.mss = int(mss);
    r.sampleIntervalMs = int(interval);
    // Optional: a client that predates warm-up does not send it.
    qint64 warmup = 0;
    if (o.contains(QLatin1String("warmup_ms")) && !readInt(o, "warmup_ms", &warmup, error, 0, 600000))
        return false;
    r.warmupMs = int(warmup);
    *out = r;
    return true;
}

QJsonObject Ready::toJson() const
{
    return QJsonObject{{QStringLiteral("type"), QLatin1String(kReady)}, {QStringLiteral("data_port"), dataPort}};
}

bool Ready::fromJson(const QJsonObject &o, Ready *out, QString *error)
{
    qint64 port = 0;
    if (!isType(o, kReady, error) || !readInt(o, "data_port", &port, error, 1, 65535))
        return false;
    out->dataPort = int(port);
    return true;
}

QJsonObject Progress::toJson() const
{
    return QJsonObject{{QStringLiteral("type"), QLatin1String(kProgress)},
                       {QStringLiteral("bytes"), double(bytes)},
                       {QStringLiteral("seconds"), seconds}};
}

bool Progress::fromJson(const QJsonObject &o, Progress *out, QString *error)
{
    Progress p;
    if (!isType(o, kProgress, error) || !readInt(o, "bytes", &p.bytes, error) || !readDouble(o, "seconds", &p.seconds, error))
        return false;
    *out = p;
    return true;
}

QJsonObject Result::toJson() const
{
    QJsonObject o{{QStringLiteral("type"), QLatin1String(kResult)},
                  {QStringLiteral("bytes"), double(bytes)},
                  {QStringLiteral("seconds"), seconds},
                  {QStringLiteral("sender_bytes"), double(senderBytes)},
                  {QStringLiteral("mss"), mss},
                  {QStringLiteral("rtt_us"), double(rttUs)},
                  {QStringLiteral("rttvar_us"), double(rttVarUs)},
                  {QStringLiteral("retransmits"), double(retransmits)}};
    if (cpuPercent >= 0)
        o.insert(QStringLiteral("cpu_percent"), cpuPercent);
    if (warmupMs > 0)
        o.insert(QStringLiteral("warmup_ms"), warmupMs);
    if (totalBytes >= 0)
        o.insert(QStringLiteral("total_bytes"), double(totalBytes));
    if (!drops.isEmpty())
        o.insert(QStringLiteral("drops"), drops);
    return o;
}

bool Result::fromJson(const QJsonObject &o, Result *out, QString *error)
{
    Result r;
    qint64 mss = 0;
    if (!isType(o, kResult, error) || !readInt(o, "bytes", &r.bytes, error) || !readDouble(o, "seconds", &r.seconds, error)
        || !readInt(o, "sender_bytes", &r.senderBytes, error) || !readInt(o, "mss", &mss, error, 0, 65535))
        return false;
    r.mss = int(mss);
    // TCP facts are optional: not every platform has TCP_INFO.
    r.rttUs = qint64(o.value(QLatin1String("rtt_us")).toDouble(0));
    r.rttVarUs = qint64(o.value(QLatin1String("rttvar_us")).toDouble(0));
    r.retransmits = qint64(o.value(QLatin1String("retransmits")).toDouble(0));
    r.cpuPercent = o.value(QLatin1String("cpu_percent")).toDouble(-1);
    r.warmupMs = qBound(0, o.value(QLatin1String("warmup_ms")).toInt(0), 600000);
    if (o.contains(QLatin1String("total_bytes")) && !readInt(o, "total_bytes", &r.totalBytes, error))
        return false;
    r.drops = o.value(QLatin1String("drops")).toObject(); // optional: an older wirebenchd sends none
    *out = r;
    return true;
}

QJsonObject errorMessage(const QString &code, const QString &text)
{
    return QJsonObject{{QStringLiteral("type"), QLatin1String(kError)},
                       {QStringLiteral("code"), code},
                       {QStringLiteral("message"), text}};
}

QJsonObject busyMessage(const QString &text)
{
    return QJsonObject{{QStringLiteral("type"), QLatin1String(kBusy)}, {QStringLiteral("message"), text}};
}

QJsonObject stopMessage()
{
    return QJsonObject{{QStringLiteral("type"), QLatin1String(kStop)}};
}

QJsonObject welcomeMessage(const QByteArray &mac)
{
    QJsonObject o{{QStringLiteral("type"), QLatin1String(kWelcome)}};
    if (!mac.isEmpty())
        o.insert(QStringLiteral("mac"), QString::fromLatin1(mac.toBase64()));
    return o;
}

QJsonObject queuedMessage(int position)
{
    return QJsonObject{{QStringLiteral("type"), QLatin1String(kQueued)}, {QStringLiteral("position"), position}};
}

} // namespace wb::control
