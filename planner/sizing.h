// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/plan_spec.h"
#include "core/result.h"

#include <vector>

namespace railyard::planner {

/// The catalog parts a spec resolves to, and the port rate every fabric link runs at.
struct Parts {
    const core::NodeType* nodeType = nullptr;
    const core::NicModel* nic = nullptr;
    const core::SwitchModel* leaf = nullptr;
    const core::SwitchModel* spine = nullptr;
    const core::SwitchModel* core = nullptr;
    core::PortRate rate;
    int gpusPerNode = 0;
    int rails = 0;
};

/// Radix and cage geometry of one switch tier at the planned rate.
struct TierPorts {
    int ports = 0;        ///< logical ports (k)
    int portsPerCage = 1; ///< m
};

/// The numbers that fix the fabric's structure (fabric-facts.md §1.8, §7.4). Per plane.
struct Shape {
    int nodes = 0;      ///< installed now
    int finalNodes = 0; ///< with grow_to; else = nodes
    int planes = 1;
    int rails = 0;
    int suSize = 0;         ///< nodes per SU
    int leavesPerRail = 1;  ///< leaves per rail per SU
    int leafDown = 0;       ///< node ports per leaf (design)
    int leafUp = 0;         ///< uplinks per leaf
    int leafReserved = 0;
    int suCount = 0;        ///< SUs at the final size
    int suInstalled = 0;    ///< SUs with installed nodes
    int tiers = 2;
    // Two tiers: one group per plane holding every leaf. Three tiers: one group per pod.
    int susPerPod = 0;      ///< 3 tiers; 1 = the NVIDIA SU-pod form
    int pods = 0;           ///< 3 tiers, at the final size
    int spinesPerGroup = 0;
    int linksPerLeafSpine = 0;
    int spineDown = 0;      ///< downlinks used per spine
    int spineUp = 0;        ///< 3 tiers: uplinks per spine
    int linksPerSpineCore = 0;
    int coresPerPlane = 0;
    TierPorts leafPorts, spinePorts, corePorts;

    int leavesPerSu() const { return rails * leavesPerRail; }
    int leavesPerPlane() const { return suCount * leavesPerSu(); }
    int leavesPerGroup() const { return tiers == 2 ? leavesPerPlane() : susPerPod * leavesPerSu(); }
    int groupsPerPlane() const { return tiers == 2 ? 1 : pods; }
    double leafRatio() const { return leafUp == 0 ? 0 : double(leafDown) / leafUp; }
    double spineRatio() const { return tiers == 2 || spineUp == 0 ? 1.0 : double(spineDown) / spineUp; }
};

/// Resolves catalog ids and defaults. Unknown ids and impossible inputs are errors (the CLI's
/// exit status 2); parts that exist but do not fit together become findings.
core::Result<Parts> resolveParts(core::PlanSpec& spec, const core::Catalog& catalog, std::vector<core::Finding>& findings);

/// Sizes the fabric. Returns nullopt-like failure as a finding-only result when no structure
/// can be built with these parts (the findings say why and what would work).
std::optional<Shape> sizeFabric(core::PlanSpec& spec, const Parts& parts, std::vector<core::Finding>& findings);

/// Smallest divisor of `n` that is at least `atLeast`, or 0 when there is none.
int smallestDivisorAtLeast(int n, int atLeast);
/// Largest divisor of `n` that is at most `atMost`, or 0 when there is none.
int largestDivisorAtMost(int n, int atMost);

} // namespace railyard::planner
