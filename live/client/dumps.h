// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Agentless mode (`live check --dumps DIR`): per-node command outputs instead of agents.
// DIR holds one folder per node, named as the plan names it (node007/), with any of:
//   ibstat.txt, ibdev2netdev.txt, nvidia-smi-topo.txt (`nvidia-smi topo -m`),
//   lldpctl.txt (`lldpctl -f keyvalue`), ethtool-S-<netdev>.txt (`ethtool -S <netdev>`),
//   mlnx_qos-<netdev>.txt (`mlnx_qos -i <netdev>`),
//   dcb-pfc-<netdev>.txt (`dcb pfc show dev <netdev>`; read when there is no mlnx_qos file),
//   lsmod.txt (`lsmod`: nvidia_peermem or nv_peer_mem listed -> GPUDirect peermem On, not listed ->
//   Off; no file -> Unknown. dma-buf support stays Unknown: no dump tells it).
// Each file holds the tool's output; a shell transcript around it (prompt lines, a leading
// `# source:` comment) is accepted, as tool_parsers.h says. A byte that is not UTF-8 (a Latin-1
// host name, terminal garbage in a transcript) reads as U+FFFD, so that the inventory, its
// warnings and `live check --json` always print.
// What the dumps cannot tell, and stays unknown: PCI addresses (ibstat prints none, so a rail map
// by PCI address cannot be applied), netdev MTU, node description, board id, ECN/DCQCN
// enablement, PCIe link state, ACS, the GID table, link width and generation (ibstat's "Rate:"
// has neither).
#pragma once

#include "core/result.h"
#include "live/common/inventory.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace railyard::live {

/// The node folders of DIR, sorted by name (hidden ones, ".name", skipped); an error naming DIR
/// when it is not a readable folder or holds no node folder.
core::Result<std::vector<std::string>> dumpNodes(const std::filesystem::path& dir);

/// One node's inventory from its folder. `railMap`: rail k = device name or PCI address.
/// What a missing file cannot tell stays unknown and is listed in Inventory::warnings; so is a
/// file that is not its tool's output (the parser's error, with the file name and line). An error
/// only when the folder cannot be read.
/// - devices and ports from ibstat.txt; netdev from ibdev2netdev.txt. Without ibstat.txt the
///   devices named by ibdev2netdev.txt or the topology's NIC legend are listed with no ports (so
///   presence is known, state is not).
/// - rails: device k of the rail map by name; PCI-address entries cannot be matched (warning).
/// - GPUs from nvidia-smi-topo.txt: index from "GPU<n>", numaNode from "NUMA Affinity",
///   closestNic/pathToNic the NIC with the best relation (PIX < PXB < PHB < NODE < SYS), ties to
///   the lowest NIC column; unknown when the row was cut before a PIX NIC could be seen.
/// - LLDP neighbours from lldpctl.txt, attached to the device whose netdev is the local interface.
/// - QoS (PFC per priority and trust) from mlnx_qos-<netdev>.txt, else PFC from dcb-pfc-<netdev>.txt.
core::Result<Inventory> inventoryFromDumps(const std::filesystem::path& nodeDir, const std::string& node,
    const std::vector<std::string>& railMap);

/// The ethtool statistics of a node's dumps: one PortCounters per device of `inventory` that has a
/// netdev and an ethtool-S-<netdev>.txt file (device, port 1, rail, netdev, ethtool filled; no
/// sysfs counters). timestampMs is the newest modification time of those files (0 when none).
/// Files that are not `ethtool -S` output are left out and named in `warnings`.
CounterSnapshot countersFromDumps(const std::filesystem::path& nodeDir, const Inventory& inventory,
    std::vector<std::string>& warnings);

} // namespace railyard::live
