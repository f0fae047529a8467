// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The railyard-sim program: starts on a small plan, serves /v1/health from an agent, stops
// cleanly on SIGTERM; bad input exits 2 with an error naming the file and the field.
#include "tests/live/test_sim_support.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <thread>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

using namespace railyard::simtest;
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

/// A plain HTTP/1.1 GET on loopback; the whole answer (status line, headers, body).
std::string httpGet(int port, const std::string& path)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return {};
    timeval tv { 10, 0 };
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::string answer;
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
        const std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
        if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
            char buf[4096];
            ssize_t n;
            while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0)
                answer.append(buf, static_cast<std::size_t>(n));
        }
    }
    ::close(fd);
    return answer;
}

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
    const std::string health = httpGet(port, "/v1/health");
    EXPECT_EQ(health.rfind("HTTP/1.1 200", 0), 0u) << health;
    EXPECT_NE(health.find("\"api_version\""), std::string::npos) << health;
    EXPECT_NE(health.find("node003"), std::string::npos) << health;
    const std::string refused = httpGet(port, "/v1/inventory");
    EXPECT_EQ(refused.rfind("HTTP/1.1 401", 0), 0u) << refused;
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
