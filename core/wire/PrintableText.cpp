#include "PrintableText.h"

#include <QChar>
#include <QList>

namespace wb::wire {

namespace {

/// Code points that a terminal or a log reader would act on or not show: they must not reach either as they are.
bool needsEscape(char32_t cp)
{
    if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f))
        return true;
    switch (QChar::category(cp)) {
    case QChar::Other_Format:        // bidi overrides (U+202E) and isolates, zero-width characters
    case QChar::Separator_Line:      // U+2028: a new line for some viewers
    case QChar::Separator_Paragraph: // U+2029
    case QChar::Other_Surrogate:
        return true;
    default:
        return false;
    }
}

QString escaped(char32_t cp)
{
    switch (cp) {
    case U'\n': return QStringLiteral("\\n");
    case U'\r': return QStringLiteral("\\r");
    case U'\t': return QStringLiteral("\\t");
    default: break;
    }
    if (cp <= 0xff)
        return QStringLiteral("\\x%1").arg(uint(cp), 2, 16, QLatin1Char('0'));
    return QStringLiteral("\\u%1").arg(uint(cp), 4, 16, QLatin1Char('0'));
}

/// The escaped text, whole pieces only, as long as it stays within limit characters; *complete says whether it all fit.
QString escapedPrefix(const QList<uint> &codePoints, qsizetype limit, bool *complete)
{
    QString out;
    out.reserve(qMin<qsizetype>(codePoints.size(), limit) + 8);
    for (const uint cp : codePoints) {
        const char32_t c = cp;
        const QString piece = needsEscape(c) ? escaped(c) : QString::fromUcs4(&c, 1);
        if (out.size() + piece.size() > limit) {
            *complete = false;
            return out;
        }
        out += piece;
    }
    *complete = true;
    return out;
}

} // namespace

QString printableText(QStringView text, int maxChars)
{
    const QList<uint> codePoints = text.toUcs4(); // an unpaired surrogate becomes U+FFFD
    bool complete = false;
    const QString whole = escapedPrefix(codePoints, maxChars, &complete);
    if (complete)
        return whole;
    // Cut, and say so: the note fits within maxChars too, so a cut text passes through again unchanged.
    const QString note = QStringLiteral(" [... cut: %1 characters in all]").arg(codePoints.size());
    return escapedPrefix(codePoints, qMax<qsizetype>(0, maxChars - note.size()), &complete) + note;
}

} // namespace wb::wire
