#pragma once

#include "ProtocolDriver.h"

#include <mutex>

namespace wb {

/// The observer of a meter on a second thread of a driver (tcp-bidir receives on one while it sends on its own): it
/// holds the samples until the driver's thread hands them on (forwardTo), since the engine's observer belongs to the
/// driver's thread. Stop requests are the driver's observer's.
class SampleQueue : public RunObserver
{
public:
    explicit SampleQueue(const RunObserver &owner)
        : m_owner(owner)
    {
    }

    void sample(const Sample &sample) override;
    bool stopRequested() const override { return m_owner.stopRequested(); }
    /// On the driver's thread: every sample queued so far, in order, to `observer`.
    void forwardTo(RunObserver &observer);

private:
    const RunObserver &m_owner;
    std::mutex m_mutex;
    SampleList m_queued;
};

} // namespace wb
