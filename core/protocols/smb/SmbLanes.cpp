#include "SmbLanes.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <new>
#include <thread>

#include <csignal>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace wb {

namespace {

// Calls a lane may finish before the parent takes them (it does every 5-100 ms): 4096 calls of the smallest
// I/O size (64 KiB) are 268 MB, more than 10 Gbit/s carries in 100 ms.
constexpr std::uint32_t RingSize = 4096;
enum State : int { Starting = 0, Ready = 1, Done = 2, Failed = 3 };
enum Signal : int { Wait = 0, Go = 1, Stop = 2 };
// A lane in a call has libsmbclient's timeout (20 s) to end it; then it is killed.
constexpr int ReapGraceMs = 25000;

void nap(int us)
{
    std::this_thread::sleep_for(std::chrono::microseconds(us));
}

} // namespace

struct SmbLanes::Shared
{
    /// One of a read lane's buffers: full once the lane has read its chunk, free again once the parent took it.
    struct Buffer
    {
        std::atomic<int> full{0};
        std::int64_t offset = 0;
        std::int64_t length = 0;
    };
    struct Slot
    {
        std::atomic<int> state{Starting};
        int err = 0;
        bool local = false;
        bool opening = false;
        char text[480] = {};
        std::atomic<std::uint32_t> head{0}; ///< calls the lane wrote
        std::atomic<std::uint32_t> tail{0}; ///< calls the parent took
        Connection connection;              ///< written before ready, which the parent waits for
        std::atomic<std::int64_t> inProgress{0};
        std::atomic<std::int64_t> closedNs{0};
        std::atomic<std::int64_t> sourceBytes{0};
        std::atomic<std::int64_t> sourceNs{0};
        Buffer buffers[BuffersPerLane];
        Call ring[RingSize];
    };
    std::atomic<std::int64_t> nextChunk{0};
    std::atomic<std::int64_t> goNs{0};
    std::atomic<int> signal{Wait};
    Slot lanes[MaxLanes];
};

static_assert(std::atomic<int>::is_always_lock_free && std::atomic<std::int64_t>::is_always_lock_free,
              "the lanes share these between processes");

SmbLanes::SmbLanes(Direction direction, int lanes, qint64 chunkBytes, qint64 totalBytes)
    : m_direction(direction)
    , m_lanes(std::clamp(lanes, 1, MaxLanes))
    , m_chunk(std::max<qint64>(1, chunkBytes))
    , m_total(totalBytes)
{
}

SmbLanes::~SmbLanes()
{
    if (!m_shared)
        return;
    stop();
    m_shared->~Shared();
    ::munmap(m_shared, sizeof(Shared));
    if (m_data)
        ::munmap(m_data, m_dataBytes);
}

std::int64_t SmbLanes::clockNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

QString SmbLanes::verb() const
{
    return m_direction == Direction::Read ? QStringLiteral("read") : QStringLiteral("write");
}

bool SmbLanes::start(const Body &body, QString *error)
{
    const auto sharedMemory = [this, error](size_t bytes) -> void * {
        void *memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
        if (memory != MAP_FAILED)
            return memory;
        *error = QStringLiteral("no shared memory for the %1 connections (%2)")
                     .arg(verb(), QString::fromLocal8Bit(std::strerror(errno)));
        return nullptr;
    };
    void *memory = sharedMemory(sizeof(Shared));
    if (!memory)
        return false;
    m_shared = new (memory) Shared;
    if (m_direction == Direction::Read) {
        m_dataBytes = size_t(m_lanes) * BuffersPerLane * size_t(m_chunk);
        m_data = static_cast<char *>(sharedMemory(m_dataBytes));
        if (!m_data)
            return false;
    }
    m_parent = ::getpid();
    m_tails.assign(size_t(m_lanes), 0);
    m_lastEnds.assign(size_t(m_lanes), 0);
    m_taken.assign(size_t(m_lanes), 0);
    for (int i = 0; i < m_lanes; ++i) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            // The child: a call to a server that died must fail with EPIPE, not end the lane by signal.
            ::signal(SIGPIPE, SIG_IGN);
            Lane lane(*this, i);
            try {
                body(lane);
            } catch (...) {
                lane.fail(0, QStringLiteral("the %1 met an internal error").arg(lane.name()), true, false);
            }
            int expected = Ready;
            m_shared->lanes[i].state.compare_exchange_strong(expected, Done);
            expected = Starting;
            m_shared->lanes[i].state.compare_exchange_strong(expected, Done);
            ::_exit(0); // nothing of the parent's (atexit, Qt, stdio buffers) runs twice
        }
        if (pid < 0) {
            *error = QStringLiteral("cannot start %1 connection %2 of %3 (fork: %4)")
                         .arg(verb())
                         .arg(i + 1)
                         .arg(m_lanes)
                         .arg(QString::fromLocal8Bit(std::strerror(errno)));
            stop();
            return false;
        }
        m_pids.push_back(pid);
    }
    return true;
}

