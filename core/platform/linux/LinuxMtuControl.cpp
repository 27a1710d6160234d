#include "LinuxMtuControl.h"

#include <cerrno>
#include <cstring>

#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace wb::platform {

namespace {

/// The first maxChars characters of UTF-8 text (a name quoted in a message is cut, not its last character).
std::string leftChars(const std::string &text, size_t maxChars)
{
    size_t chars = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        // A UTF-16 unit per character below U+10000, two above (a 4-byte sequence): as a QString counts.
        const unsigned char c = static_cast<unsigned char>(text[i]);
        if ((c & 0xC0) == 0x80)
            continue;
        chars += c >= 0xF0 ? 2 : 1;
        if (chars > maxChars)
            return text.substr(0, i);
    }
    return text;
}

bool ifreqFor(const std::string &iface, ifreq *r, std::string *error)
{
    if (iface.empty() || iface.size() >= IFNAMSIZ) {
        *error = "\"" + leftChars(iface, 40) + "\" is not an interface name";
        return false;
    }
    std::memset(r, 0, sizeof(*r));
    std::memcpy(r->ifr_name, iface.data(), iface.size());
    return true;
}

} // namespace

int LinuxMtuControl::mtu(const std::string &iface) const
{
    ifreq r;
    std::string e;
    if (!ifreqFor(iface, &r, &e))
        return 0;
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    const int rc = ::ioctl(fd, SIOCGIFMTU, &r);
    ::close(fd);
    return rc == 0 ? r.ifr_mtu : 0;
}

bool LinuxMtuControl::setMtu(const std::string &iface, int mtu, std::string *error) const
{
    ifreq r;
    if (!ifreqFor(iface, &r, error))
        return false;
    if (mtu < 68 || mtu > 65535) {
        *error = "MTU " + std::to_string(mtu) + " is out of range (68 to 65535 bytes)";
        return false;
    }
    r.ifr_mtu = mtu;
    const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        *error = std::string("cannot open a socket to set the MTU (") + std::strerror(errno) + ")";
        return false;
    }
    const int rc = ::ioctl(fd, SIOCSIFMTU, &r);
    const int err = errno;
    ::close(fd);
    if (rc == 0)
        return true;
    std::string hint;
    if (err == EPERM || err == EACCES)
        hint = ": run Wirebench as root (sudo) to set the interface MTU";
    else if (err == EINVAL)
        hint = ": the interface or its driver does not accept this MTU (check its maximum with 'ip -d link show "
            + iface + "')";
    else if (err == ENODEV)
        hint = ": no such interface here";
    *error = "could not set the MTU of " + iface + " to " + std::to_string(mtu) + " bytes (" + std::strerror(err) + ")"
        + hint;
    return false;
}

bool LinuxMtuControl::privileged() const
{
    return ::geteuid() == 0;
}

std::string LinuxMtuControl::namespaceId() const
{
    struct stat st = {};
    if (::stat("/proc/self/ns/net", &st) != 0)
        return {};
    return std::to_string(static_cast<unsigned long long>(st.st_ino));
}

} // namespace wb::platform
