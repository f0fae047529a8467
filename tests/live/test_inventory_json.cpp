// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/inventory_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <limits>

using namespace railyard::live;
using nlohmann::json;

namespace {

// Every field set to something other than its default, so that a field the reader drops shows.
Inventory fullInventory()
{
    Inventory inv;
    inv.node = "node007";
    inv.hostname = "gpu-a17.example";
    inv.nodeType = "dgx-h100";
    RdmaDevice ib;
    ib.name = "mlx5_3";
    ib.rail = 1;
    ib.hcaType = "MT4129";
    ib.fwVersion = "28.39.1002";
    ib.boardId = "MT_0000000838";
    ib.nodeGuid = "b83f:d203:00a4:5e52";
    ib.sysImageGuid = "b83f:d203:00a4:5e50";
    ib.nodeDesc = "node007 mlx5_3";
    ib.netdev = "ibp24s0";
    ib.pciAddress = "0000:18:00.0";
    ib.numaNode = 0;
    ib.mtu = 4092;
    ib.pcie = { 32.0, 32.0, 16, 16 };
    RdmaPort p;
    p.number = 1;
    p.linkLayer = LinkLayer::InfiniBand;
    p.state = 4;
    p.stateName = "ACTIVE";
    p.physState = 5;
    p.physStateName = "LinkUp";
    p.rateText = "400 Gb/sec (4X NDR)";
    p.rateGbps = 400;
    p.width = 4;
    p.generation = "NDR";
    p.lid = 17;
    p.smLid = 1;
    p.gid0 = "fe80:0000:0000:0000:b83f:d203:00a4:5e52";
    ib.ports.push_back(p);
    inv.devices.push_back(ib);

    RdmaDevice roce;
    roce.name = "mlx5_bond_0";
    roce.hcaType = "MT41692";
    roce.netdev = "bond0";
    roce.mtu = 9000;
    RdmaPort rp;
    rp.linkLayer = LinkLayer::Ethernet;
    rp.state = 1;
    rp.stateName = "DOWN";
    rp.physState = 3;
    rp.physStateName = "Disabled";
    rp.rateText = "200 Gb/sec (2X NDR)";
    rp.rateGbps = 200;
    rp.width = 2;
    rp.rocev2GidIndex = 3;
    rp.rocev2Gid = "0000:0000:0000:0000:0000:ffff:0a00:0003";
    roce.ports.push_back(rp);
    roce.qos.pfcKnown = true;
    roce.qos.pfcEnabled[3] = true;
    roce.qos.trust = "dscp";
    roce.qos.ecnNp[3] = Tri::On;
    roce.qos.ecnNp[0] = Tri::Off;
    roce.qos.ecnRp[3] = Tri::On;
    roce.lldp.push_back({ "bond0", "su1-rail3-leaf", "swp17", "to node007", "0c:42:a1:00:00:01" });
    inv.devices.push_back(roce);

    Gpu g;
    g.index = 1;
    g.pciAddress = "0000:19:00.0";
    g.name = "H100 80GB HBM3";
    g.numaNode = 0;
    g.pcie = { 16.0, 32.0, 8, 16 };
    g.closestNic = "mlx5_3";
    g.pathToNic = "PIX";
    g.acsOnPath = Tri::Off;
    inv.gpus.push_back(g);
    inv.gpuDirect.peermem = Tri::On;
    inv.gpuDirect.dmabuf = Tri::Off;
    inv.subnetManager = SubnetManager { "0x0002c90300a1b2c3", 1, "ftree" };
    inv.warnings = { "mlx5_bond_0: ecn/roce_np not readable" };
    return inv;
}

CounterSnapshot fullCounters()
{
    CounterSnapshot s;
    s.node = "node007";
    s.timestampMs = 1767225600123;
    PortCounters pc;
    pc.device = "mlx5_3";
    pc.port = 1;
    pc.rail = 1;
    pc.netdev = "ibp24s0";
    pc.counters["port_xmit_data"] = { 230442669431839ULL, CounterKind::Words4, 64, false };
    pc.counters["symbol_error"] = { 65535, CounterKind::Saturating, 16, true };
    pc.counters["port_rcv_packets"] = { std::numeric_limits<std::uint64_t>::max(), CounterKind::Plain, 64, false };
    pc.hwCounters["np_cnp_sent"] = { 4294967295ULL, CounterKind::Wrapping32, 32, false };
    pc.ethtool["rx_prio3_pause"] = 42;
    s.ports.push_back(pc);
    return s;
}

// The document as a client gets it: through text.
json throughText(const json& doc)
{
    return json::parse(doc.dump());
}

std::string allMessages(const railyard::core::Errors& errors)
{
    std::string out;
    for (const auto& e : errors)
        out += e.toString() + "\n";
    return out;
}

} // namespace

