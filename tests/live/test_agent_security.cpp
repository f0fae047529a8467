// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The agent as an attacker on the management network sees it: requests without or with a wrong
// token, oversized request lines, headers and bodies, path traversal in every name, crafted test
// parameters (shell metacharacters, option injection, a program for mpirun to start, huge sizes,
// NUL bytes, bytes that are not UTF-8), a tools folder others may write, and floods of
// connections. Each is refused with its HTTP status, nothing outside the whitelist runs, and no
// process is left behind (the agent runs in this process: its children are ours).
#include "live/node/agent_server.h"

#include "test_agent_server_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <dirent.h>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <sys/prctl.h>
#include <sys/stat.h>

using namespace railyard::live;
using namespace railyard::live::test;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

constexpr const char* kToken = "security-token-0123456789abcdef";

// Every stand-in records that it ran, and with what, in a file beside the sysfs tree.
constexpr const char* kRecorder = R"(#!/bin/sh
echo "$0 $*" >> "$RAILYARD_SYSFS_ROOT/../ran"
)";

json bodyJson(const HttpResponse& r)
{
    return json::parse(r.body, nullptr, false);
}

// The pids of this process's children that are still there (zombies included).
std::vector<pid_t> childrenOfThisProcess()
{
    std::vector<pid_t> out;
    const std::string self = std::to_string(::getpid());
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream status(entry.path() / "status");
        for (std::string line; std::getline(status, line);) {
            if (line.rfind("PPid:", 0) == 0) {
                if (line.substr(line.find_first_not_of(" \t", 5)) == self)
                    out.push_back(std::stoi(name));
                break;
            }
        }
    }
    return out;
}

std::string readFileText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

int openFds()
{
    int n = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/self/fd"))
        ++n;
    return n;
}

// A raw exchange: sends `bytes` on a new loopback connection and reads the answer (or until the
// agent closes, or `deadline`).
std::string rawExchange(int port, const std::string& bytes, std::chrono::milliseconds deadline = 5s)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return {};
    }
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n <= 0)
            break; // the agent closed: read what it said
        sent += static_cast<std::size_t>(n);
    }
    std::string raw;
    char buf[8192];
    const auto until = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < until) {
        pollfd p { fd, POLLIN, 0 };
        if (::poll(&p, 1, 50) <= 0)
            continue;
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            break;
        raw.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return raw;
}

int statusOf(const std::string& raw)
{
    return raw.rfind("HTTP/1.1 ", 0) == 0 ? std::atoi(raw.c_str() + 9) : 0;
}

class AgentSecurityTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { ::prctl(PR_SET_CHILD_SUBREAPER, 1); }

    void SetUp() override
    {
        std::filesystem::create_directories(sysRoot());
        writeGpudTree(sysRoot());
        for (const char* tool : { "ib_write_bw", "all_reduce_perf", "mpirun", "srun", "railyard-emu-ssh" })
            writeTool(tool);
        NodeOptions options;
        options.sysfsRoot = sysRoot();
        options.node = "node001";
        AgentConfig config;
        config.port = 0;
        config.token = kToken;
        config.threads = 2;
        config.ioTimeoutMs = 1000;
        config.toolsDir = tools();
        m_server = std::make_unique<AgentServer>(config, std::make_shared<const NodeReader>(options, NodeSources {}));
        const auto status = m_server->start();
        ASSERT_TRUE(status) << status.error().toString();
        m_childrenBefore = childrenOfThisProcess().size();
    }

    void TearDown() override
    {
        m_server.reset();
        EXPECT_EQ(childrenOfThisProcess().size(), m_childrenBefore) << "a process of the agent is left behind";
    }

    std::filesystem::path sysRoot() const { return m_dir.path() / "sys"; }
    std::filesystem::path tools() const { return m_dir.path() / "tools"; }
    std::filesystem::path ranFile() const { return m_dir.path() / "ran"; }

    void writeTool(const std::string& name)
    {
        const auto path = m_dir.write("tools/" + name, kRecorder);
        ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
    }

    std::optional<HttpResponse> post(const std::string& body) const
    {
        return httpRequest(m_server->port(), "POST", "/v1/tests",
            bearer(kToken) + "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size() + 2) + "\r\n\r\n" + body);
    }

    // POSTs the request and expects it refused with 400 naming `field`; returns the message.
    std::string refused(const json& request, const std::string& field) const
    {
        const auto r = post(request.dump(-1, ' ', false, json::error_handler_t::replace));
        EXPECT_TRUE(r) << request.dump();
        if (!r)
            return {};
        EXPECT_EQ(r->status, 400) << request.dump() << " -> " << r->body;
        const json body = bodyJson(*r);
        EXPECT_EQ(body.value("/error/code"_json_pointer, ""), "BAD_REQUEST") << r->body;
        if (!field.empty()) {
            EXPECT_EQ(body.value("/error/field"_json_pointer, ""), field) << request.dump() << " -> " << r->body;
        }
        return body.value("/error/message"_json_pointer, "");
    }

    // Waits for a started test to end.
    json waitForEnd(const std::string& id) const
    {
        const auto until = std::chrono::steady_clock::now() + 10s;
        for (;;) {
            const auto r = httpRequest(m_server->port(), "GET", "/v1/tests/" + id, bearer(kToken));
            const json doc = r ? bodyJson(*r) : json();
            if (doc.value("state", "running") != "running" || std::chrono::steady_clock::now() > until)
                return doc;
            std::this_thread::sleep_for(10ms);
        }
    }

    TempDir m_dir { "agent-security" };
    std::unique_ptr<AgentServer> m_server;
    std::size_t m_childrenBefore = 0;
};

} // namespace

TEST_F(AgentSecurityTest, TheTokenGuardsEveryJsonPathAndOnlyThose)
{
    const std::vector<std::string> guarded { "/v1/inventory", "/v1/counters", "/v1/counters?format=compact", "/v1/tests",
        "/v1/tests/0123", "/v1/nothing", "/etc/passwd", "/v1/tests/../inventory", "/v1/%2e%2e/inventory" };
    const std::vector<std::string> wrongAuth { "", "Authorization: Bearer \r\n", bearer("security-token-0123456789abcdeX"),
        bearer(std::string(kToken) + "0"), bearer(std::string(kToken).substr(1)), "Authorization: Basic " + std::string(kToken) + "\r\n",
        "Authorization: " + std::string(kToken) + "\r\n", "X-Token: " + std::string(kToken) + "\r\n" };
    for (const std::string& path : guarded) {
        for (const std::string& auth : wrongAuth) {
            const auto r = httpRequest(m_server->port(), "GET", path, auth);
            ASSERT_TRUE(r) << path;
            EXPECT_EQ(r->status, 401) << path << " with " << auth;
            EXPECT_EQ(r->body.find("node001"), std::string::npos) << "a refused request learns nothing of the node: " << r->body;
        }
        // The token in the query string is not a token.
        const auto query = httpRequest(m_server->port(), "GET", path + (path.find('?') == std::string::npos ? "?" : "&") + "token=" + kToken);
        ASSERT_TRUE(query);
        EXPECT_EQ(query->status, 401) << path;
    }
    for (const std::string path : { "/v1/health", "/metrics" }) {
        const auto r = httpRequest(m_server->port(), "GET", path);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 200) << path;
    }
    // With the token, a traversal in the path is just an unknown path or test.
    const auto traversal = httpRequest(m_server->port(), "GET", "/v1/tests/../../etc/passwd", bearer(kToken));
    ASSERT_TRUE(traversal);
    EXPECT_EQ(traversal->status, 404) << traversal->body;
    EXPECT_EQ(traversal->body.find("root:"), std::string::npos);
}

