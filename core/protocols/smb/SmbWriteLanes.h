#pragma once

#include <QString>
#include <QtGlobal>

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include <sys/types.h>

namespace wb {

/// Several connections writing one SMB file at once, each in a process of its own, so that more than one
/// write is in flight. libsmbclient's writes are synchronous (smbc_write sends one request of at most the
/// server's write size and waits for its answer), so one connection leaves the line idle while the server
/// stores each write and answers; smbclient (cli_push) and Windows keep several writes in flight on one
/// connection, which Debian's libsmbclient does not export. Its calls are not thread-safe either, not even on
/// separate contexts (one process-wide talloc stack frame; smbc_thread_posix is not exported), hence
/// processes: each lane is a fork()ed child with its own context and connection, taking the next chunk of the
/// file from a counter shared by all lanes, and telling each finished call (bytes and when they crossed the
/// line) through a ring in shared memory. A child only writes, with _exit() at the end, and ends on its own
/// when the parent is gone.
///
/// Use: start(), waitReady(), go(), then poll() until it returns false; stop() at any time.
class SmbWriteLanes
{
public:
    static constexpr int MaxLanes = 8;

    /// One finished write call, on the steady clock of clockNs().
    struct Call
    {
        std::int64_t bytes = 0;
        std::int64_t fromNs = 0;
        std::int64_t toNs = 0;
    };

    /// What a lane met when it failed.
    struct Failure
    {
        bool failed = false;
        int lane = -1;    ///< 0-based
        int err = 0;      ///< errno of the SMB call (0 for a local failure or an abnormal end)
        bool local = false; ///< the local source failed
        bool opening = false; ///< while connecting or opening the file
        QString text;     ///< what the lane was doing, or the local error
    };

    class Lane;
    /// Runs in the child: connects, calls ready(), waitGo(), then claim() / record() until the end.
    using Body = std::function<void(Lane &)>;

    SmbWriteLanes(int lanes, qint64 chunkBytes, qint64 totalBytes);
    ~SmbWriteLanes(); ///< stop()s, then unmaps
    SmbWriteLanes(const SmbWriteLanes &) = delete;
    SmbWriteLanes &operator=(const SmbWriteLanes &) = delete;

    /// The shared memory and the children; false (and *error) when either cannot be had.
    bool start(const Body &body, QString *error);
    /// Waits until every lane is ready (true), or one failed or ended, timeoutMs passed or stopRequested() said
    /// so (false; failure() tells which, unless stopped).
    bool waitReady(int timeoutMs, const std::function<bool()> &stopRequested);
    /// Paces the lanes together (transfer.max_rate): chunk k starts no earlier than k x chunk bytes at this
    /// rate after go(). Before start().
    void setRate(double bytesPerSecond) { m_rate = bytesPerSecond; }
    /// Lets the lanes start writing.
    void go();
    /// Sleeps about waitMs, then hands the finished calls to each, in the order they ended; false once every
    /// lane is done or one failed (failure()).
    bool poll(int waitMs, const std::function<void(const Call &)> &each);
    /// Every call not yet handed out by poll() ends after this time (clockNs()): the end of each running lane's
    /// last call handed out, or go() for a lane that has handed out none.
    std::int64_t settledNs() const;
    /// Each lane's local port (0 when it could not tell), once ready.
    std::vector<int> localPorts() const;
    /// The bytes of the calls the lanes are in now.
    qint64 inProgressBytes() const;
    /// Lets each lane finish its call in progress, and reaps them (killed if they do not end within the
    /// connection's timeout).
    void stop();
    Failure failure() const { return m_failure; }
    /// The lanes' time in local source reads, summed (as DiskClock counts it on one thread).
    void sourceReads(qint64 *bytes, qint64 *nanoseconds) const;
    int lanes() const { return m_lanes; }

    /// Monotonic nanoseconds, the same in every process (CLOCK_MONOTONIC).
    static std::int64_t clockNs();

    /// The child's side.
    class Lane
    {
    public:
        /// The next chunk: *offset in the file and *length, once the rate allows it; false when the file is
        /// done, or on stop, or when the parent is gone.
        bool claim(qint64 *offset, qint64 *length);
        /// bytes of one write call crossed the line between fromNs and toNs (clockNs()).
        void record(qint64 bytes, std::int64_t fromNs, std::int64_t toNs);
        /// The local port of this lane's connection, for the parent's look at its TCP counters.
        void setLocalPort(int port);
        /// The length of the write call about to start (0 once it ended): bounds what the receiver can have.
        void setInProgress(qint64 bytes);
        /// A read of the local source: bytes in nanoseconds.
        void recordSourceRead(qint64 bytes, std::int64_t nanoseconds);
        void ready();
        /// Waits for go(); false on stop or when the parent is gone.
        bool waitGo();
        /// Records the failure; the lane then ends.
        void fail(int err, const QString &text, bool local, bool opening);
        int index() const { return m_index; }

    private:
        friend class SmbWriteLanes;
        Lane(SmbWriteLanes &owner, int index) : m_owner(owner), m_index(index) {}
        bool parentGone() const;
        SmbWriteLanes &m_owner;
        int m_index;
    };

private:
    struct Shared;
    void reap(bool block, int graceMs);
    void noteEnd(int lane, int status);

    int m_lanes;
    qint64 m_chunk;
    qint64 m_total;
    double m_rate = 0;
    Shared *m_shared = nullptr;
    std::vector<pid_t> m_pids;      ///< 0 once reaped
    std::vector<std::uint32_t> m_tails; ///< calls taken from each lane's ring
    std::vector<std::int64_t> m_lastEnds; ///< the end of the last call taken from each lane
    pid_t m_parent = 0;
    Failure m_failure;
};

} // namespace wb
