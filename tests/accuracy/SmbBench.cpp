// wirebench-smb-bench: Wirebench's smb-write and smb-read against smbclient's own reported rate, through the
// two-namespace lab (tests/lab/lab.sh, a lab id of its own: "sb" + this process's id) at each line rate and MTU,
// taken in turn (Wirebench, then smbclient, on the same file size, server and line), and the ratio of the
// medians per cell. Run by bench/smb_vs_smbclient.sh; needs root. Not a test: it asserts nothing.
//
// The servers' folders are on a tmpfs, the client reads from and writes to memory (Wirebench) or /dev/shm and
// /dev/null (smbclient), so no disk limits; files of SECONDS at the line's theoretical goodput.
#include "../lab/FileServerLab.h"
#include "../lab/LabFileServers.h"
#include "../lab/LabSession.h"
#include "../protocols/FileServerFixture.h"
#include "analysis/Ceiling.h"
#include "platform/CpuTimes.h"
#include "platform/Platform.h"
#include "stats/Statistics.h"
#include "support/PeerTools.h"

#include <QCoreApplication>
#include <QFile>
#include <QThread>
#include <QStringList>

#include <cstdio>
#include <vector>

using namespace wb;
using namespace wb::test;

namespace {

struct Args
{
    QStringList rates{QStringLiteral("100mbit"), QStringLiteral("250mbit"), QStringLiteral("1gbit"),
                      QStringLiteral("2500mbit")};
    QList<int> mtus{1500, 4000, 9000};
    QStringList protocols{QStringLiteral("smb-write"), QStringLiteral("smb-read")};
    QList<int> writeConnections{4}; // the driver's default (smb.write_connections)
    QList<int> readConnections{2};
    int reps = 3;
    int warmUp = 1; ///< pairs run first in each cell and not counted
    double seconds = 3;
    double settle = 3;       ///< seconds of pause after each written file is removed, before the next run
    int warmMemoryMb = 3000; ///< MB touched and freed after that pause (0: none)
    QVariantMap hostOptions; ///< --set smb.KEY=VALUE
    QVariantMap planOptions; ///< --set any other KEY=VALUE (e.g. latency.idle_ms=0)
};

// The whole machine's CPU counters (platform::CpuTimes), zero when the OS gives none.
platform::CpuTicks machineTicks()
{
    const std::vector<platform::CpuTicks> ticks = platform::Platform::cpuTimes().systemTicks();
    return ticks.empty() ? platform::CpuTicks{} : ticks.front();
}

// Where a run's time went, to tell a stall from a run slow all along: the samples' median rate, the slowest
// 0.3 s of the run against it and when, and the machine's busy and stolen share meanwhile.
QString profileOf(const RunResult &r, const platform::CpuTicks &before, const platform::CpuTicks &after)
{
    QList<double> rates;
    for (const Sample &x : r.samples)
        rates << x.bytesPerSecond() / 1e6;
    double slowest = -1;
    double at = 0;
    for (int i = 0; i + 3 <= r.samples.size(); ++i) {
        double bytes = 0;
        double secs = 0;
        for (int k = i; k < i + 3; ++k) {
            bytes += r.samples[k].bytes;
            secs += r.samples[k].intervalSeconds;
        }
        const double rate = secs > 0 ? bytes / secs / 1e6 : 0;
        if (slowest < 0 || rate < slowest) {
            slowest = rate;
            at = r.samples[i].endSeconds - r.samples[i].intervalSeconds;
        }
    }
    const double all = double(qMax<std::uint64_t>(1, after.total - before.total));
    return QStringLiteral("samples median %1 MB/s, slowest 0.3 s %2 MB/s at %3 s; CPU busy %4%, stolen %5%")
        .arg(rates.isEmpty() ? 0.0 : Statistics::summarize(rates).median, 0, 'f', 2)
        .arg(slowest, 0, 'f', 2)
        .arg(at, 0, 'f', 1)
        .arg(100.0 * double(after.busy - before.busy) / all, 0, 'f', 0)
        .arg(100.0 * double(after.stolen - before.stolen) / all, 0, 'f', 1);
}

QList<int> numbers(const QString &list)
{
    QList<int> out;
    for (const QString &n : list.split(QLatin1Char(','), Qt::SkipEmptyParts))
        out << n.toInt();
    return out;
}

bool parse(const QStringList &args, Args *a)
{
    if (args.size() % 2 == 0) // an option without its value (a lone "--help" too): the usage, not a whole sweep
        return false;
    for (int i = 1; i + 1 < args.size(); i += 2) {
        const QString &key = args[i];
        const QString &value = args[i + 1];
        if (key == QLatin1String("--rates"))
            a->rates = value.split(QLatin1Char(','), Qt::SkipEmptyParts);
        else if (key == QLatin1String("--mtus"))
            a->mtus = numbers(value);
        else if (key == QLatin1String("--protocols"))
            a->protocols = value.split(QLatin1Char(','), Qt::SkipEmptyParts);
        else if (key == QLatin1String("--write-connections"))
            a->writeConnections = numbers(value);
        else if (key == QLatin1String("--read-connections"))
            a->readConnections = numbers(value);
        else if (key == QLatin1String("--reps"))
            a->reps = qMax(1, value.toInt());
        else if (key == QLatin1String("--warm-up"))
            a->warmUp = qMax(0, value.toInt());
        else if (key == QLatin1String("--seconds"))
            a->seconds = qMax(0.5, value.toDouble());
        else if (key == QLatin1String("--settle"))
            a->settle = qMax(0.0, value.toDouble());
        else if (key == QLatin1String("--warm-memory"))
            a->warmMemoryMb = qMax(0, value.toInt());
        else if (key == QLatin1String("--set") && value.contains(QLatin1Char('=')))
            (value.startsWith(QLatin1String("smb.")) ? a->hostOptions : a->planOptions)
                .insert(value.section(QLatin1Char('='), 0, 0), value.section(QLatin1Char('='), 1));
        else
            return false;
    }
    return true;
}

/// "2500mbit" -> 2.5e9 bit/s.
double bitsPerSecond(const QString &rate)
{
    const QString r = rate.toLower();
    for (const auto &[unit, factor] : {std::pair{"gbit", 1e9}, std::pair{"mbit", 1e6}, std::pair{"kbit", 1e3}}) {
        if (r.endsWith(QLatin1String(unit)))
            return r.chopped(int(qstrlen(unit))).toDouble() * factor;
    }
    return r.toDouble();
}

QString fileName(const QString &kind, qint64 size)
{
    return QStringLiteral("%1-%2.bin").arg(kind).arg(size);
}

/// The size of a run of `seconds` at the line's theory, in whole MiB (at least 16).
qint64 sizeFor(double bps, int mtu, double seconds)
{
    const double bytes = Ceiling::tcpGoodputBytesPerSecond(bps / 1e6, mtu) * seconds;
    return qMax<qint64>(16, qint64(bytes / (1024 * 1024))) * 1024 * 1024;
}

struct Cell
{
    QString rate;
    int mtu = 0;
    QString protocol;
    int connections = 0;
    double wirebench = 0; ///< median MB/s
    double smbclient = 0;
    double theory = 0; ///< MB/s
    QString error;
};

class Bench
{
public:
    explicit Bench(const Args &args)
        : m_args(args)
    {
    }
    int run();

private:
    Cell measure(const QString &rate, int mtu, const QString &protocol, int connections, qint64 size);
    QString prepareFiles(qint64 size);

