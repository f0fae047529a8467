// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "core/result.h"

#include <ostream>
#include <string>

namespace railyard::planner {

/// Port-to-port cable map as CSV, one row per link (RFC 4180 quoting).
void writeCablesCsv(const core::Plan& plan, std::ostream& out);
/// Bill of materials as CSV.
void writeBomCsv(const core::Plan& plan, std::ostream& out);
/// Bill of materials as JSON: { "plan": name, "lines": [...], "totals": {...} }.
void writeBomJson(const core::Plan& plan, std::ostream& out);
/// XLSX workbooks (libxlsxwriter); written to `path` directly.
core::Status writeCablesXlsx(const core::Plan& plan, const std::string& path);
core::Status writeBomXlsx(const core::Plan& plan, const std::string& path);

/// The planned fabric in ibnetdiscover's topology format (what `ibnetdiscover` prints and
/// ibsim reads). With planes, one subnet per plane: `plane` selects it (1-based).
/// Node GUIDs are derived deterministically from device index and plane.
void writeIbnetdiscover(const core::Plan& plan, std::ostream& out, int plane = 1);

} // namespace railyard::planner
