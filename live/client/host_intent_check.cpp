// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/host_intent_check.h"

#include "core/plan_spec.h"

#include <algorithm>
#include <charconv>

namespace railyard::live {

namespace {

    using core::Severity;

    std::string joinCommands(const std::vector<std::string>& lines)
    {
        std::string out;
        for (const std::string& line : lines)
            out += (out.empty() ? "" : "; ") + line;
        return out;
    }

    std::string quoted(const std::string& command)
    {
        return "`" + command + "`";
    }

    /// The netdev of a port: its GIDs' netdev (what RoCE uses, per port), else the device's.
    std::string netdevOf(const HostNicSeen& nic)
    {
        for (const GidEntry& g : nic.port->gids)
            if (!g.netdev.empty())
                return g.netdev;
        return nic.device->netdev;
    }

    std::string addressList(const std::vector<Ipv4Address>& list)
    {
        if (list.empty())
            return "no IPv4 address";
        std::string out;
        for (const Ipv4Address& a : list)
            out += (out.empty() ? "" : ", ") + a.address + "/" + std::to_string(a.prefixLength);
        return out;
    }

    std::string valueText(const std::optional<int>& v)
    {
        return v ? std::to_string(*v) : std::string("unreadable");
    }

    class Checker {
    public:
        Checker(const planner::HostIntent& host, const HostNetwork& network, HostCheckResult& out)
            : m_host(host)
            , m_network(network)
            , m_out(out)
        {
        }

        void addresses(const HostNicSeen& nic, const std::string& netdev)
        {
            const planner::NicIntent& n = *nic.intent;
            if (!m_network.addressesKnown)
                return unverified("IP addresses", netdev);
            const auto it = m_network.addresses.find(netdev);
            const std::vector<Ipv4Address> none;
            const std::vector<Ipv4Address>& list = it == m_network.addresses.end() ? none : it->second;
            const auto same = std::find_if(list.begin(), list.end(), [&](const Ipv4Address& a) { return a.address == n.address; });
            const std::string cidr = n.address + "/" + std::to_string(n.prefixLength);
            const std::string fix = quoted(planner::hostAddressCommand(n, netdev));
            if (same == list.end())
                add(Severity::Error, "ADDRESS_MISSING",
                    nic.head + ": " + netdev + " does not carry the planned address " + cidr + " (it has " + addressList(list)
                        + "): rail " + std::to_string(n.rail) + " traffic has no source address of its own: " + fix,
                    nic.where);
            else if (same->prefixLength != n.prefixLength)
                add(Severity::Error, "ADDRESS_PREFIX_MISMATCH",
                    nic.head + ": " + netdev + " carries " + same->address + "/" + std::to_string(same->prefixLength) + ", planned " + cidr
                        + " (" + n.network + "/" + std::to_string(n.prefixLength) + " towards " + n.leafPort
                        + "): the connected route and ARP cover the wrong range: " + fix,
                    nic.where);
        }

        void gidIndex(const HostNicSeen& nic, const std::string& netdev)
        {
            const planner::NicIntent& n = *nic.intent;
            const auto& gids = nic.port->gids;
            if (gids.empty())
                return unverified("GID table", nic.device->name + " port " + std::to_string(nic.port->number));
            const int planned = plannedGidIndex(m_host);
            auto isRail = [&](const GidEntry& g) { return g.type == "RoCE v2" && g.ipv4 == n.address; };
            const auto at = std::find_if(gids.begin(), gids.end(), [&](const GidEntry& g) { return g.index == planned; });
            if (at != gids.end() && isRail(*at))
                return;
            const auto rail = std::find_if(gids.begin(), gids.end(), isRail);
            const std::string seen = at == gids.end() ? "empty" : at->gid + " (" + (at->type.empty() ? "type unreadable" : at->type) + ")";
            std::string message = nic.head + ": GID index " + std::to_string(planned) + " (the plan's NCCL_IB_GID_INDEX) is " + seen
                + ", not the RoCE v2 GID of the rail address " + n.address;
            if (rail != gids.end()) {
                message += "; that one is at index " + std::to_string(rail->index) + ": NCCL would use the wrong address or RoCE version. "
                    "Remove the addresses that took the earlier GID slots (`ip addr show dev " + netdev + "`) and add the rail address again ("
                    + quoted(planner::hostAddressCommand(n, netdev)) + ") so that its RoCE v2 GID moves to index " + std::to_string(planned)
                    + ", or run this node's jobs with NCCL_IB_GID_INDEX=" + std::to_string(rail->index);
            } else {
                message += "; no GID carries it (the address is missing, or the port's RoCE v2 GIDs are not populated): "
                    + quoted(planner::hostAddressCommand(n, netdev));
            }
            add(Severity::Error, "GID_INDEX_MISMATCH", std::move(message), nic.where);
        }

