// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The plan-versus-fabric comparison on hand-built inventories: a clean fabric gives no finding,
// and each fault gives its own finding, at the right node and rail, with the fix in words.
#include "live/client/live_check.h"

#include "core/plan_spec.h"
#include "live/common/inventory_json.h"
#include "planner/planner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>

#include <unistd.h>

namespace railyard::live {
namespace {

    struct Fixture {
        core::Catalog catalog;
        core::Plan plan;
    };

    Fixture makeFixture(const std::string& specText, const std::string& extraCatalog = {})
    {
        core::Result<core::Catalog> catalog = core::Catalog::builtin();
        EXPECT_TRUE(catalog);
        if (!extraCatalog.empty()) {
            const core::Status added = catalog->addJson(extraCatalog, "test-catalog.json");
            EXPECT_TRUE(added) << added.error().toString();
        }
        core::Result<core::PlanSpec> spec = core::parsePlanSpecText(specText, "test.plan.json");
        EXPECT_TRUE(spec) << spec.error().toString();
        core::Result<core::Plan> plan = planner::makePlan(*spec, *catalog);
        EXPECT_TRUE(plan) << plan.error().toString();
        return { std::move(catalog).value(), std::move(plan).value() };
    }

    const Fixture& ibFabric()
    {
        static const Fixture f = makeFixture(
            R"({ "fabric": "infiniband", "nodes": 4, "node_type": "dgx-h100", "link": { "generation": "NDR", "width": 4 } })");
        return f;
    }

    const Fixture& roceFabric()
    {
        static const Fixture f = makeFixture(R"({ "fabric": "rocev2", "nodes": 4, "node_type": "hgx-8gpu-400g",
            "link": { "speed_gbps": 400 },
            "lossless": { "mode": "lossless", "pfc_priority": 3, "ecn": true, "dcqcn": true, "trust": "dscp", "mtu": 4096 } })");
        return f;
    }

    std::vector<std::string> planNodes(const core::Plan& plan)
    {
        std::vector<std::string> out;
        for (const core::Device& d : plan.devices) {
            if (d.kind == core::DeviceKind::Node)
                out.push_back(d.name);
        }
        return out;
    }

    /// Sets a port's `state` and `phys_state` as the kernel reports them (number and name).
    void setState(RdmaPort& p, int state, const std::string& stateName, int physState, const std::string& physStateName)
    {
        p.state = state;
        p.stateName = stateName;
        p.physState = physState;
        p.physStateName = physStateName;
    }

    /// What a healthy node of the plan reports.
    Inventory cleanInventory(const Fixture& f, const std::string& node)
    {
        const bool ib = f.plan.spec.fabric == core::Fabric::InfiniBand;
        const std::vector<std::string> railMap = railMapOf(f.plan, f.catalog);
        Inventory inv;
        inv.node = node;
        inv.hostname = node;
        inv.nodeType = f.plan.spec.nodeType;
        for (std::size_t k = 0; k < railMap.size(); ++k) {
            RdmaDevice d;
            d.name = railMap[k];
            d.rail = static_cast<int>(k);
            d.hcaType = "MT4129";
            d.fwVersion = "28.39.1002";
            d.netdev = ib ? "ibp" + std::to_string(k) + "s0" : "eth" + std::to_string(k);
            d.pciAddress = "0000:" + std::to_string(10 + k) + ":00.0";
            d.mtu = ib ? 2044 : 9000;
            d.pcie = { 32, 32, 16, 16 };
            RdmaPort p;
            p.number = 1;
            p.linkLayer = ib ? LinkLayer::InfiniBand : LinkLayer::Ethernet;
            setState(p, 4, "ACTIVE", 5, "LinkUp");
            p.rateText = ib ? "400 Gb/sec (4X NDR)" : "400 Gb/sec (4X)";
            p.rateGbps = 400;
            p.width = 4;
            p.generation = ib ? "NDR" : "";
            d.ports.push_back(p);
            if (!ib) {
                d.qos.pfcKnown = true;
                d.qos.pfcEnabled[3] = true;
                d.qos.trust = "dscp";
                d.qos.ecnNp.fill(Tri::Off);
                d.qos.ecnRp.fill(Tri::Off);
                d.qos.ecnNp[3] = Tri::On;
                d.qos.ecnRp[3] = Tri::On;
            }
            inv.devices.push_back(d);

            Gpu g;
            g.index = static_cast<int>(k);
            g.pciAddress = "0000:" + std::to_string(30 + k) + ":00.0";
            g.pcie = { 2.5, 32, 16, 16 }; // idle GPUs lower their PCIe speed: not a finding
            g.closestNic = d.name;
            g.pathToNic = "PIX";
            g.acsOnPath = Tri::Off;
            inv.gpus.push_back(g);
        }
        // A non-rail NIC (storage/management) with other firmware: not part of the checks.
        RdmaDevice storage;
        storage.name = "mlx5_bond_0";
        storage.hcaType = "MT4125";
        storage.fwVersion = "22.36.1010";
        storage.ports.push_back({});
        inv.devices.push_back(storage);
        inv.gpuDirect.peermem = Tri::On;
        inv.gpuDirect.dmabuf = Tri::Off;
        return inv;
    }