SmbLanes::Failure SmbLanes::failureOf(int lane) const
{
    const Shared::Slot &slot = m_shared->lanes[lane];
    return {true, lane, slot.err, slot.local, slot.opening, QString::fromUtf8(slot.text)};
}

bool SmbLanes::waitReady(int timeoutMs, const std::function<bool()> &stopRequested)
{
    const std::int64_t deadline = clockNs() + std::int64_t(timeoutMs) * 1000000;
    for (;;) {
        int ready = 0;
        for (int i = 0; i < m_lanes; ++i) {
            const int state = m_shared->lanes[i].state.load(std::memory_order_acquire);
            if (state == Failed) {
                m_failure = failureOf(i);
                return false;
            }
            ready += state == Ready ? 1 : 0;
        }
        if (ready == m_lanes)
            return true;
        reap(false, 0);
        if (m_failure.failed || stopRequested())
            return false;
        if (clockNs() > deadline) {
            m_failure = {true,  -1,   ETIMEDOUT,
                         false, true, QStringLiteral("while opening the file over %1 connections").arg(m_lanes)};
            return false;
        }
        nap(2000);
    }
}

void SmbLanes::go()
{
    m_shared->goNs.store(clockNs(), std::memory_order_relaxed);
    m_shared->signal.store(Go, std::memory_order_release);
}

bool SmbLanes::poll(int waitMs, const std::function<void(const Call &)> &each)
{
    // States first, then the rings: a lane writes its last call before it says Done.
    const auto allDone = [this] {
        for (int i = 0; i < m_lanes; ++i) {
            if (m_shared->lanes[i].state.load(std::memory_order_acquire) < Done)
                return false;
        }
        return true;
    };
    qint64 length = 0;
    for (int slept = 0; slept < waitMs && !allDone() && !nextChunk(&length); slept += 5)
        nap(5000);
    std::vector<int> states(static_cast<size_t>(m_lanes));
    for (int i = 0; i < m_lanes; ++i)
        states[size_t(i)] = m_shared->lanes[i].state.load(std::memory_order_acquire);
    std::vector<Call> calls;
    for (int i = 0; i < m_lanes; ++i) {
        Shared::Slot &slot = m_shared->lanes[i];
        const std::uint32_t head = slot.head.load(std::memory_order_acquire);
        for (std::uint32_t &tail = m_tails[size_t(i)]; tail != head; ++tail) {
            calls.push_back(slot.ring[tail % RingSize]);
            m_lastEnds[size_t(i)] = std::max(m_lastEnds[size_t(i)], calls.back().toNs);
        }
        slot.tail.store(m_tails[size_t(i)], std::memory_order_release);
    }
    std::sort(calls.begin(), calls.end(), [](const Call &a, const Call &b) { return a.toNs < b.toNs; });
    for (const Call &call : calls)
        each(call);
    for (int i = 0; i < m_lanes; ++i) {
        if (states[size_t(i)] == Failed && !m_failure.failed)
            m_failure = failureOf(i);
    }
    if (m_failure.failed)
        return false;
    if (std::all_of(states.begin(), states.end(), [](int s) { return s == Done; })) {
        reap(true, ReapGraceMs);
        return false;
    }
    reap(false, 0);
    return !m_failure.failed;
}

char *SmbLanes::buffer(int lane, std::uint32_t n) const
{
    return m_data + (size_t(lane) * BuffersPerLane + n % BuffersPerLane) * size_t(m_chunk);
}

