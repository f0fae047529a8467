// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/plan_spec.h"
#include "core/progress.h"
#include "core/result.h"

#include <stop_token>

namespace railyard::planner {

/// Sizes a rail-optimized fat-tree from `spec` and the parts in `catalog`: SUs, leaves, spines
/// and cores, the cable map with media and lengths, the bill of materials, the graph analysis
/// and the findings.
///
/// Returns an error only when the input cannot be planned at all (unknown catalog id, a
/// value the catalog cannot satisfy); a design that breaks a rule is still returned, with
/// error findings. Checks `stop` between phases and inside long loops; a stopped call returns
/// the error code "CANCELLED".
core::Result<core::Plan> makePlan(const core::PlanSpec& spec, const core::Catalog& catalog,
    core::ProgressSink& progress, std::stop_token stop = {});

/// Same, without progress or cancel.
core::Result<core::Plan> makePlan(const core::PlanSpec& spec, const core::Catalog& catalog);

} // namespace railyard::planner