    std::vector<NodeObservation> cleanFabric(const Fixture& f)
    {
        std::vector<NodeObservation> out;
        for (const std::string& node : planNodes(f.plan))
            out.push_back({ node, "http://127.0.0.1:1/" + node, cleanInventory(f, node), std::nullopt });
        return out;
    }

    Inventory& inventoryOf(std::vector<NodeObservation>& observed, const std::string& node)
    {
        for (NodeObservation& o : observed) {
            if (o.node == node)
                return *o.inventory;
        }
        throw std::runtime_error("no node " + node);
    }

    RdmaDevice& nic(Inventory& inv, const std::string& name)
    {
        for (RdmaDevice& d : inv.devices) {
            if (d.name == name)
                return d;
        }
        throw std::runtime_error("no device " + name);
    }

    std::string dump(const LiveCheckReport& r)
    {
        std::string out;
        for (const core::Finding& f : r.findings)
            out += std::string(core::toString(f.severity)) + " " + f.code + " " + f.where + ": " + f.message + "\n";
        return out;
    }

    /// The only finding of the report (ignoring none); fails when there is not exactly one.
    const core::Finding& only(const LiveCheckReport& r)
    {
        EXPECT_EQ(r.findings.size(), 1u) << dump(r);
        if (r.findings.empty())
            throw std::runtime_error("no finding");
        return r.findings.front();
    }

    std::string cableOf(const core::Plan& plan, const std::string& nodePort)
    {
        for (const core::Link& l : plan.links) {
            if (plan.portName(l.a) == nodePort)
                return plan.portName(l.b) + " <-> " + nodePort;
        }
        return "?";
    }

} // namespace

TEST(LiveCheck, CleanInfiniBandFabricHasNoFindings)
{
    const Fixture& f = ibFabric();
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, cleanFabric(f));
    EXPECT_TRUE(r.findings.empty()) << dump(r);
    EXPECT_TRUE(r.complete);
    ASSERT_EQ(r.nodes.size(), 4u);
    EXPECT_TRUE(r.nodes[0].reachable);
    EXPECT_EQ(r.nodes[0].devices.size(), 9u);
    EXPECT_EQ(r.nodes[0].devices[3].rail, 3);
    EXPECT_EQ(r.nodes[0].devices[3].device, "mlx5_5");
    EXPECT_EQ(r.nodes[0].devices[8].rail, -1);
}

TEST(LiveCheck, CleanRoceFabricHasNoFindings)
{
    const Fixture& f = roceFabric();
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, cleanFabric(f));
    EXPECT_TRUE(r.findings.empty()) << dump(r);
    EXPECT_TRUE(r.complete);
}

TEST(LiveCheck, UnreachableNodeIsReportedAndTheOthersAreStillChecked)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    observed[1].inventory.reset();
    observed[1].error = core::Error { agent_error::kTimedOut, "timed out: no complete answer within the deadline of 5000 ms",
        "http://10.0.0.2:9473/v1/inventory", "" };
    observed.erase(observed.begin() + 2); // node003 not listed at all
    nic(inventoryOf(observed, "node004"), "mlx5_5").ports[0].width = 2;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    EXPECT_FALSE(r.complete);
    ASSERT_EQ(r.findings.size(), 3u) << dump(r);
    EXPECT_EQ(r.findings[0].code, "NODE_UNREACHABLE");
    EXPECT_EQ(r.findings[0].where, "node002");
    EXPECT_NE(r.findings[0].message.find("5000 ms"), std::string::npos);
    EXPECT_EQ(r.findings[1].code, "NODE_UNREACHABLE");
    EXPECT_EQ(r.findings[1].where, "node003");
    EXPECT_NE(r.findings[1].message.find("agents.json"), std::string::npos);
    EXPECT_EQ(r.findings[2].code, "LINK_DEGRADED");
    EXPECT_EQ(r.findings[2].where, "node004/nic3");
    EXPECT_FALSE(r.nodes[1].reachable);
    EXPECT_FALSE(r.nodes[1].error.empty());
}

