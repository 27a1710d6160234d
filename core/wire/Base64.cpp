#include "Base64.h"

#include <cstdint>

namespace wb::wire {

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int valueOf(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}
} // namespace

std::string toBase64(std::string_view bytes)
{
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
        std::uint32_t v = std::uint32_t(static_cast<unsigned char>(bytes[i])) << 16;
        if (n > 1)
            v |= std::uint32_t(static_cast<unsigned char>(bytes[i + 1])) << 8;
        if (n > 2)
            v |= std::uint32_t(static_cast<unsigned char>(bytes[i + 2]));
        out.push_back(kAlphabet[(v >> 18) & 63]);
        out.push_back(kAlphabet[(v >> 12) & 63]);
        out.push_back(n > 1 ? kAlphabet[(v >> 6) & 63] : '=');
        out.push_back(n > 2 ? kAlphabet[v & 63] : '=');
    }
    return out;
}

std::optional<std::string> fromBase64(std::string_view text)
{
    std::size_t end = text.size();
    for (int pad = 0; pad < 2 && end > 0 && text[end - 1] == '='; ++pad)
        --end;
    if (end % 4 == 1 || (end < text.size() && (end + (text.size() - end)) % 4 != 0))
        return std::nullopt;
    std::string out;
    out.reserve(end * 3 / 4);
    std::uint32_t acc = 0;
    int bits = 0;
    for (std::size_t i = 0; i < end; ++i) {
        const int v = valueOf(text[i]);
        if (v < 0)
            return std::nullopt;
        acc = (acc << 6) | std::uint32_t(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out.push_back(char((acc >> bits) & 0xff));
        }
    }
    return out;
}

} // namespace wb::wire