        void sysctls(const HostNicSeen& nic, const std::string& netdev)
        {
            const auto allIt = m_network.sysctls.find("all");
            const auto devIt = m_network.sysctls.find(netdev);
            const NetSysctls all = allIt == m_network.sysctls.end() ? NetSysctls {} : allIt->second;
            const NetSysctls dev = devIt == m_network.sysctls.end() ? NetSysctls {} : devIt->second;
            const std::string nicFix = planner::hostNicSysctlCommand(netdev);
            // The kernel filters with max(conf/all, conf/<dev>): 1 (strict) drops replies that come
            // back on another NIC than the route to their source would take.
            if (!all.rpFilter || !dev.rpFilter) {
                unverified("rp_filter and ARP", "net.ipv4.conf." + netdev + ".rp_filter");
            } else if (std::max(*all.rpFilter, *dev.rpFilter) == 1) {
                add(Severity::Error, "RP_FILTER_STRICT",
                    nic.head + ": reverse-path filtering is strict on " + netdev + " (net.ipv4.conf." + netdev + ".rp_filter="
                        + valueText(dev.rpFilter) + ", all=" + valueText(all.rpFilter)
                        + ", the kernel uses the larger): packets to this rail's address that arrive by another NIC are dropped, "
                          "and RDMA connections between rails fail: "
                        + quoted(nicFix) + " (loose, as planned)",
                    nic.where);
            }
            struct Arp {
                const char* name;
                std::optional<int> NetSysctls::*member;
                int planned;
                const char* why;
            };
            static constexpr Arp kArp[] = {
                { "arp_ignore", &NetSysctls::arpIgnore, 1, "answer ARP only for the NIC's own address" },
                { "arp_announce", &NetSysctls::arpAnnounce, 2, "announce only the NIC's own address" },
            };
            std::vector<std::string> wrong;
            bool allWrong = false;
            for (const Arp& a : kArp) {
                const auto& allValue = all.*(a.member);
                const auto& devValue = dev.*(a.member);
                if (!allValue || !devValue) {
                    unverified("rp_filter and ARP", "net.ipv4.conf." + netdev + "." + a.name);
                    continue;
                }
                if (std::max(*allValue, *devValue) == a.planned)
                    continue;
                wrong.push_back(std::string(a.name) + " is " + std::to_string(std::max(*allValue, *devValue)) + " (" + netdev + " "
                    + std::to_string(*devValue) + ", all " + std::to_string(*allValue) + "), planned " + std::to_string(a.planned) + " to "
                    + a.why);
                allWrong = allWrong || *allValue != a.planned;
            }
            if (wrong.empty())
                return;
            std::string text;
            for (const std::string& w : wrong)
                text += (text.empty() ? "" : "; ") + w;
            const std::string fix = allWrong ? planner::hostAllSysctlCommand() + "; " + nicFix : nicFix;
            add(Severity::Warning, "ARP_SETTINGS_MISMATCH",
                nic.head + ": " + text + " (the kernel uses the larger of all and the NIC): neighbours may learn this rail's address "
                           "on another NIC's MAC and send its traffic there: "
                    + quoted(fix),
                nic.where);
        }

        void rule(const HostNicSeen& nic)
        {
            const planner::NicIntent& n = *nic.intent;
            if (!m_network.rulesKnown)
                return unverified("policy routing", "ip rule");
            const std::string table = std::to_string(n.table);
            std::vector<std::string> others;
            for (const RoutingRule& r : m_network.rules) {
                if (r.from != n.address || r.fromPrefix != 32 || r.selectorsBeyondFrom)
                    continue;
                // Rules after the main table's (32766) never see the packets main routes.
                if (r.table == table && r.priority < 32766)
                    return;
                others.push_back("priority " + std::to_string(r.priority) + " table " + (r.table.empty() ? "none" : r.table));
            }
            std::string seen = "no rule for it";
            if (!others.empty()) {
                seen = "its rules: ";
                for (std::size_t i = 0; i < others.size(); ++i)
                    seen += (i ? ", " : "") + others[i];
            }
            add(Severity::Error, "ROUTE_RULE_MISSING",
                nic.head + ": no `ip rule` sends traffic from " + n.address + " to table " + table + " before the main table (" + seen
                    + "): this rail's traffic follows the main table and may leave by another NIC: "
                    + quoted(joinCommands(planner::hostRuleCommands(n))),
                nic.where);
        }

