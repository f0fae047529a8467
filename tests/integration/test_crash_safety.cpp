// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Crash safety of project files: railyard-cli is killed with SIGKILL at random points while it
// stores a run in a project (`results import --project`), and the file is opened after each kill.
// It must always open, the run committed before stays byte for byte what it was, and the run being
// saved is either wholly there or not there at all. A creator killed half-way leaves either no
// file or a project that opens.
#include "cli_test_support.h"

#include "core/store/project_store.h"

#include <chrono>
#include <cstdio>
#include <random>
#include <thread>

#include <signal.h>
#include <sys/stat.h>

namespace railyard::clitest {
namespace {

using core::store::ProjectStore;
using Clock = std::chrono::steady_clock;

// An nccl-tests all_reduce_perf output with `rows` sizes: its result document is a few MB, so
// that writing it (pages into the WAL, the commit's fsync, the checkpoint when the CLI closes the
// file) takes a good part of the CLI's run and the random kills land in it.
std::string bigNcclOutput(int rows)
{
    std::string text = "#  Rank  0 Group  0 Pid  1000 on node-0 device  0 [0x18] NVIDIA H100 80GB HBM3\n"
                       "#                                                              out-of-place                       in-place\n"
                       "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                       "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)\n";
    char line[200];
    for (int i = 1; i <= rows; ++i) {
        const long long bytes = 8LL * i;
        std::snprintf(line, sizeof line, "%12lld  %12lld     float     sum      -1   100.00    1.00    1.50      0   100.00    1.00    1.50      0\n",
            bytes, bytes / 4);
        text += line;
    }
    text += "# Out of bounds values : 0 OK\n# Avg bus bandwidth    : 1.5\n#\n";
    return text;
}

pid_t spawnCli(const std::vector<std::string>& args)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<std::string> argStrings { RAILYARD_CLI };
    argStrings.insert(argStrings.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argStrings)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, RAILYARD_CLI, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
}

struct KillOutcome {
    bool killed = false; // false: the CLI had already exited when the kill came
    int exitStatus = -1;
};

// Starts the CLI, sends SIGKILL after `delay`, reaps it.
KillOutcome runAndKill(const std::vector<std::string>& args, std::chrono::microseconds delay)
{
    KillOutcome outcome;
    const pid_t pid = spawnCli(args);
    if (pid < 0)
        return outcome;
    std::this_thread::sleep_for(delay);
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    outcome.killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    outcome.exitStatus = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return outcome;
}

std::vector<std::string> importArgs(const fs::path& input, const fs::path& project)
{
    return { "results", "import", input.string(), "--kind", "nccl-tests", "--project", project.string() };
}

} // namespace

