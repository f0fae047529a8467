// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The railyard-sim program: starts on a small plan, serves /v1/health from an agent, stops
// cleanly on SIGTERM; bad input exits 2 with an error naming the file and the field.
#include "tests/live/loopback_http.h"
#include "tests/live/test_sim_support.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <thread>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace railyard::simtest;
using railyard::live::test::httpRequest;
using namespace std::chrono_literals;

namespace {

const std::string kSim = RAILYARD_SIM;

/// The program with stdout and stderr to files; killed at the end of the test if still running.
class Program {
public:
    Program(const std::vector<std::string>& args, const fs::path& out, const fs::path& err)
    {
        std::vector<char*> argv;
        argv.push_back(const_cast<char*>(kSim.c_str()));
        for (const auto& a : args)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (::posix_spawn(&m_pid, kSim.c_str(), &actions, nullptr, argv.data(), environ) != 0)
            m_pid = -1;
        posix_spawn_file_actions_destroy(&actions);
    }
    ~Program()
    {
        if (m_pid > 0) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
    }
    bool started() const { return m_pid > 0; }
    void signal(int sig) { ::kill(m_pid, sig); }
    /// The exit status once the program ends within `timeout`.
    std::optional<int> wait(std::chrono::milliseconds timeout)
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (m_pid > 0) {
            int status = 0;
            const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
            if (r == m_pid) {
                m_pid = -1;
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            if (std::chrono::steady_clock::now() >= deadline)
                return std::nullopt;
            std::this_thread::sleep_for(20ms);
        }
        return std::nullopt;
    }
    bool running()
    {
        return m_pid > 0 && ::waitpid(m_pid, nullptr, WNOHANG) == 0;
    }

private:
    pid_t m_pid = -1;
};

} // namespace

TEST(SimProgram, ServesAgentsAndStopsOnSigterm)
{
    if (kSim.empty() || !fs::exists(kSim))
        FAIL() << "railyard-sim is not built (test_live depends on it)";
    TempDir dir;
    const fs::path spec = dir.path() / "small.plan.json";
    std::ofstream(spec) << kIbSpec;
    const fs::path root = dir.path() / "fabric";
    Program sim({ "--plan", spec.string(), "--root", root.string(), "--seconds", "120", "--update-ms", "200" },
        dir.path() / "out.txt", dir.path() / "err.txt");
    ASSERT_TRUE(sim.started());
    const auto deadline = std::chrono::steady_clock::now() + 90s;
    while (readText(dir.path() / "out.txt").find("nodes serving on") == std::string::npos) {
        ASSERT_TRUE(sim.running()) << readText(dir.path() / "err.txt");
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no ready line:\n" << readText(dir.path() / "err.txt");
        std::this_thread::sleep_for(50ms);
    }
    EXPECT_NE(readText(dir.path() / "out.txt").find("railyard-sim: 8 nodes serving on 127.0.0.1:"), std::string::npos);
    const auto agents = nlohmann::json::parse(readText(root / "agents.json"));
    EXPECT_EQ(agents["token_file"], "token");
    ASSERT_EQ(agents["agents"].size(), 8u);
    EXPECT_EQ(agents["agents"][0]["node"], "node001");
    EXPECT_EQ(fs::status(root / "token").permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
    const std::string url = agents["agents"][2]["url"];
    const int port = std::stoi(url.substr(url.rfind(':') + 1));
    const auto health = httpRequest(port, "GET", "/v1/health");
    ASSERT_TRUE(health) << "no answer from the agent on port " << port;
    EXPECT_EQ(health->status, 200) << health->body;
    EXPECT_NE(health->body.find("\"api_version\""), std::string::npos) << health->body;
    EXPECT_NE(health->body.find("node003"), std::string::npos) << health->body;
    const auto refused = httpRequest(port, "GET", "/v1/inventory");
    ASSERT_TRUE(refused) << "no answer from the agent on port " << port;
    EXPECT_EQ(refused->status, 401) << refused->body;
    EXPECT_TRUE(fs::exists(root / "fabric.ibnet"));

    sim.signal(SIGTERM);
    const auto status = sim.wait(30s);
    ASSERT_TRUE(status) << "did not stop on SIGTERM";
    EXPECT_EQ(*status, 0) << readText(dir.path() / "err.txt");
    EXPECT_NE(readText(dir.path() / "err.txt").find("stopped after"), std::string::npos);
}

TEST(SimProgram, BadInputExitsTwoNamingFileAndField)
{
    if (kSim.empty() || !fs::exists(kSim))
        FAIL() << "railyard-sim is not built (test_live depends on it)";
    TempDir dir;
    const fs::path spec = dir.path() / "small.plan.json";
    std::ofstream(spec) << kIbSpec;
    const fs::path faults = dir.path() / "faults.json";
    std::ofstream(faults) << R"([ { "kind": "link_down", "node": "node042", "rail": 1 } ])";
    Program bad({ "--plan", spec.string(), "--root", (dir.path() / "fabric").string(), "--faults", faults.string() },
        dir.path() / "out.txt", dir.path() / "err.txt");
    ASSERT_TRUE(bad.started());
    const auto status = bad.wait(60s);
    ASSERT_TRUE(status);
    EXPECT_EQ(*status, 2);
    const std::string err = readText(dir.path() / "err.txt");
    EXPECT_NE(err.find("faults.json: entry 0, field node"), std::string::npos) << err;
    EXPECT_NE(err.find("node001 ... node008"), std::string::npos) << err;

    std::ofstream(dir.path() / "broken.plan.json") << R"({ "name": "x", "fabric": "infiniband", "nodes": -4 })";
    Program badSpec({ "--plan", (dir.path() / "broken.plan.json").string(), "--root", (dir.path() / "fabric").string() },
        dir.path() / "out2.txt", dir.path() / "err2.txt");
    const auto specStatus = badSpec.wait(60s);
    ASSERT_TRUE(specStatus);
    EXPECT_EQ(*specStatus, 2);
    EXPECT_NE(readText(dir.path() / "err2.txt").find("nodes"), std::string::npos) << readText(dir.path() / "err2.txt");
}
