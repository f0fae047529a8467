// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/host_config.h"

#include <algorithm>

namespace railyard::planner {

using core::DeviceKind;

namespace {

    /// An RDMA device name (mlx5_3, rocep12s0) or a PCI address (0000:5a:00.0): safe to put in a
    /// shell word and a sysfs path.
    bool railMapEntryOk(const std::string& entry)
    {
        if (entry.empty() || entry.size() > 64 || entry.front() == '.' || entry.front() == '-')
            return false;
        return std::all_of(entry.begin(), entry.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':' || c == '.'
                || c == '-';
        });
    }

    core::Status checkRailMap(const core::Plan& plan, const std::vector<std::string>& railMap)
    {
        const std::string type = "node type \"" + plan.spec.nodeType + "\"";
        if (railMap.empty())
            return core::Error { "HOST_RAIL_MAP", type + " has no rail map: which RDMA device serves each rail is unknown",
                plan.spec.nodeType, "add a rail_map (device names or PCI addresses, NIC k = rail k) to the node type in the catalog" };
        if (static_cast<int>(railMap.size()) < plan.summary.rails)
            return core::Error { "HOST_RAIL_MAP",
                type + " maps " + std::to_string(railMap.size()) + " NICs, the plan has " + std::to_string(plan.summary.rails) + " rails",
                plan.spec.nodeType, "complete the node type's rail_map" };
        for (std::size_t k = 0; k < railMap.size(); ++k) {
            if (!railMapEntryOk(railMap[k]))
                return core::Error { "HOST_RAIL_MAP",
                    type + " names NIC " + std::to_string(k) + " \"" + commentSafe(railMap[k])
                        + "\", which is neither an RDMA device name nor a PCI address",
                    plan.spec.nodeType, "give mlx5_N or a PCI address like 0000:5a:00.0" };
        }
        return core::Status::success();
    }

    std::string networkOf(const std::string& address, int prefixLength)
    {
        std::string problem;
        const auto a = core::parseIpv4Prefix(address + "/32", problem);
        if (!a)
            return address;
        const std::uint32_t mask = prefixLength == 0 ? 0 : ~std::uint32_t { 0 } << (32 - prefixLength);
        return core::formatIpv4(a->address & mask);
    }

    std::string pfcVector(const QosIntent& q)
    {
        std::string out;
        for (int prio = 0; prio < 8; ++prio) {
            const bool on = std::find(q.pfcPriorities.begin(), q.pfcPriorities.end(), prio) != q.pfcPriorities.end();
            out += (prio ? "," : "") + std::string(on ? "1" : "0");
        }
        return out;
    }

    std::string describeProfile(const core::Plan& plan, const QosIntent& q)
    {
        std::string pfc = "no PFC";
        if (q.pfc) {
            pfc = "PFC on priority ";
            for (std::size_t i = 0; i < q.pfcPriorities.size(); ++i)
                pfc += (i ? "," : "") + std::to_string(q.pfcPriorities[i]);
        }
        return plan.spec.lossless.mode + ", " + pfc + ", trust " + (q.trustDscp ? "dscp" : "pcp") + ", RoCE DSCP "
            + std::to_string(q.roceDscp) + ", CNP DSCP " + std::to_string(q.cnpDscp) + ", ECN " + (q.ecn ? "on" : "off")
            + ", DCQCN " + (q.dcqcn ? "on" : "off") + ", MTU " + std::to_string(q.interfaceMtu) + " (RDMA "
            + std::to_string(q.rdmaMtu) + ")";
    }

    constexpr const char* kPrelude = R"(set -eu

# The RDMA device of a rail map entry (a device name, or a PCI address).
rdma_dev() {
    case "$1" in
        *:*) ls "/sys/bus/pci/devices/$1/infiniband" | head -n 1 ;;
        *) echo "$1" ;;
    esac
}
# The netdev of an RDMA device's port (its RoCE GIDs' netdev).
netdev_of() {
    cat "/sys/class/infiniband/$1/ports/$2/gid_attrs/ndevs/0"
}
# Writes a value to a sysfs/configfs file when the driver offers it (some are MLNX_OFED only).
put() {
    if [ -e "$2" ]; then echo "$1" > "$2"; else echo "note: $2 not present, skipped" >&2; fi
}

