// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Identity: which discovered thing is which planned thing. A mapping, never string equality:
// plan names against GUIDs, node descriptions, hostnames, PCI addresses and LLDP ports, as
// `live cabling` established it (or an operator stored it). Also writes what OpenSM reads:
// the node-name map (GUID -> planned name) and the ftree root-GUID file.
#pragma once

#include "core/plan.h"
#include "core/result.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// What a plan name was matched to.
struct IdentityEntry {
    std::string name;  ///< the plan's name: a switch ("su1-rail3-leaf") or a NIC port ("node007/nic3", "mgmt1/1")
    std::string kind;  ///< "switch", "nic" or "management"
    std::string tier;  ///< switches: "leaf", "spine" or "core"; empty otherwise
    std::vector<std::uint64_t> guids; ///< IB: node GUID first, then port GUIDs; empty for RoCE
    std::string nodeDescription;      ///< IB NodeDescription as found ("node007 mlx5_3", "MF0;sw-12:MQM9700/U1")
    std::string hostname;             ///< nodes: the host name seen (first word of the description, or the agent's)
    std::string device;               ///< nodes: RDMA device ("mlx5_3") when known
    std::string pciAddress;           ///< nodes: the NIC's PCI address when known (from the agent)
    std::string lldpSystemName;       ///< RoCE switches: the LLDP system name; NICs: the neighbour's
    std::string lldpPort;             ///< RoCE NICs: the neighbour's port id as sent ("swp17")
    std::string how;                  ///< how the match was made: "guid", "description", "hosts", "switches", "lldp", "agent"
    bool operator==(const IdentityEntry&) const = default;
};

/// The whole mapping, in plan order (switches and NICs as the plan lists them).
struct Identity {
    std::string plan;  ///< the plan's name, for the reader
    std::vector<IdentityEntry> entries;

    /// The entry for a plan name, or nullptr.
    const IdentityEntry* byName(std::string_view name) const;
    /// The entry holding this GUID (node or port GUID), or nullptr.
    const IdentityEntry* byGuid(std::uint64_t guid) const;
    /// Adds the entry, or replaces the one with the same name.
    void put(IdentityEntry entry);
};

/// `{ "plan": ..., "entries": [ { "name", "kind", "tier", "guids": ["0x..."], "node_description",
/// "hostname", "device", "pci_address", "lldp_system_name", "lldp_port", "how" } ] }`
/// (empty fields left out).
nlohmann::json toJson(const Identity& identity);
/// `where` names the source in errors (a file path); unknown keys and bad GUIDs are errors.
core::Result<Identity> identityFromJson(const nlohmann::json& doc, std::string_view where);
core::Result<Identity> readIdentityFile(const std::string& path);
core::Status writeIdentityFile(const Identity& identity, const std::string& path);

/// OpenSM / ibnetdiscover node-name map (`--node-name-map`, opensm `node_name_map`): one line
/// `0x<node guid> "<planned name>"` per entry with a GUID, switches first, then adapters, with a
/// comment header. Adapters are named by their plan port name ("node007/nic3").
void writeNodeNameMap(const Identity& identity, std::ostream& out);

/// The root switches of the fat tree: the plan's top tier (spines with two tiers, cores with
/// three), as node GUIDs in plan order. Roots not identified are left out: `missing` gets their names.
std::vector<std::uint64_t> rootGuids(const Identity& identity, const core::Plan& plan,
    std::vector<std::string>* missing = nullptr);
/// OpenSM's ftree `root_guid_file`: one `0x<guid>` per line.
void writeRootGuids(const std::vector<std::uint64_t>& guids, std::ostream& out);

} // namespace railyard::live
