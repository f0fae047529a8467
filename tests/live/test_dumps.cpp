// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The agentless inventory (`live check --dumps`) on dumps folders laid out in a temporary folder
// from the real outputs in ../shared/fixtures. The fixtures come from different hosts, so each
// node folder is a composition; where a file had to be written by hand (an ibdev2netdev mapping
// tying a real ibstat to a real lldpctl, an lsmod), the test says so.
#include "live/client/dumps.h"
#include "live/common/inventory_json.h"
#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <unistd.h>

using namespace railyard::live;
using namespace railyard::live::test;
namespace fs = std::filesystem;

namespace {

class Dumps : public ::testing::Test {
protected:
    void SetUp() override
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_dir = fs::temp_directory_path() / ("railyard-dumps-" + std::to_string(::getpid()) + "-" + info->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    fs::path node(const std::string& name)
    {
        fs::create_directories(m_dir / name);
        return m_dir / name;
    }
    static void write(const fs::path& file, const std::string& text)
    {
        std::ofstream out(file, std::ios::binary);
        out << text;
    }
    static void copy(const std::string& fixture, const fs::path& file) { write(file, sharedFixture(fixture)); }

    fs::path m_dir;
};

const Gpu* gpu(const Inventory& inv, int index)
{
    for (const auto& g : inv.gpus)
        if (g.index == index)
            return &g;
    return nullptr;
}

const RdmaDevice* device(const Inventory& inv, const std::string& name)
{
    for (const auto& d : inv.devices)
        if (d.name == name)
            return &d;
    return nullptr;
}

} // namespace

TEST_F(Dumps, NodesAreSortedFoldersAndErrorsNameTheFolder)
{
    node("node010");
    node("node002");
    node(".git");
    write(m_dir / "README", "not a node");
    const auto nodes = dumpNodes(m_dir);
    ASSERT_TRUE(nodes) << nodes.error().message;
    EXPECT_EQ(*nodes, (std::vector<std::string> { "node002", "node010" }));

    const auto missing = dumpNodes(m_dir / "nope");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().where, (m_dir / "nope").string());
    const auto file = dumpNodes(m_dir / "README");
    ASSERT_FALSE(file);
    EXPECT_EQ(file.error().where, (m_dir / "README").string());
    fs::create_directories(m_dir / "empty");
    const auto empty = dumpNodes(m_dir / "empty");
    ASSERT_FALSE(empty);
    EXPECT_NE(empty.error().message.find("no node folder"), std::string::npos);
    const auto inv = inventoryFromDumps(m_dir / "node404", "node404", {});
    ASSERT_FALSE(inv);
    EXPECT_EQ(inv.error().where, (m_dir / "node404").string());
}

