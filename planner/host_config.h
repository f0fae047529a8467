// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "planner/addressing.h"
#include "planner/switch_config_intent.h"

#include <string>
#include <utility>
#include <vector>

// Host configuration of a routed RoCEv2 plan, per node: each rail NIC's address, source-based
// routing (a routing table per NIC) and ARP/rp_filter settings so that traffic leaves by the NIC
// that owns its source address, the NIC's QoS (mlnx_qos trust and PFC, DSCP-to-priority), the mlx5
// ECN/DCQCN enables, the RoCE ToS of rdma_cm connections, and the NCCL environment.
//
// Netdev names: the catalog names each rail's RDMA device (or PCI address) in the node type's
// rail map, not its netdev, and netdev names differ between hosts (ens1f0np0, enp12s0np0...).
// The scripts therefore find the netdev on the host from the RDMA device and port
// (/sys/class/infiniband/<dev>/ports/<port>/gid_attrs/ndevs/0; a PCI address first through
// /sys/bus/pci/devices/<addr>/infiniband/).
namespace railyard::planner {

/// The routing table of rail `rail`, plane index `planeIndex` (0-based) on a plan of `planes`
/// planes: 100 + rail x planes + planeIndex. Its `ip rule` has the same priority.
int hostRoutingTable(int rail, int planeIndex, int planes);

/// One NIC port of a node.
struct NicIntent {
    int rail = 0;
    int plane = 0;            ///< as NicAddress::plane (0 without planes)
    std::string railMapEntry; ///< the node type's rail map entry: "mlx5_3" or a PCI address "0000:5a:00.0"
    int devicePort = 1;       ///< the RDMA device's port: the plane's (1 without planes)
    std::string address;
    int prefixLength = 31;
    std::string network;      ///< the connected network: the /31 or the leaf's subnet
    std::string gateway;
    std::string leafPort;     ///< where it plugs in, "su1-rail0-leaf/1"
    int table = 100;          ///< hostRoutingTable()
};

/// What one node must carry.
struct HostIntent {
    std::string node;
    QosIntent qos;
    std::vector<NicIntent> nics; ///< rail order (and plane within a rail)
    /// NCCL_IB_GID_INDEX (core::kRoceV2Ipv4GidIndex) and NCCL_IB_TC (NCCL_IB_HCA is built on the host from the resolved devices).
    std::vector<std::pair<std::string, std::string>> ncclEnv;
};

/// The commands hostScript() runs, one function each, so that a live check's fix for a setting
/// is exactly the script's command for it. `netdev` is the word inside the quotes: the script
/// passes "$NET" (found on the host), a check the netdev it saw ("enp19s0np0").
std::string hostMtuCommand(const QosIntent& qos, const std::string& netdev);        ///< ip link set dev "N" mtu 9000 up
std::string hostAddressCommand(const NicIntent& nic, const std::string& netdev);    ///< ip addr replace A/P dev "N"
std::string hostNicSysctlCommand(const std::string& netdev);                        ///< rp_filter=2 arp_ignore=1 arp_announce=2 of N
std::string hostAllSysctlCommand();                                                 ///< net.ipv4.conf.all arp_ignore=1 arp_announce=2
std::vector<std::string> hostRouteCommands(const NicIntent& nic, const std::string& netdev); ///< connected and default route of its table
std::vector<std::string> hostRuleCommands(const NicIntent& nic);                    ///< the rule's old copies deleted, then added
std::string hostQosCommand(const QosIntent& qos, const std::string& netdev);        ///< mlnx_qos trust and PFC vector

/// Every node (or only `onlyNode`), in plan order. `railMap` is the node type's (core::NodeType::
/// railMap): an RDMA device name or PCI address per rail. Errors: HOST_RAIL_MAP (no rail map, too
/// few entries, or an entry that is neither a device name nor a PCI address), NODE_UNKNOWN,
/// ADDRESS_PLAN_MISMATCH, ADDRESSING_NOT_ROCE.
core::Result<std::vector<HostIntent>> hostIntents(const core::Plan& plan, const AddressPlan& addresses,
    const std::vector<std::string>& railMap, const std::string& onlyNode = {});

/// The node's POSIX shell script (run as root; idempotent: it replaces addresses, routes and rules).
std::string hostScript(const core::Plan& plan, const HostIntent& host);

/// hostIntents() then hostScript(): one `<node>.sh` per node.
core::Result<std::vector<ConfigFile>> hostConfigs(const core::Plan& plan, const AddressPlan& addresses,
    const std::vector<std::string>& railMap, const std::string& onlyNode = {});
/// The same scripts handed to `sink` one by one, as each is made.
core::Status forEachHostConfig(const core::Plan& plan, const AddressPlan& addresses, const std::vector<std::string>& railMap,
    const ConfigSink& sink, const std::string& onlyNode = {});

} // namespace railyard::planner
