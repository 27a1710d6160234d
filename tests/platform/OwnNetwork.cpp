#include "OwnNetwork.h"

#include <QProcess>
#include <QStandardPaths>

#include <cerrno>
#include <cstring>

#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb::test {

namespace {
bool g_entered = false;
QString g_why;

/// A tool of iproute2 or ethtool, which live in sbin (not always in a test's PATH).
QString tool(const QString &name)
{
    const QString inPath = QStandardPaths::findExecutable(name);
    return inPath.isEmpty()
        ? QStandardPaths::findExecutable(name, {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")})
        : inPath;
}

QString failed(const char *what)
{
    return QStringLiteral("cannot make the test's own network namespace (%1: %2): run it as root (CI runs "
                          "everything as root)")
        .arg(QLatin1String(what), QString::fromLocal8Bit(std::strerror(errno)));
}
} // namespace

void OwnNetwork::enter()
{
    if (::geteuid() != 0) {
        g_why = QStringLiteral("the platform tests make their own network namespace, which needs root: run as root "
                               "(CI runs everything as root)");
        return;
    }
    if (::unshare(CLONE_NEWNET | CLONE_NEWNS) != 0) {
        g_why = failed("unshare");
        return;
    }
    // Nothing mounted here may reach the machine's mounts; then /sys shows this network namespace.
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
        g_why = failed("mount --make-rprivate /");
        return;
    }
    ::umount2("/sys", MNT_DETACH);
    if (::mount("sysfs", "/sys", "sysfs", 0, nullptr) != 0) {
        g_why = failed("mount sysfs");
        return;
    }
    // lo up, without a process (Qt has not started yet).
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    ifreq ifr{};
    std::strcpy(ifr.ifr_name, "lo");
    const bool up = fd >= 0 && ::ioctl(fd, SIOCGIFFLAGS, &ifr) == 0
        && (ifr.ifr_flags |= IFF_UP, ::ioctl(fd, SIOCSIFFLAGS, &ifr) == 0);
    if (fd >= 0)
        ::close(fd);
    if (!up) {
        g_why = failed("bring lo up");
        return;
    }
    g_entered = true;
}

bool OwnNetwork::entered()
{
    return g_entered;
}

QString OwnNetwork::why()
{
    return g_why;
}

bool OwnNetwork::ip(const QStringList &args, QString *error)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(tool(QStringLiteral("ip")), args);
    const bool ok = p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    if (!ok && error)
        *error = QStringLiteral("ip %1: %2")
                     .arg(args.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAll()).trimmed());
    return ok;
}

QByteArray OwnNetwork::runOutput(const QString &program, const QStringList &args)
{
    QProcess p;
    p.start(tool(program), args);
    if (!p.waitForFinished(30000))
        return {};
    return p.readAllStandardOutput();
}

} // namespace wb::test