        void routes(const HostNicSeen& nic, const std::string& netdev)
        {
            const planner::NicIntent& n = *nic.intent;
            if (!m_network.routesKnown)
                return unverified("policy routing", "ip route show table all");
            const std::string table = std::to_string(n.table);
            const std::string connected = n.network + "/" + std::to_string(n.prefixLength);
            bool defaultOk = false, connectedOk = false;
            std::vector<std::string> seen;
            for (const IpRoute& r : m_network.routes) {
                if (r.table != table)
                    continue;
                seen.push_back(r.destination + (r.gateway.empty() ? "" : " via " + r.gateway) + (r.dev.empty() ? "" : " dev " + r.dev)
                    + (r.source.empty() ? "" : " src " + r.source));
                const bool sourceOk = r.source.empty() || r.source == n.address;
                if (r.destination == "default" && r.gateway == n.gateway && r.dev == netdev && sourceOk)
                    defaultOk = true;
                if (r.destination == connected && r.gateway.empty() && r.dev == netdev && sourceOk)
                    connectedOk = true;
            }
            if (defaultOk && connectedOk)
                return;
            std::string missing;
            if (!defaultOk)
                missing = "default via " + n.gateway + " dev " + netdev;
            if (!connectedOk)
                missing += (missing.empty() ? "" : " and ") + connected + " dev " + netdev;
            std::string has = "it is empty";
            if (!seen.empty()) {
                has = "it holds ";
                for (std::size_t i = 0; i < seen.size(); ++i)
                    has += (i ? ", " : "") + seen[i];
            }
            add(Severity::Error, "ROUTE_TABLE_MISMATCH",
                nic.head + ": routing table " + table + " lacks " + missing + " (src " + n.address + "; " + has
                    + "): traffic from this rail's address cannot reach its leaf " + n.leafPort + " and beyond: "
                    + quoted(joinCommands(planner::hostRouteCommands(n, netdev))),
                nic.where);
        }

    private:
        void add(Severity severity, const char* code, std::string message, const std::string& where)
        {
            m_out.findings.push_back({ severity, code, std::move(message), where });
        }
        void unverified(const std::string& topic, const std::string& item) { m_out.unverified.emplace_back(topic, item); }

        const planner::HostIntent& m_host;
        const HostNetwork& m_network;
        HostCheckResult& m_out;
    };

} // namespace

int plannedGidIndex(const planner::HostIntent& host)
{
    for (const auto& [name, value] : host.ncclEnv) {
        int index = 0;
        if (name == "NCCL_IB_GID_INDEX" && std::from_chars(value.data(), value.data() + value.size(), index).ec == std::errc {})
            return index;
    }
    return core::kRoceV2Ipv4GidIndex;
}

HostCheckResult checkHostIntent(const planner::HostIntent& host, const Inventory& inventory, const std::vector<HostNicSeen>& nics)
{
    HostCheckResult out;
    if (!inventory.network) {
        out.unverified.emplace_back("the host's IP state (addresses, rp_filter and ARP, policy routing)",
            "not in the inventory");
    }
    const HostNetwork empty;
    Checker check(host, inventory.network ? *inventory.network : empty, out);
    for (const HostNicSeen& nic : nics) {
        if (!nic.intent || !nic.device || !nic.port)
            continue;
        const std::string netdev = netdevOf(nic);
        check.gidIndex(nic, netdev.empty() ? std::string("<netdev>") : netdev);
        if (!inventory.network)
            continue;
        if (netdev.empty()) {
            out.unverified.emplace_back("IP addresses", nic.device->name + " (no netdev)");
            continue;
        }
        check.addresses(nic, netdev);
        check.sysctls(nic, netdev);
        check.rule(nic);
        check.routes(nic, netdev);
    }
    return out;
}

} // namespace railyard::live
