// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Switch configuration from the plan: NVUE and SONiC against golden files, the SONiC tables read
// back and checked against each other, and the QoS profile carried into both.
#include "intent_test_util.h"

#include "planner/switch_config.h"

#include <nlohmann/json.hpp>

#include <set>

namespace railyard::test {
namespace {

    using nlohmann::json;
    using planner::SwitchOs;

    std::vector<planner::ConfigFile> configs(const core::Plan& p, SwitchOs os, const std::string& only = {})
    {
        auto a = planner::planAddresses(p);
        EXPECT_TRUE(a) << (a ? "" : a.error().toString());
        if (!a)
            return {};
        auto files = planner::switchConfigs(p, *a, os, only);
        EXPECT_TRUE(files) << (files ? "" : files.error().toString());
        return files ? *files : std::vector<planner::ConfigFile> {};
    }

    int count(const std::string& text, const std::string& what)
    {
        int n = 0;
        for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
            ++n;
        return n;
    }

    TEST(SwitchConfig, OneFilePerInstalledSwitchNamedAfterIt)
    {
        const core::Plan p = plan(intentSpec());
        const auto nvue = configs(p, SwitchOs::Nvue);
        ASSERT_EQ(static_cast<long long>(nvue.size()), p.summary.switches.total());
        EXPECT_EQ(nvue.front().fileName, "su1-rail0-leaf.nvue.sh");
        EXPECT_EQ(configs(p, SwitchOs::Sonic).back().fileName, "spine1.config_db.json");
        const auto one = configs(p, SwitchOs::Nvue, "spine1");
        ASSERT_EQ(one.size(), 1U);
        EXPECT_EQ(one.front().device, "spine1");
        auto a = planner::planAddresses(p);
        auto unknown = planner::switchConfigs(p, *a, SwitchOs::Nvue, "spine9");
        ASSERT_FALSE(unknown);
        EXPECT_EQ(unknown.error().code, "SWITCH_UNKNOWN");
    }

    TEST(SwitchConfig, NvueGolden)
    {
        const auto files = configs(plan(intentSpec()), SwitchOs::Nvue);
        ASSERT_GE(files.size(), 5U);
        expectGolden(files[0].text, "su1-rail0-leaf.nvue.sh");
        expectGolden(files[4].text, "spine1.nvue.sh");
    }

    TEST(SwitchConfig, SonicGolden)
    {
        const auto files = configs(plan(intentSpec()), SwitchOs::Sonic);
        ASSERT_GE(files.size(), 1U);
        expectGolden(files[0].text, "su1-rail0-leaf.config_db.json");
    }

    TEST(SwitchConfig, NvueNeighboursAreTheLinkPeersWithTheirAsns)
    {
        const core::Plan p = plan(intentSpec());
        auto a = planner::planAddresses(p);
        ASSERT_TRUE(a);
        const auto files = configs(p, SwitchOs::Nvue);
        const std::string& spine = files.back().text;
        // The spine peers with every leaf uplink: 8 links, each leaf's ASN.
        EXPECT_EQ(count(spine, " remote-as "), static_cast<int>(p.summary.cables.leafSpine));
        for (const auto& s : a->switches) {
            if (s.device != "spine1") {
                EXPECT_NE(spine.find("remote-as " + std::to_string(s.asn) + "\n"), std::string::npos) << s.device;
            }
        }
        EXPECT_EQ(count(files.front().text, " remote-as 4200000004\n"), 2);
        EXPECT_EQ(count(spine, "allow-my-asn"), 0);
    }

    TEST(SwitchConfig, PerTierLeavesAcceptTheirOwnAsn)
    {
        core::PlanSpec spec = intentSpec();
        spec.addressing.asn.scheme = "per_tier";
        const core::Plan p = plan(spec);
        EXPECT_TRUE(hasFinding(p, "ASN_PER_TIER"));
        const auto files = configs(p, SwitchOs::Nvue);
        EXPECT_EQ(count(files.front().text, "aspath allow-my-asn enable on"), 2);
        EXPECT_EQ(count(files.back().text, "allow-my-asn"), 0) << "the top tier never sees its own ASN";
    }

