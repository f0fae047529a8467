// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The emulator's library: the faults file, the node trees (files and values for each fault
// kind), the counters and their units, fabric.ibnet with cabling faults, agents.json.
#include "live/common/tool_parsers.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "planner/exporters.h"

#include "tests/live/test_sim_support.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

using namespace railyard;
using namespace railyard::live;
using namespace railyard::simtest;

namespace {

core::Errors faultErrors(const core::Plan& plan, const std::string& text)
{
    auto parsed = parseFaults(text, "faults.json", plan);
    EXPECT_FALSE(parsed) << "accepted: " << text;
    return parsed ? core::Errors {} : parsed.errors();
}

bool anyError(const core::Errors& errors, const std::string& whereHas, const std::string& messageHas)
{
    for (const auto& e : errors)
        if (e.where.find(whereHas) != std::string::npos && e.toString().find(messageHas) != std::string::npos)
            return true;
    return false;
}

std::string dump(const core::Errors& errors)
{
    std::string out;
    for (const auto& e : errors)
        out += e.toString() + "\n";
    return out;
}

/// An emulator with its tree written into a scratch folder.
struct Emulated {
    TempDir dir;
    std::unique_ptr<FabricEmulator> sim;

    Emulated(const PlannedFabric& fabric, const std::string& faultsText, TrafficKind traffic = TrafficKind::AllReduce)
    {
        auto faults = parseFaults(faultsText, "faults.json", fabric.plan);
        EXPECT_TRUE(faults) << (faults ? "" : dump(faults.errors()));
        EmulatorOptions options;
        options.root = dir.path();
        options.traffic = traffic;
        auto created = FabricEmulator::create(fabric.plan, fabric.catalog, faults ? *faults : std::vector<Fault> {}, options);
        EXPECT_TRUE(created) << (created ? "" : dump(created.errors()));
        if (created) {
            sim = std::move(*created);
            const auto s = sim->writeTree();
            EXPECT_TRUE(s) << (s ? "" : dump(s.errors()));
        }
    }
    fs::path sys(const std::string& node) const { return dir.path() / node / "sys"; }
    fs::path port(const std::string& node, const std::string& device) const
    {
        return sys(node) / "class/infiniband" / device / "ports/1";
    }
};

/// The adapter block of `description` in an ibnetdiscover text: the line after its Ca line.
std::string adapterLink(const std::string& ibnet, const std::string& description)
{
    const auto at = ibnet.find("# \"" + description + "\"\n");
    if (at == std::string::npos)
        return {};
    const auto begin = ibnet.find('\n', at) + 1;
    return ibnet.substr(begin, ibnet.find('\n', begin) - begin);
}

} // namespace

TEST(SimFaults, EveryKindParses)
{
    const auto ib = planOf(kIbSpec);
    const auto parsed = parseFaults(R"([
        { "kind": "link_down", "node": "node007", "rail": 3 },
        { "kind": "degraded", "node": "node007", "rail": 4, "width": 2 },
        { "kind": "degraded", "node": "node006", "rail": 3, "generation": "HDR" },
        { "kind": "swap", "a": { "node": "node004", "rail": 1 }, "b": { "node": "node004", "rail": 2 } },
        { "kind": "unplugged", "node": "node002", "rail": 5 },
        { "kind": "congested", "switch": "su1-rail2-leaf", "uplinks": 2, "factor": 0.5 },
        { "kind": "no_gpudirect", "node": "node008" } ])",
        "faults.json", ib.plan);
    ASSERT_TRUE(parsed) << dump(parsed.errors());
    ASSERT_EQ(parsed->size(), 7u);
    EXPECT_EQ((*parsed)[0].kind, FaultKind::LinkDown);
    EXPECT_EQ((*parsed)[0].nic.node, "node007");
    EXPECT_EQ((*parsed)[0].nic.rail, 3);
    EXPECT_EQ((*parsed)[1].width, 2);
    EXPECT_EQ((*parsed)[2].generation, core::IbGeneration::HDR);
    EXPECT_EQ((*parsed)[3].other.rail, 2);
    EXPECT_EQ((*parsed)[5].switchName, "su1-rail2-leaf");
    EXPECT_EQ((*parsed)[5].uplinks, 2);
    EXPECT_DOUBLE_EQ((*parsed)[5].factor, 0.5);
    EXPECT_EQ((*parsed)[6].index, 6);

    const auto roce = planOf(kRoceSpec);
    const auto r = parseFaults(R"([ { "kind": "no_pfc", "node": "node003" }, { "kind": "no_ecn", "node": "node003" },
        { "kind": "degraded", "node": "node001", "rail": 0, "width": 2 } ])",
        "faults.json", roce.plan);
    ASSERT_TRUE(r) << dump(r.errors());
    EXPECT_EQ(r->size(), 3u);
    EXPECT_TRUE(parseFaults("[]", "faults.json", ib.plan));
}