TEST_F(AgentSecurityTest, OversizedRequestsAreRefusedWithTheirStatus)
{
    const int port = m_server->port();
    // A request line past cpp-httplib's 8 KiB URI limit.
    EXPECT_EQ(statusOf(rawExchange(port, "GET /v1/health?" + std::string(9000, 'a') + " HTTP/1.1\r\nHost: x\r\n\r\n")), 414);
    // A request line or header line longer than 8 KiB cannot be read: 400, or the connection is
    // closed; either way nothing is served.
    const int longHeader = statusOf(rawExchange(port, "GET /v1/inventory HTTP/1.1\r\nHost: x\r\n" + bearer(kToken)
            + "X-Long: " + std::string(20000, 'b') + "\r\n\r\n"));
    EXPECT_TRUE(longHeader == 400 || longHeader == 431 || longHeader == 0) << longHeader;
    // A body past 64 KiB, by Content-Length (refused before it is read) and chunked.
    const auto big = post(json { { "program", "ib_write_bw" }, { "args", { std::string(100 * 1024, 'a') } } }.dump());
    ASSERT_TRUE(big);
    EXPECT_EQ(big->status, 413);
    EXPECT_EQ(bodyJson(*big).value("/error/code"_json_pointer, ""), "PAYLOAD_TOO_LARGE");
    std::string chunked = "POST /v1/tests HTTP/1.1\r\nHost: x\r\n" + bearer(kToken) + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    for (int i = 0; i < 40; ++i)
        chunked += "1000\r\n" + std::string(4096, 'c') + "\r\n";
    chunked += "0\r\n\r\n";
    const int chunkedStatus = statusOf(rawExchange(port, chunked));
    EXPECT_TRUE(chunkedStatus == 413 || chunkedStatus == 400) << chunkedStatus;
    // A Content-Length that is no number, or past 2^64.
    for (const std::string length : { "abc", "99999999999999999999999", "-1" }) {
        const int s = statusOf(rawExchange(port, "POST /v1/tests HTTP/1.1\r\nHost: x\r\n" + bearer(kToken) + "Content-Length: " + length
                + "\r\nConnection: close\r\n\r\n{}"));
        EXPECT_TRUE(s == 413 || s == 400) << length << " -> " << s;
    }
    EXPECT_FALSE(std::filesystem::exists(ranFile()));
    // The agent still serves.
    const auto health = httpRequest(port, "GET", "/v1/health");
    ASSERT_TRUE(health);
    EXPECT_EQ(health->status, 200);
}

TEST_F(AgentSecurityTest, PathTraversalInAnyNameIsRefused)
{
    for (const std::string program : { "../tools/ib_write_bw", "./ib_write_bw", "ib_write_bw/..", "/bin/sh", "..", ".",
             "tools/ib_write_bw", "ib_write_bw/../../../bin/sh" })
        refused({ { "program", program } }, "program");
    refused({ { "program", "ib_write_bw" }, { "args", { "-d", "../../../dev/mem" } } }, "args[1]");
    refused({ { "program", "ib_write_bw" }, { "args", { "-d", "mlx5_0", "../etc" } } }, "args[2]");
    refused({ { "program", "mpirun" }, { "args", { "--hostfile", "../../etc/shadow", "all_reduce_perf" } } }, "args[1]");
    refused({ { "program", "mpirun" }, { "args", { "-np", "1", "../tools/all_reduce_perf" } } }, "args[2]");
    refused({ { "program", "mpirun" }, { "args", { "-np", "1", "/usr/bin/all_reduce_perf" } } }, "args[2]");
    // rail and port of /metrics are numbers, never a path.
    for (const std::string query : { "rail=../../etc", "rail=0/../1", "port=%2e%2e", "rail=1e3", "port=-1", "rail=99999999999" }) {
        const auto r = httpRequest(m_server->port(), "GET", "/metrics?" + query);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 400) << query << " -> " << r->body.substr(0, 300);
    }
    EXPECT_FALSE(std::filesystem::exists(ranFile()));
}

