#include "RunAnalyzer.h"

#include "Bufferbloat.h"
#include "Ceiling.h"
#include "FramePlanCheck.h"
#include "LinkTrust.h"
#include "SocketDiag.h"
#include "model/Frame.h"
#include "platform/Platform.h"
#include "protocols/DriverRegistry.h"

#include <QHostAddress>
#include <QJsonObject>

#include <algorithm>

namespace wb {

RunAnalyzer::RunAnalyzer(const AnalysisThresholds &thresholds)
    : m_base(thresholds)
    , m_thresholds(thresholds)
{
}

void RunAnalyzer::reset()
{
    m_links.clear();
    m_history.clear();
    m_started = false;
    m_stopped = false;
    m_leftoversChecked = false;
    m_notRun.clear();
    m_pendingWarnings.clear();
}

QStringList RunAnalyzer::endPlan()
{
    const QStringList lines = m_mtu.restore();
    if (!lines.isEmpty())
        m_links.clear(); // the MTUs changed back
    return lines;
}

void RunAnalyzer::duringRun()
{
    // Every 2 s for the whole run, keeping the last figure (the MSS grows with the peer's window early on, and
    // the last value carried most of the data). Not more often: this runs on the driver's thread, and a
    // sock_diag dump costs milliseconds that a synchronous protocol (SMB) waits for. Until a first figure, every
    // 250 ms: a first look that finds nothing (the clean-clone CI of 2026-12-03 had a 2.45 s smb-write over 4
    // connections with no MSS observed) would otherwise wait 2 s for the next, past the end of a short run.
    if (m_observePort == 0)
        return;
    if (m_sinceObserve.isValid() && m_sinceObserve.elapsed() < (m_observedMss > 0 ? 2000 : 250))
        return;
    m_sinceObserve.start();
    const LinkInfo link = m_links.value(m_currentAddress);
    const QString addr = link.resolvedAddress.isEmpty() ? m_currentAddress : link.resolvedAddress;
    QString note;
    if (const int mss = SocketDiag::observedMss(addr, m_observePort, true, &note); mss > 0)
        m_observedMss = mss;
    else if (m_observedMss == 0)
        m_observeNote = note;
}

QString RunAnalyzer::testKey(const RunSpec &spec)
{
    return spec.host.name + QLatin1Char('\n') + spec.host.address + QLatin1Char('\n') + QString::number(spec.host.port)
        + QLatin1Char('\n') + QString::number(spec.host.linkSpeedMbps) + QLatin1Char('\n') + spec.testKey();
}

AnalysisThresholds RunAnalyzer::thresholdsFrom(const QVariantMap &options, AnalysisThresholds t)
{
    bool ok = false;
    const double farBelow = options.value(QStringLiteral("analysis.far_below_percent")).toDouble(&ok);
    if (ok && farBelow > 0 && farBelow <= 100)
        t.farBelowPercent = farBelow;
    const double cpu = options.value(QStringLiteral("analysis.cpu_busy_percent")).toDouble(&ok);
    if (ok && cpu > 0 && cpu <= 100)
        t.cpuBusyPercent = cpu;
    return t;
}

qint64 RunAnalyzer::systemSocketBufferMax()
{
    return platform::Platform::tcpTunables().socketBufferMax().value_or(0);
}

bool RunAnalyzer::systemTcpTimestamps()
{
    return platform::Platform::tcpTunables().timestamps().value_or(true);
}

void RunAnalyzer::beforeRun(const RunSpec &spec)
{
    m_thresholds = thresholdsFrom(spec.params.options, m_base);
    m_currentAddress = spec.host.address;
    m_notRun.clear();
    m_pendingWarnings.clear();
    if (!m_links.contains(spec.host.address))
        m_links.insert(spec.host.address, LinkProbe::probe(spec.host.address));

    // Optional: set the local interface MTU to the frame size (root only; restored by endPlan()).
    const bool setMtu = spec.params.options.value(FramePlanCheck::setInterfaceMtuOption()).toBool();
    if (setMtu) {
        if (!m_leftoversChecked) {
            m_leftoversChecked = true;
            m_pendingWarnings << InterfaceMtu::restoreLeftovers();
        }
        const LinkInfo link = m_links.value(spec.host.address);
        QString e;
        if (link.interfaceName.isEmpty()) {
            m_pendingWarnings << QStringLiteral("%1: frames.set_interface_mtu is on but the local interface towards "
                                                "it is unknown, so its MTU was left as it is")
                                     .arg(spec.host.displayName());
        } else if (link.interfaceMtu != spec.frameSize) {
            if (m_mtu.apply(link.interfaceName, spec.frameSize, &e))
                m_links.insert(spec.host.address, LinkProbe::probe(spec.host.address)); // the route's MTU changed
            else
                m_pendingWarnings << QStringLiteral("%1: %2").arg(spec.host.displayName(), e);
        }
    }
    const FrameVerdict v = FramePlanCheck::verdict(m_links.value(spec.host.address), spec.host, spec.frameSize, false);
    if (!v.ok)
        m_notRun = v.reason;

    // Drivers that cannot clamp the MSS: observe what their connection uses.
    m_observedMss = 0;
    m_observeNote.clear();
    m_sinceObserve.invalidate();
    m_observePort = 0;
    const ProtocolInfo *info = DriverRegistry::find(spec.protocol);
    if (info && !info->setsMss && !info->observedPortOption.isEmpty()) {
        const OptionSpec *option = info->option(info->observedPortOption);
        const int fallback = option ? option->defaultValue.toInt() : 0;
        bool ok = false;
        const int port = spec.host.options.value(info->observedPortOption, fallback).toInt(&ok);
        m_observePort = quint16(ok && port > 0 && port < 65536 ? port : fallback);
    }
    startMeters();
}

void RunAnalyzer::startMeters()
{
    const LinkInfo &link = m_links[m_currentAddress];
    if (!InterfaceFacts::readErrorCounters(link.device.isEmpty() ? link.interfaceName : link.device, &m_crcBefore,
                                           &m_frameErrorsBefore))
        m_crcBefore = m_frameErrorsBefore = -1;
    m_dropsBefore = DropCounts::readLocal(link.interfaceName);
    m_haveDropsBefore = true;
    m_cpu.start();
    m_started = true;
    m_stopped = false;
}

void RunAnalyzer::stopMeters()
{
    if (!m_started)
        return;
    const LinkInfo &link = m_links[m_currentAddress];
    m_cpuAtEnd = m_cpu.stop();
    m_dropsAtEnd = DropCounts::readLocal(link.interfaceName);
    if (!InterfaceFacts::readErrorCounters(link.device.isEmpty() ? link.interfaceName : link.device, &m_crcAtEnd,
                                           &m_frameErrorsAtEnd))
        m_crcAtEnd = m_frameErrorsAtEnd = -1;
    m_stopped = true;
}

void RunAnalyzer::recordErrorCounters(QVariantMap &x, const LinkInfo &link)
{
    qint64 crc = m_crcAtEnd, frame = m_frameErrorsAtEnd;
    const QString dev = link.device.isEmpty() ? link.interfaceName : link.device;
    const bool read = m_stopped ? crc >= 0 : InterfaceFacts::readErrorCounters(dev, &crc, &frame);
    if (m_crcBefore >= 0 && read) {
        x.insert(QStringLiteral("interface_crc_errors"), qMax<qint64>(0, crc - m_crcBefore));
        x.insert(QStringLiteral("interface_frame_errors"), qMax<qint64>(0, frame - m_frameErrorsBefore));
    }
    m_crcBefore = m_frameErrorsBefore = -1;
}

void RunAnalyzer::recordDrops(RunResult &result, const LinkInfo &link)
{
    if (!m_haveDropsBefore)
        return;
    m_haveDropsBefore = false;
    if (result.status == RunStatus::NotRun)
        return;
    const platform::DropReading after = m_stopped ? m_dropsAtEnd : DropCounts::readLocal(link.interfaceName);
    result.extra.insert(QStringLiteral("drops"),
                        DropCounts::toJson(platform::DropReading::delta(m_dropsBefore, after)).toVariantMap());
}

bool RunAnalyzer::isIpv6(const LinkInfo &link)
{
    const QHostAddress a(link.resolvedAddress.isEmpty() ? link.destination : link.resolvedAddress);
    bool mapped = false;
    a.toIPv4Address(&mapped); // ::ffff:10.0.0.1 is IPv4 on the wire
    return a.protocol() == QAbstractSocket::IPv6Protocol && !mapped;
}

void RunAnalyzer::recordFrame(RunResult &result, const LinkInfo &link)
{
    QVariantMap &x = result.extra;
    const RunSpec &spec = result.spec;
    const bool ipv6 = isIpv6(link);
    x.insert(QStringLiteral("ip_version"), ipv6 ? 6 : 4);
    const int planned = link.pathMtu > 0 ? std::min(spec.frameSize, link.pathMtu) : spec.frameSize;
    // The ceiling is for the segments the run really sent (TCP_INFO's MSS), whatever frame the plan named.
    const bool timestamps = x.contains(QStringLiteral("tcp_timestamps"))
        ? x.value(QStringLiteral("tcp_timestamps")).toBool()
        : Frame::timestampsFromMss(result.mss, ipv6, {planned, link.pathMtu, link.interfaceMtu}, systemTcpTimestamps());
    x.insert(QStringLiteral("tcp_timestamps"), timestamps);
    const int used = result.mss > 0 ? Frame::frameOf(result.mss, ipv6, timestamps) : planned;
    x.insert(QStringLiteral("ceiling_mtu"), used);
    if (result.mss <= 0)
        return;
    x.insert(QStringLiteral("frame_used"), used);
    if (result.ok() && used != spec.frameSize) {
        const QString w = usedFrameWarning(spec, link, used, result.mss);
        if (!result.warnings.contains(w))
            result.warnings.append(w);
    }
}

QString RunAnalyzer::usedFrameWarning(const RunSpec &spec, const LinkInfo &link, int used, int mss)
{
    const QString ran = QStringLiteral("%1 @ %2 B frame ran with %3 B frames (MSS %4 B), so it is labelled and judged "
                                       "by %3 B")
                            .arg(spec.protocol)
                            .arg(spec.frameSize)
                            .arg(used)
                            .arg(mss);
    if (used < spec.frameSize && link.remoteInterfaceMtu > 0 && link.remoteInterfaceMtu < spec.frameSize)
        return QStringLiteral("%1: the server's interface has MTU %2 B, so it announced a smaller MSS: enable %3 B "
                              "frames on %4 (its interface and every switch between), or plan %5 B")
            .arg(ran)
            .arg(link.remoteInterfaceMtu)
            .arg(spec.frameSize)
            .arg(spec.host.displayName())
            .arg(used);
    if (used < spec.frameSize)
        return QStringLiteral("%1: the far end (or a device on the way) announced a smaller MSS, so its MTU is lower: "
                              "enable %2 B frames on %3 and every switch between, or plan %4 B")
            .arg(ran)
            .arg(spec.frameSize)
            .arg(spec.host.displayName())
            .arg(used);
    const ProtocolInfo *info = DriverRegistry::find(spec.protocol);
    if (info && info->setsMss)
        return QStringLiteral("%1: the system did not apply the MSS clamp (TCP_MAXSEG %2 B)")
            .arg(ran)
            .arg(Frame::maxSegFor(spec.frameSize, isIpv6(link)));
    const QString who
        = info && !info->connectionOwner.isEmpty() ? info->connectionOwner : QStringLiteral("this protocol's client");
    const QString iface = link.interfaceName.isEmpty() ? QStringLiteral("IF") : link.interfaceName;
    return QStringLiteral("%1: %2 cannot clamp the MSS, so the frames are as large as the path allows (%3 has MTU %4 "
                          "B). To measure %5 B frames, turn on \"Set the local interface MTU\" "
                          "(frames.set_interface_mtu, as root) or set it with 'ip link set dev %3 mtu %5'")
        .arg(ran, who, iface)
        .arg(link.interfaceMtu)
        .arg(spec.frameSize);
}

void RunAnalyzer::judgeRemoteLink(QVariantMap &x, LinkInfo *link)
{
    link->remoteSpeedMbps = -1;
    link->remoteInterfaceMtu = 0;
    link->remoteSpeedNote.clear();
    const QVariant facts = x.take(QStringLiteral("remote_link"));
    bool okBare = false;
    const double bare = x.take(QStringLiteral("remote_link_speed_Mbps")).toDouble(&okBare);
    if (facts.isValid()) {
        const InterfaceFacts f = InterfaceFacts::fromJson(QJsonObject::fromVariantMap(facts.toMap()));
        const SpeedVerdict v = LinkTrust::judge(f, QStringLiteral("the server's "));
        if (!f.device.isEmpty())
            x.insert(QStringLiteral("remote_interface"), f.device);
        x.insert(QStringLiteral("remote_interface_kind"), LinkTrust::kindOf(f));
        if (f.speedMbps > 0)
            x.insert(QStringLiteral("remote_link_speed_reported_Mbps"), f.speedMbps);
        link->remoteInterfaceMtu = f.mtu;
        if (f.mtu > 0)
            x.insert(QStringLiteral("remote_interface_mtu"), f.mtu);
        if (v.trusted())
            link->remoteSpeedMbps = v.speedMbps;
        else
            link->remoteSpeedNote = v.note;
    } else if (okBare && bare > 0) {
        x.insert(QStringLiteral("remote_link_speed_reported_Mbps"), bare);
        link->remoteSpeedNote = QStringLiteral("the server reported %1 Mbit/s without saying what kind of interface "
                                               "gave it (an older wirebenchd), so it is not used")
                                    .arg(bare);
    }
    if (link->remoteSpeedMbps > 0)
        x.insert(QStringLiteral("remote_link_speed_Mbps"), link->remoteSpeedMbps);
    if (!link->remoteSpeedNote.isEmpty())
        x.insert(QStringLiteral("remote_link_speed_note"), link->remoteSpeedNote);
}

void RunAnalyzer::recordCpu(RunResult &result)
{
    QVariantMap &x = result.extra;

    // What the run cost. A driver's own figure under cpu_local_percent (its thread) moves to
    // cpu_thread_percent: cpu_local_percent is the whole system's here.
    if (x.contains(QStringLiteral("cpu_local_percent")) && !x.contains(QStringLiteral("cpu_thread_percent")))
        x.insert(QStringLiteral("cpu_thread_percent"), x.take(QStringLiteral("cpu_local_percent")));
    if (m_started) {
        m_started = false;
        const CpuUsage cpu = m_stopped ? m_cpuAtEnd : m_cpu.stop();
        if (cpu.valid && result.status != RunStatus::NotRun) { // nothing ran: no cost to report
            x.insert(QStringLiteral("cpu_process_percent"), cpu.processPercent);
            if (cpu.threadPercent >= 0 && !x.contains(QStringLiteral("cpu_thread_percent")))
                x.insert(QStringLiteral("cpu_thread_percent"), cpu.threadPercent);
            if (cpu.systemPercent >= 0) {
                x.insert(QStringLiteral("cpu_local_percent"), cpu.systemPercent);
                x.insert(QStringLiteral("cpu_local_busiest_core_percent"), cpu.busiestCorePercent);
                x.insert(QStringLiteral("cpu_local_cores"), cpu.cores);
            }
            const double sd = CpuMeter::serviceDemandUsPerKB(cpu.systemBusyCpuSeconds, result.bytes);
            if (sd >= 0)
                x.insert(QStringLiteral("service_demand_us_per_KB"), sd);
            const double sdp = CpuMeter::serviceDemandUsPerKB(cpu.processCpuSeconds, result.bytes);
            if (sdp >= 0)
                x.insert(QStringLiteral("service_demand_process_us_per_KB"), sdp);
        }
    }
    // The server's CPU, when its wirebenchd reported it: seconds, or a percentage where 100 = one core
    // (wirebenchd reports its data thread that way) over the receiver's time.
    {
        bool okSec = false, okPct = false;
        double remoteSeconds = x.value(QStringLiteral("cpu_remote_seconds")).toDouble(&okSec);
        const double pct = x.value(QStringLiteral("cpu_remote_percent")).toDouble(&okPct);
        if (!okSec && okPct && pct >= 0 && result.seconds > 0) {
            remoteSeconds = pct / 100.0 * result.seconds;
            okSec = true;
        }
        const double sd = okSec ? CpuMeter::serviceDemandUsPerKB(remoteSeconds, result.bytes) : -1;
        if (sd >= 0)
            x.insert(QStringLiteral("service_demand_remote_us_per_KB"), sd);
    }
}

void RunAnalyzer::recordMss(RunResult &result)
{
    QVariantMap &x = result.extra;

    // The MSS: the driver's own (TCP_INFO on its socket), else what sock_diag saw during the run.
    if (result.mss > 0) {
        if (!x.contains(QStringLiteral("mss_source")))
            x.insert(QStringLiteral("mss_source"), QStringLiteral("tcp_info"));
        if (m_observedMss > 0)
            x.insert(QStringLiteral("mss_observed"), m_observedMss);
        else if (m_observePort != 0 && result.status != RunStatus::NotRun) // why the check beside it is missing
            x.insert(QStringLiteral("mss_observed_note"),
                     m_observeNote.isEmpty() ? QStringLiteral("not observed") : m_observeNote);
    } else if (m_observedMss > 0) {
        result.mss = m_observedMss;
        x.insert(QStringLiteral("mss_source"), QStringLiteral("sock_diag"));
    } else if (m_observePort != 0 && result.status != RunStatus::NotRun) {
        x.insert(QStringLiteral("mss_source"), QStringLiteral("unknown"));
        x.insert(QStringLiteral("mss_note"), m_observeNote.isEmpty() ? QStringLiteral("not observed") : m_observeNote);
    }
    m_observePort = 0;
    for (const QString &w : std::as_const(m_pendingWarnings)) {
        if (!result.warnings.contains(w))
            result.warnings.append(w);
    }
    m_pendingWarnings.clear();
}

LinkInfo RunAnalyzer::recordLink(RunResult &result)
{
    QVariantMap &x = result.extra;
    const RunSpec &spec = result.spec;
    LinkInfo link = m_links.value(spec.host.address);
    link.overrideSpeedMbps = spec.host.linkSpeedMbps > 0 ? spec.host.linkSpeedMbps : 0;
    judgeRemoteLink(x, &link);
    if (!link.interfaceName.isEmpty()) {
        x.insert(QStringLiteral("interface"), link.interfaceName);
        x.insert(QStringLiteral("interface_mtu"), link.interfaceMtu);
        x.insert(QStringLiteral("interface_kind"), link.kind);
    }
    recordErrorCounters(x, link);
    if (link.pathMtu > 0)
        x.insert(QStringLiteral("path_mtu"), link.pathMtu);
    if (link.speedMbps > 0)
        x.insert(QStringLiteral("local_link_speed_Mbps"), link.speedMbps);
    x.insert(QStringLiteral("link_duplex"), link.duplex);
    x.insert(QStringLiteral("link_speed_source"), link.speedSource());
    const double speed = link.effectiveSpeedMbps();
    if (speed > 0) {
        x.insert(QStringLiteral("link_speed_Mbps"), speed);
    } else {
        // Over loopback the far end is this computer: its note would only repeat ours.
        QStringList notes{link.error.isEmpty() ? link.speedNote : link.error,
                          link.kind == QLatin1String("loopback") ? QString() : link.remoteSpeedNote};
        notes.removeAll(QString());
        x.insert(QStringLiteral("link_speed_note"),
                 notes.isEmpty() ? QStringLiteral("unknown") : notes.join(QStringLiteral("; ")));
    }
    return link;
}

void RunAnalyzer::afterRun(RunResult &result)
{
    QVariantMap &x = result.extra;
    const RunSpec &spec = result.spec;

    recordCpu(result);
    recordMss(result);
    // The link and its ceiling.
    const LinkInfo link = recordLink(result);
    recordDrops(result, link);
    recordFrame(result, link);

    // The socket buffer that bounds the window: the plan's, else the kernel's autotuning maximum.
    if (!x.contains(QStringLiteral("socket_buffer_bytes"))) {
        const int snd = spec.params.sendBufferBytes, rcv = spec.params.recvBufferBytes;
        const int planned = snd > 0 && rcv > 0 ? std::min(snd, rcv) : std::max(snd, rcv);
        if (planned > 0) {
            x.insert(QStringLiteral("socket_buffer_bytes"), planned);
            x.insert(QStringLiteral("socket_buffer_source"), QStringLiteral("plan"));
        } else if (const qint64 sys = systemSocketBufferMax(); sys > 0) {
            x.insert(QStringLiteral("socket_buffer_bytes"), sys);
            x.insert(QStringLiteral("socket_buffer_source"), QStringLiteral("system"));
        }
    }

    if (result.ok()) {
        const Evidence e = Bottleneck::evidenceFrom(result);
        const double ceiling = e.ceilingBytesPerSecond();
        if (ceiling > 0) {
            x.insert(QStringLiteral("ceiling_MBps"), ceiling / 1e6);
            x.insert(QStringLiteral("percent_of_ceiling"), e.percentOfCeiling());
            if (e.bothWays) // the second figure's share of the same per-direction ceiling
                x.insert(QStringLiteral("reverse_percent_of_ceiling"),
                         Ceiling::percentOf(e.reverseBytesPerSecond, ceiling));
        }
        for (const QString &w : Bottleneck::warnings(e, m_thresholds)) {
            if (!result.warnings.contains(w))
                result.warnings.append(w);
        }
        // From 30 ms a warning; 5 to 30 ms is a note beside the latency figures (Bufferbloat::note), not a warning.
        if (const QString bloat = Bufferbloat::warning(result.latency); !bloat.isEmpty())
            result.warnings.append(bloat);
    }
    RunResultList &history = m_history[testKey(spec)];
    history.append(result);
    x.insert(QStringLiteral("bottleneck"), Bottleneck::sentence(Bottleneck::evidenceFrom(history), m_thresholds));
    history.last().extra = x;
    m_stopped = false;
}

QString RunAnalyzer::bottleneckFor(const RunResultList &testResults, const AnalysisThresholds &t)
{
    return Bottleneck::sentence(Bottleneck::evidenceFrom(testResults), t);
}

} // namespace wb
