// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/planner.h"

#include "planner/bom.h"
#include "planner/fabric_builder.h"
#include "planner/media.h"
#include "planner/rules.h"
#include "planner/sizing.h"
#include "planner/topology.h"

#include <algorithm>

namespace railyard::planner {

using core::DeviceKind;
using core::LinkTier;
using core::SwitchTier;

namespace {

    core::Error cancelled()
    {
        return core::Error { "CANCELLED", "planning was cancelled", "", "" };
    }

    void countInto(const core::Plan& plan, bool installedOnly, core::SwitchCounts& switches, core::CableCounts& cables)
    {
        for (const auto& d : plan.devices) {
            if (d.kind != DeviceKind::Switch || (installedOnly && !d.installed))
                continue;
            (d.tier == SwitchTier::Leaf ? switches.leaf : d.tier == SwitchTier::Spine ? switches.spine : switches.core)++;
        }
        for (const auto& l : plan.links) {
            if (installedOnly && !l.installed)
                continue;
            (l.tier == LinkTier::NodeLeaf ? cables.nodeLeaf : l.tier == LinkTier::LeafSpine ? cables.leafSpine : cables.spineCore)++;
        }
    }

    void fillSummary(const core::PlanSpec& spec, const Parts& parts, const Shape& s, core::Plan& plan)
    {
        auto& m = plan.summary;
        m.nodes = s.nodes;
        m.gpus = 1LL * s.nodes * parts.gpusPerNode;
        m.rails = s.rails;
        m.planes = s.planes;
        m.suCount = s.suInstalled;
        m.suSize = s.suSize;
        m.leavesPerRail = s.leavesPerRail;
        m.tiers = s.tiers;
        m.pods = s.tiers == 3 ? static_cast<int>((s.suInstalled + s.susPerPod - 1) / s.susPerPod) : 0;
        m.susPerPod = s.susPerPod;
        m.leafDownlinks = s.leafDown;
        m.leafUplinks = s.leafUp;
        m.spinesPerGroup = s.spinesPerGroup;
        m.linksPerLeafSpine = s.linksPerLeafSpine;
        m.spineDownlinks = s.spineDown;
        m.spineUplinks = s.spineUp;
        m.linksPerSpineCore = s.linksPerSpineCore;
        m.port = parts.rate;
        // A GPU has rails/gpus NICs, each with one port per plane.
        m.perGpuGbps = parts.rate.dataGbps * s.planes * s.rails / std::max(1, parts.gpusPerNode);
        m.leafOversubscription = s.leafRatio();
        m.spineOversubscription = s.spineRatio();
        countInto(plan, true, m.switches, m.cables);
        m.assemblies = std::count_if(plan.assemblies.begin(), plan.assemblies.end(), [](const auto& a) { return a.installed; });
        if (spec.growToNodes) {
            core::SwitchCounts sw;
            core::CableCounts cb;
            countInto(plan, false, sw, cb);
            m.finalSwitches = sw;
            m.finalCables = cb;
            m.finalNodes = s.finalNodes;
        }
    }

} // namespace

core::Result<core::Plan> makePlan(const core::PlanSpec& input, const core::Catalog& catalog, core::ProgressSink& progress,
    std::stop_token stop)
{
    core::Plan plan;
    plan.spec = input;
    auto& spec = plan.spec;
    std::vector<core::Finding> findings;

    progress.progress(0.0, "sizing");
    auto parts = resolveParts(spec, catalog, findings);
    if (!parts)
        return parts.errors();
    auto shape = sizeFabric(spec, *parts, findings);
    if (!shape) {
        // Nothing can be built with these parts: the plan is its findings.
        plan.summary.nodes = spec.nodes;
        plan.summary.gpus = 1LL * spec.nodes * parts->gpusPerNode;
        plan.summary.rails = parts->rails;
        plan.summary.planes = spec.planes;
        plan.summary.port = parts->rate;
        plan.findings = std::move(findings);
        return plan;
    }
    if (stop.stop_requested())
        return cancelled();

    progress.progress(0.1, "cable map");
    DeviceLayout layout;
    if (!buildFabric(spec, *parts, *shape, plan, layout, findings, stop))
        return cancelled();

    progress.progress(0.4, "media");
    TransceiverTally tally;
    if (!assignMedia(spec, *parts, *shape, catalog, plan, tally, findings, stop))
        return cancelled();

    progress.progress(0.6, "bill of materials");
    fillSummary(spec, *parts, *shape, plan);
    buildBom(*parts, catalog, tally, plan);
    checkRules(spec, *shape, plan, findings);

    progress.progress(0.7, "analysis");
    if (stop.stop_requested())
        return cancelled();
    plan.summary.bisectionGbps = bisectionGbps(plan);
    const Topology topology(plan);
    plan.analysis = analyzeTopology(plan, topology);
    if (!plan.analysis.connected && plan.summary.nodes > 0) {
        findings.push_back({ core::Severity::Error, "DISCONNECTED",
            "The installed fabric falls apart into " + std::to_string(plan.analysis.components) + " islands.", "" });
    }

    std::stable_sort(findings.begin(), findings.end(),
        [](const core::Finding& a, const core::Finding& b) { return static_cast<int>(a.severity) < static_cast<int>(b.severity); });
    plan.findings = std::move(findings);
    progress.progress(1.0, "done");
    return plan;
}

core::Result<core::Plan> makePlan(const core::PlanSpec& spec, const core::Catalog& catalog)
{
    core::NullProgress none;
    return makePlan(spec, catalog, none);
}

} // namespace railyard::planner
