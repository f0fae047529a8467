// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `live check`: what each node has (agents' /v1/inventory, or agentless dumps) against the plan.
// The comparison is a pure function of the plan, the catalog (the node type's rail map) and the
// inventories; getting the inventories is separate (observeAgents, observeDumps).
//
// Finding codes (severity): NODE_UNREACHABLE (error), TOKEN_REFUSED (error), AGENT_ERROR (error),
// UNPLANNED_NODE (warning), NODE_NAME_MISMATCH (warning), RAIL_NIC_MISSING (error),
// LINK_LAYER_MISMATCH (error), LINK_DOWN (error), NO_SUBNET_MANAGER (error), LINK_DEGRADED (error),
// FIRMWARE_MISMATCH (warning), GPU_MISSING (error), GPU_NIC_AFFINITY (warning), NO_GPUDIRECT (error),
// PCIE_DEGRADED (warning), ACS_ENABLED (warning), MTU_TOO_SMALL (warning), PFC_MISSING (error),
// PFC_EXTRA_PRIORITY (warning), TRUST_MISMATCH (error), ECN_DISABLED (error), DCQCN_DISABLED (error),
// HOST_INTENT_UNAVAILABLE (warning: a routed plan whose host intent cannot be made), and on routed
// RoCEv2 plans the host checks of host_intent_check.h: ADDRESS_MISSING (error),
// ADDRESS_PREFIX_MISMATCH (error), GID_INDEX_MISMATCH (error), RP_FILTER_STRICT (error),
// ARP_SETTINGS_MISMATCH (warning), ROUTE_RULE_MISSING (error), ROUTE_TABLE_MISMATCH (error);
// CANNOT_VERIFY (info: a setting the host did not let us read).
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"
#include "live/client/agent_client.h"
#include "live/common/inventory.h"

#include <nlohmann/json_fwd.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace railyard::live {

/// What one inventory (an agent's answer or a node's dumps) gave for one node, or why there is none.
struct NodeObservation {
    std::string node;                 ///< the plan's name, as agents.json or the dump folder names it
    std::string source;               ///< agent URL or dump folder
    std::optional<Inventory> inventory;
    std::optional<core::Error> error; ///< set when there is no inventory (codes: agent_error::*, INVENTORY_*, DUMP_*)
};

/// One RDMA device of a node as it was seen (for the report and --json).
struct DeviceSeen {
    std::string device;    ///< "mlx5_5"
    int rail = -1;         ///< -1: not a rail NIC of the plan
    std::string linkLayer; ///< "InfiniBand", "Ethernet", "unknown"
    std::string state;     ///< port 1 (or the rail's port): "ACTIVE"
    std::string physState; ///< "LinkUp"
    std::string rate;      ///< "400 Gb/sec (4X NDR)"
    std::string firmware;
    int mtu = 0;           ///< netdev MTU (informational on InfiniBand)
};

/// Per planned (or listed) node: did it answer, and what did it show.
struct NodeStatus {
    std::string node;
    std::string source;
    bool planned = true;
    bool reachable = false;
    std::string error;   ///< why there is no inventory, in words (empty when reachable)
    std::string hostname;
    std::vector<DeviceSeen> devices;
    int gpus = 0;
    std::vector<std::string> warnings; ///< what the node could not read (from the inventory)
};

/// One of the nodes' reading notes (NodeStatus::warnings: what a node's sysfs or outputs did not
/// give) with every node that gave it, so that a fabric whose every node says the same reads as one
/// note, not one per node.
struct ReadingNote {
    std::string text;
    std::vector<std::string> nodes; ///< in the order of `nodes` below, each once
};

/// The nodes' warnings grouped by text, in the order they are first met.
std::vector<ReadingNote> readingNotes(const std::vector<NodeStatus>& nodes);

/// The outcome of `live check`.
struct LiveCheckReport {
    std::vector<core::Finding> findings; ///< grouped by node, in plan order
    std::vector<NodeStatus> nodes;       ///< plan order, then unplanned nodes
    bool complete = true;                ///< false when some planned node could not be seen

    bool hasErrors() const;
    int count(core::Severity severity) const;
};

/// The plan's node type's rail map (rail k = device name or PCI address); empty when the catalog has none.
std::vector<std::string> railMapOf(const core::Plan& plan, const core::Catalog& catalog);

/// Compares the plan with what was seen. Pure: no I/O. Every finding's `where` names the node
/// ("node007") or the node's rail port as the plan names it ("node007/nic3").
LiveCheckReport checkFabric(const core::Plan& plan, const core::Catalog& catalog,
    const std::vector<NodeObservation>& observed);

/// GETs /v1/inventory from every agent (in parallel, see fetchAll) and reads the answers.
std::vector<NodeObservation> observeAgents(const std::vector<AgentEndpoint>& agents, const FetchOptions& options);

/// Agentless: reads DIR/<node>/ for every planned node (and any other folder of DIR) through
/// inventoryFromDumps. An error when DIR is not a readable folder.
core::Result<std::vector<NodeObservation>> observeDumps(const core::Plan& plan, const core::Catalog& catalog,
    const std::filesystem::path& dir);

/// `{"nodes": [...], "findings": [...], "complete": bool, "summary": {...}}`.
nlohmann::json toJson(const LiveCheckReport& report);

} // namespace railyard::live
