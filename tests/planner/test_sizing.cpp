// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/sizing.h"
#include "planner_test_util.h"

#include <thread>

using namespace railyard;
using railyard::test::hasFinding;
using railyard::test::plan;

TEST(Sizing, Divisors)
{
    EXPECT_EQ(planner::smallestDivisorAtLeast(32, 12), 16);
    EXPECT_EQ(planner::smallestDivisorAtLeast(72, 16), 18);
    EXPECT_EQ(planner::smallestDivisorAtLeast(7, 8), 0);
    EXPECT_EQ(planner::largestDivisorAtMost(32, 4), 4);
    EXPECT_EQ(planner::largestDivisorAtMost(32, 7), 4);
    EXPECT_EQ(planner::largestDivisorAtMost(9, 0), 0);
}

TEST(Sizing, PartialSuBuiltOutInFull)
{
    const auto p = plan(test::h100(100));
    EXPECT_EQ(p.summary.suCount, 4);
    EXPECT_EQ(p.summary.cables.nodeLeaf, 800);
    EXPECT_EQ(p.summary.cables.leafSpine, 1024);
    EXPECT_TRUE(hasFinding(p, "PARTIAL_SU"));
    EXPECT_EQ(p.analysis.freeLeafDownlinks, 8 * 28);
}

TEST(Sizing, TwoToOneOversubscription)
{
    auto spec = test::ibSpec("dgx-h100", 256, core::IbGeneration::NDR, "qm9700");
    spec.leafOversubscription = { 2, 1 };
    const auto p = plan(spec);
    EXPECT_EQ(p.summary.suSize, 42);
    EXPECT_EQ(p.summary.leafDownlinks, 42);
    EXPECT_EQ(p.summary.leafUplinks, 21);
    EXPECT_DOUBLE_EQ(p.summary.leafOversubscription, 2.0);
    EXPECT_FALSE(hasFinding(p, "OVERSUBSCRIPTION_MISMATCH"));
    EXPECT_TRUE(hasFinding(p, "SU_IDLE_PORTS")); // 42 + 21 = 63 of 64
    // Half the uplink capacity: bisection is half the endpoint bandwidth (full SUs).
    EXPECT_NEAR(p.summary.bisectionGbps, 256 * 8 * 400 / 4.0, 256 * 8 * 400 * 0.02);
}

TEST(Sizing, OversubscriptionNotExactlyBuilt)
{
    auto spec = test::h100(64);
    spec.suSize = 25;
    spec.leafOversubscription = { 2, 1 };
    const auto p = plan(spec);
    EXPECT_EQ(p.summary.leafUplinks, 13);
    EXPECT_TRUE(hasFinding(p, "OVERSUBSCRIPTION_MISMATCH"));
}

TEST(Sizing, ThreeTiersOnRequest)
{
    auto spec = test::h100(128);
    spec.tiers = core::TierMode::Three;
    const auto p = plan(spec);
    EXPECT_EQ(p.summary.tiers, 3);
    EXPECT_EQ(p.summary.switches.spine, 32);
    EXPECT_EQ(p.summary.linksPerSpineCore, 16);
    EXPECT_EQ(p.summary.switches.core, 16);
    EXPECT_EQ(p.summary.cables.spineCore, 32 * 32);
    EXPECT_EQ(p.analysis.hopsAcrossPods, 5);
    EXPECT_EQ(p.analysis.hopsAcrossRails, 3);
}

TEST(Sizing, TwoTiersForcedBeyondReach)
{
    auto spec = test::h100(512);
    spec.tiers = core::TierMode::Two;
    const auto p = plan(spec);
    EXPECT_TRUE(hasFinding(p, "TWO_TIER_LIMIT"));
    EXPECT_TRUE(p.hasErrors());
}

