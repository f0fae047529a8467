// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Faults injected into a running emulation (FabricEmulator::injectFault, the Live workspace's
// fault menu): each kind changes the files the agents read and the traffic of the next updates,
// as the same fault given at start would; a swap and an injection before the tree are refused.
#include "live/common/tool_parsers.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"

#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>

using namespace railyard;
using namespace railyard::live;
using namespace railyard::simtest;

namespace {

struct Running {
    TempDir dir { "inject", TempDir::Place::PreferRam };
    std::unique_ptr<FabricEmulator> sim;

    explicit Running(const PlannedFabric& fabric)
    {
        EmulatorOptions options;
        options.root = dir.path();
        auto created = FabricEmulator::create(fabric.plan, fabric.catalog, {}, options);
        EXPECT_TRUE(created) << (created ? "" : created.error().toString());
        if (!created)
            return;
        sim = std::move(*created);
        const auto s = sim->writeTree();
        EXPECT_TRUE(s) << (s ? "" : s.error().toString());
        const auto u = sim->update(1.0);
        EXPECT_TRUE(u) << (u ? "" : u.error().toString());
    }
    fs::path sys(const std::string& node) const { return dir.path() / node / "sys"; }
    fs::path port(const std::string& node, const std::string& device) const { return sys(node) / "class/infiniband" / device / "ports/1"; }
    /// port_xmit_data words sent over one second of traffic.
    std::uint64_t wordsPerSecond(const fs::path& port) const
    {
        const auto before = number(port / "counters/port_xmit_data");
        EXPECT_TRUE(sim->update(1.0));
        return number(port / "counters/port_xmit_data") - before;
    }
};

Fault faultOf(const PlannedFabric& fabric, const std::string& json)
{
    auto parsed = parseFaults("[" + json + "]", "fault menu", fabric.plan);
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.error().toString());
    return parsed && !parsed->empty() ? parsed->front() : Fault {};
}

} // namespace

TEST(SimInject, DegradedLinkTrainsLowerAndCarriesLess)
{
    const auto fabric = planOf(kIbSpec);
    Running r(fabric);
    ASSERT_TRUE(r.sim);
    const fs::path port = r.port("node003", r.sim->nodes()[2].railMap[2]);
    const fs::path other = r.port("node004", r.sim->nodes()[3].railMap[2]);
    EXPECT_EQ(firstLine(port / "rate"), "400 Gb/sec (4X NDR)");
    const auto before = r.wordsPerSecond(port);
    ASSERT_GT(before, 0u);

    const auto s = r.sim->injectFault(faultOf(fabric, R"({ "kind": "degraded", "node": "node003", "rail": 2, "width": 2 })"));
    ASSERT_TRUE(s) << s.error().toString();
    EXPECT_EQ(firstLine(port / "rate"), "200 Gb/sec (2X NDR)");
    EXPECT_EQ(firstLine(port / "state"), "4: ACTIVE");
    const auto after = r.wordsPerSecond(port);
    // 200 Gb/s at most, where the planned link carried 92 % of 400.
    EXPECT_LE(static_cast<double>(after), 200e9 / 8 / 4 * 1.001);
    EXPECT_LT(static_cast<double>(after), 0.6 * static_cast<double>(before));
    EXPECT_EQ(firstLine(other / "rate"), "400 Gb/sec (4X NDR)");
    EXPECT_GT(r.wordsPerSecond(other), static_cast<std::uint64_t>(0.9 * static_cast<double>(before)));
}

TEST(SimInject, LinkDownAndUnpluggedStopTheirPort)
{
    const auto fabric = planOf(kIbSpec);
    Running r(fabric);
    ASSERT_TRUE(r.sim);
    ASSERT_TRUE(r.sim->injectFault(faultOf(fabric, R"({ "kind": "link_down", "node": "node001", "rail": 0 })")));
    ASSERT_TRUE(r.sim->injectFault(faultOf(fabric, R"({ "kind": "unplugged", "node": "node002", "rail": 5 })")));
    const fs::path down = r.port("node001", "mlx5_0");
    EXPECT_EQ(firstLine(down / "state"), "1: DOWN");
    EXPECT_EQ(firstLine(down / "phys_state"), "3: Disabled");
    EXPECT_EQ(firstLine(down / "lid"), "0xffff");
    const fs::path unplugged = r.port("node002", r.sim->nodes()[1].railMap[5]);
    EXPECT_EQ(firstLine(unplugged / "state"), "1: DOWN");
    EXPECT_EQ(firstLine(unplugged / "phys_state"), "2: Polling");
    EXPECT_EQ(r.wordsPerSecond(down), 0u);
    EXPECT_EQ(r.wordsPerSecond(unplugged), 0u);
    EXPECT_GT(r.wordsPerSecond(r.port("node001", r.sim->nodes()[0].railMap[1])), 0u);
    // The cabled plan loses the unplugged link (what discovery would no longer see).
    bool installed = true;
    for (const auto& l : r.sim->cabledPlan().links)
        if (l.tier == core::LinkTier::NodeLeaf && fabric.plan.devices[l.a.device].name == "node002" && l.a.port == 5)
            installed = l.installed;
    EXPECT_FALSE(installed);
}

