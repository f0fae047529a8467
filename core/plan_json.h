// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "core/result.h"

#include <nlohmann/json_fwd.hpp>

#include <ostream>
#include <string>
#include <string_view>

namespace railyard::core {

/// Writes the plan document (interfaces.md §3) to `out` as it goes: no document-sized
/// DOM is built, so a 128K-GPU plan streams in well under a second.
void writePlanJson(const Plan& plan, std::ostream& out);

/// Reads a plan document written by writePlanJson back into a Plan.
/// Errors name `source` and the member that is wrong.
Result<Plan> readPlanJson(std::string_view text, const std::string& source);

nlohmann::json toJson(const Finding& finding);
nlohmann::json toJson(const Summary& summary);

} // namespace railyard::core
