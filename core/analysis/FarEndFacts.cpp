#include "FarEndFacts.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace wb {

namespace {

template <std::size_t N>
bool among(const std::array<std::string_view, N> &list, const std::string &driver)
{
    return std::find(list.begin(), list.end(), driver) != list.end();
}

} // namespace

bool FarEndFacts::isSoftwareDriver(const std::string &driver)
{
    static constexpr std::array<std::string_view, 27> software = {
        "veth",   "bridge", "tun",       "dummy",       "macvlan", "macvtap", "ipvlan", "ipvtap", "802.1Q VLAN Support",
        "vxlan",  "geneve", "wireguard", "openvswitch", "ifb",     "nlmon",   "vrf",    "team",   "gre",
        "ip_gre", "ipip",   "sit",       "ip6_tunnel",  "ip6_gre", "vti",     "xfrm",   "ppp",    "netkit"};
    return among(software, driver);
}

bool FarEndFacts::isParavirtualDriver(const std::string &driver)
{
    static constexpr std::array<std::string_view, 9> paravirtual
        = {"virtio_net", "vmxnet3", "vmxnet", "hv_netvsc", "netvsc", "xen-netfront", "xen_netfront", "vif", "ibmveth"};
    return among(paravirtual, driver);
}

bool FarEndFacts::isEmulatedNicDriver(const std::string &driver)
{
    static constexpr std::array<std::string_view, 8> emulated
        = {"e1000", "e1000e", "8139cp", "8139too", "pcnet32", "ne2k-pci", "tulip", "rtl8139"};
    return among(emulated, driver);
}

std::string FarEndFacts::kindOf(const platform::InterfaceReading &f)
{
    if (!f.error.empty())
        return "unknown";
    if (f.loopback)
        return "loopback";
    if (f.lowerMissing || (f.isVirtual && !f.bond) || isSoftwareDriver(f.driver))
        return "virtual";
    if (isParavirtualDriver(f.driver) || (f.hypervisor && isEmulatedNicDriver(f.driver)))
        return "vm";
    return "hardware";
}

double FarEndFacts::trustedSpeedMbps(const platform::InterfaceReading &f)
{
    return kindOf(f) == "hardware" && f.speedMbps > 0 ? f.speedMbps : 0;
}

nlohmann::json FarEndFacts::interfaceJson(const std::string &name, const platform::InterfaceReading &r)
{
    nlohmann::json o{{"version", kInterfaceJsonVersion},
                     {"name", name},
                     {"device", r.device.empty() ? name : r.device},
                     {"driver", r.driver},
                     {"loopback", r.loopback},
                     {"virtual", r.isVirtual},
                     {"bond", r.bond},
                     {"lower_missing", r.lowerMissing},
                     {"hypervisor", r.hypervisor},
                     {"duplex", r.duplex}};
    if (r.speedMbps > 0)
        o["speed_mbps"] = r.speedMbps;
    if (r.mtu > 0)
        o["mtu"] = r.mtu;
    if (!r.error.empty())
        o["error"] = r.error.substr(0, 200);
    return o;
}

nlohmann::json FarEndFacts::dropsJson(const platform::DropReading &d)
{
    nlohmann::json o{
        {"version", kDropsJsonVersion}, {"interface", d.interfaceName}, {"qdisc", d.qdiscKinds}, {"duplex", d.duplex}};
    for (const platform::DropReading::Field &f : platform::DropReading::fields()) {
        if (d.*f.member >= 0)
            o[f.name] = d.*f.member;
    }
    if (!d.shaper.empty())
        o["shaper"] = d.shaper;
    if (!d.error.empty())
        o["error"] = d.error;
    return o;
}

} // namespace wb
