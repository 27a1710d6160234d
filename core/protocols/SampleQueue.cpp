#include "SampleQueue.h"

namespace wb {

void SampleQueue::sample(const Sample &sample)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_queued.append(sample);
}

void SampleQueue::forwardTo(RunObserver &observer)
{
    SampleList taken;
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        taken.swap(m_queued);
    }
    for (const Sample &s : taken)
        observer.sample(s);
}

} // namespace wb
