// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// AgentServer on loopback, over a sysfs tree written from a real node's files (gpud H100 fixture).
#include "live/node/agent_server.h"

#include "live/common/inventory_json.h"
#include "test_agent_server_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <thread>

using namespace railyard::live;
using namespace railyard::live::test;
using nlohmann::json;

namespace {

constexpr const char* kToken = "s3cret-token-for-tests";

class FixedEthtool final : public EthtoolSource {
public:
    std::map<std::string, std::uint64_t> read(const std::string& netdev) const override
    {
        if (netdev != "bond0")
            return {};
        return { { "rx_prio3_pause", 42 }, { "tx_prio3_pause", 7 }, { "rx_prio3_pause_duration", 2500 } };
    }
};

class AgentServerTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        writeGpudTree(m_dir.path());
        // The RoCE bond's netdev, as the kernel names it in gid_attrs.
        writeFile(m_dir.path() / "class/infiniband/mlx5_bond_0/ports/1/gid_attrs/ndevs/0", "bond0\n");
        NodeOptions options;
        options.sysfsRoot = m_dir.path();
        options.node = "node007";
        options.railMap = { "mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9" };
        NodeSources sources;
        sources.ethtool = std::make_shared<FixedEthtool>();
        m_reader = std::make_shared<const NodeReader>(options, sources);
    }

    std::unique_ptr<AgentServer> startServer(const std::string& token, int threads = 2, int ioTimeoutMs = 5000)
    {
        AgentConfig config;
        config.listenAddress = "127.0.0.1";
        config.port = 0;
        config.token = token;
        config.threads = threads;
        config.ioTimeoutMs = ioTimeoutMs;
        auto server = std::make_unique<AgentServer>(config, m_reader);
        const auto status = server->start();
        EXPECT_TRUE(status) << status.error().toString();
        EXPECT_GT(server->port(), 0);
        return server;
    }

    TempDir m_dir;
    std::shared_ptr<const NodeReader> m_reader;
};

json bodyJson(const HttpResponse& r)
{
    return json::parse(r.body);
}

} // namespace

TEST_F(AgentServerTest, HealthNeedsNoToken)
{
    const auto server = startServer(kToken);
    const auto r = httpRequest(server->port(), "GET", "/v1/health");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->header("content-type"), "application/json");
    const auto h = healthFromJson(bodyJson(*r), "health");
    ASSERT_TRUE(h) << h.error().toString();
    EXPECT_EQ(h->status, "ok");
    EXPECT_EQ(h->node, "node007");
    EXPECT_GE(h->uptimeSeconds, 0);
}

TEST_F(AgentServerTest, InventoryWithTheRightToken)
{
    const auto server = startServer(kToken);
    const auto r = httpRequest(server->port(), "GET", "/v1/inventory", bearer(kToken));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    const auto inv = inventoryFromJson(bodyJson(*r), "inventory");
    ASSERT_TRUE(inv) << inv.error().toString();
    EXPECT_EQ(inv->node, "node007");
    ASSERT_EQ(inv->devices.size(), 9u);
    const RdmaDevice* mlx5_4 = nullptr;
    for (const RdmaDevice& d : inv->devices) {
        if (d.name == "mlx5_4")
            mlx5_4 = &d;
    }
    ASSERT_NE(mlx5_4, nullptr);
    EXPECT_EQ(mlx5_4->rail, 2);
    EXPECT_EQ(mlx5_4->fwVersion, "28.41.1000");
    ASSERT_EQ(mlx5_4->ports.size(), 1u);
    EXPECT_EQ(mlx5_4->ports[0].rateText, "400 Gb/sec (4X NDR)");
    EXPECT_EQ(mlx5_4->ports[0].state, 4);
    // The same document as the reader's own, through HTTP.
    EXPECT_EQ(bodyJson(*r), toJson(m_reader->inventory()));
}