TEST(SimFaults, ErrorsNameEntryFieldAndRange)
{
    const auto ib = planOf(kIbSpec);
    auto e = faultErrors(ib.plan, R"([ { "kind": "link_down", "node": "node001", "rail": 0 },
                                       { "kind": "link_down", "node": "node099", "rail": 3 } ])");
    EXPECT_TRUE(anyError(e, "faults.json: entry 1, field node", "node001 ... node008")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "unplugged", "node": "node001", "rail": 8 } ])");
    EXPECT_TRUE(anyError(e, "entry 0, field rail", "rails are 0 to 7")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "flapping", "node": "node001" } ])");
    EXPECT_TRUE(anyError(e, "entry 0, field kind", "link_down")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "degraded", "node": "node001", "rail": 0, "width": 4 } ])");
    EXPECT_TRUE(anyError(e, "field width", "not lower")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "degraded", "node": "node001", "rail": 0, "generation": "ABC" } ])");
    EXPECT_TRUE(anyError(e, "field generation", "unknown InfiniBand generation")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "congested", "switch": "spine1", "uplinks": 1, "factor": 0.5 } ])");
    EXPECT_TRUE(anyError(e, "field switch", "su1-rail0-leaf ... su2-rail7-leaf")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "congested", "switch": "su1-rail0-leaf", "uplinks": 999, "factor": 1.5 } ])");
    EXPECT_TRUE(anyError(e, "field uplinks", "must be from 1 to")) << dump(e);
    EXPECT_TRUE(anyError(e, "field factor", "below 1")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "no_pfc", "node": "node001" } ])");
    EXPECT_TRUE(anyError(e, "entry 0, field kind", "RoCEv2")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "link_down", "node": "node001", "rail": 0 },
                                   { "kind": "swap", "a": { "node": "node001", "rail": 0 }, "b": { "node": "node002", "rail": 0 } } ])");
    EXPECT_TRUE(anyError(e, "entry 1, field a", "already has a link fault (entry 0)")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "swap", "a": { "node": "node001", "rail": 0 }, "b": { "node": "node001" } } ])");
    EXPECT_TRUE(anyError(e, "entry 0, field b.rail", "missing")) << dump(e);

    e = faultErrors(ib.plan, R"([ { "kind": "link_down", "node": "node001", "rail": 0, "port": 2 } ])");
    EXPECT_TRUE(anyError(e, "entry 0, field port", "unknown field")) << dump(e);

    e = faultErrors(ib.plan, R"({ "kind": "link_down" })");
    EXPECT_TRUE(anyError(e, "faults.json", "JSON list")) << dump(e);
    e = faultErrors(ib.plan, "[ { \"kind\": ");
    EXPECT_TRUE(anyError(e, "faults.json", "not valid JSON")) << dump(e);
    // fuzz_results_faults: a number past a double's range threw nlohmann's out_of_range (not a parse_error).
    e = faultErrors(ib.plan, "1e3081[[");
    EXPECT_TRUE(anyError(e, "faults.json", "not valid JSON")) << dump(e);
    e = faultErrors(ib.plan, R"([ { "kind": "link_down", "node": "node001", "rail": -1e400 } ])");
    EXPECT_TRUE(anyError(e, "faults.json", "number overflow")) << dump(e);

    const auto roce = planOf(kRoceSpec);
    e = faultErrors(roce.plan, R"([ { "kind": "degraded", "node": "node001", "rail": 0, "generation": "HDR" } ])");
    EXPECT_TRUE(anyError(e, "field generation", "InfiniBand only")) << dump(e);
}

