// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/plan_spec.h"
#include "planner/planner.h"

#include <gtest/gtest.h>

#include <string>

namespace railyard::test {

/// The built-in catalog, loaded once.
inline const core::Catalog& catalog()
{
    static const core::Catalog c = [] {
        auto r = core::Catalog::builtin();
        if (!r)
            ADD_FAILURE() << r.error().toString();
        return r ? std::move(r).value() : core::Catalog {};
    }();
    return c;
}

inline core::PlanSpec ibSpec(const std::string& nodeType, int nodes, core::IbGeneration gen, const std::string& sw)
{
    core::PlanSpec s;
    s.fabric = core::Fabric::InfiniBand;
    s.nodeType = nodeType;
    s.nodes = nodes;
    s.link.generation = gen;
    s.link.width = 4;
    s.leafSwitch = sw;
    s.spineSwitch = sw;
    return s;
}

inline core::PlanSpec h100(int nodes, int mgmt = 0)
{
    auto s = ibSpec("dgx-h100", nodes, core::IbGeneration::NDR, "qm9700");
    s.suSize = 32;
    s.managementPorts = mgmt;
    return s;
}

inline core::Plan plan(const core::PlanSpec& spec)
{
    auto r = planner::makePlan(spec, catalog());
    if (!r) {
        ADD_FAILURE() << r.error().toString();
        return {};
    }
    return std::move(r).value();
}

inline bool hasFinding(const core::Plan& p, const std::string& code)
{
    for (const auto& f : p.findings) {
        if (f.code == code)
            return true;
    }
    return false;
}

inline long long bomQuantity(const core::Plan& p, const std::string& catalogId)
{
    long long n = 0;
    for (const auto& l : p.bom) {
        if (l.catalogId == catalogId)
            n += l.quantity;
    }
    return n;
}

inline long long bomCategory(const core::Plan& p, const std::string& category)
{
    long long n = 0;
    for (const auto& l : p.bom) {
        if (l.category == category)
            n += l.quantity;
    }
    return n;
}

} // namespace railyard::test