TEST(LiveCheck, RefusedTokenAndBadAgent)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    observed[0].inventory.reset();
    observed[0].error = core::Error { agent_error::kTokenRefused, "token refused: check --token-file (HTTP 401 Unauthorized)", "u", "" };
    observed[1].inventory.reset();
    observed[1].error = core::Error { "INVENTORY_VERSION", "api_version 9 is newer than this client's 1", "u", "" };
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    EXPECT_FALSE(r.complete);
    ASSERT_EQ(r.findings.size(), 2u) << dump(r);
    EXPECT_EQ(r.findings[0].code, "TOKEN_REFUSED");
    EXPECT_NE(r.findings[0].message.find("check --token-file"), std::string::npos);
    EXPECT_EQ(r.findings[1].code, "AGENT_ERROR");
}

TEST(LiveCheck, UnplannedAndMisnamedNodes)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    observed.push_back({ "node099", "http://x:1", cleanInventory(f, "node099"), std::nullopt });
    inventoryOf(observed, "node002").node = "node003";
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    EXPECT_TRUE(r.complete);
    ASSERT_EQ(r.findings.size(), 2u) << dump(r);
    EXPECT_EQ(r.findings[0].code, "NODE_NAME_MISMATCH");
    EXPECT_EQ(r.findings[0].where, "node002");
    EXPECT_EQ(r.findings[1].code, "UNPLANNED_NODE");
    EXPECT_EQ(r.findings[1].where, "node099");
    EXPECT_FALSE(r.nodes.back().planned);
}

TEST(LiveCheck, RailNicMissing)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    Inventory& inv = inventoryOf(observed, "node002");
    std::erase_if(inv.devices, [](const RdmaDevice& d) { return d.name == "mlx5_5"; });
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    // The GPU's closest NIC is now a device the rail map does not know: only the missing NIC is reported.
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "RAIL_NIC_MISSING");
    EXPECT_EQ(x.severity, core::Severity::Error);
    EXPECT_EQ(x.where, "node002/nic3");
    EXPECT_NE(x.message.find("node002 rail 3: mlx5_5"), std::string::npos) << x.message;
}

TEST(LiveCheck, RailByPciAddressInTheRailMap)
{
    // A node type whose rail map gives PCI addresses (without the PCI domain), not device names.
    const Fixture f = makeFixture(R"({ "fabric": "infiniband", "nodes": 2, "node_type": "test-pci-8gpu", "link": { "generation": "NDR" } })",
        R"({ "schema": 1, "node_types": [ { "id": "test-pci-8gpu", "name": "test", "gpus": 8, "rails": 8, "nic": "connectx-7",
             "rails_per_cage": 1, "cage_form": "OSFP", "flat_top_transceivers": true,
             "rail_map": ["10:00.0", "11:00.0", "12:00.0", "13:00.0", "14:00.0", "15:00.0", "16:00.0", "17:00.0"] } ] })");
    std::vector<NodeObservation> observed = cleanFabric(f);
    for (NodeObservation& o : observed) {
        for (std::size_t k = 0; k < 8; ++k) {
            o.inventory->devices[k].name = "ibdev" + std::to_string(7 - k); // names that say nothing
            o.inventory->gpus[k].closestNic = o.inventory->devices[k].name;
        }
    }
    inventoryOf(observed, "node002").devices[6].ports[0].state = 1;
    inventoryOf(observed, "node002").devices[6].ports[0].physState = 2;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "LINK_DOWN");
    EXPECT_EQ(x.where, "node002/nic6");
    EXPECT_NE(x.message.find("(ibdev1)"), std::string::npos) << x.message;
}

