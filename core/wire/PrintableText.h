#pragma once

#include <QString>
#include <QStringView>

namespace wb::wire {

/// The longest line wirebenchd logs, in characters after escaping; longer lines are cut (with a note).
constexpr int kMaxLogLineChars = 1000;
/// The longest text from a peer that a client shows in one message (a server's refusal, its software name).
constexpr int kMaxPeerTextChars = 300;

/// Text from the network made safe for a log or a terminal: every control character (C0, DEL, C1: newlines,
/// carriage returns, ESC sequences), every invisible format character (bidi overrides, zero-width) and every
/// line or paragraph separator is written as an escape ("\n", "\r", "\t", "\x1b", "\u202e"), and text longer
/// than maxChars is cut to maxChars with "[... N characters cut]" at its end. Applying it twice changes nothing.
QString printableText(QStringView text, int maxChars);

/// A log line as wirebenchd writes it: printableText(line, kMaxLogLineChars). Responder and Iperf3Responder
/// pass every line through it before they emit it, before and after authentication.
inline QString safeLogLine(QStringView line)
{
    return printableText(line, kMaxLogLineChars);
}

} // namespace wb::wire
