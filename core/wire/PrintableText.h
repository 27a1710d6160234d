#pragma once

#include <string>
#include <string_view>

namespace wb::wire {

/// The longest line wirebenchd logs, in characters after escaping; longer lines are cut (with a note).
constexpr int kMaxLogLineChars = 1000;
/// The longest text from a peer that a client shows in one message (a server's refusal, its software name).
constexpr int kMaxPeerTextChars = 300;

/// Text from the network (UTF-8) made safe for a log or a terminal: every control character (C0, DEL, C1:
/// newlines, carriage returns, ESC sequences), every invisible format character (bidi overrides, zero-width) and
/// every line or paragraph separator is written as an escape ("\n", "\r", "\t", "\x1b", "\u202e"), invalid UTF-8
/// becomes U+FFFD, and text longer than maxChars (UTF-16 units, as a QString counts them) is cut to maxChars with
/// "[... cut: N characters in all]" at its end. Applying it twice changes nothing. (QtWire has the QString form.)
std::string printableText(std::string_view utf8, int maxChars);

/// A log line as wirebenchd writes it: printableText(line, kMaxLogLineChars). The responders pass every line
/// through it before they hand it on, before and after authentication.
inline std::string safeLogLine(std::string_view line)
{
    return printableText(line, kMaxLogLineChars);
}

/// UTF-8 to code points, an invalid or overlong sequence (and a surrogate) as U+FFFD.
std::u32string decodeUtf8(std::string_view utf8);
/// One code point as UTF-8.
void appendUtf8(std::string *out, char32_t cp);

} // namespace wb::wire
