#pragma once

#include <QString>

namespace wb::test {

/// A small tmpfs on a folder of the test, mounted in a private mount namespace of the test process: the calling
/// thread leaves the system's namespace (unshare(CLONE_NEWNS), propagation private), and the threads it starts
/// afterwards (libcurl's, the SMB pump) are in it too. Nothing outside the test sees the tmpfs, and nothing stays
/// mounted if the test dies. Call it from the test's main thread. Needs root (CAP_SYS_ADMIN).
class SmallLocalDisk
{
public:
    SmallLocalDisk() = default;
    ~SmallLocalDisk();
    SmallLocalDisk(const SmallLocalDisk &) = delete;
    SmallLocalDisk &operator=(const SmallLocalDisk &) = delete;

    /// Creates dir and mounts a tmpfs of `bytes` on it; false with the reason when this system cannot.
    bool mount(const QString &dir, qint64 bytes, QString *why);
    QString path() const { return m_dir; }
    /// Bytes in use on the tmpfs (statvfs), -1 when not mounted.
    qint64 usedBytes() const;
    /// The calling thread into the test's private mount namespace (once per process; mount() does it too), so
    /// that what a test mounts is gone when it ends. False with the reason when this system cannot.
    static bool privateMounts(QString *why);

private:
    QString m_dir;
};

} // namespace wb::test