TEST_F(Dumps, RoceNodeDevicesRailsGpusAndQos)
{
    const fs::path n = node("node001");
    // ibdev2netdev and topo of the same host (tpgds-aihub0007); ibstat of another CX-7 RoCE host
    // (mlx5_0, mlx5_1, mlx5_10); mlnx_qos of a third host, filed under mlx5_0's netdev.
    copy("ibstat-cx7-roce-200g-and-cx6dx-down-PARTIAL.txt", n / "ibstat.txt");
    copy("ibdev2netdev-and-ip-br-a-8rail-roce-h100-class-node.txt", n / "ibdev2netdev.txt");
    copy("nvidia-smi-topo-m-8xGPU-NV18-12nic-roce-complete-with-legend.txt", n / "nvidia-smi-topo.txt");
    copy("mlnx_qos-trust-dscp-pfc-prio3-script-trace.txt", n / "mlnx_qos-enp25s0np0.txt");
    copy("ethtool-S-mlx5_core-cx4lx-2018-ethq-fixture.txt", n / "ethtool-S-enp25s0np0.txt");
    const std::vector<std::string> railMap { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_11" };
    const auto r = inventoryFromDumps(n, "node001", railMap);
    ASSERT_TRUE(r) << r.error().message;
    const Inventory& inv = *r;
    EXPECT_EQ(inv.node, "node001");
    ASSERT_EQ(inv.devices.size(), 3u);
    const RdmaDevice* m0 = device(inv, "mlx5_0");
    ASSERT_TRUE(m0);
    EXPECT_EQ(m0->rail, 0);
    EXPECT_EQ(m0->netdev, "enp25s0np0");
    EXPECT_EQ(m0->fwVersion, "28.39.1002");
    ASSERT_EQ(m0->ports.size(), 1u);
    EXPECT_EQ(m0->ports[0].rateGbps, 200);
    EXPECT_TRUE(m0->qos.pfcKnown);
    EXPECT_EQ(m0->qos.trust, "dscp");
    EXPECT_EQ(m0->qos.pfcEnabled, (std::array<bool, 8> { false, false, false, true, false, false, false, false }));
    EXPECT_EQ(m0->qos.ecnNp[3], Tri::Unknown);
    EXPECT_EQ(device(inv, "mlx5_1")->rail, 1);
    EXPECT_EQ(device(inv, "mlx5_1")->netdev, "enp41s0np0");
    EXPECT_FALSE(device(inv, "mlx5_1")->qos.pfcKnown);
    EXPECT_EQ(device(inv, "mlx5_10")->rail, -1);
    EXPECT_EQ(device(inv, "mlx5_10")->netdev, "enp210s0f1np1");

    ASSERT_EQ(inv.gpus.size(), 8u);
    EXPECT_EQ(gpu(inv, 0)->closestNic, "mlx5_0");
    EXPECT_EQ(gpu(inv, 0)->pathToNic, "PIX");
    EXPECT_EQ(gpu(inv, 3)->closestNic, "mlx5_5");
    EXPECT_EQ(gpu(inv, 7)->closestNic, "mlx5_11");
    EXPECT_EQ(gpu(inv, 7)->numaNode, 0);
    EXPECT_TRUE(gpu(inv, 7)->pciAddress.empty());
    EXPECT_EQ(inv.gpuDirect.peermem, Tri::Unknown);
    EXPECT_EQ(inv.gpuDirect.dmabuf, Tri::Unknown);

    EXPECT_TRUE(anyContains(inv.warnings, "ibdev2netdev.txt: mlx5_2 (enp59s0np0) is not in ibstat.txt"));
    EXPECT_TRUE(anyContains(inv.warnings, "mlnx_qos-enp41s0np0.txt: missing"));
    EXPECT_TRUE(anyContains(inv.warnings, "lldpctl.txt: missing"));
    EXPECT_TRUE(anyContains(inv.warnings, "lsmod.txt: missing"));
    EXPECT_TRUE(anyContains(inv.warnings, "mlnx_qos-enp25s0np0.txt: mlnx_qos: the input holds 2 runs"));
    EXPECT_FALSE(anyContains(inv.warnings, "ethtool-S-enp25s0np0.txt"));

    std::vector<std::string> warnings;
    const CounterSnapshot counters = countersFromDumps(n, inv, warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    ASSERT_EQ(counters.ports.size(), 1u);
    EXPECT_EQ(counters.node, "node001");
    EXPECT_EQ(counters.ports[0].device, "mlx5_0");
    EXPECT_EQ(counters.ports[0].rail, 0);
    EXPECT_EQ(counters.ports[0].ethtool.at("rx_packets"), 845320277u);
    EXPECT_GT(counters.timestampMs, 0);
}

TEST_F(Dumps, LldpNeighboursPeermemAndStrayFiles)
{
    const fs::path n = node("node002");
    copy("ibstat-4ca-cx4lx-roce-plus-cx6-hdr-ib-mixed-nccl-tests-350.txt", n / "ibstat.txt");
    copy("lldpctl-f-keyvalue-server-2nic-cumulus-dell-s4100-netbox-agent.txt", n / "lldpctl.txt");
    copy("nvidia-smi-topo-m-8xH100-6nic-PARTIAL.txt", n / "nvidia-smi-topo.txt");
    // Written by hand: ties the CX-4 Lx ports of the real ibstat to the real lldpctl's interfaces.
    write(n / "ibdev2netdev.txt", "mlx5_0 port 1 ==> eno1 (Up)\nmlx5_1 port 1 ==> eno2d1 (Up)\nmlx5_2 port 1 ==> ib0 (Up)\n");
    // Written by hand in lsmod's layout.
    write(n / "lsmod.txt", "Module                  Size  Used by\nnvidia_peermem         16384  0\nnvidia              56770560  1 nvidia_peermem\n");
    write(n / "ibstat.out", "a misnamed file\n");
    write(n / "mlnx_qos-eth9.txt", "DCBX mode: OS controlled\n");
    const auto r = inventoryFromDumps(n, "node002", { "0000:18:00.0", "mlx5_2" });
    ASSERT_TRUE(r) << r.error().message;
    const Inventory& inv = *r;
    ASSERT_EQ(inv.devices.size(), 4u);
    const RdmaDevice* m0 = device(inv, "mlx5_0");
    ASSERT_EQ(m0->lldp.size(), 1u);
    EXPECT_EQ(m0->lldp[0].systemName, "toto-chassis.dc42");
    EXPECT_EQ(m0->lldp[0].portId, "swp46");
    EXPECT_EQ(m0->lldp[0].localInterface, "eno1");
    const RdmaDevice* m1 = device(inv, "mlx5_1");
    ASSERT_EQ(m1->lldp.size(), 1u);
    EXPECT_EQ(m1->lldp[0].chassisId, "e4:f0:04:b6:4e:32");
    EXPECT_EQ(device(inv, "mlx5_2")->rail, 1);
    EXPECT_EQ(m0->rail, -1);
    EXPECT_EQ(inv.gpuDirect.peermem, Tri::On);
    EXPECT_TRUE(inv.gpuDirect.possible());
    // The topology has no NIC legend: GPUs are listed, their closest NIC stays unknown.
    ASSERT_EQ(inv.gpus.size(), 8u);
    EXPECT_TRUE(gpu(inv, 0)->closestNic.empty());
    EXPECT_EQ(gpu(inv, 4)->numaNode, 1);
    EXPECT_TRUE(anyContains(inv.warnings, "NIC0, which no NIC legend names"));
    EXPECT_TRUE(anyContains(inv.warnings, "the row of GPU7 is incomplete"));
    EXPECT_TRUE(anyContains(inv.warnings, "PCI address"));
    EXPECT_TRUE(anyContains(inv.warnings, "ibstat.out: not a file the dumps reader knows"));
    EXPECT_TRUE(anyContains(inv.warnings, "mlnx_qos-eth9.txt: names a netdev that no RDMA device uses"));

    // lsmod without the module: Off, not Unknown.
    write(n / "lsmod.txt", "Module                  Size  Used by\nnvidia              56770560  0\n");
    const auto off = inventoryFromDumps(n, "node002", {});
    ASSERT_TRUE(off);
    EXPECT_EQ(off->gpuDirect.peermem, Tri::Off);
}

TEST_F(Dumps, MissingAndForeignFilesAreWarningsNotErrors)
{
    const fs::path empty = node("node003");
    const auto none = inventoryFromDumps(empty, "node003", { "mlx5_0" });
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_TRUE(none->devices.empty());
    EXPECT_TRUE(none->gpus.empty());
    for (const char* f : { "ibstat.txt: missing", "ibdev2netdev.txt: missing", "nvidia-smi-topo.txt: missing", "lldpctl.txt: missing",
             "lsmod.txt: missing" })
        EXPECT_TRUE(anyContains(none->warnings, f)) << f;

    // ibstat.txt holds another tool's output; without ibstat the devices come from ibdev2netdev.
    const fs::path n = node("node004");
    copy("lldpctl-f-keyvalue-server-2nic-juniper-qfx5100-netbox-agent.txt", n / "ibstat.txt");
    copy("ibdev2netdev-h100-node-8x-cx7-ib-plus-cx6-eth-annotated.txt", n / "ibdev2netdev.txt");
    const auto r = inventoryFromDumps(n, "node004", { "mlx5_0", "mlx5_3" });
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(anyContains(r->warnings, "ibstat.txt: ibstat: line 2 'lldp.eth0.via=LLDP'"));
    ASSERT_EQ(r->devices.size(), 12u);
    const RdmaDevice* m3 = device(*r, "mlx5_3");
    ASSERT_TRUE(m3);
    EXPECT_EQ(m3->rail, 1);
    EXPECT_EQ(m3->netdev, "ibp60s0");
    EXPECT_TRUE(m3->ports.empty());
}

TEST_F(Dumps, AGpuIndexPastAnIntIsAWarningNotACrash)
{
    // The real 8-GPU topology with GPU7 renamed GPU99999999999: std::stoi threw out_of_range ("error:
    // internal: stoi" from `live check --dumps`). The row is left out with a warning; the others stay.
    std::string topo = sharedFixture("nvidia-smi-topo-m-8xGPU-NV18-12nic-roce-complete-with-legend.txt");
    for (std::size_t at; (at = topo.find("GPU7")) != std::string::npos;)
        topo.replace(at, 4, "GPU99999999999");
    const fs::path n = node("node001");
    write(n / "nvidia-smi-topo.txt", topo);
    const auto r = inventoryFromDumps(n, "node001", { "mlx5_0" });
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->gpus.size(), 7u);
    EXPECT_FALSE(gpu(*r, 7));
    EXPECT_TRUE(anyContains(r->warnings, "nvidia-smi-topo.txt: GPU99999999999 is no GPU index; its row is left out"));
}

// Found by fuzz/fuzz_dumps (fuzz/regressions/fuzz_dumps/latin1-byte-in-ibstat-line): a byte that
// is not UTF-8 in a dump reached the inventory (a warning quoting the line, a device or neighbour
// name), and every dump() of it threw: `live check --dumps --json` ended in "error: internal".
// The files are read as UTF-8, each invalid byte a U+FFFD.
TEST_F(Dumps, AByteThatIsNotUtf8ReadsAsAReplacementCharacter)
{
    std::string ibstat = sharedFixture("ibstat-cx7-roce-200g-and-cx6dx-down-PARTIAL.txt");
    ibstat.replace(ibstat.find("CA 'mlx5_0'"), 11, "CA 'mlx5_0\xE9'");
    ibstat.insert(ibstat.find("Base lid"), "\x9e");
    const fs::path n = node("node001");
    write(n / "ibstat.txt", ibstat);
    write(n / "ibdev2netdev.txt", "mlx5_0\xE9 port 1 ==> eth0 (Up)\n");
    write(n / "lldpctl.txt", "lldp.eth0.via=LLDP\nlldp.eth0.chassis.name=leaf-\xFF\nlldp.eth0.port.ifname=swp1\n");
    const auto r = inventoryFromDumps(n, "node001", { "mlx5_0\xEF\xBF\xBD" });
    ASSERT_TRUE(r) << r.error().message;
    const RdmaDevice* d = device(*r, "mlx5_0\xEF\xBF\xBD");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->rail, 0);
    EXPECT_EQ(d->netdev, "eth0");
    ASSERT_EQ(d->lldp.size(), 1u);
    EXPECT_EQ(d->lldp[0].systemName, "leaf-\xEF\xBF\xBD");
    EXPECT_NO_THROW((void)toJson(*r).dump(2));
}

