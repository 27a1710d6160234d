#include "ThrottledDisk.h"

#include "SmallLocalDisk.h"

#include <QDir>
#include <QFile>
#include <QProcess>

#include <cerrno>
#include <cstring>

#include <sys/mount.h>
#include <unistd.h>

namespace wb::test {

namespace {

bool writeFile(const QString &path, const QByteArray &text, QString *why)
{
    QFile f(path);
    if (f.open(QIODevice::WriteOnly) && f.write(text) == text.size() && f.flush())
        return true;
    *why = QStringLiteral("cannot write \"%1\" to %2 (%3)")
               .arg(QString::fromLatin1(text.trimmed()), path, f.errorString());
    return false;
}

bool tool(const QString &program, const QStringList &args, QString *out, QString *why)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *why
            = QStringLiteral("%1 %2 failed: %3%4")
                  .arg(program, args.join(QLatin1Char(' ')), QString::fromLocal8Bit(p.readAllStandardError()).trimmed(),
                       p.error() == QProcess::FailedToStart ? QStringLiteral(" (not installed)") : QString());
        return false;
    }
    if (out)
        *out = QString::fromLocal8Bit(p.readAllStandardOutput()).trimmed();
    return true;
}

/// The process's cgroup for `controller` ("" = the v2 hierarchy) from /proc/self/cgroup: "/" at the root.
QString ownCgroup(const char *controller)
{
    QFile f(QStringLiteral("/proc/self/cgroup"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &line : f.readAll().split('\n')) {
        const QList<QByteArray> parts = line.split(':'); // id:controllers:path
        if (parts.size() == 3 && parts.at(1).split(',').contains(QByteArray(controller)))
            return QString::fromLocal8Bit(parts.at(2)) == QLatin1String("/") ? QString()
                                                                             : QString::fromLocal8Bit(parts.at(2));
    }
    return {};
}

} // namespace

ThrottledDisk::~ThrottledDisk()
{
    QString ignored;
    if (!m_parent.isEmpty())
        writeFile(m_parent + QStringLiteral("/cgroup.procs"), QByteArray::number(::getpid()), &ignored);
    if (!m_cgroup.isEmpty())
        QDir().rmdir(m_cgroup);
    if (!m_mount.isEmpty())
        ::umount2(QFile::encodeName(m_mount).constData(), MNT_DETACH);
    if (!m_loop.isEmpty())
        tool(QStringLiteral("losetup"), {QStringLiteral("-d"), m_loop}, nullptr, &ignored);
}

bool ThrottledDisk::create(const QString &id, qint64 bytes, qint64 writeBytesPerSecond, QString *why)
{
    m_id = id;
    if (::geteuid() != 0) {
        *why = QStringLiteral("needs root for a loop device and a block throttle");
        return false;
    }
    if (!m_image.isValid() || !SmallLocalDisk::privateMounts(why))
        return false;
    const QString image = m_image.filePath(QStringLiteral("disk.img"));
    QFile f(image);
    if (!f.open(QIODevice::WriteOnly) || !f.resize(bytes)) {
        *why = QStringLiteral("cannot make the image %1 (%2)").arg(image, f.errorString());
        return false;
    }
    f.close();
    if (!tool(QStringLiteral("losetup"), {QStringLiteral("--find"), QStringLiteral("--show"), image}, &m_loop, why)
        || !tool(QStringLiteral("mkfs.ext4"), {QStringLiteral("-q"), QStringLiteral("-F"), m_loop}, nullptr, why))
        return false;
    QFile dev(QStringLiteral("/sys/class/block/%1/dev").arg(m_loop.section(QLatin1Char('/'), -1)));
    if (!dev.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("cannot read %1 (%2)").arg(dev.fileName(), dev.errorString());
        return false;
    }
    m_device = QString::fromLatin1(dev.readAll()).trimmed();
    const QString dir = m_image.filePath(QStringLiteral("mnt"));
    QDir().mkpath(dir);
    if (::mount(QFile::encodeName(m_loop).constData(), QFile::encodeName(dir).constData(), "ext4", 0, nullptr) != 0) {
        *why = QStringLiteral("mount %1 on %2 failed (%3)")
                   .arg(m_loop, dir, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    m_mount = dir;
    return limit(writeBytesPerSecond, why);
}

bool ThrottledDisk::limit(qint64 writeBytesPerSecond, QString *why)
{
    const QString name = QStringLiteral("wbtest-%1-%2").arg(m_id).arg(::getpid());
    QFile controllers(QStringLiteral("/sys/fs/cgroup/cgroup.controllers"));
    const bool v2 = controllers.open(QIODevice::ReadOnly) && controllers.readAll().split(' ').contains("io");
    QString file;
    QByteArray rule;
    if (v2) {
        m_parent = QStringLiteral("/sys/fs/cgroup") + ownCgroup("");
        if (!writeFile(m_parent + QStringLiteral("/cgroup.subtree_control"), "+io", why))
            return false;
        file = QStringLiteral("io.max");
        rule = m_device.toLatin1() + " wbps=" + QByteArray::number(writeBytesPerSecond);
    } else {
        m_parent = QStringLiteral("/sys/fs/cgroup/blkio") + ownCgroup("blkio");
        if (!QFile::exists(m_parent + QStringLiteral("/blkio.throttle.write_bps_device"))) {
            m_parent.clear();
            *why = QStringLiteral("neither cgroup v2's io controller nor cgroup v1's blkio throttle is available");
            return false;
        }
        file = QStringLiteral("blkio.throttle.write_bps_device");
        rule = m_device.toLatin1() + ' ' + QByteArray::number(writeBytesPerSecond);
    }
    const QString cgroup = m_parent + QLatin1Char('/') + name;
    if (!QDir().mkdir(cgroup)) {
        m_parent.clear();
        *why = QStringLiteral("cannot create the cgroup %1").arg(cgroup);
        return false;
    }
    m_cgroup = cgroup;
    if (!writeFile(cgroup + QLatin1Char('/') + file, rule, why)
        || !writeFile(cgroup + QStringLiteral("/cgroup.procs"), QByteArray::number(::getpid()), why))
        return false;
    m_how = QStringLiteral("cgroup %1 %2 %3 on %4")
                .arg(v2 ? QStringLiteral("v2") : QStringLiteral("v1"), file, QString::fromLatin1(rule), m_loop);
    return true;
}

} // namespace wb::test