TEST(SimTree, CleanInfiniBandNode)
{
    const auto fabric = planOf(kIbSpec);
    Emulated e(fabric, "[]");
    ASSERT_TRUE(e.sim);
    ASSERT_EQ(e.sim->nodes().size(), 8u);
    const auto& node = e.sim->nodes()[0];
    EXPECT_EQ(node.name, "node001");
    ASSERT_EQ(node.railMap.size(), 8u);
    EXPECT_EQ(node.railMap[1], "mlx5_3"); // DGX H100: rail 1 is mlx5_3
    EXPECT_EQ(node.sysRoot, e.sys("node001"));

    const fs::path dev = e.sys("node001") / "class/infiniband/mlx5_3";
    EXPECT_TRUE(fs::is_symlink(dev));
    EXPECT_EQ(firstLine(dev / "hca_type"), "MT4129");
    EXPECT_EQ(firstLine(dev / "node_desc"), "node001 mlx5_3");
    EXPECT_EQ(firstLine(dev / "node_type"), "1: CA");
    const std::string guid = firstLine(dev / "node_guid");
    EXPECT_EQ(guid.size(), 19u);
    EXPECT_EQ(guid[4], ':');
    const fs::path port = dev / "ports/1";
    EXPECT_EQ(firstLine(port / "state"), "4: ACTIVE");
    EXPECT_EQ(firstLine(port / "phys_state"), "5: LinkUp");
    EXPECT_EQ(firstLine(port / "rate"), "400 Gb/sec (4X NDR)");
    EXPECT_EQ(firstLine(port / "link_layer"), "InfiniBand");
    EXPECT_EQ(firstLine(port / "sm_lid"), "0x1");
    EXPECT_EQ(firstLine(port / "gids/0").substr(0, 20), "fe80:0000:0000:0000:");
    EXPECT_TRUE(fs::exists(port / "counters/symbol_error"));
    EXPECT_TRUE(fs::exists(port / "hw_counters/rx_write_requests"));

    // LIDs distinct across the fabric.
    std::set<std::string> lids;
    for (const auto& n : e.sim->nodes())
        for (const auto& d : n.railMap)
            lids.insert(firstLine(e.port(n.name, d) / "lid"));
    EXPECT_EQ(lids.size(), 64u);

    // The PCI function, its netdev, GPUs under the same switch, modules.
    const fs::path pci = fs::canonical(dev / "device");
    EXPECT_EQ(firstLine(pci / "vendor"), "0x15b3");
    EXPECT_EQ(firstLine(pci / "class"), "0x020700");
    EXPECT_EQ(firstLine(pci / "current_link_speed"), "32.0 GT/s PCIe");
    EXPECT_EQ(firstLine(pci / "max_link_width"), "16");
    EXPECT_EQ(fs::file_size(pci / "config"), 4096u);
    std::vector<fs::path> netdevs;
    for (const auto& entry : fs::directory_iterator(pci / "net"))
        netdevs.push_back(entry.path().filename());
    ASSERT_EQ(netdevs.size(), 1u);
    EXPECT_EQ(fs::canonical(e.sys("node001") / "class/net" / netdevs[0]), fs::canonical(pci / "net" / netdevs[0]));
    EXPECT_EQ(firstLine(pci / "net" / netdevs[0] / "mtu"), "4092");
    EXPECT_EQ(fs::canonical(e.sys("node001") / "bus/pci/devices" / pci.filename()), pci);
    int gpus = 0;
    for (const auto& entry : fs::directory_iterator(e.sys("node001") / "bus/pci/devices")) {
        if (firstLine(entry.path() / "vendor") != "0x10de")
            continue;
        ++gpus;
        EXPECT_EQ(firstLine(entry.path() / "class"), "0x030200");
    }
    EXPECT_EQ(gpus, 8);
    // GPU 1 sits under the same PCIe switch as NIC 1 (rail 1).
    const fs::path sw = pci.parent_path().parent_path();
    bool gpuUnderSwitch = false;
    for (const auto& entry : fs::recursive_directory_iterator(sw))
        if (entry.path().filename() == "vendor" && firstLine(entry.path()) == "0x10de")
            gpuUnderSwitch = true;
    EXPECT_TRUE(gpuUnderSwitch);
    EXPECT_TRUE(fs::exists(e.sys("node001") / "module/nvidia"));
    EXPECT_TRUE(fs::exists(e.sys("node001") / "module/nvidia_peermem"));
    const auto gpu = nlohmann::json::parse(readText(e.dir.path() / "node001/sim/gpu.json"));
    EXPECT_EQ(gpu["dmabuf"], "on");
    EXPECT_EQ(gpu["models"].size(), 8u);

    // Non-rail devices of the rail map's gaps exist (mlx5_1, 2, 7, 8 on a DGX H100).
    EXPECT_TRUE(fs::exists(e.sys("node001") / "class/infiniband/mlx5_1"));
    EXPECT_FALSE(fs::exists(e.sys("node001") / "class/infiniband/mlx5_12"));
    // IB: no LLDP stand-in, no temp files left in the node's folders.
    EXPECT_FALSE(fs::exists(e.dir.path() / "node001/sim/lldp.keyvalue"));
    for (const auto& entry : fs::recursive_directory_iterator(e.dir.path() / "node001"))
        EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
}

