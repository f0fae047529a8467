// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The fabric emulator's core: from a plan, its faults and a traffic model, one sysfs-shaped tree
// per node (what the real agent reads as /sys) plus the stand-in files of the tools that are
// not sysfs (mlnx_qos, ethtool -S, lldpctl, the GPU driver), the ibsim topology of the
// fabric with the cabling faults applied, and counters that move with the traffic.
//
// Layout under the root folder:
//   <root>/<node>/sys/                           the node's sysfs root (the agent's --sysfs-root)
//     devices/pci0000:HH/0000:HH:01.0/           root port of pair k (HH = 0x10 * (k + 1))
//       0000:UU:00.0/                            PCIe switch upstream port (UU = HH + 1)
//         0000:DD:00.0/0000:NN:00.0/             downstream port, NIC k (DD = HH + 2, NN = HH + 3)
//           vendor device class subsystem_* numa_node local_cpulist enable config
//           current_link_speed max_link_speed current_link_width max_link_width
//           infiniband/<dev>/{node_type,node_guid,sys_image_guid,fw_ver,hca_type,hw_rev,board_id,node_desc,device}
//           infiniband/<dev>/ports/<p>/{state,phys_state,rate,link_layer,lid,sm_lid,lid_mask_count,sm_sl,
//             cap_mask,pkeys/0,gids/<i>,gid_attrs/types/<i>,gid_attrs/ndevs/<i> (RoCE),counters/*,hw_counters/*}
//           net/<netdev>/{mtu,operstate,carrier,type,dev_port,address,speed (Ethernet),device,
//             ecn/roce_np/enable/<0..7>,ecn/roce_rp/enable/<0..7> (Ethernet)}
//         0000:DD:01.0/0000:GG:00.0/             downstream port, GPU k (GG = HH + 4; vendor 0x10de, class 0x030200)
//     devices/pci0000:f0/0000:f0:0i.0/0000:XX:00.0/   non-rail NICs (the rail map's gaps), Ethernet 200G, idle
//     class/infiniband/<dev> -> ../../devices/.../infiniband/<dev>
//     class/net/<netdev>     -> ../../devices/.../net/<netdev>
//     bus/pci/devices/<addr> -> ../../../devices/.../<addr>   (every PCI function, bridges included)
//     module/nvidia/{version,initstate}, module/mlx5_ib/initstate, module/nvidia_peermem/initstate (not with no_gpudirect)
//   <root>/<node>/sim/qos/<netdev>.mlnx_qos      `mlnx_qos -i` output (Ethernet netdevs)
//   <root>/<node>/sim/ethtool/<netdev>.txt       `ethtool -S` output (Ethernet netdevs)
//   <root>/<node>/sim/lldp.keyvalue              `lldpctl -f keyvalue` (RoCEv2: each cabled rail port's leaf, port swp<N>)
//   <root>/<node>/sim/gpu.json                   {"models": {"<pci>": "<name>"}, "dmabuf": "on"|"off"}
//   <root>/<node>/sim/ip/{addr,rule,route}.json  `ip -j -4 addr show`, `ip -j -4 rule show`, `ip -j -4 route show table all`
//   <root>/<node>/sim/proc/sys/net/ipv4/conf/{all,default,lo,<netdev>}/{rp_filter,arp_ignore,arp_announce,arp_filter}
//     (routed RoCEv2 plans: each rail port's address, rule, table and sysctls as the plan's host script sets them)
//   <root>/fabric.ibnet                          InfiniBand only (plane 1; fabric-p<P>.ibnet for further planes)
//   <root>/.tmp/                                 temp files of the atomic writes
// Netdevs: InfiniBand ibp<NN>s0 (ibp<NN>s0d<p> for further planes), Ethernet enp<NN>s0np<p> (NN in decimal).
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"
#include "live/sim/faults.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace railyard::live {

enum class TrafficKind {
    Idle,      ///< management traffic only (a few MADs / LLDP frames per second)
    AllReduce, ///< every rail NIC sends and receives at the plan's share of line rate
};

struct EmulatorOptions {
    std::filesystem::path root;
    TrafficKind traffic = TrafficKind::AllReduce;
    /// The data counters (port_xmit_data, port_rcv_data) and, on congested ports, the congestion
    /// counters (port_xmit_wait, ECN/CNP hw_counters, the ethtool file with PFC pauses) are
    /// rewritten every update. The others that move (packet and unicast packet counters, the
    /// hw_counters request counters, the ethtool file of uncongested ports) every this many
    /// updates, staggered over the ports, with their values at that time; 1 = every update.
    /// Each rewritten file costs a create and a rename, so this keeps 8,192 ports under a core.
    int slowEvery = 1;
};

