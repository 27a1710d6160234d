#include "InterfaceFacts.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonValue>

#include <cstring>

#ifdef Q_OS_LINUX
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>
#endif

namespace wb {

namespace {

constexpr int kMaxDepth = 4; // VLAN on a macvlan on a bond is as deep as real set-ups go

QString readSysfs(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromLatin1(f.readAll()).trimmed(); // sysfs reads fail (EINVAL) when there is no value
}

/// A peer's string as safe, short text: printable ASCII only (it ends up in notes and logs).
QString cleanText(const QJsonValue &v, int maxChars = 32)
{
    QString out;
    for (const QChar c : v.toString().left(maxChars)) {
        if (c.unicode() >= 0x20 && c.unicode() < 0x7f)
            out += c;
    }
    return out;
}

#ifdef Q_OS_LINUX
/// An ethtool ioctl on interface name (works without privileges, in this thread's network namespace).
bool ethtool(const QString &name, void *data)
{
    const QByteArray n = name.toLocal8Bit();
    if (n.isEmpty() || n.size() >= IFNAMSIZ)
        return false;
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, n.constData(), size_t(n.size()));
    ifr.ifr_data = static_cast<char *>(data);
    const bool ok = ::ioctl(fd, SIOCETHTOOL, &ifr) == 0;
    ::close(fd);
    return ok;
}

QString driverOf(const QString &name)
{
    ethtool_drvinfo info{};
    info.cmd = ETHTOOL_GDRVINFO;
    if (ethtool(name, &info) && info.driver[0] != '\0')
        return QString::fromLatin1(info.driver, int(qstrnlen(info.driver, sizeof(info.driver))));
    // No ethtool support: the bound driver's name, for hardware.
    return QFileInfo(QStringLiteral("/sys/class/net/%1/device/driver").arg(name)).canonicalFilePath().section(QLatin1Char('/'), -1);
}

bool isLoopbackByFlags(const QString &name)
{
    const QByteArray n = name.toLocal8Bit();
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || n.isEmpty() || n.size() >= IFNAMSIZ) {
        if (fd >= 0)
            ::close(fd);
        return false;
    }
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, n.constData(), size_t(n.size()));
    const bool loop = ::ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_LOOPBACK);
    ::close(fd);
    return loop;
}

bool underHypervisor()
{
    static const bool flag = [] {
        if (!readSysfs(QStringLiteral("/sys/hypervisor/type")).isEmpty())
            return true;
        QFile f(QStringLiteral("/proc/cpuinfo"));
        if (!f.open(QIODevice::ReadOnly))
            return false;
        for (QByteArray line = f.readLine(); !line.isEmpty(); line = f.readLine()) {
            if (line.startsWith("flags") && line.contains(" hypervisor"))
                return true;
        }
        return false;
    }();
    return flag;
}

/// sysfs shows the network namespace it was mounted in, which a thread that entered another one with
/// setns(2) does not share: believe it only when the interface there is the one this namespace calls so.
bool sysfsShows(const QString &name)
{
    const QString base = QStringLiteral("/sys/class/net/") + name;
    if (!QFileInfo::exists(base))
        return false;
    const unsigned index = ::if_nametoindex(name.toLocal8Bit().constData());
    return index != 0 && readSysfs(base + QStringLiteral("/ifindex")).toUInt() == index;
}

/// The interface is in this namespace but sysfs shows another one: what ethtool alone says.
void readByIoctl(const QString &name, InterfaceFacts *f)
{
    f->device = name;
    f->loopback = isLoopbackByFlags(name);
    f->driver = driverOf(name);
    ethtool_cmd cmd{};
    cmd.cmd = ETHTOOL_GSET;
    if (ethtool(name, &cmd)) {
        const quint32 speed = ethtool_cmd_speed(&cmd);
        if (speed > 0 && speed != quint32(SPEED_UNKNOWN))
            f->speedMbps = speed;
        if (cmd.duplex == DUPLEX_FULL)
            f->duplex = QStringLiteral("full");
        else if (cmd.duplex == DUPLEX_HALF)
            f->duplex = QStringLiteral("half");
    }
}

void readSpeed(const QString &base, InterfaceFacts *f)
{
    bool ok = false;
    const double speed = readSysfs(base + QStringLiteral("/speed")).toDouble(&ok);
    if (ok && speed > 0 && speed < 4294967295.0) // (u32)-1 is SPEED_UNKNOWN
        f->speedMbps = speed;
    const QString d = readSysfs(base + QStringLiteral("/duplex"));
    if (d == QLatin1String("full") || d == QLatin1String("half"))
        f->duplex = d;
}
#endif

} // namespace

