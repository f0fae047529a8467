// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "planner/sizing.h"

#include <vector>

namespace railyard::planner {

/// InfiniBand unicast LIDs (0x0001-0xBFFF, opensm ib_types.h).
inline constexpr long long kUnicastLids = 49151;

/// Design rules that need the sized fabric: the LID budget of an InfiniBand subnet, the
/// RoCEv2 lossless profile, planes. (Sizing, speed and cabling rules report as they run.)
void checkRules(const core::PlanSpec& spec, const Shape& shape, core::Plan& plan,
    std::vector<core::Finding>& findings);

} // namespace railyard::planner
