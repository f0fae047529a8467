// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Host configuration from the plan: the per-node script against a golden file, the routing and
// QoS intent per NIC, and the rail map checks.
#include "intent_test_util.h"

#include "planner/host_config.h"
#include "../live/temp_dir.h"

#include <cstdlib>

namespace railyard::test {
namespace {

    std::vector<std::string> railMap()
    {
        const core::NodeType* type = catalog().findNodeType("hgx-8gpu-400g");
        EXPECT_NE(type, nullptr);
        return type ? type->railMap : std::vector<std::string> {};
    }

    core::Result<std::vector<planner::HostIntent>> intents(const core::Plan& p, const std::vector<std::string>& map,
        const std::string& only = {})
    {
        auto a = planner::planAddresses(p);
        if (!a)
            return a.errors();
        return planner::hostIntents(p, *a, map, only);
    }

    TEST(HostConfig, Golden)
    {
        const core::Plan p = plan(intentSpec());
        auto a = planner::planAddresses(p);
        ASSERT_TRUE(a);
        auto files = planner::hostConfigs(p, *a, railMap(), "node001");
        ASSERT_TRUE(files) << files.error().toString();
        ASSERT_EQ(files->size(), 1U);
        EXPECT_EQ(files->front().fileName, "node001.sh");
        expectGolden(files->front().text, "node001.sh");
    }

    TEST(HostConfig, EveryNodeOneTablePerNicItsGatewayTheLeaf)
    {
        const core::Plan p = plan(intentSpec());
        auto hosts = intents(p, railMap());
        ASSERT_TRUE(hosts) << hosts.error().toString();
        ASSERT_EQ(static_cast<int>(hosts->size()), p.summary.nodes);
        for (const auto& h : *hosts) {
            ASSERT_EQ(static_cast<int>(h.nics.size()), p.summary.rails);
            for (std::size_t k = 0; k < h.nics.size(); ++k) {
                const auto& n = h.nics[k];
                EXPECT_EQ(n.rail, static_cast<int>(k));
                EXPECT_EQ(n.table, 100 + n.rail);
                EXPECT_EQ(n.network, n.gateway) << "a /31's network is its even (leaf) address";
                EXPECT_EQ(n.railMapEntry, railMap()[k]);
            }
            EXPECT_EQ(h.qos.trafficClass, 106);
            EXPECT_EQ(h.qos.rocePriority, 3);
        }
        const std::string script = planner::hostScript(p, hosts->back());
        EXPECT_NE(script.find("ip rule add from 10.0.0.15 table 101 priority 101\n"), std::string::npos) << script;
        EXPECT_NE(script.find("ip route replace default via 10.0.0.14 dev \"$NET\" src 10.0.0.15 table 101\n"), std::string::npos);
        EXPECT_NE(script.find("net.ipv4.conf.$NET.rp_filter=2"), std::string::npos);
    }

    TEST(HostConfig, QosFollowsTheProfile)
    {
        core::PlanSpec spec = intentSpec();
        spec.lossless.pfcPriorities = { 4 };
        spec.lossless.roceDscp = 34;
        spec.lossless.mtu = 9000;
        const core::Plan p = plan(spec);
        auto hosts = intents(p, railMap(), "node002");
        ASSERT_TRUE(hosts);
        const std::string s = planner::hostScript(p, hosts->front());
        EXPECT_NE(s.find("mlnx_qos -i \"$NET\" --trust dscp --pfc 0,0,0,0,1,0,0,0\n"), std::string::npos) << s;
        EXPECT_NE(s.find("--dscp2prio set,34,4\n"), std::string::npos);
        EXPECT_NE(s.find("put 1 \"/sys/class/net/$NET/ecn/roce_rp/enable/4\"\n"), std::string::npos);
        EXPECT_NE(s.find("echo \"NCCL_IB_TC=138\""), std::string::npos) << "34 << 2 | ECT(0)";
        EXPECT_NE(s.find("mtu 9000 up"), std::string::npos);

        spec.lossless.mode = "pfc-only";
        const core::Plan pfcOnly = plan(spec);
        auto h2 = intents(pfcOnly, railMap(), "node002");
        ASSERT_TRUE(h2);
        const std::string s2 = planner::hostScript(pfcOnly, h2->front());
        EXPECT_NE(s2.find("put 0 \"/sys/class/net/$NET/ecn/roce_rp/enable/4\"\n"), std::string::npos) << "pfc-only: no DCQCN";
    }

    TEST(HostConfig, RailSubnetsRouteTheSubnet)
    {
        core::PlanSpec spec = intentSpec();
        spec.addressing.scheme = "rail_subnets";
        const core::Plan p = plan(spec);
        auto hosts = intents(p, railMap(), "node001");
        ASSERT_TRUE(hosts);
        const auto& n = hosts->front().nics.front();
        EXPECT_EQ(n.prefixLength, 29);
        EXPECT_EQ(n.network, "10.0.0.0");
        EXPECT_EQ(n.gateway, "10.0.0.1");
        EXPECT_EQ(n.address, "10.0.0.2");
    }

    TEST(HostConfig, RailMapProblemsAndUnknownNodes)
    {
        const core::Plan p = plan(intentSpec());
        auto none = intents(p, {});
        ASSERT_FALSE(none);
        EXPECT_EQ(none.error().code, "HOST_RAIL_MAP");
        auto shortMap = intents(p, { "mlx5_0" });
        ASSERT_FALSE(shortMap);
        EXPECT_NE(shortMap.error().message.find("maps 1 NICs, the plan has 2 rails"), std::string::npos);
        auto hostile = intents(p, { "mlx5_0", "mlx5_1;reboot" });
        ASSERT_FALSE(hostile);
        EXPECT_EQ(hostile.error().code, "HOST_RAIL_MAP");
        EXPECT_TRUE(intents(p, { "0000:5a:00.0", "0000:5b:00.0" }));
        auto unknown = intents(p, railMap(), "node999");
        ASSERT_FALSE(unknown);
        EXPECT_EQ(unknown.error().code, "NODE_UNKNOWN");
    }

    // The script is valid POSIX shell: `sh -n` parses it without running anything.
    TEST(HostConfig, ScriptParsesAsShell)
    {
        const core::Plan p = plan(intentSpec());
        auto hosts = intents(p, { "0000:5a:00.0", "mlx5_1" }, "node003");
        ASSERT_TRUE(hosts);
        const live::test::TempDir dir("host-config");
        const auto file = dir.write("node003.sh", planner::hostScript(p, hosts->front()));
        EXPECT_EQ(std::system(("sh -n '" + file.string() + "'").c_str()), 0);
    }

} // namespace
} // namespace railyard::test
