#pragma once

#include "protocols/ProtocolDriver.h"

#include <atomic>

namespace wb::test {

/// A run's observer for the driver tests: keeps the samples, counts them for a test thread that watches while the
/// run goes on (seen), and asks the driver to stop once `stop` is set.
class SampleObserver : public RunObserver
{
public:
    void sample(const Sample &s) override
    {
        samples.append(s);
        seen.fetch_add(1);
    }
    bool stopRequested() const override { return stop.load(); }

    SampleList samples;
    std::atomic_int seen{0};
    std::atomic_bool stop{false};
};

} // namespace wb::test
