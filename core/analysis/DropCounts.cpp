#include "DropCounts.h"

#include "platform/Platform.h"
#include "FarEndFacts.h"
#include "wire/QtWire.h"

#include <QStringList>

namespace wb {

namespace {

double sumOf(const QMap<QString, double> &c, std::initializer_list<const char *> names)
{
    double s = 0;
    for (const char *n : names)
        s += c.value(QLatin1String(n), 0);
    return s;
}

constexpr int kMaxNameChars = 64; // an interface or qdisc list from the far end: capped and made printable

QString peerText(const QJsonValue &v)
{
    return wire::printableText(v.toString(), kMaxNameChars);
}

} // namespace

double DropCounts::qdisc() const
{
    return sumOf(counters, {"qdisc_drops"});
}

double DropCounts::backlog() const
{
    return sumOf(counters, {"backlog_drops"});
}

double DropCounts::interfaceRx() const
{
    return sumOf(counters, {"rx_dropped", "rx_missed_errors", "rx_fifo_errors"});
}

double DropCounts::interfaceTx() const
{
    return sumOf(counters, {"tx_dropped"});
}

double DropCounts::tcp() const
{
    return sumOf(counters,
                 {"TCPBacklogDrop", "RcvPruned", "OfoPruned", "TCPRcvQDrop", "ListenDrops", "TCPReqQFullDrop"});
}

QString DropCounts::detail(const QStringList &names) const
{
    QStringList parts;
    for (const QString &n : names) {
        if (counters.value(n, 0) > 0)
            parts << QStringLiteral("%1 %2").arg(n).arg(qint64(counters.value(n)));
    }
    return parts.join(QStringLiteral(", "));
}

QJsonObject DropCounts::toJson(const platform::DropReading &d)
{
    return wire::toQt(FarEndFacts::dropsJson(d)); // the one writer, which the Qt-free wirebenchd uses too
}

DropCounts DropCounts::fromJson(const QJsonObject &o)
{
    DropCounts c;
    if (o.value(QLatin1String("version")).toInt(0) != kJsonVersion)
        return c;
    c.known = true;
    c.interfaceName = peerText(o.value(QLatin1String("interface")));
    c.qdiscKinds = peerText(o.value(QLatin1String("qdisc")));
    c.shaper = peerText(o.value(QLatin1String("shaper")));
    const QString duplex = o.value(QLatin1String("duplex")).toString();
    if (duplex == QLatin1String("full") || duplex == QLatin1String("half"))
        c.duplex = duplex;
    for (const platform::DropReading::Field &f : platform::DropReading::fields()) {
        const QJsonValue v = o.value(QLatin1String(f.name));
        const double n = v.toDouble(-1);
        if (!v.isDouble() || n < 0 || n != qint64(n))
            continue;
        if (f.member == &platform::DropReading::netdevMaxBacklog)
            c.netdevMaxBacklog = n;
        else if (f.member == &platform::DropReading::shaperRateBytesPerSecond)
            c.shaperRateBytesPerSecond = n;
        else
            c.counters.insert(QLatin1String(f.name), n);
    }
    if (c.shaper.isEmpty())
        c.shaperRateBytesPerSecond = -1; // a rate without its qdisc is no shaper to name
    return c;
}

void DropCounts::add(const DropCounts &other)
{
    if (!other.known)
        return;
    for (auto it = other.counters.cbegin(); it != other.counters.cend(); ++it) {
        const bool level = it.key().startsWith(QLatin1String("qdisc_backlog"));
        counters[it.key()] = level ? it.value() : counters.value(it.key(), 0) + it.value();
    }
    known = true;
    interfaceName = other.interfaceName;
    qdiscKinds = other.qdiscKinds;
    duplex = other.duplex;
    netdevMaxBacklog = other.netdevMaxBacklog;
    shaper = other.shaper;
    shaperRateBytesPerSecond = other.shaperRateBytesPerSecond;
}

platform::DropReading DropCounts::readLocal(const QString &interfaceName)
{
    return platform::Platform::dropCounters().read(interfaceName.toStdString());
}

} // namespace wb
