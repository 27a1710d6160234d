#include "PlanOptions.h"

#include "model/Frame.h"
#include "model/Streams.h"
#include "protocols/DriverRegistry.h"

#include <QCommandLineParser>

#include <cmath>

namespace wb {

namespace {

// A repeatable option's values, each a comma-separated list, as one list.
QStringList splitList(const QStringList &values)
{
    QStringList out;
    for (const QString &v : values) {
        for (const QString &part : v.split(QLatin1Char(','), Qt::SkipEmptyParts))
            out.append(part.trimmed());
    }
    return out;
}

bool fail(QString *why, const QString &reason)
{
    *why = reason;
    return false;
}

} // namespace

PlanOptions::PlanOptions(const QCommandLineParser &parser, TestPlan *plan, const QString &planFile)
    : m_parser(parser)
    , m_plan(plan)
    , m_planFile(planFile)
{
}

bool PlanOptions::protocols(QString *why) const
{
    const bool set = m_parser.isSet(QStringLiteral("protocol"));
    if (!set && m_planFile.isEmpty())
        return true;
    TestPlan &plan = *m_plan;
    if (set)
        plan.protocols = splitList(m_parser.values(QStringLiteral("protocol")));
    if (plan.protocols.isEmpty())
        return fail(
            why,
            !set ? QStringLiteral("plan file %1 lists no protocols: add them with --protocol LIST").arg(m_planFile)
                 : QStringLiteral("--protocol needs at least one protocol id"));
    for (const QString &id : plan.protocols) {
        if (!DriverRegistry::has(id)) {
            QStringList known;
            for (const ProtocolInfo &info : DriverRegistry::protocols())
                known << info.id;
            return fail(why,
                        QStringLiteral("unknown protocol \"%1\"%2; this build offers: %3")
                            .arg(id, set ? QString() : QStringLiteral(" in plan file %1").arg(m_planFile),
                                 known.join(QStringLiteral(", "))));
        }
    }
    plan.protocols.removeDuplicates();
    return true;
}

bool PlanOptions::frames(QString *why) const
{
    if (!m_parser.isSet(QStringLiteral("frame")))
        return true;
    TestPlan &plan = *m_plan;
    plan.frameSizes.clear();
    for (const QString &f : splitList(m_parser.values(QStringLiteral("frame")))) {
        bool ok = false;
        const int frame = f.toInt(&ok);
        if (!ok || !Frame::inRange(frame))
            return fail(why,
                        QStringLiteral("--frame \"%1\": a frame size is a number of bytes from %2 to %3")
                            .arg(f)
                            .arg(Frame::kMinBytes)
                            .arg(Frame::kMaxBytes));
        if (!plan.frameSizes.contains(frame))
            plan.frameSizes.append(frame);
    }
    if (plan.frameSizes.isEmpty())
        return fail(why, QStringLiteral("--frame needs at least one frame size"));
    return true;
}

bool PlanOptions::repetitions(QString *why) const
{
    if (!m_parser.isSet(QStringLiteral("reps")))
        return true;
    bool ok = false;
    m_plan->repetitions = m_parser.value(QStringLiteral("reps")).toInt(&ok);
    if (!ok || m_plan->repetitions < 1 || m_plan->repetitions > 10000)
        return fail(why, QStringLiteral("--reps must be a whole number from 1 to 10000"));
    return true;
}

bool PlanOptions::duration(QString *why) const
{
    if (!m_parser.isSet(QStringLiteral("duration")))
        return true;
    if (!secondsToMs(m_parser.value(QStringLiteral("duration")), 0.1, 24 * 3600, &m_plan->params.durationMs))
        return fail(why, QStringLiteral("--duration must be a number of seconds from 0.1 to 86400"));
    return true;
}

bool PlanOptions::streams(QString *why) const
{
    if (!m_parser.isSet(QStringLiteral("streams")))
        return true;
    bool ok = false;
    m_plan->params.streams = m_parser.value(QStringLiteral("streams")).toInt(&ok);
    if (!ok || m_plan->params.streams < 1 || m_plan->params.streams > Streams::kMax)
        return fail(why, QStringLiteral("--streams must be a whole number from 1 to %1").arg(Streams::kMax));
    return true;
}

bool PlanOptions::secondsToMs(const QString &text, double minSeconds, double maxSeconds, int *ms)
{
    bool ok = false;
    const double s = text.toDouble(&ok);
    if (!ok || !std::isfinite(s) || s < minSeconds || s > maxSeconds)
        return false;
    *ms = int(std::lround(s * 1000));
    return true;
}

bool PlanOptions::apply(QString *why) const
{
    return protocols(why) && frames(why) && repetitions(why) && duration(why) && streams(why);
}

} // namespace wb