TEST(LiveCheck, LinkDownDisabledAndPolling)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    setState(nic(inventoryOf(observed, "node002"), "mlx5_5").ports[0], 1, "DOWN", 3, "Disabled");
    setState(nic(inventoryOf(observed, "node003"), "mlx5_0").ports[0], 1, "DOWN", 2, "Polling");
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    ASSERT_EQ(r.findings.size(), 2u) << dump(r);
    EXPECT_EQ(r.findings[0].code, "LINK_DOWN");
    EXPECT_EQ(r.findings[0].where, "node002/nic3");
    EXPECT_NE(r.findings[0].message.find("Disabled (administratively off)"), std::string::npos) << r.findings[0].message;
    EXPECT_NE(r.findings[0].message.find(cableOf(f.plan, "node002/nic3")), std::string::npos) << r.findings[0].message;
    EXPECT_EQ(r.findings[1].where, "node003/nic0");
    EXPECT_NE(r.findings[1].message.find("Polling (no cable or no peer"), std::string::npos) << r.findings[1].message;
    EXPECT_NE(r.findings[1].message.find("plug in or replace the cable " + cableOf(f.plan, "node003/nic0")), std::string::npos)
        << r.findings[1].message;
}

TEST(LiveCheck, LinkDegradedWidthSaysWhatToDoWithWhichCable)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    RdmaPort& p = nic(inventoryOf(observed, "node002"), "mlx5_5").ports[0];
    p.rateText = "200 Gb/sec (2X NDR)";
    p.rateGbps = 200;
    p.width = 2;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "LINK_DEGRADED");
    EXPECT_EQ(x.where, "node002/nic3");
    const std::string cable = cableOf(f.plan, "node002/nic3");
    EXPECT_EQ(cable.rfind("su1-rail3-leaf/", 0), 0u) << cable;
    EXPECT_EQ(x.message.rfind("node002 rail 3 (mlx5_5): link trained at 2x NDR (200 Gb/s), planned 4x NDR (400 Gb/s): reseat or "
                              "replace the cable "
                  + cable,
                  0),
        0u)
        << x.message;
}

TEST(LiveCheck, LinkDegradedGeneration)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    RdmaPort& p = nic(inventoryOf(observed, "node004"), "mlx5_11").ports[0];
    p.rateText = "200 Gb/sec (4X HDR)";
    p.rateGbps = 200;
    p.generation = "HDR";
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "LINK_DEGRADED");
    EXPECT_EQ(x.where, "node004/nic7");
    EXPECT_NE(x.message.find("trained at 4x HDR (200 Gb/s), planned 4x NDR (400 Gb/s)"), std::string::npos) << x.message;
    EXPECT_NE(x.message.find("support NDR"), std::string::npos) << x.message;
}

TEST(LiveCheck, RoceRateBelowPlan)
{
    const Fixture& f = roceFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    RdmaPort& p = nic(inventoryOf(observed, "node001"), "mlx5_2").ports[0];
    p.rateText = "200 Gb/sec (4X)";
    p.rateGbps = 200;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "LINK_DEGRADED");
    EXPECT_EQ(x.where, "node001/nic2");
    EXPECT_NE(x.message.find("runs at 200 Gb/s, planned 400 Gb/s"), std::string::npos) << x.message;
}

TEST(LiveCheck, PortInInitMeansNoSubnetManager)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    RdmaPort& p = nic(inventoryOf(observed, "node001"), "mlx5_0").ports[0];
    p.state = 2;
    p.stateName = "INIT";
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "NO_SUBNET_MANAGER");
    EXPECT_EQ(x.where, "node001/nic0");
    EXPECT_NE(x.message.find("OpenSM"), std::string::npos);
}

TEST(LiveCheck, LinkLayerMismatch)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    nic(inventoryOf(observed, "node001"), "mlx5_3").ports[0].linkLayer = LinkLayer::Ethernet;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "LINK_LAYER_MISMATCH");
    EXPECT_EQ(x.where, "node001/nic1");
    EXPECT_NE(x.message.find("LINK_TYPE_P1=1"), std::string::npos) << x.message;
}

TEST(LiveCheck, FirmwareMismatchNamesTheMajorityAndTheOddNodes)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    nic(inventoryOf(observed, "node003"), "mlx5_9").fwVersion = "28.38.1000";
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "FIRMWARE_MISMATCH");
    EXPECT_EQ(x.severity, core::Severity::Warning);
    EXPECT_EQ(x.where, "node003/nic5");
    EXPECT_NE(x.message.find("firmware 28.38.1000, while 31 of 32 MT4129 NICs run 28.39.1002"), std::string::npos) << x.message;
    EXPECT_NE(x.message.find("odd nodes: node003"), std::string::npos) << x.message;
}

