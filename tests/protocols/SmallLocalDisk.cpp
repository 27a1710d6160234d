#include "SmallLocalDisk.h"

#include <QDir>
#include <QFile>

#include <cerrno>
#include <cstring>

#include <sched.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

namespace wb::test {

namespace {

/// Once per process: this thread into a mount namespace of its own whose mounts do not propagate back.
bool privateNamespace(QString *why)
{
    static int err = -1;
    if (err < 0) {
        err = 0;
        if (::unshare(CLONE_NEWNS) != 0 || ::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
            err = errno;
    }
    if (err != 0)
        *why = QStringLiteral("cannot enter a private mount namespace (%1): needs root with CAP_SYS_ADMIN")
                   .arg(QString::fromLocal8Bit(std::strerror(err)));
    return err == 0;
}

} // namespace

SmallLocalDisk::~SmallLocalDisk()
{
    if (!m_dir.isEmpty())
        ::umount2(QFile::encodeName(m_dir).constData(), MNT_DETACH);
}

bool SmallLocalDisk::mount(const QString &dir, qint64 bytes, QString *why)
{
    if (::geteuid() != 0) {
        *why = QStringLiteral("needs root to mount a small tmpfs");
        return false;
    }
    if (!privateMounts(why))
        return false;
    QDir().mkpath(dir);
    const QByteArray options = "size=" + QByteArray::number(bytes);
    if (::mount("wbtest-local-full", QFile::encodeName(dir).constData(), "tmpfs", 0, options.constData()) != 0) {
        *why
            = QStringLiteral("mount -t tmpfs on %1 failed (%2)").arg(dir, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    m_dir = dir;
    return true;
}

bool SmallLocalDisk::privateMounts(QString *why)
{
    return privateNamespace(why);
}

qint64 SmallLocalDisk::usedBytes() const
{
    struct statvfs st = {};
    if (m_dir.isEmpty() || ::statvfs(QFile::encodeName(m_dir).constData(), &st) != 0)
        return -1;
    return qint64(st.f_blocks - st.f_bfree) * qint64(st.f_frsize);
}

} // namespace wb::test
