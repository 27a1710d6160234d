#pragma once

#include "LatencyTarget.h"

#include <QList>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>

namespace wb {

/// Times round trips to a run's host on a thread of its own, beside the driver: rateHz() probes a second, each
/// a 52-byte datagram to wirebenchd's echo or a TCP connect to the service port (then reset, so no connection
/// lingers). The engine sets the phase: Idle before the driver starts, Paused while it sets up (an iperf3 server
/// takes any connection during its stream set-up for a stream), Loaded once data moves. A probe with no answer
/// within kTimeoutMs is lost. The echo's answer is timed by the kernel's receive timestamp (SO_TIMESTAMP, as ping
/// does), so a late wake-up of this thread does not count.
class LatencyProbe
{
public:
    enum class Phase { Idle, Paused, Loaded };
    static constexpr int kTimeoutMs = 1000;

    /// One probe: when it left (steady clock, ns, net::nowNs), its round trip (negative: lost), its phase.
    struct Round
    {
        std::int64_t sentNs = 0;
        double rttMs = -1;
        bool loaded = false;
    };

    explicit LatencyProbe(LatencyTarget target);
    ~LatencyProbe();
    LatencyProbe(const LatencyProbe &) = delete;
    LatencyProbe &operator=(const LatencyProbe &) = delete;

    void start(); ///< probing begins, in Phase::Idle
    void setPhase(Phase phase) { m_phase.store(phase); }
    /// No more probes; waits at most kTimeoutMs for the answers still on their way, then joins the thread.
    void stop();
    /// The rounds finished since the last call, in the order they left (any thread).
    QList<Round> take();

private:
    void echoLoop();
    void connectLoop();
    void publish(const Round &round);
    bool sending() const { return !m_stopping.load() && m_phase.load() != Phase::Paused; }

    LatencyTarget m_target;
    std::thread m_thread;
    std::atomic<Phase> m_phase{Phase::Idle};
    std::atomic_bool m_stopping{false};
    std::int64_t m_stopNs = 0; ///< written before m_stopping turns true
    std::mutex m_mutex;
    QList<Round> m_rounds;
};

} // namespace wb