TEST(LiveCheck, GpuNicAffinity)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    Gpu& g = inventoryOf(observed, "node002").gpus[3];
    g.closestNic = "mlx5_4";
    g.pathToNic = "PXB";
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "GPU_NIC_AFFINITY");
    EXPECT_EQ(x.where, "node002/nic3");
    EXPECT_NE(x.message.find("its closest NIC is mlx5_4 (path PXB), but rail 3 is mlx5_5"), std::string::npos) << x.message;
}

TEST(LiveCheck, GpuMissing)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    inventoryOf(observed, "node001").gpus.pop_back();
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "GPU_MISSING");
    EXPECT_EQ(x.where, "node001/nic7");
}

TEST(LiveCheck, NoGpuDirectAndUnknownGpuDirect)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    inventoryOf(observed, "node002").gpuDirect = { Tri::Off, Tri::Off };
    inventoryOf(observed, "node003").gpuDirect = { Tri::Unknown, Tri::Off };
    inventoryOf(observed, "node004").gpuDirect = { Tri::Off, Tri::On }; // dma-buf is enough
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    ASSERT_EQ(r.findings.size(), 2u) << dump(r);
    EXPECT_EQ(r.findings[0].code, "NO_GPUDIRECT");
    EXPECT_EQ(r.findings[0].severity, core::Severity::Error);
    EXPECT_EQ(r.findings[0].where, "node002");
    EXPECT_NE(r.findings[0].message.find("modprobe nvidia-peermem"), std::string::npos);
    EXPECT_EQ(r.findings[1].code, "CANNOT_VERIFY");
    EXPECT_EQ(r.findings[1].severity, core::Severity::Info);
    EXPECT_EQ(r.findings[1].where, "node003");
    EXPECT_FALSE(r.hasErrors() && r.count(core::Severity::Error) != 1);
}

TEST(LiveCheck, PcieDegradedNicAndGpuWidth)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    nic(inventoryOf(observed, "node001"), "mlx5_6").pcie = { 16, 32, 16, 16 };
    inventoryOf(observed, "node002").gpus[2].pcie = { 32, 32, 8, 16 };
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    ASSERT_EQ(r.findings.size(), 2u) << dump(r);
    EXPECT_EQ(r.findings[0].code, "PCIE_DEGRADED");
    EXPECT_EQ(r.findings[0].where, "node001/nic4");
    EXPECT_NE(r.findings[0].message.find("PCIe link at 16 GT/s x16, the device supports 32 GT/s x16"), std::string::npos)
        << r.findings[0].message;
    EXPECT_EQ(r.findings[1].code, "PCIE_DEGRADED");
    EXPECT_EQ(r.findings[1].where, "node002/nic2");
    EXPECT_NE(r.findings[1].message.find("GPU 2"), std::string::npos);
}

TEST(LiveCheck, AcsEnabledAndUnknown)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    inventoryOf(observed, "node001").gpus[5].acsOnPath = Tri::On;
    for (Gpu& g : inventoryOf(observed, "node002").gpus)
        g.acsOnPath = Tri::Unknown;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    ASSERT_EQ(r.findings.size(), 2u) << dump(r);
    EXPECT_EQ(r.findings[0].code, "ACS_ENABLED");
    EXPECT_EQ(r.findings[0].where, "node001/nic5");
    EXPECT_EQ(r.findings[1].code, "CANNOT_VERIFY");
    EXPECT_EQ(r.findings[1].where, "node002");
    EXPECT_NE(r.findings[1].message.find("ACS"), std::string::npos);
}

TEST(LiveCheck, RoceMtu)
{
    const Fixture& f = roceFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    nic(inventoryOf(observed, "node001"), "mlx5_1").mtu = 1500;
    nic(inventoryOf(observed, "node002"), "mlx5_1").mtu = 4200; // enough for RDMA MTU 4096
    nic(inventoryOf(observed, "node003"), "mlx5_1").mtu = 4150; // 4096 + 96 does not fit
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    ASSERT_EQ(r.findings.size(), 2u) << dump(r);
    EXPECT_EQ(r.findings[0].code, "MTU_TOO_SMALL");
    EXPECT_EQ(r.findings[0].where, "node001/nic1");
    EXPECT_NE(r.findings[0].message.find("RDMA MTU of 1024, planned 4096"), std::string::npos) << r.findings[0].message;
    EXPECT_NE(r.findings[0].message.find("4192 or more"), std::string::npos);
    EXPECT_EQ(r.findings[1].where, "node003/nic1");
    EXPECT_NE(r.findings[1].message.find("RDMA MTU of 2048"), std::string::npos) << r.findings[1].message;
}

