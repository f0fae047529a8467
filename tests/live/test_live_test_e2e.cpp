// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `live test` end to end on the emulator: the agents start the emulator's perftest stand-in
// (railyard-perftest-emu, as ib_write_bw) through POST /v1/tests, the client follows and parses
// the output with the production reader, judges it against the plan, and narrows a degraded
// port down through a retest round.
#include "live/client/test_runner.h"

#include "live/sim/agent_farm.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "tests/live/temp_dir.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>


namespace railyard::live {
namespace {

    namespace fs = std::filesystem;

    struct EmulatedFabric {
        simtest::PlannedFabric planned;
        test::TempDir root { "live-test", test::TempDir::Place::PreferRam };
        std::unique_ptr<FabricEmulator> emulator;
        AgentFarm farm;
        std::map<std::string, AgentEndpoint> agents;
        FetchOptions fetch;
    };

    /// The plan emulated with `faults`, served by in-process agents whose tools are the stand-ins.
    std::unique_ptr<EmulatedFabric> emulate(const char* spec, const std::string& faultsJson)
    {
        auto f = std::make_unique<EmulatedFabric>();
        f->planned = simtest::planOf(spec);
        auto faults = parseFaults(faultsJson, "faults.json", f->planned.plan);
        EXPECT_TRUE(faults) << faults.error().toString();
        EmulatorOptions options;
        options.root = f->root.path() / "fabric";
        options.traffic = TrafficKind::Idle;
        auto emulator = FabricEmulator::create(f->planned.plan, f->planned.catalog, *faults, options);
        EXPECT_TRUE(emulator) << emulator.error().toString();
        if (!emulator)
            return nullptr;
        f->emulator = std::move(emulator).value();
        EXPECT_TRUE(f->emulator->writeTree());
        const fs::path tools = f->root.path() / "tools";
        fs::create_directories(tools);
        for (const char* tool : { "ib_write_bw", "ib_read_bw", "ib_write_lat" })
            fs::create_symlink(RAILYARD_PERFTEST_EMU, tools / tool);
        FarmOptions farmOptions;
        farmOptions.token = "live-test-token";
        farmOptions.toolsDir = tools;
        farmOptions.threadsPerAgent = 4; // a round sends each agent up to 8 requests at once
        const core::Status started = f->farm.start(f->emulator->nodes(), farmOptions);
        EXPECT_TRUE(started) << (started ? "" : started.error().toString());
        for (const AgentListing& l : f->farm.listings())
            f->agents[l.node] = { l.node, l.url };
        f->fetch.token = "live-test-token";
        f->fetch.deadline = std::chrono::milliseconds(10000);
        return f;
    }

} // namespace

TEST(LiveTestE2E, CleanFabricEveryRailAtThePlannedRate)
{
    if (std::string(RAILYARD_PERFTEST_EMU).empty())
        GTEST_SKIP() << "railyard-perftest-emu not built";
    auto f = emulate(simtest::kIbSpec, "[]");
    ASSERT_TRUE(f);
    BandwidthTestOptions test;
    test.schedule.nodes = { "node001", "node002", "node005", "node006" };
    TestRunOptions run;
    run.fetch = f->fetch;
    run.testTimeout = std::chrono::seconds(60);
    const BandwidthTestReport report = runBandwidthTest(f->planned.plan, f->planned.catalog, f->agents, test, run);
    EXPECT_TRUE(report.complete) << toJson(report).dump(1);
    ASSERT_EQ(report.rounds.size(), 1u);
    ASSERT_EQ(report.rounds[0].size(), 16u); // 2 pairs x 8 rails, at once
    for (const PairOutcome& o : report.rounds[0]) {
        ASSERT_TRUE(o.gbps) << o.test.server << " rail " << o.test.rail << ": " << (o.error ? o.error->message : "") << "\n"
                            << o.clientOutput << o.serverOutput;
        EXPECT_GT(*o.gbps, report.lowGbps);
        EXPECT_LE(*o.gbps, report.boundGbps * 1.001);
        ASSERT_TRUE(o.client);
        EXPECT_EQ(o.client->side, "client");
        EXPECT_TRUE(o.client->cuda()); // GPU k with NIC k
    }
    EXPECT_TRUE(report.findings.empty()) << toJson(report).dump(1);
}

TEST(LiveTestE2E, DegradedPortIsNarrowedDownThroughARetest)
{
    if (std::string(RAILYARD_PERFTEST_EMU).empty())
        GTEST_SKIP() << "railyard-perftest-emu not built";
    auto f = emulate(simtest::kIbSpec, R"([{ "kind": "degraded", "node": "node003", "rail": 2, "width": 2 }])");
    ASSERT_TRUE(f);
    BandwidthTestOptions test;
    test.schedule.nodes = { "node001", "node002", "node003", "node004" };
    TestRunOptions run;
    run.fetch = f->fetch;
    run.testTimeout = std::chrono::seconds(60);
    const BandwidthTestReport report = runBandwidthTest(f->planned.plan, f->planned.catalog, f->agents, test, run);
    EXPECT_TRUE(report.complete) << toJson(report).dump(1);
    // node003 and node004 tested together: both suspects; the retests clear node004.
    EXPECT_EQ(report.retests.size(), 2u) << toJson(report).dump(1);
    ASSERT_FALSE(report.narrowing.suspects.empty()) << toJson(report).dump(1);
    EXPECT_EQ(report.narrowing.suspects[0].element, "node003/nic2") << toJson(report.narrowing).dump(1);
    bool found = false;
    for (const core::Finding& f2 : report.findings)
        if (f2.code == "LOW_BANDWIDTH_PORT" && f2.where == "node003/nic2")
            found = true;
    EXPECT_TRUE(found) << toJson(report).dump(1);
    for (const core::Finding& f2 : report.findings)
        EXPECT_NE(f2.where, "node004/nic2") << f2.message;
}

TEST(LiveTestE2E, NoGpuDirectFailsTheTestsOfThatNode)
{
    if (std::string(RAILYARD_PERFTEST_EMU).empty())
        GTEST_SKIP() << "railyard-perftest-emu not built";
    auto f = emulate(simtest::kIbSpec, R"([{ "kind": "no_gpudirect", "node": "node002" }])");
    ASSERT_TRUE(f);
    BandwidthTestOptions test;
    test.schedule.nodes = { "node001", "node002" };
    TestRunOptions run;
    run.fetch = f->fetch;
    run.testTimeout = std::chrono::seconds(60);
    const BandwidthTestReport report = runBandwidthTest(f->planned.plan, f->planned.catalog, f->agents, test, run);
    EXPECT_FALSE(report.complete);
    int failed = 0;
    for (const core::Finding& x : report.findings)
        if (x.code == "TEST_FAILED")
            ++failed;
    EXPECT_EQ(failed, 8) << toJson(report).dump(1); // every rail of the pair
}

TEST(LiveTestE2E, CancelStopsEveryProcess)
{
    if (std::string(RAILYARD_PERFTEST_EMU).empty())
        GTEST_SKIP() << "railyard-perftest-emu not built";
    auto f = emulate(simtest::kIbSpec, "[]");
    ASSERT_TRUE(f);
    BandwidthTestOptions test;
    test.schedule.nodes = { "node001", "node002" };
    test.base.durationS = 30; // long runs, cancelled early
    std::atomic<bool> stop { false };
    TestRunOptions run;
    run.fetch = f->fetch;
    run.stop = &stop;
    run.progress = [&stop](const std::string& line) {
        if (line.find("starting their clients") != std::string::npos)
            stop = true;
    };
    const auto t0 = std::chrono::steady_clock::now();
    const BandwidthTestReport report = runBandwidthTest(f->planned.plan, f->planned.catalog, f->agents, test, run);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));
    EXPECT_FALSE(report.complete);
    // Every test of every agent has ended.
    std::vector<AgentEndpoint> all;
    for (const auto& [node, a] : f->agents)
        all.push_back(a);
    for (const AgentReply& r : fetchAll(all, "/v1/tests", f->fetch)) {
        ASSERT_EQ(r.status, 200) << r.body;
        const auto doc = nlohmann::json::parse(r.body);
        for (const auto& t : doc["tests"])
            EXPECT_NE(t["state"], "running") << r.agent.node << " " << t.dump();
    }
}

} // namespace railyard::live
