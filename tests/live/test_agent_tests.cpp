// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// POST/GET/DELETE /v1/tests on an AgentServer over loopback: whitelisted programs from the agent's
// tools folder (here small shell scripts named after whitelisted tools), the token, crafted
// requests refused before anything starts, output read with offsets, cancel, timeouts, shutdown,
// and no process of a test's group left behind.
#include "live/node/agent_server.h"

#include "test_agent_server_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <filesystem>
#include <functional>
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

constexpr const char* kToken = "tests-token-0123456789";

// Stand-ins for the whitelisted tools. The marker file shows whether ib_write_bw ever ran.
constexpr const char* kEchoTool = R"(#!/bin/sh
echo run >> "$RAILYARD_SYSFS_ROOT/../ran"
echo "args: $*"
echo "sysfs: $RAILYARD_SYSFS_ROOT"
echo "nccl: $NCCL_DEBUG $NCCL_IB_HCA"
echo "path: $PATH"
echo "home: ${HOME:-unset}"
echo to-stderr >&2
exit 3
)";
// Leaves a background child in its group and waits.
constexpr const char* kSleeperTool = R"(#!/bin/sh
sleep 60 &
echo "group $$"
wait
)";
// Ignores SIGTERM (and so does its sleep): only SIGKILL ends it.
constexpr const char* kStubbornTool = R"(#!/bin/sh
trap '' TERM
sleep 60 &
echo "group $$"
wait
)";
// Writes "first", waits for the test's go file, writes "second".
constexpr const char* kTwoStepTool = R"(#!/bin/sh
echo first
while [ ! -e "$RAILYARD_SYSFS_ROOT/../go" ]; do sleep 0.02; done
echo second
)";
// 17,000,000 bytes: more than the 16 MiB an agent keeps.
constexpr const char* kFloodTool = R"(#!/bin/sh
head -c 17000000 /dev/zero | tr '\0' x
)";

json bodyJson(const HttpResponse& r)
{
    return json::parse(r.body);
}

class AgentTestsTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        // Orphans of the tests' processes come to this process rather than to PID 1 (which, in a
        // container, may reap them late or never): the agent reaps what a test's group leaves
        // behind, so kill(-pgid, 0) == ESRCH below checks the agent, not this machine's init.
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    }

    void SetUp() override
    {
        std::filesystem::create_directories(sysRoot());
        writeTool("ib_write_bw", kEchoTool);
        writeTool("ib_read_bw", kSleeperTool);
        writeTool("ib_write_lat", kStubbornTool);
        writeTool("ib_read_lat", kTwoStepTool);
        writeTool("all_gather_perf", kFloodTool);
        NodeOptions options;
        options.sysfsRoot = sysRoot();
        options.node = "node001";
        m_reader = std::make_shared<const NodeReader>(options, NodeSources {});
        AgentConfig config;
        config.port = 0;
        config.token = kToken;
        config.threads = 4;
        config.toolsDir = m_dir.path() / "tools";
        m_server = std::make_unique<AgentServer>(config, m_reader);
        const auto status = m_server->start();
        ASSERT_TRUE(status) << status.error().toString();
    }

    std::filesystem::path sysRoot() const { return m_dir.path() / "sys"; }

    void writeTool(const std::string& name, const std::string& script)
    {
        const auto path = m_dir.write("tools/" + name, script);
        ASSERT_EQ(::chmod(path.c_str(), 0755), 0);
    }

    // The test helper sends "\r\n" after the headers it is given: that CRLF ends the body here,
    // and is counted in Content-Length (JSON allows trailing whitespace).
    std::optional<HttpResponse> post(const std::string& body, const std::string& auth = bearer(kToken)) const
    {
        return httpRequest(m_server->port(), "POST", "/v1/tests",
            auth + "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size() + 2) + "\r\n\r\n" + body);
    }

    std::optional<HttpResponse> get(const std::string& path) const
    {
        return httpRequest(m_server->port(), "GET", path, bearer(kToken));
    }

    // Starts a test and returns its document (201 expected).
    json start(const json& request) const
    {
        const auto r = post(request.dump());
        EXPECT_TRUE(r);
        if (!r)
            return json();
        EXPECT_EQ(r->status, 201) << r->body;
        return bodyJson(*r);
    }

    json test(const std::string& id, std::size_t offset = 0) const
    {
        const auto r = get("/v1/tests/" + id + "?offset=" + std::to_string(offset));
        EXPECT_TRUE(r);
        if (!r)
            return json();
        EXPECT_EQ(r->status, 200) << r->body;
        return bodyJson(*r);
    }

    // Polls the test until `done` holds or `deadline` passes; the last document either way.
    json waitFor(const std::string& id, const std::function<bool(const json&)>& done, std::chrono::milliseconds deadline = 10s) const
    {
        const auto until = std::chrono::steady_clock::now() + deadline;
        json doc = test(id);
        while (!done(doc) && std::chrono::steady_clock::now() < until) {
            std::this_thread::sleep_for(10ms);
            doc = test(id);
        }
        return doc;
    }

    json waitForEnd(const std::string& id, std::chrono::milliseconds deadline = 10s) const
    {
        return waitFor(id, [](const json& d) { return d.value("state", "") != "running"; }, deadline);
    }

    // The process group id a sleeper reports ("group <pid>"), once it has started.
    pid_t groupOf(const std::string& id) const
    {
        const json doc = waitFor(id, [](const json& d) { return d.value("output", "").find("group ") != std::string::npos; });
        const std::string output = doc.value("output", "");
        const auto at = output.find("group ");
        EXPECT_NE(at, std::string::npos) << doc.dump();
        if (at == std::string::npos)
            return -1;
        const pid_t pgid = std::atoi(output.c_str() + at + 6);
        EXPECT_EQ(doc.at("pid"), pgid); // the child leads its own group
        return pgid;
    }

    TempDir m_dir { "agent-tests" };
    std::shared_ptr<const NodeReader> m_reader;
    std::unique_ptr<AgentServer> m_server;
};

