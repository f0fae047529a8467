// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"

#include <ostream>
#include <string>
#include <vector>

namespace railyard::app::cli {

/// The human summary of `railyard-cli plan`: shape, switches, links, bandwidth, paths,
/// free ports, worst single failures, the top of the BOM and the findings.
/// `source` names the input when the spec has no name.
void printSummary(const core::Plan& plan, const std::string& source, std::ostream& out);

/// "Findings: 1 error, 2 warnings, 0 info" and one aligned line per finding (errors first).
void printFindings(const std::vector<core::Finding>& findings, std::ostream& out);

/// "1 error, 2 warnings, 0 info"
std::string findingCounts(const std::vector<core::Finding>& findings);

} // namespace railyard::app::cli
