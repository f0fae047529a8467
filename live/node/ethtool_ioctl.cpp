// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/node/ethtool_ioctl.h"

#include "live/node/sysfs_read.h"

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <vector>

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace railyard::live::ethtool {

namespace {

class Socket {
public:
    Socket()
        : m_fd(::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0))
    {
        if (m_fd < 0) // a host without IPv4 still has AF_UNIX for the ioctl
            m_fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    }
    ~Socket()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Socket(const Socket&) = delete;
    Socket& operator=(const Socket&) = delete;
    int fd() const { return m_fd; }

private:
    int m_fd;
};

/// One SIOCETHTOOL call with `data` as the command buffer; errno on failure, 0 on success.
int call(int fd, const std::string& ifname, void* data)
{
    ifreq request {};
    std::strncpy(request.ifr_name, ifname.c_str(), IFNAMSIZ - 1);
    request.ifr_data = static_cast<char*>(data);
    return ::ioctl(fd, SIOCETHTOOL, &request) < 0 ? errno : 0;
}

} // namespace

core::Result<std::map<std::string, std::uint64_t>> readStats(const std::string& ifname)
{
    const auto fail = [&](const std::string& step, int errnum) {
        return core::Error { "ETHTOOL", step + " failed: " + sysfs::errorText(errnum), ifname,
            errnum == ENODEV ? "no such interface on this host" : "the driver may not export statistics (ethtool -S shows the same)" };
    };
    if (ifname.empty() || ifname.size() >= IFNAMSIZ)
        return core::Error { "ETHTOOL", "not an interface name: \"" + ifname + "\"", ifname, "" };
    const Socket socket;
    if (socket.fd() < 0)
        return fail("socket()", errno);

    // ETHTOOL_GSSET_INFO: struct ethtool_sset_info followed by one u32 per set asked for.
    std::vector<std::uint64_t> setInfo((sizeof(ethtool_sset_info) + sizeof(std::uint32_t) + 7) / 8, 0);
    auto* info = reinterpret_cast<ethtool_sset_info*>(setInfo.data());
    info->cmd = ETHTOOL_GSSET_INFO;
    info->sset_mask = 1ull << ETH_SS_STATS;
    std::uint32_t count = 0;
    if (const int e = call(socket.fd(), ifname, info); e != 0) {
        // Old drivers: ETHTOOL_GDRVINFO's n_stats.
        ethtool_drvinfo driver {};
        driver.cmd = ETHTOOL_GDRVINFO;
        if (const int e2 = call(socket.fd(), ifname, &driver); e2 != 0)
            return fail("ETHTOOL_GSSET_INFO", e);
        count = driver.n_stats;
    } else {
        std::memcpy(&count, reinterpret_cast<const char*>(info) + offsetof(ethtool_sset_info, data), sizeof count);
        if (!(info->sset_mask & (1ull << ETH_SS_STATS)))
            count = 0;
    }
    std::map<std::string, std::uint64_t> stats;
    if (count == 0)
        return stats;

    std::vector<std::uint64_t> stringsBuffer((sizeof(ethtool_gstrings) + std::size_t { count } * ETH_GSTRING_LEN + 7) / 8, 0);
    auto* strings = reinterpret_cast<ethtool_gstrings*>(stringsBuffer.data());
    strings->cmd = ETHTOOL_GSTRINGS;
    strings->string_set = ETH_SS_STATS;
    strings->len = count;
    if (const int e = call(socket.fd(), ifname, strings); e != 0)
        return fail("ETHTOOL_GSTRINGS", e);

    std::vector<std::uint64_t> statsBuffer((sizeof(ethtool_stats) + std::size_t { count } * sizeof(std::uint64_t) + 7) / 8, 0);
    auto* values = reinterpret_cast<ethtool_stats*>(statsBuffer.data());
    values->cmd = ETHTOOL_GSTATS;
    values->n_stats = count;
    if (const int e = call(socket.fd(), ifname, values); e != 0)
        return fail("ETHTOOL_GSTATS", e);

    // The kernel may report fewer than asked if the set shrank in between.
    const std::uint32_t n = std::min({ count, strings->len, values->n_stats });
    const auto* names = reinterpret_cast<const char*>(strings) + offsetof(ethtool_gstrings, data);
    const auto* data = reinterpret_cast<const char*>(values) + offsetof(ethtool_stats, data);
    for (std::uint32_t i = 0; i < n; ++i) {
        const char* name = names + std::size_t { i } * ETH_GSTRING_LEN;
        std::uint64_t value = 0;
        std::memcpy(&value, data + std::size_t { i } * sizeof value, sizeof value);
        stats[std::string(name, ::strnlen(name, ETH_GSTRING_LEN))] = value;
    }
    return stats;
}

} // namespace railyard::live::ethtool
