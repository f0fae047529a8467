// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Small core::Plan objects built by hand (no planner), shared by the exporter unit tests and
// the ibsim integration test.
#pragma once

#include "core/plan.h"

#include <string>
#include <vector>

namespace railyard::testing {

struct SmallFabric {
    std::vector<std::string> nodes { "node001", "node002", "node003", "node004" };
    int rails = 2;          ///< one leaf per rail
    int spines = 1;
    int uplinksPerLeaf = 2; ///< spread round-robin over the spines
    int planes = 1;
    bool growLink = true;   ///< one extra leaf-spine link planned for grow_to, not installed
};

namespace detail {

    inline std::uint32_t addSwitch(core::Plan& plan, std::string name, core::SwitchTier tier, int plane, int rail)
    {
        core::Device d;
        d.name = std::move(name);
        d.kind = core::DeviceKind::Switch;
        d.tier = tier;
        d.model = "qm9700";
        d.plane = plane;
        d.su = tier == core::SwitchTier::Leaf ? 1 : 0;
        d.rail = rail;
        d.ports = 64;
        d.portsPerCage = 2;
        plan.devices.push_back(d);
        return static_cast<std::uint32_t>(plan.devices.size() - 1);
    }

    inline void addLink(core::Plan& plan, core::PortRef a, core::PortRef b, core::LinkTier tier, bool installed,
        float lengthM, bool shareAssembly)
    {
        if (!shareAssembly) {
            core::Assembly assembly;
            assembly.cable = tier == core::LinkTier::NodeLeaf ? "mfp7e10-n005" : "mcp4y10-n002";
            assembly.medium = tier == core::LinkTier::NodeLeaf ? core::Medium::Mmf : core::Medium::Dac;
            assembly.lengthM = lengthM;
            assembly.installed = installed;
            plan.assemblies.push_back(assembly);
        } else {
            plan.assemblies.back().links = 2;
        }
        core::Link link { a, b, tier, plan.assemblies.back().medium, lengthM,
            static_cast<std::uint32_t>(plan.assemblies.size() - 1), installed };
        plan.links.push_back(link);
        for (const auto& end : { a, b })
            if (plan.devices[end.device].kind == core::DeviceKind::Switch)
                ++plan.devices[end.device].portsUsed;
    }

    inline std::string planePrefix(const SmallFabric& f, int plane)
    {
        return f.planes > 1 ? "p" + std::to_string(plane) + "-" : "";
    }

} // namespace detail

/// Nodes x rails NICs on one leaf per rail (and plane), each leaf with uplinks to the spines.
inline core::Plan buildSmallPlan(const SmallFabric& f)
{
    core::Plan plan;
    plan.spec.name = "hand-built test fabric";
    plan.spec.fabric = core::Fabric::InfiniBand;
    plan.spec.nodes = static_cast<int>(f.nodes.size());
    plan.spec.rails = f.rails;
    plan.spec.nic = "connectx-7";
    plan.spec.link.generation = core::IbGeneration::NDR;
    plan.spec.planes = f.planes;
    plan.spec.nodeNameList = f.nodes;
    plan.summary.port = *core::ibRate(core::IbGeneration::NDR, 4);
    plan.summary.planes = f.planes;
    plan.summary.nodes = plan.spec.nodes;
    plan.summary.rails = f.rails;
    for (const auto& name : f.nodes) {
        core::Device d;
        d.name = name;
        d.model = "generic-8gpu";
        d.su = 1;
        plan.devices.push_back(d);
    }
    for (int p = 1; p <= f.planes; ++p) {
        const int devicePlane = f.planes > 1 ? p : 0;
        std::vector<std::uint32_t> leaves, spines;
        for (int r = 0; r < f.rails; ++r)
            leaves.push_back(detail::addSwitch(plan, detail::planePrefix(f, p) + "su1-rail" + std::to_string(r) + "-leaf",
                core::SwitchTier::Leaf, devicePlane, r));
        for (int s = 1; s <= f.spines; ++s)
            spines.push_back(detail::addSwitch(plan, detail::planePrefix(f, p) + "spine" + std::to_string(s),
                core::SwitchTier::Spine, devicePlane, -1));
        for (std::uint32_t n = 0; n < f.nodes.size(); ++n)
            for (int r = 0; r < f.rails; ++r)
                detail::addLink(plan, { n, static_cast<std::uint16_t>(r), static_cast<std::uint8_t>(p - 1) },
                    { leaves[static_cast<std::size_t>(r)], static_cast<std::uint16_t>(n + 1), 0 },
                    core::LinkTier::NodeLeaf, true, n % 2 ? 2.5f : 3.0f, false);
        std::vector<std::uint16_t> nextSpinePort(spines.size(), 1);
        const int links = f.uplinksPerLeaf * f.rails + (f.growLink ? 1 : 0);
        for (int i = 0; i < links; ++i) {
            const auto leaf = leaves[static_cast<std::size_t>(i % f.rails)];
            const auto s = static_cast<std::size_t>((i / f.rails) % f.spines);
            const auto leafPort = static_cast<std::uint16_t>(33 + i / f.rails);
            const bool installed = i < f.uplinksPerLeaf * f.rails;
            detail::addLink(plan, { leaf, leafPort, 0 }, { spines[s], nextSpinePort[s]++, 0 }, core::LinkTier::LeafSpine,
                installed, 20.0f, installed && i % 2 == 1);
        }
    }
    return plan;
}

} // namespace railyard::testing