TEST(SimTree, InfiniBandFaultsShowWhereHardwareShowsThem)
{
    const auto fabric = planOf(kIbSpec);
    Emulated e(fabric, R"([
        { "kind": "link_down", "node": "node002", "rail": 1 },
        { "kind": "unplugged", "node": "node003", "rail": 2 },
        { "kind": "degraded", "node": "node006", "rail": 0, "width": 2 },
        { "kind": "degraded", "node": "node006", "rail": 3, "generation": "HDR" },
        { "kind": "swap", "a": { "node": "node004", "rail": 0 }, "b": { "node": "node005", "rail": 0 } },
        { "kind": "no_gpudirect", "node": "node007" } ])");
    ASSERT_TRUE(e.sim);
    EXPECT_EQ(firstLine(e.port("node002", "mlx5_3") / "state"), "1: DOWN");
    EXPECT_EQ(firstLine(e.port("node002", "mlx5_3") / "phys_state"), "3: Disabled");
    EXPECT_EQ(firstLine(e.port("node003", "mlx5_4") / "state"), "1: DOWN");
    EXPECT_EQ(firstLine(e.port("node003", "mlx5_4") / "phys_state"), "2: Polling");
    EXPECT_EQ(firstLine(e.port("node006", "mlx5_0") / "state"), "4: ACTIVE");
    EXPECT_EQ(firstLine(e.port("node006", "mlx5_0") / "rate"), "200 Gb/sec (2X NDR)");
    EXPECT_EQ(firstLine(e.port("node006", "mlx5_5") / "rate"), "200 Gb/sec (4X HDR)");
    EXPECT_EQ(firstLine(e.port("node004", "mlx5_0") / "state"), "4: ACTIVE");
    EXPECT_EQ(firstLine(e.port("node005", "mlx5_0") / "state"), "4: ACTIVE");
    EXPECT_FALSE(fs::exists(e.sys("node007") / "module/nvidia_peermem"));
    EXPECT_TRUE(fs::exists(e.sys("node007") / "module/nvidia"));
    EXPECT_EQ(nlohmann::json::parse(readText(e.dir.path() / "node007/sim/gpu.json"))["dmabuf"], "off");

    // fabric.ibnet: the unplugged NIC is absent, the swapped NICs sit at each other's leaf.
    ASSERT_EQ(e.sim->ibnetPath(), e.dir.path() / "fabric.ibnet");
    const std::string ibnet = readText(e.sim->ibnetPath());
    EXPECT_EQ(ibnet.find("\"node003/nic2\""), std::string::npos);
    EXPECT_NE(ibnet.find("\"node002/nic1\""), std::string::npos) << "a port that is down still has its cable";
    EXPECT_NE(adapterLink(ibnet, "node004/nic0").find("\"su2-rail0-leaf\""), std::string::npos) << adapterLink(ibnet, "node004/nic0");
    EXPECT_NE(adapterLink(ibnet, "node005/nic0").find("\"su1-rail0-leaf\""), std::string::npos) << adapterLink(ibnet, "node005/nic0");

    // The plan puts them on their own leaves.
    std::ostringstream plannedText;
    planner::writeIbnetdiscover(fabric.plan, plannedText, 1);
    const std::string planned = plannedText.str();
    EXPECT_NE(adapterLink(planned, "node004/nic0").find("\"su1-rail0-leaf\""), std::string::npos);
    EXPECT_NE(planned.find("\"node003/nic2\""), std::string::npos);
}