// No process of the group remains, not even a zombie (polled until `deadline`).
bool groupGone(pid_t pgid, std::chrono::milliseconds deadline = 3s)
{
    const auto until = std::chrono::steady_clock::now() + deadline;
    for (;;) {
        if (::kill(-pgid, 0) == -1 && errno == ESRCH)
            return true;
        if (std::chrono::steady_clock::now() >= until)
            return false;
        std::this_thread::sleep_for(5ms);
    }
}

bool groupAlive(pid_t pgid)
{
    return pgid > 0 && ::kill(-pgid, 0) == 0;
}

} // namespace

TEST_F(AgentTestsTest, EveryTestRequestNeedsTheToken)
{
    const json request = { { "program", "ib_write_bw" }, { "args", { "-d", "mlx5_0" } } };
    const auto none = post(request.dump(), "");
    ASSERT_TRUE(none);
    EXPECT_EQ(none->status, 401);
    EXPECT_EQ(bodyJson(*none).at("error").at("code"), "UNAUTHORIZED");
    EXPECT_EQ(bodyJson(*none).at("api_version"), kApiVersion);
    const auto wrong = post(request.dump(), bearer("tests-token-012345678X"));
    ASSERT_TRUE(wrong);
    EXPECT_EQ(wrong->status, 401);
    for (const std::string method : { "GET", "DELETE" }) {
        const auto r = httpRequest(m_server->port(), method, method == "GET" ? "/v1/tests" : "/v1/tests/00ff");
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 401) << method;
    }
    const auto list = get("/v1/tests");
    ASSERT_TRUE(list);
    ASSERT_EQ(list->status, 200);
    EXPECT_EQ(bodyJson(*list).at("api_version"), kApiVersion);
    EXPECT_TRUE(bodyJson(*list).at("tests").empty());
    EXPECT_FALSE(std::filesystem::exists(m_dir.path() / "ran"));
}