TEST(LiveCheck, InfiniBandNetdevMtuIsNotAFinding)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    nic(inventoryOf(observed, "node001"), "mlx5_0").mtu = 1500;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    EXPECT_TRUE(r.findings.empty()) << dump(r);
    EXPECT_EQ(r.nodes[0].devices[0].mtu, 1500);
}

TEST(LiveCheck, PfcMissingAndExtra)
{
    const Fixture& f = roceFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    for (RdmaDevice& d : inventoryOf(observed, "node003").devices)
        d.qos.pfcEnabled[3] = false;
    nic(inventoryOf(observed, "node004"), "mlx5_6").qos.pfcEnabled[0] = true;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    ASSERT_EQ(r.findings.size(), 9u) << dump(r);
    for (int k = 0; k < 8; ++k) {
        EXPECT_EQ(r.findings[static_cast<std::size_t>(k)].code, "PFC_MISSING");
        EXPECT_EQ(r.findings[static_cast<std::size_t>(k)].where, "node003/nic" + std::to_string(k));
    }
    EXPECT_NE(r.findings[0].message.find("PFC is off on priority 3"), std::string::npos) << r.findings[0].message;
    EXPECT_NE(r.findings[0].message.find("`mlnx_qos -i eth0 --pfc 0,0,0,1,0,0,0,0` or `dcb pfc set dev eth0 prio-pfc all:off 3:on` "
                                         "(and the same on its switch port)"),
        std::string::npos)
        << r.findings[0].message;
    EXPECT_EQ(r.findings[8].code, "PFC_EXTRA_PRIORITY");
    EXPECT_EQ(r.findings[8].where, "node004/nic6");
    EXPECT_NE(r.findings[8].message.find("also on priority 0"), std::string::npos);
}

TEST(LiveCheck, TrustEcnAndDcqcn)
{
    const Fixture& f = roceFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    nic(inventoryOf(observed, "node001"), "mlx5_0").qos.trust = "pcp";
    nic(inventoryOf(observed, "node002"), "mlx5_1").qos.ecnNp[3] = Tri::Off;
    nic(inventoryOf(observed, "node003"), "mlx5_2").qos.ecnRp[3] = Tri::Off;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    ASSERT_EQ(r.findings.size(), 3u) << dump(r);
    EXPECT_EQ(r.findings[0].code, "TRUST_MISMATCH");
    EXPECT_EQ(r.findings[0].where, "node001/nic0");
    EXPECT_NE(r.findings[0].message.find("--trust dscp"), std::string::npos);
    EXPECT_EQ(r.findings[1].code, "ECN_DISABLED");
    EXPECT_EQ(r.findings[1].where, "node002/nic1");
    EXPECT_NE(r.findings[1].message.find("/sys/class/net/eth1/ecn/roce_np/enable/3"), std::string::npos) << r.findings[1].message;
    EXPECT_EQ(r.findings[2].code, "DCQCN_DISABLED");
    EXPECT_EQ(r.findings[2].where, "node003/nic2");
    EXPECT_NE(r.findings[2].message.find("roce_rp/enable/3"), std::string::npos);
}

TEST(LiveCheck, UnreadableLosslessSettingsAreInfoNotErrors)
{
    const Fixture& f = roceFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    for (RdmaDevice& d : inventoryOf(observed, "node002").devices) {
        d.qos.ecnNp.fill(Tri::Unknown);
        d.qos.ecnRp.fill(Tri::Unknown);
        d.qos.pfcKnown = false;
        d.qos.trust.clear();
    }
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    ASSERT_FALSE(r.findings.empty());
    for (const core::Finding& x : r.findings) {
        EXPECT_EQ(x.code, "CANNOT_VERIFY") << dump(r);
        EXPECT_EQ(x.severity, core::Severity::Info);
        EXPECT_EQ(x.where, "node002");
    }
    EXPECT_EQ(r.findings.size(), 4u) << dump(r); // PFC, trust mode, ECN, DCQCN: one line each for the node
    EXPECT_FALSE(r.hasErrors());
}

