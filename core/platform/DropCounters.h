#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wb::platform {

/// Where one end's kernel counted packets it threw away, for the interface towards the other end and for the
/// whole network stack: the qdisc (the interface's queue), the input backlog (packets handed to a CPU faster
/// than it takes them), the interface itself, and TCP. Every figure is -1 when it could not be read. A reading
/// is a snapshot; delta() of two readings is what a run cost. The names in fields() are the JSON names on both
/// ends (RunResult::extra "drops", wirebenchd's result "drops", docs/TRUST.md).
struct DropReading
{
    std::string interfaceName; ///< the interface the qdisc and interface figures are of
    std::string qdiscKinds;    ///< the qdiscs counted ("tbf", "mq fq_codel"); empty when none was read
    /// The qdisc whose rate caps what the interface sends ("tbf", "htb", "cake", "netem"); empty when none does.
    std::string shaper;

    // The qdisc: the queues no other queue of the interface sits under, and the ingress queue (a classful parent
    // counts its children's drops again, mq sums them), as `tc -s qdisc show dev IF` prints them.
    std::int64_t qdiscDrops = -1;
    std::int64_t qdiscOverlimits = -1;
    std::int64_t qdiscBacklogBytes = -1;   ///< a level, not a counter: what was queued when read
    std::int64_t qdiscBacklogPackets = -1; ///< a level, not a counter
    /// A setting: the lowest rate a shaper of the interface lets out, in bytes per second of the packets as the
    /// qdisc counts them (link-layer header included, no preamble or FCS): tbf's rate, the highest ceil of an htb's
    /// classes, cake's bandwidth, netem's rate. -1 when no qdisc of the interface has a rate.
    std::int64_t shaperRateBytesPerSecond = -1;

    // The input backlog of every CPU (not of one interface: the kernel keeps it per CPU, for all namespaces).
    std::int64_t backlogDrops = -1;     ///< packets dropped because a CPU's backlog was full
    std::int64_t timeSqueeze = -1;      ///< times a CPU ran out of its budget with packets left
    std::int64_t netdevMaxBacklog = -1; ///< a setting: the backlog's length (net.core.netdev_max_backlog)

    // The interface, as `ip -s link show dev IF` prints them.
    std::int64_t rxDropped = -1;
    std::int64_t rxMissedErrors = -1;
    std::int64_t rxFifoErrors = -1;
    std::int64_t txDropped = -1;
    std::int64_t rxCrcErrors = -1;
    std::int64_t rxFrameErrors = -1;
    std::string duplex = "unknown"; ///< "full", "half" or "unknown"

    // TCP of the whole network namespace (every connection, not only the test's).
    std::int64_t tcpBacklogDrop = -1; ///< segments dropped as the socket's backlog was full
    std::int64_t tcpPruneCalled = -1; ///< receive queues pruned for lack of memory
    std::int64_t tcpRcvPruned = -1;   ///< segments dropped while pruning
    std::int64_t tcpOfoPruned = -1;   ///< out-of-order segments dropped while pruning
    std::int64_t tcpRcvQDrop = -1;    ///< segments dropped as the receive queue was full
    std::int64_t tcpListenDrops = -1;
    std::int64_t tcpListenOverflows = -1;
    std::int64_t tcpReqQFullDrop = -1;

    std::string error; ///< what could not be read, "; "-joined; empty when all was

    enum class Kind { Counter, Level, Setting };
    struct Field
    {
        const char *name;
        std::int64_t DropReading::*member;
        Kind kind;
    };
    /// Every number above once, with its JSON name: the one table for the delta and both ends' JSON.
    static const std::vector<Field> &fields();
    /// What happened between two readings: after - before for each counter both read (-1 when either did not,
    /// or when it went down: the interface was made anew); levels and settings as after read them.
    static DropReading delta(const DropReading &before, const DropReading &after);
};

/// Reads the drop counters of this thread's network namespace. Linux: the qdiscs over rtnetlink
/// (RTM_GETQDISC), the interface over rtnetlink (RTM_GETLINK, the figures of /sys/class/net/IF/statistics),
/// /proc/net/softnet_stat, /proc/net/netstat (TcpExt); a Windows port would use GetIfEntry2 and
/// GetTcpStatisticsEx.
class DropCounters
{
public:
    virtual ~DropCounters() = default;
    /// The counters with those of interfaceName (its qdisc and its own); an empty name reads the rest only.
    virtual DropReading read(const std::string &interfaceName) const = 0;
};

} // namespace wb::platform
