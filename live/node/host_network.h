// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A host's IP state on its RDMA netdevs (HostNetwork in inventory.h): IPv4 addresses, policy
// routing rules and the routes of every table, from iproute2's JSON (`ip -j -4 addr show`,
// `ip -j -4 rule show`, `ip -j -4 route show table all`), and the rp_filter/ARP sysctls from
// /proc/sys/net/ipv4/conf/<name>/. iproute2's JSON rather than rtnetlink: the three dumps with
// their attribute decoding (nested multipath next hops, rule selectors, table ids above 255 in
// FRA_TABLE) are what `ip` already does, its JSON keys are stable since iproute2 4.13, and the
// emulator writes the same JSON, so both paths share one parser. The agent runs `ip` from the
// system folders only.
#pragma once

#include "core/result.h"
#include "live/common/inventory.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// `ip -j -4 addr show`: netdev -> its IPv4 addresses (every netdev listed, also those without
/// one). Errors (IP_JSON) name the entry and the key.
core::Result<std::map<std::string, std::vector<Ipv4Address>>> parseIpAddrJson(std::string_view text);
/// `ip -j -4 rule show`, in the order ip prints (priority order).
core::Result<std::vector<RoutingRule>> parseIpRuleJson(std::string_view text);
/// `ip -j -4 route show table all`: every route but those of the `local` table (the kernel's own
/// local and broadcast routes); a route without "table" is in `main`. A multipath route's first
/// next hop gives gateway and dev.
core::Result<std::vector<IpRoute>> parseIpRouteJson(std::string_view text);

/// /proc/sys/net/ipv4/conf/<name>/{rp_filter,arp_ignore,arp_announce,arp_filter} under `procRoot`
/// ("/proc" on a host); each nullopt when unreadable.
NetSysctls readNetSysctls(const std::filesystem::path& procRoot, const std::string& name);

/// The IPv4 address of an IPv4-mapped GID ("0000:0000:0000:0000:0000:ffff:0a00:000d" ->
/// "10.0.0.13"); empty for any other GID.
std::string ipv4OfGid(std::string_view gid);

/// The three `ip -j` outputs (nullopt: that one could not be had, `why` says why) and the proc
/// root, made into a HostNetwork for `netdevs` (and `all`); what failed goes to `warnings`.
struct IpDumps {
    std::optional<std::string> addr, rule, route;
    std::string addrWhy, ruleWhy, routeWhy; ///< why each is missing ("ip (iproute2) not found in the system folders")
};
HostNetwork assembleHostNetwork(const IpDumps& dumps, const std::filesystem::path& procRoot,
    const std::vector<std::string>& netdevs, std::vector<std::string>& warnings);

} // namespace railyard::live