    Args m_args;
    FileServerLab m_rig;
    QList<qint64> m_made;
};

QString Bench::prepareFiles(qint64 size)
{
    // The file smb-read and smbclient's get read, and the one smbclient's put sends (the pattern, on the tmpfs).
    if (m_made.contains(size))
        return {};
    QString why;
    if (!m_rig.servers().makeServerFile(
            m_rig.fixture().smbRoot() + QLatin1Char('/') + fileName(QStringLiteral("read"), size), size, &why)
        || !m_rig.servers().makeServerFile(
            m_rig.fixture().path() + QLatin1Char('/') + fileName(QStringLiteral("upload"), size), size, &why))
        return why;
    m_made << size;
    return {};
}

Cell Bench::measure(const QString &rate, int mtu, const QString &protocol, int connections, qint64 size)
{
    Cell c{
        rate, mtu, protocol, connections, 0, 0, Ceiling::tcpGoodputBytesPerSecond(bitsPerSecond(rate) / 1e6, mtu) / 1e6,
        {}};
    const bool reading = protocol == QLatin1String("smb-read");
    Host host = m_rig.fileHost(protocol, size, fileName);
    host.options.insert(m_args.hostOptions);
    host.options.insert(reading ? QStringLiteral("smb.read_connections") : QStringLiteral("smb.write_connections"),
                        connections);
    TestPlan plan = LabFileServers::memoryPlan({host}, {protocol}, mtu, size);
    plan.params.options.insert(m_args.planOptions);
    PeerTransfer peer;
    peer.address = LabSession::serverAddress();
    peer.share = LabFileServers::share();
    peer.user = m_rig.fixture().user();
    peer.password = m_rig.fixture().password();
    peer.remoteName = reading ? fileName(QStringLiteral("read"), size) : fileName(QStringLiteral("peer"), size);
    peer.localFile = m_rig.fixture().path() + QLatin1Char('/') + fileName(QStringLiteral("upload"), size);
    QList<double> wb;
    QList<double> tool;
    // The first pairs of a cell are not counted: the first Wirebench run after a cell's set-up (the line reshaped,
    // files made) found the machine 58-60% busy at 2.5 Gbit/s where the others found 26-43%, and it always goes first.
    // Each tool's written file goes after its run, and the next run waits --settle seconds: the file Wirebench
    // wrote used to stay until its next run truncated it, 0.3-0.5 s before go(), so that 2 x 928 MB (smbclient's
    // removed file and its own) had just been freed when a 2.5 Gbit/s Wirebench run began and none before
    // smbclient's. Then --warm-memory MB are touched and freed, so that the server's tmpfs gets memory this VM has
    // just used (it initialises its memory lazily and hands freed memory back to its host). Counted 2.5 Gbit/s
    // Wirebench runs that lost 3% or more in their last 0.3 s, whole sweeps of 15: 10 before, 8 with the removal
    // and the pause, 0 with the touch too (docs/FILESERVERS.md). The same for both tools.
    const auto removeWritten = [&](const QString &name) {
        if (reading)
            return;
        QFile::remove(m_rig.fixture().smbRoot() + QLatin1Char('/') + name);
        QThread::msleep(static_cast<unsigned long>(m_args.settle * 1000));
        if (m_args.warmMemoryMb > 0) {
            std::vector<char> warm(size_t(m_args.warmMemoryMb) << 20);
            volatile char *page = warm.data(); // a store the compiler keeps on memory about to be freed
            for (size_t at = 0; at < warm.size(); at += 4096)
                page[at] = 1;
        }
    };
    for (int rep = -m_args.warmUp; rep < m_args.reps; ++rep) {
        const bool counted = rep >= 0;
        const platform::CpuTicks before = machineTicks();
        const RunResult r = m_rig.servers().runOne(plan, fileName(QStringLiteral("put"), size));
        const QString profile = profileOf(r, before, machineTicks());
        removeWritten(fileName(QStringLiteral("put"), size));
        if (!r.ok())
            c.error = r.error;
        else if (counted)
            wb << r.megabytesPerSecond();
        QString why;
        const double mbps = PeerTools::transfer(protocol, peer, &why);
        removeWritten(peer.remoteName);
        if (mbps <= 0)
            c.error = QStringLiteral("smbclient: ") + why;
        else if (counted)
            tool << mbps;
        const QString pair = counted ? QStringLiteral("pair %1").arg(rep + 1) : QStringLiteral("warm-up (not counted)");
        std::printf("  %-9s %8s MTU %4d, %d connection(s), %s: wirebench %8.3f MB/s, smbclient %8.3f MB/s"
                    "  (wirebench: %s)\n",
                    qPrintable(protocol), qPrintable(rate), mtu, connections, qPrintable(pair),
                    r.ok() ? r.megabytesPerSecond() : 0.0, mbps, qPrintable(profile));
        std::fflush(stdout);
    }
    c.wirebench = wb.isEmpty() ? 0 : Statistics::summarize(wb).median;
    c.smbclient = tool.isEmpty() ? 0 : Statistics::summarize(tool).median;
    return c;
}

int Bench::run()
{
    QString why;
    if (!m_rig.prepare(&why) || !m_rig.up(QStringLiteral("sb"), QStringLiteral("1gbit"), &why)) {
        std::fprintf(stderr, "wirebench-smb-bench: the lab: %s\n", qPrintable(why));
        return 2;
    }
    why = m_rig.serve({});
    if (!why.isEmpty() || !m_rig.lab().enterClient(&why)) {
        std::fprintf(stderr, "wirebench-smb-bench: the servers: %s\n", qPrintable(why));
        return 2;
    }
    std::printf(
        "SMB through lab %s (smbd in its server namespace, folders on a tmpfs): %d pair(s) per cell after %d "
        "not counted, Wirebench then smbclient; about %.1f s per run, %.1f s of pause and %d MB of memory touched "
        "after each written file is removed; MB/s = 10^6 B/s, smbclient's KiB/s converted\n",
        qPrintable(m_rig.lab().id()), m_args.reps, m_args.warmUp, m_args.seconds, m_args.settle, m_args.warmMemoryMb);
    QList<Cell> cells;
    for (const QString &rate : m_args.rates) {
        for (const int mtu : m_args.mtus) {
            if (!m_rig.lab().setLine(mtu, rate, &why)) {
                std::fprintf(stderr, "wirebench-smb-bench: %s MTU %d: %s\n", qPrintable(rate), mtu, qPrintable(why));
                continue;
            }
            const qint64 size = sizeFor(bitsPerSecond(rate), mtu, m_args.seconds);
            if (const QString error = prepareFiles(size); !error.isEmpty()) {
                std::fprintf(stderr, "wirebench-smb-bench: %s\n", qPrintable(error));
                return 2;
            }
            for (const QString &protocol : m_args.protocols) {
                const QList<int> &counts
                    = protocol == QLatin1String("smb-read") ? m_args.readConnections : m_args.writeConnections;
                for (const int connections : counts)
                    cells << measure(rate, mtu, protocol, connections, size);
            }
        }
    }
    m_rig.lab().leaveClient();
    std::printf("\n| test | line | MTU | connections | Wirebench MB/s | smbclient MB/s | ratio | Wirebench / theory | "
                "smbclient / theory |\n"
                "|---|---|---|---|---|---|---|---|---|\n");
    for (const Cell &c : cells) {
        std::printf("| %s | %s | %d | %d | %.3f | %.3f | %.3f | %.3f | %.3f |%s\n", qPrintable(c.protocol),
                    qPrintable(c.rate), c.mtu, c.connections, c.wirebench, c.smbclient,
                    c.smbclient > 0 ? c.wirebench / c.smbclient : 0, c.wirebench / c.theory, c.smbclient / c.theory,
                    c.error.isEmpty() ? "" : qPrintable(QStringLiteral(" error: ") + c.error));
    }
    m_rig.tearDown();
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    Args args;
    if (!parse(app.arguments(), &args)) {
        std::fprintf(stderr,
                     "usage: wirebench-smb-bench [--rates 100mbit,250mbit,1gbit,2500mbit] [--mtus 1500,4000,9000]\n"
                     "       [--protocols smb-write,smb-read] [--write-connections 4[,2,...]] [--read-connections 2]\n"
                     "       [--reps 3] [--warm-up 1] [--seconds 3] [--settle 3] [--warm-memory 3000]\n"
                     "       [--set KEY=VALUE ...]\n");
        return 2;
    }
    return Bench(args).run();
}
