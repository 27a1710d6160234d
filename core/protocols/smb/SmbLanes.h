#pragma once

#include "platform/IpAddress.h"

#include <QString>
#include <QtGlobal>

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include <sys/types.h>

namespace wb {

/// Several connections moving one SMB file at once, each in a process of its own, so that the line never waits
/// for one connection's answer. libsmbclient's calls are synchronous: smbc_write sends one request of at most
/// the server's write size and waits for its answer, and smbc_read keeps reads in flight only within one call,
/// so one connection leaves the line idle while the server stores each write, and between two reads; smbclient
/// (cli_push, cli_pull over the whole file) and Windows keep several in flight on one connection, which Debian's
/// libsmbclient does not export. Its calls are not thread-safe either, not even on separate contexts (one
/// process-wide talloc stack frame; smbc_thread_posix is not exported), hence processes: each lane is a
/// fork()ed child with its own context and connection, taking the next chunk of the file from a counter shared
/// by all lanes, and telling each finished call (bytes and when they crossed the line) through a ring in shared
/// memory. A child ends with _exit(), and on its own when the parent is gone.
///
/// A write's lane reads its chunk from the local source itself. A read's lane reads each chunk into one of two
/// buffers of its own in shared memory, which the parent takes in the file's order (nextChunk(), release()) for
/// its sink, so that the local file and the pattern check see the file as one connection would.
///
/// Use: start(), waitReady(), go(), then poll() (and for a read nextChunk()) until it returns false; stop() at any
/// time.
class SmbLanes
{
public:
    enum class Direction { Write, Read };
    static constexpr int MaxLanes = 8;
    static constexpr int BuffersPerLane = 2; ///< a read's: one the lane fills while the parent takes the other

    /// One finished I/O call, on the steady clock of clockNs().
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
        int lane = -1;        ///< 0-based
        int err = 0;          ///< errno of the SMB call (0 for a local failure or an abnormal end)
        bool local = false;   ///< the local source failed
        bool opening = false; ///< while connecting or opening the file
        QString text;         ///< what the lane was doing, or the local error
    };

    class Lane;
    /// Runs in the child: connects, calls ready(), waitGo(), then claim() (or claimBuffer()) and record() until the
    /// end.
    using Body = std::function<void(Lane &)>;

    SmbLanes(Direction direction, int lanes, qint64 chunkBytes, qint64 totalBytes);
    ~SmbLanes(); ///< stop()s, then unmaps
    SmbLanes(const SmbLanes &) = delete;
    SmbLanes &operator=(const SmbLanes &) = delete;

    /// The shared memory and the children; false (and *error) when either cannot be had.
    bool start(const Body &body, QString *error);
    /// Waits until every lane is ready (true), or one failed or ended, timeoutMs passed or stopRequested() said
    /// so (false; failure() tells which, unless stopped).
    bool waitReady(int timeoutMs, const std::function<bool()> &stopRequested);
    /// Paces the lanes together (transfer.max_rate): chunk k starts no earlier than k x chunk bytes at this
    /// rate after go(). Before start().
    void setRate(double bytesPerSecond) { m_rate = bytesPerSecond; }
    /// Lets the lanes start.
    void go();
    /// Sleeps about waitMs (less once a read's next chunk is there), then hands the finished calls to each, in the
    /// order they ended; false once every lane is done or one failed (failure()).
    bool poll(int waitMs, const std::function<void(const Call &)> &each);
    /// A read's next chunk of the file once a lane has read it whole: its bytes, *length of them (fewer than a
    /// chunk only at the end of the file, or where it ended early: then nothing follows); nullptr while it is
    /// still on its way.
    const char *nextChunk(qint64 *length);
    /// Gives the chunk nextChunk() returned back to its lane.
    void release();
    /// Every call not yet handed out by poll() ends after this time (clockNs()): the end of each running lane's
    /// last call handed out, or go() for a lane that has handed out none.
    std::int64_t settledNs() const;
    /// The end of the last call poll() handed out (clockNs()), 0 before the first.
    std::int64_t lastCallEndNs() const;
    /// A lane's TCP connection to the server, as the lane's end sees it.
    struct Connection
    {
        platform::IpAddress local;
        platform::IpAddress remote;
        std::uint16_t localPort = 0; ///< 0 when the lane could not tell
        std::uint16_t remotePort = 0;
    };
    /// Each lane's connection, once ready (for the parent's look at its TCP counters).
    std::vector<Connection> connections() const;
    /// The bytes of the calls the lanes are in now.
    qint64 inProgressBytes() const;
    /// When the server answered the last lane's close (clockNs()), as that lane read its clock: the end of a
    /// transfer, which the parent only notices at its next look (up to a nap later, and after the lanes' logoff).
    /// 0 unless every lane closed its file.
    std::int64_t closedNs() const;
    /// Lets each lane finish its call in progress, and reaps them (killed if they do not end within the
    /// connection's timeout).
    void stop();
    Failure failure() const { return m_failure; }
    /// A write's lanes' time in local source reads, summed (as DiskClock counts it on one thread).
    void sourceReads(qint64 *bytes, qint64 *nanoseconds) const;
    int lanes() const { return m_lanes; }
    qint64 totalBytes() const { return m_total; } ///< of the whole transfer, over all lanes
    /// Where the file's chunk k lies (claim() hands them out in this order); false past the end. A read's chunks
    /// are all of the chunk size. A write's are not (where the chunk holds 64 KiB per lane):
    /// - the first round is staggered: lane i's first chunk is (i + 1) / lanes of the chunk (in 64 KiB steps), so
    ///   that lanes sharing the line evenly do not all end a write, and wait for the answers, at the same moment;
    /// - whole chunks follow while every lane can still have one;
    /// - then each chunk is a lane's share of what is left (64 KiB steps, at least a quarter chunk), so that the
    ///   lanes end together: with
    ///   whole chunks to the end, the last lanes wrote alone, idling the line while each waited for its answer
    ///   (2.5 Gbit/s MTU 9000, 4 x 4 pairs: 0.987 and 0.987 of smbclient with whole chunks, 1.010 and 0.998 with
    ///   shares).
    bool chunkAt(std::int64_t k, qint64 *offset, qint64 *length) const;
    /// "write" or "read", as the lanes' messages say it.
    QString verb() const;

