#pragma once

#include "Bottleneck.h"
#include "DropCounts.h"
#include "CpuMeter.h"
#include "InterfaceMtu.h"
#include "LinkInfo.h"
#include "model/RunResult.h"

#include <QElapsedTimer>
#include <QHash>

namespace wb {

/// The engine's hook for numbers a user can trust. Around each run, on the worker thread:
///   analyzer.beforeRun(spec);  result = driver->run(spec, observer);  analyzer.afterRun(result);
/// beforeRun learns the link to the host (cached per address for the analyzer's lifetime) and starts the
/// CPU meter; afterRun writes CPU, service demand, link, ceiling and percent_of_ceiling into
/// RunResult::extra, adds warnings for figures that cannot be right or are far below the ceiling, and
/// puts the bottleneck sentence over the test's repetitions so far into extra["bottleneck"] (so the
/// last repetition carries the sentence for the whole test). See docs/TRUST.md for every key.
class RunAnalyzer
{
public:
    explicit RunAnalyzer(const AnalysisThresholds &thresholds = {});

    void beforeRun(const RunSpec &spec);
    /// Reads the error and drop counters again and restarts the CPU meter, for an engine that waited between
    /// beforeRun and the driver (the latency probe's idle lead): they then count the run alone.
    void startMeters();
    /// Reads the CPU, error and drop counters at the end of the run's timed part (the driver's meter finished):
    /// what the driver does after it (reading a file back to check it) is not the run's. Without this call,
    /// afterRun reads them.
    void stopMeters();
    void afterRun(RunResult &result);
    /// Forgets the cached links and the repetitions seen (call at the start of a plan).
    void reset();

    /// After beforeRun: why this run's frame size cannot be run towards its host (path or interface
    /// MTU below it), empty when it can. The engine then starts no driver and reports status NotRun
    /// with this as the error. See FramePlanCheck.
    QString notRunReason() const { return m_notRun; }
    /// Call while a run goes on (the engine does on each sample): for drivers that cannot clamp the
    /// MSS (smb-read, smb-write) it reads the MSS of this process's connection to the host's SMB port
    /// through sock_diag, at most every 250 ms, keeping the last figure. afterRun records it (mss or
    /// mss_observed, mss_source).
    void duringRun();
    /// Call when a plan ends (finished, stopped or failed): puts back interface MTUs that
    /// frames.set_interface_mtu changed. Returns one line per interface for the status line.
    QStringList endPlan();

    /// The bottleneck sentence of one test from its results (pure; for the table, report and CLI).
    static QString bottleneckFor(const RunResultList &testResults, const AnalysisThresholds &t = {});
    /// The thresholds with overrides from a plan's TestParams::options
    /// ("analysis.far_below_percent", "analysis.cpu_busy_percent").
    static AnalysisThresholds thresholdsFrom(const QVariantMap &options, AnalysisThresholds base = {});
    /// The kernel's autotuning maxima, the smaller one (platform::TcpTunables; Linux: the third field of tcp_wmem
    /// and tcp_rmem); 0 = unknown.
    static qint64 systemSocketBufferMax();
    /// Whether TCP timestamps are on (Linux: net.ipv4.tcp_timestamps != 0); true where unknown (the common default).
    static bool systemTcpTimestamps();

    /// The far end's link speed by the same rule as ours (LinkTrust): takes the facts the driver got in the
    /// server's hello (extra "remote_link"), keeps remote_link_speed_Mbps only when the rule believes it,
    /// and says why not in remote_link_speed_note. A bare figure without facts (an older wirebenchd) is not
    /// believed. Sets link->remoteSpeedMbps and link->remoteSpeedNote.
    static void judgeRemoteLink(QVariantMap &extra, LinkInfo *link);

    /// The warning for a run whose segments made frames of `used` bytes (from its MSS) instead of the plan's
    /// frame size, naming both, why, and what to do.
    static QString usedFrameWarning(const RunSpec &spec, const LinkInfo &link, int used, int mss);
    /// The route to the host runs over IPv6 (an IPv4-mapped address counts as IPv4).
    static bool isIpv6(const LinkInfo &link);

private:
    static QString testKey(const RunSpec &spec);
    /// ip_version, tcp_timestamps, ceiling_mtu and frame_used from the MSS the run used; the warning when
    /// that is not the plan's frame.
    // afterRun's steps, in its order: the run's CPU cost (ours and the server's), the MSS it used, its link.
    void recordCpu(RunResult &result);
    void recordMss(RunResult &result);
    LinkInfo recordLink(RunResult &result);
    void recordFrame(RunResult &result, const LinkInfo &link);
    void recordErrorCounters(QVariantMap &extra, const LinkInfo &link);
    /// extra["drops"]: what this computer dropped during the run (DropCounts), from the reading beforeRun took.
    void recordDrops(RunResult &result, const LinkInfo &link);

    AnalysisThresholds m_base;
    AnalysisThresholds m_thresholds;
    QHash<QString, LinkInfo> m_links;
    QHash<QString, RunResultList> m_history;
    CpuMeter m_cpu;
    QString m_currentAddress;
    bool m_started = false;
    // What stopMeters() read at the end of the timed part, for afterRun.
    bool m_stopped = false;
    CpuUsage m_cpuAtEnd;
    platform::DropReading m_dropsAtEnd;
    qint64 m_crcAtEnd = -1;
    qint64 m_frameErrorsAtEnd = -1;

    // Frame sizes (docs/FRAMES.md).
    QString m_notRun;                ///< this run's not-run reason
    QStringList m_pendingWarnings;   ///< for this run's result (MTU setter messages)
    InterfaceMtu m_mtu;              ///< frames.set_interface_mtu: what was changed, to restore
    bool m_leftoversChecked = false; ///< restoreLeftovers() done for this plan
    quint16 m_observePort = 0;       ///< SMB port whose connection's MSS to observe; 0 = none
    int m_observedMss = 0;
    QString m_observeNote;
    QElapsedTimer m_sinceObserve;

    // The interface's receive error counters at the start of the run (-1 = unreadable).
    qint64 m_crcBefore = -1;
    qint64 m_frameErrorsBefore = -1;
    // The drop counters at the start of the run (of the interface towards the host, and the whole stack).
    platform::DropReading m_dropsBefore;
    bool m_haveDropsBefore = false;
};

} // namespace wb
