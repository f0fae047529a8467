// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Invariants of the cable map, whatever the plan.
#include "planner_test_util.h"

#include <map>
#include <set>
#include <tuple>

using namespace railyard;
using railyard::test::plan;

namespace {

void expectInvariants(const core::Plan& p)
{
    const auto& s = p.summary;
    std::set<std::tuple<std::uint32_t, int, int>> used;
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> leafSpine;
    std::map<std::uint32_t, std::set<std::uint32_t>> spinesOfLeaf;
    for (const auto& l : p.links) {
        for (const auto* end : { &l.a, &l.b }) {
            const auto& d = p.devices[end->device];
            EXPECT_TRUE(used.insert({ end->device, end->port, end->plane }).second) << "port used twice: " << p.portName(*end);
            if (d.kind == core::DeviceKind::Switch) {
                EXPECT_GE(end->port, 1);
                EXPECT_LE(end->port, d.ports) << p.portName(*end);
            }
        }
        const auto& a = p.devices[l.a.device];
        const auto& b = p.devices[l.b.device];
        if (l.tier == core::LinkTier::NodeLeaf && a.kind == core::DeviceKind::Node) {
            // NIC k of every node on the rail-k leaf of its SU (and its plane).
            EXPECT_EQ(b.tier, core::SwitchTier::Leaf);
            EXPECT_EQ(b.rail, l.a.port) << p.portName(l.a) << " -> " << b.name;
            EXPECT_EQ(b.su, a.su) << p.portName(l.a) << " -> " << b.name;
            EXPECT_EQ(b.plane, s.planes > 1 ? l.a.plane + 1 : 0);
            EXPECT_LE(l.b.port, s.leafDownlinks);
        }
        if (l.tier == core::LinkTier::LeafSpine) {
            EXPECT_EQ(a.tier, core::SwitchTier::Leaf);
            EXPECT_EQ(b.tier, core::SwitchTier::Spine);
            EXPECT_EQ(a.plane, b.plane);
            ++leafSpine[{ l.a.device, l.b.device }];
            spinesOfLeaf[l.a.device].insert(l.b.device);
        }
        if (l.tier == core::LinkTier::SpineCore) {
            EXPECT_EQ(a.tier, core::SwitchTier::Spine);
            EXPECT_EQ(b.tier, core::SwitchTier::Core);
        }
    }
    // Every leaf reaches every spine of its group with the same number of links.
    for (const auto& [pair, n] : leafSpine)
        EXPECT_EQ(n, s.linksPerLeafSpine) << p.devices[pair.first].name << " - " << p.devices[pair.second].name;
    for (const auto& [leaf, spines] : spinesOfLeaf)
        EXPECT_EQ(static_cast<int>(spines.size()), s.spinesPerGroup) << p.devices[leaf].name;
    // Names are unique.
    std::set<std::string> names;
    for (const auto& d : p.devices)
        EXPECT_TRUE(names.insert(d.name).second) << d.name;
    // Links and assemblies are counted apart, and every link has one.
    for (const auto& l : p.links)
        ASSERT_LT(l.assembly, p.assemblies.size());
}

} // namespace

TEST(CableMap, InvariantsTwoTier)
{
    expectInvariants(plan(test::h100(127, 4)));
}

TEST(CableMap, InvariantsThreeTier)
{
    expectInvariants(plan(test::ibSpec("dgx-b200", 640, core::IbGeneration::NDR, "qm9700")));
}

TEST(CableMap, InvariantsTwinPlane)
{
    core::PlanSpec s;
    s.fabric = core::Fabric::RoCEv2;
    s.nodeType = "dgx-b300";
    s.nodes = 100;
    s.link.speedGbps = 400;
    s.planes = 2;
    s.leafSwitch = s.spineSwitch = "sn5600";
    expectInvariants(plan(s));
}

