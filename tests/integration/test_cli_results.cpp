// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `railyard-cli results import` end to end on the real tool outputs of ../shared/fixtures:
// exit status, the interfaces.md §4 document, and the plan's expected figures and verdicts.
#include "cli_test_support.h"

#include <fstream>

namespace railyard::clitest {
namespace {

    std::string fixture(const std::string& name)
    {
        return (fs::path(RAILYARD_SHARED_FIXTURES_DIR) / name).string();
    }

    json jsonOf(const CliRun& run)
    {
        json doc = json::parse(run.out, nullptr, false);
        EXPECT_FALSE(doc.is_discarded()) << run.out << run.err;
        return doc;
    }

    bool hasFinding(const json& doc, const std::string& code)
    {
        for (const auto& f : doc["findings"])
            if (f["code"] == code)
                return true;
        return false;
    }

} // namespace

TEST(CliResults, CompleteTwoNodeAllReduceAgainstThePlan)
{
    const CliRun run = runCli({ "results", "import", fixture("nccl-allreduce-2node-16xH100-ib-nebius-dstack.txt"), "--kind",
        "nccl-tests", "--example", "dgx-h100-superpod-4su", "--json" });
    // The run is complete; it reaches 63 % of the network bound, an error finding, but import
    // status is about the run itself.
    EXPECT_EQ(run.status, 0) << run.err;
    const json doc = jsonOf(run);
    EXPECT_EQ(doc["tool"], "all_reduce_perf");
    EXPECT_EQ(doc["ranks"], 16);
    EXPECT_EQ(doc["complete"], true);
    ASSERT_EQ(doc["rows"].size(), 31u);
    const json& last = doc["rows"].back();
    EXPECT_EQ(last["bytes"], 8589934592ull);
    EXPECT_DOUBLE_EQ(last["in_place"]["algbw_gbs"].get<double>(), 249.85);
    EXPECT_DOUBLE_EQ(last["out_of_place"]["busbw_gbs"].get<double>(), 467.54);
    EXPECT_EQ(last["out_of_place"]["wrong"], 0);
    EXPECT_DOUBLE_EQ(doc["avg_busbw_gbs"].get<double>(), 125.499);
    ASSERT_TRUE(doc.contains("expected"));
    const json& e = doc["expected"];
    EXPECT_EQ(e["collective"], "all_reduce");
    EXPECT_EQ(e["nodes"], 2);
    EXPECT_NEAR(e["bound_algbw_gbs"].get<double>(), 3200 * 4096.0 / 4122 / 8, 0.01);
    EXPECT_EQ(e["verdict"]["status"], "low");
    EXPECT_NEAR(last["net_bw_gbs"].get<double>(), 249.85, 1e-9);
    EXPECT_NEAR(last["percent_of_bound"].get<double>(), 62.9, 0.05);
    EXPECT_TRUE(hasFinding(doc, "BANDWIDTH_BELOW_BOUND"));
}

TEST(CliResults, KindIsDetectedAndTextSummaryIsPrinted)
{
    const CliRun run = runCli({ "results", "import", fixture("nccl-allreduce-2node-16xB200-ib-lambda-v2.17.6-dstack.txt"), "--example",
        "dgx-b200-superpod-2su" });
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("all_reduce_perf: 16 ranks on 2 nodes, complete"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("net_bw GB/s"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("verdict: meets"), std::string::npos) << run.out; // 374.9 of 397.5 GB/s: 94 %
}

TEST(CliResults, TruncatedAndFailedRunsExitOne)
{
    const CliRun cut = runCli({ "results", "import", fixture("nccl-allreduce-2node-p5-efa-srun-label-prefixed.txt"), "--json" });
    EXPECT_EQ(cut.status, 1) << cut.err;
    const json doc = jsonOf(cut);
    EXPECT_EQ(doc["complete"], false);
    EXPECT_TRUE(hasFinding(doc, "NCCL_TESTS_TRUNCATED")) << doc["findings"].dump();

    const CliRun waiting = runCli({ "results", "import", fixture("perftest-ib_write_bw-cuda-dmabuf-roce-server-waiting.txt"), "--kind",
        "perftest", "--json" });
    EXPECT_EQ(waiting.status, 1) << waiting.err;
    EXPECT_TRUE(hasFinding(jsonOf(waiting), "PERFTEST_WAITING"));
}

TEST(CliResults, WrongResultsAreAnErrorFinding)
{
    const CliRun run = runCli({ "results", "import", fixture("nccl-allgather-8xV100-old-format-out-of-bounds-FAILED.txt"), "--json" });
    const json doc = jsonOf(run);
    EXPECT_TRUE(hasFinding(doc, "NCCL_TESTS_WRONG")) << doc["findings"].dump();
    EXPECT_EQ(doc["tool"], "all_gather_perf");
}

TEST(CliResults, PerftestNormalisedToGbpsWithAPlan)
{
    // MB/sec is MiB/s: 24056.72 MiB/s = 201.80 Gb/s. The loopback log interleaves client and
    // server; the document is the client's, the server's run is under "runs".
    const CliRun plan = runCli({ "results", "import", fixture("perftest-ib_write_bw-ib-loopback-8M-server-client-interleaved.txt"),
        "--kind", "perftest", "--example", "dgx-h100-superpod-1su", "--json" });
    EXPECT_EQ(plan.status, 0) << plan.err;
    const json doc = jsonOf(plan);
    EXPECT_EQ(doc["tool"], "ib_write_bw");
    EXPECT_EQ(doc["side"], "client");
    ASSERT_EQ(doc["rows"].size(), 1u);
    EXPECT_NEAR(doc["rows"][0]["bw_average_gbps"].get<double>(), 24056.72 * 1048576 * 8 / 1e9, 1e-6);
    ASSERT_TRUE(doc.contains("runs"));
    EXPECT_EQ(doc["runs"].size(), 1u);
    ASSERT_TRUE(doc.contains("expected"));
    EXPECT_NEAR(doc["expected"]["bound_gbps"].get<double>(), 400 * 4096.0 / 4122, 0.01);
    EXPECT_EQ(doc["expected"]["verdict"]["status"], "low"); // 201.8 of 397.5 Gb/s (an HDR-era loopback)
}

TEST(CliResults, NcclLogSaysWhereGpuDirectIsOff)
{
    const CliRun run = runCli({ "results", "import", fixture("nccl-debug-info-roce-gdr-disabled-for-hca-despite-peermem-PARTIAL.txt"),
        "--kind", "nccl-log", "--json" });
    EXPECT_NE(run.status, 2) << run.err;
    const json doc = jsonOf(run);
    EXPECT_EQ(doc["tool"], "nccl");
    EXPECT_TRUE(hasFinding(doc, "NCCL_GDR_DISABLED")) << doc["findings"].dump();
}

TEST(CliResults, NotAToolOutputIsBadInput)
{
    TempDir dir;
    const fs::path junk = dir.path() / "junk.txt";
    std::ofstream(junk) << "hello\nthis is not a log\n";
    const CliRun detected = runCli({ "results", "import", junk.string() });
    EXPECT_EQ(detected.status, 2);
    EXPECT_NE(detected.err.find("not the output of"), std::string::npos) << detected.err;
    const CliRun forced = runCli({ "results", "import", junk.string(), "--kind", "perftest" });
    EXPECT_EQ(forced.status, 2);
    EXPECT_NE(forced.err.find("junk.txt"), std::string::npos) << forced.err;
    const CliRun missing = runCli({ "results", "import", (dir.path() / "none.txt").string() });
    EXPECT_EQ(missing.status, 2);
    const CliRun badKind = runCli({ "results", "import", junk.string(), "--kind", "iperf" });
    EXPECT_EQ(badKind.status, 2);
}

TEST(CliResults, ImportedRunsAreStoredInTheProjectAndListed)
{
    TempDir dir;
    const std::string project = (dir.path() / "bringup.railyard").string();
    const CliRun first = runCli({ "results", "import", fixture("nccl-allreduce-2node-16xH100-ib-nebius-dstack.txt"), "--kind",
        "nccl-tests", "--example", "dgx-h100-superpod-4su", "--project", project });
    EXPECT_EQ(first.status, 0) << first.err;
    EXPECT_NE(first.err.find("stored as run 1 in"), std::string::npos) << first.err;
    const CliRun second = runCli({ "results", "import", fixture("nccl-allreduce-2node-16xH100-ib-nebius-dstack.txt"), "--project", project });
    EXPECT_EQ(second.status, 0) << second.err;

    const CliRun list = runCli({ "results", "list", "--project", project, "--json" });
    ASSERT_EQ(list.status, 0) << list.err;
    const json runs = jsonOf(list);
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0]["kind"], "import:nccl-tests");
    EXPECT_EQ(runs[0]["plan"], "DGX H100 SuperPOD, 4 SU (127 nodes + 4 UFM ports; NVIDIA RA-11333-001 Table 4)") << runs.dump(1);
    EXPECT_NE(runs[0]["summary"].get<std::string>().find("low ("), std::string::npos) << runs[0]["summary"];
    EXPECT_EQ(runs[1]["plan"], "");
    const CliRun byPlan = runCli({ "results", "list", "--project", project, "--plan", runs[0]["plan"].get<std::string>(), "--json" });
    EXPECT_EQ(jsonOf(byPlan).size(), 1u);

    const CliRun show = runCli({ "results", "show", "1", "--project", project, "--json" });
    ASSERT_EQ(show.status, 0) << show.err;
    const json doc = jsonOf(show);
    EXPECT_EQ(doc["tool"], "all_reduce_perf");
    EXPECT_EQ(doc["rows"].size(), 31u);
    const CliRun text = runCli({ "results", "list", "--project", project });
    EXPECT_NE(text.out.find("import:nccl-tests"), std::string::npos) << text.out;
    EXPECT_EQ(runCli({ "results", "show", "9", "--project", project }).status, 2);
    EXPECT_EQ(runCli({ "results", "list", "--project", (dir.path() / "none.railyard").string() }).status, 2);
}

} // namespace railyard::clitest

