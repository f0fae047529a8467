// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// railyard-nccl-tests-emu, the emulator's nccl-tests: the ranks of a job started here as Open MPI
// would start them (OMPI_COMM_WORLD_* in their environment, each on its emulated node), their
// output read back by Railyard's own nccl-tests and NCCL log readers for every option combination;
// the model against the plan's bound; faults (degraded rail, no GPUDirect, link down, congested
// leaf); the options nccl-tests refuses; the ssh stand-in mpirun uses.
#include "live/client/bandwidth_model.h"
#include "live/common/nccl_log.h"
#include "live/common/nccl_tests_output.h"
#include "tests/live/nccl_emu_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace railyard::live {
namespace {

    using namespace nccltest;

    struct JobResult {
        std::string output;          ///< every rank's output, rank 0 first
        std::vector<int> exitCodes;  ///< per rank
    };

    std::string jobId()
    {
        static std::atomic<int> next { 1 };
        return std::to_string(::getpid()) + std::to_string(next++);
    }

    /// The ranks of one job: `ranksPerNode` on each of `nodes`, as mpirun numbers them (by node).
    JobResult runJob(const Fabric& f, const std::vector<std::string>& nodes, int ranksPerNode, const std::string& tool,
        const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {})
    {
        const int size = static_cast<int>(nodes.size()) * ranksPerNode;
        const std::string job = jobId();
        std::vector<std::unique_ptr<ChildProcess>> ranks;
        std::vector<fs::path> logs;
        for (int r = 0; r < size; ++r) {
            SpawnOptions o;
            o.env = env;
            o.env["OMPI_COMM_WORLD_RANK"] = std::to_string(r);
            o.env["OMPI_COMM_WORLD_SIZE"] = std::to_string(size);
            o.env["OMPI_COMM_WORLD_LOCAL_RANK"] = std::to_string(r % ranksPerNode);
            o.env["OMPI_MCA_ess_base_jobid"] = job;
            o.env["RAILYARD_SYSFS_ROOT"] = (f.root / nodes[static_cast<std::size_t>(r / ranksPerNode)] / "sys").string();
            logs.push_back(f.dir.path() / ("rank" + job + "-" + std::to_string(r) + ".log"));
            o.log = logs.back();
            std::vector<std::string> argv { (f.tools() / tool).string() };
            argv.insert(argv.end(), args.begin(), args.end());
            ranks.push_back(std::make_unique<ChildProcess>(argv, o));
        }
        JobResult out;
        for (std::size_t r = 0; r < ranks.size(); ++r) {
            const auto code = ranks[r]->waitFor(std::chrono::seconds(30));
            out.exitCodes.push_back(code.value_or(-1));
            out.output += simtest::readText(logs[r]);
        }
        return out;
    }

    const std::vector<std::string> kShortRun { "-b", "1M", "-e", "256M", "-f", "4", "-g", "1", "-n", "1", "-w", "0", "-c", "1" };

    std::string railHca(const Fabric& f, std::optional<int> rail)
    {
        const auto& map = f.emulator->nodes().front().railMap;
        std::string hca = "=";
        for (std::size_t k = 0; k < map.size(); ++k)
            if (!rail || static_cast<int>(k) == *rail)
                hca += (hca.size() > 1 ? "," : "") + map[k] + ":1";
        return hca;
    }

    std::map<std::string, std::string> ncclEnv(const Fabric& f, std::optional<int> rail, bool roce)
    {
        std::map<std::string, std::string> env { { "NCCL_DEBUG", "INFO" }, { "NCCL_DEBUG_SUBSYS", "INIT,NET" }, { "NCCL_IB_HCA", railHca(f, rail) } };
        if (roce) {
            env["NCCL_IB_GID_INDEX"] = "3";
            env["NCCL_IB_TC"] = "106";
        }
        return env;
    }

    /// The model's bound for a parsed run on the fabric's plan.
    CollectiveModel modelOf(const Fabric& f, const NcclTestsRun& run, int rails)
    {
        core::Plan plan = f.planned.plan;
        plan.summary.rails = rails;
        CollectiveRun facts;
        facts.collective = collectiveOfTool(run.tool);
        facts.ranks = run.ranks;
        std::set<std::string> hosts;
        for (const NcclTestsRank& r : run.rankList)
            if (hosts.insert(r.host).second)
                facts.hosts.push_back(r.host);
        facts.nodes = static_cast<int>(hosts.size());
        std::vector<MeasuredCollectiveRow> rows;
        for (const NcclTestsRow& r : run.rows)
            rows.push_back({ r.bytes, std::max(r.outOfPlace.algbwGBs, r.inPlace.algbwGBs), std::max(r.outOfPlace.busbwGBs, r.inPlace.busbwGBs) });
        return modelCollective(plan, facts, rows);
    }

} // namespace