// `dcb pfc show` (a dump's dcb-pfc-<netdev>.txt, or a host without mlnx_qos) gives PFC but no trust
// state: the hint names the tool that shows it, not the one that was read.
TEST(LiveCheck, AnUnknownTrustStateIsToldWhereToBeRead)
{
    const Fixture& f = roceFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    nic(inventoryOf(observed, "node003"), "mlx5_4").qos.trust.clear();
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "CANNOT_VERIFY");
    EXPECT_EQ(x.message,
        "node003: cannot verify trust mode (mlx5_4): the trust state was not readable (`mlnx_qos -i <netdev>` shows it; "
        "`dcb pfc show` does not); check it by hand");
}

TEST(LiveCheck, LossyModeWantsNoPfcButEcnOnTheDscpClass)
{
    Fixture f = makeFixture(R"({ "fabric": "rocev2", "nodes": 2, "node_type": "hgx-8gpu-400g", "link": { "speed_gbps": 400 },
        "lossless": { "mode": "lossy", "roce_dscp": 26 } })");
    std::vector<NodeObservation> observed = cleanFabric(f);
    for (NodeObservation& o : observed)
        for (RdmaDevice& d : o.inventory->devices)
            d.qos.pfcEnabled.fill(false);
    nic(inventoryOf(observed, "node002"), "mlx5_0").qos.pfcEnabled[3] = true;
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    const core::Finding& x = only(r);
    EXPECT_EQ(x.code, "PFC_EXTRA_PRIORITY");
    EXPECT_NE(x.message.find("mode lossy"), std::string::npos);
    EXPECT_NE(x.message.find("`mlnx_qos -i eth0 --pfc 0,0,0,0,0,0,0,0` or `dcb pfc set dev eth0 prio-pfc all:off`"), std::string::npos)
        << x.message;
}

TEST(LiveCheck, JsonShape)
{
    const Fixture& f = ibFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    observed[0].inventory.reset();
    observed[0].error = core::Error { agent_error::kUnreachable, "connection refused at 127.0.0.1:1", "u", "" };
    nic(inventoryOf(observed, "node002"), "mlx5_5").ports[0].width = 2;
    const nlohmann::json doc = toJson(checkFabric(f.plan, f.catalog, observed));
    EXPECT_EQ(doc["complete"], false);
    ASSERT_EQ(doc["nodes"].size(), 4u);
    EXPECT_EQ(doc["nodes"][0]["node"], "node001");
    EXPECT_EQ(doc["nodes"][0]["reachable"], false);
    EXPECT_TRUE(doc["nodes"][0].contains("error"));
    EXPECT_EQ(doc["nodes"][1]["devices"][3]["device"], "mlx5_5");
    EXPECT_EQ(doc["nodes"][1]["devices"][3]["rail"], 3);
    ASSERT_EQ(doc["findings"].size(), 2u);
    EXPECT_EQ(doc["findings"][1]["code"], "LINK_DEGRADED");
    EXPECT_EQ(doc["findings"][1]["severity"], "error");
    EXPECT_EQ(doc["findings"][1]["where"], "node002/nic3");
    EXPECT_EQ(doc["summary"]["nodes_planned"], 4);
    EXPECT_EQ(doc["summary"]["nodes_reachable"], 3);
    EXPECT_EQ(doc["summary"]["findings"]["error"], 2);
}

TEST(LiveCheck, InventoryFromAgentJsonRoundTrip)
{
    // The check reads what the agent's JSON carries: a clean inventory survives the round trip.
    const Fixture& f = roceFabric();
    std::vector<NodeObservation> observed = cleanFabric(f);
    for (NodeObservation& o : observed) {
        core::Result<Inventory> back = inventoryFromJson(toJson(*o.inventory), "test");
        ASSERT_TRUE(back) << back.error().toString();
        o.inventory = *back;
    }
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, observed);
    EXPECT_TRUE(r.findings.empty()) << dump(r);
}

