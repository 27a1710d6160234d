#include "WindowsInterfaces.h"

#include "platform/windows/WindowsInterfaceTable.h"
#include "platform/windows/WindowsText.h"

#include <array>
#include <cstring>
#include <string_view>
#include <vector>

#include <cpuid.h>

namespace wb::platform {

namespace {

/// The adapters' descriptions as the Linux driver names that the far end's facts are judged by
/// (FarEndFacts: paravirtual, emulated): "Microsoft Hyper-V Network Adapter" is hv_netvsc. Any other
/// description is passed on as it is.
std::string driverOf(const std::string &description)
{
    struct Known
    {
        std::string_view part;
        const char *driver;
    };
    static constexpr std::array<Known, 6> known = {{{"Hyper-V", "hv_netvsc"},
                                                    {"vmxnet3", "vmxnet3"},
                                                    {"VirtIO", "virtio_net"},
                                                    {"Xen", "xen-netfront"},
                                                    {"PRO/1000 MT", "e1000"},
                                                    {"82574L", "e1000e"}}};
    for (const Known &k : known) {
        if (description.find(k.part) != std::string::npos)
            return k.driver;
    }
    return description;
}

bool underHypervisor()
{
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 31)); // CPUID.1:ECX.hypervisor
}

bool holds(const SOCKADDR *sa, const IpAddress &address)
{
    if (sa->sa_family == AF_INET && address.family == IpAddress::Family::V4)
        return std::memcmp(&reinterpret_cast<const sockaddr_in *>(sa)->sin_addr, address.bytes.data(), 4) == 0;
    if (sa->sa_family == AF_INET6 && address.family == IpAddress::Family::V6)
        return std::memcmp(&reinterpret_cast<const sockaddr_in6 *>(sa)->sin6_addr, address.bytes.data(), 16) == 0;
    return false;
}

} // namespace

InterfaceReading WindowsInterfaces::read(const std::string &name) const
{
    InterfaceReading f;
    f.device = name;
    f.hypervisor = underHypervisor();
    const std::optional<MIB_IF_ROW2> row = WindowsInterfaceTable::row(name);
    if (!row) {
        f.error = "no interface called \"" + name + "\" (GetIfTable2)";
        return f;
    }
    f.driver = driverOf(WindowsText::utf8(row->Description));
    f.loopback = row->Type == IF_TYPE_SOFTWARE_LOOPBACK;
    f.isVirtual = !f.loopback && !row->InterfaceAndOperStatusFlags.HardwareInterface;
    f.mtu = int(row->Mtu);
    // bits/s; the slower direction counts, as a link's speed. All ones is "unknown".
    const ULONG64 speed = std::min(row->ReceiveLinkSpeed, row->TransmitLinkSpeed);
    if (speed > 0 && speed != ~ULONG64(0))
        f.speedMbps = double(speed) / 1e6;
    return f;
}

std::optional<InterfaceErrors> WindowsInterfaces::errors(const std::string &) const
{
    return std::nullopt; // MIB_IF_ROW2 counts receive errors together (InErrors): no CRC or frame errors apart
}

std::string WindowsInterfaces::holding(const IpAddress &asked) const
{
    const IpAddress address = unmappedAddress(asked);
    ULONG size = 16 * 1024;
    std::vector<unsigned char> buffer;
    ULONG rc = ERROR_BUFFER_OVERFLOW;
    for (int attempt = 0; attempt < 3 && rc == ERROR_BUFFER_OVERFLOW; ++attempt) {
        buffer.resize(size);
        rc = ::GetAdaptersAddresses(AF_UNSPEC,
                                    GAA_FLAG_SKIP_ANYCAST | GAA_FLAG_SKIP_MULTICAST | GAA_FLAG_SKIP_DNS_SERVER, nullptr,
                                    reinterpret_cast<IP_ADAPTER_ADDRESSES *>(buffer.data()), &size);
    }
    if (rc != NO_ERROR)
        return {};
    for (auto *a = reinterpret_cast<IP_ADAPTER_ADDRESSES *>(buffer.data()); a; a = a->Next) {
        for (IP_ADAPTER_UNICAST_ADDRESS *u = a->FirstUnicastAddress; u; u = u->Next) {
            if (u->Address.lpSockaddr && holds(u->Address.lpSockaddr, address))
                return WindowsText::utf8(a->FriendlyName);
        }
    }
    return {};
}

} // namespace wb::platform