    /// Monotonic nanoseconds, the same in every process (CLOCK_MONOTONIC).
    static std::int64_t clockNs();

    /// The child's side.
    class Lane
    {
    public:
        /// The next chunk: *offset in the file and *length, once the rate allows it; false when the file is
        /// done, or on stop, or when the parent is gone.
        bool claim(qint64 *offset, qint64 *length);
        /// A read's: waits for one of this lane's buffers to be free, then claim()s the chunk to read into it;
        /// nullptr where claim() is false.
        char *claimBuffer(qint64 *offset, qint64 *length);
        /// A read's: the chunk of the last claimBuffer() holds bytes (fewer than asked: the file ended there).
        void deliver(qint64 bytes);
        /// bytes of one I/O call crossed the line between fromNs and toNs (clockNs()).
        void record(qint64 bytes, std::int64_t fromNs, std::int64_t toNs);
        /// This lane's connection, for the parent's look at its TCP counters.
        void setConnection(const Connection &connection);
        /// The length of the I/O call about to start (0 once it ended): bounds what the receiver can have.
        void setInProgress(qint64 bytes);
        /// The server answered this lane's close of the file now.
        void closed();
        /// Waits until every lane has closed its file (or a stop, or the parent gone): a lane's logoff and its
        /// exit, and its smbd's, would otherwise take a core from the lanes still writing (at 2.5 Gbit/s on 2
        /// cores the runs' slowest 0.3 s were their last, 10-15% below the rest).
        void waitOthersClosed();
        /// A read of the local source: bytes in nanoseconds.
        void recordSourceRead(qint64 bytes, std::int64_t nanoseconds);
        void ready();
        /// Waits for go(); false on stop or when the parent is gone.
        bool waitGo();
        /// Records the failure; the lane then ends.
        void fail(int err, const QString &text, bool local, bool opening);
        int index() const { return m_index; }
        /// "read connection 2 of 3", for its messages.
        QString name() const;

    private:
        friend class SmbLanes;
        Lane(SmbLanes &owner, int index)
            : m_owner(owner)
            , m_index(index)
        {
        }
        bool stopped() const;
        SmbLanes &m_owner;
        int m_index;
        std::uint32_t m_claimed = 0; ///< chunks this lane has read into its buffers
    };

private:
    struct Shared;
    void reap(bool block, int graceMs);
    void noteEnd(int lane, int status);
    Failure failureOf(int lane) const;
    char *buffer(int lane, std::uint32_t n) const;

    Direction m_direction;
    int m_lanes;
    qint64 m_chunk;
    qint64 m_total;
    double m_rate = 0;
    Shared *m_shared = nullptr;
    char *m_data = nullptr; ///< a read's buffers: BuffersPerLane of m_chunk bytes per lane
    size_t m_dataBytes = 0;
    std::vector<pid_t> m_pids;            ///< 0 once reaped
    std::vector<std::uint32_t> m_tails;   ///< calls taken from each lane's ring
    std::vector<std::int64_t> m_lastEnds; ///< the end of the last call taken from each lane
    std::vector<std::uint32_t> m_taken;   ///< a read's chunks taken from each lane's buffers
    qint64 m_nextOffset = 0;              ///< a read's next chunk for the parent
    int m_nextLane = -1;                  ///< the lane whose buffer nextChunk() returned
    bool m_endedEarly = false;            ///< a read's chunk came short: the file ended there
    pid_t m_parent = 0;
    Failure m_failure;
};

} // namespace wb
