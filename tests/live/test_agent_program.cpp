// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The railyard-agent program: started on a free port against a sysfs tree, queried, stopped.
#include "live/common/inventory_json.h"
#include "test_agent_server_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <csignal>
#include <thread>

#include <sys/stat.h>
#include <sys/wait.h>

using namespace railyard::live;
using namespace railyard::live::test;

namespace {

constexpr const char* kToken = "0123456789abcdef-program-test";

// A started railyard-agent with its stderr on a pipe; killed when the test ends.
class AgentProcess {
public:
    explicit AgentProcess(const std::vector<std::string>& args)
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0)
            throw std::runtime_error("pipe2 failed");
        std::vector<std::string> argv { RAILYARD_AGENT };
        argv.insert(argv.end(), args.begin(), args.end());
        // Everything the child needs is made before fork(): it may only call async-signal-safe functions.
        std::vector<char*> cargv;
        for (auto& a : argv)
            cargv.push_back(a.data());
        cargv.push_back(nullptr);
        m_pid = ::fork();
        if (m_pid == 0) {
            ::dup2(fds[1], STDERR_FILENO);
            const int devnull = ::open("/dev/null", O_WRONLY);
            ::dup2(devnull, STDOUT_FILENO);
            ::execv(cargv[0], cargv.data());
            ::_exit(127);
        }
        ::close(fds[1]);
        m_err = fds[0];
    }
    ~AgentProcess()
    {
        if (m_pid > 0 && !m_exited) {
            ::kill(m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
        }
        if (m_err >= 0)
            ::close(m_err);
    }
    AgentProcess(const AgentProcess&) = delete;
    AgentProcess& operator=(const AgentProcess&) = delete;

    pid_t pid() const { return m_pid; }

    /// Reads stderr until `needle` appears, the pipe closes or the deadline passes.
    bool waitForText(const std::string& needle, std::chrono::seconds deadline = std::chrono::seconds(20))
    {
        return readUntil([&] { return m_stderr.find(needle) != std::string::npos; }, deadline);
    }

    /// Reads stderr until a whole line containing `needle` has arrived.
    bool waitForLine(const std::string& needle, std::chrono::seconds deadline = std::chrono::seconds(20))
    {
        return readUntil(
            [&] {
                const auto at = m_stderr.find(needle);
                return at != std::string::npos && m_stderr.find('\n', at) != std::string::npos;
            },
            deadline);
    }

    /// Waits for the process to end (deadline bounded); its exit status, or -1.
    int waitExit(std::chrono::seconds deadline = std::chrono::seconds(20))
    {
        const auto until = std::chrono::steady_clock::now() + deadline;
        for (;;) {
            int status = 0;
            const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
            if (r == m_pid) {
                m_exited = true;
                waitForText("\x01", std::chrono::seconds(2)); // drain what is left (the pipe is closed now)
                return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
            }
            if (std::chrono::steady_clock::now() > until)
                return -1;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }

    /// The port from the start line "listening on http://127.0.0.1:PORT".
    int port() const
    {
        const std::string marker = "listening on http://127.0.0.1:";
        const auto at = m_stderr.find(marker);
        return at == std::string::npos ? 0 : std::atoi(m_stderr.c_str() + at + marker.size());
    }

    const std::string& stderrText() const { return m_stderr; }

private:
    template <class Done>
    bool readUntil(Done done, std::chrono::seconds deadline)
    {
        const auto until = std::chrono::steady_clock::now() + deadline;
        while (!done()) {
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return false;
            pollfd p { m_err, POLLIN, 0 };
            if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
                continue;
            char buf[4096];
            const ssize_t n = ::read(m_err, buf, sizeof buf);
            if (n <= 0)
                return done();
            m_stderr.append(buf, static_cast<std::size_t>(n));
        }
        return true;
    }

    pid_t m_pid = -1;
    int m_err = -1;
    bool m_exited = false;
    std::string m_stderr;
};

class AgentProgramTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(std::string(RAILYARD_AGENT).size() > 0 && std::filesystem::exists(RAILYARD_AGENT))
            << "railyard-agent is not built (" << RAILYARD_AGENT << "): build the railyard-agent target";
        m_sysfs = m_dir.path() / "sys";
        m_emulated = m_dir.path() / "emulated";
        m_token = m_dir.path() / "token";
        writeGpudTree(m_sysfs);
        writeFile(m_sysfs / "class/infiniband/mlx5_bond_0/ports/1/gid_attrs/ndevs/0", "bond0\n");
        // The emulator's stand-in for `ethtool -S bond0`, in ethtool's own format.
        writeFile(m_emulated / "ethtool" / "bond0.txt",
            "NIC statistics:\n     rx_prio3_pause: 42\n     tx_prio3_pause: 7\n     rx_bytes: 1000\n");
        writeFile(m_token, std::string(kToken) + "\n");
        ::chmod(m_token.c_str(), 0600);
    }

    std::vector<std::string> baseArgs() const
    {
        return { "--sysfs-root", m_sysfs.string(), "--listen", "127.0.0.1:0", "--token-file", m_token.string(), "--node",
            "node007", "--emulated", m_emulated.string() };
    }

    TempDir m_dir;
    std::filesystem::path m_sysfs;
    std::filesystem::path m_emulated;
    std::filesystem::path m_token;
};

} // namespace