# ARP: answer and announce only on the NIC that owns the address (all NICs share one subnet space).
)";

    void nicBlock(std::string& s, const HostIntent& host, const NicIntent& n)
    {
        const QosIntent& q = host.qos;
        const std::string port = std::to_string(n.devicePort);
        const std::string table = std::to_string(n.table);
        const std::string cidr = n.address + "/" + std::to_string(n.prefixLength);
        s += "\n# rail " + std::to_string(n.rail) + (n.plane > 0 ? ", plane " + std::to_string(n.plane) : std::string()) + ": "
            + n.railMapEntry + " port " + port + ", " + cidr + " via " + n.gateway + " (" + n.leafPort + "), table " + table + "\n";
        s += "DEV=$(rdma_dev " + n.railMapEntry + ")\n";
        s += "NET=$(netdev_of \"$DEV\" " + port + ")\n";
        s += "HCA=\"${HCA:+$HCA,}$DEV:" + port + "\"\n";
        s += hostMtuCommand(q, "$NET") + "\n";
        s += hostAddressCommand(n, "$NET") + "\n";
        // Loose reverse-path filtering: replies to a NIC's address may arrive on another NIC.
        s += hostNicSysctlCommand("$NET") + "\n";
        for (const std::string& line : hostRouteCommands(n, "$NET"))
            s += line + "\n";
        for (const std::string& line : hostRuleCommands(n))
            s += line + "\n";
        s += hostQosCommand(q, "$NET") + "\n";
        if (q.trustDscp) {
            s += "mlnx_qos -i \"$NET\" --dscp2prio set," + std::to_string(q.roceDscp) + "," + std::to_string(q.rocePriority) + "\n";
            s += "mlnx_qos -i \"$NET\" --dscp2prio set," + std::to_string(q.cnpDscp) + "," + std::to_string(q.cnpPriority) + "\n";
        }
        const std::string prio = std::to_string(q.rocePriority);
        // roce_np: this NIC answers ECN-marked packets with CNPs; roce_rp: DCQCN slows down on CNPs.
        s += "put " + std::string(q.ecn ? "1" : "0") + " \"/sys/class/net/$NET/ecn/roce_np/enable/" + prio + "\"\n";
        s += "put " + std::string(q.dcqcn ? "1" : "0") + " \"/sys/class/net/$NET/ecn/roce_rp/enable/" + prio + "\"\n";
        s += "put " + std::to_string(q.cnpDscp) + " \"/sys/class/net/$NET/ecn/roce_np/cnp_dscp\"\n";
        // The ToS of rdma_cm connections (what cma_roce_tos sets), and of verbs QPs (MLNX_OFED).
        s += "if [ -d /sys/kernel/config/rdma_cm ]; then mkdir -p \"/sys/kernel/config/rdma_cm/$DEV\"; fi\n";
        s += "put \"RoCE v2\" \"/sys/kernel/config/rdma_cm/$DEV/ports/" + port + "/default_roce_mode\"\n";
        s += "put " + std::to_string(q.trafficClass) + " \"/sys/kernel/config/rdma_cm/$DEV/ports/" + port + "/default_roce_tos\"\n";
        s += "put " + std::to_string(q.trafficClass) + " \"/sys/class/infiniband/$DEV/tc/" + port + "/traffic_class\"\n";
    }

} // namespace

std::string hostMtuCommand(const QosIntent& qos, const std::string& netdev)
{
    return "ip link set dev \"" + netdev + "\" mtu " + std::to_string(qos.interfaceMtu) + " up";
}

std::string hostAddressCommand(const NicIntent& nic, const std::string& netdev)
{
    return "ip addr replace " + nic.address + "/" + std::to_string(nic.prefixLength) + " dev \"" + netdev + "\"";
}

std::string hostNicSysctlCommand(const std::string& netdev)
{
    const std::string conf = "\"net.ipv4.conf." + netdev + ".";
    return "sysctl -qw " + conf + "rp_filter=2\" " + conf + "arp_ignore=1\" " + conf + "arp_announce=2\"";
}

std::string hostAllSysctlCommand()
{
    return "sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2";
}

std::vector<std::string> hostRouteCommands(const NicIntent& nic, const std::string& netdev)
{
    const std::string table = std::to_string(nic.table);
    return { "ip route replace " + nic.network + "/" + std::to_string(nic.prefixLength) + " dev \"" + netdev + "\" src " + nic.address
            + " table " + table,
        "ip route replace default via " + nic.gateway + " dev \"" + netdev + "\" src " + nic.address + " table " + table };
}

std::vector<std::string> hostRuleCommands(const NicIntent& nic)
{
    const std::string table = std::to_string(nic.table);
    return { "while ip rule del from " + nic.address + " table " + table + " 2>/dev/null; do :; done",
        "ip rule add from " + nic.address + " table " + table + " priority " + table };
}

std::string hostQosCommand(const QosIntent& qos, const std::string& netdev)
{
    return "mlnx_qos -i \"" + netdev + "\" --trust " + std::string(qos.trustDscp ? "dscp" : "pcp") + " --pfc " + pfcVector(qos);
}

int hostRoutingTable(int rail, int planeIndex, int planes)
{
    return 100 + rail * std::max(1, planes) + planeIndex;
}

