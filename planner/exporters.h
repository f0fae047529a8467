// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "core/result.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace railyard::planner {

/// Port-to-port cable map as CSV, one row per link (RFC 4180 quoting, LF line ends).
/// Columns: a,a_cage,a_pos,b,b_cage,b_pos,tier,type,length_m,part,assembly,installed.
/// Cage and position are empty for node and management ports; `assembly` is 1-based.
void writeCablesCsv(const core::Plan& plan, std::ostream& out);
/// Bill of materials as CSV, one row per BOM line and a last `total` row (quantity, price
/// when every line is priced, and total power in the power column).
void writeBomCsv(const core::Plan& plan, std::ostream& out);
/// Bill of materials as JSON: { "plan": name, "lines": [...], "totals": {...} }.
void writeBomJson(const core::Plan& plan, std::ostream& out);
/// XLSX workbooks (libxlsxwriter); written to `path` directly.
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

} // namespace railyard::planner
