#include "InterfaceMtu.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>

#ifdef Q_OS_LINUX
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace wb {

namespace {

// The network namespace the interface names belong to: a state file written in another namespace (a
// test lab) must not rename-match interfaces here.
QString netnsId()
{
#ifdef Q_OS_LINUX
    struct stat st {};
    if (::stat("/proc/self/ns/net", &st) == 0)
        return QString::number(quint64(st.st_ino));
#endif
    return {};
}

#ifdef Q_OS_LINUX
bool ifreqFor(const QString &iface, ifreq *r, QString *error)
{
    const QByteArray name = iface.toLocal8Bit();
    if (name.isEmpty() || name.size() >= IFNAMSIZ) {
        *error = QStringLiteral("\"%1\" is not an interface name").arg(iface.left(40));
        return false;
    }
    std::memset(r, 0, sizeof(*r));
    std::memcpy(r->ifr_name, name.constData(), size_t(name.size()));
    return true;
}
#endif

} // namespace

InterfaceMtu::InterfaceMtu(const QString &stateFile)
    : m_stateFile(stateFile.isEmpty() ? defaultStateFile() : stateFile)
{
}

InterfaceMtu::~InterfaceMtu()
{
    if (!m_original.isEmpty())
        restore();
}

QString InterfaceMtu::defaultStateFile()
{
    const QString env = qEnvironmentVariable("WIREBENCH_MTU_STATE");
    if (!env.isEmpty())
        return env;
    QString dir = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    if (dir.isEmpty())
        dir = QDir::tempPath();
    return dir + QStringLiteral("/Wirebench/interface-mtu.json");
}

bool InterfaceMtu::isRoot()
{
#ifdef Q_OS_UNIX
    return ::geteuid() == 0;
#else
    return false;
#endif
}

int InterfaceMtu::current(const QString &iface)
{
#ifdef Q_OS_LINUX
    ifreq r;
    QString e;
    if (!ifreqFor(iface, &r, &e))
        return 0;
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    const int rc = ::ioctl(fd, SIOCGIFMTU, &r);
    ::close(fd);
    return rc == 0 ? r.ifr_mtu : 0;
#else
    Q_UNUSED(iface);
    return 0;
#endif
}

bool InterfaceMtu::set(const QString &iface, int mtu, QString *error)
{
#ifdef Q_OS_LINUX
    ifreq r;
    if (!ifreqFor(iface, &r, error))
        return false;
    if (mtu < 68 || mtu > 65535) {
        *error = QStringLiteral("MTU %1 is out of range (68 to 65535 bytes)").arg(mtu);
        return false;
    }
    r.ifr_mtu = mtu;
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = QStringLiteral("cannot open a socket to set the MTU (%1)").arg(QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    const int rc = ::ioctl(fd, SIOCSIFMTU, &r);
    const int err = errno;
    ::close(fd);
    if (rc != 0) {
        QString hint;
        if (err == EPERM || err == EACCES)
            hint = QStringLiteral(": run Wirebench as root (sudo) to set the interface MTU");
        else if (err == EINVAL)
            hint = QStringLiteral(": the interface or its driver does not accept this MTU (check its maximum with "
                                  "'ip -d link show %1')").arg(iface);
        else if (err == ENODEV)
            hint = QStringLiteral(": no such interface here");
        *error = QStringLiteral("could not set the MTU of %1 to %2 bytes (%3)%4")
                     .arg(iface)
                     .arg(mtu)
                     .arg(QString::fromLocal8Bit(std::strerror(err)), hint);
        return false;
    }
    return true;
#else
    *error = QStringLiteral("setting the interface MTU of %1 to %2 is only supported on Linux").arg(iface).arg(mtu);
    return false;
#endif
}

void InterfaceMtu::save() const
{
    if (m_original.isEmpty()) {
        QFile::remove(m_stateFile);
        return;
    }
    QJsonObject ifaces;
    for (auto it = m_original.cbegin(); it != m_original.cend(); ++it)
        ifaces.insert(it.key(), it.value());
    QJsonObject root{{QStringLiteral("netns"), netnsId()}, {QStringLiteral("interfaces"), ifaces}};
    QDir().mkpath(QFileInfo(m_stateFile).absolutePath());
    QSaveFile f(m_stateFile);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(QJsonDocument(root).toJson());
        f.commit();
    }
}

bool InterfaceMtu::apply(const QString &iface, int mtu, QString *error)
{
    if (!isRoot()) {
        *error = QStringLiteral("setting the MTU of %1 to %2 bytes needs root: run Wirebench as root (sudo) or set it "
                                "yourself with 'ip link set dev %1 mtu %2'")
                     .arg(iface)
                     .arg(mtu);
        return false;
    }
    const int before = current(iface);
    if (before <= 0) {
        *error = QStringLiteral("cannot read the MTU of interface %1: is it still there?").arg(iface);
        return false;
    }
    if (before == mtu)
        return true;
    if (!m_original.contains(iface)) {
        m_original.insert(iface, before);
        save(); // before the change: a crash right after it still finds the original
    }
    if (!set(iface, mtu, error)) {
        if (m_original.value(iface) == before && before == current(iface)) {
            m_original.remove(iface);
            save();
        }
        return false;
    }
    return true;
}

QStringList InterfaceMtu::restore()
{
    QStringList lines;
    for (auto it = m_original.cbegin(); it != m_original.cend(); ++it) {
        QString e;
        if (current(it.key()) == it.value() || set(it.key(), it.value(), &e))
            lines << QStringLiteral("restored the MTU of %1 to %2 bytes").arg(it.key()).arg(it.value());
        else
            lines << QStringLiteral("%1; set it back by hand with 'ip link set dev %2 mtu %3'").arg(e, it.key()).arg(it.value());
    }
    m_original.clear();
    save();
    return lines;
}

QStringList InterfaceMtu::restoreLeftovers(const QString &stateFile)
{
    const QString path = stateFile.isEmpty() ? defaultStateFile() : stateFile;
    QFile f(path);
    if (!f.exists() || !f.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject root = QJsonDocument::fromJson(f.read(64 * 1024)).object();
    f.close();
    const QJsonObject ifaces = root.value(QStringLiteral("interfaces")).toObject();
    if (ifaces.isEmpty()) {
        QFile::remove(path);
        return {};
    }
    if (root.value(QStringLiteral("netns")).toString() != netnsId()) {
        // Another namespace wrote it (a lab that may be gone): leave it for a process in that namespace.
        return {QStringLiteral("%1 lists interface MTUs changed in another network namespace; not touched").arg(path)};
    }
    InterfaceMtu m(path);
    for (auto it = ifaces.constBegin(); it != ifaces.constEnd(); ++it) {
        const int mtu = it.value().toInt();
        if (mtu >= 68 && mtu <= 65535)
            m.m_original.insert(it.key(), mtu);
    }
    QStringList lines = m.restore();
    for (QString &l : lines)
        l = QStringLiteral("after an interrupted run: ") + l;
    return lines;
}

} // namespace wb