    TEST(SwitchConfig, SonicTablesAreConsistent)
    {
        core::PlanSpec spec = intentSpec();
        spec.lossless.pfcPriorities = { 3, 4 };
        const core::Plan p = plan(spec);
        for (const auto& f : configs(p, SwitchOs::Sonic)) {
            SCOPED_TRACE(f.fileName);
            const json db = json::parse(f.text);
            const json& ports = db.at("PORT");
            ASSERT_FALSE(ports.empty());
            const json& pgMap = db.at("TC_TO_PRIORITY_GROUP_MAP").at("RAILYARD");
            for (const auto& [port, fields] : ports.items()) {
                SCOPED_TRACE(port);
                // CABLE_LENGTH covers every port, with whole metres.
                ASSERT_TRUE(db.at("CABLE_LENGTH").at("AZURE").contains(port));
                EXPECT_EQ(db["CABLE_LENGTH"]["AZURE"][port].get<std::string>().back(), 'm');
                const json& qos = db.at("PORT_QOS_MAP").at(port);
                EXPECT_EQ(qos.at("dscp_to_tc_map"), "RAILYARD");
                // Every PFC priority has its lossless priority group, with a BUFFER_PG on it.
                const std::string pfc = qos.at("pfc_enable");
                EXPECT_EQ(pfc, "3,4");
                for (const char c : pfc) {
                    if (c == ',')
                        continue;
                    const std::string pg = pgMap.at(std::string(1, c));
                    EXPECT_EQ(pg, std::string(1, c));
                    EXPECT_TRUE(db.at("BUFFER_PG").contains(port + "|" + pg)) << "no BUFFER_PG for PG " << pg;
                }
                // Routed ports have an address, and a BGP neighbour when the peer is a switch.
                bool addressed = false;
                for (const auto& [key, value] : db.at("INTERFACE").items())
                    addressed = addressed || key.rfind(port + "|", 0) == 0;
                EXPECT_TRUE(addressed);
                EXPECT_EQ(fields.at("mtu"), "9000");
            }
            // The RoCE DSCP lands on the first PFC priority, CNPs on their own strict queue.
            EXPECT_EQ(db["DSCP_TO_TC_MAP"]["RAILYARD"]["26"], "3");
            EXPECT_EQ(db["DSCP_TO_TC_MAP"]["RAILYARD"]["48"], "6");
            EXPECT_EQ(db["DSCP_TO_TC_MAP"]["RAILYARD"].size(), 64U);
            EXPECT_EQ(db["DEVICE_METADATA"]["localhost"]["buffer_model"], "dynamic");
            for (const auto& [address, n] : db.at("BGP_NEIGHBOR").items())
                EXPECT_NE(n.at("asn").get<std::string>(), db["DEVICE_METADATA"]["localhost"]["bgp_asn"].get<std::string>());
        }
    }

    TEST(SwitchConfig, SonicCableLengthsAreThePlannedOnes)
    {
        const core::Plan p = plan(intentSpec());
        const auto files = configs(p, SwitchOs::Sonic);
        const json leaf = json::parse(files.front().text);
        // su1-rail0-leaf port 1 is node001/nic0: its planned cable, rounded up to whole metres.
        for (const auto& link : p.links) {
            if (p.portName(link.b) == "su1-rail0-leaf/1") {
                const int metres = static_cast<int>(std::ceil(link.lengthM - 1e-4F));
                EXPECT_EQ(leaf["CABLE_LENGTH"]["AZURE"]["Ethernet0"], std::to_string(metres) + "m");
            }
        }
    }

    TEST(SwitchConfig, LossyModeHasNoPfcAndKeepsEcn)
    {
        core::PlanSpec spec = intentSpec();
        spec.lossless.mode = "lossy";
        const core::Plan p = plan(spec);
        const auto nvue = configs(p, SwitchOs::Nvue);
        EXPECT_NE(nvue.front().text.find("nv set qos roce mode lossy\n"), std::string::npos);
        EXPECT_EQ(nvue.front().text.find("qos pfc"), std::string::npos);
        EXPECT_NE(nvue.front().text.find("traffic-class 3 ecn enable"), std::string::npos);
        const json db = json::parse(configs(p, SwitchOs::Sonic).front().text);
        for (const auto& [port, qos] : db.at("PORT_QOS_MAP").items())
            EXPECT_FALSE(qos.contains("pfc_enable")) << port;
        EXPECT_FALSE(db.contains("PFC_WD"));
        EXPECT_TRUE(db.contains("WRED_PROFILE"));
    }

    TEST(SwitchConfig, RailSubnetsPutTheNicPortsInTheLeafVlan)
    {
        core::PlanSpec spec = intentSpec();
        spec.addressing.scheme = "rail_subnets";
        const core::Plan p = plan(spec);
        const auto nvue = configs(p, SwitchOs::Nvue);
        const std::string& leaf = nvue.front().text;
        EXPECT_NE(leaf.find("nv set interface swp1s0 bridge domain br_default access 100\n"), std::string::npos);
        EXPECT_NE(leaf.find("nv set interface vlan100 ip address 10.0.0.1/29\n"), std::string::npos);
        const json db = json::parse(configs(p, SwitchOs::Sonic).front().text);
        EXPECT_TRUE(db.at("VLAN_MEMBER").contains("Vlan100|Ethernet0"));
        EXPECT_TRUE(db.at("VLAN_INTERFACE").contains("Vlan100|10.0.0.1/29"));
        EXPECT_FALSE(db.at("INTERFACE").contains("Ethernet0"));
    }

    TEST(SwitchConfig, InterfaceNames)
    {
        const core::Plan p = plan(intentSpec());
        // sn5600 at 400G: two logical ports per 800G cage, four lanes each.
        const core::PortRef port5 { static_cast<std::uint32_t>(p.summary.nodes), 5, 0 };
        EXPECT_EQ(planner::switchInterfaceName(p, port5, SwitchOs::Nvue), "swp3s0");
        EXPECT_EQ(planner::switchInterfaceName(p, port5, SwitchOs::Sonic), "Ethernet16");
    }

} // namespace
} // namespace railyard::test
