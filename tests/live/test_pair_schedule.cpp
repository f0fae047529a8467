// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The pairwise bandwidth schedule (coverage, no NIC twice in a round) and the narrowing of low results.
#include "core/catalog.h"
#include "core/examples.h"
#include "core/plan_spec.h"
#include "live/client/pair_schedule.h"
#include "planner/planner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace railyard::live {
namespace {

    core::Plan planOf(const std::string& specText)
    {
        auto catalog = core::Catalog::builtin();
        EXPECT_TRUE(catalog.ok());
        auto spec = core::parsePlanSpecText(specText, "test.plan.json");
        EXPECT_TRUE(spec.ok()) << spec.error().toString();
        auto plan = planner::makePlan(*spec, *catalog);
        EXPECT_TRUE(plan.ok());
        return *plan;
    }

    core::Plan examplePlan(const std::string& name)
    {
        const auto example = core::findExample(name);
        EXPECT_TRUE(example.has_value());
        return planOf(std::string(example->content));
    }

    /// Every round uses each node NIC at most once.
    void expectNoNicTwice(const PairSchedule& s)
    {
        for (const ScheduleRound& r : s.rounds) {
            std::set<std::string> used;
            for (const PairTest& t : r.tests) {
                EXPECT_TRUE(used.insert(t.server + "/" + std::to_string(t.rail)).second) << r.purpose << " " << t.server;
                EXPECT_TRUE(used.insert(t.client + "/" + std::to_string(t.rail)).second) << r.purpose << " " << t.client;
                EXPECT_NE(t.server, t.client);
            }
        }
    }

    const char* kIbTwoSu = R"({ "name": "two SUs", "fabric": "infiniband", "nodes": 64, "node_type": "dgx-h100",
        "link": { "generation": "NDR", "width": 4 }, "su_size": 32 })";

} // namespace

TEST(PairSchedule, OneRoundCoversEveryNodePortOfEvenSus)
{
    const core::Plan plan = planOf(kIbTwoSu);
    auto s = schedulePairs(plan);
    ASSERT_TRUE(s.ok()) << s.error().toString();
    ASSERT_EQ(s->rounds.size(), 1u);
    EXPECT_EQ(s->rounds[0].purpose, "node ports");
    EXPECT_EQ(s->rounds[0].tests.size(), 32u * 8); // 32 pairs x 8 rails
    EXPECT_EQ(s->nodePorts, 64 * 8);
    EXPECT_EQ(s->nodePortsCovered, 64 * 8);
    for (const PairTest& t : s->rounds[0].tests) {
        EXPECT_FALSE(t.crossesSpine) << t.server << " " << t.client;
        EXPECT_EQ(t.serverLeaf, t.clientLeaf);
        EXPECT_EQ(t.qps, 1);
    }
    expectNoNicTwice(*s);
}

TEST(PairSchedule, OddNodesGetASecondRound)
{
    // 3 nodes in one SU: (1,2) then (1,3).
    const core::Plan plan = planOf(R"({ "name": "three", "fabric": "infiniband", "nodes": 3, "node_type": "dgx-h100",
        "link": { "generation": "NDR", "width": 4 } })");
    auto s = schedulePairs(plan);
    ASSERT_TRUE(s.ok());
    ASSERT_EQ(s->rounds.size(), 2u);
    EXPECT_EQ(s->nodePortsCovered, s->nodePorts);
    EXPECT_EQ(s->rounds[1].tests.front().client, "node003");
    expectNoNicTwice(*s);
}