TEST_F(AgentTestsTest, CraftedRequestsAreRefusedAndStartNothing)
{
    struct Case {
        json request;
        std::string field;
    };
    const std::vector<Case> cases {
        { { { "program", "ib_write_bw" }, { "args", { "-d", "mlx5_0; rm -rf /" } } }, "args[1]" },
        { { { "program", "ib_write_bw" }, { "args", { "$(reboot)" } } }, "args[0]" },
        { { { "program", "ib_write_bw" }, { "args", { "`reboot`" } } }, "args[0]" },
        { { { "program", "ib_write_bw" }, { "args", { "a b" } } }, "args[0]" },
        { { { "program", "ib_write_bw" }, { "args", { "" } } }, "args[0]" },
        { { { "program", "--exec=x" } }, "program" },
        { { { "program", "ib_write_bw; reboot" } }, "program" },
        { { { "program", "../../bin/sh" } }, "program" },
        { { { "program", "/usr/bin/ib_write_bw" } }, "program" },
        { { { "program", "ib_write_bw" }, { "env", { { "LD_PRELOAD", "/opt/x.so" } } } }, "env.LD_PRELOAD" },
        { { { "program", "ib_write_bw" }, { "env", { { "PATH", "/opt" } } } }, "env.PATH" },
        { { { "program", "ib_write_bw" }, { "env", { { "NCCL_DEBUG", "$(id)" } } } }, "env.NCCL_DEBUG" },
        { { { "program", "ib_write_bw" }, { "env", { { "NCCL_DEBUG", 3 } } } }, "env.NCCL_DEBUG" },
        { { { "program", "ib_write_bw" }, { "env", { "NCCL_DEBUG=INFO" } } }, "env" },
        { { { "program", "ib_write_bw" }, { "timeout_s", 0 } }, "timeout_s" },
        { { { "program", "ib_write_bw" }, { "timeout_s", 86401 } }, "timeout_s" },
        { { { "program", "ib_write_bw" }, { "timeout_s", -5 } }, "timeout_s" },
        { { { "program", "ib_write_bw" }, { "timeout_s", 1.5 } }, "timeout_s" },
        { { { "program", "ib_write_bw" }, { "timeout_s", "60" } }, "timeout_s" },
        { { { "program", "ib_write_bw" }, { "args", "-d mlx5_0" } }, "args" },
        { { { "program", "ib_write_bw" }, { "args", { "-d", 0 } } }, "args[1]" },
        { { { "program", "ib_write_bw" }, { "args", json::array() }, { "shell", true } }, "shell" },
        { { { "program", "ib_write_bw" }, { "role", "root" } }, "role" },
        { { { "program", 7 } }, "program" },
        { { { "args", { "-d", "mlx5_0" } } }, "program" },
    };
    for (const Case& c : cases) {
        const auto r = post(c.request.dump());
        ASSERT_TRUE(r) << c.request.dump();
        EXPECT_EQ(r->status, 400) << c.request.dump() << " -> " << r->body;
        const json body = bodyJson(*r);
        EXPECT_EQ(body.at("api_version"), kApiVersion);
        EXPECT_EQ(body.at("error").at("code"), "BAD_REQUEST");
        EXPECT_EQ(body.at("error").at("field"), c.field) << r->body;
        const std::string message = body.at("error").at("message");
        const std::string named = c.field.rfind("env.", 0) == 0 ? c.field.substr(4) : c.field;
        EXPECT_NE(message.find(named), std::string::npos) << message;
    }
    json many = { { "program", "ib_write_bw" }, { "args", json::array() } };
    for (int i = 0; i < 129; ++i)
        many["args"].push_back("-a");
    const auto tooMany = post(many.dump());
    ASSERT_TRUE(tooMany);
    EXPECT_EQ(tooMany->status, 400);
    EXPECT_EQ(bodyJson(*tooMany).at("error").at("field"), "args");
    for (const std::string notAnObject : { "not json", "[\"ib_write_bw\"]", "" }) {
        const auto r = post(notAnObject);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 400) << notAnObject;
        EXPECT_EQ(bodyJson(*r).at("error").at("field"), "body");
    }
    // Over 64 KiB: refused before the body is read.
    const auto huge = post(json { { "program", "ib_write_bw" }, { "args", { std::string(70 * 1024, 'a') } } }.dump());
    ASSERT_TRUE(huge);
    EXPECT_EQ(huge->status, 413);
    EXPECT_EQ(bodyJson(*huge).at("api_version"), kApiVersion);

    const auto list = get("/v1/tests");
    ASSERT_TRUE(list);
    EXPECT_TRUE(bodyJson(*list).at("tests").empty()) << list->body;
    EXPECT_FALSE(std::filesystem::exists(m_dir.path() / "ran"));
}