TEST(SimCounters, AdvanceWithTheirUnits)
{
    const auto fabric = planOf(kIbSpec);
    const auto uplinks = uplinksOf(fabric.plan, [&] {
        for (std::uint32_t i = 0; i < fabric.plan.devices.size(); ++i)
            if (fabric.plan.devices[i].name == "su1-rail0-leaf")
                return i;
        return 0u;
    }());
    ASSERT_GE(uplinks.size(), 2u);
    Emulated e(fabric, R"([ { "kind": "congested", "switch": "su1-rail0-leaf", "uplinks": 2, "factor": 0.5 },
                             { "kind": "link_down", "node": "node008", "rail": 0 } ])");
    ASSERT_TRUE(e.sim);
    const fs::path busy = e.port("node005", "mlx5_0");      // su2-rail0-leaf: not congested
    const fs::path congested = e.port("node001", "mlx5_0"); // su1-rail0-leaf
    const fs::path down = e.port("node008", "mlx5_0");
    const auto before = number(busy / "counters/port_xmit_data");
    const auto beforePackets = number(busy / "counters/port_xmit_packets");
    const auto beforeWrites = number(busy / "hw_counters/rx_write_requests");
    const auto beforeCongested = number(congested / "counters/port_xmit_data");
    const auto beforeDown = number(down / "counters/port_xmit_data");
    EXPECT_EQ(number(congested / "counters/port_xmit_wait"), 0u);
    ASSERT_TRUE(e.sim->update(1.0));

    // All-reduce at 92 % of 400 Gb/s on a 1:1 fabric: 46e9 bytes, 11.5e9 four-byte words, plus
    // a few MADs.
    const double words = static_cast<double>(number(busy / "counters/port_xmit_data") - before);
    EXPECT_NEAR(words, 400e9 * 0.92 / 8 / 4, 1000);
    const double packets = static_cast<double>(number(busy / "counters/port_xmit_packets") - beforePackets);
    EXPECT_NEAR(packets, 400e9 * 0.92 / 8 / 4096, 10);
    // rx_write_requests starts near its 32-bit limit and wraps.
    const auto writes = number(busy / "hw_counters/rx_write_requests");
    EXPECT_LE(writes, 0xffffffffULL);
    EXPECT_EQ((writes - beforeWrites) & 0xffffffffULL, static_cast<std::uint64_t>(std::floor(400e9 * 0.92 / 8 / 65536)));

    // The congested leaf's nodes send less and wait.
    const double capacity = (static_cast<double>(uplinks.size()) - 2 + 2 * 0.5) / static_cast<double>(uplinks.size());
    EXPECT_NEAR(static_cast<double>(number(congested / "counters/port_xmit_data") - beforeCongested), words * capacity, 1000);
    EXPECT_GT(number(congested / "counters/port_xmit_wait"), 0u);
    EXPECT_EQ(number(busy / "counters/port_xmit_wait"), 0u);
    EXPECT_EQ(number(down / "counters/port_xmit_data"), beforeDown);

    // Idle: management traffic only.
    Emulated idle(fabric, "[]", TrafficKind::Idle);
    const fs::path quiet = idle.port("node001", "mlx5_0");
    const auto q0 = number(quiet / "counters/port_xmit_data");
    ASSERT_TRUE(idle.sim->update(1.0));
    const auto q1 = number(quiet / "counters/port_xmit_data");
    EXPECT_GT(q1, q0);
    EXPECT_LT(q1 - q0, 1000u);
}