TEST(NcclTestsEmu, EveryOptionCombinationReadsBack)
{
    if (kEmulator.empty())
        GTEST_SKIP() << "railyard-nccl-tests-emu not built";
    for (const bool roce : { false, true }) {
        auto f = emulate(roce ? simtest::kRoceSpec : simtest::kIbSpec, "[]");
        ASSERT_TRUE(f);
        for (const char* tool : { "all_reduce_perf", "all_gather_perf", "reduce_scatter_perf" })
            for (const std::optional<int> rail : { std::optional<int>(), std::optional<int>(5) })
                for (const char* check : { "0", "1" }) {
                    SCOPED_TRACE(std::string(tool) + (roce ? " RoCE" : " IB") + (rail ? " rail 5" : " all rails") + " -c " + check);
                    std::vector<std::string> args = kShortRun;
                    args.back() = check;
                    const JobResult job = runJob(*f, { "node001", "node005" }, 2, tool, args, ncclEnv(*f, rail, roce));
                    for (const int code : job.exitCodes)
                        EXPECT_EQ(code, 0) << job.output;
                    auto run = parseNcclTestsOutput(job.output);
                    ASSERT_TRUE(run) << run.error().toString();
                    EXPECT_EQ(run->tool, tool);
                    EXPECT_FALSE(run->toolInferred);
                    EXPECT_TRUE(run->complete) << job.output;
                    EXPECT_EQ(run->ranks, 4);
                    EXPECT_EQ(run->rows.size(), 5u); // 1M, 4M, 16M, 64M, 256M
                    EXPECT_EQ(run->validation, std::stoi(check));
                    EXPECT_EQ(run->testsVersion, "2.17.6");
                    for (const NcclTestsRow& r : run->rows)
                        EXPECT_EQ(r.outOfPlace.wrong.has_value(), std::string(check) == "1");
                    auto log = parseNcclLog(job.output);
                    ASSERT_TRUE(log) << log.error().toString();
                    EXPECT_EQ(log->version, "2.27.5");
                    EXPECT_TRUE(log->complete());
                    ASSERT_EQ(log->hosts.size(), 2u);
                    for (const NcclHostReport& h : log->hosts) {
                        EXPECT_EQ(h.nics.size(), rail ? 1u : 8u) << h.host;
                        EXPECT_GT(h.netChannelsGdr, 0) << h.host;
                        EXPECT_EQ(h.netChannelsNoGdr, 0) << h.host;
                        for (const NcclNic& n : h.nics) {
                            EXPECT_EQ(n.link, roce ? "RoCE" : "IB");
                            EXPECT_EQ(n.gdr, true) << h.host << " " << n.name;
                        }
                    }
                    EXPECT_EQ(log->topology.crossesRails, false);
                    if (roce) {
                        EXPECT_EQ(log->gidIndex, 3);
                        EXPECT_EQ(log->trafficClass, 106);
                    }
                    for (const core::Finding& x : log->findings)
                        EXPECT_NE(x.severity, core::Severity::Error) << x.code << ": " << x.message;
                }
    }
}

TEST(NcclTestsEmu, HealthyFabricIsWithinTheBandOfThePlansBound)
{
    if (kEmulator.empty())
        GTEST_SKIP() << "railyard-nccl-tests-emu not built";
    auto f = emulate(simtest::kIbSpec, "[]");
    ASSERT_TRUE(f);
    for (const std::optional<int> rail : { std::optional<int>(), std::optional<int>(2) }) {
        const JobResult job = runJob(*f, { "node001", "node005" }, 8, "all_reduce_perf",
            { "-b", "64M", "-e", "1G", "-f", "4", "-n", "1", "-w", "0" }, ncclEnv(*f, rail, false));
        auto run = parseNcclTestsOutput(job.output);
        ASSERT_TRUE(run);
        ASSERT_TRUE(run->complete) << job.output;
        const CollectiveModel m = modelOf(*f, *run, rail ? 1 : 8);
        ASSERT_TRUE(m.boundBusbwGBs);
        EXPECT_EQ(m.verdict.status, "meets") << m.verdict.message;
        EXPECT_GE(m.verdict.percentOfBound, 85);
        EXPECT_LE(m.verdict.percentOfBound, 95);
    }
}

