#pragma once

#include <mutex>
#include <string>
#include <unordered_map>

namespace wb::net {

/// What each client address holds of something a server shares out (wirebenchd's connections that have not proved
/// the key, the probe endpoint's requests in flight), so that one address cannot take it all: take() before the
/// work, release() after. Its refusals are counted so that a flood is logged twice, not once per connection: at the
/// first refusal and, with their number, when the address holds nothing any more. Thread-safe.
class PerAddressLimit
{
public:
    explicit PerAddressLimit(int limit)
        : m_limit(limit < 1 ? 1 : limit)
    {
    }

    struct Taken
    {
        bool ok = false;           ///< counted; false: the address holds the limit already (a refusal)
        int held = 0;              ///< what the address holds now (with this one when ok)
        bool firstRefusal = false; ///< the first refusal since the address last held nothing: log this one
    };

    /// One more for `address` when it holds fewer than the limit; else a refusal, counted.
    Taken take(const std::string &address);
    /// Gives one of `address` back. When that was its last, returns how many it was refused since it last held
    /// nothing (to log once), else 0.
    int release(const std::string &address);
    int limit() const { return m_limit; }

private:
    struct Entry
    {
        int held = 0;
        int refused = 0;
    };

    int m_limit;
    std::mutex m_mutex;
    std::unordered_map<std::string, Entry> m_entries;
};

} // namespace wb::net
