#pragma once

#include "DropCounts.h"
#include "model/RunResult.h"

#include <QString>
#include <QStringList>

namespace wb {

/// Where the analysis draws its lines. Percentages are of the line-rate ceiling unless said otherwise.
struct AnalysisThresholds
{
    double farBelowPercent = 50;      ///< a result under this is "far below" the ceiling (warning)
    double atLineRatePercent = 90;    ///< from here a result is "at line rate"
    double aboveTolerancePercent = 1; ///< above 100 + this a result cannot be right (warning)
    double cpuBusyPercent = 90;       ///< a CPU this busy is a bottleneck
    double nearLimitPercent = 80;     ///< a result within this share of a limit "sits at" that limit
    double retransmitPercent = 0.1;   ///< share of segments resent worth naming as a cause
};

/// What is known about one run or one test (its repetitions), in plain units. Unknown figures stay at
/// their defaults (-1, 0 or "unknown"): every function here copes with any of them missing.
struct Evidence
{
    int runs = 0;                      ///< successful runs behind the figures
    double measuredBytesPerSecond = 0; ///< goodput (median over runs), bytes/s
    double linkSpeedMbps = -1;         ///< the rate the ceiling uses (override, or the slower end); -1 = unknown
    QString linkSpeedSource = QStringLiteral("unknown"); ///< "override", "local", "remote", "unknown"
    QString linkNote;                           ///< why the speed is unknown ("loopback interface lo reports no speed")
    double localSpeedMbps = -1;                 ///< what the local interface negotiated; -1 = unknown
    QString duplex = QStringLiteral("unknown"); ///< of the local interface: "full", "half", "unknown"
    QString interfaceName;
    QString interfaceKind
        = QStringLiteral("unknown");     ///< "loopback", "virtual", "vm", "hardware", "unknown" (LinkTrust::kindOf)
    double crcErrors = -1;               ///< frames with a bad CRC the interface counted during the runs; -1 = unknown
    double frameErrors = -1;             ///< misaligned frames it counted during the runs; -1 = unknown
    int mtu = 0;                         ///< frame size the ceiling assumes (bytes): the one the MSS makes
    int mss = 0;                         ///< payload per segment the run really used (TCP_INFO), bytes; 0 = unknown
    bool ipv6 = false;                   ///< over IPv6 (headers 20 bytes longer than IPv4's)
    double udpTargetMbps = -1;           ///< a UDP test's target payload rate (iperf3 -b), 10^6 bit/s; -1 = TCP
    bool timestamps = true;              ///< TCP timestamp option in use (12 bytes per segment)
    double socketBufferBytes = 0;        ///< the smaller socket buffer of the connection; 0 = unknown
    int streams = 1;                     ///< parallel connections of the test, each with its own socket buffer
    bool socketBufferFromSystem = false; ///< the kernel's autotuning maximum, not the plan's setting
    double rttUs = 0;                    ///< smoothed RTT (TCP_INFO), microseconds; 0 = unknown
    double localDiskBytesPerSecond = 0;  ///< what the local disk managed; 0 = not involved or unknown
    QString localDiskOp = QStringLiteral("read");
    double remoteDiskBytesPerSecond = 0;
    QString remoteDiskOp = QStringLiteral("write");
    double localCpuPercent = -1;       ///< the test's own thread on this computer, % of one core
    double localSystemCpuPercent = -1; ///< this computer as a whole, average over all cores (other programs too)
    double remoteCpuPercent = -1;      ///< as the server reported it
    double retransmits = -1;           ///< segments resent (TCP_INFO); -1 = unknown
    double segments = 0;               ///< data segments sent, for the share of retransmits
    QString hostName;                  ///< the far host as the sentence names it ("fs1")
    DropCounts localDrops;             ///< what this computer dropped during the runs (summed); known=false: unread
    DropCounts remoteDrops;            ///< what the far host dropped (its wirebenchd's result); known=false: unknown

    /// Both directions at once (tcp-bidir, iperf3-bidir): measuredBytesPerSecond is the send direction's, this the
    /// receive direction's (median over runs); the ceiling is each direction's while the other's ACKs share it.
    bool bothWays = false;
    double reverseBytesPerSecond = 0;
    /// The test's data came from the far host (a download: tcp-recv, ftp-get, smb-read): this computer's queue
    /// then carries only its ACKs and requests (ProtocolInfo::Flow).
    bool dataFromServer = false;

    double ceilingBytesPerSecond() const; ///< 0 = unknown
    /// One direction alone on the link (the one-way TCP ceiling, whatever bothWays says). 0 = unknown.
    double oneWayCeilingBytesPerSecond() const;
    /// The TCP ceiling of a link of speedMbps for this run's segments: from the MSS it used when known,
    /// else from the frame size (Ceiling::tcpGoodputForMss, the one function). 0 = unknown.
    double tcpCeilingAt(double speedMbps) const;
    double percentOfCeiling() const;          ///< -1 = unknown
    double bufferLimitBytesPerSecond() const; ///< socket buffer / RTT; 0 = unknown
    double retransmitPercent() const;         ///< -1 = unknown
    /// The interface counted CRC or frame errors, or runs at half duplex: only then is a cable or duplex named.
    bool physicalFaultSeen() const;
    /// The far host's interface counted CRC or frame errors, or it runs at half duplex.
    bool remotePhysicalFaultSeen() const;
    /// The traffic never left this computer (loopback): no cable, no switch.
    bool noWire() const;
};

/// Turns evidence into the plain-words verdicts: warnings for one run, one sentence per test.
class Bottleneck
{
public:
    /// The one sentence naming what most likely limited the test. Pure function of its inputs.
    static QString sentence(const Evidence &e, const AnalysisThresholds &t = {});
    /// Warnings for a result that cannot be right or is far below what the link allows. Pure.
    static QStringList warnings(const Evidence &e, const AnalysisThresholds &t = {});
    /// The likely causes of a shortfall that the evidence supports (empty when none is evident).
    static QStringList evidentCauses(const Evidence &e, const AnalysisThresholds &t = {});

    /// Builds the evidence from the results of one test (its repetitions), reading RunResult::extra
    /// as RunAnalyzer writes it (and rtt_us, retransmits, cpu_remote_percent, disk_MBps from drivers).
    /// Only successful runs count; numeric figures are the median over the runs that have them.
    static Evidence evidenceFrom(const RunResultList &results);
    static Evidence evidenceFrom(const RunResult &result) { return evidenceFrom(RunResultList{result}); }
};

} // namespace wb
