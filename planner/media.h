// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "planner/fabric_builder.h"
#include "planner/sizing.h"

#include <map>
#include <stop_token>
#include <string>
#include <vector>

namespace railyard::planner {

/// Transceivers to buy, by catalog id, for what is installed now.
struct TransceiverTally {
    std::map<std::string, long long> switchSide; ///< finned modules in switch cages
    std::map<std::string, long long> nodeSide;   ///< flat-top modules in node (and management) cages
};

/// Cable length (m, before rounding up to an orderable length) under the rack model of
/// `RackLayout`: vertical runs at both ends, the horizontal distance, and slack.
double nodeLeafLength(const core::RackLayout& racks, const Shape& shape, int slotInSu);
double managementLength(const core::RackLayout& racks);
double leafSpineLength(const core::RackLayout& racks, const Shape& shape, int su);
double spineCoreLength(const core::RackLayout& racks, const Shape& shape, int pod);

/// Chooses the medium of every link and builds the cable assemblies (fabric-facts.md §5).
/// Node-side media are chosen per cage: a twin-port cage feeding two leaves takes a splitter
/// copper cable when both leaves are within its reach, else one twin-port transceiver and one
/// fiber per link. Copper first (DAC, ACC, AOC) when an orderable length reaches; otherwise
/// fiber, multimode for a whole tier when its longest fiber run is within multimode reach,
/// else single-mode. Switch cages with fiber take one transceiver each.
/// Returns false when stopped.
bool assignMedia(const core::PlanSpec& spec, const Parts& parts, const Shape& shape, const core::Catalog& catalog,
    core::Plan& plan, TransceiverTally& tally, std::vector<core::Finding>& findings, std::stop_token stop);

} // namespace railyard::planner