TEST_F(AgentTestsTest, UnknownProgramsAreRefused)
{
    for (const std::string program : { "ib_write_bw2", "IB_WRITE_BW", "sh", "bash", "ibv_devinfo", "rm", "" }) {
        const auto r = post(json { { "program", program } }.dump());
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 400) << program;
        const json error = bodyJson(*r).at("error");
        EXPECT_EQ(error.at("field"), "program");
        EXPECT_NE(error.at("message").get<std::string>().find("whitelist"), std::string::npos) << error.dump();
    }
}

TEST_F(AgentTestsTest, RunsAProgramAndReturnsItsOutputAndExitStatus)
{
    const json started = start({ { "program", "ib_write_bw" }, { "args", { "-d", "mlx5_0", "-i", "1", "--report_gbits" } },
        { "env", { { "NCCL_DEBUG", "INFO" }, { "NCCL_IB_HCA", "=mlx5_0:1,mlx5_3:1" } } }, { "timeout_s", 30 } });
    ASSERT_TRUE(started.is_object());
    EXPECT_EQ(started.at("api_version"), kApiVersion);
    EXPECT_EQ(started.at("state"), "running");
    EXPECT_EQ(started.at("program"), "ib_write_bw");
    const std::string id = started.at("id");
    EXPECT_EQ(id.size(), 32u);
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;

    const json done = waitForEnd(id);
    EXPECT_EQ(done.at("api_version"), kApiVersion);
    ASSERT_EQ(done.at("state"), "exited") << done.dump();
    EXPECT_EQ(done.at("exit_status"), 3);
    EXPECT_TRUE(done.at("signal").is_null());
    EXPECT_EQ(done.at("args"), json({ "-d", "mlx5_0", "-i", "1", "--report_gbits" }));
    EXPECT_EQ(done.at("timeout_s"), 30);
    EXPECT_GE(done.at("ended_ms").get<long long>(), done.at("started_ms").get<long long>());
    EXPECT_FALSE(done.at("output_truncated"));
    const std::string output = done.at("output");
    const std::string expected = "args: -d mlx5_0 -i 1 --report_gbits\nsysfs: " + sysRoot().string()
        + "\nnccl: INFO =mlx5_0:1,mlx5_3:1\npath: /usr/bin:/bin\nhome: unset\nto-stderr\n";
    EXPECT_EQ(output, expected); // stdout and stderr in one stream; nothing inherited (HOME)
    EXPECT_EQ(done.at("next_offset"), output.size());
    EXPECT_EQ(done.at("output_bytes"), output.size());

    // From an offset: the rest; past the end: nothing, and next_offset stays at the end.
    const json tail = test(id, 10);
    EXPECT_EQ(tail.at("output"), output.substr(10));
    EXPECT_EQ(tail.at("next_offset"), output.size());
    const json past = test(id, 100000);
    EXPECT_EQ(past.at("output"), "");
    EXPECT_EQ(past.at("next_offset"), output.size());
    const auto badOffset = get("/v1/tests/" + id + "?offset=-1");
    ASSERT_TRUE(badOffset);
    EXPECT_EQ(badOffset->status, 400);
    EXPECT_EQ(bodyJson(*badOffset).at("error").at("field"), "offset");

    // The list: the test, without its output.
    const auto list = get("/v1/tests");
    ASSERT_TRUE(list);
    const json tests = bodyJson(*list).at("tests");
    ASSERT_EQ(tests.size(), 1u);
    EXPECT_EQ(tests[0].at("id"), id);
    EXPECT_EQ(tests[0].at("state"), "exited");
    EXPECT_FALSE(tests[0].contains("output"));

    // DELETE of a finished test answers how it ended.
    const auto again = httpRequest(m_server->port(), "DELETE", "/v1/tests/" + id, bearer(kToken));
    ASSERT_TRUE(again);
    EXPECT_EQ(again->status, 200);
    EXPECT_EQ(bodyJson(*again).at("state"), "exited");
    EXPECT_EQ(std::filesystem::exists(m_dir.path() / "ran"), true);

    for (const std::string unknown : { "/v1/tests/0123456789abcdef0123456789abcdef", "/v1/tests/", "/v1/tests/..%2F" }) {
        const auto r = get(unknown);
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 404) << unknown;
        EXPECT_EQ(bodyJson(*r).at("api_version"), kApiVersion);
    }
}