TEST_F(AgentServerTest, CountersCarryRawValuesAndKinds)
{
    const auto server = startServer(kToken);
    const auto r = httpRequest(server->port(), "GET", "/v1/counters", bearer(kToken));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    const auto snap = countersFromJson(bodyJson(*r), "counters");
    ASSERT_TRUE(snap) << snap.error().toString();
    EXPECT_EQ(snap->node, "node007");
    const PortCounters* port = nullptr;
    const PortCounters* bond = nullptr;
    for (const PortCounters& p : snap->ports) {
        if (p.device == "mlx5_0" && p.port == 1)
            port = &p;
        if (p.device == "mlx5_bond_0")
            bond = &p;
    }
    ASSERT_NE(port, nullptr);
    EXPECT_EQ(port->rail, 0);
    // The fixture's values as they are: words, not bytes, in the JSON.
    EXPECT_EQ(port->counters.at("port_xmit_data").value, 230442669431839ULL);
    EXPECT_EQ(port->counters.at("port_xmit_data").kind, CounterKind::Words4);
    EXPECT_EQ(port->counters.at("port_rcv_errors").value, 14u);
    EXPECT_EQ(port->counters.at("port_rcv_errors").kind, CounterKind::Saturating);
    EXPECT_EQ(port->hwCounters.at("rx_write_requests").value, 3809045607ULL);
    ASSERT_NE(bond, nullptr);
    EXPECT_EQ(bond->netdev, "bond0");
    EXPECT_EQ(bond->ethtool.at("rx_prio3_pause"), 42u);
}

TEST_F(AgentServerTest, RefusesMissingOrWrongToken)
{
    const auto server = startServer(kToken);
    for (const std::string path : { "/v1/inventory", "/v1/counters" }) {
        const auto none = httpRequest(server->port(), "GET", path);
        ASSERT_TRUE(none);
        EXPECT_EQ(none->status, 401);
        EXPECT_EQ(none->header("www-authenticate").rfind("Bearer", 0), 0u);
        EXPECT_EQ(bodyJson(*none).at("error").at("code"), "UNAUTHORIZED");
        EXPECT_NE(bodyJson(*none).at("error").at("message").get<std::string>().find("missing"), std::string::npos);
        EXPECT_EQ(bodyJson(*none).at("api_version"), kApiVersion);

        const auto wrong = httpRequest(server->port(), "GET", path, bearer("s3cret-token-for-testz"));
        ASSERT_TRUE(wrong);
        EXPECT_EQ(wrong->status, 401);
        EXPECT_NE(bodyJson(*wrong).at("error").at("message").get<std::string>().find("wrong"), std::string::npos);
        const auto prefix = httpRequest(server->port(), "GET", path, bearer("s3cret"));
        ASSERT_TRUE(prefix);
        EXPECT_EQ(prefix->status, 401);
        const auto basic = httpRequest(server->port(), "GET", path, "Authorization: Basic czNjcmV0\r\n");
        ASSERT_TRUE(basic);
        EXPECT_EQ(basic->status, 401);
    }
    // The scheme is case-insensitive (RFC 7235).
    const auto lower = httpRequest(server->port(), "GET", "/v1/inventory", std::string("Authorization: bearer ") + kToken + "\r\n");
    ASSERT_TRUE(lower);
    EXPECT_EQ(lower->status, 200);
}

TEST_F(AgentServerTest, UnknownPathsAndMethods)
{
    const auto server = startServer(kToken);
    const auto unknown = httpRequest(server->port(), "GET", "/v1/nothing", bearer(kToken));
    ASSERT_TRUE(unknown);
    EXPECT_EQ(unknown->status, 404);
    EXPECT_EQ(bodyJson(*unknown).at("error").at("code"), "NOT_FOUND");
    // Without the token, an unknown path tells nothing but "unauthorized".
    const auto unknownNoToken = httpRequest(server->port(), "GET", "/v2/inventory");
    ASSERT_TRUE(unknownNoToken);
    EXPECT_EQ(unknownNoToken->status, 401);
    const auto post = httpRequest(server->port(), "POST", "/v1/inventory", bearer(kToken) + "Content-Length: 0\r\n");
    ASSERT_TRUE(post);
    EXPECT_EQ(post->status, 405);
    EXPECT_EQ(post->header("allow"), "GET, HEAD");
    const auto deleteMetrics = httpRequest(server->port(), "DELETE", "/metrics");
    ASSERT_TRUE(deleteMetrics);
    EXPECT_EQ(deleteMetrics->status, 405);
}