TEST(CrashSafety, KilledSavesNeverDamageTheProject)
{
    constexpr int kRounds = 100;
    constexpr int kCreateRounds = 25;
    TempDir dir;
    const fs::path input = dir.path() / "allreduce-10000-sizes.txt";
    {
        std::ofstream out(input, std::ios::binary);
        out << bigNcclOutput(10000);
    }
    const fs::path project = dir.path() / "bringup.railyard";

    // Run 1 is the committed baseline every round checks; a second, whole run gives the document
    // a save must store exactly and how long one CLI run takes (the range of the random kills).
    const CliRun first = runCli(importArgs(input, project));
    ASSERT_EQ(first.status, 0) << first.err;
    const auto started = Clock::now();
    const CliRun second = runCli(importArgs(input, project));
    const auto runTime = std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started);
    ASSERT_EQ(second.status, 0) << second.err;
    std::string baseline;
    {
        auto store = ProjectStore::open(project);
        ASSERT_TRUE(store) << store.error().message;
        auto runs = store->listRuns();
        ASSERT_TRUE(runs);
        ASSERT_EQ(runs->size(), 2u);
        baseline = store->loadRun((*runs)[0].id)->resultJson;
        ASSERT_EQ(store->loadRun((*runs)[1].id)->resultJson, baseline) << "the import's document is not deterministic";
        ASSERT_TRUE(store->deleteRun((*runs)[1].id));
    }
    ASSERT_GT(baseline.size(), 1'000'000u);

    std::mt19937 random(20261202);
    // Up to 1.2 x the run time: some kills come after the CLI exited, which must look the same.
    std::uniform_int_distribution<long long> delayUs(0, runTime.count() * 12 / 10);
    int killed = 0, committedBeforeKill = 0, walLeft = 0;
    const auto killStart = Clock::now();
    for (int round = 0; round < kRounds; ++round) {
        const auto delay = std::chrono::microseconds(delayUs(random));
        const KillOutcome outcome = runAndKill(importArgs(input, project), delay);
        killed += outcome.killed ? 1 : 0;
        ASSERT_TRUE(outcome.killed || outcome.exitStatus == 0) << "round " << round << ": exit " << outcome.exitStatus;
        walLeft += fs::exists(fs::path(project.string() + "-wal")) ? 1 : 0;

        auto store = ProjectStore::open(project);
        ASSERT_TRUE(store) << "round " << round << " (kill after " << delay.count() << " us): " << store.error().message;
        auto runs = store->listRuns();
        ASSERT_TRUE(runs) << runs.error().message;
        ASSERT_GE(runs->size(), 1u) << "round " << round << ": the committed run is gone";
        ASSERT_LE(runs->size(), 2u) << "round " << round;
        const auto kept = store->loadRun((*runs)[0].id);
        ASSERT_TRUE(kept) << kept.error().message;
        ASSERT_EQ(kept->resultJson.size(), baseline.size()) << "round " << round;
        ASSERT_TRUE(kept->resultJson == baseline) << "round " << round << ": the committed run changed";
        if (runs->size() == 2) {
            // The run being saved is there: then it is whole.
            const auto fresh = store->loadRun((*runs)[1].id);
            ASSERT_TRUE(fresh) << fresh.error().message;
            ASSERT_TRUE(fresh->resultJson == baseline) << "round " << round << ": a half-written run shows ("
                                                       << fresh->resultJson.size() << " of " << baseline.size() << " bytes)";
            committedBeforeKill += outcome.killed ? 1 : 0;
            // Keep the file small; the next save reuses the freed pages.
            ASSERT_TRUE(store->deleteRun((*runs)[1].id));
        } else {
            ASSERT_TRUE(outcome.killed) << "round " << round << ": the CLI exited 0 but its run is missing";
        }
        if (round % 20 == 0) {
            // The CLI reads what the store reads, and a kill is not stuck in its lock.
            const CliRun list = runCli({ "results", "list", "--project", project.string(), "--json" });
            ASSERT_EQ(list.status, 0) << describe({ "results", "list" }, list);
        }
    }
    const double killSeconds = std::chrono::duration<double>(Clock::now() - killStart).count();

    // Killed while creating the project: no file, or a project that opens (with the run or without).
    int createdNothing = 0, createdEmpty = 0, createdWithRun = 0;
    std::uniform_int_distribution<long long> createDelayUs(0, runTime.count());
    for (int round = 0; round < kCreateRounds; ++round) {
        const fs::path fresh = dir.path() / ("new-" + std::to_string(round) + ".railyard");
        const auto delay = std::chrono::microseconds(createDelayUs(random));
        const KillOutcome outcome = runAndKill(importArgs(input, fresh), delay);
        ASSERT_TRUE(outcome.killed || outcome.exitStatus == 0) << "create round " << round;
        if (!fs::exists(fresh)) {
            ++createdNothing;
            continue;
        }
        {
            auto store = ProjectStore::open(fresh);
            ASSERT_TRUE(store) << "create round " << round << " (kill after " << delay.count() << " us): " << store.error().message;
            auto runs = store->listRuns();
            ASSERT_TRUE(runs);
            ASSERT_LE(runs->size(), 1u);
            if (runs->empty()) {
                ++createdEmpty;
            } else {
                ++createdWithRun;
                ASSERT_TRUE(store->loadRun((*runs)[0].id)->resultJson == baseline) << "create round " << round;
            }
        }
        // The next CLI run stores into it as usual.
        ASSERT_EQ(runCli(importArgs(input, fresh)).status, 0) << "create round " << round;
        fs::remove(fresh);
    }
    std::printf("[ figures  ] CLI run %.0f ms (document %zu bytes); %d saves, %d killed, %d of them after the commit, "
                "-wal left after %d kills; %d kills while creating: %d left no file, %d an empty project, %d a project "
                "with the run; %.1f s\n",
        runTime.count() / 1000.0, baseline.size(), kRounds, killed, committedBeforeKill, walLeft, kCreateRounds,
        createdNothing, createdEmpty, createdWithRun, killSeconds);
    EXPECT_GT(killed, kRounds / 2) << "most kills should land while the CLI runs";
}