TEST_F(AgentTestsTest, OutputIsReadWhileTheTestRuns)
{
    const json started = start({ { "program", "ib_read_lat" } });
    const std::string id = started.at("id");
    const json first = waitFor(id, [](const json& d) { return d.value("output", "") == "first\n"; });
    ASSERT_EQ(first.at("output"), "first\n") << first.dump();
    EXPECT_EQ(first.at("state"), "running");
    EXPECT_TRUE(first.at("ended_ms").is_null());
    EXPECT_TRUE(first.at("exit_status").is_null());
    const std::size_t next = first.at("next_offset");
    EXPECT_EQ(next, 6u);
    m_dir.write("go", "");
    const json done = waitForEnd(id);
    ASSERT_EQ(done.at("state"), "exited");
    EXPECT_EQ(done.at("exit_status"), 0);
    const json rest = test(id, next);
    EXPECT_EQ(rest.at("output"), "second\n");
    EXPECT_EQ(rest.at("next_offset"), 13u);
}

TEST_F(AgentTestsTest, DeleteKillsTheTestAndEveryProcessOfItsGroup)
{
    const json started = start({ { "program", "ib_read_bw" } });
    const std::string id = started.at("id");
    const pid_t pgid = groupOf(id);
    ASSERT_TRUE(groupAlive(pgid));
    const auto before = std::chrono::steady_clock::now();
    const auto r = httpRequest(m_server->port(), "DELETE", "/v1/tests/" + id, bearer(kToken));
    const auto took = std::chrono::steady_clock::now() - before;
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    const json body = bodyJson(*r);
    EXPECT_EQ(body.at("api_version"), kApiVersion);
    EXPECT_EQ(body.at("state"), "killed");
    EXPECT_EQ(body.at("signal"), SIGTERM);
    EXPECT_FALSE(body.at("ended_ms").is_null());
    EXPECT_LT(took, 1500ms); // SIGTERM was enough: no wait for the SIGKILL
    EXPECT_TRUE(groupGone(pgid)) << "a process of group " << pgid << " is still there";
    EXPECT_EQ(test(id).at("state"), "killed");
}

TEST_F(AgentTestsTest, DeleteEndsATestThatIgnoresSigtermWithSigkill)
{
    const json started = start({ { "program", "ib_write_lat" } });
    const std::string id = started.at("id");
    const pid_t pgid = groupOf(id);
    ASSERT_TRUE(groupAlive(pgid));
    const auto before = std::chrono::steady_clock::now();
    const auto r = httpRequest(m_server->port(), "DELETE", "/v1/tests/" + id, bearer(kToken));
    const auto took = std::chrono::steady_clock::now() - before;
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(bodyJson(*r).at("state"), "killed");
    EXPECT_EQ(bodyJson(*r).at("signal"), SIGKILL);
    EXPECT_GE(took, 1900ms);
    EXPECT_LT(took, 4s);
    EXPECT_TRUE(groupGone(pgid));
}

TEST_F(AgentTestsTest, ATestPastItsTimeoutIsKilledAndSaysSo)
{
    const auto before = std::chrono::steady_clock::now();
    const json started = start({ { "program", "ib_read_bw" }, { "timeout_s", 1 } });
    const std::string id = started.at("id");
    const pid_t pgid = groupOf(id);
    const json done = waitForEnd(id, 6s);
    const auto took = std::chrono::steady_clock::now() - before;
    ASSERT_EQ(done.at("state"), "timed_out") << done.dump();
    EXPECT_EQ(done.at("signal"), SIGTERM);
    EXPECT_TRUE(done.at("exit_status").is_null());
    EXPECT_GE(took, 1s);
    EXPECT_TRUE(groupGone(pgid));
}

TEST_F(AgentTestsTest, StoppingTheServerKillsRunningTests)
{
    const pid_t sleeper = groupOf(start({ { "program", "ib_read_bw" } }).at("id"));
    const pid_t stubborn = groupOf(start({ { "program", "ib_write_lat" } }).at("id"));
    ASSERT_TRUE(groupAlive(sleeper));
    ASSERT_TRUE(groupAlive(stubborn));
    m_server->stop();
    // stop() returns once they are gone: no waiting here.
    EXPECT_TRUE(groupGone(sleeper, 0ms));
    EXPECT_TRUE(groupGone(stubborn, 0ms));
}