TEST(SimTree, RoceNodesAndTheirFaults)
{
    const auto fabric = planOf(kRoceSpec);
    Emulated e(fabric, R"([
        { "kind": "no_pfc", "node": "node002" },
        { "kind": "no_ecn", "node": "node003" },
        { "kind": "unplugged", "node": "node004", "rail": 1 },
        { "kind": "swap", "a": { "node": "node001", "rail": 2 }, "b": { "node": "node005", "rail": 2 } },
        { "kind": "congested", "switch": "su2-rail0-leaf", "uplinks": 1, "factor": 0.0 } ])");
    ASSERT_TRUE(e.sim);
    EXPECT_TRUE(e.sim->ibnetPath().empty());
    EXPECT_FALSE(fs::exists(e.dir.path() / "fabric.ibnet"));
    const fs::path port = e.port("node001", "mlx5_0");
    EXPECT_EQ(firstLine(port / "link_layer"), "Ethernet");
    EXPECT_EQ(firstLine(port / "rate"), "400 Gb/sec (4X NDR)");
    EXPECT_EQ(firstLine(port / "gid_attrs/types/3"), "RoCE v2");
    const std::string netdev = firstLine(port / "gid_attrs/ndevs/0");
    EXPECT_EQ(netdev, "enp19s0np0");
    const fs::path net = e.sys("node001") / "class/net" / netdev;
    EXPECT_EQ(firstLine(net / "mtu"), "9000");
    EXPECT_EQ(firstLine(net / "ecn/roce_np/enable/3"), "1");
    EXPECT_EQ(firstLine(net / "ecn/roce_rp/enable/3"), "1");
    EXPECT_EQ(firstLine(e.sys("node003") / "class/net" / netdev / "ecn/roce_np/enable/3"), "0");
    EXPECT_EQ(firstLine(e.sys("node003") / "class/net" / netdev / "ecn/roce_rp/enable/3"), "0");

    // mlnx_qos, read with the agentless parser.
    const auto qos = parseMlnxQos(readText(e.dir.path() / "node001/sim/qos" / (netdev + ".mlnx_qos")));
    ASSERT_TRUE(qos);
    EXPECT_EQ(qos->trust, "dscp");
    EXPECT_TRUE(qos->pfcEnabled[3]);
    EXPECT_FALSE(qos->pfcEnabled[0]);
    const auto off = parseMlnxQos(readText(e.dir.path() / "node002/sim/qos" / (netdev + ".mlnx_qos")));
    ASSERT_TRUE(off);
    EXPECT_TRUE(off->pfcKnown);
    for (bool on : off->pfcEnabled)
        EXPECT_FALSE(on);

    // LLDP: the planned leaf and port, swapped ones exchanged, the unplugged one absent.
    const auto lldp = parseLldpctlKeyvalue(readText(e.dir.path() / "node001/sim/lldp.keyvalue"));
    ASSERT_TRUE(lldp);
    std::map<std::string, LldpNeighbor> byIf;
    for (const auto& n : *lldp)
        byIf[n.localInterface] = n;
    ASSERT_TRUE(byIf.contains("enp19s0np0"));
    EXPECT_EQ(byIf["enp19s0np0"].systemName, "su1-rail0-leaf");
    EXPECT_EQ(byIf["enp19s0np0"].portId.rfind("swp", 0), 0u);
    ASSERT_TRUE(byIf.contains("enp51s0np0")); // rail 2
    EXPECT_EQ(byIf["enp51s0np0"].systemName, "su2-rail2-leaf");
    const auto lldp4 = parseLldpctlKeyvalue(readText(e.dir.path() / "node004/sim/lldp.keyvalue"));
    ASSERT_TRUE(lldp4);
    EXPECT_EQ(lldp4->size(), 7u);
    for (const auto& n : *lldp4)
        EXPECT_NE(n.localInterface, "enp35s0np0");

    // Congestion on su2-rail0-leaf: ECN marks, CNPs and PFC pauses on node005 rail 0; none on node001.
    const fs::path hot = e.port("node005", "mlx5_0");
    ASSERT_TRUE(e.sim->update(1.0));
    ASSERT_TRUE(e.sim->update(1.0));
    EXPECT_GT(number(hot / "hw_counters/np_ecn_marked_roce_packets"), 0u);
    EXPECT_GT(number(hot / "hw_counters/np_cnp_sent"), 0u);
    EXPECT_GT(number(hot / "hw_counters/rp_cnp_handled"), 0u);
    EXPECT_EQ(number(port / "hw_counters/np_ecn_marked_roce_packets"), 0u);
    const auto stats = parseEthtoolStats(readText(e.dir.path() / "node005/sim/ethtool" / (netdev + ".txt")));
    ASSERT_TRUE(stats);
    EXPECT_GT(stats->at("rx_prio3_pause"), 0u);
    EXPECT_GT(stats->at("rx_prio3_pause_duration"), 0u);
    EXPECT_GT(stats->at("rx_prio3_bytes"), 0u);
    const auto calm = parseEthtoolStats(readText(e.dir.path() / "node001/sim/ethtool" / (netdev + ".txt")));
    ASSERT_TRUE(calm);
    EXPECT_EQ(calm->at("rx_prio3_pause"), 0u);
    const auto noPfc = parseEthtoolStats(readText(e.dir.path() / "node002/sim/ethtool" / (netdev + ".txt")));
    ASSERT_TRUE(noPfc);
    EXPECT_FALSE(noPfc->contains("rx_prio3_pause")) << "mlx5 lists pause counters only for priorities with PFC on";
}

