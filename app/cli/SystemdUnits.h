#pragma once

#include <QString>
#include <QStringList>

namespace wb::cli {

/// The text of the systemd user units that `wirebench-cli schedule` writes: a oneshot service that runs one plan
/// and a timer that starts it at an interval. Pure text, so that a test reads what systemd-analyze verifies.
class SystemdUnits
{
public:
    /// The --every value: "90s", "15m", "15min", "1h", "2h30m", "1d", "1w" (s, m/min, h, d, w; a bare number is
    /// refused, its unit unsaid). At least 1 minute, at most 31 days. False with a one-line reason that names what
    /// was given and shows the form.
    static bool parseEvery(const QString &text, qint64 *seconds, QString *error);
    /// systemd's own form of a time span: 5400 -> "1h 30min".
    static QString timeSpan(qint64 seconds);
    /// "wirebench-" and the name, with every character systemd does not take in a unit name made '-'
    /// ("Nightly run" -> "wirebench-Nightly-run").
    static QString unitBaseName(const QString &name);
    /// One word of ExecStart=, quoted when it needs it, with systemd's specifiers (%) and variables ($) doubled so
    /// that they reach wirebench-cli as typed. Empty when the word cannot be written (a line break in it).
    static QString execWord(const QString &word);

    /// The service: runs `command` (the program first) once, as the user, its output to the user's journal.
    static QString serviceText(const QString &description, const QStringList &command);
    /// The timer: starts unitBase.service a minute after the timer starts (login, enable --now), then `every`
    /// seconds after each start.
    static QString timerText(const QString &description, const QString &unitBase, qint64 everySeconds);
};

} // namespace wb::cli
