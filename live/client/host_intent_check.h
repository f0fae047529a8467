// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `live check` on a routed RoCEv2 plan (the spec's `addressing`): each rail NIC's IP state as the
// agent reports it (Inventory::network, RdmaPort::gids) against the plan's host intent
// (planner::hostIntents), node by node. Each mismatch's fix is the command the plan's host
// script runs for that setting (planner/host_config.h's host*Command functions), with the
// netdev the node reported. Pure: no I/O.
//
// Finding codes (severity): ADDRESS_MISSING (error), ADDRESS_PREFIX_MISMATCH (error),
// GID_INDEX_MISMATCH (error), RP_FILTER_STRICT (error), ARP_SETTINGS_MISMATCH (warning),
// ROUTE_RULE_MISSING (error), ROUTE_TABLE_MISMATCH (error); what could not be read goes to
// live check's CANNOT_VERIFY (topics "IP addresses", "GID table", "rp_filter and ARP",
// "policy routing").
#pragma once

#include "core/result.h"
#include "live/common/inventory.h"
#include "planner/host_config.h"

#include <string>
#include <utility>
#include <vector>

namespace railyard::live {

/// One planned NIC port and what the node showed for it.
struct HostNicSeen {
    const planner::NicIntent* intent = nullptr;
    const RdmaDevice* device = nullptr;
    const RdmaPort* port = nullptr;
    std::string where; ///< "node007/nic3" (the plan's port name)
    std::string head;  ///< "node007 rail 3 (mlx5_3)": how findings start
};

struct HostCheckResult {
    std::vector<core::Finding> findings;
    std::vector<std::pair<std::string, std::string>> unverified; ///< (topic, item) for CANNOT_VERIFY
};

/// The GID index the plan's NCCL environment names (NCCL_IB_GID_INDEX), else core::kRoceV2Ipv4GidIndex.
int plannedGidIndex(const planner::HostIntent& host);

/// The host checks of one node whose inventory is `inventory`, for the NIC ports in `nics`
/// (those the node has; a missing NIC or port is live check's RAIL_NIC_MISSING).
HostCheckResult checkHostIntent(const planner::HostIntent& host, const Inventory& inventory, const std::vector<HostNicSeen>& nics);

} // namespace railyard::live
