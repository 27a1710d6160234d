#include "LinuxInterfaces.h"

#include "platform/linux/LinuxFiles.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <vector>

#include <dirent.h>
#include <ifaddrs.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb::platform {

namespace {

constexpr int kMaxDepth = 4; // VLAN on a macvlan on a bond is as deep as real set-ups go
const std::string kClassNet = "/sys/class/net/";

/// A whole number in text; false when the text is not exactly one.
template <typename T>
bool parseNumber(const std::string &text, T *value)
{
    const char *end = text.data() + text.size();
    const auto [at, ec] = std::from_chars(text.data(), end, *value);
    return ec == std::errc() && at == end && !text.empty();
}

/// An ethtool ioctl on interface name (works without privileges, in this thread's network namespace).
bool ethtool(const std::string &name, void *data)
{
    if (name.empty() || name.size() >= IFNAMSIZ)
        return false;
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return false;
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, name.data(), name.size());
    ifr.ifr_data = static_cast<char *>(data);
    const bool ok = ::ioctl(fd, SIOCETHTOOL, &ifr) == 0;
    ::close(fd);
    return ok;
}

std::string driverOf(const std::string &name)
{
    ethtool_drvinfo info{};
    info.cmd = ETHTOOL_GDRVINFO;
    if (ethtool(name, &info) && info.driver[0] != '\0')
        return std::string(info.driver, ::strnlen(info.driver, sizeof(info.driver)));
    // No ethtool support: the bound driver's name, for hardware.
    const std::string bound = LinuxFiles::canonical(kClassNet + name + "/device/driver");
    return bound.substr(bound.rfind('/') + 1);
}

bool isLoopbackByFlags(const std::string &name)
{
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || name.empty() || name.size() >= IFNAMSIZ) {
        if (fd >= 0)
            ::close(fd);
        return false;
    }
    ifreq ifr{};
    std::memcpy(ifr.ifr_name, name.data(), name.size());
    const bool loop = ::ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_LOOPBACK);
    ::close(fd);
    return loop;
}

bool underHypervisor()
{
    static const bool flag = [] {
        if (!LinuxFiles::readTrimmed("/sys/hypervisor/type").empty())
            return true;
        // One read and a search, not an ifstream (iostreams wake libstdc++'s locales in the small wirebenchd).
        const std::string cpuinfo = LinuxFiles::read("/proc/cpuinfo");
        for (std::size_t at = 0; at < cpuinfo.size();) {
            const std::size_t end = std::min(cpuinfo.find('\n', at), cpuinfo.size());
            const std::string line = cpuinfo.substr(at, end - at);
            if (line.rfind("flags", 0) == 0 && line.find(" hypervisor") != std::string::npos)
                return true;
            at = end + 1;
        }
        return false;
    }();
    return flag;
}

/// sysfs shows the network namespace it was mounted in: believe it only when the interface there is the one
/// this namespace calls so.
bool sysfsShows(const std::string &name)
{
    const std::string base = kClassNet + name;
    if (!LinuxFiles::exists(base))
        return false;
    const unsigned index = ::if_nametoindex(name.c_str());
    unsigned shown = 0;
    if (!parseNumber(LinuxFiles::readTrimmed(base + "/ifindex"), &shown))
        shown = 0;
    return index != 0 && shown == index;
}

/// The interface is in this namespace but sysfs shows another one: what ethtool alone says.
void readByIoctl(const std::string &name, InterfaceReading *f)
{
    f->device = name;
    f->loopback = isLoopbackByFlags(name);
    f->driver = driverOf(name);
    ethtool_cmd cmd{};
    cmd.cmd = ETHTOOL_GSET;
    if (ethtool(name, &cmd)) {
        const std::uint32_t speed = ethtool_cmd_speed(&cmd);
        if (speed > 0 && speed != std::uint32_t(SPEED_UNKNOWN))
            f->speedMbps = speed;
        if (cmd.duplex == DUPLEX_FULL)
            f->duplex = "full";
        else if (cmd.duplex == DUPLEX_HALF)
            f->duplex = "half";
    }
}

void readSpeed(const std::string &base, InterfaceReading *f)
{
    const std::string text = LinuxFiles::readTrimmed(base + "/speed");
    char *end = nullptr;
    const double speed = text.empty() ? 0 : std::strtod(text.c_str(), &end);
    const bool ok = !text.empty() && end != nullptr && *end == '\0';
    if (ok && speed > 0 && speed < 4294967295.0) // (u32)-1 is SPEED_UNKNOWN
        f->speedMbps = speed;
    const std::string d = LinuxFiles::readTrimmed(base + "/duplex");
    if (d == "full" || d == "half")
        f->duplex = d;
}

