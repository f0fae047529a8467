// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `export file-sd`: the targets file against golden files (one group per node and rail, planes),
// from agents.json (URLs, a path prefix, missing and foreign nodes), and the agent's
// /metrics?rail=K[&port=P] that each group asks for.
#include "live/client/prometheus_file_sd.h"

#include "live/sim/agent_farm.h"
#include "live/sim/emulator.h"
#include "tests/live/loopback_http.h"
#include "tests/live/test_agent_server_support.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace railyard::live {
namespace {

    namespace fs = std::filesystem;

    const fs::path kFixtures = fs::path(RAILYARD_TEST_DATA_DIR) / "prometheus";

    simtest::PlannedFabric fabricOf(const std::string& specFile)
    {
        const std::string text = simtest::readText(kFixtures / specFile);
        return simtest::planOf(text.c_str());
    }

    /// Runs railyard-cli with `args`; its standard output.
    std::string cli(const std::string& args, int& status)
    {
        std::string out;
        FILE* p = ::popen((std::string(RAILYARD_CLI) + " " + args + " 2>&1").c_str(), "r");
        if (!p)
            return out;
        char buf[4096];
        std::size_t n;
        while ((n = std::fread(buf, 1, sizeof buf, p)) > 0)
            out.append(buf, n);
        status = WEXITSTATUS(::pclose(p));
        return out;
    }

} // namespace

TEST(PrometheusFileSd, GoldenPerNodeAndRail)
{
    // Through the program, as an operator runs it; the golden files are updated by hand, never by the test.
    for (const char* name : { "ib-2su-2rail", "roce-2plane" }) {
        int status = -1;
        const std::string out = cli("export file-sd " + (kFixtures / (std::string(name) + ".plan.json")).string() + " --port 9473", status);
        EXPECT_EQ(status, 0) << out;
        EXPECT_EQ(out, simtest::readText(kFixtures / ("file_sd-" + std::string(name) + ".json"))) << name;
    }
}

TEST(PrometheusFileSd, LabelsFollowThePlan)
{
    const simtest::PlannedFabric f = fabricOf("ib-2su-2rail.plan.json");
    const auto doc = prometheusFileSd(f.plan, nullptr, 9100);
    ASSERT_TRUE(doc) << doc.error().toString();
    ASSERT_EQ(doc->size(), 8u); // 4 nodes x 2 rails
    const nlohmann::json& last = doc->back();
    EXPECT_EQ(last["targets"], nlohmann::json::array({ "node004:9100" }));
    EXPECT_EQ(last["labels"]["leaf"], "su2-rail1-leaf");
    EXPECT_EQ(last["labels"]["su"], "2");
    EXPECT_EQ(last["labels"]["__param_rail"], "1");
    EXPECT_FALSE(last["labels"].contains("plane")); // one plane: no plane label
}

TEST(PrometheusFileSd, FromAgentsJson)
{
    const simtest::PlannedFabric f = fabricOf("ib-2su-2rail.plan.json");
    std::vector<AgentEndpoint> agents { { "node001", "http://127.0.0.1:40001" }, { "node002", "http://10.0.0.2:9473/agents/node002/" },
        { "node003", "http://[::1]:40003" }, { "node004", "http://127.0.0.4:40004" } };
    const auto doc = prometheusFileSd(f.plan, &agents, 0);
    ASSERT_TRUE(doc) << doc.error().toString();
    EXPECT_EQ((*doc)[0]["targets"][0], "127.0.0.1:40001");
    EXPECT_FALSE((*doc)[0]["labels"].contains("__metrics_path__"));
    EXPECT_EQ((*doc)[2]["targets"][0], "10.0.0.2:9473");
    EXPECT_EQ((*doc)[2]["labels"]["__metrics_path__"], "/agents/node002/metrics");
    EXPECT_EQ((*doc)[4]["targets"][0], "[::1]:40003");

    // A node of the plan without an agent, an agent of another fabric, a URL that is no http URL.
    std::vector<AgentEndpoint> wrong { { "node001", "http://127.0.0.1:40001" }, { "node009", "http://127.0.0.1:40009" },
        { "node002", "https://10.0.0.2:9473" } };
    const auto refused = prometheusFileSd(f.plan, &wrong, 0);
    ASSERT_FALSE(refused);
    ASSERT_EQ(refused.errors().size(), 3u);
    EXPECT_EQ(refused.errors()[0].code, "FILE_SD_UNKNOWN_NODE");
    EXPECT_NE(refused.errors()[0].message.find("node009"), std::string::npos);
    EXPECT_EQ(refused.errors()[1].code, "AGENT_URL");
    EXPECT_EQ(refused.errors()[2].code, "FILE_SD_NO_AGENT");
    EXPECT_NE(refused.errors()[2].message.find("2 node(s) of the plan have no agent in agents.json: node003, node004"), std::string::npos)
        << refused.errors()[2].message;
}

