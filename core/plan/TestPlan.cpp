#include "TestPlan.h"

#include "model/Frame.h"
#include "protocols/DriverRegistry.h"
#include "protocols/ProtocolSets.h"

#include <algorithm>

namespace wb {

bool TestPlan::isReference(const RunSpec &spec)
{
    return spec.params.options.value(QLatin1String(ReferenceKey)).toBool();
}

QStringList TestPlan::referenceProtocols() const
{
    QStringList out;
    if (!referenceStreams)
        return out;
    for (const QString &p : ProtocolSets::reference())
        if (!protocols.contains(p))
            out << p;
    return out;
}

bool TestPlan::getsReference(const Host &host) const
{
    return referenceStreams
        && std::none_of(referenceSkipped.cbegin(), referenceSkipped.cend(),
                        [&host](const ReferenceSkip &s) { return s.name == host.name && s.address == host.address; });
}

int TestPlan::referenceRunCount() const
{
    const auto answering
        = std::count_if(hosts.cbegin(), hosts.cend(), [this](const Host &h) { return getsReference(h); });
    return int(answering * referenceProtocols().size() * frameSizes.size());
}

int TestPlan::runCount() const
{
    return int(hosts.size() * protocols.size() * frameSizes.size()) * repetitions + referenceRunCount();
}

QString TestPlan::limitProblem() const
{
    if (hosts.size() > kMaxHosts)
        return QStringLiteral("the plan names %1 hosts; at most %2 are allowed: split it into several plans")
            .arg(hosts.size())
            .arg(kMaxHosts);
    const qint64 runs = qint64(hosts.size()) * protocols.size() * frameSizes.size() * qMax(1, repetitions);
    if (runs > kMaxRuns)
        return QStringLiteral("the plan has %1 runs (%2 hosts x %3 protocols x %4 frame sizes x %5 repetitions); "
                              "at most %6 are allowed: name fewer hosts, protocols, frame sizes or repetitions")
            .arg(runs)
            .arg(hosts.size())
            .arg(protocols.size())
            .arg(frameSizes.size())
            .arg(repetitions)
            .arg(kMaxRuns);
    return {};
}

QList<RunSpec> TestPlan::expand() const
{
    QList<RunSpec> runs;
    runs.reserve(runCount());
    auto add = [&](const Host &host, const QString &protocol, int frame, int rep) {
        RunSpec spec;
        spec.index = int(runs.size());
        spec.host = host;
        // A host that runs iperf3 gets the TCP tests through the iperf3 driver: same test, other server.
        spec.protocol = DriverRegistry::forServerType(protocol, host.serverType);
        spec.frameSize = frame;
        spec.repetition = rep;
        spec.params = params;
        runs.append(spec);
    };
    const QStringList reference = referenceProtocols();
    for (int frame : frameSizes) {
        for (const Host &host : hosts) {
            if (!getsReference(host))
                continue;
            for (const QString &protocol : reference) {
                add(host, protocol, frame, 1);
                TestParams &p = runs.last().params;
                p.durationMs = referenceMs;
                p.warmupMs = 0;
                p.stableTargetPercent = 0;
                p.options.insert(QLatin1String(ReferenceKey), true);
            }
        }
    }
    for (const QString &protocol : protocols) {
        for (int frame : frameSizes) {
            if (interleaveHosts) {
                for (int rep = 1; rep <= repetitions; ++rep)
                    for (const Host &host : hosts)
                        add(host, protocol, frame, rep);
            } else {
                for (const Host &host : hosts)
                    for (int rep = 1; rep <= repetitions; ++rep)
                        add(host, protocol, frame, rep);
            }
        }
    }
    return runs;
}

QStringList TestPlan::validate() const
{
    QStringList problems;
    if (const QString limit = limitProblem(); !limit.isEmpty())
        return {limit.left(1).toUpper() + limit.mid(1) + QLatin1Char('.')}; // before any loop over the hosts
    if (hosts.isEmpty())
        problems << QStringLiteral("Choose at least one host.");
    if (protocols.isEmpty())
        problems << QStringLiteral("Choose at least one protocol.");
    if (frameSizes.isEmpty())
        problems << QStringLiteral("Choose at least one frame size.");
    for (int frame : frameSizes) {
        if (!Frame::inRange(frame))
            problems << QStringLiteral("Frame size %1 is outside %2 bytes.").arg(frame).arg(Frame::rangeText());
    }
    if (repetitions < 1)
        problems << QStringLiteral("Repetitions must be at least 1.");
    if (params.stableTargetPercent < 0)
        problems << QStringLiteral("The stability target must be a positive percentage of the mean (0 = off).");
    if (params.stableTargetPercent > 0 && (params.minRepetitions < 2 || params.minRepetitions > repetitions))
        problems << QStringLiteral(
                        "Repeat until stable needs at least 2 repetitions before it judges, and no more than "
                        "the %1 repetitions allowed at most.")
                        .arg(repetitions);
    if (params.warmupMs < 0 || params.warmupMs > 600000)
        problems << QStringLiteral("The warm-up must be between 0 and 600 s.");
    if (params.durationMs < 100)
        problems << QStringLiteral("A run must last at least 0.1 s.");
    if (params.messageSize < 1 || params.messageSize > 16 * 1024 * 1024)
        problems << QStringLiteral("Message size must be between 1 byte and 16 MiB.");
    for (const QString &protocol : protocols) {
        if (!DriverRegistry::has(protocol))
            problems << QStringLiteral("Unknown protocol \"%1\".").arg(protocol);
    }
    for (const Host &host : hosts) {
        if (host.address.trimmed().isEmpty() && !host.embedded)
            problems << QStringLiteral("Host \"%1\" has no address.").arg(host.displayName());
    }
    return problems;
}

} // namespace wb
