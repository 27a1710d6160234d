#pragma once

#include <QtGlobal>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace wb {

/// Runs the timed I/O calls of an SMB transfer on a thread of their own, one after the other, while the
/// driver's thread only counts what they moved. libsmbclient's calls are synchronous: whatever the calling
/// thread does between two calls idles the line. On the driver's thread that includes the meter's samples
/// and the engine's work on each of them (its sock_diag look-up every 250 ms took 4-12 ms on the lab's busy
/// machine, 1-3% of an SMB transfer at 1 Gbit/s). The context is used by this thread alone while it runs.
class SmbIoPump
{
public:
    /// When a call's bytes crossed the line, in nanoseconds of the pump's clock. A call that waits for
    /// anything else (the next buffer, a rate limit) marks its network part; unmarked, it is the whole call.
    struct Span
    {
        qint64 fromNs = -1;
        qint64 toNs = -1;
    };
    using Call = std::function<qint64(Span &)>;

    /// call: one I/O call; returns the bytes it moved (> 0), 0 at the end, < 0 on an error (the caller keeps
    /// the error's details itself). It runs on the pump's thread only. clock: monotonic nanoseconds (the
    /// meter's).
    SmbIoPump(Call call, std::function<qint64()> clock);
    ~SmbIoPump(); ///< stops after the call in progress and joins
    SmbIoPump(const SmbIoPump &) = delete;
    SmbIoPump &operator=(const SmbIoPump &) = delete;

    /// Starts the thread. When no thread can be had, wait() makes the calls itself, one per wait(), as
    /// without the pump (returns false then).
    bool start();
    /// Waits at most timeoutMs for finished calls and returns the bytes they moved since the last wait()
    /// (0 when none), and in *fromNs, *toNs when they moved them: from the start of the first of those calls
    /// to the end of the last. *ended turns true once the thread is done: the end, an error, or stop().
    qint64 wait(int timeoutMs, bool *ended, qint64 *fromNs, qint64 *toNs);
    /// Lets the call in progress finish, then ends the thread and joins it.
    void stop();
    /// What the last call returned: 0 at the end, < 0 after an error (valid once ended).
    qint64 lastReturn() const { return m_last; }

private:
    void loop();
    qint64 callOnce(Span *span);

    Call m_call;
    std::function<qint64()> m_clock;
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    qint64 m_unreported = 0;
    qint64 m_fromNs = 0; ///< start of the first call in m_unreported
    qint64 m_toNs = 0;   ///< end of the last
    qint64 m_last = 0;
    bool m_ended = false;
    bool m_stop = false;
    bool m_threadless = false;
};

} // namespace wb
