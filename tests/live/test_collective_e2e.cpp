// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `live test --kind allreduce` end to end on the emulator, with Open MPI's real mpirun: started here
// or by the first node's agent, mpirun reaches the emulated nodes through the emulator's ssh
// stand-in and starts the nccl-tests stand-in as their ranks; the output is read while it runs, the
// result judged against the plan and a low run explained (degraded rail, no GPUDirect) from NCCL's
// log, the agents' ports and counters; per-rail runs; cancel leaves nothing behind; crafted
// parameters are refused before anything starts.
#include "live/client/collective_runner.h"

#include "tests/live/nccl_emu_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace railyard::live {
namespace {

    using namespace nccltest;

    bool haveMpirun() { return !findProgram("mpirun").empty(); }

    CollectiveTestOptions optionsFor(const Fabric& f, std::vector<std::string> nodes)
    {
        CollectiveTestOptions o;
        o.params.tool = "all_reduce_perf";
        o.params.nodes = std::move(nodes);
        o.params.minBytes = "1M";
        o.params.maxBytes = "256M";
        o.params.stepFactor = "4";
        o.params.iters = 1;
        o.params.warmupIters = 0;
        o.params.rshAgent = (f.tools() / std::string(kEmulatedSshName)).string();
        o.params.bindTo = "none";
        o.params.allowRunAsRoot = ::geteuid() == 0;
        o.workDir = f.dir.path();
        o.timeout = std::chrono::seconds(25);
        o.agents = f.agents;
        o.fetch = f.fetch;
        return o;
    }

    const core::Finding* findingOf(const CollectiveTestReport& r, const std::string& code)
    {
        for (const core::Finding& f : r.findings)
            if (f.code == code)
                return &f;
        return nullptr;
    }

    /// Processes whose environment names this emulated fabric (mpirun's daemons on the emulated
    /// nodes and their ranks get RAILYARD_SIM_ROOT from the ssh stand-in, the agent's ranks their node's
    /// RAILYARD_SYSFS_ROOT under it).
    std::vector<int> processesOf(const fs::path& root)
    {
        std::vector<int> pids;
        const std::string needle = root.string();
        std::error_code ec;
        for (fs::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
            const std::string name = it->path().filename().string();
            if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
                continue;
            std::ifstream in(it->path() / "environ", std::ios::binary);
            std::stringstream text;
            text << in.rdbuf();
            if (text.str().find(needle) != std::string::npos)
                pids.push_back(std::stoi(name));
        }
        return pids;
    }

} // namespace

TEST(CollectiveE2E, MpirunHereNamesTheDegradedRail)
{
    if (kEmulator.empty() || !haveMpirun())
        GTEST_SKIP() << "needs railyard-nccl-tests-emu and Open MPI's mpirun (openmpi-bin)";
    auto f = emulate(simtest::kIbSpec, R"([{ "kind": "degraded", "node": "node005", "rail": 3, "width": 2 }])", true);
    ASSERT_TRUE(f);
    CollectiveTestOptions o = optionsFor(*f, { "node001", "node005" }); // one node in each SU
    std::vector<std::string> progress;
    o.progress = [&](const std::string& line) { progress.push_back(line); };
    const CollectiveTestReport r = runCollectiveTest(f->planned.plan, f->planned.catalog, o);
    ASSERT_EQ(r.runs.size(), 1u);
    const CollectiveRunOutcome& run = r.runs[0];
    EXPECT_TRUE(r.complete) << run.output;
    EXPECT_EQ(run.exitStatus, 0) << run.output;
    EXPECT_EQ(run.tests.ranks, 16);
    EXPECT_EQ(run.tests.rows.size(), 5u);
    EXPECT_GE(progress.size(), 6u); // the command, then one line per size as it completed
    EXPECT_EQ(run.model.verdict.status, "low") << run.model.verdict.message;
    EXPECT_NEAR(run.model.verdict.percentOfBound, 46, 4);
    ASSERT_EQ(r.ports.size(), 1u);
    EXPECT_EQ(r.ports[0].node, "node005");
    EXPECT_EQ(r.ports[0].rail, 3);
    const core::Finding* low = findingOf(r, "ALLREDUCE_LOW");
    ASSERT_TRUE(low) << toJson(r).dump(1);
    EXPECT_EQ(low->severity, core::Severity::Error);
    EXPECT_EQ(low->where, "node005/nic3");
    EXPECT_NE(low->message.find("200 Gb/s"), std::string::npos) << low->message;
    ASSERT_TRUE(r.counters);
    EXPECT_FALSE(r.counters->ports.empty());
    const nlohmann::json doc = toJson(r);
    EXPECT_EQ(doc["runs"][0]["expected"]["verdict"]["status"], "low");
    EXPECT_EQ(doc["runs"][0]["tests"]["ranks"], 16);
}