TEST(CableMap, NamesFollowTheContract)
{
    const auto p = plan(test::h100(127, 4));
    EXPECT_EQ(p.portName(p.links[0].a), "node001/nic0");
    EXPECT_EQ(p.portName(p.links[0].b), "su1-rail0-leaf/1");
    // node007, NIC 3 -> rail-3 leaf of SU 1, port 7.
    const auto& l = p.links[6 * 8 + 3];
    EXPECT_EQ(p.portName(l.a), "node007/nic3");
    EXPECT_EQ(p.portName(l.b), "su1-rail3-leaf/7");
    EXPECT_EQ(p.cageOf(l.b), std::make_pair(4, 1));
    // node033 is the first node of SU 2.
    EXPECT_EQ(p.portName(p.links[32 * 8].b), "su2-rail0-leaf/1");
    // Management ports: highest free node port of the first leaves with room (SU 4 holds 31 nodes).
    std::vector<std::string> mgmt;
    for (const auto& link : p.links) {
        if (p.devices[link.a.device].kind == core::DeviceKind::Management)
            mgmt.push_back(p.portName(link.a) + " " + p.portName(link.b));
    }
    ASSERT_EQ(mgmt.size(), 4u);
    EXPECT_EQ(mgmt[0], "mgmt1/1 su4-rail0-leaf/32");
    EXPECT_EQ(mgmt[3], "mgmt4/1 su4-rail3-leaf/32");
    EXPECT_EQ(p.devices[p.links.back().b.device].name, "spine16");
}

TEST(CableMap, ManagementOnSuOneWhenThereIsRoom)
{
    const auto p = plan(test::h100(31, 4));
    int placed = 0;
    for (const auto& link : p.links) {
        if (p.devices[link.a.device].kind == core::DeviceKind::Management) {
            EXPECT_EQ(p.portName(link.b), "su1-rail" + std::to_string(placed) + "-leaf/32");
            ++placed;
        }
    }
    EXPECT_EQ(placed, 4);
}

TEST(CableMap, Deterministic)
{
    const auto a = plan(test::h100(95, 4));
    const auto b = plan(test::h100(95, 4));
    ASSERT_EQ(a.links.size(), b.links.size());
    for (std::size_t i = 0; i < a.links.size(); ++i) {
        EXPECT_EQ(a.portName(a.links[i].a), b.portName(b.links[i].a));
        EXPECT_EQ(a.portName(a.links[i].b), b.portName(b.links[i].b));
        EXPECT_EQ(a.links[i].lengthM, b.links[i].lengthM);
    }
}

TEST(CableMap, ThreeTierNames)
{
    const auto p = plan(test::ibSpec("dgx-b200", 512, core::IbGeneration::NDR, "qm9700"));
    std::set<std::string> names;
    for (const auto& d : p.devices)
        names.insert(d.name);
    EXPECT_TRUE(names.count("su16-spine8"));
    EXPECT_TRUE(names.count("core64"));
    EXPECT_FALSE(names.count("spine1"));
}

TEST(CableMap, MediaByReach)
{
    // Leaves in the node racks: the twin-port cage's two rails take one splitter DAC.
    auto spec = test::h100(32);
    spec.racks.leafPlacement = "rack";
    const auto p = plan(spec);
    const auto& first = p.links[0];
    EXPECT_EQ(first.medium, core::Medium::Dac);
    EXPECT_EQ(p.assemblies[first.assembly].links, 2);
    EXPECT_EQ(first.assembly, p.links[1].assembly);
    EXPECT_NE(first.assembly, p.links[2].assembly);
    EXPECT_LT(p.summary.assemblies, p.summary.cables.total());
}

TEST(CableMap, DacBeyondReachIsReported)
{
    // Top-of-rack leaves but long vertical runs: copper cannot reach, optics take over.
    auto spec = test::h100(32);
    spec.racks.leafPlacement = "rack";
    spec.racks.inRackM = 4;
    const auto p = plan(spec);
    EXPECT_TRUE(test::hasFinding(p, "DAC_BEYOND_REACH"));
    EXPECT_NE(p.links[0].medium, core::Medium::Dac);
    spec.racks.inRackM = 1;
    EXPECT_FALSE(test::hasFinding(plan(spec), "DAC_BEYOND_REACH"));
}
