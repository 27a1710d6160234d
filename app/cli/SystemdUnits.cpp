#include "SystemdUnits.h"

#include <QRegularExpression>

namespace wb::cli {

namespace {

constexpr qint64 kMinute = 60;
constexpr qint64 kHour = 60 * kMinute;
constexpr qint64 kDay = 24 * kHour;
constexpr qint64 kMinEvery = kMinute;
constexpr qint64 kMaxEvery = 31 * kDay;

qint64 unitSeconds(const QString &unit)
{
    if (unit == QLatin1String("s") || unit == QLatin1String("sec"))
        return 1;
    if (unit == QLatin1String("m") || unit == QLatin1String("min"))
        return kMinute;
    if (unit == QLatin1String("h"))
        return kHour;
    if (unit == QLatin1String("d"))
        return kDay;
    return 7 * kDay; // w
}

} // namespace

bool SystemdUnits::parseEvery(const QString &input, qint64 *seconds, QString *error)
{
    const QString text = input.trimmed().toLower();
    const QString form = QStringLiteral("write a number and its unit, e.g. 15m, 1h, 6h, 1d or 2h30m (s, m, h, d, w)");
    static const QRegularExpression whole(QStringLiteral("^(\\s*\\d+\\s*(sec|min|s|m|h|d|w))+$"));
    if (!whole.match(text).hasMatch()) {
        *error = text.isEmpty() ? QStringLiteral("--every needs an interval: %1").arg(form)
                                : QStringLiteral("--every \"%1\" is not an interval: %2").arg(input, form);
        return false;
    }
    static const QRegularExpression part(QStringLiteral("(\\d+)\\s*(sec|min|s|m|h|d|w)"));
    qint64 total = 0;
    for (auto it = part.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        bool ok = false;
        const qint64 n = m.captured(1).toLongLong(&ok);
        if (!ok || n > kMaxEvery) {
            total = kMaxEvery + 1;
            break;
        }
        total += n * unitSeconds(m.captured(2));
    }
    if (total < kMinEvery || total > kMaxEvery) {
        *error = QStringLiteral("--every \"%1\" is %2: the interval must be from 1 minute to 31 days")
                     .arg(input, total > kMaxEvery ? QStringLiteral("more than 31 days") : timeSpan(total));
        return false;
    }
    *seconds = total;
    return true;
}

QString SystemdUnits::timeSpan(qint64 seconds)
{
    QStringList parts;
    const struct
    {
        qint64 size;
        const char *name;
    } units[] = {{kDay, "d"}, {kHour, "h"}, {kMinute, "min"}, {1, "s"}};
    for (const auto &u : units) {
        if (seconds >= u.size) {
            parts << QStringLiteral("%1%2").arg(seconds / u.size).arg(QLatin1String(u.name));
            seconds %= u.size;
        }
    }
    return parts.isEmpty() ? QStringLiteral("0s") : parts.join(QLatin1Char(' '));
}

QString SystemdUnits::unitBaseName(const QString &name)
{
    QString out = QStringLiteral("wirebench-");
    for (const QChar c : name)
        out += (c.isLetterOrNumber() && c.unicode() < 128) || c == QLatin1Char('_') || c == QLatin1Char('-')
            ? c
            : QLatin1Char('-');
    return out;
}

QString SystemdUnits::execWord(const QString &word)
{
    if (word.contains(QLatin1Char('\n')) || word.contains(QLatin1Char('\r')))
        return QString();
    QString escaped;
    bool quote = word.isEmpty();
    for (const QChar c : word) {
        if (c == QLatin1Char('%'))
            escaped += QStringLiteral("%%");
        else if (c == QLatin1Char('$'))
            escaped += QStringLiteral("$$");
        else if (c == QLatin1Char('\\') || c == QLatin1Char('"'))
            escaped += QLatin1Char('\\') + QString(c);
        else
            escaped += c;
        quote = quote || c.isSpace() || c == QLatin1Char('\'') || c == QLatin1Char(';') || c == QLatin1Char('"')
            || c == QLatin1Char('\\');
    }
    return quote ? QLatin1Char('"') + escaped + QLatin1Char('"') : escaped;
}

QString SystemdUnits::serviceText(const QString &description, const QStringList &command)
{
    QStringList words;
    for (const QString &w : command)
        words << execWord(w);
    return QStringLiteral("# Written by wirebench-cli schedule; `wirebench-cli schedule --remove` takes it away.\n"
                          "[Unit]\n"
                          "Description=%1\n"
                          "\n"
                          "[Service]\n"
                          "Type=oneshot\n"
                          "ExecStart=%2\n")
        .arg(QString(description).replace(QLatin1Char('%'), QStringLiteral("%%")), words.join(QLatin1Char(' ')));
}

QString SystemdUnits::timerText(const QString &description, const QString &unitBase, qint64 everySeconds)
{
    // OnActiveSec: a first run soon after the timer starts (enable --now, the next login), so a mistake shows the
    // same hour; OnUnitActiveSec: then one interval after each start. A run still going when the next is due is
    // not started twice (systemd starts an active unit once).
    return QStringLiteral("# Written by wirebench-cli schedule; `wirebench-cli schedule --remove` takes it away.\n"
                          "[Unit]\n"
                          "Description=%1\n"
                          "\n"
                          "[Timer]\n"
                          "OnActiveSec=1min\n"
                          "OnUnitActiveSec=%2\n"
                          "AccuracySec=1min\n"
                          "Unit=%3.service\n"
                          "\n"
                          "[Install]\n"
                          "WantedBy=timers.target\n")
        .arg(QString(description).replace(QLatin1Char('%'), QStringLiteral("%%")), timeSpan(everySeconds), unitBase);
}

} // namespace wb::cli
