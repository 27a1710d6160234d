#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

namespace wb::wire {

/// printf-style formatting into a std::string, for the messages and log lines of the Qt-free responder
/// (GCC 12 has no std::format).
// mingw-w64's vsnprintf is C99's (__USE_MINGW_ANSI_STDIO), whose format GCC calls gnu_printf there.
#ifdef __MINGW32__
std::string format(const char *fmt, ...) __attribute__((format(gnu_printf, 1, 2)));
#else
std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#endif

/// ASCII whitespace off both ends (a key pasted with a stray newline still works).
std::string trimmed(const std::string &text);

/// "%1 ... %2" text filled in as QString::arg does, so that the responders' sentences read as they always did:
/// each arg() fills the lowest-numbered place holder left; a double reads "%g" (10, 0.5, 1.5e+06) unless given a
/// format and precision ('f', 1: "117.7").
class Arg
{
public:
    explicit Arg(std::string pattern)
        : m_text(std::move(pattern))
    {
    }

    Arg &arg(const std::string &value);
    Arg &arg(const char *value) { return arg(std::string(value)); }
    Arg &arg(const std::string &a, const std::string &b) { return arg(a).arg(b); }
    Arg &arg(const std::string &a, const std::string &b, const std::string &c) { return arg(a).arg(b).arg(c); }
    template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
    Arg &arg(T value)
    {
        if constexpr (std::is_signed_v<T>)
            return arg(std::to_string(static_cast<long long>(value)));
        else
            return arg(std::to_string(static_cast<unsigned long long>(value)));
    }
    Arg &arg(double value, int fieldWidth = 0, char fmt = 'g', int precision = -1);

    const std::string &str() const { return m_text; }
    operator std::string() const { return m_text; } // NOLINT: reads as the QString it replaces

private:
    std::string m_text;
};

inline std::string operator+(const std::string &a, const Arg &b)
{
    return a + b.str();
}
inline std::string operator+(const Arg &a, const std::string &b)
{
    return a.str() + b;
}

} // namespace wb::wire