// A netdev's name is bytes (the kernel takes any but '/', ':' and blanks) and reads as UTF-8 from
// ibdev2netdev.txt; its per-netdev files are named with its own bytes, and are still the ones
// read (not "missing", nor named as stray files).
TEST_F(Dumps, ANetdevNameThatIsNotUtf8StillFindsItsFiles)
{
    const fs::path n = node("node001");
    copy("ibstat-cx7-roce-200g-and-cx6dx-down-PARTIAL.txt", n / "ibstat.txt");
    write(n / "ibdev2netdev.txt", "mlx5_0 port 1 ==> enp\xE9s0 (Up)\n");
    write(n / "lldpctl.txt", "lldp.enp\xE9s0.via=LLDP\nlldp.enp\xE9s0.chassis.name=leaf-1\nlldp.enp\xE9s0.port.ifname=swp1\n");
    copy("mlnx_qos-trust-dscp-pfc-prio3-script-trace.txt", n / "mlnx_qos-enp\xE9s0.txt");
    copy("ethtool-S-mlx5_core-cx4lx-2018-ethq-fixture.txt", n / "ethtool-S-enp\xE9s0.txt");
    const auto r = inventoryFromDumps(n, "node001", { "mlx5_0" });
    ASSERT_TRUE(r) << r.error().message;
    const RdmaDevice* d = device(*r, "mlx5_0");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->netdev, "enp\xEF\xBF\xBDs0");
    ASSERT_EQ(d->lldp.size(), 1u);
    EXPECT_EQ(d->lldp[0].systemName, "leaf-1");
    EXPECT_TRUE(d->qos.pfcKnown);
    EXPECT_EQ(d->qos.trust, "dscp");
    EXPECT_FALSE(anyContains(r->warnings, "mlnx_qos-enp\xEF\xBF\xBDs0.txt: missing"));
    EXPECT_FALSE(anyContains(r->warnings, "names a netdev that no RDMA device uses"));
    EXPECT_FALSE(anyContains(r->warnings, "not a file the dumps reader knows"));

    std::vector<std::string> warnings;
    const CounterSnapshot counters = countersFromDumps(n, *r, warnings);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    ASSERT_EQ(counters.ports.size(), 1u);
    EXPECT_EQ(counters.ports[0].netdev, "enp\xEF\xBF\xBDs0");
    EXPECT_EQ(counters.ports[0].ethtool.at("rx_packets"), 845320277u);
    EXPECT_NO_THROW((void)toJson(*r).dump(2));
}