TEST_F(AgentSecurityTest, CraftedTestParametersNeverReachAProcess)
{
    struct Case {
        json args;
        std::string program = "ib_write_bw";
        std::string field;
    };
    const std::vector<Case> cases {
        // Option injection where a host or a device goes.
        { { "-d", "mlx5_0", "--foo" }, "ib_write_bw", "args[2]" },
        { { "-d", "-e" }, "ib_write_bw", "args[1]" },
        { { "-d", "mlx5_0", "-F", "-e" }, "ib_write_bw", "args[3]" },
        { { "-d", "mlx5_0", "--out_json_file=/etc/passwd" }, "ib_write_bw", "args[2]" },
        { { "-d", "mlx5_0", "node002", "node003" }, "ib_write_bw", "args[3]" },
        { { "-d", "mlx5_0", "-p", "--tclass=3" }, "ib_write_bw", "args[3]" },
        // Shell metacharacters, NUL and bytes that are not UTF-8 (sent as U+FFFD by the JSON
        // writer; a raw non-UTF-8 body is not JSON at all, below).
        { { "-d", "mlx5_0;id" }, "ib_write_bw", "args[1]" },
        { { "-d", std::string("mlx5_0\0id", 9) }, "ib_write_bw", "args[1]" },
        { { "-d", "mlx5_\xff" }, "ib_write_bw", "args[1]" },
        { { "node002|id" }, "ib_write_bw", "args[0]" },
        // Huge sizes, iterations and durations.
        { { "-d", "mlx5_0", "-s", "99999999999" }, "ib_write_bw", "args[3]" },
        { { "-d", "mlx5_0", "-n", "9999999999999" }, "ib_write_bw", "args[3]" },
        { { "-d", "mlx5_0", "-n", "0" }, "ib_write_bw", "args[3]" },
        { { "-d", "mlx5_0", "-D", "1000000" }, "ib_write_bw", "args[3]" },
        { { "-d", "mlx5_0", "-q", "100000" }, "ib_write_bw", "args[3]" },
        { { "-b", "8", "-e", "1T" }, "all_reduce_perf", "args[3]" },
        { { "-b", "8", "-e", "99999G" }, "all_reduce_perf", "args[3]" },
        { { "-n", "100000000" }, "all_reduce_perf", "args[1]" },
        { { "-g", "100000" }, "all_reduce_perf", "args[1]" },
        { { "-t", "1" }, "all_reduce_perf", "args[0]" },
        // A launcher that would start something else, or pass on another environment.
        { { "-np", "1", "sh" }, "mpirun", "args[2]" },
        { { "-np", "1", "rm", "-rf", "/" }, "mpirun", "args[2]" },
        { { "-x", "LD_PRELOAD", "all_reduce_perf" }, "mpirun", "args[1]" },
        { { "-x", "LD_PRELOAD=libx.so", "all_reduce_perf" }, "mpirun", "args[1]" },
        { { "--mca", "orte_launch_agent", "sh", "all_reduce_perf" }, "mpirun", "args[1]" },
        { { "--mca", "plm_rsh_agent", "../x", "all_reduce_perf" }, "mpirun", "args[2]" },
        { { "--prefix", "/tmp", "all_reduce_perf" }, "mpirun", "args[0]" },
        { { "-np", "1", "all_reduce_perf", "-b", "8", "sh" }, "mpirun", "args[5]" },
        { { "--host", "--foo", "all_reduce_perf" }, "mpirun", "args[1]" },
        { { "--host", "node1:2,-e:3", "all_reduce_perf" }, "mpirun", "args[1]" },
        { { "--wrap=id" }, "srun", "args[0]" },
        { { "--export=ALL,LD_PRELOAD", "all_reduce_perf" }, "srun", "args[0]" },
        { { "--nodes=1", "bash" }, "srun", "args[1]" },
    };
    for (const Case& c : cases) {
        const std::string message = refused({ { "program", c.program }, { "args", c.args } }, c.field);
        EXPECT_FALSE(message.empty()) << c.args.dump();
    }
    // mpirun's rsh agent: ssh, rsh or a program of the tools folder, nothing else.
    const std::string message = refused({ { "program", "mpirun" }, { "args", { "--mca", "plm_rsh_agent", "/bin/sh", "all_reduce_perf" } } }, "args");
    EXPECT_NE(message.find("tools folder"), std::string::npos) << message;
    // A body that is not UTF-8 is not JSON.
    const auto raw = post("{\"program\": \"ib_write_bw\", \"args\": [\"\xff\xfe\"]}");
    ASSERT_TRUE(raw);
    EXPECT_EQ(raw->status, 400);
    EXPECT_FALSE(std::filesystem::exists(ranFile())) << "refused requests ran: " << readFileText(ranFile());

    // What test_launch writes still runs: a perftest client, and mpirun with its nccl-tests tool.
    const auto perftest = post(json { { "program", "ib_write_bw" },
        { "args", { "-d", "mlx5_0", "-i", "1", "-x", "3", "--use_cuda=0", "-F", "--report_gbits", "-q", "4", "-s", "1048576", "-n",
                      "1000", "--tclass=106", "-p", "18515", "node002" } },
        { "role", "client" } }
                                        .dump());
    ASSERT_TRUE(perftest);
    ASSERT_EQ(perftest->status, 201) << perftest->body;
    const auto launcher = post(json { { "program", "mpirun" },
        { "args", { "--allow-run-as-root", "--host", "node001:8,node002:8", "-np", "16", "--map-by", "ppr:8:node", "--bind-to", "numa",
                      "-x", "NCCL_DEBUG", "--mca", "pml", "ob1", "--mca", "btl", "tcp,self", "--mca", "plm_rsh_agent",
                      (tools() / "railyard-emu-ssh").string(), "all_reduce_perf", "-b", "8", "-e", "16G", "-f", "2", "-g", "1", "-n",
                      "20", "-w", "5", "-c", "1" } },
        { "env", { { "NCCL_DEBUG", "INFO" } } } }
                                        .dump());
    ASSERT_TRUE(launcher);
    ASSERT_EQ(launcher->status, 201) << launcher->body;
    waitForEnd(bodyJson(*perftest).at("id"));
    waitForEnd(bodyJson(*launcher).at("id"));
    const std::string ran = readFileText(ranFile());
    EXPECT_NE(ran.find("ib_write_bw -d mlx5_0"), std::string::npos) << ran;
    EXPECT_NE(ran.find("mpirun --allow-run-as-root"), std::string::npos) << ran;
}

