// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>

namespace railyard::planner {

/// The label installers print on the cable of link `linkIndex` (an index into plan.links):
/// "C" and the 1-based link number, zero-padded to six digits, then both ends as the plan names
/// them: "C000123 node004/nic3 <-> su1-rail3-leaf/4". The number follows the plan's link order,
/// which is deterministic for a spec and catalog. Every export that labels cables uses this.
std::string cableLabel(const core::Plan& plan, std::size_t linkIndex);
/// Just the number part of cableLabel(): "C000123".
std::string cableId(std::size_t linkIndex);

/// Port-to-port cable map as CSV, one row per link (RFC 4180 quoting, LF line ends).
/// Columns: a,a_cage,a_pos,b,b_cage,b_pos,tier,type,length_m,part,assembly,installed,label.
/// Cage and position are empty for node and management ports; `assembly` is 1-based;
/// `label` is cableLabel().
void writeCablesCsv(const core::Plan& plan, std::ostream& out);
/// Bill of materials as CSV, one row per BOM line and a last `total` row (quantity, price
/// when every line is priced, and total power in the power column).
void writeBomCsv(const core::Plan& plan, std::ostream& out);
/// Bill of materials as JSON: { "plan": name, "lines": [...], "totals": {...} }.
void writeBomJson(const core::Plan& plan, std::ostream& out);
/// XLSX workbooks (libxlsxwriter); written to `path` directly. The cable sheet has the CSV's columns.
core::Status writeCablesXlsx(const core::Plan& plan, const std::string& path);
core::Status writeBomXlsx(const core::Plan& plan, const std::string& path);

/// How port speeds are written in the ibnetdiscover export.
enum class IbnetSpeeds {
    /// Grades Debian 12's ibsim 0.10 parses (SDR ... HDR) as planned; NDR and XDR as HDR,
    /// the fastest grade it knows, so that the links come up at HDR instead of SDR.
    Ibsim,
    /// The planned grade as `ibnetdiscover` prints it on real hardware (4xNDR, 2xNDR...).
    Planned,
};

struct IbnetdiscoverOptions {
    int plane = 1; ///< 1-based
    IbnetSpeeds speeds = IbnetSpeeds::Ibsim;
};

/// The planned fabric in ibnetdiscover's topology format (what `ibnetdiscover` prints and
/// ibsim reads). With planes, one subnet per plane: `plane` selects it (1-based).
/// Node GUIDs are derived deterministically from device index and plane. Only installed
/// links are written. Speeds as IbnetSpeeds::Ibsim.
void writeIbnetdiscover(const core::Plan& plan, std::ostream& out, int plane = 1);
void writeIbnetdiscover(const core::Plan& plan, std::ostream& out, const IbnetdiscoverOptions& options);

/// The node GUID the ibnetdiscover export gives the switch or host channel adapter that
/// owns `end` in subnet `plane`: 0x5259 ("RY"), plane (8 bits), device index (32 bits),
/// slot (8 bits: 0 for switches, 2 x NIC port for adapters). An adapter's port 1 is GUID + 1.
std::uint64_t ibnetdiscoverGuid(const core::Plan& plan, const core::PortRef& end, int plane);

/// The planned fabric as an IBDM topology file (`ibdiagnet --topo_file`, `ibdmchk -t`), one
/// subnet (plane) per file, `plane` 1-based; installed links only. One section per system:
/// a line `<SYSTEM-TYPE> <SYSTEM-NAME>`, then one line per connected port,
/// `   <PORT> -<width>-<lane speed>G-> <REMOTE-TYPE> <REMOTE-NAME> <REMOTE-PORT>`, then an empty
/// line; every link appears once from each end. See export_topo.cpp for the sources followed.
void writeIbdmTopo(const core::Plan& plan, std::ostream& out, int plane = 1);

/// The topo file's names for one plan device (system) and port.
/// Switch: type from the model ("qm9700" -> "MQM9700"), port "P<logical port>".
/// Node: type from the node type ("dgx-h100" -> "DGX_H100"), port "nic<k>/P1" (with planes,
/// the NIC's port p: "nic<k>/P<p>", the plan's nic<k>-p<p>). Management: type "HCA", port "P1".
std::string topoSystemType(const core::Plan& plan, std::uint32_t device);
std::string topoSystemName(const core::Plan& plan, std::uint32_t device);
std::string topoPortName(const core::Plan& plan, const core::PortRef& port);

/// Names and choices written into the NetBox import files.
struct NetboxOptions {
    std::string site = "railyard";            ///< NetBox site (by name); must exist before import
    std::string nodeRole = "GPU server";      ///< device roles (by name); must exist before import
    std::string leafRole = "Leaf switch";
    std::string spineRole = "Spine switch";
    std::string coreRole = "Core switch";
    std::string managementRole = "Fabric management";
    std::string manufacturer = "NVIDIA";      ///< when the catalog names no vendor for a model
    /// Gives switch vendors and the cage forms that pick Ethernet interface types; without it
    /// Ethernet interfaces are `other` and every manufacturer is `manufacturer`.
    const core::Catalog* catalog = nullptr;
};

/// NetBox bulk-import CSV (dcim devices, interfaces, cables; columns as NetBox's import forms
/// name them). Devices: every switch, node and management port of the plan. Interfaces: every
/// port with a planned link, named by the plan's port part (switch "17", node "nic3" or
/// "nic3-p1", management "1"). Cables: one per link, labelled cableLabel(). Installed items are
/// `planned` (NetBox's status for not yet built); grow_to items too, and their description says so.
void writeNetboxDevicesCsv(const core::Plan& plan, std::ostream& out, const NetboxOptions& options = {});
void writeNetboxInterfacesCsv(const core::Plan& plan, std::ostream& out, const NetboxOptions& options = {});
void writeNetboxCablesCsv(const core::Plan& plan, std::ostream& out, const NetboxOptions& options = {});

/// File names written into the folder, in import order.
inline constexpr const char* kNetboxDevicesFile = "devices.csv";
inline constexpr const char* kNetboxInterfacesFile = "interfaces.csv";
inline constexpr const char* kNetboxCablesFile = "cables.csv";

/// Writes devices.csv, interfaces.csv and cables.csv into `folder` (created if missing), each
/// atomically (a temp file in the folder, synced, then renamed over the target).
core::Status writeNetboxCsv(const core::Plan& plan, const std::string& folder, const NetboxOptions& options = {});

} // namespace railyard::planner
