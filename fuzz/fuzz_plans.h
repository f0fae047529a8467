// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The two fabrics the targets that judge input against a plan use: those of the emulator's tests
// (tests/live/test_sim_support.h), 8 nodes in 2 SUs of 4, one InfiniBand and one lossless RoCEv2.
// Planned once, with the built-in catalog.
#pragma once

#include "core/catalog.h"
#include "core/plan_spec.h"
#include "live/client/live_check.h"
#include "planner/planner.h"
#include "fuzz/fuzz_support.h"

#include <array>
#include <set>
#include <string>
#include <vector>

namespace railyard::fuzz {

struct FuzzPlan {
    core::Plan plan;
    std::vector<std::string> railMap; ///< live::railMapOf
    std::set<std::string> nodes;      ///< the installed nodes' names
    std::string firstNode;            ///< the first of them in the plan's order
};

struct FuzzPlans {
    core::Catalog catalog;
    std::array<FuzzPlan, 2> plans; ///< [0] InfiniBand, [1] RoCEv2
};

/// Planned on first use; a target that cannot plan them stops with `target`'s name.
inline const FuzzPlans& fuzzPlans(const char* target)
{
    static constexpr std::array<const char*, 2> kSpecs {
        R"({ "name": "fuzz IB", "fabric": "infiniband", "nodes": 8, "node_type": "dgx-h100",
             "link": { "generation": "NDR", "width": 4 }, "su_size": 4, "oversubscription": { "leaf": "1:1", "spine": "1:1" } })",
        R"({ "name": "fuzz RoCE", "fabric": "rocev2", "nodes": 8, "node_type": "hgx-8gpu-400g",
             "link": { "speed_gbps": 400, "lanes": 4 }, "su_size": 4, "oversubscription": { "leaf": "1:1", "spine": "1:1" },
             "lossless": { "mode": "lossless", "pfc_priority": 3, "ecn": true, "dcqcn": true, "trust": "dscp" } })",
    };
    static const FuzzPlans planned = [target] {
        FuzzPlans out;
        auto catalog = core::Catalog::builtin();
        if (!catalog)
            fail(target, "the built-in catalog: " + catalog.error().toString());
        out.catalog = std::move(*catalog);
        for (std::size_t i = 0; i < kSpecs.size(); ++i) {
            auto spec = core::parsePlanSpecText(kSpecs[i], "fuzz.plan.json");
            if (!spec)
                fail(target, spec.error().toString());
            auto plan = planner::makePlan(*spec, out.catalog);
            if (!plan)
                fail(target, plan.error().toString());
            FuzzPlan& p = out.plans[i];
            p.plan = std::move(*plan);
            p.railMap = live::railMapOf(p.plan, out.catalog);
            for (const core::Device& d : p.plan.devices) {
                if (d.kind != core::DeviceKind::Node || !d.installed)
                    continue;
                if (p.nodes.empty())
                    p.firstNode = d.name;
                p.nodes.insert(d.name);
            }
        }
        return out;
    }();
    return planned;
}

} // namespace railyard::fuzz
