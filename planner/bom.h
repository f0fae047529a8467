// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "planner/media.h"
#include "planner/sizing.h"

namespace railyard::planner {

/// Bill of materials for what is installed now: switches by model, nodes and their compute
/// NICs, cable assemblies by part and length, and transceivers with switch-side (finned) and
/// node-side (flat-top) parts on separate lines. Fills the power, rack-unit and cost totals
/// of the summary (cost only when every fabric line has a price).
void buildBom(const Parts& parts, const core::Catalog& catalog, const TransceiverTally& tally, core::Plan& plan);

} // namespace railyard::planner