TEST(PairSchedule, SpinePathsPairSusNodeForNode)
{
    const core::Plan plan = planOf(kIbTwoSu);
    ScheduleOptions options;
    options.spinePaths = true;
    auto s = schedulePairs(plan, options);
    ASSERT_TRUE(s.ok());
    ASSERT_EQ(s->rounds.size(), 2u);
    const ScheduleRound& up = s->rounds[1];
    EXPECT_EQ(up.purpose, "leaf-spine paths");
    EXPECT_EQ(up.tests.size(), 32u * 8);
    // Each leaf of SU 1 sends to (clients) and receives from (servers) 16 nodes of SU 2 per rail.
    std::map<std::string, int> clientsPerLeaf;
    for (const PairTest& t : up.tests) {
        EXPECT_TRUE(t.crossesSpine);
        EXPECT_FALSE(t.crossesCore);
        EXPECT_EQ(t.qps, 1); // InfiniBand: deterministic routing, one flow per destination
        ++clientsPerLeaf[t.clientLeaf];
    }
    EXPECT_EQ(clientsPerLeaf.size(), 16u);
    for (const auto& [leaf, n] : clientsPerLeaf)
        EXPECT_EQ(n, 16) << leaf;
    expectNoNicTwice(*s);
    EXPECT_NE(nlohmann::json(toJson(*s)).dump().find("forwarding tables"), std::string::npos);
}

TEST(PairSchedule, RoceGivesEnoughFlowsForEcmp)
{
    const core::Plan plan = examplePlan("roce-lossless-demo");
    ASSERT_GT(plan.summary.suCount, 1) << "the demo needs two SUs for this test";
    ScheduleOptions options;
    options.spinePaths = true;
    auto s = schedulePairs(plan, options);
    ASSERT_TRUE(s.ok());
    const int u = plan.summary.leafUplinks;
    ASSERT_GT(u, 1);
    // Count the flows each leaf sends up, and check the coupon-collector bound holds.
    std::map<std::string, int> flows;
    for (const ScheduleRound& r : s->rounds)
        for (const PairTest& t : r.tests)
            if (t.crossesSpine)
                flows[t.clientLeaf] += t.qps;
    ASSERT_FALSE(flows.empty());
    for (const auto& [leaf, f] : flows)
        EXPECT_LE(u * std::pow(1.0 - 1.0 / u, f), 0.0101) << leaf << " " << f << " flows over " << u << " uplinks";
}

TEST(PairSchedule, ThreeTiersAddASpineCoreRound)
{
    const core::Plan plan = examplePlan("dgx-b200-superpod-64su");
    ASSERT_EQ(plan.summary.tiers, 3);
    ScheduleOptions options;
    options.spinePaths = true;
    // Two nodes from each of the first four SUs, which are in more than one pod.
    std::map<int, int> podOfSu;
    for (const auto& l : plan.links)
        if (l.tier == core::LinkTier::NodeLeaf && l.a.port == 0 && l.a.plane == 0)
            podOfSu[plan.devices[l.a.device].su] = plan.devices[l.b.device].pod;
    std::set<int> pods;
    std::map<int, int> taken;
    for (const auto& d : plan.devices)
        if (d.kind == core::DeviceKind::Node && d.su <= 4 && taken[d.su] < 2) {
            ++taken[d.su];
            pods.insert(podOfSu[d.su]);
            options.nodes.push_back(d.name);
        }
    ASSERT_EQ(options.nodes.size(), 8u);
    ASSERT_GE(pods.size(), 2u);
    auto s = schedulePairs(plan, options);
    ASSERT_TRUE(s.ok()) << s.error().toString();
    bool core = false;
    for (const ScheduleRound& r : s->rounds)
        if (r.purpose == "spine-core paths") {
            core = true;
            for (const PairTest& t : r.tests)
                EXPECT_TRUE(t.crossesCore);
        }
    EXPECT_TRUE(core);
    expectNoNicTwice(*s);
}

TEST(PairSchedule, UnknownNodeIsRefused)
{
    const core::Plan plan = planOf(kIbTwoSu);
    ScheduleOptions options;
    options.nodes = { "node001", "node999" };
    auto s = schedulePairs(plan, options);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().code, "SCHEDULE_NODE");
    EXPECT_EQ(s.error().where, "node999");
}