TEST_F(AgentServerTest, EmptyTokenRefusesTheJsonApiAndSaysWhy)
{
    const auto server = startServer("");
    const auto r = httpRequest(server->port(), "GET", "/v1/inventory", bearer(""));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 403);
    const std::string message = bodyJson(*r).at("error").at("message");
    EXPECT_NE(message.find("no token configured"), std::string::npos) << message;
    EXPECT_NE(message.find("--token-file"), std::string::npos) << message;
    const auto health = httpRequest(server->port(), "GET", "/v1/health");
    ASSERT_TRUE(health);
    EXPECT_EQ(health->status, 200);
}

TEST_F(AgentServerTest, MetricsWithoutTokenFromTheSysfsTree)
{
    const auto server = startServer(kToken);
    const auto r = httpRequest(server->port(), "GET", "/metrics");
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200);
    EXPECT_EQ(r->header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
    const auto e = parseExposition(r->body);
    ASSERT_TRUE(e.error.empty()) << e.error;
    const std::map<std::string, std::string> port { { "node", "node007" }, { "device", "mlx5_0" }, { "port", "1" }, { "rail", "0" } };
    EXPECT_EQ(e.value("railyard_infiniband_port_data_transmitted_bytes_total", port), 230442669431839.0 * 4);
    EXPECT_EQ(e.value("railyard_infiniband_port_data_received_bytes_total", port), 230539874932483.0 * 4);
    EXPECT_EQ(e.value("railyard_infiniband_port_transmit_wait_total", port), 2489603687.0);
    EXPECT_EQ(e.value("railyard_infiniband_excessive_buffer_overrun_errors_total", port), 15.0);
    EXPECT_EQ(e.value("railyard_infiniband_state_id", port), 4.0);
    EXPECT_EQ(e.value("railyard_infiniband_rate_bytes_per_second", port), 5e10);
    EXPECT_EQ(e.value("railyard_rdma_hw_counters_total", { { "device", "mlx5_0" }, { "counter", "rx_dct_connect" } }), 422237.0);
    EXPECT_EQ(e.value("railyard_pfc_pause_frames_total", { { "netdev", "bond0" }, { "direction", "rx" }, { "priority", "3" } }), 42.0);
    EXPECT_EQ(e.value("railyard_pfc_pause_duration_seconds_total", { { "netdev", "bond0" }, { "direction", "rx" } }), 0.0025);
    // Prometheus' own parser and linter find nothing (when promtool is installed).
    if (const auto verdict = promtoolCheck(r->body)) {
        EXPECT_EQ(verdict->status, 0) << verdict->out;
        EXPECT_TRUE(verdict->out.empty()) << verdict->out;
    }
}

TEST_F(AgentServerTest, ASilentClientDoesNotHoldTheOnlyWorker)
{
    const auto server = startServer(kToken, 1, 200);
    // Connect and send nothing: the single worker waits for this request until its read timeout.
    const int idle = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(idle, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(server->port()));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(idle, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    // Without the timeout this request would wait forever (the deadline of the helper fails it).
    const auto r = httpRequest(server->port(), "GET", "/v1/health", {}, std::chrono::seconds(20));
    ::close(idle);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
}

TEST_F(AgentServerTest, ManyConcurrentClients)
{
    const auto server = startServer(kToken, 4);
    std::vector<std::thread> clients;
    std::atomic<int> ok { 0 };
    for (int i = 0; i < 16; ++i) {
        clients.emplace_back([&, i] {
            const auto r = httpRequest(server->port(), "GET", i % 2 ? "/metrics" : "/v1/counters", bearer(kToken));
            if (r && r->status == 200)
                ++ok;
        });
    }
    for (auto& t : clients)
        t.join();
    EXPECT_EQ(ok, 16);
}

TEST_F(AgentServerTest, BindErrorNamesTheAddress)
{
    const auto first = startServer(kToken);
    AgentConfig config;
    config.listenAddress = "127.0.0.1";
    config.port = first->port();
    config.token = kToken;
    AgentServer second(config, m_reader);
    const auto status = second.start();
    ASSERT_FALSE(status);
    const std::string where = "127.0.0.1:" + std::to_string(first->port());
    EXPECT_NE(status.error().message.find(where), std::string::npos) << status.error().toString();
    EXPECT_NE(status.error().message.find("in use"), std::string::npos) << status.error().toString();

    config.listenAddress = "not-an-address";
    config.port = 0;
    AgentServer third(config, m_reader);
    const auto bad = third.start();
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("not-an-address"), std::string::npos) << bad.error().toString();
}

