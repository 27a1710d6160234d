#include "Text.h"

#include <cstdarg>
#include <cstdio>

namespace wb::wire {

std::string format(const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    std::string out;
    if (n > 0) {
        out.resize(std::size_t(n) + 1);
        std::vsnprintf(out.data(), out.size(), fmt, again);
        out.resize(std::size_t(n));
    }
    va_end(again);
    return out;
}

std::string trimmed(const std::string &text)
{
    const char *space = " \t\n\r\f\v";
    const auto first = text.find_first_not_of(space);
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(space) - first + 1);
}

} // namespace wb::wire

namespace wb::wire {

Arg &Arg::arg(const std::string &value)
{
    // The lowest %N (1..99) left in the text; every place it appears is filled.
    int lowest = 100;
    for (std::size_t i = 0; i + 1 < m_text.size(); ++i) {
        if (m_text[i] != '%' || m_text[i + 1] < '0' || m_text[i + 1] > '9')
            continue;
        int n = m_text[i + 1] - '0';
        if (i + 2 < m_text.size() && m_text[i + 2] >= '0' && m_text[i + 2] <= '9')
            n = n * 10 + (m_text[i + 2] - '0');
        if (n > 0 && n < lowest)
            lowest = n;
    }
    if (lowest == 100)
        return *this;
    const std::string mark = "%" + std::to_string(lowest);
    std::string out;
    out.reserve(m_text.size() + value.size());
    for (std::size_t i = 0; i < m_text.size();) {
        const bool longer = i + mark.size() < m_text.size() && lowest < 10 && m_text[i + mark.size()] >= '0'
            && m_text[i + mark.size()] <= '9';
        if (m_text.compare(i, mark.size(), mark) == 0 && !longer) {
            out += value;
            i += mark.size();
        } else {
            out += m_text[i++];
        }
    }
    m_text = std::move(out);
    return *this;
}

Arg &Arg::arg(double value, int fieldWidth, char fmt, int precision)
{
    const char spec[] = {'%', '*', '.', '*', fmt, '\0'};
    return arg(format(spec, fieldWidth, precision < 0 ? 6 : precision, value));
}

} // namespace wb::wire