TEST(PrometheusFileSd, AgentServesOneRailOnRequest)
{
    // The emulator's tree of one DGX H100 node, served by the agent's own code.
    const simtest::PlannedFabric f = simtest::planOf(R"({ "fabric": "infiniband", "nodes": 1, "node_type": "dgx-h100",
        "link": { "generation": "NDR", "width": 4 } })");
    test::TempDir root("file-sd", test::TempDir::Place::PreferRam);
    EmulatorOptions options;
    options.root = root.path();
    options.traffic = TrafficKind::Idle;
    auto emulator = FabricEmulator::create(f.plan, f.catalog, {}, options);
    ASSERT_TRUE(emulator) << emulator.error().toString();
    ASSERT_TRUE((*emulator)->writeTree());
    AgentFarm farm;
    FarmOptions farmOptions;
    farmOptions.token = "t";
    ASSERT_TRUE(farm.start((*emulator)->nodes(), farmOptions));
    const int port = farm.ports().front();

    auto metrics = [&](const std::string& query) { return test::httpRequest(port, "GET", "/metrics" + query); };
    const auto all = metrics("");
    ASSERT_TRUE(all);
    ASSERT_EQ(all->status, 200);
    const test::Exposition everything = test::parseExposition(all->body);
    ASSERT_TRUE(everything.error.empty()) << everything.error;

    const auto rail3 = metrics("?rail=3");
    ASSERT_TRUE(rail3);
    ASSERT_EQ(rail3->status, 200) << rail3->body;
    const test::Exposition one = test::parseExposition(rail3->body);
    ASSERT_TRUE(one.error.empty()) << one.error;
    int data = 0;
    for (const test::Sample& s : one.samples) {
        EXPECT_EQ(s.labels.count("rail") ? s.labels.at("rail") : "none", "3") << s.name; // nothing of another rail or device
        if (s.name == "railyard_infiniband_port_data_transmitted_bytes_total") {
            ++data;
            EXPECT_EQ(s.labels.at("device"), "mlx5_5"); // rail 3 of a DGX H100 (interfaces.md: not mlx5_3)
        }
    }
    EXPECT_EQ(data, 1);
    EXPECT_LT(one.samples.size(), everything.samples.size() / 8); // 12 devices, 8 of them rails

    const auto portOne = metrics("?rail=3&port=1");
    ASSERT_TRUE(portOne);
    EXPECT_EQ(portOne->status, 200);
    EXPECT_EQ(portOne->body, rail3->body);

    const auto noPort = metrics("?rail=3&port=2");
    ASSERT_TRUE(noPort);
    EXPECT_EQ(noPort->status, 404);
    EXPECT_NE(noPort->body.find("this node has no rail 3 with port 2 (its rails: 0, 1, 2, 3, 4, 5, 6, 7)"), std::string::npos) << noPort->body;
    for (const char* bad : { "?rail=x", "?rail=-1", "?rail=256", "?rail=3&port=0" }) {
        const auto refused = metrics(bad);
        ASSERT_TRUE(refused);
        EXPECT_EQ(refused->status, 400) << bad;
    }
}

} // namespace railyard::live