// A damaged or foreign file given to --project is refused by every CLI command that opens one,
// with a message that says which file and why, and stays exactly as it was: same bytes, same
// mtime, and no -wal, -shm or -journal created beside it.
TEST(CrashSafety, DamagedProjectsAreRefusedByTheCliAndNeverModified)
{
    TempDir dir;
    const fs::path input = dir.path() / "allreduce.txt";
    {
        std::ofstream out(input, std::ios::binary);
        out << bigNcclOutput(8);
    }
    const fs::path good = dir.path() / "good.railyard";
    ASSERT_EQ(runCli(importArgs(input, good)).status, 0);
    const std::string project = readText(good);
    ASSERT_GT(project.size(), 4096u);
    ASSERT_FALSE(fs::exists(fs::path(good.string() + "-wal"))) << "the CLI leaves the project whole on exit";

    // SQLite keeps user_version at byte 60 and application_id at byte 68 of the header.
    const auto patched = [&](std::size_t at, std::uint32_t value) {
        std::string bytes = project;
        for (int k = 0; k < 4; ++k)
            bytes[at + static_cast<std::size_t>(k)] = static_cast<char>((value >> (24 - 8 * k)) & 0xFF);
        return bytes;
    };
    std::mt19937 random(9);
    std::string noise(8192, '\0');
    for (char& c : noise)
        c = static_cast<char>(random());
    struct Case {
        std::string name, bytes, why;
    };
    const std::vector<Case> cases {
        { "truncated.railyard", project.substr(0, project.size() / 2 + 100), "truncated" },
        { "header-only.railyard", project.substr(0, 60), "100-byte SQLite header" },
        { "noise.railyard", noise, "not an SQLite database" },
        { "empty.railyard", "", "empty (0 bytes)" },
        { "foreign.railyard", patched(68, 0x12345678), "another application's SQLite database" },
        { "newer.railyard", patched(60, 99), "newer Railyard (schema 99" },
    };
    for (const Case& c : cases) {
        const fs::path file = dir.path() / c.name;
        {
            std::ofstream out(file, std::ios::binary);
            out << c.bytes;
        }
        const auto mtime = fs::last_write_time(file);
        for (const std::vector<std::string>& args : { std::vector<std::string> { "results", "list", "--project", file.string() },
                 std::vector<std::string> { "results", "show", "1", "--project", file.string() }, importArgs(input, file) }) {
            const CliRun run = runCli(args);
            EXPECT_EQ(run.status, 2) << describe(args, run);
            EXPECT_NE(run.err.find(file.string()), std::string::npos) << describe(args, run);
            EXPECT_NE(run.err.find(c.why), std::string::npos) << describe(args, run);
        }
        EXPECT_TRUE(readText(file) == c.bytes) << c.name << " was changed";
        EXPECT_EQ(fs::last_write_time(file), mtime) << c.name;
        for (const char* suffix : { "-wal", "-shm", "-journal" })
            EXPECT_FALSE(fs::exists(fs::path(file.string() + suffix))) << c.name << suffix << " was created";
    }
}

} // namespace railyard::clitest
