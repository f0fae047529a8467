// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/node/netlink_dcb.h"

#include "live/node/sysfs_read.h"

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstring>

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

namespace railyard::live::dcb {

namespace {

constexpr std::size_t align4(std::size_t n) { return (n + 3u) & ~std::size_t { 3u }; }

template <class T>
T readStruct(std::span<const std::uint8_t> bytes, std::size_t offset)
{
    T value {};
    std::memcpy(&value, bytes.data() + offset, sizeof(T));
    return value;
}

/// Calls `visit(type, payload)` for each attribute of `bytes`; false when malformed.
template <class Visit>
bool forEachAttribute(std::span<const std::uint8_t> bytes, Visit&& visit)
{
    std::size_t offset = 0;
    while (offset + sizeof(nlattr) <= bytes.size()) {
        const auto attribute = readStruct<nlattr>(bytes, offset);
        if (attribute.nla_len < sizeof(nlattr) || offset + attribute.nla_len > bytes.size())
            return false;
        const auto type = static_cast<std::uint16_t>(attribute.nla_type & NLA_TYPE_MASK);
        visit(type, bytes.subspan(offset + NLA_HDRLEN, attribute.nla_len - NLA_HDRLEN));
        offset += align4(attribute.nla_len);
    }
    // Bytes left that cannot hold an attribute header: the message was cut.
    return offset >= bytes.size();
}

core::Error malformed(const std::string& what)
{
    return core::Error { "DCB_NETLINK", "malformed DCB netlink answer: " + what, "rtnetlink RTM_GETDCB",
        "report this with the kernel version and NIC driver" };
}

} // namespace

std::vector<std::uint8_t> buildIeeeGetRequest(const std::string& ifname, std::uint32_t sequence)
{
    const std::size_t attributeLength = NLA_HDRLEN + ifname.size() + 1;
    const std::size_t total = NLMSG_HDRLEN + align4(sizeof(dcbmsg)) + align4(attributeLength);
    std::vector<std::uint8_t> bytes(total, 0);
    nlmsghdr header {};
    header.nlmsg_len = static_cast<std::uint32_t>(total);
    header.nlmsg_type = RTM_GETDCB;
    header.nlmsg_flags = NLM_F_REQUEST;
    header.nlmsg_seq = sequence;
    std::memcpy(bytes.data(), &header, sizeof header);
    dcbmsg message {};
    message.dcb_family = AF_UNSPEC;
    message.cmd = DCB_CMD_IEEE_GET;
    std::memcpy(bytes.data() + NLMSG_HDRLEN, &message, sizeof message);
    nlattr attribute {};
    attribute.nla_len = static_cast<std::uint16_t>(attributeLength);
    attribute.nla_type = DCB_ATTR_IFNAME;
    const std::size_t attributeOffset = NLMSG_HDRLEN + align4(sizeof(dcbmsg));
    std::memcpy(bytes.data() + attributeOffset, &attribute, sizeof attribute);
    std::memcpy(bytes.data() + attributeOffset + NLA_HDRLEN, ifname.data(), ifname.size());
    return bytes;
}

core::Result<QosConfig> parseIeeeGetReply(std::span<const std::uint8_t> bytes)
{
    if (bytes.size() < sizeof(nlmsghdr))
        return malformed("shorter than a netlink header (" + std::to_string(bytes.size()) + " bytes)");
    const auto header = readStruct<nlmsghdr>(bytes, 0);
    if (header.nlmsg_len < sizeof(nlmsghdr) || header.nlmsg_len > bytes.size())
        return malformed("message length " + std::to_string(header.nlmsg_len) + " does not fit "
            + std::to_string(bytes.size()) + " bytes");
    bytes = bytes.first(header.nlmsg_len);
    if (header.nlmsg_type == NLMSG_ERROR) {
        if (bytes.size() < NLMSG_HDRLEN + sizeof(nlmsgerr))
            return malformed("short NLMSG_ERROR");
        const auto error = readStruct<nlmsgerr>(bytes, NLMSG_HDRLEN);
        return core::Error { "DCB_UNAVAILABLE", "the kernel refused the DCB query: " + sysfs::errorText(-error.error),
            "rtnetlink RTM_GETDCB", "the netdev has no DCB support (not a NIC with DCB, or its driver lacks dcbnl ops)" };
    }
    if (header.nlmsg_type != RTM_GETDCB)
        return malformed("message type " + std::to_string(header.nlmsg_type) + ", expected RTM_GETDCB");
    if (bytes.size() < NLMSG_HDRLEN + sizeof(dcbmsg))
        return malformed("no dcbmsg");
    const auto message = readStruct<dcbmsg>(bytes, NLMSG_HDRLEN);
    if (message.cmd != DCB_CMD_IEEE_GET)
        return malformed("command " + std::to_string(message.cmd) + ", expected DCB_CMD_IEEE_GET");

    QosConfig qos;
    bool sawIeee = false;
    bool dscp = false;
    bool ok = true;
    const auto top = bytes.subspan(NLMSG_HDRLEN + align4(sizeof(dcbmsg)));
    const bool topOk = forEachAttribute(top, [&](std::uint16_t type, std::span<const std::uint8_t> payload) {
        if (type != DCB_ATTR_IEEE)
            return;
        sawIeee = true;
        ok = ok && forEachAttribute(payload, [&](std::uint16_t ieeeType, std::span<const std::uint8_t> ieee) {
            if (ieeeType == DCB_ATTR_IEEE_PFC) {
                if (ieee.size() < offsetof(ieee_pfc, pfc_en) + 1) {
                    ok = false;
                    return;
                }
                const std::uint8_t enabled = ieee[offsetof(ieee_pfc, pfc_en)];
                qos.pfcKnown = true;
                for (int p = 0; p < 8; ++p)
                    qos.pfcEnabled[static_cast<std::size_t>(p)] = ((enabled >> p) & 1u) != 0;
            } else if (ieeeType == DCB_ATTR_IEEE_APP_TABLE) {
                ok = ok && forEachAttribute(ieee, [&](std::uint16_t appType, std::span<const std::uint8_t> app) {
                    if (appType == DCB_ATTR_IEEE_APP && app.size() >= sizeof(dcb_app)
                        && readStruct<dcb_app>(app, 0).selector == IEEE_8021QAZ_APP_SEL_DSCP)
                        dscp = true;
                });
            }
        });
    });
    if (!ok || !topOk)
        return malformed("an attribute overruns its message");
    if (!sawIeee)
        return core::Error { "DCB_UNAVAILABLE", "the DCB answer has no IEEE 802.1Qaz attributes", "rtnetlink RTM_GETDCB",
            "the driver does not implement IEEE DCB (ieee_getpfc)" };
    qos.trust = dscp ? "dscp" : "pcp";
    return qos;
}

core::Result<QosConfig> queryIeee(const std::string& ifname)
{
    const auto fail = [&](const std::string& what, int errnum) {
        return core::Error { "DCB_NETLINK", what + ": " + sysfs::errorText(errnum), ifname,
            "check that the agent may open netlink sockets (no seccomp filter against AF_NETLINK)" };
    };
    const int fd = ::socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0)
        return fail("cannot open an rtnetlink socket", errno);
    timeval timeout {};
    timeout.tv_sec = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    sockaddr_nl kernel {};
    kernel.nl_family = AF_NETLINK;
    static std::uint32_t s_sequence = 1;
    const std::uint32_t sequence = __atomic_add_fetch(&s_sequence, 1, __ATOMIC_RELAXED);
    const auto request = buildIeeeGetRequest(ifname, sequence);
    if (::sendto(fd, request.data(), request.size(), 0, reinterpret_cast<const sockaddr*>(&kernel), sizeof kernel) < 0) {
        const int e = errno;
        ::close(fd);
        return fail("cannot send the DCB query", e);
    }
    std::vector<std::uint8_t> answer(16384);
    for (;;) {
        const ssize_t n = ::recv(fd, answer.data(), answer.size(), 0);
        if (n < 0) {
            const int e = errno;
            if (e == EINTR)
                continue;
            ::close(fd);
            return fail("no answer to the DCB query", e);
        }
        const std::span<const std::uint8_t> bytes(answer.data(), static_cast<std::size_t>(n));
        if (bytes.size() >= sizeof(nlmsghdr) && readStruct<nlmsghdr>(bytes, 0).nlmsg_seq != sequence)
            continue; // not ours
        ::close(fd);
        return parseIeeeGetReply(bytes);
    }
}

} // namespace railyard::live::dcb