TEST(SimTree, RateTextsAsTheKernelPrintsThem)
{
    EXPECT_EQ(sysfsRateText(*core::ibRate(core::IbGeneration::NDR, 4)), "400 Gb/sec (4X NDR)");
    EXPECT_EQ(sysfsRateText(*core::ibRate(core::IbGeneration::FDR, 4)), "56 Gb/sec (4X FDR)");
    EXPECT_EQ(sysfsRateText(*core::ibRate(core::IbGeneration::SDR, 1)), "2.5 Gb/sec (1X SDR)");
    EXPECT_EQ(sysfsRateText(*core::ethernetRate(200, 4)), "200 Gb/sec (4X HDR)");
    EXPECT_EQ(sysfsRateText(*core::ethernetRate(400, 4)), "400 Gb/sec (4X NDR)");
    EXPECT_EQ(sysfsGuid(0xb83fd20300a45e52ULL), "b83f:d203:00a4:5e52");
}

TEST(SimAgentsFile, ListsEveryAgentWithItsToken)
{
    TempDir dir;
    ASSERT_TRUE(writeAgentsJson(dir.path() / "agents.json", "token",
        { { "node001", "http://127.0.0.1:40001" }, { "node002", "http://127.0.0.1:40002" } }));
    const auto doc = nlohmann::json::parse(readText(dir.path() / "agents.json"));
    EXPECT_EQ(doc["token_file"], "token");
    ASSERT_EQ(doc["agents"].size(), 2u);
    EXPECT_EQ(doc["agents"][1]["node"], "node002");
    EXPECT_EQ(doc["agents"][1]["url"], "http://127.0.0.1:40002");
}