TEST(Sizing, RoceBreakoutEightHundredAsTwoByFourHundred)
{
    core::PlanSpec s;
    s.fabric = core::Fabric::RoCEv2;
    s.nodeType = "hgx-8gpu-400g";
    s.nodes = 256;
    s.link.speedGbps = 400;
    s.leafSwitch = s.spineSwitch = "sn5600";
    const auto p = plan(s);
    EXPECT_EQ(p.summary.suSize, 64);
    EXPECT_EQ(p.summary.switches.leaf, 32);
    EXPECT_EQ(p.summary.switches.spine, 16);
    for (const auto& d : p.devices) {
        if (d.kind == core::DeviceKind::Switch) {
            EXPECT_EQ(d.ports, 128);
            EXPECT_EQ(d.portsPerCage, 2);
        }
    }
    EXPECT_FALSE(p.hasErrors());
}

TEST(Sizing, RoceOneHundredTwentyEightKGpus)
{
    core::PlanSpec s;
    s.fabric = core::Fabric::RoCEv2;
    s.nodeType = "hgx-8gpu-400g";
    s.gpus = 131072;
    s.link.speedGbps = 400;
    s.leafSwitch = s.spineSwitch = "sn5600";
    const auto p = plan(s);
    EXPECT_EQ(p.summary.nodes, 16384);
    EXPECT_EQ(p.summary.tiers, 3);
    EXPECT_GT(p.summary.susPerPod, 1);
    EXPECT_EQ(p.summary.cables.nodeLeaf, 131072);
    EXPECT_EQ(p.summary.cables.leafSpine, 131072);
    EXPECT_EQ(p.summary.cables.spineCore, 131072);
    EXPECT_FALSE(p.hasErrors());
    EXPECT_DOUBLE_EQ(p.summary.bisectionGbps, 131072 * 400 / 2.0);
}

TEST(Sizing, GrowToPlansSpinesForTheFinalSize)
{
    auto spec = test::h100(64);
    spec.growToNodes = 128;
    const auto p = plan(spec);
    EXPECT_EQ(p.summary.switches.leaf, 16);
    EXPECT_EQ(p.summary.switches.spine, 16); // for 4 SUs, not 8 for 2
    EXPECT_EQ(p.summary.cables.leafSpine, 512);
    ASSERT_TRUE(p.summary.finalSwitches);
    EXPECT_EQ(p.summary.finalSwitches->leaf, 32);
    EXPECT_EQ(p.summary.finalCables->leafSpine, 1024);
    EXPECT_EQ(p.summary.finalNodes, 128);
    // The installed leaves already use their final spine ports.
    const auto full = plan(test::h100(128));
    for (std::size_t i = 0; i < p.links.size(); ++i) {
        if (p.links[i].installed) {
            EXPECT_EQ(p.portName(p.links[i].a), full.portName(full.links[i].a));
            EXPECT_EQ(p.portName(p.links[i].b), full.portName(full.links[i].b));
        }
    }
}

TEST(Sizing, SuWiderThanALeaf)
{
    auto spec = test::h100(128);
    spec.suSize = 64;
    const auto p = plan(spec);
    EXPECT_EQ(p.summary.leavesPerRail, 2);
    EXPECT_TRUE(hasFinding(p, "LEAVES_PER_RAIL"));
    EXPECT_EQ(p.devices[128].name, "su1-rail0-leaf1");
    EXPECT_EQ(p.devices[129].name, "su1-rail0-leaf2");
}

TEST(Sizing, SplitPortsNdr200)
{
    auto spec = test::ibSpec("generic-8gpu", 128, core::IbGeneration::NDR, "qm9700");
    spec.link.width = 2;
    const auto p = plan(spec);
    EXPECT_EQ(p.summary.suSize, 64);
    EXPECT_DOUBLE_EQ(p.summary.port.dataGbps, 200);
    EXPECT_EQ(p.devices[p.links.front().b.device].ports, 128);
    EXPECT_EQ(p.devices[p.links.front().b.device].portsPerCage, 4);
}