TEST(CollectiveE2E, NoGpuDirectIsNamedOnItsNode)
{
    if (kEmulator.empty() || !haveMpirun())
        GTEST_SKIP() << "needs railyard-nccl-tests-emu and Open MPI's mpirun (openmpi-bin)";
    auto f = emulate(simtest::kIbSpec, R"([{ "kind": "no_gpudirect", "node": "node006" }])", true);
    ASSERT_TRUE(f);
    const CollectiveTestReport r = runCollectiveTest(f->planned.plan, f->planned.catalog, optionsFor(*f, { "node002", "node006" }));
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_TRUE(r.complete) << r.runs[0].output;
    const core::Finding* low = findingOf(r, "ALLREDUCE_LOW");
    ASSERT_TRUE(low) << toJson(r).dump(1);
    EXPECT_EQ(low->where, "node006");
    EXPECT_NE(low->message.find("GPUDirect RDMA is off on node006"), std::string::npos) << low->message;
    const core::Finding* gdr = findingOf(r, "NCCL_GDR_DISABLED");
    ASSERT_TRUE(gdr);
    EXPECT_EQ(gdr->where.rfind("node006", 0), 0u) << gdr->where;
}

TEST(CollectiveE2E, PerRailRunsJudgeEachRail)
{
    if (kEmulator.empty() || !haveMpirun())
        GTEST_SKIP() << "needs railyard-nccl-tests-emu and Open MPI's mpirun (openmpi-bin)";
    auto f = emulate(simtest::kIbSpec, R"([{ "kind": "degraded", "node": "node002", "rail": 6, "width": 1 }])", true);
    ASSERT_TRUE(f);
    CollectiveTestOptions o = optionsFor(*f, { "node001", "node002" });
    o.params.minBytes = "64M";
    o.params.maxBytes = "64M";
    o.params.gpusPerNode = 2; // 2 ranks a node keep 8 launches short
    o.perRail = true;
    const CollectiveTestReport r = runCollectiveTest(f->planned.plan, f->planned.catalog, o);
    ASSERT_EQ(r.runs.size(), 8u);
    for (const CollectiveRunOutcome& run : r.runs) {
        ASSERT_TRUE(run.rail);
        EXPECT_TRUE(run.ok()) << run.output;
        EXPECT_EQ(run.model.verdict.status, *run.rail == 6 ? "low" : "meets") << "rail " << *run.rail << ": " << run.model.verdict.message;
    }
    int railLow = 0;
    for (const core::Finding& x : r.findings)
        if (x.code == "ALLREDUCE_RAIL_LOW") {
            ++railLow;
            EXPECT_EQ(x.where, "node002/nic6");
        }
    EXPECT_EQ(railLow, 1) << toJson(r).dump(1);
}

TEST(CollectiveE2E, FirstNodesAgentStartsMpirun)
{
    if (kEmulator.empty() || !haveMpirun())
        GTEST_SKIP() << "needs railyard-nccl-tests-emu and Open MPI's mpirun (openmpi-bin)";
    auto f = emulate(simtest::kIbSpec, "[]", true);
    ASSERT_TRUE(f);
    CollectiveTestOptions o = optionsFor(*f, { "node003", "node007" });
    o.params.minBytes = "1G"; // the bandwidth-bound end, where a healthy fabric meets the bound
    o.params.maxBytes = "4G";
    o.viaAgent = true;
    o.params.allowRunAsRoot = true; // the in-process agents run as this test does
    const CollectiveTestReport r = runCollectiveTest(f->planned.plan, f->planned.catalog, o);
    ASSERT_EQ(r.runs.size(), 1u);
    const CollectiveRunOutcome& run = r.runs[0];
    EXPECT_FALSE(run.error) << run.error->toString();
    EXPECT_TRUE(r.complete) << run.output;
    EXPECT_NE(std::find(run.launcher.args.begin(), run.launcher.args.end(), "--host"), run.launcher.args.end());
    EXPECT_TRUE(run.hostfile.empty());
    EXPECT_EQ(run.model.verdict.status, "meets") << run.model.verdict.message;
    EXPECT_EQ(findingOf(r, "ALLREDUCE_LOW"), nullptr) << toJson(r).dump(1);
}