TEST_F(AgentServerTest, StopsAndStartsAgain)
{
    auto server = startServer(kToken);
    server->stop();
    server->stop(); // twice is harmless
    EXPECT_FALSE(httpRequest(server->port(), "GET", "/v1/health", {}, std::chrono::seconds(2)));
    const auto again = server->start();
    ASSERT_TRUE(again) << again.error().toString();
    const auto r = httpRequest(server->port(), "GET", "/v1/health");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
}

TEST_F(AgentServerTest, MetricsSeeAPortGoDownOnTheNextScrape)
{
    const auto server = startServer(kToken); // the inventory is cached for /metrics; port state is not
    const std::map<std::string, std::string> port { { "device", "mlx5_4" }, { "port", "1" } };
    auto before = parseExposition(httpRequest(server->port(), "GET", "/metrics").value().body);
    ASSERT_TRUE(before.error.empty()) << before.error;
    EXPECT_EQ(before.value("railyard_infiniband_state_id", port), 4.0);
    EXPECT_EQ(before.value("railyard_infiniband_rate_bytes_per_second", port), 5e10);

    const auto dir = m_dir.path() / "class/infiniband/mlx5_4/ports/1";
    writeFile(dir / "state", "1: DOWN\n");
    writeFile(dir / "phys_state", "3: Disabled\n");
    writeFile(dir / "rate", "200 Gb/sec (2X NDR)\n");
    writeFile(m_dir.path() / "class/infiniband/mlx5_4/ports/1/counters/link_downed", "1\n");
    const auto after = parseExposition(httpRequest(server->port(), "GET", "/metrics").value().body);
    ASSERT_TRUE(after.error.empty()) << after.error;
    EXPECT_EQ(after.value("railyard_infiniband_state_id", port), 1.0);
    EXPECT_EQ(after.value("railyard_infiniband_physical_state_id", port), 3.0);
    EXPECT_EQ(after.value("railyard_infiniband_rate_bytes_per_second", port), 2.5e10);
    EXPECT_EQ(after.value("railyard_infiniband_link_width_lanes", port), 2.0);
    EXPECT_EQ(after.value("railyard_infiniband_link_downed_total", port), 1.0);
}

TEST_F(AgentServerTest, MetricsWithoutInventoryCacheSeeFirmwareChanges)
{
    AgentConfig config;
    config.listenAddress = "127.0.0.1";
    config.port = 0;
    config.token = kToken;
    config.metricsInventoryTtlMs = 0;
    AgentServer server(config, m_reader);
    ASSERT_TRUE(server.start());
    const std::map<std::string, std::string> dev { { "device", "mlx5_0" } };
    writeFile(m_dir.path() / "class/infiniband/mlx5_0/fw_ver", "28.42.1000\n");
    const auto e = parseExposition(httpRequest(server.port(), "GET", "/metrics").value().body);
    ASSERT_TRUE(e.error.empty()) << e.error;
    EXPECT_EQ(e.value("railyard_infiniband_info", { { "device", "mlx5_0" }, { "firmware_version", "28.42.1000" } }), 1.0);
}