TEST_F(AgentSecurityTest, AToolOthersMayWriteIsNotRun)
{
    ASSERT_EQ(::chmod((tools() / "ib_write_bw").c_str(), 0777), 0);
    const auto r = post(json { { "program", "ib_write_bw" }, { "args", { "-d", "mlx5_0" } } }.dump());
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 201) << r->body;
    const json doc = bodyJson(*r);
    EXPECT_EQ(doc.at("state"), "failed_to_start");
    EXPECT_NE(doc.at("error").get<std::string>().find("writable by other users (mode 777)"), std::string::npos) << doc.dump();
    ASSERT_EQ(::chmod((tools() / "ib_write_bw").c_str(), 0755), 0);
    ASSERT_EQ(::chmod(tools().c_str(), 0777), 0);
    const auto folder = post(json { { "program", "ib_write_bw" }, { "args", { "-d", "mlx5_0" } } }.dump());
    ASSERT_TRUE(folder);
    EXPECT_EQ(bodyJson(*folder).at("state"), "failed_to_start") << folder->body;
    ASSERT_EQ(::chmod(tools().c_str(), 0700), 0);
    EXPECT_FALSE(std::filesystem::exists(ranFile()));
    // A symlink to a program elsewhere is the administrator's choice (/usr/bin/mpirun is one):
    // it runs, as long as neither it nor the folder can be changed by others.
    std::filesystem::remove(tools() / "srun");
    const auto real = m_dir.write("elsewhere/srun", kRecorder);
    ASSERT_EQ(::chmod(real.c_str(), 0755), 0);
    std::filesystem::create_symlink(real, tools() / "srun");
    const auto linked = post(json { { "program", "srun" }, { "args", { "--version" } } }.dump());
    ASSERT_TRUE(linked);
    ASSERT_EQ(linked->status, 201) << linked->body;
    EXPECT_EQ(waitForEnd(bodyJson(*linked).at("id")).at("state"), "exited");
}