core::Result<std::vector<HostIntent>> hostIntents(const core::Plan& plan, const AddressPlan& addresses,
    const std::vector<std::string>& railMap, const std::string& onlyNode)
{
    if (plan.spec.fabric != core::Fabric::RoCEv2)
        return core::Error { "ADDRESSING_NOT_ROCE", "the plan is an InfiniBand fabric; host configuration is generated for RoCEv2",
            "fabric", {} };
    if (auto ok = checkRailMap(plan, railMap); !ok)
        return ok.errors();
    const QosIntent q = qosIntent(plan.spec.lossless);
    const int planes = std::max(1, plan.summary.planes);
    std::vector<HostIntent> out;
    for (const NicAddress& a : addresses.nics) {
        if (!onlyNode.empty() && a.node != onlyNode)
            continue;
        if (out.empty() || out.back().node != a.node) {
            HostIntent h;
            h.node = a.node;
            h.qos = q;
            h.ncclEnv = { { "NCCL_IB_GID_INDEX", std::to_string(core::kRoceV2Ipv4GidIndex) }, { "NCCL_IB_TC", std::to_string(q.trafficClass) } };
            out.push_back(std::move(h));
        }
        const int planeIndex = a.plane > 0 ? a.plane - 1 : 0;
        NicIntent n;
        n.rail = a.rail;
        n.plane = a.plane;
        n.railMapEntry = railMap[static_cast<std::size_t>(a.rail)];
        n.devicePort = planeIndex + 1;
        n.address = a.address;
        n.prefixLength = a.prefixLength;
        n.network = networkOf(a.address, a.prefixLength);
        n.gateway = a.gateway;
        n.leafPort = a.leafPort;
        n.table = hostRoutingTable(a.rail, planeIndex, planes);
        out.back().nics.push_back(std::move(n));
    }
    if (!onlyNode.empty() && out.empty())
        return core::Error { "NODE_UNKNOWN", "the plan has no node called \"" + commentSafe(onlyNode) + "\"", onlyNode,
            "node names follow the spec's node_names (node001, node002...)" };
    if (addresses.nics.empty())
        return core::Error { "ADDRESS_PLAN_MISMATCH", "the address plan has no NIC addresses", "", "make it with planAddresses()" };
    return out;
}

std::string hostScript(const core::Plan& plan, const HostIntent& host)
{
    std::string s = "#!/bin/sh\n";
    s += "# " + host.node + ": RoCEv2 host configuration generated by railyard from the plan \"" + commentSafe(plan.spec.name) + "\".\n";
    s += "# " + describeProfile(plan, host.qos) + ".\n";
    s += "# Run as root. Needs iproute2, and mlnx_qos (MLNX_OFED / DOCA host tools) for trust and PFC.\n";
    s += "# Each NIC gets a routing table of its own and an 'ip rule' for its address, so that traffic from\n";
    s += "# that address leaves by that NIC whatever the main table says.\n";
    s += kPrelude;
    s += hostAllSysctlCommand() + "\nHCA=\"\"\n";
    for (const NicIntent& n : host.nics)
        nicBlock(s, host, n);
    s += "\n# NCCL environment of jobs on this node (source it, or pass it to the launcher).\n";
    s += "NCCL_ENV=${RAILYARD_NCCL_ENV:-/etc/railyard/nccl.env}\n";
    s += "mkdir -p \"$(dirname \"$NCCL_ENV\")\"\n";
    s += "{\n";
    s += "    echo \"NCCL_IB_HCA==$HCA\"\n";
    for (const auto& [name, value] : host.ncclEnv)
        s += "    echo \"" + name + "=" + value + "\"\n";
    s += "} > \"$NCCL_ENV\"\n";
    return s;
}

core::Status forEachHostConfig(const core::Plan& plan, const AddressPlan& addresses, const std::vector<std::string>& railMap,
    const ConfigSink& sink, const std::string& onlyNode)
{
    core::Result<std::vector<HostIntent>> hosts = hostIntents(plan, addresses, railMap, onlyNode);
    if (!hosts)
        return hosts.errors();
    for (const HostIntent& h : *hosts) {
        if (auto taken = sink(ConfigFile { h.node, h.node + ".sh", hostScript(plan, h) }); !taken)
            return taken;
    }
    return core::Status::success();
}

core::Result<std::vector<ConfigFile>> hostConfigs(const core::Plan& plan, const AddressPlan& addresses,
    const std::vector<std::string>& railMap, const std::string& onlyNode)
{
    std::vector<ConfigFile> out;
    const core::Status made = forEachHostConfig(plan, addresses, railMap, [&](ConfigFile&& f) {
        out.push_back(std::move(f));
        return core::Status::success();
    }, onlyNode);
    if (!made)
        return made.errors();
    return out;
}

} // namespace railyard::planner