TEST(PairSchedule, NarrowsALowPortDownThroughItsPartners)
{
    const core::Plan plan = planOf(kIbTwoSu);
    ScheduleOptions options;
    options.spinePaths = true;
    auto s = schedulePairs(plan, options);
    ASSERT_TRUE(s.ok());
    // node005 rail 3 is bad: every test it is in comes out at 180 Gb/s; everything else 390.
    std::vector<PairResult> results;
    for (const ScheduleRound& r : s->rounds)
        for (const PairTest& t : r.tests) {
            const bool bad = t.rail == 3 && (t.server == "node005" || t.client == "node005");
            results.push_back({ t, bad ? 180.0 : 390.0 });
        }
    const Narrowing n = narrowDown(results, 300);
    ASSERT_FALSE(n.suspects.empty());
    EXPECT_EQ(n.suspects[0].element, "node005/nic3");
    EXPECT_EQ(n.suspects[0].kind, "node_port");
    EXPECT_EQ(n.suspects[0].lowTests, 2);
    EXPECT_EQ(n.suspects[0].tests, 2);
    EXPECT_EQ(n.suspects.size(), 1u);
    EXPECT_TRUE(n.nextRound.tests.empty());
    ASSERT_EQ(n.findings.size(), 1u);
    EXPECT_EQ(n.findings[0].code, "LOW_BANDWIDTH_PORT");
    EXPECT_NE(n.findings[0].message.find("su1-rail3-leaf"), std::string::npos) << n.findings[0].message;
}

TEST(PairSchedule, LowOnlyAcrossTheSpinesBlamesTheUplinks)
{
    const core::Plan plan = planOf(kIbTwoSu);
    ScheduleOptions options;
    options.spinePaths = true;
    auto s = schedulePairs(plan, options);
    ASSERT_TRUE(s.ok());
    // The uplinks of su2-rail6-leaf are bad: cross-spine tests through it are low.
    std::vector<PairResult> results;
    for (const ScheduleRound& r : s->rounds)
        for (const PairTest& t : r.tests) {
            const bool bad = t.crossesSpine && (t.serverLeaf == "su2-rail6-leaf" || t.clientLeaf == "su2-rail6-leaf");
            results.push_back({ t, bad ? 150.0 : 390.0 });
        }
    const Narrowing n = narrowDown(results, 300);
    // With two SUs every such test has both rail-6 leaves on its path: both are named, equally.
    ASSERT_EQ(n.suspects.size(), 2u);
    std::set<std::string> named;
    for (const Suspect& x : n.suspects) {
        EXPECT_EQ(x.kind, "uplinks");
        EXPECT_EQ(x.lowTests, 32);
        EXPECT_EQ(x.tests, 32);
        named.insert(x.element);
    }
    EXPECT_EQ(named, (std::set<std::string> { "su1-rail6-leaf uplinks", "su2-rail6-leaf uplinks" }));
    ASSERT_EQ(n.findings.size(), 2u);
    EXPECT_EQ(n.findings[0].code, "LOW_BANDWIDTH_UPLINKS");
    EXPECT_TRUE(n.nextRound.tests.empty());
}

TEST(PairSchedule, AnAmbiguousLowPairIsRetestedWithGoodPartners)
{
    const core::Plan plan = planOf(kIbTwoSu);
    auto s = schedulePairs(plan); // node ports only: each port is in one test
    ASSERT_TRUE(s.ok());
    std::vector<PairResult> results;
    for (const PairTest& t : s->rounds[0].tests) {
        const bool bad = t.rail == 2 && t.server == "node007";
        results.push_back({ t, bad ? 100.0 : 390.0 });
    }
    const Narrowing n = narrowDown(results, 300);
    ASSERT_EQ(n.suspects.size(), 2u); // node007/nic2 and its partner node008/nic2
    ASSERT_EQ(n.nextRound.tests.size(), 2u);
    std::set<std::string> retested;
    std::set<std::string> partners;
    for (const PairTest& t : n.nextRound.tests) {
        EXPECT_EQ(t.rail, 2);
        retested.insert(t.client);
        partners.insert(t.server);
        EXPECT_NE(t.server, "node007");
        EXPECT_NE(t.server, "node008");
        EXPECT_FALSE(t.crossesSpine); // a good partner on the same leaf
    }
    EXPECT_EQ(retested, (std::set<std::string> { "node007", "node008" }));
    EXPECT_EQ(partners.size(), 2u);
}

} // namespace railyard::live
