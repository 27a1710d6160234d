#include "Pacer.h"

namespace wb::net {

qint64 Pacer::dueNs(qint64 sent) const
{
    if (!active())
        return m_startNs;
    return m_startNs + qint64(double(sent) * 1e9 / double(m_rate));
}

qint64 Pacer::chunk(qint64 want) const
{
    if (!active())
        return want;
    return qMin(want, qMax<qint64>(1, m_rate / 100));
}

} // namespace wb::net
