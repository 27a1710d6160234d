#include "Bufferbloat.h"

#include <cmath>

namespace wb {

QString Bufferbloat::ms(double value)
{
    const double a = std::abs(value);
    const int decimals = a >= 10 ? 0 : a >= 1 ? 1 : a >= 0.1 ? 1 : 2;
    return QStringLiteral("%1 ms").arg(value, 0, 'f', decimals);
}

QString Bufferbloat::statsText(const LatencyStats &s)
{
    QString t = QStringLiteral("median %1, p90 %2, p99 %3, max %4")
                    .arg(ms(s.medianMs), ms(s.p90Ms), ms(s.p99Ms), ms(s.maxMs));
    if (s.lost > 0)
        t += QStringLiteral(", %1 of %2 lost").arg(s.lost).arg(s.lost + s.count);
    return t;
}

Bufferbloat::Grade Bufferbloat::gradeOf(double addedMs)
{
    if (addedMs < kGoodMs)
        return Grade::Good;
    return addedMs < kWarnMs ? Grade::Note : Grade::Warning;
}

Bufferbloat::Grade Bufferbloat::gradeOf(const RunLatency &l)
{
    return l.measured() ? gradeOf(l.increaseMs()) : Grade::Unmeasured;
}

QString Bufferbloat::gradeName(Grade grade)
{
    switch (grade) {
    case Grade::Good:
        return QStringLiteral("good");
    case Grade::Note:
        return QStringLiteral("note");
    case Grade::Warning:
        return QStringLiteral("warning");
    case Grade::Unmeasured:
        break;
    }
    return {};
}

QString Bufferbloat::sentence(const RunLatency &l)
{
    const Grade grade = gradeOf(l);
    if (grade != Grade::Note && grade != Grade::Warning)
        return {};
    return QStringLiteral("the queue on the path adds %1 at full load (round trip %2 loaded against %3 idle, "
                          "medians); under %4 is good")
        .arg(ms(l.increaseMs()), ms(l.loaded.medianMs), ms(l.idle.medianMs), QStringLiteral("%1 ms").arg(kGoodMs));
}

QString Bufferbloat::warning(const RunLatency &l)
{
    return gradeOf(l) == Grade::Warning ? sentence(l) : QString();
}

QString Bufferbloat::note(const RunLatency &l)
{
    return gradeOf(l) == Grade::Note ? sentence(l) : QString();
}

QString Bufferbloat::testFigures(const Summary &idle, const Summary &loaded)
{
    if (idle.n == 0 || loaded.n == 0)
        return {};
    const double up = loaded.median - idle.median;
    QString text
        = QStringLiteral("latency under load %1%2 over the idle %3 (loaded %4; %5)")
              .arg(up >= 0 ? QStringLiteral("+") : QString(), ms(up), ms(idle.median), ms(loaded.median),
                   loaded.n == 1 ? QStringLiteral("one run") : QStringLiteral("medians of %1 runs").arg(loaded.n));
    if (gradeOf(up) != Grade::Good)
        text += QStringLiteral("; the queue on the path adds %1 at full load; under %2 is good")
                    .arg(ms(up), QStringLiteral("%1 ms").arg(kGoodMs));
    return text;
}

QString Bufferbloat::figures(const RunLatency &l)
{
    if (!l.measured()) {
        if (!l.note.isEmpty())
            return l.note;
        if (l.method.isEmpty())
            return {};
        return QStringLiteral("latency not measured: no round trip to %1 was answered %2")
            .arg(l.target, l.idle.valid() ? QStringLiteral("during the load") : QStringLiteral("before the load"));
    }
    const double up = l.increaseMs();
    return QStringLiteral("latency under load %1%2 over the idle %3 (loaded: %4; idle: %5; %6 to %7)")
        .arg(up >= 0 ? QStringLiteral("+") : QString(), ms(up), ms(l.idle.medianMs), statsText(l.loaded),
             statsText(l.idle), l.method, l.target);
}

} // namespace wb