/// One emulated node, as the agent wiring needs it.
struct EmulatedNode {
    std::string name;                 ///< plan name, "node001"
    std::string nodeType;             ///< catalog node type id
    std::filesystem::path sysRoot;    ///< <root>/<node>/sys
    std::filesystem::path simDir;     ///< <root>/<node>/sim
    std::vector<std::string> railMap; ///< device name of NIC k
};

/// What one update cost, for the scale figure.
struct UpdateStats {
    std::size_t filesWritten = 0;
    std::size_t portsUpdated = 0;
};

/// One switch port's counters from the emulated traffic (InfiniBand): what the switch's PMA
/// reports (PortCountersExtended data and packets, PortCounters.PortXmitWait).
struct SwitchPortCounters {
    std::uint32_t device = 0; ///< index into cabledPlan().devices
    int port = 0;             ///< the switch's port number
    std::uint64_t xmitBytes = 0, rcvBytes = 0, xmitPkts = 0, rcvPkts = 0;
    std::uint64_t xmitWait = 0; ///< ticks (the PMA counter saturates at 2^32 - 1)
};

class FabricEmulator {
public:
    /// Lays out every installed node of `plan` (devices, PCI tree, names, GUIDs, LIDs, rates) with
    /// `faults` applied. Fails when the plan cannot be emulated (no nodes, too many NICs per node).
    static core::Result<std::unique_ptr<FabricEmulator>> create(const core::Plan& plan, const core::Catalog& catalog,
        std::vector<Fault> faults, EmulatorOptions options);
    ~FabricEmulator();
    FabricEmulator(const FabricEmulator&) = delete;
    FabricEmulator& operator=(const FabricEmulator&) = delete;

    /// Writes every node's tree and stand-in files and, for InfiniBand, fabric.ibnet.
    core::Status writeTree();
    /// Advances the counters by `seconds` of traffic and rewrites the files that changed.
    core::Result<UpdateStats> update(double seconds);
    /// Injects `fault` (parsed against this emulator's plan, see parseFaults) into the running
    /// emulation, as it would happen to a fabric in use: link_down, unplugged and degraded rewrite
    /// the port's state, rate and netdev files (an unplugged RoCE port loses its LLDP neighbour);
    /// no_pfc, no_ecn and no_gpudirect the node's settings files; congested and every other fault
    /// change the traffic from the next update on. Files are replaced atomically, so agents may read
    /// meanwhile. Counters keep their values (a link that goes down stops counting). A swap cannot
    /// happen to a running fabric and is refused. Faults only add up: there is no repair. Call it
    /// from the thread that calls update() (neither locks), after writeTree().
    core::Status injectFault(const Fault& fault);

    const std::vector<EmulatedNode>& nodes() const;
    /// The plan with the cabling faults applied (swapped leaf ends, unplugged links not installed).
    const core::Plan& cabledPlan() const;
    /// <root>/fabric.ibnet; empty for RoCEv2 plans (no subnet to describe).
    std::filesystem::path ibnetPath() const;
    std::size_t portCount() const;
    /// Every cabled switch port's counters so far (InfiniBand; empty for RoCEv2), in
    /// (device, port) order. The traffic model is at switchRates() in emulator.cpp.
    std::vector<SwitchPortCounters> switchPortCounters() const;

private:
    FabricEmulator();
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// The kernel's `rate` text for a port rate: "400 Gb/sec (4X NDR)". Ethernet rates are named as
/// mlx5 maps them onto an InfiniBand width and lane speed ("200 Gb/sec (4X HDR)" for 4 x 50G).
std::string sysfsRateText(const core::PortRate& rate);
/// A GUID as sysfs writes it: "5259:0100:0000:0302".
std::string sysfsGuid(std::uint64_t guid);

/// Writes agents.json (interfaces.md §4) atomically: `tokenFile` as given (relative to the
/// file's folder, or absolute), one entry per agent.
struct AgentListing {
    std::string node;
    std::string url;
};
core::Status writeAgentsJson(const std::filesystem::path& path, const std::string& tokenFile,
    const std::vector<AgentListing>& agents);

} // namespace railyard::live
