// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Cabling check: the discovered fabric (InfiniBand discovery, or the agents' LLDP neighbours on
// RoCEv2) against the plan's cable map. Every miswired, missing or unexpected link is reported
// by both ends and by the fix, in the plan's finding shape.
//
// Matching rules (identity is a mapping, not string equality):
// - Adapters (IB channel adapters; RoCE NICs): by a stored identity's GUID; else by node
//   description: "node007/nic3" (the plan's port name, as the exporter and ibsim write it), or
//   "<host> <device>" ("node007 mlx5_3", "node007 HCA-1"): the host is the first word, matched
//   to a plan node by name (then case-insensitively, then by a stored hostname); the device
//   gives the rail through the node type's rail map ("nic<k>" gives rail k); when it does not
//   ("HCA-1"), the rail is the rail of the leaf the adapter reaches. On RoCE the agent names the
//   node and its device's rail.
// - Switches: by a stored identity's GUID; else by a node description (LLDP system name) equal
//   to a planned switch name; else from their neighbours: a switch whose ports reach rail r of
//   nodes of SU s is the leaf the plan puts there, a switch reached by identified leaves is the
//   spine (then core) the plan cables to those leaf ports. Each neighbour votes for the switch
//   the plan puts at the far end (two votes when the planned port number matches too); the
//   majority wins, ties stay unidentified; rounds repeat until nothing changes.
// - Links: a discovered link whose two ends map to a planned link matches. Otherwise, at the end
//   that is a switch (the lower tier when both are), or at the other end when that one has no
//   planned link: CABLE_MISWIRED with the fix "move the cable at X (now to Y) to Z". A planned
//   link with neither end in use is CABLE_MISSING; a link between ports the plan leaves free is
//   CABLE_UNEXPECTED. Switches that cannot be identified, and planned switches not found, are
//   reported once each (SWITCH_UNIDENTIFIED, SWITCH_MISSING) and their links are not checked.
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "live/client/ibnet_parse.h"
#include "live/client/identity.h"
#include "live/common/inventory.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

struct CablingOptions {
    int plane = 1;                   ///< plans with planes: the plane (subnet) that was discovered, 1-based
    const Identity* known = nullptr; ///< a stored identity: its GUIDs and hostnames are used first
};

/// How one discovered switch was identified.
struct SwitchMatch {
    std::uint64_t guid = 0;    ///< 0 for LLDP (no GUID)
    std::string description;   ///< node description or LLDP system name, as found
    std::string name;          ///< planned name; empty when unidentified
    std::string how;           ///< "guid", "description", "hosts", "switches", "lldp"; empty when unidentified
};

struct CablingReport {
    std::vector<core::Finding> findings; ///< stable order: switches, then links in plan order
    int planned = 0;    ///< planned links checked (installed, in the plane; RoCE: node_leaf of nodes seen)
    int matched = 0;    ///< of those, found as planned
    int discovered = 0; ///< links discovered
    std::vector<SwitchMatch> switches; ///< every discovered switch, in discovery order
    Identity identity;  ///< what was identified, plan order
    bool hasErrors() const;
};

/// Checks an InfiniBand fabric (from parseIbnetdiscover or discoverFabric) against the plan.
CablingReport checkIbCabling(const core::Plan& plan, const core::Catalog& catalog, const IbFabric& fabric,
    const CablingOptions& options = {});

/// Checks RoCEv2 node cabling from the agents' inventories (each RdmaDevice's `lldp`
/// neighbours) against the plan's node_leaf links. `inventories[i].node` names the plan node.
/// Only nodes present in `inventories` are checked; leaf-spine cabling is not visible to hosts.
CablingReport checkLldpCabling(const core::Plan& plan, const core::Catalog& catalog,
    const std::vector<Inventory>& inventories, const CablingOptions& options = {});

/// A switch port id as LLDP carries it, as a number: "17", "swp17", "Ethernet17", "Eth1/17",
/// "ethernet1/1/17" -> 17 (the last number); breakout sub-ports "swp17s1" (Cumulus, 0-based)
/// and "Eth1/17/2" (Onyx, 1-based) -> the logical port (cage-1)*portsPerCage + position.
/// SONiC's lane-based names (Ethernet0, Ethernet8, ...) are read as the number they carry.
/// nullopt when there is no number.
std::optional<int> switchPortNumber(std::string_view portId, int portsPerCage = 1);

} // namespace railyard::live