TEST(NcclTestsEmu, DegradedRailGatesTheRingsAndNoGpuDirectShowsInTheLog)
{
    if (kEmulator.empty())
        GTEST_SKIP() << "railyard-nccl-tests-emu not built";
    auto f = emulate(simtest::kIbSpec,
        R"([{ "kind": "degraded", "node": "node005", "rail": 3, "width": 2 }, { "kind": "no_gpudirect", "node": "node002" }])");
    ASSERT_TRUE(f);
    const std::vector<std::string> args { "-b", "256M", "-e", "256M", "-n", "1", "-w", "0" };
    auto percent = [&](const std::vector<std::string>& nodes, std::optional<int> rail) {
        const JobResult job = runJob(*f, nodes, 8, "all_reduce_perf", args, ncclEnv(*f, rail, false));
        auto run = parseNcclTestsOutput(job.output);
        EXPECT_TRUE(run && run->complete) << job.output;
        return run ? modelOf(*f, *run, rail ? 1 : 8).verdict.percentOfBound : 0.0;
    };
    // Rail 3 at 2x on node005: every ring at half speed with all rails, that rail alone at half too,
    // the other rails alone unaffected.
    EXPECT_NEAR(percent({ "node001", "node005" }, std::nullopt), 46, 4);
    EXPECT_NEAR(percent({ "node001", "node005" }, 3), 46, 4);
    EXPECT_NEAR(percent({ "node001", "node005" }, 4), 91, 4);
    // No GPUDirect on node002: lower, and NCCL's log says so for that host.
    const JobResult job = runJob(*f, { "node001", "node002" }, 8, "all_reduce_perf", args, ncclEnv(*f, std::nullopt, false));
    auto run = parseNcclTestsOutput(job.output);
    ASSERT_TRUE(run && run->complete) << job.output;
    EXPECT_NEAR(modelOf(*f, *run, 8).verdict.percentOfBound, 55, 4);
    auto log = parseNcclLog(job.output);
    ASSERT_TRUE(log);
    bool named = false;
    for (const core::Finding& x : log->findings)
        if (x.code == "NCCL_GDR_DISABLED" && x.where.rfind("node002", 0) == 0)
            named = true;
    EXPECT_TRUE(named) << toJson(*log).dump(1);
    for (const NcclHostReport& h : log->hosts)
        EXPECT_EQ(h.netChannelsNoGdr > 0, h.host == "node002") << h.host;
}

TEST(NcclTestsEmu, CongestedLeafSlowsOnlyRunsAcrossSus)
{
    if (kEmulator.empty())
        GTEST_SKIP() << "railyard-nccl-tests-emu not built";
    auto f = emulate(simtest::kIbSpec, R"([{ "kind": "congested", "switch": "su1-rail2-leaf", "uplinks": 4, "factor": 0.25 }])");
    ASSERT_TRUE(f);
    const std::vector<std::string> args { "-b", "256M", "-e", "256M", "-n", "1", "-w", "0" };
    auto percent = [&](const std::vector<std::string>& nodes) {
        const JobResult job = runJob(*f, nodes, 8, "all_reduce_perf", args, ncclEnv(*f, std::nullopt, false));
        auto run = parseNcclTestsOutput(job.output);
        EXPECT_TRUE(run && run->complete) << job.output;
        return run ? modelOf(*f, *run, 8).verdict.percentOfBound : 0.0;
    };
    const double across = percent({ "node001", "node005" });
    const double within = percent({ "node001", "node002" });
    EXPECT_NEAR(within, 91, 4);
    EXPECT_LT(across, within - 10);
}

TEST(NcclTestsEmu, RailDownFailsLikeNccl)
{
    if (kEmulator.empty())
        GTEST_SKIP() << "railyard-nccl-tests-emu not built";
    auto f = emulate(simtest::kIbSpec, R"([{ "kind": "link_down", "node": "node005", "rail": 6 }])");
    ASSERT_TRUE(f);
    const JobResult job = runJob(*f, { "node001", "node005" }, 8, "all_reduce_perf", kShortRun, ncclEnv(*f, std::nullopt, false));
    EXPECT_NE(job.exitCodes[0], 0);
    EXPECT_NE(job.exitCodes[8 + 6], 0); // node005's GPU 6 drives the NIC that is down
    auto run = parseNcclTestsOutput(job.output);
    ASSERT_TRUE(run);
    EXPECT_FALSE(run->complete);
    bool failed = false;
    for (const core::Finding& x : run->findings)
        failed = failed || x.code == "NCCL_TESTS_RANK_FAILED";
    EXPECT_TRUE(failed) << toJson(*run).dump(1);
    auto log = parseNcclLog(job.output);
    ASSERT_TRUE(log);
    ASSERT_FALSE(log->errors.empty()) << job.output;
    EXPECT_EQ(log->errors.front().status, 12);
    EXPECT_EQ(log->errors.front().host, "node005");
    EXPECT_EQ(log->errors.front().hca, f->emulator->nodes().front().railMap[6]);
}

