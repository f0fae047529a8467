// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The node reader against sysfs trees built at run time from real fixtures: gpud's dump of an
// H100 node's /sys/class/infiniband (8x CX-7 NDR IB plus a BlueField-3 RoCE bond), the
// prometheus/procfs ttar trees, show_gids, and tool outputs for the emulated sources, placed
// in a PCI tree shaped like the kernel's (relative symlinks, switch = upstream + downstream
// ports).
#include "live/node/node_reader.h"

#include "tests/live/fixture_text.h"
#include "tests/live/temp_dir.h"
#include "tests/live/ttar.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

namespace railyard::live {
namespace {

namespace fs = std::filesystem;
using test::sharedFixture;
using test::TempDir;

/// The fixture without its "# source:" line.
std::string fixtureBody(const std::string& name)
{
    std::string text = sharedFixture(name);
    if (text.starts_with("# source:"))
        text.erase(0, text.find('\n') + 1);
    return text;
}

void write(const fs::path& path, const std::string& content)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << content;
}

void write(const fs::path& path, const std::vector<std::uint8_t>& bytes)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

/// A relative symlink at `at` pointing to `to` (both absolute), as the kernel's are.
void link(const fs::path& at, const fs::path& to)
{
    fs::create_directories(at.parent_path());
    fs::create_symlink(to.lexically_relative(at.parent_path()), at);
}

/// A sysfs tree under construction.
class Tree {
public:
    explicit Tree(fs::path root)
        : m_root(std::move(root))
    {
    }
    const fs::path& root() const { return m_root; }