TEST_F(AgentTestsTest, DestroyingTheServerKillsRunningTests)
{
    const pid_t pgid = groupOf(start({ { "program", "ib_read_bw" } }).at("id"));
    ASSERT_TRUE(groupAlive(pgid));
    m_server.reset();
    EXPECT_TRUE(groupGone(pgid, 0ms));
}

TEST_F(AgentTestsTest, AWhitelistedProgramMissingFromTheToolsFolderFailsToStart)
{
    const json started = start({ { "program", "srun" }, { "args", { "--version" } } });
    EXPECT_EQ(started.at("state"), "failed_to_start");
    EXPECT_NE(started.at("error").get<std::string>().find("No such file"), std::string::npos) << started.dump();
    EXPECT_NE(started.at("error").get<std::string>().find((m_dir.path() / "tools" / "srun").string()), std::string::npos);
    EXPECT_TRUE(started.at("exit_status").is_null());
    EXPECT_TRUE(started.at("pid").is_null());
    EXPECT_EQ(test(started.at("id")).at("state"), "failed_to_start");
}

TEST_F(AgentTestsTest, SixteenTestsAtOnceThenBusy)
{
    std::vector<std::string> ids;
    for (int i = 0; i < 16; ++i)
        ids.push_back(start({ { "program", "ib_read_bw" } }).at("id"));
    const auto busy = post(json { { "program", "ib_read_bw" } }.dump());
    ASSERT_TRUE(busy);
    EXPECT_EQ(busy->status, 503);
    EXPECT_EQ(bodyJson(*busy).at("error").at("code"), "TOO_MANY_TESTS");
    EXPECT_EQ(bodyJson(*busy).at("api_version"), kApiVersion);
    const auto cancelled = httpRequest(m_server->port(), "DELETE", "/v1/tests/" + ids.front(), bearer(kToken));
    ASSERT_TRUE(cancelled);
    EXPECT_EQ(bodyJson(*cancelled).at("state"), "killed");
    const auto more = post(json { { "program", "ib_read_bw" } }.dump());
    ASSERT_TRUE(more);
    EXPECT_EQ(more->status, 201) << more->body;
}

TEST_F(AgentTestsTest, OutputPastSixteenMebibytesIsDroppedAndFlagged)
{
    const std::string id = start({ { "program", "all_gather_perf" } }).at("id");
    const json done = waitForEnd(id, 20s);
    ASSERT_EQ(done.at("state"), "exited") << done.at("output_bytes");
    EXPECT_EQ(done.at("exit_status"), 0);
    EXPECT_TRUE(done.at("output_truncated"));
    constexpr std::size_t kKept = std::size_t(16) << 20;
    EXPECT_EQ(done.at("output_bytes"), kKept);
    // One answer carries at most 1 MiB; next_offset says where to go on.
    EXPECT_EQ(done.at("output").get<std::string>().size(), std::size_t(1) << 20);
    EXPECT_EQ(done.at("next_offset"), std::size_t(1) << 20);
    const json last = test(id, kKept - 10);
    EXPECT_EQ(last.at("output"), std::string(10, 'x'));
    EXPECT_EQ(last.at("next_offset"), kKept);
}

TEST_F(AgentTestsTest, MethodsOfTheTestPaths)
{
    const auto put = httpRequest(m_server->port(), "PUT", "/v1/tests", bearer(kToken) + "Content-Length: 0\r\n");
    ASSERT_TRUE(put);
    EXPECT_EQ(put->status, 405);
    EXPECT_EQ(put->header("allow"), "GET, HEAD, POST");
    const auto postOne = httpRequest(m_server->port(), "POST", "/v1/tests/abc", bearer(kToken) + "Content-Length: 0\r\n");
    ASSERT_TRUE(postOne);
    EXPECT_EQ(postOne->status, 405);
    EXPECT_EQ(postOne->header("allow"), "GET, HEAD, DELETE");
    const auto deleteAll = httpRequest(m_server->port(), "DELETE", "/v1/tests", bearer(kToken));
    ASSERT_TRUE(deleteAll);
    EXPECT_EQ(deleteAll->status, 405);
}
