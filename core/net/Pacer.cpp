#include "Pacer.h"

#include <algorithm>

namespace wb::net {

std::int64_t Pacer::dueNs(std::int64_t sent) const
{
    if (!active())
        return m_startNs;
    return m_startNs + std::int64_t(double(sent) * 1e9 / double(m_rate));
}

std::int64_t Pacer::chunk(std::int64_t want) const
{
    if (!active())
        return want;
    return std::min(want, std::max<std::int64_t>(1, m_rate / 100));
}

} // namespace wb::net