const char *SmbLanes::nextChunk(qint64 *length)
{
    // Each lane claims its chunks in the file's order and fills its buffers in turn, and the parent takes the
    // chunks in the file's order: the next one is at the front of its lane's buffers.
    m_nextLane = -1;
    if (!m_data || m_endedEarly || m_nextOffset >= m_total)
        return nullptr;
    for (int i = 0; i < m_lanes; ++i) {
        const Shared::Buffer &b = m_shared->lanes[i].buffers[m_taken[size_t(i)] % BuffersPerLane];
        if (b.full.load(std::memory_order_acquire) == 1 && b.offset == m_nextOffset) {
            m_nextLane = i;
            *length = b.length;
            return buffer(i, m_taken[size_t(i)]);
        }
    }
    return nullptr;
}

void SmbLanes::release()
{
    if (m_nextLane < 0)
        return;
    const int lane = m_nextLane;
    Shared::Buffer &b = m_shared->lanes[lane].buffers[m_taken[size_t(lane)] % BuffersPerLane];
    m_endedEarly = b.length < std::min(m_chunk, m_total - m_nextOffset);
    m_nextOffset += m_chunk;
    ++m_taken[size_t(lane)];
    m_nextLane = -1;
    b.full.store(0, std::memory_order_release);
}

std::int64_t SmbLanes::settledNs() const
{
    // A lane's next call starts after its last one ended (it runs one call at a time).
    std::int64_t settled = std::numeric_limits<std::int64_t>::max();
    const std::int64_t go = m_shared->goNs.load(std::memory_order_relaxed);
    for (int i = 0; i < m_lanes; ++i) {
        if (m_shared->lanes[i].state.load(std::memory_order_acquire) >= Done
            && m_tails[size_t(i)] == m_shared->lanes[i].head.load(std::memory_order_acquire))
            continue;
        settled = std::min(settled, std::max(go, m_lastEnds[size_t(i)]));
    }
    return settled;
}

std::int64_t SmbLanes::lastCallEndNs() const
{
    return m_lastEnds.empty() ? 0 : *std::max_element(m_lastEnds.begin(), m_lastEnds.end());
}

void SmbLanes::stop()
{
    if (!m_shared)
        return;
    m_shared->signal.store(Stop, std::memory_order_release);
    reap(true, ReapGraceMs);
}

void SmbLanes::reap(bool block, int graceMs)
{
    const std::int64_t deadline = clockNs() + std::int64_t(graceMs) * 1000000;
    for (;;) {
        bool left = false;
        for (size_t i = 0; i < m_pids.size(); ++i) {
            if (m_pids[i] == 0)
                continue;
            int status = 0;
            const pid_t pid = m_pids[i];
            const pid_t r = ::waitpid(pid, &status, WNOHANG);
            if (r == pid) {
                m_pids[i] = 0;
                noteEnd(int(i), status);
                continue;
            }
            if (r < 0 && errno == ECHILD) { // reaped elsewhere: its state tells
                m_pids[i] = 0;
                continue;
            }
            left = true;
        }
        if (!left || !block)
            return;
        if (clockNs() > deadline) {
            for (pid_t &pid : m_pids) {
                if (pid == 0)
                    continue;
                ::kill(pid, SIGKILL);
                int status = 0;
                while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
                }
                pid = 0;
            }
            return;
        }
        nap(2000);
    }
}

void SmbLanes::noteEnd(int lane, int status)
{
    const int state = m_shared->lanes[lane].state.load(std::memory_order_acquire);
    if (m_failure.failed || state == Done || state == Failed)
        return;
    // Ended without saying how: a crash or a kill from outside.
    const QString how = WIFSIGNALED(status) ? QStringLiteral("ended by signal %1 (%2)")
                                                  .arg(WTERMSIG(status))
                                                  .arg(QString::fromLocal8Bit(::strsignal(WTERMSIG(status))))
                                            : QStringLiteral("ended with status %1").arg(WEXITSTATUS(status));
    m_failure = {true, lane, 0, false, false, QStringLiteral("%1 %2").arg(Lane(*this, lane).name(), how)};
}

