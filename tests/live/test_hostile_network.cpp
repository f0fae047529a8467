// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Agents behind a bad network or broken themselves (fault_proxy.h): delay, stall, reset,
// byte-by-byte answers, a close mid-answer, garbage, an endless body, an accept that never
// answers. live check's observeAgents and the telemetry poll's fetchAll finish within their
// deadline with a per-node error that names what happened, the healthy agent beside the bad one
// is still seen, memory stays bounded (an endless body is cut at the size limit), and all is well
// again once the proxy forwards normally.
#include "live/client/agent_client.h"
#include "live/client/live_check.h"
#include "live/node/agent_server.h"

#include "fault_proxy.h"
#include "test_agent_server_support.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

using namespace railyard::live;
using namespace railyard::live::test;
using namespace std::chrono_literals;
using Fault = FaultProxy::Fault;

namespace {

constexpr const char* kToken = "hostile-network-token-0123456789";

long residentKiB()
{
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

class HostileNetworkTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        writeGpudTree(m_dir.path() / "sys");
        for (const char* node : { "node001", "node002" }) {
            NodeOptions options;
            options.sysfsRoot = m_dir.path() / "sys";
            options.node = node;
            AgentConfig config;
            config.port = 0;
            config.token = kToken;
            auto server = std::make_unique<AgentServer>(config, std::make_shared<const NodeReader>(options, NodeSources {}));
            const auto status = server->start();
            ASSERT_TRUE(status) << status.error().toString();
            m_servers.push_back(std::move(server));
        }
        m_proxy = std::make_unique<FaultProxy>(m_servers[0]->port());
        m_options.token = kToken;
        m_options.deadline = 1500ms;
        m_options.maxBodyBytes = 4u << 20;
    }

    std::vector<AgentEndpoint> agents() const
    {
        return { { "node001", m_proxy->url() }, { "node002", "http://127.0.0.1:" + std::to_string(m_servers[1]->port()) } };
    }

    TempDir m_dir { "hostile-network" };
    std::vector<std::unique_ptr<AgentServer>> m_servers;
    std::unique_ptr<FaultProxy> m_proxy;
    FetchOptions m_options;
};

struct Expected {
    Fault fault;
    const char* name;
    const char* code; ///< agent_error of node001's reply
    const char* words; ///< in its message
};

} // namespace

TEST_F(HostileNetworkTest, EveryFaultEndsInTimeWithAStatusNamingItAndAllRecovers)
{
    const std::vector<Expected> cases {
        { Fault::Delay, "delay 3 s", agent_error::kTimedOut, "" },
        { Fault::Stall, "stall", agent_error::kTimedOut, "" },
        { Fault::Reset, "reset", agent_error::kUnreachable, "" },
        { Fault::ByteByByte, "byte by byte", agent_error::kTimedOut, "" },
        { Fault::CloseMidAnswer, "close mid-answer", agent_error::kMalformed, "" },
        { Fault::Garbage, "garbage", agent_error::kMalformed, "" },
        { Fault::HugeBody, "100 GB body", agent_error::kMalformed, "limit" },
        { Fault::AcceptNoRead, "accept, never answer", agent_error::kTimedOut, "" },
    };
    const long rssBefore = residentKiB();
    long rssPeak = rssBefore;
    for (const Expected& c : cases) {
        m_proxy->setFault(c.fault, 3000ms);
        for (const char* path : { "/v1/inventory", "/v1/counters?format=compact" }) {
            const auto started = std::chrono::steady_clock::now();
            const std::vector<AgentReply> replies = fetchAll(agents(), path, m_options);
            const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
            ASSERT_EQ(replies.size(), 2u);
            const AgentReply& bad = replies[0];
            ASSERT_TRUE(bad.error) << c.name << " " << path << ": answered " << bad.status;
            EXPECT_EQ(bad.error->code, c.code) << c.name << " " << path << ": " << bad.error->message;
            EXPECT_NE(bad.error->message.find(c.words), std::string::npos) << c.name << ": " << bad.error->message;
            EXPECT_LT(bad.body.size(), m_options.maxBodyBytes + 65536) << c.name;
            // The healthy agent beside it is not held up.
            EXPECT_FALSE(replies[1].error) << c.name << ": " << replies[1].error->message;
            EXPECT_EQ(replies[1].status, 200) << c.name;
            EXPECT_LT(took, m_options.deadline + 1000ms) << c.name << " " << path;
            std::printf("[ figures  ] %-22s %-28s -> %s after %lld ms: %s\n", c.name, path, bad.error->code.c_str(),
                static_cast<long long>(bad.elapsed.count()), bad.error->message.substr(0, 110).c_str());
        }
        // live check's view of it: node001 unreachable with the reason, node002 seen.
        const auto started = std::chrono::steady_clock::now();
        const std::vector<NodeObservation> seen = observeAgents(agents(), m_options);
        const auto took = std::chrono::steady_clock::now() - started;
        ASSERT_EQ(seen.size(), 2u);
        EXPECT_FALSE(seen[0].inventory) << c.name;
        ASSERT_TRUE(seen[0].error) << c.name;
        EXPECT_EQ(seen[0].error->code, c.code) << c.name << ": " << seen[0].error->message;
        EXPECT_TRUE(seen[1].inventory) << c.name << ": " << (seen[1].error ? seen[1].error->message : "");
        EXPECT_LT(took, m_options.deadline + 1000ms) << c.name;
        rssPeak = std::max(rssPeak, residentKiB());
    }
    // An endless body costs at most the size limit, never what the agent claims.
    EXPECT_LT(rssPeak - rssBefore, 64 * 1024) << "resident memory grew from " << rssBefore << " to " << rssPeak << " KiB";
    std::printf("[ figures  ] resident memory %ld KiB before, %ld KiB at the peak (limit per answer %zu bytes; the endless "
                "body sent %lld bytes before it was cut)\n",
        rssBefore, rssPeak, m_options.maxBodyBytes, m_proxy->hugeBytesSent());

    // Back to normal: both agents answer, as if nothing happened.
    m_proxy->setFault(Fault::None);
    const std::vector<AgentReply> again = fetchAll(agents(), "/v1/counters?format=compact", m_options);
    for (const AgentReply& r : again) {
        EXPECT_FALSE(r.error) << r.agent.node << ": " << r.error->message;
        EXPECT_EQ(r.status, 200);
        EXPECT_NE(r.body.find(r.agent.node), std::string::npos);
    }
    const std::vector<NodeObservation> seen = observeAgents(agents(), m_options);
    for (const NodeObservation& o : seen)
        EXPECT_TRUE(o.inventory) << o.node << ": " << (o.error ? o.error->message : "");
}