    /// Creates the PCI function at `pciPath` ("pci0000:00/0000:00:01.0/.../0000:03:00.0"), its
    /// bridges, and bus/pci/devices links for all of them.
    fs::path function(const std::string& pciPath, const std::string& vendor, const std::string& pciClass,
        const std::string& speed = "32.0 GT/s PCIe", int width = 16)
    {
        fs::path folder = m_root / "devices";
        const auto numa = pciPath.starts_with("pci0000:00") ? "0" : "1";
        std::stringstream parts(pciPath);
        std::string part;
        std::vector<std::string> names;
        while (std::getline(parts, part, '/'))
            names.push_back(part);
        for (std::size_t i = 0; i < names.size(); ++i) {
            folder /= names[i];
            if (i == 0 || fs::exists(folder / "vendor"))
                continue;
            const bool last = i + 1 == names.size();
            write(folder / "vendor", (last ? vendor : "0x1000") + "\n");
            write(folder / "class", (last ? pciClass : "0x060400") + "\n");
            write(folder / "numa_node", std::string(numa) + "\n");
            write(folder / "current_link_speed", speed + "\n");
            write(folder / "max_link_speed", "32.0 GT/s PCIe\n");
            write(folder / "current_link_width", std::to_string(width) + "\n");
            write(folder / "max_link_width", "16\n");
            link(m_root / "bus/pci/devices" / names[i], folder);
        }
        return folder;
    }

private:
    fs::path m_root;
};

/// Extended config space: AER at 0x100, then (when set) ACS at 0x148 with `acsControl`.
std::vector<std::uint8_t> configSpace(std::optional<std::uint16_t> acsControl, std::size_t size = 4096)
{
    std::vector<std::uint8_t> config(4096, 0);
    const auto put32 = [&](std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            config[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
    };
    config[0] = 0x86; // vendor 0x1000 little-endian, not that it matters
    put32(0x100, 0x0001u | (2u << 16) | ((acsControl ? 0x148u : 0u) << 20));
    if (acsControl) {
        put32(0x148, 0x000Du | (1u << 16));
        config[0x14e] = static_cast<std::uint8_t>(*acsControl & 0xff);
        config[0x14f] = static_cast<std::uint8_t>(*acsControl >> 8);
    }
    config.resize(size);
    return config;
}

struct Nic {
    std::string name;
    std::string pciPath;
};

// Where each device of the gpud dump sits in this test's PCI tree.
const std::vector<Nic> kNics {
    { "mlx5_0", "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0" },
    { "mlx5_1", "pci0000:00/0000:00:02.0/0000:10:00.0/0000:11:02.0/0000:14:00.0" },
    { "mlx5_4", "pci0000:00/0000:00:02.0/0000:10:00.0/0000:11:03.0/0000:15:00.0" },
    { "mlx5_5", "pci0000:00/0000:00:03.0/0000:20:00.0/0000:21:01.0/0000:25:00.0" },
    { "mlx5_6", "pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:00.0/0000:83:00.0" },
    { "mlx5_7", "pci0000:80/0000:80:02.0/0000:90:00.0" },
    { "mlx5_8", "pci0000:80/0000:80:03.0/0000:91:00.0" },
    { "mlx5_9", "pci0000:80/0000:80:04.0/0000:92:00.0" },
    { "mlx5_bond_0", "pci0000:00/0000:00:05.0/0000:40:00.0" },
};

const std::vector<std::string> kGpus {
    "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0", // PIX to mlx5_0
    "pci0000:00/0000:00:02.0/0000:10:00.0/0000:11:00.0/0000:12:00.0", // two GPUs, two NICs on one switch
    "pci0000:00/0000:00:02.0/0000:10:00.0/0000:11:01.0/0000:13:00.0",
    "pci0000:00/0000:00:03.0/0000:20:00.0/0000:21:00.0/0000:22:00.0/0000:23:00.0/0000:24:00.0", // PXB to mlx5_5
    "pci0000:00/0000:00:04.0/0000:30:00.0", // alone on a root port: PHB
    "pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:01.0/0000:84:00.0", // PIX to mlx5_6
    "pci0000:a0/0000:a0:01.0/0000:a1:00.0", // NUMA 1, host bridge without NICs: NODE
};

/// Builds the H100 node: gpud's class/infiniband dump placed on PCI functions, netdevs,
/// GIDs from show_gids, ECN files, GPUs, ACS config spaces, modules; and the emulated
/// sources' folder `sim` with tool outputs.
void buildH100Node(const fs::path& root, const fs::path& sim)
{
    Tree tree(root);
    std::map<std::string, fs::path> deviceFolder;
    for (const auto& nic : kNics) {
        const fs::path function = tree.function(nic.pciPath, "0x15b3", "0x020700", nic.name == "mlx5_5" ? "16.0 GT/s PCIe" : "32.0 GT/s PCIe",
            nic.name == "mlx5_5" ? 8 : 16);
        if (nic.name == "mlx5_0") {
            // As the kernel has it: class/infiniband/mlx5_0 -> ../../devices/.../infiniband/mlx5_0,
            // and its device -> ../../../0000:04:00.0.
            const fs::path real = function / "infiniband/mlx5_0";
            fs::create_directories(real);
            link(root / "class/infiniband/mlx5_0", real);
            fs::create_symlink("../../../" + function.filename().string(), real / "device");
            deviceFolder[nic.name] = real;
        } else {
            deviceFolder[nic.name] = root / "class/infiniband" / nic.name;
            link(root / "class/infiniband" / nic.name / "device", function);
        }
    }
    // The bond's second PF.
    tree.function("pci0000:00/0000:00:05.0/0000:40:00.1", "0x15b3", "0x020000");

    // gpud's dump: "<dev>/<path>:<content>" per file, contents without trailing newline.
    std::stringstream lines(fixtureBody("sysfs-class-infiniband-h100-node-8x-ndr-ib-plus-roce-bond-gpud.txt"));
    std::string line;
    while (std::getline(lines, line)) {
        const auto slash = line.find('/');
        const auto colon = line.find(':');
        ASSERT_NE(slash, std::string::npos);
        ASSERT_NE(colon, std::string::npos);
        const std::string device = line.substr(0, slash);
        ASSERT_TRUE(deviceFolder.count(device)) << line;
        write(deviceFolder[device] / line.substr(slash + 1, colon - slash - 1), line.substr(colon + 1));
    }

    // What the dump does not have: GUIDs, descriptions, LIDs, GID 0 (all but mlx5_9's GUIDs).
    int n = 0;
    for (const auto& nic : kNics) {
        const fs::path dev = deviceFolder[nic.name];
        if (nic.name != "mlx5_9") {
            write(dev / "node_guid", "b83f:d203:00a4:5e5" + std::to_string(n) + "\n");
            write(dev / "sys_image_guid", "b83f:d203:00a4:5e5" + std::to_string(n) + "\n");
            write(dev / "node_desc", "node007 " + nic.name + "\n");
        }
        if (nic.name != "mlx5_bond_0") {
            write(dev / "ports/1/lid", "0x" + std::to_string(10 + n) + "\n");
            write(dev / "ports/1/sm_lid", "0x1\n");
            write(dev / "ports/1/gids/0", "fe80:0000:0000:0000:b83f:d203:00a4:5e5" + std::to_string(n) + "\n");
        }
        ++n;
    }
    // mlx5_8's port waits for a subnet manager.
    write(deviceFolder["mlx5_8"] / "ports/1/state", "2: INIT\n");
    write(deviceFolder["mlx5_8"] / "ports/1/sm_lid", "0x0\n");

    // Netdevs. mlx5_0: through device/net (the kernel's way); mlx5_1: only class/net/<if>/device;
    // the bond: PF netdevs eno1 / eno2d1 (the names in the LLDP fixture), bond0 over both.
    const fs::path f0 = root / "devices" / kNics[0].pciPath;
    write(f0 / "net/ibp4s0/mtu", "4092\n");
    write(f0 / "net/ibp4s0/dev_port", "0\n");
    link(root / "class/net/ibp4s0", f0 / "net/ibp4s0");
    write(root / "class/net/ibp20s0/mtu", "2044\n");
    link(root / "class/net/ibp20s0/device", root / "devices" / kNics[1].pciPath);
    const fs::path pf0 = root / "devices" / kNics[8].pciPath;
    const fs::path pf1 = root / "devices/pci0000:00/0000:00:05.0/0000:40:00.1";
    write(pf0 / "net/eno1/mtu", "9000\n");
    write(pf0 / "net/eno1/dev_port", "0\n");
    write(pf1 / "net/eno2d1/mtu", "9000\n");
    link(root / "class/net/eno1", pf0 / "net/eno1");
    link(root / "class/net/eno2d1", pf1 / "net/eno2d1");
    write(root / "devices/virtual/net/bond0/mtu", "9000\n");
    write(root / "devices/virtual/net/bond0/bonding/slaves", "eno1 eno2d1\n");
    link(root / "class/net/bond0", root / "devices/virtual/net/bond0");
    for (int p = 0; p < 8; ++p) {
        write(pf0 / "net/eno1/ecn/roce_np/enable" / std::to_string(p), p == 3 ? "1\n" : "0\n");
        write(pf0 / "net/eno1/ecn/roce_rp/enable" / std::to_string(p), p == 3 ? "1\n" : "0\n");
    }

    // The bond's GID table from show_gids (mlx5_10 on bond0 in that host): v1/v2 link-local,
    // v1/v2 IPv4-mapped.
    std::stringstream gids(fixtureBody("show_gids-roce-v1-v2-12dev-h100-node.txt"));
    int rows = 0;
    while (std::getline(gids, line)) {
        std::stringstream fields(line);
        std::vector<std::string> f;
        std::string field;
        while (fields >> field)
            f.push_back(field);
        if (f.size() < 6 || f[0] != "mlx5_10")
            continue;
        const fs::path port = deviceFolder["mlx5_bond_0"] / "ports" / f[1];
        write(port / "gids" / f[2], f[3] + "\n");
        write(port / "gid_attrs/types" / f[2], f[f.size() - 2] == "v2" ? "RoCE v2\n" : "IB/RoCE v1\n");
        write(port / "gid_attrs/ndevs" / f[2], f.back() + "\n");
        ++rows;
    }
    ASSERT_EQ(rows, 4);
    write(deviceFolder["mlx5_bond_0"] / "ports/1/gids/4", "0000:0000:0000:0000:0000:0000:0000:0000\n"); // empty slot
    write(deviceFolder["mlx5_bond_0"] / "ports/1/lid", "0x0\n");
    write(deviceFolder["mlx5_bond_0"] / "ports/1/sm_lid", "0x0\n");

    // GPUs, an NVSwitch and a GPU's audio function (neither is a GPU).
    for (const auto& gpu : kGpus)
        tree.function(gpu, "0x10de", "0x030200");
    tree.function("pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.1", "0x10de", "0x040300");
    tree.function("pci0000:80/0000:80:05.0/0000:95:00.0", "0x10de", "0x068000");

    // ACS: on at GPU0's downstream port; off (source validation only) on the second switch's
    // ports; one bridge of GPU3's path readable only in part (a non-root read); zeroes
    // (no extended capabilities) under mlx5_6's switch.
    const fs::path devices = root / "devices";
    write(devices / "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/config", configSpace(0x001d));
    write(devices / "pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/config", configSpace(0x0000));
    for (const auto* port : { "0000:11:00.0", "0000:11:01.0", "0000:11:02.0", "0000:11:03.0" })
        write(devices / "pci0000:00/0000:00:02.0/0000:10:00.0" / port / "config", configSpace(0x0001));
    write(devices / "pci0000:00/0000:00:03.0/0000:20:00.0/0000:21:00.0/config", configSpace(0x0000, 64));
    write(devices / "pci0000:00/0000:00:03.0/0000:20:00.0/0000:21:00.0/0000:22:00.0/config", configSpace(0x0000));
    write(devices / "pci0000:00/0000:00:03.0/0000:20:00.0/0000:21:00.0/0000:22:00.0/0000:23:00.0/config", configSpace(0x0000));
    write(devices / "pci0000:00/0000:00:03.0/0000:20:00.0/0000:21:01.0/config", configSpace(0x0000));
    write(devices / "pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:00.0/config", std::vector<std::uint8_t>(4096, 0));
    write(devices / "pci0000:80/0000:80:01.0/0000:81:00.0/0000:82:01.0/config", std::vector<std::uint8_t>(4096, 0));

    fs::create_directories(root / "module/nvidia");
    fs::create_directories(root / "module/nvidia_peermem");

    // The emulated sources: tool outputs in their own formats.
    write(sim / "qos/eno1.mlnx_qos", sharedFixture("mlnx_qos-trust-dscp-pfc-prio3-script-trace.txt"));
    write(sim / "ethtool/eno1.txt", sharedFixture("ethtool-S-mlx5_core-cx4lx-2018-ethq-fixture.txt"));
    write(sim / "lldp.keyvalue", sharedFixture("lldpctl-f-keyvalue-server-2nic-cumulus-dell-s4100-netbox-agent.txt"));
    write(sim / "gpu.json", R"({"models": {"0000:03:00.0": "H100 80GB HBM3"}, "dmabuf": "on"})");
}

const std::vector<std::string> kRailMap { "mlx5_0", "0000:14:00.0", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8", "92:00.0" };

NodeReader makeReader(const fs::path& root, const fs::path& sim, std::vector<std::string> railMap = kRailMap)
{
    NodeOptions options;
    options.sysfsRoot = root;
    options.node = "node007";
    options.nodeType = "dgx-h100";
    options.railMap = std::move(railMap);
    return NodeReader(options, emulatedSources(sim));
}

const RdmaDevice& device(const Inventory& inventory, const std::string& name)
{
    for (const auto& d : inventory.devices)
        if (d.name == name)
            return d;
    throw std::runtime_error("no device " + name);
}

/// One tree for the tests that only read it (building it is most of their cost).
class H100Node : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_dir = new TempDir;
        buildH100Node(s_dir->path() / "sys", s_dir->path() / "sim");
    }
    static void TearDownTestSuite()
    {
        delete s_dir;
        s_dir = nullptr;
    }
    NodeReader reader(std::vector<std::string> railMap = kRailMap) const { return makeReader(m_root, m_sim, std::move(railMap)); }
    static TempDir* s_dir;
    const fs::path m_root = s_dir->path() / "sys";
    const fs::path m_sim = s_dir->path() / "sim";
};
TempDir* H100Node::s_dir = nullptr;

/// A tree of its own for the tests that change it.
class H100NodeChanged : public ::testing::Test {
protected:
    void SetUp() override { buildH100Node(m_root, m_sim); }
    NodeReader reader() const { return makeReader(m_root, m_sim); }
    TempDir m_dir;
    const fs::path m_root = m_dir.path() / "sys";
    const fs::path m_sim = m_dir.path() / "sim";
};

TEST_F(H100Node, DevicesPortsAndRates)
{
    const Inventory inventory = reader().inventory();
    EXPECT_EQ(inventory.node, "node007");
    EXPECT_EQ(inventory.nodeType, "dgx-h100");
    ASSERT_EQ(inventory.devices.size(), 9u);
    // Natural order: mlx5_9 before mlx5_bond_0.
    EXPECT_EQ(inventory.devices[7].name, "mlx5_9");
    EXPECT_EQ(inventory.devices[8].name, "mlx5_bond_0");

    const auto& m0 = device(inventory, "mlx5_0");
    EXPECT_EQ(m0.hcaType, "MT4129");
    EXPECT_EQ(m0.fwVersion, "28.41.1000");
    EXPECT_EQ(m0.boardId, "MT_0000000838");
    EXPECT_EQ(m0.nodeGuid, "b83f:d203:00a4:5e50");
    EXPECT_EQ(m0.nodeDesc, "node007 mlx5_0");
    EXPECT_EQ(m0.pciAddress, "0000:04:00.0");
    EXPECT_EQ(m0.numaNode, 0);
    EXPECT_EQ(m0.netdev, "ibp4s0");
    EXPECT_EQ(m0.mtu, 4092);
    EXPECT_DOUBLE_EQ(m0.pcie.speedGts, 32.0);
    EXPECT_EQ(m0.pcie.width, 16);
    ASSERT_EQ(m0.ports.size(), 1u);
    const auto& p = m0.ports[0];
    EXPECT_EQ(p.number, 1);
    EXPECT_EQ(p.linkLayer, LinkLayer::InfiniBand);
    EXPECT_EQ(p.state, 4);
    EXPECT_EQ(p.stateName, "ACTIVE");
    EXPECT_EQ(p.physState, 5);
    EXPECT_EQ(p.physStateName, "LinkUp");
    EXPECT_EQ(p.rateText, "400 Gb/sec (4X NDR)");
    EXPECT_DOUBLE_EQ(p.rateGbps, 400);
    EXPECT_EQ(p.width, 4);
    EXPECT_EQ(p.generation, "NDR");
    EXPECT_EQ(p.lid, 0x10);
    EXPECT_EQ(p.smLid, 1);
    EXPECT_EQ(p.gid0, "fe80:0000:0000:0000:b83f:d203:00a4:5e50");
    EXPECT_FALSE(p.rocev2GidIndex); // IB port

    // PCIe link below its maximum shows as such (checks compare the two).
    const auto& m5 = device(inventory, "mlx5_5");
    EXPECT_DOUBLE_EQ(m5.pcie.speedGts, 16.0);
    EXPECT_DOUBLE_EQ(m5.pcie.maxSpeedGts, 32.0);
    EXPECT_EQ(m5.pcie.width, 8);
    EXPECT_EQ(m5.pcie.maxWidth, 16);

    // Netdev found through class/net/<if>/device only.
    const auto& m1 = device(inventory, "mlx5_1");
    EXPECT_EQ(m1.netdev, "ibp20s0");
    EXPECT_EQ(m1.mtu, 2044);

    // A port stuck in INIT (no subnet manager) is reported as the kernel says.
    const auto& m8 = device(inventory, "mlx5_8");
    EXPECT_EQ(m8.ports[0].state, 2);
    EXPECT_EQ(m8.ports[0].stateName, "INIT");
    EXPECT_EQ(m8.numaNode, 1);

    ASSERT_TRUE(inventory.subnetManager);
    EXPECT_EQ(inventory.subnetManager->masterLid, 1);
    EXPECT_TRUE(inventory.subnetManager->routingEngine.empty()); // no log given: not guessed
}

TEST_F(H100Node, RailsByNameAndPciAddress)
{
    const Inventory inventory = reader().inventory();
    EXPECT_EQ(device(inventory, "mlx5_0").rail, 0);
    EXPECT_EQ(device(inventory, "mlx5_1").rail, 1); // "0000:14:00.0"
    EXPECT_EQ(device(inventory, "mlx5_4").rail, 2);
    EXPECT_EQ(device(inventory, "mlx5_8").rail, 6);
    EXPECT_EQ(device(inventory, "mlx5_9").rail, 7); // "92:00.0", no domain
    EXPECT_EQ(device(inventory, "mlx5_bond_0").rail, -1);
    const Inventory none = reader({}).inventory();
    for (const auto& d : none.devices)
        EXPECT_EQ(d.rail, -1) << d.name;
}

TEST_F(H100Node, GpusAffinityAndAcs)
{
    const Inventory inventory = reader().inventory();
    ASSERT_EQ(inventory.gpus.size(), 7u); // not the audio function, not the NVSwitch
    const auto& g = inventory.gpus;
    for (std::size_t i = 0; i < g.size(); ++i)
        EXPECT_EQ(g[i].index, static_cast<int>(i));
    EXPECT_EQ(g[0].pciAddress, "0000:03:00.0");
    EXPECT_EQ(g[0].name, "H100 80GB HBM3");
    EXPECT_EQ(g[1].name, "");
    EXPECT_EQ(g[0].numaNode, 0);
    EXPECT_EQ(g[6].numaNode, 1);
    EXPECT_DOUBLE_EQ(g[0].pcie.speedGts, 32.0);

    EXPECT_EQ(g[0].closestNic, "mlx5_0");
    EXPECT_EQ(g[0].pathToNic, "PIX");
    EXPECT_EQ(g[0].acsOnPath, Tri::On);
    // Two GPUs and two NICs on one switch pair up in PCI order.
    EXPECT_EQ(g[1].closestNic, "mlx5_1");
    EXPECT_EQ(g[1].pathToNic, "PIX");
    EXPECT_EQ(g[2].closestNic, "mlx5_4");
    EXPECT_EQ(g[2].pathToNic, "PIX");
    EXPECT_EQ(g[1].acsOnPath, Tri::Off);
    EXPECT_EQ(g[2].acsOnPath, Tri::Off);
    EXPECT_EQ(g[3].closestNic, "mlx5_5");
    EXPECT_EQ(g[3].pathToNic, "PXB");
    EXPECT_EQ(g[3].acsOnPath, Tri::Unknown); // one bridge's config space read only in part
    // Alone on its root port: through the host bridge; rail NICs first, then PCI order.
    EXPECT_EQ(g[4].pathToNic, "PHB");
    EXPECT_EQ(g[4].closestNic, "mlx5_0");
    EXPECT_EQ(g[5].closestNic, "mlx5_6");
    EXPECT_EQ(g[5].pathToNic, "PIX");
    EXPECT_EQ(g[5].acsOnPath, Tri::Off);
    EXPECT_EQ(g[6].pathToNic, "NODE");
    EXPECT_EQ(g[6].closestNic, "mlx5_6");

    EXPECT_EQ(inventory.gpuDirect.peermem, Tri::On);
    EXPECT_EQ(inventory.gpuDirect.dmabuf, Tri::On);
    EXPECT_TRUE(inventory.gpuDirect.possible());
}

TEST_F(H100NodeChanged, PeermemAndDmabufStates)
{
    fs::remove(m_root / "module/nvidia_peermem");
    write(m_sim / "gpu.json", R"({"dmabuf": "off"})");
    Inventory inventory = reader().inventory();
    EXPECT_EQ(inventory.gpuDirect.peermem, Tri::Off);
    EXPECT_EQ(inventory.gpuDirect.dmabuf, Tri::Off);
    EXPECT_FALSE(inventory.gpuDirect.possible());

    fs::create_directories(m_root / "module/nv_peer_mem"); // the older module name
    EXPECT_EQ(reader().inventory().gpuDirect.peermem, Tri::On);

    fs::remove_all(m_root / "module");
    fs::remove(m_sim / "gpu.json");
    inventory = reader().inventory();
    EXPECT_EQ(inventory.gpuDirect.peermem, Tri::Unknown); // no driver to ask
    EXPECT_EQ(inventory.gpuDirect.dmabuf, Tri::Unknown);
}

TEST_F(H100Node, RoceBondQosEcnGidAndLldp)
{
    const Inventory inventory = reader().inventory();
    const auto& bond = device(inventory, "mlx5_bond_0");
    EXPECT_EQ(bond.hcaType, "MT41692");
    EXPECT_EQ(bond.pciAddress, "0000:40:00.0");
    EXPECT_EQ(bond.netdev, "eno1"); // the PF's netdev: ECN, DCB and ethtool live there
    EXPECT_EQ(bond.mtu, 9000);
    ASSERT_EQ(bond.ports.size(), 1u);
    const auto& port = bond.ports[0];
    EXPECT_EQ(port.linkLayer, LinkLayer::Ethernet);
    EXPECT_EQ(port.rateText, "200 Gb/sec (2X NDR)");
    EXPECT_DOUBLE_EQ(port.rateGbps, 200);
    EXPECT_EQ(port.width, 2);
    ASSERT_TRUE(port.rocev2GidIndex);
    EXPECT_EQ(*port.rocev2GidIndex, 3); // not 1: that v2 entry is link-local
    EXPECT_EQ(port.rocev2Gid, "0000:0000:0000:0000:0000:ffff:0a52:6582");
    EXPECT_EQ(port.gid0, "fe80:0000:0000:0000:5aa2:e1ff:feb8:a1aa");

    // mlnx_qos: trust dscp, PFC on priority 3 only.
    EXPECT_TRUE(bond.qos.pfcKnown);
    EXPECT_EQ(bond.qos.trust, "dscp");
    for (std::size_t p = 0; p < 8; ++p) {
        EXPECT_EQ(bond.qos.pfcEnabled[p], p == 3) << p;
        EXPECT_EQ(bond.qos.ecnNp[p], p == 3 ? Tri::On : Tri::Off) << p;
        EXPECT_EQ(bond.qos.ecnRp[p], p == 3 ? Tri::On : Tri::Off) << p;
    }
    // LLDP: both PFs are slaves of bond0, so both neighbours belong to the bond device.
    ASSERT_EQ(bond.lldp.size(), 2u);
    EXPECT_EQ(bond.lldp[0].localInterface, "eno1");
    EXPECT_EQ(bond.lldp[0].portId, "swp46");
    EXPECT_EQ(bond.lldp[0].systemName, "toto-chassis.dc42");
    EXPECT_EQ(bond.lldp[1].localInterface, "eno2d1");
    // IB devices have no QoS and no neighbours.
    EXPECT_FALSE(device(inventory, "mlx5_0").qos.pfcKnown);
    EXPECT_TRUE(device(inventory, "mlx5_0").lldp.empty());
}

TEST_F(H100NodeChanged, RoceWithoutDriverStackIsUnknown)
{
    fs::remove_all(m_root / "devices/pci0000:00/0000:00:05.0/0000:40:00.0/net/eno1/ecn");
    write(m_root / "devices/pci0000:00/0000:00:05.0/0000:40:00.0/net/eno1/ecn/roce_np/enable/3", "1\n"); // only one file
    fs::remove(m_sim / "qos/eno1.mlnx_qos");
    const Inventory inventory = reader().inventory();
    const auto& bond = device(inventory, "mlx5_bond_0");
    EXPECT_FALSE(bond.qos.pfcKnown);
    EXPECT_EQ(bond.qos.trust, "");
    EXPECT_EQ(bond.qos.ecnNp[3], Tri::On);
    EXPECT_EQ(bond.qos.ecnNp[0], Tri::Unknown); // missing file: unknown, not off
    EXPECT_EQ(bond.qos.ecnRp[3], Tri::Unknown);
    const auto& w = inventory.warnings;
    EXPECT_TRUE(std::any_of(w.begin(), w.end(), [](const std::string& s) { return s.find("PFC settings of eno1") != std::string::npos; }));
}

TEST_F(H100NodeChanged, WarningsSayWhatWasUnreadable)
{
    fs::remove(m_root / "class/infiniband/mlx5_4/ports/1/rate");
    const Inventory inventory = reader().inventory();
    const auto has = [&](const std::string& text) {
        return std::find(inventory.warnings.begin(), inventory.warnings.end(), text) != inventory.warnings.end();
    };
    EXPECT_TRUE(has("mlx5_4: ports/1/rate unreadable: No such file or directory"));
    EXPECT_TRUE(has("mlx5_9: node_guid unreadable: No such file or directory"));
    EXPECT_FALSE(has("mlx5_0: node_guid unreadable: No such file or directory"));
    EXPECT_EQ(device(inventory, "mlx5_4").ports[0].rateGbps, 0);
}

TEST_F(H100Node, OpensmLogGivesRoutingEngine)
{
    const TempDir logDir;
    write(logDir.path() / "opensm.log",
        "Mar 03 10:05:01 000002 [7F4A] 0x02 -> osm_ucast_mgr_process: ftree tables configured on all switches\n");
    NodeOptions options;
    options.sysfsRoot = m_root;
    options.opensmLog = logDir.path() / "opensm.log";
    const Inventory inventory = NodeReader(options, emulatedSources(m_sim)).inventory();
    ASSERT_TRUE(inventory.subnetManager);
    EXPECT_EQ(inventory.subnetManager->routingEngine, "ftree");
    EXPECT_EQ(inventory.subnetManager->masterLid, 1);
    EXPECT_FALSE(inventory.node.empty()); // the hostname
}

TEST_F(H100Node, CountersKindsAndEthtool)
{
    const auto before = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    const CounterSnapshot snapshot = reader().counters();
    const auto after = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    EXPECT_GE(snapshot.timestampMs, before);
    EXPECT_LE(snapshot.timestampMs, after);
    EXPECT_EQ(snapshot.node, "node007");
    ASSERT_EQ(snapshot.ports.size(), 9u);

    const PortCounters* m1 = nullptr;
    const PortCounters* bond = nullptr;
    for (const auto& p : snapshot.ports) {
        if (p.device == "mlx5_1")
            m1 = &p;
        if (p.device == "mlx5_bond_0")
            bond = &p;
    }
    ASSERT_TRUE(m1);
    ASSERT_TRUE(bond);
    EXPECT_EQ(m1->rail, 1);
    EXPECT_EQ(m1->port, 1);
    EXPECT_EQ(m1->netdev, "ibp20s0");
    EXPECT_EQ(m1->counters.size(), 21u); // every file of counters/ in the dump
    EXPECT_EQ(m1->hwCounters.size(), 26u);

    const auto& data = m1->counters.at("port_xmit_data");
    EXPECT_EQ(data.value, 230442669431839ull);
    EXPECT_EQ(data.kind, CounterKind::Words4);
    EXPECT_EQ(m1->counters.at("port_rcv_data").value, 205128687774249ull);
    const auto& downed = m1->counters.at("link_downed");
    EXPECT_EQ(downed.value, 255u);
    EXPECT_EQ(downed.kind, CounterKind::Saturating);
    EXPECT_EQ(downed.widthBits, 8);
    EXPECT_TRUE(downed.saturated);
    const auto& overrun = m1->counters.at("excessive_buffer_overrun_errors");
    EXPECT_EQ(overrun.widthBits, 4);
    EXPECT_TRUE(overrun.saturated);
    const auto& rcvErrors = m1->counters.at("port_rcv_errors");
    EXPECT_EQ(rcvErrors.value, 14u);
    EXPECT_EQ(rcvErrors.widthBits, 16);
    EXPECT_FALSE(rcvErrors.saturated);
    const auto& wait = m1->counters.at("port_xmit_wait");
    EXPECT_EQ(wait.value, 2489603687ull);
    EXPECT_EQ(wait.widthBits, 32);
    EXPECT_FALSE(wait.saturated);
    EXPECT_EQ(m1->counters.at("unicast_xmit_packets").kind, CounterKind::Plain);
    const auto& writes = m1->hwCounters.at("rx_write_requests");
    EXPECT_EQ(writes.value, 3809045607ull);
    EXPECT_EQ(writes.kind, CounterKind::Wrapping32);
    EXPECT_EQ(m1->hwCounters.at("lifespan").kind, CounterKind::Plain);
    EXPECT_TRUE(m1->ethtool.empty()); // no ethtool output for it in the sim folder

    EXPECT_EQ(bond->rail, -1);
    EXPECT_EQ(bond->netdev, "eno1");
    EXPECT_EQ(bond->ethtool.at("rx_prio0_bytes"), 2202570777997ull);
    EXPECT_EQ(bond->ethtool.at("rx_packets"), 845320277ull);
}

TEST_F(H100Node, ReadingCostFigure)
{
    // Not an assertion on time (no timed unit tests): the figure is printed for the report.
    const NodeReader r = reader();
    constexpr int kRounds = 20;
    const auto start = std::chrono::steady_clock::now();
    std::size_t counters = 0;
    for (int i = 0; i < kRounds; ++i)
        for (const auto& p : r.counters().ports)
            counters += p.counters.size() + p.hwCounters.size() + p.ethtool.size();
    const auto middle = std::chrono::steady_clock::now();
    std::size_t devices = 0;
    for (int i = 0; i < kRounds; ++i)
        devices += r.inventory().devices.size();
    const auto end = std::chrono::steady_clock::now();
    EXPECT_EQ(devices, 9u * kRounds);
    EXPECT_GT(counters, 0u);
    const auto us = [](auto d) { return std::chrono::duration_cast<std::chrono::microseconds>(d).count(); };
    std::cout << "[ figure ] counters(): " << us(middle - start) / kRounds << " us per snapshot of 9 devices ("
              << counters / kRounds << " values); inventory(): " << us(end - middle) / kRounds << " us\n";
}

// ---- the prometheus/procfs ttar trees --------------------------------------------------------

TEST(NodeReaderTtar, ProcfsMlx4TwoPortsAndMlx5)
{
    TempDir dir;
    const fs::path root = dir.path() / "sys";
    railyard::test::extractTtar(sharedFixture("sysfs-infiniband-mlx4_0-2port-procfs-fixture.ttar.txt"), root, "fixtures/sys/");
    railyard::test::extractTtar(sharedFixture("sysfs-infiniband-mlx5_0-procfs-fixture.ttar.txt"), root, "fixtures/sys/");
    NodeOptions options;
    options.sysfsRoot = root;
    options.railMap = { "mlx5_0" };
    const NodeReader reader(options, NodeSources {});
    const Inventory inventory = reader.inventory();
    ASSERT_EQ(inventory.devices.size(), 2u);
    const auto& mlx4 = inventory.devices[0];
    EXPECT_EQ(mlx4.name, "mlx4_0");
    EXPECT_EQ(mlx4.rail, -1);
    EXPECT_EQ(mlx4.fwVersion, "2.31.5050");
    ASSERT_EQ(mlx4.ports.size(), 2u);
    EXPECT_EQ(mlx4.ports[1].number, 2);
    EXPECT_EQ(mlx4.ports[0].rateText, "40 Gb/sec (4X QDR)");
    EXPECT_EQ(mlx4.ports[0].generation, "QDR");
    const auto& mlx5 = inventory.devices[1];
    EXPECT_EQ(mlx5.rail, 0);
    EXPECT_EQ(mlx5.nodeGuid, "0a7f:bc12:45ef:d23b"); // ttar "EOF": no trailing newline
    EXPECT_EQ(mlx5.ports[0].rateGbps, 25);
    EXPECT_EQ(mlx5.ports[0].width, 1);
    EXPECT_EQ(mlx5.ports[0].physState, 4); // the fixture's artefact ("4: ACTIVE"), reported as is
    EXPECT_TRUE(mlx5.pciAddress.empty());  // the fixture has no device link
    EXPECT_TRUE(inventory.gpus.empty());
    EXPECT_EQ(inventory.gpuDirect.peermem, Tri::Unknown);
    EXPECT_TRUE(std::any_of(inventory.warnings.begin(), inventory.warnings.end(),
        [](const std::string& w) { return w.starts_with("mlx4_0: device (its PCI function) unresolvable"); }));

    const CounterSnapshot snapshot = reader.counters();
    ASSERT_EQ(snapshot.ports.size(), 3u);
    EXPECT_EQ(snapshot.ports[1].device, "mlx4_0");
    EXPECT_EQ(snapshot.ports[1].port, 2);
    EXPECT_EQ(snapshot.ports[0].counters.at("port_xmit_wait").value, 3599u);
    EXPECT_EQ(snapshot.ports[2].counters.at("port_xmit_data").value, 2880761508848ull);
    EXPECT_EQ(snapshot.ports[2].hwCounters.at("req_cqe_error").value, 3481u);
    EXPECT_EQ(snapshot.ports[2].hwCounters.at("req_cqe_error").kind, CounterKind::Wrapping32);
}

TEST(NodeReaderTtar, RoceWithoutRoutableGid)
{
    // The procfs mlx5_0 tree turned into a RoCE port whose only v2 GID is link-local (as
    // mlx5_11 in show_gids: a port without an IP address).
    TempDir dir;
    const fs::path root = dir.path() / "sys";
    railyard::test::extractTtar(sharedFixture("sysfs-infiniband-mlx5_0-procfs-fixture.ttar.txt"), root, "fixtures/sys/");
    const fs::path port = root / "class/infiniband/mlx5_0/ports/1";
    write(port / "link_layer", "Ethernet\n");
    write(port / "gids/0", "fe80:0000:0000:0000:5aa2:e1ff:feb8:a1ab\n");
    write(port / "gids/1", "fe80:0000:0000:0000:5aa2:e1ff:feb8:a1ab\n");
    write(port / "gid_attrs/types/0", "IB/RoCE v1\n");
    write(port / "gid_attrs/types/1", "RoCE v2\n");
    write(port / "gid_attrs/ndevs/0", "ens10f1np1\n");
    NodeOptions options;
    options.sysfsRoot = root;
    const Inventory inventory = NodeReader(options, NodeSources {}).inventory();
    ASSERT_EQ(inventory.devices.size(), 1u);
    const auto& d = inventory.devices[0];
    EXPECT_FALSE(d.ports[0].rocev2GidIndex);
    EXPECT_EQ(d.netdev, "ens10f1np1"); // from gid_attrs/ndevs/0: no PCI function to ask
    for (std::size_t p = 0; p < 8; ++p)
        EXPECT_EQ(d.qos.ecnNp[p], Tri::Unknown);
}

// ---- this host's /sys ----------------------------------------------------------------------

TEST(NodeReaderHost, ReadsThisHostsSysfs)
{
    NodeOptions options; // /sys
    const NodeReader reader(options, hostSources());
    const Inventory inventory = reader.inventory();
    const auto expected = fs::exists("/sys/class/infiniband")
        ? std::distance(fs::directory_iterator("/sys/class/infiniband"), fs::directory_iterator {})
        : 0;
    EXPECT_EQ(static_cast<long>(inventory.devices.size()), static_cast<long>(expected));
    EXPECT_FALSE(inventory.hostname.empty());
    EXPECT_EQ(inventory.node, inventory.hostname);
    for (const auto& w : inventory.warnings)
        EXPECT_EQ(w.find("no class/ folder"), std::string::npos) << w;
    const CounterSnapshot snapshot = reader.counters();
    std::size_t ports = 0;
    for (const auto& d : inventory.devices)
        ports += d.ports.size();
    EXPECT_EQ(snapshot.ports.size(), ports);
}

TEST(NodeReaderHost, MissingRootSaysSo)
{
    NodeOptions options;
    options.sysfsRoot = "/nonexistent/railyard-sysfs";
    const Inventory inventory = NodeReader(options, NodeSources {}).inventory();
    EXPECT_TRUE(inventory.devices.empty());
    ASSERT_FALSE(inventory.warnings.empty());
    EXPECT_NE(inventory.warnings[0].find("--sysfs-root"), std::string::npos);
}

} // namespace
} // namespace railyard::live
