// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// End to end in one process: the emulator writes each node's sysfs tree with a fault applied,
// the agents' own code serves them on loopback (AgentFarm), and the check reads them over HTTP
// with the real client. Each fault kind that `live check` can see gives its finding, and a clean
// fabric gives none. (test_live_e2e_cli.cpp drives the same through the programs.)
#include "live/client/live_check.h"

#include "core/plan_spec.h"
#include "live/sim/agent_farm.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "planner/planner.h"
#include "tests/live/temp_dir.h"

#include <gtest/gtest.h>

namespace railyard::live {
namespace {

    namespace fs = std::filesystem;

    struct PlanUnderTest {
        core::Catalog catalog;
        core::Plan plan;
    };

    PlanUnderTest planOf(const std::string& specText)
    {
        core::Result<core::Catalog> catalog = core::Catalog::builtin();
        EXPECT_TRUE(catalog);
        core::Result<core::PlanSpec> spec = core::parsePlanSpecText(specText, "e2e.plan.json");
        EXPECT_TRUE(spec) << spec.error().toString();
        core::Result<core::Plan> plan = planner::makePlan(*spec, *catalog);
        EXPECT_TRUE(plan) << plan.error().toString();
        return { std::move(catalog).value(), std::move(plan).value() };
    }

    const PlanUnderTest& ibPlan()
    {
        static const PlanUnderTest p
            = planOf(R"({ "fabric": "infiniband", "nodes": 4, "node_type": "dgx-h100", "link": { "generation": "NDR", "width": 4 } })");
        return p;
    }

    const PlanUnderTest& rocePlan()
    {
        static const PlanUnderTest p = planOf(R"({ "fabric": "rocev2", "nodes": 4, "node_type": "hgx-8gpu-400g",
            "link": { "speed_gbps": 400 }, "lossless": { "mode": "lossless", "pfc_priority": 3, "ecn": true, "dcqcn": true } })");
        return p;
    }

    struct Outcome {
        LiveCheckReport report;
        std::string text; ///< every finding, one per line, for failure messages
    };

    /// Emulates `p` with `faultsJson`, serves it, and checks it through the agents.
    Outcome emulateAndCheck(const PlanUnderTest& p, const std::string& faultsJson, const std::string& clientToken = "e2e-token",
        bool dropLastAgent = false)
    {
        test::TempDir root("e2e", test::TempDir::Place::PreferRam);
        core::Result<std::vector<Fault>> faults = parseFaults(faultsJson, "faults.json", p.plan);
        EXPECT_TRUE(faults) << faults.error().toString();
        EmulatorOptions options;
        options.root = root.path();
        options.traffic = TrafficKind::Idle;
        core::Result<std::unique_ptr<FabricEmulator>> emulator = FabricEmulator::create(p.plan, p.catalog, *faults, options);
        EXPECT_TRUE(emulator) << emulator.error().toString();
        if (!emulator)
            return {};
        const core::Status written = (*emulator)->writeTree();
        EXPECT_TRUE(written) << written.error().toString();

        AgentFarm farm;
        FarmOptions farmOptions;
        farmOptions.token = "e2e-token";
        const core::Status started = farm.start((*emulator)->nodes(), farmOptions);
        EXPECT_TRUE(started) << started.error().toString();

        std::vector<AgentEndpoint> agents;
        for (const AgentListing& l : farm.listings())
            agents.push_back({ l.node, l.url });
        if (dropLastAgent)
            agents.back().url = "http://127.0.0.1:1"; // nothing listens on port 1
        FetchOptions fetch;
        fetch.token = clientToken;
        fetch.deadline = std::chrono::milliseconds(10000);
        Outcome out { checkFabric(p.plan, p.catalog, observeAgents(agents, fetch)), {} };
        for (const core::Finding& f : out.report.findings)
            out.text += std::string(core::toString(f.severity)) + " " + f.code + " " + f.where + ": " + f.message + "\n";
        return out;
    }

    std::vector<const core::Finding*> withCode(const LiveCheckReport& r, const std::string& code)
    {
        std::vector<const core::Finding*> out;
        for (const core::Finding& f : r.findings) {
            if (f.code == code)
                out.push_back(&f);
        }
        return out;
    }

} // namespace

TEST(LiveE2E, CleanInfiniBandFabric)
{
    const Outcome o = emulateAndCheck(ibPlan(), "[]");
    EXPECT_TRUE(o.report.complete);
    EXPECT_TRUE(o.report.findings.empty()) << o.text;
    ASSERT_EQ(o.report.nodes.size(), 4u);
    for (const NodeStatus& s : o.report.nodes) {
        EXPECT_TRUE(s.reachable) << s.node << ": " << s.error;
        EXPECT_EQ(s.gpus, 8) << s.node;
    }
}

TEST(LiveE2E, CleanRoceFabric)
{
    const Outcome o = emulateAndCheck(rocePlan(), "[]");
    EXPECT_TRUE(o.report.complete);
    EXPECT_TRUE(o.report.findings.empty()) << o.text;
}

