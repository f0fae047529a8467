// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"

#include <ostream>

namespace railyard::app::cli {

// Sections of the human summary (summary_printer.h puts them together).

/// Switches per tier and model: count (installed now and final with grow_to), ports, used, free.
void printSwitchSection(const core::Plan& plan, std::ostream& out);
/// Links per tier, physical assemblies, media, lengths; transceivers.
void printLinkSection(const core::Plan& plan, std::ostream& out);
/// Oversubscription as built, bisection, per-GPU bandwidth, LIDs, power and cost.
void printBandwidthSection(const core::Plan& plan, std::ostream& out);
/// Hop counts, equal-cost paths, connectivity and free ports.
void printPathSection(const core::Plan& plan, std::ostream& out);
/// The worst single switch and cable failure per tier.
void printFailureSection(const core::Plan& plan, std::ostream& out);
/// The first lines of the bill of materials.
void printBomSection(const core::Plan& plan, std::ostream& out);

} // namespace railyard::app::cli