TEST(Findings, LaneMismatch)
{
    core::PlanSpec s;
    s.fabric = core::Fabric::RoCEv2;
    s.nodeType = "hgx-8gpu-400g";
    s.nodes = 64;
    s.link.speedGbps = 400;
    s.leafSwitch = s.spineSwitch = "sn5400"; // 400G as 8 x 50G
    const auto p = plan(s);
    EXPECT_TRUE(hasFinding(p, "LANE_MISMATCH"));
    EXPECT_TRUE(p.hasErrors());
}

TEST(Findings, InfinibandSwitchInRocePlan)
{
    core::PlanSpec s;
    s.fabric = core::Fabric::RoCEv2;
    s.nodeType = "hgx-8gpu-400g";
    s.nodes = 64;
    s.link.speedGbps = 400;
    s.leafSwitch = s.spineSwitch = "qm9700";
    const auto p = plan(s);
    EXPECT_TRUE(hasFinding(p, "FABRIC_MISMATCH"));
}

TEST(Findings, LidSpace)
{
    auto spec = test::ibSpec("dgx-b200", 8192, core::IbGeneration::NDR, "qm9700");
    const auto p = plan(spec);
    EXPECT_TRUE(hasFinding(p, "LID_SPACE_EXCEEDED") || hasFinding(p, "THREE_TIER_LIMIT"));
}

TEST(Findings, LosslessProfile)
{
    core::PlanSpec s;
    s.fabric = core::Fabric::RoCEv2;
    s.nodeType = "hgx-8gpu-400g";
    s.nodes = 32;
    s.link.speedGbps = 400;
    s.lossless.ecn = false;
    EXPECT_TRUE(hasFinding(plan(s), "PFC_WITHOUT_ECN"));
    s.lossless.ecn = true;
    s.lossless.pfcPriorities = { 3, 4 };
    EXPECT_TRUE(hasFinding(plan(s), "PFC_MULTI_PRIORITY"));
    s.lossless.mode = "lossy";
    EXPECT_TRUE(hasFinding(plan(s), "LOSSY_MODE"));
    s.lossless.mode = "lossless";
    s.lossless.pfcPriorities.clear();
    EXPECT_TRUE(hasFinding(plan(s), "LOSSLESS_WITHOUT_PFC"));
}

TEST(Findings, UnknownIdsAreBadInput)
{
    auto spec = test::h100(32);
    spec.leafSwitch = "qm9999";
    auto r = planner::makePlan(spec, test::catalog());
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("leaf_switch"), std::string::npos);
    spec = test::h100(32);
    spec.nodeType = "dgx-z9";
    r = planner::makePlan(spec, test::catalog());
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("node_type"), std::string::npos);
}

TEST(Analysis, HopsPathsAndFailures)
{
    const auto p = plan(test::h100(127, 4));
    const auto& a = p.analysis;
    EXPECT_TRUE(a.connected);
    EXPECT_EQ(a.hopsSameLeaf, 1);
    EXPECT_EQ(a.hopsSameRailAcrossSu, 3);
    EXPECT_EQ(a.hopsAcrossRails, 3);
    EXPECT_EQ(a.leafPathsSwitch, 16);
    EXPECT_EQ(a.leafPathsLink, 16 * 2 * 2);
    ASSERT_EQ(a.worstSwitch.size(), 2u);
    EXPECT_EQ(a.worstSwitch[0].nodeRailsLost, 32); // a full leaf
    EXPECT_EQ(a.worstSwitch[0].nodesCutOff, 0);    // the other 7 rails still reach
    EXPECT_DOUBLE_EQ(a.worstSwitch[1].bandwidthLostGbps, 64 * 400);
    ASSERT_EQ(a.worstCable.size(), 2u);
    EXPECT_EQ(a.worstCable[0].nodeRailsLost, 1);
    EXPECT_DOUBLE_EQ(a.worstCable[1].bandwidthLostGbps, 400);
}

TEST(Planner, Cancel)
{
    std::stop_source stop;
    stop.request_stop();
    core::NullProgress none;
    auto r = planner::makePlan(test::h100(127), test::catalog(), none, stop.get_token());
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "CANCELLED");
}