TEST(InventoryJson, RoundTripKeepsEveryField)
{
    const Inventory inv = fullInventory();
    const json doc = toJson(inv);
    EXPECT_EQ(doc.at("api_version"), kApiVersion);
    const auto back = inventoryFromJson(throughText(doc), "test");
    ASSERT_TRUE(back) << allMessages(back.errors());
    EXPECT_EQ(toJson(*back), doc);
    EXPECT_EQ(back->devices.at(1).qos.ecnNp[3], Tri::On);
    EXPECT_EQ(back->devices.at(1).qos.ecnNp[0], Tri::Off);
    EXPECT_EQ(back->devices.at(1).qos.ecnRp[5], Tri::Unknown);
    EXPECT_EQ(back->devices.at(1).ports.at(0).rocev2GidIndex, 3);
    EXPECT_FALSE(back->devices.at(0).ports.at(0).rocev2GidIndex.has_value());
    EXPECT_EQ(back->devices.at(0).nodeGuid, "b83f:d203:00a4:5e52");
    EXPECT_EQ(back->gpus.at(0).pcie.speedGts, 16.0);
    ASSERT_TRUE(back->subnetManager.has_value());
    EXPECT_EQ(back->subnetManager->routingEngine, "ftree");
    EXPECT_EQ(back->warnings, inv.warnings);
}

TEST(InventoryJson, WritesSnakeCaseAndWords)
{
    const json doc = toJson(fullInventory());
    const json& roce = doc.at("devices").at(1);
    EXPECT_EQ(roce.at("qos").at("ecn_np").at(3), "on");
    EXPECT_EQ(roce.at("qos").at("ecn_np").at(0), "off");
    EXPECT_EQ(roce.at("qos").at("ecn_rp").at(7), "unknown");
    EXPECT_EQ(roce.at("ports").at(0).at("link_layer"), "Ethernet");
    EXPECT_EQ(roce.at("ports").at(0).at("rocev2_gid_index"), 3);
    EXPECT_EQ(doc.at("devices").at(0).at("sys_image_guid"), "b83f:d203:00a4:5e50");
    EXPECT_TRUE(doc.at("devices").at(0).at("ports").at(0).at("rocev2_gid_index").is_null());
    EXPECT_EQ(doc.at("gpu_direct").at("peermem"), "on");
    EXPECT_EQ(doc.at("gpu_direct").at("possible"), true);
    EXPECT_EQ(doc.at("gpus").at(0).at("acs_on_path"), "off");
    Inventory bare;
    EXPECT_TRUE(toJson(bare).at("subnet_manager").is_null());
    const auto back = inventoryFromJson(throughText(toJson(bare)), "test");
    ASSERT_TRUE(back) << allMessages(back.errors());
    EXPECT_FALSE(back->subnetManager.has_value());
}

TEST(InventoryJson, CountersRoundTripWithKindsAndFullWidth)
{
    const CounterSnapshot s = fullCounters();
    const json doc = toJson(s);
    const json& c = doc.at("ports").at(0).at("counters").at("port_xmit_data");
    EXPECT_EQ(c.at("value"), 230442669431839ULL);
    EXPECT_EQ(c.at("kind"), "words4");
    EXPECT_EQ(c.at("width"), 64);
    EXPECT_EQ(c.at("saturated"), false);
    EXPECT_EQ(doc.at("ports").at(0).at("counters").at("symbol_error").at("kind"), "saturating");
    EXPECT_EQ(doc.at("ports").at(0).at("hw_counters").at("np_cnp_sent").at("kind"), "wrapping32");
    const auto back = countersFromJson(throughText(doc), "test");
    ASSERT_TRUE(back) << allMessages(back.errors());
    EXPECT_EQ(toJson(*back), doc);
    const PortCounters& p = back->ports.at(0);
    EXPECT_EQ(p.counters.at("port_rcv_packets").value, std::numeric_limits<std::uint64_t>::max());
    EXPECT_TRUE(p.counters.at("symbol_error").saturated);
    EXPECT_EQ(p.counters.at("symbol_error").widthBits, 16);
    EXPECT_EQ(p.hwCounters.at("np_cnp_sent").kind, CounterKind::Wrapping32);
    EXPECT_EQ(p.ethtool.at("rx_prio3_pause"), 42u);
    EXPECT_EQ(back->timestampMs, 1767225600123);
}

