#include "ReportGenerator.h"

#include "analysis/Bufferbloat.h"
#include "analysis/RunAnalyzer.h"
#include "analysis/SessionFindings.h"
#include "analysis/StoredStreams.h"
#include "model/Frame.h"
#include "protocols/DriverRegistry.h"
#include "stats/TestSummary.h"
#include "storage/ResultStore.h"

#include <QDir>
#include <QSaveFile>

#include <cmath>

namespace wb {

namespace {

QString esc(const QString &s)
{
    return s.toHtmlEscaped();
}

// Between a number and its unit: a no-break space, so that a narrow table cell never splits "118.00 MB/s".
const QChar kNbsp(0x00A0);

QString withUnit(const QString &number, const QString &unit)
{
    return number + kNbsp + unit;
}

QString fixed(double v, int decimals)
{
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("n/a");
}

/// A throughput in `unit` with its unit, e.g. "117.60 MB/s".
QString rate(double bytesPerSecond, RateUnit unit)
{
    const double v = Units::fromBytesPerSecond(bytesPerSecond, unit);
    return withUnit(fixed(v, std::fabs(v) >= 1000 ? 1 : 2), Units::label(unit));
}

QString bytesText(qint64 bytes)
{
    return withUnit(QString::number(bytes), QStringLiteral("B"));
}

QString sizeText(qint64 bytes)
{
    if (bytes < 1024)
        return bytesText(bytes);
    return QStringLiteral("%1 (%2)").arg(bytesText(bytes), Units::formatBytes(bytes).replace(QLatin1Char(' '), kNbsp));
}

QString dateText(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")) : QStringLiteral("-");
}

QString frameText(int frame)
{
    return frame > 0 ? withUnit(QString::number(frame), QStringLiteral("B")) : QStringLiteral("unclamped");
}

/// The frame the runs really used (Frame, from their MSS), with the plan's beside it when they differ.
QString usedFrameText(const RunResultList &runs, int planned)
{
    const QList<int> used = Frame::usedFrames(runs);
    if (used.isEmpty() || used == QList<int>{planned})
        return frameText(planned);
    QStringList parts;
    for (int f : used)
        parts << frameText(f);
    return QStringLiteral("%1 (%2 planned)").arg(parts.join(QLatin1Char('/')), frameText(planned));
}

QString mssText(int mss)
{
    return mss > 0 ? withUnit(QString::number(mss), QStringLiteral("B")) : QStringLiteral("unknown");
}

QString hostKey(const Host &h)
{
    return h.name + QLatin1Char('\n') + h.address;
}

/// The last value a host's runs recorded under `key` (runs are in time order).
QString lastExtra(const RunResultList &runs, const Host &host, const char *key)
{
    QString value;
    for (const RunResult &r : runs) {
        if (hostKey(r.spec.host) == hostKey(host) && r.extra.contains(QLatin1String(key)))
            value = r.extra.value(QLatin1String(key)).toString();
    }
    return value;
}

class Html
{
public:
    void raw(const QString &s) { m_out += s; }
    void line(const QString &s) { m_out += s + QLatin1Char('\n'); }
    void heading(int level, const QString &text) { line(QStringLiteral("<h%1>%2</h%1>").arg(level).arg(esc(text))); }
    void para(const QString &text, const QString &cls = QString())
    {
        line(cls.isEmpty() ? QStringLiteral("<p>%1</p>").arg(esc(text))
                           : QStringLiteral("<p class=\"%1\">%2</p>").arg(cls, esc(text)));
    }
    void tableStart(const QString &id, const QStringList &headers)
    {
        line(QStringLiteral("<table id=\"%1\" border=\"1\" cellspacing=\"0\" cellpadding=\"3\">").arg(id));
        raw(QStringLiteral("<thead><tr>"));
        for (const QString &h : headers)
            raw(QStringLiteral("<th>%1</th>").arg(esc(h)));
        line(QStringLiteral("</tr></thead><tbody>"));
    }
    void row(const QStringList &cells, const QString &cls = QString())
    {
        raw(cls.isEmpty() ? QStringLiteral("<tr>") : QStringLiteral("<tr class=\"%1\">").arg(cls));
        for (const QString &c : cells) {
            // A value with its unit never wraps (QTextDocument would break "MB/s" after the slash).
            raw(c.contains(kNbsp) && c.size() < 40 ? QStringLiteral("<td class=\"n\">%1</td>").arg(esc(c))
                                                   : QStringLiteral("<td>%1</td>").arg(esc(c)));
        }
        line(QStringLiteral("</tr>"));
    }
    void tableEnd() { line(QStringLiteral("</tbody></table>")); }
    void definitions(const QList<QPair<QString, QString>> &items)
    {
        line(QStringLiteral("<table class=\"facts\" border=\"0\" cellspacing=\"0\" cellpadding=\"2\"><tbody>"));
        for (const auto &[k, v] : items)
            line(QStringLiteral("<tr><th align=\"left\">%1</th><td>%2</td></tr>").arg(esc(k), esc(v)));
        line(QStringLiteral("</tbody></table>"));
    }
    QString text() const { return m_out; }

private:
    QString m_out;
};

// The runs of one test (host x protocol x frame size), in time order.
RunResultList runsOf(const RunResultList &runs, const TestSummary &t)
{
    RunResultList testRuns;
    for (const RunResult &run : runs) {
        if (hostKey(run.spec.host) == hostKey(t.host) && run.spec.protocol == t.protocol
            && run.spec.frameSize == t.frameSize)
            testRuns << run;
    }
    return testRuns;
}

QString titleOf(const ReportInput &in)
{
    const SessionInfo &s = in.session;
    return !in.title.isEmpty()
        ? in.title
        : QStringLiteral("Wirebench report: %1, session %2")
              .arg(dateText(s.startedAt), s.uuid.isEmpty() ? QString::number(s.id) : s.uuid.left(8));
}

void writeHead(Html &h, const QString &title, double fontPoints)
{
    h.line(QStringLiteral("<!DOCTYPE html>"));
    h.line(QStringLiteral("<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">"));
    h.line(QStringLiteral("<head><meta charset=\"utf-8\" /><title>%1</title>").arg(esc(title)));
    h.line(QStringLiteral(
               "<style>body { font-family: sans-serif; font-size: %1pt; } table { border-collapse: collapse; "
               "margin-bottom: "
               "1em; } th { background: #e8e8e8; } td, th { padding: 3px 6px; } tr.failed td { color: #a00000; } "
               ".n { white-space: nowrap; } .warning { color: #8a5a00; } .note { color: #555555; } img { max-width: "
               "100%; }</style>")
               .arg(fontPoints > 0 ? fontPoints : 10.0));
    h.line(QStringLiteral("</head><body>"));
}

// The session and the plan.
void writePlan(Html &h, const SessionInfo &s)
{
    const TestPlan &plan = s.plan;
    h.heading(2, QStringLiteral("Plan"));
    QStringList frames;
    for (int f : s.frameSizes.isEmpty() ? plan.frameSizes : s.frameSizes)
        frames << frameText(f);
    const TestParams &p = plan.params;
    QList<QPair<QString, QString>> planFacts{
        {QStringLiteral("Session"), QStringLiteral("%1 (id %2)").arg(s.uuid).arg(s.id)},
        {QStringLiteral("State"), sessionStateName(s.state)},
        {QStringLiteral("Started"), dateText(s.startedAt)},
        {QStringLiteral("Ended"), dateText(s.endedAt)},
        {QStringLiteral("Protocols"),
         (s.protocols.isEmpty() ? plan.protocols : s.protocols).join(QStringLiteral(", "))},
        {QStringLiteral("Frame sizes"), frames.join(QStringLiteral(", "))},
        {QStringLiteral("Repetitions"), QString::number(plan.repetitions)},
        {QStringLiteral("Runs"),
         QStringLiteral("%1 stored (%2 ok) of %3 planned").arg(s.runCount).arg(s.okRuns).arg(s.plannedRuns)},
        {QStringLiteral("Run length"), withUnit(fixed(p.durationMs / 1000.0, 1), QStringLiteral("s"))},
        {QStringLiteral("Warm-up left out"), withUnit(fixed(p.warmupMs / 1000.0, 1), QStringLiteral("s"))},
        {QStringLiteral("Message size"), sizeText(p.messageSize)},
        {QStringLiteral("Send buffer"),
         p.sendBufferBytes > 0 ? sizeText(p.sendBufferBytes) : QStringLiteral("system default")},
        {QStringLiteral("Receive buffer"),
         p.recvBufferBytes > 0 ? sizeText(p.recvBufferBytes) : QStringLiteral("system default")},
        {QStringLiteral("Streams"), QString::number(p.streams)},
        {QStringLiteral("Sample interval"), withUnit(QString::number(p.sampleIntervalMs), QStringLiteral("ms"))},
    };
    bool fileProtocols = false; // a protocol that moves a file (FTP, SMB, copy) rather than running for a time
    for (const QString &proto : s.protocols) {
        const ProtocolInfo *info = DriverRegistry::find(proto);
        fileProtocols = fileProtocols || (info && !info->timed);
    }
    if (fileProtocols)
        planFacts.append({QStringLiteral("File size"), sizeText(p.fileSizeBytes)});
    h.definitions(planFacts);
}

// The link speed a host's runs measured, else the one the user set, else why it is unknown.
QString speedText(const RunResultList &runs, const Host &host)
{
    QString speed = lastExtra(runs, host, "link_speed_Mbps");
    if (!speed.isEmpty())
        return withUnit(fixed(speed.toDouble(), 0), QStringLiteral("Mbit/s"));
    if (host.linkSpeedMbps > 0)
        return withUnit(fixed(host.linkSpeedMbps, 0), QStringLiteral("Mbit/s (set by the user)"));
    if (const QString note = lastExtra(runs, host, "link_speed_note"); !note.isEmpty())
        return QStringLiteral("unknown (%1)").arg(note);
    return QStringLiteral("unknown");
}

void writeHostRow(Html &h, const RunResultList &runs, const Host &host)
{
    QString reported;
    for (const RunResult &r : runs) {
        if (hostKey(r.spec.host) == hostKey(host) && !r.serverOs.isEmpty())
            reported = r.serverOs;
    }
    const QString speed = speedText(runs, host);
    const QString ifMtu = lastExtra(runs, host, "interface_mtu");
    const QString iface = lastExtra(runs, host, "interface");
    QString pathMtu = lastExtra(runs, host, "path_mtu");
    if (pathMtu.isEmpty())
        pathMtu = lastExtra(runs, host, "pmtu"); // iperf3 imports
    const QString duplex = lastExtra(runs, host, "link_duplex");
    const QString address = host.port > 0 ? QStringLiteral("%1:%2").arg(host.address).arg(host.port) : host.address;
    h.row({host.displayName(), address, host.osLabel.isEmpty() ? QStringLiteral("-") : host.osLabel,
           reported.isEmpty() ? QStringLiteral("-") : reported, host.serverType, speed,
           ifMtu.isEmpty()
               ? QStringLiteral("unknown")
               : QStringLiteral("%1%2").arg(withUnit(ifMtu, QStringLiteral("B")),
                                            iface.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(iface)),
           pathMtu.isEmpty() ? QStringLiteral("unknown") : withUnit(pathMtu, QStringLiteral("B")),
           duplex.isEmpty() ? QStringLiteral("unknown") : duplex});
}

// The environment: this machine and the hosts as they were.
void writeEnvironment(Html &h, const ReportInput &in)
{
    const SessionInfo &s = in.session;
    h.heading(2, QStringLiteral("Environment"));
    h.definitions({
        {QStringLiteral("Measured from"), s.machineHostname.isEmpty() ? QStringLiteral("-") : s.machineHostname},
        {QStringLiteral("Its OS"), s.machineOs.isEmpty() ? QStringLiteral("-") : s.machineOs},
        {QStringLiteral("Wirebench version"), s.wirebenchVersion.isEmpty() ? QStringLiteral("-") : s.wirebenchVersion},
    });
    QList<Host> hosts = s.hosts;
    for (const RunResult &r : in.runs) {
        bool known = false;
        for (const Host &host : std::as_const(hosts))
            known = known || hostKey(host) == hostKey(r.spec.host);
        if (!known)
            hosts.append(r.spec.host);
    }
    h.tableStart(QStringLiteral("hosts"),
                 {QStringLiteral("Host"), QStringLiteral("Address"), QStringLiteral("OS label"),
                  QStringLiteral("OS reported"), QStringLiteral("Server"), QStringLiteral("Link speed"),
                  QStringLiteral("Interface MTU"), QStringLiteral("Path MTU"), QStringLiteral("Duplex")});
    for (const Host &host : std::as_const(hosts))
        writeHostRow(h, in.runs, host);
    h.tableEnd();
}

// Line rate: the analysis' ceiling when the runs carry it, else the link speed set for the host.
QString ofLineText(const RunResultList &testRuns, const TestSummary &t)
{
    double percent = -1;
    QList<double> pcts;
    for (const RunResult &run : testRuns) {
        if (run.ok() && run.extra.contains(t.percentKey()))
            pcts << run.extra.value(t.percentKey()).toDouble();
    }
    if (!pcts.isEmpty())
        percent = Statistics::summarize(pcts).median;
    else if (t.okRuns > 0 && t.host.linkSpeedMbps > 0)
        percent = t.MBps.median * 8 / t.host.linkSpeedMbps * 100;
    return percent >= 0 ? withUnit(fixed(percent, 1), QStringLiteral("%")) : QStringLiteral("-");
}

// Results per test.
void writeSummary(Html &h, const ReportInput &in, const QList<TestSummary> &summaries)
{
    const RateUnit unit = in.unit;
    const bool showMbps = unit != RateUnit::Mbps;
    h.heading(2, QStringLiteral("Results"));
    h.para(QStringLiteral("Throughput is the receiver's byte count over the receiver's time (goodput), over the runs "
                          "that succeeded. %1")
               .arg(QStringLiteral("MB/s = 10^6 bytes/s, MiB/s = 2^20 bytes/s, Mbit/s = 10^6 bits/s.")),
           QStringLiteral("note"));
    QStringList headers{QStringLiteral("Host"),  QStringLiteral("OS"),      QStringLiteral("Test"),
                        QStringLiteral("Frame"), QStringLiteral("MSS"),     QStringLiteral("Runs ok"),
                        QStringLiteral("Min"),   QStringLiteral("Median"),  QStringLiteral("Mean"),
                        QStringLiteral("Max"),   QStringLiteral("Std dev"), QStringLiteral("95% CI")};
    if (showMbps)
        headers << QStringLiteral("Median (Mbit/s)");
    headers << QStringLiteral("Of line rate");
    h.tableStart(QStringLiteral("summary"), headers);
    for (const TestSummary &t : summaries) {
        const Summary &m = t.MBps;
        const bool any = t.okRuns > 0;
        auto r = [&](double MBps) { return any ? rate(MBps * 1e6, unit) : QStringLiteral("-"); };
        const RunResultList testRuns = runsOf(in.runs, t);
        QStringList cells{t.host.displayName(),
                          t.host.osLabel.isEmpty() ? QStringLiteral("-") : t.host.osLabel,
                          t.label(),
                          usedFrameText(testRuns, t.frameSize),
                          mssText(t.mss),
                          QStringLiteral("%1 of %2").arg(t.okRuns).arg(t.okRuns + t.failedRuns),
                          r(m.min),
                          r(m.median),
                          r(m.mean),
                          r(m.max),
                          r(m.stddev),
                          any && m.n >= 2 ? QStringLiteral("\u00b1") + kNbsp + rate(m.ci95HalfWidth * 1e6, unit)
                                          : QStringLiteral("-")};
        if (showMbps)
            cells << (any ? rate(m.median * 1e6, RateUnit::Mbps) : QStringLiteral("-"));
        cells << ofLineText(testRuns, t);
        h.row(cells, t.failedRuns > 0 && t.okRuns == 0 ? QStringLiteral("failed") : QString());
    }
    h.tableEnd();
}

// Round trips before and during the load, per test (Bufferbloat); nothing when no run measured them.
void writeLatency(Html &h, const ReportInput &in, const QList<TestSummary> &summaries)
{
    QList<const TestSummary *> measured;
    for (const TestSummary &t : summaries) {
        if (t.loadedLatencyMs.n > 0)
            measured << &t;
    }
    if (measured.isEmpty())
        return;
    h.heading(2, QStringLiteral("Latency under load"));
    h.para(QStringLiteral(
               "Round trips to the host at 10 to 20 a second, idle before each run and while it moved data "
               "(medians of the runs' medians; p99: the highest of the runs' 99th percentiles). What the "
               "load adds is the time packets wait in the fullest queue on the path; under %1 ms is good, "
               "%1 to %2 ms is worth knowing, from %2 ms calls and interactive work suffer while a transfer runs.")
               .arg(Bufferbloat::kGoodMs)
               .arg(Bufferbloat::kWarnMs),
           QStringLiteral("note"));
    h.tableStart(QStringLiteral("latency"),
                 {QStringLiteral("Host"), QStringLiteral("Test"), QStringLiteral("Frame"), QStringLiteral("Idle"),
                  QStringLiteral("Loaded"), QStringLiteral("Loaded p99"), QStringLiteral("Added by the load"),
                  QStringLiteral("Judged")});
    for (const TestSummary *t : std::as_const(measured)) {
        const RunResultList testRuns = runsOf(in.runs, *t);
        double p99 = 0;
        for (const RunResult &r : testRuns)
            p99 = r.ok() && r.latency.measured() ? qMax(p99, r.latency.loaded.p99Ms) : p99;
        const double added = t->loadedLatencyMs.median - t->idleLatencyMs.median;
        h.row({t->host.displayName(), t->protocol, usedFrameText(testRuns, t->frameSize),
               Bufferbloat::ms(t->idleLatencyMs.median), Bufferbloat::ms(t->loadedLatencyMs.median),
               Bufferbloat::ms(p99), (added >= 0 ? QStringLiteral("+") : QString()) + Bufferbloat::ms(added),
               Bufferbloat::gradeName(Bufferbloat::gradeOf(added))});
    }
    h.tableEnd();
}

// What limited each test: the caller's sentences, else each test's own.
void writeFindings(Html &h, const ReportInput &in, const QList<TestSummary> &summaries)
{
    QStringList findings = in.findings;
    if (findings.isEmpty()) {
        for (const TestSummary &t : summaries) {
            const RunResultList testRuns = runsOf(in.runs, t);
            QString sentence;
            for (const RunResult &run : testRuns) {
                if (run.ok() && run.extra.contains(QStringLiteral("bottleneck")))
                    sentence = run.extra.value(QStringLiteral("bottleneck")).toString();
            }
            if (sentence.isEmpty() && t.okRuns > 0)
                sentence = RunAnalyzer::bottleneckFor(testRuns);
            if (!sentence.isEmpty())
                findings << QStringLiteral("%1, %2 @ %3: %4")
                                .arg(t.host.displayName(), t.protocol, usedFrameText(testRuns, t.frameSize), sentence);
        }
    }
    if (findings.isEmpty())
        return;
    h.heading(2, QStringLiteral("What limited each test"));
    h.line(QStringLiteral("<ul id=\"findings\">"));
    for (const QString &f : std::as_const(findings))
        h.line(QStringLiteral("<li>%1</li>").arg(esc(f)));
    h.line(QStringLiteral("</ul>"));
}

// The first lines a reader sees: what was compared, where and when.
void writeCompared(Html &h, const ReportInput &in)
{
    if (in.runs.isEmpty())
        return;
    QStringList hosts, protocols, frames;
    int ok = 0;
    for (const RunResult &r : in.runs) {
        ok += r.ok() ? 1 : 0;
        const QString host = r.spec.host.osLabel.isEmpty()
            ? r.spec.host.displayName()
            : QStringLiteral("%1 (%2)").arg(r.spec.host.displayName(), r.spec.host.osLabel);
        if (!hosts.contains(host))
            hosts << host;
        if (!protocols.contains(r.spec.protocol))
            protocols << r.spec.protocol;
        const QString frame = QString::number(r.spec.frameSize) + QStringLiteral(" B");
        if (!frames.contains(frame))
            frames << frame;
    }
    h.para(QStringLiteral("Compared: %1 on %2, at %3 frames; %4 of %5 runs succeeded, %6.")
               .arg(protocols.join(QStringLiteral(", ")), hosts.join(QStringLiteral(", ")),
                    frames.join(QStringLiteral(", ")))
               .arg(ok)
               .arg(in.runs.size())
               .arg(in.session.startedAt.isValid() ? QStringLiteral("from %1").arg(dateText(in.session.startedAt))
                                                   : QStringLiteral("time not recorded")));
}

// What the tests prove together (SessionFindings), each sentence in full.
void writeTogether(Html &h, const ReportInput &in)
{
    const FindingList found = SessionFindings::of(in.runs, in.earlier);
    if (found.isEmpty())
        return;
    h.heading(2, QStringLiteral("What the tests show together"));
    h.line(QStringLiteral("<ul id=\"together\">"));
    for (const Finding &f : found)
        h.line(QStringLiteral("<li>%1</li>").arg(esc(f.sentence)));
    h.line(QStringLiteral("</ul>"));
    h.para(QStringLiteral("A difference is beyond the noise when the 95% confidence intervals of the two means do not "
                          "overlap."),
           QStringLiteral("note"));
}

// Charts, rendered by the caller.
void writeCharts(Html &h, const QList<ReportChart> &charts, ReportGenerator::Images images, qsizetype from,
                 qsizetype to, const QString &heading)
{
    to = qMin(to, charts.size());
    if (from >= to)
        return;
    if (!heading.isEmpty())
        h.heading(2, heading);
    for (qsizetype i = from; i < to; ++i) {
        const ReportChart &c = charts.at(i);
        h.heading(3, c.title);
        const QString src = images == ReportGenerator::Images::Embedded
            ? QStringLiteral("data:image/png;base64,") + QString::fromLatin1(c.png.toBase64())
            : ReportGenerator::chartName(int(i));
        h.line(QStringLiteral("<p><img src=\"%1\" alt=\"%2\" /></p>").arg(src, esc(c.title)));
        if (!c.caption.isEmpty())
            h.para(c.caption, QStringLiteral("note"));
    }
}

// Every run.
void writeRuns(Html &h, const ReportInput &in)
{
    const RateUnit unit = in.unit;
    const bool showMbps = unit != RateUnit::Mbps;
    h.heading(2, QStringLiteral("Runs"));
    QStringList runHeaders{QStringLiteral("#"),     QStringLiteral("Host"), QStringLiteral("Test"),
                           QStringLiteral("Frame"), QStringLiteral("Rep."), QStringLiteral("Started"),
                           QStringLiteral("Bytes"), QStringLiteral("Time"), QStringLiteral("Throughput")};
    if (showMbps)
        runHeaders << QStringLiteral("Throughput (Mbit/s)");
    runHeaders << QStringLiteral("MSS") << QStringLiteral("Status") << QStringLiteral("Error");
    h.tableStart(QStringLiteral("runs"), runHeaders);
    for (qsizetype i = 0; i < in.runs.size(); ++i) {
        const RunResult &r = in.runs.at(i);
        const bool measured = r.ok() || r.bytes > 0;
        QStringList cells{QString::number(i + 1),
                          r.spec.host.displayName(),
                          r.spec.protocol,
                          usedFrameText({r}, r.spec.frameSize),
                          QString::number(r.spec.repetition),
                          dateText(r.startedAt),
                          bytesText(r.bytes),
                          withUnit(fixed(r.seconds, 3), QStringLiteral("s")),
                          measured ? rate(r.bytesPerSecond(), unit) : QStringLiteral("-")};
        if (showMbps)
            cells << (measured ? rate(r.bytesPerSecond(), RateUnit::Mbps) : QStringLiteral("-"));
        cells << mssText(r.mss) << runStatusName(r.status) << (r.error.isEmpty() ? QStringLiteral("-") : r.error);
        h.row(cells, r.ok() ? QString() : QStringLiteral("failed"));
    }
    h.tableEnd();
}

// Runs over parallel streams: each stream's share of the figure (the bytes over the window common to all, which add up
// to the run's bytes), so that one stream that lagged is seen; both ways at once, each direction's.
void writeStreams(Html &h, const ReportInput &in)
{
    struct Row
    {
        qsizetype run;
        QString direction;
        QVariantList bytes;
        double seconds;
    };
    QList<Row> rows;
    for (qsizetype i = 0; i < in.runs.size(); ++i) {
        const RunResult &r = in.runs.at(i);
        const QVariantList first = r.extra.value(QStringLiteral("stream_bytes")).toList();
        const QVariantList second = r.extra.value(QStringLiteral("reverse_stream_bytes")).toList();
        if (first.size() > 1)
            rows.append({i, r.bothWays() ? QStringLiteral("send") : QString(), first, r.seconds});
        if (second.size() > 1 && r.reverse)
            rows.append({i, QStringLiteral("receive"), second, r.reverse->seconds});
    }
    if (rows.isEmpty())
        return;
    h.heading(2, QStringLiteral("Parallel streams"));
    h.para(
        QStringLiteral("Each stream's throughput over the time all streams of the run shared (their sum is the run's "
                       "figure), in %1.")
            .arg(Units::label(in.unit)));
    h.tableStart(QStringLiteral("streams"),
                 {QStringLiteral("#"), QStringLiteral("Host"), QStringLiteral("Test"), QStringLiteral("Streams"),
                  QStringLiteral("Each stream (%1)").arg(Units::label(in.unit)), QStringLiteral("Slowest / fastest")});
    for (const Row &row : rows) {
        const RunResult &r = in.runs.at(row.run);
        QStringList each;
        double slowest = -1;
        double fastest = 0;
        for (const QVariant &b : row.bytes) {
            const double rateBps = row.seconds > 0 ? b.toDouble() / row.seconds : 0;
            each << fixed(Units::fromBytesPerSecond(rateBps, in.unit), 2);
            slowest = slowest < 0 ? rateBps : qMin(slowest, rateBps);
            fastest = qMax(fastest, rateBps);
        }
        const QString test
            = row.direction.isEmpty() ? r.spec.protocol : r.spec.protocol + QLatin1Char(' ') + row.direction;
        const QString spread
            = fastest > 0 ? QStringLiteral("%1%").arg(fixed(slowest / fastest * 100, 1)) : QStringLiteral("-");
        h.row({QString::number(row.run + 1), r.spec.host.displayName(), test, QString::number(row.bytes.size()),
               each.join(QStringLiteral(", ")), spread});
    }
    h.tableEnd();
}

// Warnings, each once, with the runs that raised it.
void writeWarnings(Html &h, const RunResultList &runs)
{
    QStringList warnings;
    QList<QStringList> where;
    for (qsizetype i = 0; i < runs.size(); ++i) {
        for (const QString &w : runs.at(i).warnings) {
            qsizetype at = warnings.indexOf(w);
            if (at < 0) {
                warnings << w;
                where << QStringList();
                at = warnings.size() - 1;
            }
            where[at] << QString::number(i + 1);
        }
    }
    h.heading(2, QStringLiteral("Warnings"));
    if (warnings.isEmpty()) {
        h.para(QStringLiteral("No run raised a warning."));
        return;
    }
    h.line(QStringLiteral("<ul id=\"warnings\">"));
    for (qsizetype i = 0; i < warnings.size(); ++i)
        h.line(QStringLiteral("<li class=\"warning\">%1 (run %2)</li>")
                   .arg(esc(warnings.at(i)), where.at(i).join(QStringLiteral(", "))));
    h.line(QStringLiteral("</ul>"));
}

} // namespace

QString ReportGenerator::chartName(int index)
{
    return QStringLiteral("wirebench-chart:%1").arg(index);
}

QString ReportGenerator::html(const ReportInput &in, Images images, double fontPoints)
{
    const QDateTime generated = in.generatedAt.isValid() ? in.generatedAt : QDateTime::currentDateTimeUtc();
    const QString title = titleOf(in);
    Html h;
    writeHead(h, title, fontPoints);
    h.heading(1, title);
    if (!in.session.title.isEmpty())
        h.para(in.session.title);
    // The answer first, for a reader who did not sit at the window: what was compared, the chart, what the
    // tests show together and what limited each; then the figures; the plan, the environment, every run and
    // every warning in full after them.
    writeCompared(h, in);
    writeCharts(h, in.charts, images, 0, 1, QString()); // the comparison chart (the caller's first)
    writeTogether(h, in);
    const QList<TestSummary> summaries = TestSummary::build(in.runs);
    writeFindings(h, in, summaries);
    writeSummary(h, in, TestSummary::byDirection(summaries)); // both directions at once: a row each
    writeLatency(h, in, summaries);
    // On paper the appendix starts a page of its own, so that page 1 holds the answer alone.
    h.line(QStringLiteral("<h2 style=\"page-break-before: always\">Appendix: the plan, the environment, every run and "
                          "every warning</h2>"));
    writePlan(h, in.session);
    writeEnvironment(h, in);
    writeCharts(h, in.charts, images, 1, in.charts.size(), QStringLiteral("More charts"));
    writeRuns(h, in);
    writeStreams(h, in);
    writeWarnings(h, in.runs);
    h.para(QStringLiteral("Generated %1 by Wirebench %2. MB/s = 10^6 bytes/s, MiB/s = 2^20 bytes/s, "
                          "Mbit/s = 10^6 bits/s; B = bytes.")
               .arg(dateText(generated), QStringLiteral(WIREBENCH_VERSION)),
           QStringLiteral("note"));
    h.line(QStringLiteral("</body></html>"));
    return h.text();
}

bool ReportGenerator::writeHtml(const QString &path, const ReportInput &input, QString *error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(html(input).toUtf8()) < 0 || !f.commit()) {
        if (error)
            *error = QStringLiteral("Report %1: cannot be written (%2); check the folder and free space")
                         .arg(QDir::toNativeSeparators(path), f.errorString());
        return false;
    }
    return true;
}

bool ReportGenerator::fromStore(const ResultStore &store, qint64 sessionId, ReportInput *input, QString *error)
{
    ReportInput in;
    if (!store.session(sessionId, &in.session, error))
        return false;
    QString why;
    in.runs = store.runs(sessionId, &why);
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    in.earlier = StoredStreams::before(&store, in.runs);
    if (input)
        *input = in;
    return true;
}

} // namespace wb
