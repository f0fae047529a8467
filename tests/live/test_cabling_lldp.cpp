// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// RoCEv2 cabling from the agents' LLDP neighbours: hand-built inventories of the first nodes of
// the built-in lossless example, as agents report them (also through the inventory JSON).
#include "live/client/cabling.h"

#include "core/examples.h"
#include "live/common/inventory_json.h"
#include "planner/planner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace railyard;
using namespace railyard::live;

namespace {

struct RoceFixture {
    core::Catalog catalog;
    core::Plan plan;
};

RoceFixture roce()
{
    RoceFixture f;
    f.catalog = *core::Catalog::builtin();
    const auto example = core::findExample("roce-lossless-demo");
    auto spec = core::parsePlanSpecText(example->content, example->path);
    f.plan = *planner::makePlan(*spec, f.catalog);
    return f;
}

/// What node `name`'s agent reports: one device per rail (rail map names), each with the LLDP
/// neighbour the plan cables it to, its port as Cumulus names it ("swp<N>").
Inventory inventoryOf(const core::Plan& plan, const std::string& name, bool systemNames = true)
{
    Inventory inv;
    inv.node = name;
    inv.hostname = name + ".cluster";
    for (const auto& link : plan.links) {
        if (link.tier != core::LinkTier::NodeLeaf || plan.devices[link.a.device].name != name)
            continue;
        RdmaDevice dev;
        dev.name = "mlx5_" + std::to_string(link.a.port);
        dev.rail = link.a.port;
        dev.pciAddress = "0000:" + std::to_string(0x10 + link.a.port) + ":00.0";
        LldpNeighbor nb;
        nb.localInterface = "eth" + std::to_string(link.a.port);
        nb.systemName = systemNames ? plan.devices[link.b.device].name : "sonic-" + std::to_string(link.b.device * 7 % 101);
        nb.portId = "swp" + std::to_string(link.b.port);
        dev.lldp.push_back(nb);
        inv.devices.push_back(dev);
    }
    return inv;
}

std::string codes(const CablingReport& r)
{
    std::string out;
    for (const auto& f : r.findings)
        out += f.code + " @ " + f.where + ": " + f.message + "\n";
    return out;
}

LldpNeighbor& neighbour(Inventory& inv, int rail)
{
    for (auto& d : inv.devices)
        if (d.rail == rail)
            return d.lldp.at(0);
    throw std::runtime_error("no rail");
}

} // namespace

TEST(CablingLldp, CleanNodesMatch)
{
    const auto fx = roce();
    std::vector<Inventory> inventories;
    for (const char* n : { "node001", "node002", "node003", "node004" })
        inventories.push_back(inventoryOf(fx.plan, n));
    // Through the agent's JSON document and back, as `live cabling --agents` reads it.
    for (auto& inv : inventories) {
        auto back = inventoryFromJson(toJson(inv), "test");
        ASSERT_TRUE(back.ok()) << back.error().toString();
        inv = *back;
    }
    const auto report = checkLldpCabling(fx.plan, fx.catalog, inventories);
    EXPECT_TRUE(report.findings.empty()) << codes(report);
    EXPECT_EQ(report.planned, 32);
    EXPECT_EQ(report.matched, 32);
    const IdentityEntry* nic = report.identity.byName("node002/nic3");
    ASSERT_NE(nic, nullptr);
    EXPECT_EQ(nic->hostname, "node002.cluster");
    EXPECT_EQ(nic->device, "mlx5_3");
    EXPECT_EQ(nic->pciAddress, "0000:19:00.0");
    EXPECT_EQ(nic->lldpSystemName, "su1-rail3-leaf");
    EXPECT_EQ(nic->lldpPort, "swp2");
    EXPECT_EQ(nic->how, "agent");
}

TEST(CablingLldp, SwapUnplugAndBreakoutNames)
{
    const auto fx = roce();
    std::vector<Inventory> inventories;
    for (const char* n : { "node001", "node002", "node003", "node004", "node010" })
        inventories.push_back(inventoryOf(fx.plan, n, false)); // switches send names the plan does not know
    // node004: NICs 1 and 2 swapped.
    std::swap(neighbour(inventories[3], 1), neighbour(inventories[3], 2));
    // node010: NIC 5 unplugged (no neighbour).
    for (auto& d : inventories[4].devices)
        if (d.rail == 5)
            d.lldp.clear();
    // node002 rail 0 reported with the breakout name of the same port (sn5600 at 400G: 2 per cage).
    neighbour(inventories[1], 0).portId = "swp1s1";
    const auto report = checkLldpCabling(fx.plan, fx.catalog, inventories);
    ASSERT_EQ(report.findings.size(), 3u) << codes(report);
    EXPECT_EQ(report.findings[0],
        (core::Finding { core::Severity::Error, "CABLE_MISSING",
            "node010/nic5 <-> su1-rail5-leaf/10 not found: check the cable and both ports", "node010/nic5" }));
    EXPECT_EQ(report.findings[1].code, "CABLE_MISWIRED");
    EXPECT_EQ(report.findings[1].where, "su1-rail1-leaf/4");
    EXPECT_NE(report.findings[1].message.find("move the cable at su1-rail1-leaf/4 (now to node004/nic2) to node004/nic1"),
        std::string::npos)
        << report.findings[1].message;
    EXPECT_EQ(report.findings[2].where, "su1-rail2-leaf/4");
    EXPECT_NE(report.findings[2].message.find("move the cable at su1-rail2-leaf/4 (now to node004/nic1) to node004/nic2"),
        std::string::npos);
    for (const auto& s : report.switches) {
        EXPECT_FALSE(s.name.empty()) << s.description;
        EXPECT_EQ(s.how, "hosts");
    }
    EXPECT_EQ(report.switches.size(), 8u);
}

TEST(CablingLldp, UnknownNodesAreReported)
{
    const auto fx = roce();
    Inventory stranger = inventoryOf(fx.plan, "node001");
    stranger.node = "gpu-a17";
    stranger.hostname = "gpu-a17";
    const auto report = checkLldpCabling(fx.plan, fx.catalog, { stranger });
    ASSERT_EQ(report.findings.size(), 1u) << codes(report);
    EXPECT_EQ(report.findings[0].code, "LLDP_NO_NODES");
}