TEST(InventoryJson, RefusesNewerApiVersionNamingBoth)
{
    json doc = toJson(fullInventory());
    doc["api_version"] = kApiVersion + 1;
    const auto r = inventoryFromJson(doc, "http://127.0.0.1:9473/v1/inventory");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "AGENT_API_VERSION");
    EXPECT_NE(r.error().message.find(std::to_string(kApiVersion + 1)), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find(std::to_string(kApiVersion)), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().where, "http://127.0.0.1:9473/v1/inventory");
    EXPECT_FALSE(r.error().hint.empty());

    json counters = toJson(fullCounters());
    counters["api_version"] = 99;
    const auto c = countersFromJson(counters, "agent node007");
    ASSERT_FALSE(c);
    EXPECT_NE(c.error().message.find("99"), std::string::npos);
    EXPECT_EQ(c.error().where, "agent node007");
}

TEST(InventoryJson, AcceptsOlderAndRefusesMissingVersion)
{
    json doc = toJson(fullInventory());
    doc["api_version"] = kApiVersion - 1;
    EXPECT_TRUE(inventoryFromJson(doc, "test"));
    doc.erase("api_version");
    const auto r = inventoryFromJson(doc, "test");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("api_version"), std::string::npos);
    doc["api_version"] = "1";
    EXPECT_FALSE(inventoryFromJson(doc, "test"));
    EXPECT_FALSE(inventoryFromJson(json::array(), "test"));
}

TEST(InventoryJson, NamesMissingAndMistypedFieldsByPath)
{
    json doc = throughText(toJson(fullInventory()));
    doc["devices"][0]["ports"][0].erase("state");
    doc["devices"][1]["node_guid"] = 5;
    doc["devices"][1]["qos"]["ecn_np"][2] = "maybe";
    doc["gpus"][0]["acs_on_path"] = true;
    doc["devices"][1]["qos"]["pfc_enabled"] = json::array({ true, false });
    const auto r = inventoryFromJson(doc, "http://x/v1/inventory");
    ASSERT_FALSE(r);
    const std::string all = allMessages(r.errors());
    EXPECT_NE(all.find("devices[0].ports[0].state: missing"), std::string::npos) << all;
    EXPECT_NE(all.find("devices[1].node_guid: expected a string, got number"), std::string::npos) << all;
    EXPECT_NE(all.find("devices[1].qos.ecn_np[2]: expected one of \"on\", \"off\", \"unknown\", got \"maybe\""),
        std::string::npos)
        << all;
    EXPECT_NE(all.find("gpus[0].acs_on_path"), std::string::npos) << all;
    EXPECT_NE(all.find("devices[1].qos.pfc_enabled: expected 8 entries"), std::string::npos) << all;
    EXPECT_EQ(r.errors().size(), 5u) << all;
    for (const auto& e : r.errors())
        EXPECT_EQ(e.where, "http://x/v1/inventory");
}

TEST(InventoryJson, CounterErrorsByPath)
{
    json doc = throughText(toJson(fullCounters()));
    doc["ports"][0]["counters"]["port_xmit_data"]["kind"] = "bytes";
    doc["ports"][0]["counters"]["symbol_error"]["value"] = -1;
    doc["ports"][0]["hw_counters"]["np_cnp_sent"]["width"] = 65;
    doc["ports"][0]["ethtool"]["rx_prio3_pause"] = "42";
    doc.erase("timestamp_ms");
    const auto r = countersFromJson(doc, "test");
    ASSERT_FALSE(r);
    const std::string all = allMessages(r.errors());
    EXPECT_NE(all.find("ports[0].counters.port_xmit_data.kind: expected one of"), std::string::npos) << all;
    EXPECT_NE(all.find("ports[0].counters.symbol_error.value: expected a non-negative integer, got -1"),
        std::string::npos)
        << all;
    EXPECT_NE(all.find("ports[0].hw_counters.np_cnp_sent.width: expected 1 to 64 bits, got 65"), std::string::npos) << all;
    EXPECT_NE(all.find("ports[0].ethtool.rx_prio3_pause: expected a non-negative integer, got string"),
        std::string::npos)
        << all;
    EXPECT_NE(all.find("timestamp_ms: missing"), std::string::npos) << all;
}

TEST(InventoryJson, HealthRoundTrip)
{
    AgentHealth h;
    h.node = "node007";
    h.uptimeSeconds = 3600;
    const json doc = toJson(h);
    EXPECT_EQ(doc.at("status"), "ok");
    EXPECT_EQ(doc.at("api_version"), kApiVersion);
    const auto back = healthFromJson(throughText(doc), "test");
    ASSERT_TRUE(back) << allMessages(back.errors());
    EXPECT_EQ(back->node, "node007");
    EXPECT_EQ(back->uptimeSeconds, 3600);
}

TEST(InventoryJson, WordsForEnums)
{
    EXPECT_EQ(toString(Tri::Unknown), "unknown");
    EXPECT_EQ(toString(LinkLayer::InfiniBand), "InfiniBand");
    EXPECT_EQ(toString(CounterKind::Saturating), "saturating");
}
