// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `railyard-cli live test --kind allreduce` through the programs: railyard-sim emulates a 2-SU plan
// with a degraded rail and serves it; the CLI starts Open MPI's mpirun, which reaches the emulated
// nodes through the emulator's ssh stand-in and runs its nccl-tests stand-in; the JSON result names
// the degraded rail (exit 1), --out writes the same document, and bad input is exit 2.
#include "live/common/subprocess.h"
#include "tests/integration/cli_test_support.h"

#include <chrono>
#include <fstream>
#include <thread>

namespace railyard::clitest {
namespace {

    const std::string kSim = RAILYARD_SIM;
    const fs::path kSpecs = fs::path(RAILYARD_TEST_DATA_DIR) / "collective";

    /// railyard-sim on the spec with the faults, until its agents.json appears (or 60 s pass).
    std::unique_ptr<live::ChildProcess> startSim(const fs::path& root, const fs::path& log)
    {
        live::SpawnOptions o;
        o.log = log;
        o.ownProcessGroup = true;
        auto sim = std::make_unique<live::ChildProcess>(std::vector<std::string> { kSim, "--plan", (kSpecs / "ib-2su.plan.json").string(),
                                                            "--root", root.string(), "--faults",
                                                            (kSpecs / "degraded-node005-rail3.faults.json").string(), "--seconds", "120" },
            o);
        for (int i = 0; i < 600 && sim->running() && !fs::exists(root / "agents.json"); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        return sim;
    }

} // namespace

TEST(CliCollective, AllReduceThroughMpirunNamesTheDegradedRail)
{
    if (kSim.empty() || live::findProgram("mpirun").empty())
        GTEST_SKIP() << "needs railyard-sim and Open MPI's mpirun (openmpi-bin)";
    TempDir dir;
    // The emulated trees are thousands of small files written atomically: on a RAM file system when there is one.
    std::error_code ec;
    const bool ram = fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0;
    const fs::path root = ram ? fs::path("/dev/shm") / ("railyard-cli-collective-" + std::to_string(::getpid())) : dir.path() / "fabric";
    struct RemoveRoot {
        fs::path path;
        ~RemoveRoot()
        {
            std::error_code e;
            fs::remove_all(path, e);
        }
    } removeRoot { ram ? root : fs::path() };
    auto sim = startSim(root, dir.path() / "sim.log");
    ASSERT_TRUE(fs::exists(root / "agents.json")) << readText(dir.path() / "sim.log");
    const fs::path out = dir.path() / "result.json";
    const std::vector<std::string> args { "live", "test", "--plan", (kSpecs / "ib-2su.plan.json").string(), "--agents",
        (root / "agents.json").string(), "--kind", "allreduce", "--launcher", "mpirun", "--nodes", "node001,node005", "--min-bytes",
        "1M", "--max-bytes", "256M", "--iters", "1", "--warmup-iters", "0", "--rsh-agent", (root / "tools" / "railyard-emu-ssh").string(),
        "--bind-to", "none", "--work-dir", dir.path().string(), "--timeout-s", "60", "--json", "--out", out.string(), "--project",
        (dir.path() / "bringup.railyard").string() };
    const CliRun run = runCli(args);
    EXPECT_EQ(run.status, 1) << describe(args, run);
    const json doc = json::parse(run.out, nullptr, false);
    ASSERT_TRUE(doc.is_object()) << describe(args, run);
    EXPECT_EQ(doc["tool"], "all_reduce_perf");
    EXPECT_EQ(doc["complete"], true);
    ASSERT_EQ(doc["runs"].size(), 1u);
    EXPECT_EQ(doc["runs"][0]["tests"]["ranks"], 16);
    EXPECT_EQ(doc["runs"][0]["expected"]["verdict"]["status"], "low");
    bool named = false;
    for (const json& f : doc["findings"])
        if (f["code"] == "ALLREDUCE_LOW" && f["where"] == "node005/nic3")
            named = true;
    EXPECT_TRUE(named) << doc["findings"].dump(1);
    EXPECT_NE(run.err.find("268435456 B: busbw"), std::string::npos) << run.err; // progress per size on stderr
    EXPECT_EQ(json::parse(readText(out), nullptr, false), doc);
    // The run is stored in the project, with the same document.
    const CliRun list = runCli({ "results", "list", "--project", (dir.path() / "bringup.railyard").string(), "--json" });
    const json runs = json::parse(list.out, nullptr, false);
    ASSERT_TRUE(runs.is_array() && runs.size() == 1u) << list.out << list.err;
    EXPECT_EQ(runs[0]["kind"], "allreduce");
    EXPECT_EQ(runs[0]["exit_status"], 1);
    const CliRun shown = runCli({ "results", "show", "1", "--project", (dir.path() / "bringup.railyard").string(), "--json" });
    EXPECT_EQ(json::parse(shown.out, nullptr, false), doc);

    // Bad input: a crafted rsh agent is refused before anything starts.
    std::vector<std::string> crafted = args;
    *std::find(crafted.begin(), crafted.end(), (root / "tools" / "railyard-emu-ssh").string()) = "ssh;id";
    const CliRun refused = runCli(crafted);
    EXPECT_EQ(refused.status, 2) << describe(crafted, refused);
    EXPECT_NE(refused.err.find("rshAgent"), std::string::npos) << refused.err;
    sim->stop();
}

// A folder for the hostfile that cannot be made is bad input that names the folder and why, before
// anything starts (it was an uncaught filesystem_error: "error: internal").
TEST(CliCollective, AWorkDirThatCannotBeMadeIsRefusedWithTheReason)
{
    TempDir dir;
    const fs::path file = dir.path() / "a-file";
    { std::ofstream(file) << "not a folder\n"; }
    const std::string workDir = (file / "hostfiles").string();
    const std::vector<std::string> args { "live", "test", "--plan", (kSpecs / "ib-2su.plan.json").string(), "--kind", "allreduce",
        "--launcher", "mpirun", "--nodes", "node001,node005", "--work-dir", workDir, "--timeout-s", "5", "--project",
        (dir.path() / "bringup.railyard").string() };
    const CliRun run = runCli(args);
    EXPECT_EQ(run.status, 2) << describe(args, run);
    EXPECT_NE(run.err.find("cannot create the folder for the hostfile: Not a directory"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(workDir), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("internal"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(dir.path() / "bringup.railyard"));
}

} // namespace railyard::clitest