TEST_F(AgentSecurityTest, AFloodOfConnectionsIsBoundedAndTheAgentRecovers)
{
    const int port = m_server->port();
    const int fdsBefore = openFds();
    // 1. Connections that send nothing: TCP_DEFER_ACCEPT keeps them in the kernel, so a client
    // with a request is served at once.
    std::vector<int> idle;
    for (int i = 0; i < 300; ++i) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0)
            idle.push_back(fd);
        else
            ::close(fd);
    }
    const auto started = std::chrono::steady_clock::now();
    const auto served = httpRequest(port, "GET", "/v1/inventory", bearer(kToken), 3s);
    const auto idleWait = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
    ASSERT_TRUE(served) << "a request behind " << idle.size() << " idle connections got no answer";
    EXPECT_EQ(served->status, 200);
    EXPECT_LT(idleWait, 1500ms);
    for (const int fd : idle)
        ::close(fd);

    // 2. 400 requests at once from 400 connections of one client: every one is answered, 200 or
    // 503 AGENT_BUSY with Retry-After (never left hanging), within a bounded time.
    constexpr int kFlood = 400;
    std::atomic<int> ok { 0 }, busy { 0 }, other { 0 }, unanswered { 0 };
    std::vector<std::thread> clients;
    const auto floodStart = std::chrono::steady_clock::now();
    for (int i = 0; i < kFlood; ++i) {
        clients.emplace_back([&] {
            const auto r = httpRequest(port, "GET", "/v1/inventory", bearer(kToken), 20s);
            if (!r)
                ++unanswered;
            else if (r->status == 200)
                ++ok;
            else if (r->status == 503 && r->header("retry-after") == "1" && r->body.find("AGENT_BUSY") != std::string::npos)
                ++busy;
            else
                ++other;
        });
    }
    for (std::thread& t : clients)
        t.join();
    const double floodS = std::chrono::duration<double>(std::chrono::steady_clock::now() - floodStart).count();
    std::printf("[ figures  ] idle flood: %zu connections, a request behind them answered in %lld ms; request flood: %d at once: "
                "%d answered 200, %d 503 AGENT_BUSY, %d other, %d unanswered, in %.2f s\n",
        idle.size(), static_cast<long long>(idleWait.count()), kFlood, ok.load(), busy.load(), other.load(), unanswered.load(), floodS);
    EXPECT_EQ(other.load(), 0);
    EXPECT_EQ(unanswered.load(), 0);
    EXPECT_GT(ok.load(), 0);
    EXPECT_EQ(ok.load() + busy.load(), kFlood);

    // 3. It recovers: the next request is served, and no descriptor is left open.
    const auto after = httpRequest(port, "GET", "/v1/inventory", bearer(kToken), 3s);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->status, 200);
    const auto until = std::chrono::steady_clock::now() + 3s;
    while (openFds() > fdsBefore + 2 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(20ms);
    EXPECT_LE(openFds(), fdsBefore + 2);
}
