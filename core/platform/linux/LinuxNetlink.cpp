#include "LinuxNetlink.h"

#include <cerrno>
#include <cstring>

#include <linux/netlink.h>
#include <sys/socket.h>
#include <unistd.h>

namespace wb::platform {

namespace {

std::string failure(const char *name, const char *what, int err)
{
    return std::string(name) + " " + what + " (" + std::strerror(err) + ")";
}

} // namespace

bool LinuxNetlink::exchange(int protocol, const void *request, std::size_t length, const char *name,
                            const std::function<void(const nlmsghdr *)> &each, std::string *error, int *err)
{
    if (err)
        *err = 0;
    const int fd = ::socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, protocol);
    if (fd < 0) {
        if (err)
            *err = errno;
        *error = std::string(name) + " netlink is not available (" + std::strerror(errno) + ")";
        return false;
    }
    sockaddr_nl kernel{};
    kernel.nl_family = AF_NETLINK;
    if (::sendto(fd, request, length, 0, reinterpret_cast<sockaddr *>(&kernel), sizeof(kernel)) < 0) {
        if (err)
            *err = errno;
        *error = failure(name, "request failed", errno);
        ::close(fd);
        return false;
    }
    alignas(nlmsghdr) char buf[32768];
    bool done = false;
    bool ok = true;
    while (!done) {
        const ssize_t n = ::recv(fd, buf, sizeof(buf), 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (err)
                *err = n < 0 ? errno : EPIPE;
            *error = failure(name, "answer could not be read", n < 0 ? errno : EPIPE);
            ok = false;
            break;
        }
        int len = int(n);
        for (auto *h = reinterpret_cast<nlmsghdr *>(buf); NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
            if (h->nlmsg_type == NLMSG_DONE) {
                done = true;
                break;
            }
            if (h->nlmsg_type == NLMSG_ERROR) { // error 0: the acknowledgement of a single request
                const auto *e = static_cast<const nlmsgerr *>(NLMSG_DATA(h));
                done = true;
                if (e->error != 0) {
                    *error = failure(name, "refused the request", -e->error);
                    if (err)
                        *err = -e->error;
                    ok = false;
                }
                break;
            }
            each(h);
        }
    }
    ::close(fd);
    return ok;
}

} // namespace wb::platform
