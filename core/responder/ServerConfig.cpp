#include "ServerConfig.h"

namespace wb {

bool ServerConfig::allows(const platform::IpAddress &client) const
{
    if (allow.empty())
        return true;
    for (const net::Subnet &net : allow) {
        if (net.contains(client))
            return true;
    }
    return false;
}

std::string ServerConfig::allowListText() const
{
    std::string text;
    for (const net::Subnet &net : allow)
        text += (text.empty() ? "" : ", ") + net.text();
    return text;
}

} // namespace wb
