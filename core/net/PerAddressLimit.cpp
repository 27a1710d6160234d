#include "PerAddressLimit.h"

namespace wb::net {

PerAddressLimit::Taken PerAddressLimit::take(const std::string &address)
{
    const std::lock_guard lk(m_mutex);
    Entry &e = m_entries[address];
    Taken t;
    if (e.held < m_limit) {
        t.ok = true;
        t.held = ++e.held;
        return t;
    }
    t.held = e.held;
    t.firstRefusal = e.refused++ == 0;
    return t;
}

int PerAddressLimit::release(const std::string &address)
{
    const std::lock_guard lk(m_mutex);
    const auto it = m_entries.find(address);
    if (it == m_entries.end() || it->second.held <= 0)
        return 0;
    if (--it->second.held > 0)
        return 0;
    const int refused = it->second.refused;
    m_entries.erase(it); // an address that holds nothing takes no memory: a scan of many addresses leaves none behind
    return refused;
}

} // namespace wb::net