TEST(CollectiveE2E, RailDownFailsTheRunAndSaysWhere)
{
    if (kEmulator.empty() || !haveMpirun())
        GTEST_SKIP() << "needs railyard-nccl-tests-emu and Open MPI's mpirun (openmpi-bin)";
    auto f = emulate(simtest::kIbSpec, R"([{ "kind": "link_down", "node": "node006", "rail": 1 }])", true);
    ASSERT_TRUE(f);
    const CollectiveTestReport r = runCollectiveTest(f->planned.plan, f->planned.catalog, optionsFor(*f, { "node002", "node006" }));
    EXPECT_FALSE(r.complete);
    ASSERT_EQ(r.runs.size(), 1u);
    EXPECT_NE(r.runs[0].exitStatus.value_or(0), 0) << r.runs[0].output;
    const core::Finding* failed = findingOf(r, "ALLREDUCE_FAILED");
    ASSERT_TRUE(failed) << toJson(r).dump(1);
    EXPECT_EQ(failed->where, "node006/nic1");
    EXPECT_NE(failed->message.find("IBV_WC_RETRY_EXC_ERR"), std::string::npos) << failed->message;
}

TEST(CollectiveE2E, CancelLeavesNoProcessBehind)
{
    if (kEmulator.empty() || !haveMpirun())
        GTEST_SKIP() << "needs railyard-nccl-tests-emu and Open MPI's mpirun (openmpi-bin)";
    for (const bool viaAgent : { false, true }) {
        SCOPED_TRACE(viaAgent ? "agent" : "here");
        auto f = emulate(simtest::kIbSpec, "[]", true);
        ASSERT_TRUE(f);
        CollectiveTestOptions o = optionsFor(*f, { "node001", "node002" });
        o.viaAgent = viaAgent;
        o.params.allowRunAsRoot = true;
        o.params.minBytes = "8";
        o.params.maxBytes = "8G";
        o.params.stepFactor = "2";
        o.params.iters = 100000; // every size at the stand-in's 150 ms pace: 31 sizes, far longer than the wait below
        std::atomic<bool> stop { false };
        std::atomic<int> rows { 0 };
        o.stop = &stop;
        o.progress = [&](const std::string& line) {
            if (line.find(" B: busbw") != std::string::npos && ++rows >= 2)
                stop = true;
        };
        const auto start = std::chrono::steady_clock::now();
        const CollectiveTestReport r = runCollectiveTest(f->planned.plan, f->planned.catalog, o);
        EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
        ASSERT_EQ(r.runs.size(), 1u);
        EXPECT_TRUE(r.runs[0].cancelled) << r.runs[0].output;
        EXPECT_FALSE(r.complete);
        EXPECT_GE(r.runs[0].tests.rows.size(), 2u); // what was measured is kept
        EXPECT_TRUE(findingOf(r, "ALLREDUCE_CANCELLED"));
        std::vector<int> left;
        for (int i = 0; i < 100; ++i) { // the agent ends its test's group within about 2 s
            left = processesOf(f->root);
            if (left.empty())
                break;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        EXPECT_TRUE(left.empty()) << left.size() << " processes of the run are still there, e.g. pid " << (left.empty() ? 0 : left[0]);
    }
}

TEST(CollectiveE2E, CraftedParametersAreRefusedBeforeAnythingStarts)
{
    auto f = emulate(simtest::kIbSpec, "[]", true);
    ASSERT_TRUE(f);
    for (const auto& craft : std::vector<std::function<void(CollectiveTestOptions&)>> {
             [](CollectiveTestOptions& o) { o.params.rshAgent = "/bin/sh -c id"; },
             [](CollectiveTestOptions& o) { o.params.bindTo = "numa;id"; },
             [](CollectiveTestOptions& o) { o.params.extraEnv = { { "NCCL_SOCKET_IFNAME", "$(id)" } }; },
             [](CollectiveTestOptions& o) { o.params.maxBytes = "8G`id`"; },
             [](CollectiveTestOptions& o) { o.params.nodes = { "node001", "node002;id" }; } }) {
        CollectiveTestOptions o = optionsFor(*f, { "node001", "node002" });
        craft(o);
        for (const bool viaAgent : { false, true }) {
            o.viaAgent = viaAgent;
            const CollectiveTestReport r = runCollectiveTest(f->planned.plan, f->planned.catalog, o);
            ASSERT_EQ(r.runs.size(), 1u);
            ASSERT_TRUE(r.runs[0].error);
            EXPECT_TRUE(r.runs[0].error->code == "LAUNCH_PARAM" || r.runs[0].error->code == "LAUNCH_NODE") << r.runs[0].error->toString();
            EXPECT_TRUE(r.runs[0].output.empty());
            EXPECT_FALSE(r.complete);
        }
    }
    // The agent refuses a crafted launcher request by itself too (its last gate, checkInvocation).
    const AgentReply reply = requestAll({ { f->agents.at("node001"), "POST", "/v1/tests",
                                             R"({"program": "mpirun", "args": ["--mca", "plm_rsh_agent", "sh -c id", "all_reduce_perf"], "timeout_s": 10})" } },
        f->fetch)
                                 .front();
    EXPECT_EQ(reply.status, 400) << reply.body;
    EXPECT_TRUE(processesOf(f->root).empty());
}

} // namespace railyard::live
