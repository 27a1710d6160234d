#include "DropCounters.h"

namespace wb::platform {

const std::vector<DropReading::Field> &DropReading::fields()
{
    using K = Kind;
    static const std::vector<Field> table = {
        {"qdisc_drops", &DropReading::qdiscDrops, K::Counter},
        {"qdisc_overlimits", &DropReading::qdiscOverlimits, K::Counter},
        {"qdisc_backlog_bytes", &DropReading::qdiscBacklogBytes, K::Level},
        {"qdisc_backlog_packets", &DropReading::qdiscBacklogPackets, K::Level},
        {"shaper_rate_bytes_per_second", &DropReading::shaperRateBytesPerSecond, K::Setting},
        {"backlog_drops", &DropReading::backlogDrops, K::Counter},
        {"time_squeeze", &DropReading::timeSqueeze, K::Counter},
        {"netdev_max_backlog", &DropReading::netdevMaxBacklog, K::Setting},
        {"rx_dropped", &DropReading::rxDropped, K::Counter},
        {"rx_missed_errors", &DropReading::rxMissedErrors, K::Counter},
        {"rx_fifo_errors", &DropReading::rxFifoErrors, K::Counter},
        {"tx_dropped", &DropReading::txDropped, K::Counter},
        {"rx_crc_errors", &DropReading::rxCrcErrors, K::Counter},
        {"rx_frame_errors", &DropReading::rxFrameErrors, K::Counter},
        {"TCPBacklogDrop", &DropReading::tcpBacklogDrop, K::Counter},
        {"PruneCalled", &DropReading::tcpPruneCalled, K::Counter},
        {"RcvPruned", &DropReading::tcpRcvPruned, K::Counter},
        {"OfoPruned", &DropReading::tcpOfoPruned, K::Counter},
        {"TCPRcvQDrop", &DropReading::tcpRcvQDrop, K::Counter},
        {"ListenDrops", &DropReading::tcpListenDrops, K::Counter},
        {"ListenOverflows", &DropReading::tcpListenOverflows, K::Counter},
        {"TCPReqQFullDrop", &DropReading::tcpReqQFullDrop, K::Counter},
    };
    return table;
}

DropReading DropReading::delta(const DropReading &before, const DropReading &after)
{
    DropReading d = after;
    for (const Field &f : fields()) {
        if (f.kind != Kind::Counter)
            continue;
        const std::int64_t a = after.*f.member, b = before.*f.member;
        d.*f.member = a >= 0 && b >= 0 && a >= b ? a - b : -1;
    }
    if (!before.error.empty() && before.error != after.error)
        d.error = after.error.empty() ? before.error : before.error + "; " + after.error;
    return d;
}

} // namespace wb::platform
