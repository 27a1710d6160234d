#include "LinuxDropCounters.h"

#include "platform/Platform.h"
#include "platform/linux/LinuxFiles.h"
#include "platform/linux/LinuxNetlink.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <set>
#include <vector>

#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>

namespace wb::platform {

namespace {

/// One qdisc as a dump lists it.
struct Qdisc
{
    std::string kind;
    std::uint32_t handle = 0;
    std::uint32_t parent = 0;
    gnet_stats_queue queue{};
    bool haveQueue = false;
    std::uint64_t rate = 0; ///< bytes/s that it lets out (tbf, cake, netem); 0 = no rate of its own
};

/// The nested attributes of one rtattr's payload, from offset skip (netem puts its struct first).
template <typename F>
void eachNested(const rtattr *a, std::size_t skip, F &&f)
{
    if (RTA_PAYLOAD(a) < RTA_ALIGN(skip))
        return;
    int len = int(RTA_PAYLOAD(a) - RTA_ALIGN(skip));
    for (auto *n = reinterpret_cast<const rtattr *>(static_cast<const char *>(RTA_DATA(a)) + RTA_ALIGN(skip));
         RTA_OK(n, len); n = RTA_NEXT(n, len))
        f(n);
}

template <typename T>
bool payloadAs(const rtattr *a, T *out)
{
    if (RTA_PAYLOAD(a) < sizeof(T))
        return false;
    std::memcpy(out, RTA_DATA(a), sizeof(T));
    return true;
}

} // namespace

// As tc prints it ("rate 40Mbit"): the 64-bit attribute when the kernel sent one (rates from 4 GB/s), else the 32-bit
// field of its parameters.
std::uint64_t LinuxDropCounters::rateOf(const std::string &kind, const rtattr *options)
{
    std::uint64_t rate32 = 0, rate64 = 0;
    if (kind == "tbf") {
        eachNested(options, 0, [&](const rtattr *n) {
            tc_tbf_qopt q{};
            std::uint64_t r = 0;
            if (n->rta_type == TCA_TBF_PARMS && payloadAs(n, &q))
                rate32 = q.rate.rate;
            else if (n->rta_type == TCA_TBF_RATE64 && payloadAs(n, &r))
                rate64 = r;
        });
    } else if (kind == "netem") {
        eachNested(options, sizeof(tc_netem_qopt), [&](const rtattr *n) {
            tc_netem_rate q{};
            std::uint64_t r = 0;
            if (n->rta_type == TCA_NETEM_RATE && payloadAs(n, &q))
                rate32 = q.rate;
            else if (n->rta_type == TCA_NETEM_RATE64 && payloadAs(n, &r))
                rate64 = r;
        });
    } else if (kind == "cake") {
        eachNested(options, 0, [&](const rtattr *n) {
            std::uint64_t r = 0;
            if (n->rta_type == TCA_CAKE_BASE_RATE64 && payloadAs(n, &r))
                rate64 = r;
        });
    }
    return rate64 > 0 ? rate64 : rate32;
}

namespace {

/// The highest ceil of the htb classes of interface index: no traffic through that htb leaves faster. 0 when
/// the classes cannot be read or none has a ceil.
std::uint64_t htbCeiling(unsigned index, std::uint32_t htbHandle)
{
    tcmsg req{};
    req.tcm_family = AF_UNSPEC;
    req.tcm_ifindex = int(index);
    std::uint64_t highest = 0;
    std::string error;
    LinuxNetlink::dump(
        NETLINK_ROUTE, RTM_GETTCLASS, req, "rtnetlink",
        [&](const nlmsghdr *h) {
            if (h->nlmsg_type != RTM_NEWTCLASS || h->nlmsg_len < NLMSG_LENGTH(sizeof(tcmsg)))
                return;
            const auto *t = static_cast<const tcmsg *>(NLMSG_DATA(h));
            if (unsigned(t->tcm_ifindex) != index || TC_H_MAJ(t->tcm_handle) != TC_H_MAJ(htbHandle))
                return;
            std::uint64_t ceil32 = 0, ceil64 = 0;
            int len = int(h->nlmsg_len - NLMSG_LENGTH(sizeof(*t)));
            for (auto *a
                 = reinterpret_cast<const rtattr *>(reinterpret_cast<const char *>(t) + NLMSG_ALIGN(sizeof(*t)));
                 RTA_OK(a, len); a = RTA_NEXT(a, len)) {
                if (a->rta_type != TCA_OPTIONS)
                    continue;
                eachNested(a, 0, [&](const rtattr *n) {
                    tc_htb_opt o{};
                    std::uint64_t r = 0;
                    if (n->rta_type == TCA_HTB_PARMS && payloadAs(n, &o))
                        ceil32 = o.ceil.rate;
                    else if (n->rta_type == TCA_HTB_CEIL64 && payloadAs(n, &r))
                        ceil64 = r;
                });
            }
            highest = std::max(highest, ceil64 > 0 ? ceil64 : ceil32);
        },
        &error);
    return highest;
}

void readQdiscStats(const rtattr *stats2, Qdisc *q)
{
    int len = int(RTA_PAYLOAD(stats2));
    for (auto *a = static_cast<const rtattr *>(RTA_DATA(stats2)); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
        if (a->rta_type == TCA_STATS_QUEUE) {
            std::memcpy(&q->queue, RTA_DATA(a), std::min<size_t>(RTA_PAYLOAD(a), sizeof(q->queue)));
            q->haveQueue = true;
        }
    }
}

Qdisc qdiscOf(const nlmsghdr *h)
{
    const auto *t = static_cast<const tcmsg *>(NLMSG_DATA(h));
    Qdisc q;
    q.handle = t->tcm_handle;
    q.parent = t->tcm_parent;
    int len = int(h->nlmsg_len - NLMSG_LENGTH(sizeof(*t)));
    for (auto *a = reinterpret_cast<const rtattr *>(reinterpret_cast<const char *>(t) + NLMSG_ALIGN(sizeof(*t)));
         RTA_OK(a, len); a = RTA_NEXT(a, len)) {
        const auto *data = static_cast<const char *>(RTA_DATA(a));
        if (a->rta_type == TCA_KIND)
            q.kind = std::string(data, ::strnlen(data, RTA_PAYLOAD(a)));
        else if (a->rta_type == TCA_STATS2)
            readQdiscStats(a, &q);
        else if (a->rta_type == TCA_OPTIONS)
            q.rate = LinuxDropCounters::rateOf(q.kind, a);   // TCA_KIND comes first in the kernel's message
        else if (a->rta_type == TCA_STATS && !q.haveQueue) { // kernels without TCA_STATS2
            tc_stats s{};
            std::memcpy(&s, RTA_DATA(a), std::min<size_t>(RTA_PAYLOAD(a), sizeof(s)));
            q.queue.drops = s.drops;
            q.queue.overlimits = s.overlimits;
            q.queue.backlog = s.backlog;
            q.queue.qlen = s.qlen;
            q.haveQueue = true;
        }
    }
    return q;
}

/// The qdiscs of interface index, summed as `tc -s qdisc` would be read by eye: each queue that no other
/// queue sits under (a classful parent repeats its children's drops: mq sums them, htb and tbf count them
/// again) and the ingress queue (its filters' drops).
void readQdiscs(unsigned index, DropReading *r, std::vector<std::string> *errors)
{
    tcmsg req{};
    req.tcm_family = AF_UNSPEC;
    req.tcm_ifindex = int(index);
    std::vector<Qdisc> all;
    std::string error;
    const bool ok = LinuxNetlink::dump(
        NETLINK_ROUTE, RTM_GETQDISC, req, "rtnetlink",
        [&](const nlmsghdr *h) {
            if (h->nlmsg_type == RTM_NEWQDISC && h->nlmsg_len >= NLMSG_LENGTH(sizeof(tcmsg))
                && unsigned(static_cast<const tcmsg *>(NLMSG_DATA(h))->tcm_ifindex) == index)
                all.push_back(qdiscOf(h));
        },
        &error);
    if (!ok) {
        errors->push_back("the qdiscs: " + error);
        return;
    }
    std::set<std::uint32_t> parents; // majors of the qdiscs something sits under
    for (const Qdisc &q : all) {
        if (q.parent != TC_H_ROOT && q.parent != TC_H_INGRESS)
            parents.insert(TC_H_MAJ(q.parent));
    }
    // The shaper: the lowest rate among the qdiscs that have one (a netem under a tbf, say); an htb's is its
    // classes' highest ceil.
    for (Qdisc &q : all) {
        if (q.kind == "htb")
            q.rate = htbCeiling(index, q.handle);
        if (q.rate > 0 && q.parent != TC_H_INGRESS
            && (r->shaperRateBytesPerSecond < 0 || q.rate < std::uint64_t(r->shaperRateBytesPerSecond))) {
            r->shaperRateBytesPerSecond = std::int64_t(std::min<std::uint64_t>(q.rate, INT64_MAX));
            r->shaper = q.kind;
        }
    }
    r->qdiscDrops = r->qdiscOverlimits = r->qdiscBacklogBytes = r->qdiscBacklogPackets = 0;
    for (const Qdisc &q : all) {
        if (!q.haveQueue || (q.parent != TC_H_INGRESS && parents.count(TC_H_MAJ(q.handle))))
            continue;
        r->qdiscDrops += q.queue.drops;
        r->qdiscOverlimits += q.queue.overlimits;
        r->qdiscBacklogBytes += q.queue.backlog;
        r->qdiscBacklogPackets += q.queue.qlen;
        r->qdiscKinds += (r->qdiscKinds.empty() ? "" : " ") + q.kind;
    }
}

/// The interface's own counters (those of /sys/class/net/IF/statistics and `ip -s link`).
void readLink(unsigned index, DropReading *r, std::vector<std::string> *errors)
{
    ifinfomsg req{};
    req.ifi_family = AF_UNSPEC;
    bool found = false;
    std::string error;
    const bool ok = LinuxNetlink::dump(
        NETLINK_ROUTE, RTM_GETLINK, req, "rtnetlink",
        [&](const nlmsghdr *h) {
            if (h->nlmsg_type != RTM_NEWLINK || h->nlmsg_len < NLMSG_LENGTH(sizeof(ifinfomsg)))
                return;
            const auto *i = static_cast<const ifinfomsg *>(NLMSG_DATA(h));
            if (unsigned(i->ifi_index) != index)
                return;
            int len = int(IFLA_PAYLOAD(h));
            for (auto *a = IFLA_RTA(i); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
                if (a->rta_type != IFLA_STATS64)
                    continue;
                rtnl_link_stats64 s{};
                std::memcpy(&s, RTA_DATA(a), std::min<size_t>(RTA_PAYLOAD(a), sizeof(s)));
                r->rxDropped = std::int64_t(s.rx_dropped);
                r->rxMissedErrors = std::int64_t(s.rx_missed_errors);
                r->rxFifoErrors = std::int64_t(s.rx_fifo_errors);
                r->txDropped = std::int64_t(s.tx_dropped);
                r->rxCrcErrors = std::int64_t(s.rx_crc_errors);
                r->rxFrameErrors = std::int64_t(s.rx_frame_errors);
                found = true;
            }
        },
        &error);
    if (!ok)
        errors->push_back("the interface's counters: " + error);
    else if (!found)
        errors->push_back("the interface's counters: rtnetlink gave none");
}

std::int64_t readNumber(const std::string &path)
{
    const std::string text = LinuxFiles::readTrimmed(path);
    std::int64_t v = -1;
    const auto [at, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && at == text.data() + text.size() && !text.empty() ? v : -1;
}

} // namespace

bool LinuxDropCounters::parseSoftnet(const std::string &text, std::int64_t *dropped, std::int64_t *timeSqueeze)
{
    std::int64_t d = 0, s = 0;
    bool any = false;
    for (const std::string &line : LinuxFiles::lines(text)) {
        const std::vector<std::string> words = LinuxFiles::words(line);
        if (words.size() < 3)
            continue;
        const std::string &drop = words[1], &squeeze = words[2];
        std::uint32_t a = 0, b = 0;
        const auto r1 = std::from_chars(drop.data(), drop.data() + drop.size(), a, 16);
        const auto r2 = std::from_chars(squeeze.data(), squeeze.data() + squeeze.size(), b, 16);
        if (r1.ec != std::errc() || r2.ec != std::errc())
            return false;
        d += a;
        s += b;
        any = true;
    }
    if (!any)
        return false;
    *dropped = d;
    *timeSqueeze = s;
    return true;
}

std::map<std::string, std::int64_t> LinuxDropCounters::parseTcpExt(const std::string &text)
{
    std::map<std::string, std::int64_t> out;
    std::vector<std::string> names;
    for (const std::string &line : LinuxFiles::lines(text)) {
        if (line.rfind("TcpExt:", 0) != 0)
            continue;
        const std::vector<std::string> row = LinuxFiles::words(line.substr(7));
        if (names.empty()) { // the first line names the columns, the second holds the values
            names = row;
            continue;
        }
        for (size_t i = 0; i < std::min(names.size(), row.size()); ++i) {
            std::int64_t v = 0;
            const auto [at, ec] = std::from_chars(row[i].data(), row[i].data() + row[i].size(), v);
            if (ec == std::errc() && at == row[i].data() + row[i].size())
                out[names[i]] = v;
        }
        break;
    }
    return out;
}

void LinuxDropCounters::takeTcpExt(const std::map<std::string, std::int64_t> &tcpExt, DropReading *r)
{
    for (const DropReading::Field &f : DropReading::fields()) {
        const std::string name = f.name;
        if (name.empty() || !std::isupper(static_cast<unsigned char>(name.front())))
            continue; // the TcpExt fields carry the kernel's CamelCase names, the others are snake_case
        if (const auto it = tcpExt.find(name); it != tcpExt.end())
            r->*f.member = it->second;
    }
}

DropReading LinuxDropCounters::read(const std::string &interfaceName) const
{
    DropReading r;
    r.interfaceName = interfaceName;
    std::vector<std::string> errors;
    if (!interfaceName.empty()) {
        const unsigned index = interfaceName.size() < IFNAMSIZ ? ::if_nametoindex(interfaceName.c_str()) : 0;
        if (index == 0) {
            errors.push_back("interface " + interfaceName + " does not exist in this network namespace");
        } else {
            readQdiscs(index, &r, &errors);
            readLink(index, &r, &errors);
            r.duplex = Platform::interfaces().read(interfaceName).duplex;
        }
    }
    // thread-self: the namespace of this thread, which a lab thread may have entered with setns(2).
    if (!parseSoftnet(LinuxFiles::read("/proc/thread-self/net/softnet_stat"), &r.backlogDrops, &r.timeSqueeze))
        errors.push_back("/proc/net/softnet_stat could not be read");
    const std::map<std::string, std::int64_t> tcpExt = parseTcpExt(LinuxFiles::read("/proc/thread-self/net/netstat"));
    if (tcpExt.empty())
        errors.push_back("/proc/net/netstat has no TcpExt counters");
    takeTcpExt(tcpExt, &r);
    r.netdevMaxBacklog = readNumber("/proc/sys/net/core/netdev_max_backlog");
    for (const std::string &e : errors)
        r.error += (r.error.empty() ? "" : "; ") + e;
    return r;
}

} // namespace wb::platform
