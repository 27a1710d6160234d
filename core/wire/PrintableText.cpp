#include "PrintableText.h"

#include "Text.h"

#include <algorithm>
#include <iterator>
#include <utility>

namespace wb::wire {

namespace {

/// Unicode's format characters (general category Cf, Unicode 15): bidi controls and isolates, zero-width
/// characters, the soft hyphen, tags. Kept as ranges so that the Qt-free responder needs no Unicode library.
constexpr std::pair<char32_t, char32_t> kFormatRanges[] = {
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},   {0x070F, 0x070F},
    {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x180E, 0x180E},   {0x200B, 0x200F},   {0x202A, 0x202E},
    {0x2060, 0x2064},   {0x2066, 0x206F},   {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD},
    {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F},
};

/// Code points that a terminal or a log reader would act on or not show: they must not reach either as they are.
bool needsEscape(char32_t cp)
{
    if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
        return true;
    if (cp == 0x2028 || cp == 0x2029 || (cp >= 0xD800 && cp <= 0xDFFF)) // line and paragraph separators, surrogates
        return true;
    return std::any_of(std::begin(kFormatRanges), std::end(kFormatRanges),
                       [cp](const auto &r) { return cp >= r.first && cp <= r.second; });
}

std::string escaped(char32_t cp)
{
    switch (cp) {
    case U'\n':
        return "\\n";
    case U'\r':
        return "\\r";
    case U'\t':
        return "\\t";
    default:
        break;
    }
    if (cp <= 0xff)
        return format("\\x%02x", unsigned(cp));
    return format("\\u%04x", unsigned(cp));
}

/// What a QString would count: two units for a code point beyond the BMP.
std::size_t utf16Units(char32_t cp)
{
    return cp > 0xFFFF ? 2 : 1;
}

/// The escaped text, whole pieces only, as long as it stays within limit units; *complete says whether it all fit.
std::string escapedPrefix(const std::u32string &codePoints, std::size_t limit, bool *complete)
{
    std::string out;
    std::size_t units = 0;
    for (const char32_t c : codePoints) {
        std::string piece;
        std::size_t pieceUnits = 0;
        if (needsEscape(c)) {
            piece = escaped(c);
            pieceUnits = piece.size();
        } else {
            appendUtf8(&piece, c);
            pieceUnits = utf16Units(c);
        }
        if (units + pieceUnits > limit) {
            *complete = false;
            return out;
        }
        out += piece;
        units += pieceUnits;
    }
    *complete = true;
    return out;
}

} // namespace

std::u32string decodeUtf8(std::string_view s)
{
    std::u32string out;
    out.reserve(s.size());
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        int len = 0;
        char32_t cp = 0;
        if (b < 0x80) {
            out.push_back(b);
            ++i;
            continue;
        }
        if (b >= 0xC2 && b <= 0xDF) {
            len = 2;
            cp = b & 0x1F;
        } else if (b >= 0xE0 && b <= 0xEF) {
            len = 3;
            cp = b & 0x0F;
        } else if (b >= 0xF0 && b <= 0xF4) {
            len = 4;
            cp = b & 0x07;
        }
        bool ok = len > 0 && i + std::size_t(len) <= s.size();
        for (int k = 1; ok && k < len; ++k) {
            const auto c = static_cast<unsigned char>(s[i + std::size_t(k)]);
            ok = (c & 0xC0) == 0x80;
            cp = (cp << 6) | (c & 0x3F);
        }
        if (ok
            && ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))
                || (cp >= 0xD800 && cp <= 0xDFFF)))
            ok = false;
        if (!ok) {
            out.push_back(0xFFFD);
            ++i;
            continue;
        }
        out.push_back(cp);
        i += std::size_t(len);
    }
    return out;
}

void appendUtf8(std::string *out, char32_t cp)
{
    if (cp < 0x80) {
        out->push_back(char(cp));
    } else if (cp < 0x800) {
        out->push_back(char(0xC0 | (cp >> 6)));
        out->push_back(char(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out->push_back(char(0xE0 | (cp >> 12)));
        out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out->push_back(char(0x80 | (cp & 0x3F)));
    } else {
        out->push_back(char(0xF0 | (cp >> 18)));
        out->push_back(char(0x80 | ((cp >> 12) & 0x3F)));
        out->push_back(char(0x80 | ((cp >> 6) & 0x3F)));
        out->push_back(char(0x80 | (cp & 0x3F)));
    }
}

std::string printableText(std::string_view text, int maxChars)
{
    const std::u32string codePoints = decodeUtf8(text);
    bool complete = false;
    const std::size_t limit = std::size_t(std::max(0, maxChars));
    std::string whole = escapedPrefix(codePoints, limit, &complete);
    if (complete)
        return whole;
    // Cut, and say so: the note fits within maxChars too, so a cut text passes through again unchanged.
    std::size_t count = 0;
    for (const char32_t c : codePoints)
        count += utf16Units(c);
    const std::string note = format(" [... cut: %zu characters in all]", count);
    return escapedPrefix(codePoints, limit > note.size() ? limit - note.size() : 0, &complete) + note;
}

} // namespace wb::wire
