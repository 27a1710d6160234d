#include "Address.h"

#include <algorithm>
#include <cstring>

namespace wb::net {

using platform::IpAddress;

std::optional<IpAddress> parseAddress(const std::string &input)
{
    std::string text = input;
    if (text.size() >= 2 && text.front() == '[' && text.back() == ']')
        text = text.substr(1, text.size() - 2);
    IpAddress a;
    if (inet_pton(AF_INET, text.c_str(), a.bytes.data()) == 1) {
        a.family = IpAddress::Family::V4;
        return a;
    }
    std::string scope;
    if (const auto percent = text.find('%'); percent != std::string::npos) {
        scope = text.substr(percent + 1);
        text.resize(percent);
    }
    if (inet_pton(AF_INET6, text.c_str(), a.bytes.data()) != 1)
        return std::nullopt;
    a.family = IpAddress::Family::V6;
    if (!scope.empty()) {
        char *end = nullptr;
        const unsigned long n = std::strtoul(scope.c_str(), &end, 10);
        a.scopeId = end && *end == '\0' ? std::uint32_t(n) : interfaceIndex(scope);
        if (a.scopeId == 0)
            return std::nullopt;
    }
    return a;
}

std::string addressText(const IpAddress &a)
{
    char buf[INET6_ADDRSTRLEN] = {};
    if (a.family == IpAddress::Family::V4)
        inet_ntop(AF_INET, a.bytes.data(), buf, sizeof(buf));
    else if (a.family == IpAddress::Family::V6)
        inet_ntop(AF_INET6, a.bytes.data(), buf, sizeof(buf));
    std::string out = buf;
    if (a.family == IpAddress::Family::V6 && a.scopeId != 0)
        out += "%" + std::to_string(a.scopeId);
    return out;
}

IpAddress anyAddress()
{
    IpAddress a;
    a.family = IpAddress::Family::V6;
    return a;
}

bool isLoopback(const IpAddress &input)
{
    const IpAddress a = platform::unmappedAddress(input);
    if (a.family == IpAddress::Family::V4)
        return a.bytes[0] == 127;
    if (a.family == IpAddress::Family::V6)
        return std::all_of(a.bytes.begin(), a.bytes.begin() + 15, [](std::uint8_t b) { return b == 0; })
            && a.bytes[15] == 1;
    return false;
}

bool isUnspecified(const IpAddress &a)
{
    const std::size_t n = a.family == IpAddress::Family::V4 ? 4 : a.family == IpAddress::Family::V6 ? 16 : 0;
    return n > 0 && std::all_of(a.bytes.begin(), a.bytes.begin() + long(n), [](std::uint8_t b) { return b == 0; });
}

bool sameAddress(const IpAddress &x, const IpAddress &y)
{
    const IpAddress a = platform::unmappedAddress(x), b = platform::unmappedAddress(y);
    return a.family == b.family && a.family != IpAddress::Family::None && a.bytes == b.bytes;
}

bool toSockaddr(const IpAddress &a, std::uint16_t port, sockaddr_storage *out, socklen_t *len)
{
    std::memset(out, 0, sizeof(*out));
    if (a.family == IpAddress::Family::V4) {
        auto *s = reinterpret_cast<sockaddr_in *>(out);
        s->sin_family = AF_INET;
        s->sin_port = htons(port);
        std::memcpy(&s->sin_addr, a.bytes.data(), 4);
        *len = sizeof(sockaddr_in);
        return true;
    }
    if (a.family == IpAddress::Family::V6) {
        auto *s = reinterpret_cast<sockaddr_in6 *>(out);
        s->sin6_family = AF_INET6;
        s->sin6_port = htons(port);
        std::memcpy(&s->sin6_addr, a.bytes.data(), 16);
        s->sin6_scope_id = a.scopeId;
        *len = sizeof(sockaddr_in6);
        return true;
    }
    return false;
}

IpAddress peerAddress(const sockaddr_storage &peer)
{
    IpAddress a;
    if (peer.ss_family == AF_INET) {
        a.family = IpAddress::Family::V4;
        std::memcpy(a.bytes.data(), &reinterpret_cast<const sockaddr_in *>(&peer)->sin_addr, 4);
    } else if (peer.ss_family == AF_INET6) {
        const auto *s = reinterpret_cast<const sockaddr_in6 *>(&peer);
        a.family = IpAddress::Family::V6;
        std::memcpy(a.bytes.data(), &s->sin6_addr, 16);
        a.scopeId = s->sin6_scope_id;
    }
    return platform::unmappedAddress(a);
}

std::optional<Subnet> Subnet::parse(const std::string &text)
{
    const auto slash = text.find('/');
    const std::optional<IpAddress> a = parseAddress(text.substr(0, slash));
    if (!a)
        return std::nullopt;
    const int bits = a->family == IpAddress::Family::V4 ? 32 : 128;
    int prefix = bits;
    if (slash != std::string::npos) {
        const std::string p = text.substr(slash + 1);
        if (p.empty() || p.size() > 3 || !std::all_of(p.begin(), p.end(), [](char c) { return c >= '0' && c <= '9'; }))
            return std::nullopt;
        prefix = std::stoi(p);
        if (prefix > bits)
            return std::nullopt;
    }
    Subnet s{*a, prefix};
    s.address.scopeId = 0;
    for (int i = prefix; i < bits; ++i) // the network's own address, as QHostAddress::parseSubnet gives it
        s.address.bytes[std::size_t(i / 8)] &= std::uint8_t(~(0x80 >> (i % 8)));
    return s;
}

bool Subnet::contains(const IpAddress &input) const
{
    const IpAddress a = platform::unmappedAddress(input);
    if (a.family != address.family)
        return false;
    for (int i = 0; i < prefix; ++i) {
        const std::uint8_t bit = std::uint8_t(0x80 >> (i % 8));
        if ((a.bytes[std::size_t(i / 8)] & bit) != (address.bytes[std::size_t(i / 8)] & bit))
            return false;
    }
    return true;
}

std::string Subnet::text() const
{
    return addressText(address) + "/" + std::to_string(prefix);
}

} // namespace wb::net