TEST_F(AgentProgramTest, ServesAndStopsOnSigterm)
{
    auto args = baseArgs();
    args.insert(args.end(), { "--node-type", "dgx-h100", "--threads", "3" });
    AgentProcess agent(args);
    ASSERT_TRUE(agent.waitForLine("listening on")) << agent.stderrText();
    const int port = agent.port();
    ASSERT_GT(port, 0) << agent.stderrText();
    EXPECT_NE(agent.stderrText().find("node007"), std::string::npos) << agent.stderrText();

    const auto health = httpRequest(port, "GET", "/v1/health");
    ASSERT_TRUE(health);
    EXPECT_EQ(health->status, 200);
    EXPECT_EQ(nlohmann::json::parse(health->body).at("node"), "node007");

    const auto denied = httpRequest(port, "GET", "/v1/inventory");
    ASSERT_TRUE(denied);
    EXPECT_EQ(denied->status, 401);

    const auto inv = httpRequest(port, "GET", "/v1/inventory", bearer(kToken));
    ASSERT_TRUE(inv);
    ASSERT_EQ(inv->status, 200) << inv->body;
    const auto inventory = inventoryFromJson(nlohmann::json::parse(inv->body), "agent");
    ASSERT_TRUE(inventory) << inventory.error().toString();
    EXPECT_EQ(inventory->nodeType, "dgx-h100");
    // The DGX H100 rail map: rail 1 is mlx5_3, which this tree lacks; mlx5_4 is rail 2.
    for (const RdmaDevice& d : inventory->devices) {
        if (d.name == "mlx5_0") {
            EXPECT_EQ(d.rail, 0);
        }
        if (d.name == "mlx5_4") {
            EXPECT_EQ(d.rail, 2);
        }
        if (d.name == "mlx5_1") {
            EXPECT_EQ(d.rail, -1);
        }
    }

    const auto metrics = httpRequest(port, "GET", "/metrics");
    ASSERT_TRUE(metrics);
    const auto e = parseExposition(metrics->body);
    ASSERT_TRUE(e.error.empty()) << e.error;
    EXPECT_EQ(e.value("railyard_infiniband_port_data_transmitted_bytes_total", { { "device", "mlx5_0" } }), 230442669431839.0 * 4);
    EXPECT_EQ(e.value("railyard_pfc_pause_frames_total", { { "netdev", "bond0" }, { "direction", "rx" }, { "priority", "3" } }), 42.0);

    ASSERT_EQ(::kill(agent.pid(), SIGTERM), 0);
    EXPECT_EQ(agent.waitExit(), 0) << agent.stderrText();
    EXPECT_NE(agent.stderrText().find("stopped (SIGTERM)"), std::string::npos) << agent.stderrText();
}

