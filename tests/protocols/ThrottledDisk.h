#pragma once

#include <QString>
#include <QTemporaryDir>

namespace wb::test {

/// A deliberately slow local disk for a test: an ext4 file system on a loop device (its image in /dev/shm, so
/// that only the limit is slow), mounted in the test's private mount namespace (SmallLocalDisk::privateMounts),
/// with this process's writes to it held to a rate by the kernel's block throttle: cgroup v2 `io.max wbps=` where
/// the io controller is there, else cgroup v1 `blkio.throttle.write_bps_device`. The process is moved into a
/// cgroup of its own for the test's life and back when the disk goes. Needs root.
class ThrottledDisk
{
public:
    ThrottledDisk() = default;
    ~ThrottledDisk();
    ThrottledDisk(const ThrottledDisk &) = delete;
    ThrottledDisk &operator=(const ThrottledDisk &) = delete;

    /// A disk of `bytes` whose writes go at most `writeBytesPerSecond`; `id` names the cgroup (wbtest-<id>-<pid>).
    /// False with the reason (what failed, its error) when this system cannot.
    bool create(const QString &id, qint64 bytes, qint64 writeBytesPerSecond, QString *why);
    QString path() const { return m_mount; }
    /// "cgroup v1 blkio.throttle.write_bps_device 7:0 8000000 on /dev/loop0", what holds the rate.
    QString how() const { return m_how; }

private:
    bool limit(qint64 writeBytesPerSecond, QString *why);

    QTemporaryDir m_image{QStringLiteral("/dev/shm/wbtest-throttled-XXXXXX")};
    QString m_loop;   ///< /dev/loopN
    QString m_device; ///< major:minor
    QString m_mount;
    QString m_cgroup; ///< the cgroup's folder
    QString m_parent; ///< where the process goes back to
    QString m_how;
    QString m_id;
};

} // namespace wb::test
