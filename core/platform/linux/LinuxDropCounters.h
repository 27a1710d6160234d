#pragma once

#include "platform/DropCounters.h"

#include <cstdint>
#include <map>
#include <string>

struct rtattr;

namespace wb::platform {

/// rtnetlink for the qdiscs (RTM_GETQDISC, TCA_STATS2/TCA_STATS_QUEUE) and the interface (RTM_GETLINK,
/// IFLA_STATS64: the figures of /sys/class/net/IF/statistics, asked in the calling thread's namespace),
/// /proc/thread-self/net/softnet_stat and /proc/thread-self/net/netstat (TcpExt), the duplex through
/// platform::Interfaces, and /proc/sys/net/core/netdev_max_backlog (only the first namespace shows it).
class LinuxDropCounters : public DropCounters
{
public:
    DropReading read(const std::string &interfaceName) const override;

    /// The text of softnet_stat: each CPU's dropped (2nd) and time_squeeze (3rd) columns, in hex, summed.
    static bool parseSoftnet(const std::string &text, std::int64_t *dropped, std::int64_t *timeSqueeze);
    /// The text of /proc/net/netstat: the "TcpExt:" name line and its value line, as name -> value.
    static std::map<std::string, std::int64_t> parseTcpExt(const std::string &text);
    /// The TcpExt counters of interest from parseTcpExt's map into r (those missing stay -1).
    static void takeTcpExt(const std::map<std::string, std::int64_t> &tcpExt, DropReading *r);
    /// The rate a qdisc of `kind` lets out, bytes/s, from its TCA_OPTIONS attribute as the kernel sends it (tbf's
    /// parameters, netem's rate after its struct, cake's base rate; the 64-bit attribute where there is one); 0 when it
    /// has none of its own.
    static std::uint64_t rateOf(const std::string &kind, const rtattr *options);
};

} // namespace wb::platform