TEST_F(AgentProgramTest, RailMapFlagOverridesAndSigintStops)
{
    auto args = baseArgs();
    args.insert(args.end(), { "--node-type", "dgx-h100", "--rail-map", "mlx5_1,mlx5_0" });
    AgentProcess agent(args);
    ASSERT_TRUE(agent.waitForLine("listening on")) << agent.stderrText();
    const auto inv = httpRequest(agent.port(), "GET", "/v1/inventory", bearer(kToken));
    ASSERT_TRUE(inv);
    const auto inventory = inventoryFromJson(nlohmann::json::parse(inv->body), "agent");
    ASSERT_TRUE(inventory) << inventory.error().toString();
    for (const RdmaDevice& d : inventory->devices) {
        if (d.name == "mlx5_1") {
            EXPECT_EQ(d.rail, 0);
        }
        if (d.name == "mlx5_0") {
            EXPECT_EQ(d.rail, 1);
        }
        if (d.name == "mlx5_4") {
            EXPECT_EQ(d.rail, -1);
        }
    }
    ASSERT_EQ(::kill(agent.pid(), SIGINT), 0);
    EXPECT_EQ(agent.waitExit(), 0) << agent.stderrText();
}

TEST_F(AgentProgramTest, RefusesATokenFileOthersCanRead)
{
    ::chmod(m_token.c_str(), 0644);
    AgentProcess agent(baseArgs());
    EXPECT_EQ(agent.waitExit(), 2) << agent.stderrText();
    EXPECT_NE(agent.stderrText().find("chmod o-rwx"), std::string::npos) << agent.stderrText();
    EXPECT_NE(agent.stderrText().find(m_token.string()), std::string::npos) << agent.stderrText();
}

TEST_F(AgentProgramTest, RefusesATokenThatIsNoOneWordOfVisibleAscii)
{
    // The agent reads its --token-file as every client does (live::parseBearerToken).
    for (const std::string& text : { std::string("two words\n"), std::string("tab\x01" "ed\n"), std::string(" \t\nsecond\n") }) {
        writeFile(m_token, text);
        ::chmod(m_token.c_str(), 0600);
        AgentProcess agent(baseArgs());
        EXPECT_EQ(agent.waitExit(), 2) << agent.stderrText();
        EXPECT_NE(agent.stderrText().find("--token-file " + m_token.string() + ": "), std::string::npos) << agent.stderrText();
    }
}

TEST_F(AgentProgramTest, BadInputExitsWithStatus2)
{
    {
        auto args = baseArgs();
        args[3] = "localhost"; // --listen without a port
        AgentProcess agent(args);
        EXPECT_EQ(agent.waitExit(), 2) << agent.stderrText();
        EXPECT_NE(agent.stderrText().find("--listen localhost"), std::string::npos) << agent.stderrText();
    }
    {
        auto args = baseArgs();
        args.insert(args.end(), { "--node-type", "no-such-node" });
        AgentProcess agent(args);
        EXPECT_EQ(agent.waitExit(), 2) << agent.stderrText();
        EXPECT_NE(agent.stderrText().find("dgx-h100"), std::string::npos) << agent.stderrText(); // lists known ids
    }
    {
        writeFile(m_token, "\n");
        AgentProcess agent(baseArgs());
        EXPECT_EQ(agent.waitExit(), 2) << agent.stderrText();
        EXPECT_NE(agent.stderrText().find("empty"), std::string::npos) << agent.stderrText();
    }
}

TEST_F(AgentProgramTest, PortInUseExitsWithStatus1NamingTheAddress)
{
    AgentProcess first(baseArgs());
    ASSERT_TRUE(first.waitForLine("listening on")) << first.stderrText();
    auto args = baseArgs();
    args[3] = "127.0.0.1:" + std::to_string(first.port());
    AgentProcess second(args);
    EXPECT_EQ(second.waitExit(), 1) << second.stderrText();
    EXPECT_NE(second.stderrText().find("127.0.0.1:" + std::to_string(first.port())), std::string::npos)
        << second.stderrText();
}

TEST_F(AgentProgramTest, ListensOnIpv6Loopback)
{
    auto args = baseArgs();
    args[3] = "[::1]:0";
    AgentProcess agent(args);
    if (!agent.waitForLine("listening on")) {
        // A host without IPv6 loopback cannot bind [::1]: the agent must say so and stop.
        EXPECT_EQ(agent.waitExit(), 1) << agent.stderrText();
        EXPECT_NE(agent.stderrText().find("[::1]:0"), std::string::npos) << agent.stderrText();
        GTEST_SKIP() << "no IPv6 loopback here: " << agent.stderrText();
    }
    EXPECT_NE(agent.stderrText().find("http://[::1]:"), std::string::npos) << agent.stderrText();
    ASSERT_EQ(::kill(agent.pid(), SIGTERM), 0);
    EXPECT_EQ(agent.waitExit(), 0) << agent.stderrText();
}