namespace {

/// A new, empty dumps folder of its own under the temporary folder.
std::filesystem::path newDumpsDir()
{
    std::random_device rd;
    const std::filesystem::path dir
        = std::filesystem::temp_directory_path() / ("railyard-dumps-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
    std::filesystem::create_directories(dir);
    return dir;
}

const char* const kTwoNodeNdrSpec = R"({ "fabric": "infiniband", "nodes": 2, "node_type": "generic-8gpu", "link": { "generation": "NDR" } })";

} // namespace

TEST(LiveCheck, AgentlessFromRealIbstatOutput)
{
    // node001's folder holds a real `ibstat` (CX-7, NDR, three CAs, cut inside the third);
    // node002 has no folder.
    namespace fs = std::filesystem;
    const Fixture f = makeFixture(kTwoNodeNdrSpec);
    const fs::path dir = newDumpsDir();
    fs::create_directories(dir / "node001");
    {
        std::ifstream in(fs::path(RAILYARD_SHARED_FIXTURES_DIR) / "ibstat-cx7-ndr-400-ib-h20-PARTIAL.txt");
        ASSERT_TRUE(in);
        std::ofstream out(dir / "node001" / "ibstat.txt");
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("# ", 0) != 0) // the fixture's source line and the poster's prompt line
                out << line << '\n';
        }
    }
    core::Result<std::vector<NodeObservation>> observed = observeDumps(f.plan, f.catalog, dir);
    std::error_code ec;
    fs::remove_all(dir, ec);
    ASSERT_TRUE(observed) << observed.error().toString();
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, *observed);
    EXPECT_FALSE(r.complete);
    std::set<std::string> missingRails;
    for (const core::Finding& x : r.findings) {
        if (x.where.rfind("node002", 0) == 0) {
            EXPECT_EQ(x.code, "NODE_UNREACHABLE") << dump(r);
            continue;
        }
        // mlx5_0 and mlx5_1 are Active/LinkUp at 400: nothing about them.
        EXPECT_NE(x.where, "node001/nic0") << dump(r);
        EXPECT_NE(x.where, "node001/nic1") << dump(r);
        EXPECT_TRUE(x.code == "RAIL_NIC_MISSING" || x.code == "CANNOT_VERIFY") << dump(r);
        if (x.code == "RAIL_NIC_MISSING")
            missingRails.insert(x.where);
    }
    for (int k = 3; k < 8; ++k)
        EXPECT_EQ(missingRails.count("node001/nic" + std::to_string(k)), 1u) << dump(r);
    ASSERT_GE(r.nodes.size(), 2u);
    EXPECT_TRUE(r.nodes[0].reachable);
    EXPECT_EQ(r.nodes[0].devices.at(0).firmware, "28.43.2026");
    EXPECT_FALSE(r.nodes[1].reachable);
}

// Found by fuzz/fuzz_dumps (fuzz/regressions/fuzz_dumps/file-name-not-utf8): folder and file names
// are bytes, and one that is not UTF-8 (a Latin-1 name) went into the report's node names and
// warnings as it was: `live check --dumps --json` ended in "error: internal" (nlohmann
// type_error 316). They are named with U+FFFD for each such byte; the folder is still read.
TEST(LiveCheck, AgentlessNamesThatAreNotUtf8StillPrint)
{
    namespace fs = std::filesystem;
    const Fixture f = makeFixture(kTwoNodeNdrSpec);
    const fs::path dir = newDumpsDir();
    fs::create_directories(dir / "node001");
    fs::create_directories(dir / "caf\xE9");
    std::ofstream(dir / "node001" / "ibstat-caf\xE9.txt") << "CA 'mlx5_0'\n";
    std::ofstream(dir / "caf\xE9" / "lsmod.txt") << "Module                  Size  Used by\nnvidia_peermem         16384  0\n";
    core::Result<std::vector<NodeObservation>> observed = observeDumps(f.plan, f.catalog, dir);
    std::error_code ec;
    fs::remove_all(dir, ec);
    ASSERT_TRUE(observed) << observed.error().toString();
    const LiveCheckReport r = checkFabric(f.plan, f.catalog, *observed);
    std::string printed;
    ASSERT_NO_THROW(printed = toJson(r).dump(2));
    const auto unplanned = std::find_if(r.nodes.begin(), r.nodes.end(), [](const NodeStatus& s) { return s.node == "caf\xEF\xBF\xBD"; });
    ASSERT_NE(unplanned, r.nodes.end()) << printed;
    EXPECT_TRUE(unplanned->reachable) << printed; // its folder was read, under its real name
    EXPECT_NE(printed.find("ibstat-caf\xEF\xBF\xBD.txt: not a file the dumps reader knows"), std::string::npos) << printed;
}

} // namespace railyard::live