TEST(NcclTestsEmu, RefusesWhatNcclTestsRefuses)
{
    if (kEmulator.empty())
        GTEST_SKIP() << "railyard-nccl-tests-emu not built";
    auto f = emulate(simtest::kIbSpec, "[]");
    ASSERT_TRUE(f);
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>> { { "-q", "1" }, { "--frobnicate" }, { "extra" },
             { "-d", "float17" }, { "-o", "xor" }, { "-g", "2" }, { "-b", "1G", "-e", "1M" } }) {
        SCOPED_TRACE(args.front());
        const JobResult job = runJob(*f, { "node001" }, 1, "all_reduce_perf", args);
        EXPECT_EQ(job.exitCodes[0], 1) << job.output;
        EXPECT_EQ(job.output.find("# Collective test starting"), std::string::npos) << job.output;
    }
    const JobResult unknown = runJob(*f, { "node001" }, 1, "all_reduce_perf", { "-q", "1" });
    EXPECT_NE(unknown.output.find("invalid option"), std::string::npos) << unknown.output;
    EXPECT_NE(unknown.output.find("USAGE: all_reduce_perf"), std::string::npos) << unknown.output;
    // Without an emulated node it says what is missing.
    ChildProcess bare({ (f->tools() / "all_reduce_perf").string() }, SpawnOptions { {}, f->dir.path() / "bare.log" });
    EXPECT_EQ(bare.waitFor(std::chrono::seconds(10)), 1);
    EXPECT_NE(simtest::readText(f->dir.path() / "bare.log").find("RAILYARD_SYSFS_ROOT"), std::string::npos);
}

TEST(NcclTestsEmu, OneNodeRunsOverNvlinkOnly)
{
    if (kEmulator.empty())
        GTEST_SKIP() << "railyard-nccl-tests-emu not built";
    auto f = emulate(simtest::kIbSpec, "[]");
    ASSERT_TRUE(f);
    const JobResult job = runJob(*f, { "node003" }, 8, "all_reduce_perf", kShortRun, ncclEnv(*f, std::nullopt, false));
    auto run = parseNcclTestsOutput(job.output);
    ASSERT_TRUE(run && run->complete) << job.output;
    EXPECT_EQ(run->ranks, 8);
    auto log = parseNcclLog(job.output);
    ASSERT_TRUE(log);
    EXPECT_EQ(log->netChannelsGdr + log->netChannelsNoGdr, 0); // no network connection in one node
    EXPECT_EQ(modelOf(*f, *run, 8).verdict.status, "no-network");
}

TEST(NcclTestsEmu, SshStandInRunsTheCommandAsTheNode)
{
    if (kEmulator.empty())
        GTEST_SKIP() << "railyard-nccl-tests-emu not built";
    auto f = emulate(simtest::kIbSpec, "[]");
    ASSERT_TRUE(f);
    const fs::path ssh = f->tools() / std::string(kEmulatedSshName);
    auto run = [&](const std::vector<std::string>& argv) {
        const fs::path log = f->dir.path() / "ssh.log";
        ChildProcess c(argv, SpawnOptions { {}, log });
        const auto code = c.waitFor(std::chrono::seconds(10));
        return std::make_pair(code.value_or(-1), simtest::readText(log));
    };
    const auto [ok, text] = run({ ssh.string(), "-x", "node004", "echo", "$RAILYARD_SYSFS_ROOT", ";", "command", "-v", "all_reduce_perf" });
    EXPECT_EQ(ok, 0) << text;
    EXPECT_NE(text.find((f->root / "node004" / "sys").string()), std::string::npos) << text;
    EXPECT_NE(text.find((f->tools() / "all_reduce_perf").string()), std::string::npos) << text;
    const auto [bad, why] = run({ ssh.string(), "node999", "true" });
    EXPECT_EQ(bad, 255);
    EXPECT_NE(why.find("Could not resolve hostname node999"), std::string::npos) << why;
}

TEST(NcclTestsEmu, HcaFilterAsNcclReadsIt)
{
    const std::vector<std::string> devices { "mlx5_0", "mlx5_1", "mlx5_10", "mlx5_3" };
    using V = std::vector<std::pair<std::string, int>>;
    EXPECT_EQ(ncclHcaSelection("=mlx5_3:1,mlx5_0:1", devices), (V { { "mlx5_3", 1 }, { "mlx5_0", 1 } }));
    EXPECT_EQ(ncclHcaSelection("mlx5_1", devices), (V { { "mlx5_1", 1 }, { "mlx5_10", 1 } })); // a prefix
    EXPECT_EQ(ncclHcaSelection("=mlx5_1", devices), (V { { "mlx5_1", 1 } }));
    EXPECT_EQ(ncclHcaSelection("^mlx5_1", devices), (V { { "mlx5_0", 1 }, { "mlx5_3", 1 } }));
    EXPECT_EQ(ncclHcaSelection("", devices).size(), 4u);
    EXPECT_TRUE(ncclHcaSelection("=mlx5_7", devices).empty());
}

} // namespace railyard::live