TEST(SimInject, CongestedLeafWaitsFromTheNextUpdate)
{
    const auto fabric = planOf(kIbSpec);
    Running r(fabric);
    ASSERT_TRUE(r.sim);
    const fs::path congested = r.port("node001", "mlx5_0"); // su1-rail0-leaf
    const fs::path busy = r.port("node005", "mlx5_0");      // su2-rail0-leaf
    EXPECT_TRUE(r.sim->update(1.0));
    EXPECT_EQ(number(congested / "counters/port_xmit_wait"), 0u);
    ASSERT_TRUE(r.sim->injectFault(faultOf(fabric, R"({ "kind": "congested", "switch": "su1-rail0-leaf", "uplinks": 2, "factor": 0.5 })")));
    EXPECT_TRUE(r.sim->update(1.0));
    EXPECT_GT(number(congested / "counters/port_xmit_wait"), 0u);
    EXPECT_EQ(number(busy / "counters/port_xmit_wait"), 0u);
}

TEST(SimInject, NodeSettingsOnRoce)
{
    const auto fabric = planOf(kRoceSpec);
    Running r(fabric);
    ASSERT_TRUE(r.sim);
    const std::string netdev = firstLine(r.port("node001", "mlx5_0") / "gid_attrs/ndevs/0");
    const fs::path ecn = r.sys("node003") / "class/net" / netdev / "ecn";
    EXPECT_EQ(firstLine(ecn / "roce_np/enable/3"), "1");
    ASSERT_TRUE(r.sim->injectFault(faultOf(fabric, R"({ "kind": "no_ecn", "node": "node003" })")));
    EXPECT_EQ(firstLine(ecn / "roce_np/enable/3"), "0");
    EXPECT_EQ(firstLine(ecn / "roce_rp/enable/3"), "0");

    const fs::path qosFile = r.dir.path() / "node002/sim/qos" / (netdev + ".mlnx_qos");
    auto qos = parseMlnxQos(readText(qosFile));
    ASSERT_TRUE(qos);
    EXPECT_TRUE(qos->pfcEnabled[3]);
    ASSERT_TRUE(r.sim->injectFault(faultOf(fabric, R"({ "kind": "no_pfc", "node": "node002" })")));
    qos = parseMlnxQos(readText(qosFile));
    ASSERT_TRUE(qos);
    for (bool on : qos->pfcEnabled)
        EXPECT_FALSE(on);

    EXPECT_TRUE(fs::exists(r.sys("node004") / "module/nvidia_peermem/initstate"));
    ASSERT_TRUE(r.sim->injectFault(faultOf(fabric, R"({ "kind": "no_gpudirect", "node": "node004" })")));
    EXPECT_FALSE(fs::exists(r.sys("node004") / "module/nvidia_peermem"));
    EXPECT_NE(readText(r.dir.path() / "node004/sim/gpu.json").find("\"dmabuf\": \"off\""), std::string::npos);

    // An unplugged RoCE port loses its LLDP neighbour; the other rails keep theirs.
    ASSERT_TRUE(r.sim->injectFault(faultOf(fabric, R"({ "kind": "unplugged", "node": "node001", "rail": 0 })")));
    const auto lldp = parseLldpctlKeyvalue(readText(r.dir.path() / "node001/sim/lldp.keyvalue"));
    ASSERT_TRUE(lldp);
    bool rail0 = false, rail1 = false;
    for (const auto& n : *lldp) {
        rail0 = rail0 || n.localInterface == netdev;
        rail1 = rail1 || n.systemName == "su1-rail1-leaf";
    }
    EXPECT_FALSE(rail0);
    EXPECT_TRUE(rail1);
    EXPECT_EQ(firstLine(r.sys("node001") / "class/net" / netdev / "operstate"), "down");
}

TEST(SimInject, SwapAndInjectionBeforeTheTreeAreRefused)
{
    const auto fabric = planOf(kIbSpec);
    Running r(fabric);
    ASSERT_TRUE(r.sim);
    const auto swap = r.sim->injectFault(
        faultOf(fabric, R"({ "kind": "swap", "a": { "node": "node004", "rail": 1 }, "b": { "node": "node004", "rail": 2 } })"));
    ASSERT_FALSE(swap);
    EXPECT_NE(swap.error().toString().find("faults file"), std::string::npos) << swap.error().toString();

    TempDir other("inject", TempDir::Place::PreferRam);
    EmulatorOptions options;
    options.root = other.path();
    auto unwritten = FabricEmulator::create(fabric.plan, fabric.catalog, {}, options);
    ASSERT_TRUE(unwritten);
    const auto early = (*unwritten)->injectFault(faultOf(fabric, R"({ "kind": "link_down", "node": "node001", "rail": 0 })"));
    ASSERT_FALSE(early);
    EXPECT_EQ(early.error().code, "SIM_STATE");
}