InterfaceFacts InterfaceFacts::read(const QString &name)
{
    InterfaceFacts f;
    f.name = name;
    f.device = name;
#ifdef Q_OS_LINUX
    f.hypervisor = underHypervisor();
    if (name.isEmpty() || name.contains(QLatin1Char('/'))) {
        f.error = QStringLiteral("no interface name");
        return f;
    }
    if (!sysfsShows(name)) {
        if (::if_nametoindex(name.toLocal8Bit().constData()) == 0) {
            f.error = QStringLiteral("interface %1 does not exist in this network namespace").arg(name);
            return f;
        }
        readByIoctl(name, &f);
        return f;
    }
    QString dev = name;
    for (int depth = 0; depth < kMaxDepth; ++depth) {
        const QString base = QStringLiteral("/sys/class/net/") + dev;
        f.device = dev;
        f.driver = driverOf(dev);
        f.loopback = readSysfs(base + QStringLiteral("/type")) == QLatin1String("772"); // ARPHRD_LOOPBACK
        f.isVirtual = QFileInfo(base).canonicalFilePath().contains(QLatin1String("/virtual/"));
        f.bond = QFileInfo::exists(base + QStringLiteral("/bonding"));
        if (f.isVirtual && !f.bond && !f.loopback) {
            // A VLAN or macvlan runs at its lower device's speed: follow it when there is exactly one.
            const QStringList lower =
                QDir(base).entryList({QStringLiteral("lower_*")}, QDir::Dirs | QDir::System | QDir::NoDotAndDotDot);
            if (lower.size() == 1 && QFileInfo::exists(QStringLiteral("/sys/class/net/") + lower.first().mid(6))) {
                dev = lower.first().mid(6);
                continue;
            }
            static const QStringList stacked = {QStringLiteral("macvlan"), QStringLiteral("macvtap"),
                                                QStringLiteral("ipvlan"), QStringLiteral("ipvtap"),
                                                QStringLiteral("802.1Q VLAN Support")};
            f.lowerMissing = lower.isEmpty() && stacked.contains(f.driver);
        }
        readSpeed(base, &f);
        return f;
    }
    f.error = QStringLiteral("interface %1 sits on too many layers of virtual devices").arg(name);
#else
    f.error = QStringLiteral("this platform does not report the link speed of %1").arg(name);
#endif
    return f;
}

bool InterfaceFacts::readErrorCounters(const QString &name, qint64 *crcErrors, qint64 *frameErrors)
{
#ifdef Q_OS_LINUX
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || !sysfsShows(name))
        return false;
    const QString base = QStringLiteral("/sys/class/net/%1/statistics/").arg(name);
    bool okCrc = false, okFrame = false;
    *crcErrors = readSysfs(base + QStringLiteral("rx_crc_errors")).toLongLong(&okCrc);
    *frameErrors = readSysfs(base + QStringLiteral("rx_frame_errors")).toLongLong(&okFrame);
    return okCrc && okFrame;
#else
    Q_UNUSED(name);
    Q_UNUSED(crcErrors);
    Q_UNUSED(frameErrors);
    return false;
#endif
}

QJsonObject InterfaceFacts::toJson() const
{
    QJsonObject o{{QStringLiteral("version"), kJsonVersion},
                  {QStringLiteral("name"), name},
                  {QStringLiteral("device"), device},
                  {QStringLiteral("driver"), driver},
                  {QStringLiteral("loopback"), loopback},
                  {QStringLiteral("virtual"), isVirtual},
                  {QStringLiteral("bond"), bond},
                  {QStringLiteral("lower_missing"), lowerMissing},
                  {QStringLiteral("hypervisor"), hypervisor},
                  {QStringLiteral("duplex"), duplex}};
    if (speedMbps > 0)
        o.insert(QStringLiteral("speed_mbps"), speedMbps);
    if (!error.isEmpty())
        o.insert(QStringLiteral("error"), error.left(200));
    return o;
}

InterfaceFacts InterfaceFacts::fromJson(const QJsonObject &o)
{
    InterfaceFacts f;
    if (o.value(QLatin1String("version")).toInt(0) < 1) {
        f.error = QStringLiteral("it did not say what kind of interface it is (an older wirebenchd)");
        return f;
    }
    f.name = cleanText(o.value(QLatin1String("name")));
    f.device = cleanText(o.value(QLatin1String("device")));
    if (f.device.isEmpty())
        f.device = f.name;
    f.driver = cleanText(o.value(QLatin1String("driver")));
    f.loopback = o.value(QLatin1String("loopback")).toBool();
    f.isVirtual = o.value(QLatin1String("virtual")).toBool();
    f.bond = o.value(QLatin1String("bond")).toBool();
    f.lowerMissing = o.value(QLatin1String("lower_missing")).toBool();
    f.hypervisor = o.value(QLatin1String("hypervisor")).toBool();
    const double speed = o.value(QLatin1String("speed_mbps")).toDouble(-1);
    f.speedMbps = speed > 0 && speed < 1e9 ? speed : -1;
    const QString d = cleanText(o.value(QLatin1String("duplex")));
    f.duplex = d == QLatin1String("full") || d == QLatin1String("half") ? d : QStringLiteral("unknown");
    f.error = cleanText(o.value(QLatin1String("error")), 200);
    return f;
}

} // namespace wb