TEST_F(Dumps, TwoFilesWhoseNamesReadAsOneNetdevsAreNotCalledStray)
{
    // enp\xE9s0 and enp\xEEs0 both read as enp\uFFFDs0: the first in byte order is the netdev's
    // file; the other is named as not read, but not as one of a netdev no device uses.
    const fs::path n = node("node001");
    copy("ibstat-cx7-roce-200g-and-cx6dx-down-PARTIAL.txt", n / "ibstat.txt");
    write(n / "ibdev2netdev.txt", "mlx5_0 port 1 ==> enp\xE9s0 (Up)\n");
    copy("mlnx_qos-trust-dscp-pfc-prio3-script-trace.txt", n / "mlnx_qos-enp\xE9s0.txt");
    write(n / "mlnx_qos-enp\xEEs0.txt", "garbage\n");
    const auto r = inventoryFromDumps(n, "node001", { "mlx5_0" });
    ASSERT_TRUE(r) << r.error().message;
    const RdmaDevice* d = device(*r, "mlx5_0");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->qos.trust, "dscp");
    EXPECT_FALSE(anyContains(r->warnings, "names a netdev that no RDMA device uses"));
    EXPECT_TRUE(anyContains(r->warnings, "mlnx_qos-enp\xEF\xBF\xBDs0.txt: another file whose name reads the same was read for this netdev"));
}