void SmbLanes::sourceReads(qint64 *bytes, qint64 *nanoseconds) const
{
    *bytes = 0;
    *nanoseconds = 0;
    for (int i = 0; m_shared && i < m_lanes; ++i) {
        *bytes += m_shared->lanes[i].sourceBytes.load(std::memory_order_acquire);
        *nanoseconds += m_shared->lanes[i].sourceNs.load(std::memory_order_acquire);
    }
}

std::vector<SmbLanes::Connection> SmbLanes::connections() const
{
    std::vector<Connection> all;
    for (int i = 0; i < m_lanes; ++i)
        all.push_back(m_shared->lanes[i].connection);
    return all;
}

qint64 SmbLanes::inProgressBytes() const
{
    qint64 sum = 0;
    for (int i = 0; i < m_lanes; ++i)
        sum += m_shared->lanes[i].inProgress.load(std::memory_order_acquire);
    return sum;
}

QString SmbLanes::Lane::name() const
{
    return QStringLiteral("%1 connection %2 of %3").arg(m_owner.verb()).arg(m_index + 1).arg(m_owner.m_lanes);
}

void SmbLanes::Lane::setConnection(const Connection &connection)
{
    m_owner.m_shared->lanes[m_index].connection = connection;
}

std::int64_t SmbLanes::closedNs() const
{
    std::int64_t last = 0;
    for (int i = 0; i < m_lanes; ++i) {
        const std::int64_t t = m_shared->lanes[i].closedNs.load(std::memory_order_acquire);
        if (t == 0)
            return 0;
        last = std::max(last, t);
    }
    return last;
}

void SmbLanes::Lane::closed()
{
    m_owner.m_shared->lanes[m_index].closedNs.store(clockNs(), std::memory_order_release);
}

void SmbLanes::Lane::waitOthersClosed()
{
    const Shared &shared = *m_owner.m_shared;
    for (;;) {
        bool all = true;
        bool failed = false; // a lane that failed never closes
        for (int i = 0; i < m_owner.m_lanes; ++i) {
            all = all && shared.lanes[i].closedNs.load(std::memory_order_acquire) != 0;
            failed = failed || shared.lanes[i].state.load(std::memory_order_acquire) == Failed;
        }
        if (all || failed || stopped())
            return;
        nap(1000);
    }
}

void SmbLanes::Lane::setInProgress(qint64 bytes)
{
    m_owner.m_shared->lanes[m_index].inProgress.store(bytes, std::memory_order_release);
}

void SmbLanes::Lane::recordSourceRead(qint64 bytes, std::int64_t nanoseconds)
{
    Shared::Slot &slot = m_owner.m_shared->lanes[m_index];
    slot.sourceBytes.fetch_add(bytes, std::memory_order_relaxed);
    slot.sourceNs.fetch_add(nanoseconds, std::memory_order_release);
}

bool SmbLanes::Lane::stopped() const
{
    return m_owner.m_shared->signal.load(std::memory_order_acquire) == Stop || ::getppid() != m_owner.m_parent;
}

bool SmbLanes::chunkAt(std::int64_t k, qint64 *offset, qint64 *length) const
{
    constexpr qint64 Step = 64 * 1024;
    if (k < 0)
        return false;
    if (m_direction != Direction::Write || m_lanes < 2 || m_chunk < m_lanes * Step) {
        const qint64 at = k * m_chunk;
        if (at >= m_total)
            return false;
        *offset = at;
        *length = std::min(m_chunk, m_total - at);
        return true;
    }
    // The first round, staggered.
    qint64 at = 0;
    for (std::int64_t i = 0; i < m_lanes; ++i) {
        const qint64 n = std::min(m_chunk * (i + 1) / m_lanes / Step * Step, m_total - at);
        if (n <= 0)
            return false;
        if (i == k) {
            *offset = at;
            *length = n;
            return true;
        }
        at += n;
    }
    // Whole chunks while every lane still has one to take.
    const qint64 whole = m_total - at >= m_lanes * m_chunk ? (m_total - at - m_lanes * m_chunk) / m_chunk + 1 : 0;
    if (k < m_lanes + whole) {
        *offset = at + (k - m_lanes) * m_chunk;
        *length = m_chunk;
        return true;
    }
    at += whole * m_chunk;
    // The tail: a lane's share of what is left, so that the lanes end together (a lane alone at the end idles the
    // line while it waits for each answer); at least a quarter of a chunk, so that a write still fills the line
    // for longer than its answer takes (64 KiB at 2.5 Gbit/s is 0.2 ms).
    const qint64 tailMin = std::max(Step, m_chunk / 4 / Step * Step);
    for (std::int64_t i = m_lanes + whole; at < m_total; ++i) {
        const qint64 share = (m_total - at + m_lanes - 1) / m_lanes;
        const qint64 n = std::min(m_total - at, std::max(tailMin, (share + Step - 1) / Step * Step));
        if (i == k) {
            *offset = at;
            *length = n;
            return true;
        }
        at += n;
    }
    return false;
}

