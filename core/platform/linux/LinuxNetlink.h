#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include <linux/netlink.h>

namespace wb::platform {

/// One netlink exchange: a request out, every answer message to a callback until the kernel says done (a dump's
/// NLMSG_DONE, or the acknowledgement of a single request). The socket is opened by the calling thread, so it asks
/// that thread's network namespace (a thread that entered another one with setns(2) sees its own interfaces here,
/// where sysfs would show the old ones).
class LinuxNetlink
{
public:
    /// protocol: NETLINK_SOCK_DIAG, NETLINK_ROUTE; request: a whole message (nlmsghdr first, with NLM_F_DUMP or
    /// NLM_F_ACK set, so that the kernel says when it is done); name: how an error calls the service ("sock_diag",
    /// "rtnetlink"). False with *error on any failure, *err (when given) its errno.
    static bool exchange(int protocol, const void *request, std::size_t length, const char *name,
                         const std::function<void(const nlmsghdr *)> &each, std::string *error, int *err = nullptr);
    /// A dump request of message type with body (a tcmsg, an ifinfomsg, an inet_diag_req_v2) after the header.
    template <typename Body>
    static bool dump(int protocol, std::uint16_t type, const Body &body, const char *name,
                     const std::function<void(const nlmsghdr *)> &each, std::string *error)
    {
        return send(protocol, type, NLM_F_DUMP, body, name, each, error, nullptr);
    }
    /// A single request of message type with body (one object the body names, not a walk over all of them): its
    /// answers to each, then the kernel's acknowledgement. *err: the errno of a refusal (ENOENT: no such object).
    template <typename Body>
    static bool request(int protocol, std::uint16_t type, const Body &body, const char *name,
                        const std::function<void(const nlmsghdr *)> &each, std::string *error, int *err)
    {
        return send(protocol, type, NLM_F_ACK, body, name, each, error, err);
    }

private:
    template <typename Body>
    static bool send(int protocol, std::uint16_t type, std::uint16_t flags, const Body &body, const char *name,
                     const std::function<void(const nlmsghdr *)> &each, std::string *error, int *err)
    {
        struct
        {
            nlmsghdr nlh;
            Body body;
        } req{};
        req.nlh.nlmsg_len = sizeof(req);
        req.nlh.nlmsg_type = type;
        req.nlh.nlmsg_flags = std::uint16_t(NLM_F_REQUEST | flags);
        req.body = body;
        return exchange(protocol, &req, sizeof(req), name, each, error, err);
    }
};

} // namespace wb::platform
