#pragma once

#include <chrono>
#include <cstdint>

namespace wb {

/// A named span of work on the current thread (a store write, a History refresh, a replot), for the window's
/// responsiveness probe (app/gui/ResponsivenessProbe), which installs a sink on the GUI thread to learn what that
/// thread was doing in its longest stalls. Without a sink a marker costs one thread_local read. Nested markers are
/// all reported; the sink keeps what it needs. The name must outlive the call (a string literal).
class ActivityMarker
{
public:
    using Sink = void (*)(void *context, const char *name, std::int64_t durationNs);

    /// Installs (or, with nullptr, removes) the calling thread's sink.
    static void setSink(Sink sink, void *context)
    {
        state().sink = sink;
        state().context = context;
    }

    explicit ActivityMarker(const char *name)
        : m_name(name)
    {
        if (state().sink)
            m_start = std::chrono::steady_clock::now();
    }
    ~ActivityMarker()
    {
        const State &s = state();
        if (s.sink && m_start.time_since_epoch().count() != 0)
            s.sink(s.context, m_name,
                   std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - m_start)
                       .count());
    }
    ActivityMarker(const ActivityMarker &) = delete;
    ActivityMarker &operator=(const ActivityMarker &) = delete;

private:
    struct State
    {
        Sink sink = nullptr;
        void *context = nullptr;
    };
    static State &state()
    {
        thread_local State s;
        return s;
    }

    const char *m_name;
    std::chrono::steady_clock::time_point m_start{};
};

} // namespace wb