/// The lower_* entries of a stacked device's sysfs folder (symbolic links to its lower devices).
std::vector<std::string> lowerDevices(const std::string &base)
{
    std::vector<std::string> out;
    DIR *dir = ::opendir(base.c_str());
    if (dir == nullptr)
        return out;
    while (const dirent *e = ::readdir(dir)) {
        const std::string entry = e->d_name;
        if (entry.rfind("lower_", 0) == 0 && (e->d_type == DT_LNK || e->d_type == DT_DIR))
            out.push_back(entry.substr(6));
    }
    ::closedir(dir);
    return out;
}

} // namespace

InterfaceReading LinuxInterfaces::read(const std::string &name) const
{
    InterfaceReading f;
    f.device = name;
    f.hypervisor = underHypervisor();
    if (name.empty() || name.find('/') != std::string::npos) {
        f.error = "no interface name";
        return f;
    }
    if (!sysfsShows(name)) {
        if (::if_nametoindex(name.c_str()) == 0) {
            f.error = "interface " + name + " does not exist in this network namespace";
            return f;
        }
        readByIoctl(name, &f);
        return f;
    }
    // The MTU of the interface the traffic uses, not of its lower device: a VLAN may be set below its NIC.
    const std::string mtu = LinuxFiles::readTrimmed(kClassNet + name + "/mtu");
    if (std::from_chars(mtu.data(), mtu.data() + mtu.size(), f.mtu).ec != std::errc() || f.mtu < 0)
        f.mtu = 0;
    std::string dev = name;
    for (int depth = 0; depth < kMaxDepth; ++depth) {
        const std::string base = kClassNet + dev;
        f.device = dev;
        f.driver = driverOf(dev);
        f.loopback = LinuxFiles::readTrimmed(base + "/type") == "772"; // ARPHRD_LOOPBACK
        f.isVirtual = LinuxFiles::canonical(base).find("/virtual/") != std::string::npos;
        f.bond = LinuxFiles::exists(base + "/bonding");
        if (f.isVirtual && !f.bond && !f.loopback) {
            // A VLAN or macvlan runs at its lower device's speed: follow it when there is exactly one.
            const std::vector<std::string> lower = lowerDevices(base);
            if (lower.size() == 1 && LinuxFiles::exists(kClassNet + lower.front())) {
                dev = lower.front();
                continue;
            }
            static const std::array<const char *, 5> stacked
                = {"macvlan", "macvtap", "ipvlan", "ipvtap", "802.1Q VLAN Support"};
            f.lowerMissing = lower.empty() && std::find(stacked.begin(), stacked.end(), f.driver) != stacked.end();
        }
        readSpeed(base, &f);
        return f;
    }
    f.error = "interface " + name + " sits on too many layers of virtual devices";
    return f;
}

std::optional<InterfaceErrors> LinuxInterfaces::errors(const std::string &name) const
{
    if (name.empty() || name.find('/') != std::string::npos || !sysfsShows(name))
        return std::nullopt;
    const std::string base = kClassNet + name + "/statistics/";
    InterfaceErrors e;
    if (!parseNumber(LinuxFiles::readTrimmed(base + "rx_crc_errors"), &e.crcErrors)
        || !parseNumber(LinuxFiles::readTrimmed(base + "rx_frame_errors"), &e.frameErrors))
        return std::nullopt;
    return e;
}

std::string LinuxInterfaces::holding(const IpAddress &asked) const
{
    const IpAddress address = unmappedAddress(asked);
    ifaddrs *list = nullptr;
    if (::getifaddrs(&list) != 0)
        return {};
    std::string name;
    for (ifaddrs *i = list; i && name.empty(); i = i->ifa_next) {
        if (!i->ifa_addr)
            continue;
        if (i->ifa_addr->sa_family == AF_INET && address.family == IpAddress::Family::V4) {
            if (std::memcmp(&reinterpret_cast<const sockaddr_in *>(i->ifa_addr)->sin_addr, address.bytes.data(), 4)
                == 0)
                name = i->ifa_name;
        } else if (i->ifa_addr->sa_family == AF_INET6 && address.family == IpAddress::Family::V6) {
            if (std::memcmp(&reinterpret_cast<const sockaddr_in6 *>(i->ifa_addr)->sin6_addr, address.bytes.data(), 16)
                == 0)
                name = i->ifa_name;
        }
    }
    ::freeifaddrs(list);
    return name;
}

} // namespace wb::platform