bool SmbLanes::Lane::claim(qint64 *offset, qint64 *length)
{
    Shared &shared = *m_owner.m_shared;
    if (stopped())
        return false;
    if (!m_owner.chunkAt(shared.nextChunk.fetch_add(1), offset, length))
        return false;
    const qint64 at = *offset;
    if (m_owner.m_rate <= 0)
        return true;
    const std::int64_t due
        = shared.goNs.load(std::memory_order_relaxed) + std::int64_t(double(at) / m_owner.m_rate * 1e9);
    for (std::int64_t now = clockNs(); now < due; now = clockNs()) {
        if (stopped())
            return false;
        nap(int(std::min<std::int64_t>(due - now, 50000000) / 1000));
    }
    return true;
}

char *SmbLanes::Lane::claimBuffer(qint64 *offset, qint64 *length)
{
    // The buffer first, then the chunk: a chunk claimed is read at once, so the parent never waits for one
    // that sits claimed behind a full buffer.
    Shared::Buffer &b = m_owner.m_shared->lanes[m_index].buffers[m_claimed % BuffersPerLane];
    while (b.full.load(std::memory_order_acquire) != 0) {
        if (stopped())
            return nullptr;
        nap(200);
    }
    if (!claim(offset, length))
        return nullptr;
    b.offset = *offset;
    return m_owner.buffer(m_index, m_claimed);
}

void SmbLanes::Lane::deliver(qint64 bytes)
{
    Shared::Buffer &b = m_owner.m_shared->lanes[m_index].buffers[m_claimed % BuffersPerLane];
    b.length = bytes;
    ++m_claimed;
    b.full.store(1, std::memory_order_release);
}

void SmbLanes::Lane::record(qint64 bytes, std::int64_t fromNs, std::int64_t toNs)
{
    Shared::Slot &slot = m_owner.m_shared->lanes[m_index];
    const std::uint32_t head = slot.head.load(std::memory_order_relaxed);
    while (head - slot.tail.load(std::memory_order_acquire) >= RingSize) {
        if (::getppid() != m_owner.m_parent)
            return;
        nap(500);
    }
    slot.ring[head % RingSize] = {bytes, fromNs, toNs};
    slot.head.store(head + 1, std::memory_order_release);
}

void SmbLanes::Lane::ready()
{
    int expected = Starting;
    m_owner.m_shared->lanes[m_index].state.compare_exchange_strong(expected, Ready, std::memory_order_acq_rel);
}

bool SmbLanes::Lane::waitGo()
{
    const std::atomic<int> &signal = m_owner.m_shared->signal;
    while (signal.load(std::memory_order_acquire) == Wait) {
        if (::getppid() != m_owner.m_parent)
            return false;
        nap(200);
    }
    return signal.load(std::memory_order_acquire) == Go;
}

void SmbLanes::Lane::fail(int err, const QString &text, bool local, bool opening)
{
    Shared::Slot &slot = m_owner.m_shared->lanes[m_index];
    if (slot.state.load(std::memory_order_acquire) == Failed)
        return;
    slot.err = err;
    slot.local = local;
    slot.opening = opening;
    const QByteArray utf8 = text.toUtf8();
    const size_t n = std::min(sizeof(slot.text) - 1, size_t(utf8.size()));
    std::memcpy(slot.text, utf8.constData(), n);
    slot.text[n] = 0;
    slot.state.store(Failed, std::memory_order_release);
}

} // namespace wb