TEST(LiveE2E, InfiniBandFaults)
{
    const Outcome o = emulateAndCheck(ibPlan(), R"([
        { "kind": "link_down", "node": "node001", "rail": 3 },
        { "kind": "degraded", "node": "node002", "rail": 3, "width": 2 },
        { "kind": "degraded", "node": "node003", "rail": 5, "generation": "HDR" },
        { "kind": "unplugged", "node": "node004", "rail": 6 },
        { "kind": "no_gpudirect", "node": "node002" } ])");
    EXPECT_TRUE(o.report.complete);
    ASSERT_EQ(o.report.findings.size(), 5u) << o.text;
    const auto& f = o.report.findings;
    EXPECT_EQ(f[0].code, "LINK_DOWN");
    EXPECT_EQ(f[0].where, "node001/nic3");
    EXPECT_NE(f[0].message.find("Disabled"), std::string::npos) << f[0].message;
    // node002: the degraded link, then GPUDirect.
    EXPECT_EQ(f[1].code, "LINK_DEGRADED");
    EXPECT_EQ(f[1].where, "node002/nic3");
    EXPECT_NE(f[1].message.find("node002 rail 3 (mlx5_5): link trained at 2x NDR (200 Gb/s), planned 4x NDR (400 Gb/s): reseat or replace the cable su1-rail3-leaf/"),
        std::string::npos)
        << f[1].message;
    EXPECT_EQ(f[2].code, "NO_GPUDIRECT");
    EXPECT_EQ(f[2].where, "node002");
    EXPECT_EQ(f[3].code, "LINK_DEGRADED");
    EXPECT_EQ(f[3].where, "node003/nic5");
    EXPECT_NE(f[3].message.find("4x HDR (200 Gb/s)"), std::string::npos) << f[3].message;
    EXPECT_EQ(f[4].code, "LINK_DOWN");
    EXPECT_EQ(f[4].where, "node004/nic6");
    EXPECT_NE(f[4].message.find("Polling"), std::string::npos) << f[4].message;
}

TEST(LiveE2E, RoceLosslessFaults)
{
    const Outcome o = emulateAndCheck(rocePlan(), R"([
        { "kind": "no_pfc", "node": "node002" },
        { "kind": "no_ecn", "node": "node003" },
        { "kind": "degraded", "node": "node004", "rail": 1, "width": 2 } ])");
    EXPECT_TRUE(o.report.complete);
    const auto pfc = withCode(o.report, "PFC_MISSING");
    ASSERT_EQ(pfc.size(), 8u) << o.text;
    for (const core::Finding* f : pfc)
        EXPECT_EQ(f->where.substr(0, 8), "node002/");
    const auto ecn = withCode(o.report, "ECN_DISABLED");
    ASSERT_EQ(ecn.size(), 8u) << o.text;
    for (const core::Finding* f : ecn)
        EXPECT_EQ(f->where.substr(0, 8), "node003/");
    const auto degraded = withCode(o.report, "LINK_DEGRADED");
    ASSERT_EQ(degraded.size(), 1u) << o.text;
    EXPECT_EQ(degraded[0]->where, "node004/nic1");
    // Nothing else: DCQCN findings may come with no_ecn (the same sysfs files), but only on node003.
    for (const core::Finding& f : o.report.findings) {
        if (f.code == "DCQCN_DISABLED")
            EXPECT_EQ(f.where.substr(0, 8), "node003/");
        else
            EXPECT_TRUE(f.code == "PFC_MISSING" || f.code == "ECN_DISABLED" || f.code == "LINK_DEGRADED") << o.text;
    }
}

TEST(LiveE2E, UnreachableAgentAndTheOthersStillChecked)
{
    const Outcome o = emulateAndCheck(ibPlan(), R"([ { "kind": "link_down", "node": "node001", "rail": 0 } ])", "e2e-token", true);
    EXPECT_FALSE(o.report.complete);
    ASSERT_EQ(o.report.findings.size(), 2u) << o.text;
    EXPECT_EQ(o.report.findings[0].code, "LINK_DOWN");
    EXPECT_EQ(o.report.findings[1].code, "NODE_UNREACHABLE");
    EXPECT_EQ(o.report.findings[1].where, "node004");
    EXPECT_NE(o.report.findings[1].message.find("connection refused"), std::string::npos) << o.text;
}

TEST(LiveE2E, WrongTokenIsRefused)
{
    const Outcome o = emulateAndCheck(ibPlan(), "[]", "not-the-token");
    EXPECT_FALSE(o.report.complete);
    ASSERT_EQ(o.report.findings.size(), 4u) << o.text;
    for (const core::Finding& f : o.report.findings) {
        EXPECT_EQ(f.code, "TOKEN_REFUSED");
        EXPECT_NE(f.message.find("check --token-file"), std::string::npos);
    }
}

} // namespace railyard::live
