#include "Preflight.h"

#include "protocols/DriverRegistry.h"

#include <QHash>
#include <QSet>
#include <QThreadPool>

#include <algorithm>
#include <vector>

namespace wb {

namespace {

constexpr int kMaxThreads = 32; // a check mostly waits on the network: a thread per pair, within reason
// At once to one address: a server facing a network takes only a few connections from one address before they prove
// anything (wirebenchd's --max-unproven-per-address, 4 by default); a plan that names one server as several hosts, or
// checks several protocols on it, must not be turned away by its own check.
constexpr int kPerAddress = 3;

PreflightProblemList checkPair(const RunSpec &spec, int timeoutMs)
{
    std::unique_ptr<ProtocolDriver> driver = DriverRegistry::create(spec.protocol);
    if (!driver)
        return {}; // TestPlan::validate() names an unknown protocol before any check
    PreflightProblemList problems = driver->check(spec, timeoutMs);
    for (PreflightProblem &p : problems) {
        p.host = spec.host;
        p.protocol = spec.protocol;
    }
    return problems;
}

/// One run of each host and protocol of plan, hosts first: the protocol as the plan runs it (an iperf3 host's
/// tcp-send is iperf3-send), at the plan's first frame size.
QList<RunSpec> pairsOf(const TestPlan &plan)
{
    // Linear in the runs: hosts are found by a key (equal hosts have equal keys), then compared in full.
    auto keyOf = [](const Host &h) {
        return h.name + QLatin1Char('\n') + h.address + QLatin1Char('\n') + QString::number(h.port);
    };
    QHash<QString, QList<qsizetype>> hostsByKey;
    for (qsizetype i = 0; i < plan.hosts.size(); ++i)
        hostsByKey[keyOf(plan.hosts.at(i))] << i;
    auto hostIndex = [&](const Host &h) {
        for (qsizetype i : hostsByKey.value(keyOf(h)))
            if (plan.hosts.at(i) == h)
                return i;
        return qsizetype(-1);
    };
    QList<std::pair<qsizetype, RunSpec>> firsts;
    QSet<QString> seen;
    for (const RunSpec &spec : plan.expand()) {
        const qsizetype index = hostIndex(spec.host);
        if (!seen.contains(QString::number(index) + QLatin1Char('\n') + spec.protocol)) {
            seen.insert(QString::number(index) + QLatin1Char('\n') + spec.protocol);
            firsts.append({index, spec});
        }
    }
    std::stable_sort(firsts.begin(), firsts.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<RunSpec> out;
    out.reserve(firsts.size());
    for (const auto &f : firsts)
        out << f.second;
    return out;
}

} // namespace

Preflight::Preflight(QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<wb::PreflightReport>();
}

Preflight::~Preflight()
{
    if (m_thread)
        m_thread->wait();
}

bool Preflight::start(const TestPlan &plan)
{
    if (m_running)
        return false;
    if (m_thread)
        m_thread->wait(); // ended already: its report is what made m_running false
    m_running = true;
    m_thread.reset(QThread::create([this, plan] {
        const PreflightReport report = check(plan);
        // Queued to this object's thread; the destructor waits for this thread, so `this` is still alive here.
        QMetaObject::invokeMethod(
            this,
            [this, report] {
                m_running = false;
                emit finished(report);
            },
            Qt::QueuedConnection);
    }));
    m_thread->setObjectName(QStringLiteral("wirebench-preflight"));
    m_thread->start();
    return true;
}

PreflightReport Preflight::check(const TestPlan &plan, int timeoutMs)
{
    const QList<RunSpec> pairs = pairsOf(plan);
    std::vector<PreflightProblemList> found(size_t(pairs.size()));
    // Each address's pairs one after another in kPerAddress lanes (one connection to spare under the server's limit),
    // the addresses side by side.
    QHash<QString, QList<qsizetype>> byAddress;
    for (qsizetype i = 0; i < pairs.size(); ++i)
        byAddress[pairs.at(i).host.address.trimmed().toLower()] << i;
    QList<QList<qsizetype>> lanes;
    for (const QList<qsizetype> &indexes : std::as_const(byAddress)) {
        const qsizetype count = qMin<qsizetype>(kPerAddress, indexes.size());
        for (qsizetype lane = 0; lane < count; ++lane) {
            QList<qsizetype> mine;
            for (qsizetype k = lane; k < indexes.size(); k += count)
                mine << indexes.at(k);
            lanes << mine;
        }
    }
    QThreadPool pool;
    pool.setMaxThreadCount(qBound(1, int(lanes.size()), kMaxThreads));
    for (const QList<qsizetype> &lane : std::as_const(lanes)) {
        pool.start([&pairs, &found, lane, timeoutMs] {
            for (qsizetype i : lane)
                found[size_t(i)] = checkPair(pairs.at(i), timeoutMs);
        });
    }
    pool.waitForDone();

    PreflightReport report;
    report.pairsChecked = int(pairs.size());
    for (qsizetype i = 0; i < pairs.size(); ++i) {
        const PreflightProblemList &problems = found[size_t(i)];
        // A pair only the reference needs (its protocols are not the plan's): the host gets none, and why.
        if (TestPlan::isReference(pairs.at(i)) && !problems.isEmpty()) {
            const Host &h = pairs.at(i).host;
            const ReferenceSkip skip{h.name, h.address, problems.first().message};
            if (std::none_of(report.referenceSkipped.cbegin(), report.referenceSkipped.cend(),
                             [&h](const ReferenceSkip &s) { return s.name == h.name && s.address == h.address; }))
                report.referenceSkipped << skip;
            continue;
        }
        report.problems << problems;
    }
    return report;
}

} // namespace wb
