// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The node reader's parts on their own: PCI relations and ACS from config space, the DCB
// netlink parser on constructed kernel answers (and the real socket), the ethtool ioctl
// on this host, counter kinds, and the small text readers of host sources.
#include "live/node/ethtool_ioctl.h"
#include "live/node/host_sources.h"
#include "live/node/netlink_dcb.h"
#include "live/node/pci_topology.h"
#include "live/common/sysfs_counters.h"
#include "live/node/sysfs_read.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include <linux/dcbnl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

namespace railyard::live {
namespace {

pci::Placement place(const std::string& path, int numa)
{
    auto placement = pci::placementFromPath(std::filesystem::path("/sys/devices") / path);
    EXPECT_TRUE(placement) << path;
    placement->numaNode = numa;
    return *placement;
}

TEST(PciTopology, AddressesAndPlacement)
{
    EXPECT_TRUE(pci::isAddress("0000:18:00.0"));
    EXPECT_FALSE(pci::isAddress("pci0000:00"));
    EXPECT_FALSE(pci::isAddress("0000:18:00.8"));
    EXPECT_EQ(pci::normalizeAddress("18:00.1"), "0000:18:00.1");
    EXPECT_EQ(pci::normalizeAddress("0000:AB:00.0"), "0000:ab:00.0");
    EXPECT_EQ(pci::normalizeAddress("mlx5_0"), "mlx5_0");

    const auto p = place("pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0", 0);
    EXPECT_EQ(p.hostBridge, "pci0000:00");
    EXPECT_EQ(p.address, "0000:03:00.0");
    EXPECT_EQ(p.bridges, (std::vector<std::string> { "0000:00:01.0", "0000:01:00.0", "0000:02:00.0" }));
    EXPECT_FALSE(pci::placementFromPath("/sys/devices/pci0000:00/0000:00:02.0/virtio2"));
}

TEST(PciTopology, NvidiaSmiWords)
{
    const auto gpu = place("pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0", 0);
    // Same switch: downstream ports 02:00.0 and 02:01.0 under upstream port 01:00.0.
    const auto pix = pci::relate(gpu, place("pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0", 0));
    EXPECT_EQ(pix.word, "PIX");
    EXPECT_EQ(pix.bridgesOnPath, (std::vector<std::string> { "0000:02:00.0", "0000:02:01.0" }));
    // Functions of one device: no bridge between them.
    const auto same = pci::relate(place("pci0000:00/0000:00:05.0/0000:40:00.0", 0), place("pci0000:00/0000:00:05.0/0000:40:00.1", 0));
    EXPECT_EQ(same.word, "PIX");
    EXPECT_TRUE(same.bridgesOnPath.empty());
    // A second switch below the first: several bridges, no host bridge.
    const auto pxb = pci::relate(place("pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:05:00.0/0000:06:00.0/0000:07:00.0", 0),
        place("pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:01.0/0000:04:00.0", 0));
    EXPECT_EQ(pxb.word, "PXB");
    EXPECT_EQ(pxb.hops, 4);
    // Different root ports of one host bridge.
    EXPECT_EQ(pci::relate(gpu, place("pci0000:00/0000:00:03.0/0000:30:00.0", 0)).word, "PHB");
    // Different host bridges: same NUMA node, other NUMA node, and both unknown (-1).
    EXPECT_EQ(pci::relate(gpu, place("pci0000:40/0000:40:01.0/0000:41:00.0", 0)).word, "NODE");
    EXPECT_EQ(pci::relate(gpu, place("pci0000:80/0000:80:01.0/0000:81:00.0", 1)).word, "SYS");
    EXPECT_EQ(pci::relate(place("pci0000:00/0000:00:01.0/0000:01:00.0", -1), place("pci0000:40/0000:40:01.0/0000:41:00.0", -1)).word, "NODE");
    EXPECT_LT(pix.rank, pxb.rank);
}

/// A 4096-byte config space with AER at 0x100 and, when `acsControl` is set, ACS at 0x148.
std::vector<std::uint8_t> configSpace(std::optional<std::uint16_t> acsControl)
{
    std::vector<std::uint8_t> config(4096, 0);
    const auto put32 = [&](std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; ++i)
            config[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
    };
    put32(0x100, 0x0001u | (2u << 16) | ((acsControl ? 0x148u : 0u) << 20)); // AER v2 -> next
    if (acsControl) {
        put32(0x148, 0x000Du | (1u << 16)); // ACS v1, last
        config[0x14c] = 0x7f;               // ACS Capability register: everything supported
        config[0x14e] = static_cast<std::uint8_t>(*acsControl & 0xff);
        config[0x14f] = static_cast<std::uint8_t>(*acsControl >> 8);
    }
    return config;
}

TEST(PciAcs, ControlRegisterBits)
{
    EXPECT_EQ(pci::acsRedirect(configSpace(0x001d)), Tri::On); // SV, RR, CR, UF: what lspci shows as ReqRedir+ CmpltRedir+
    EXPECT_EQ(pci::acsRedirect(configSpace(0x0004)), Tri::On); // RR alone
    EXPECT_EQ(pci::acsRedirect(configSpace(0x0020)), Tri::On); // egress control
    EXPECT_EQ(pci::acsRedirect(configSpace(0x0001)), Tri::Off); // source validation only
    EXPECT_EQ(pci::acsRedirect(configSpace(0x0000)), Tri::Off);
    EXPECT_EQ(pci::acsRedirect(configSpace(std::nullopt)), Tri::Off); // no ACS capability
    auto shortRead = configSpace(0x001d);
    shortRead.resize(64); // what a non-root reader gets
    EXPECT_EQ(pci::acsRedirect(shortRead), Tri::Unknown);
    EXPECT_EQ(pci::acsRedirect({}), Tri::Unknown);
    auto cut = configSpace(0x001d);
    cut.resize(0x140); // the list points beyond what was read
    EXPECT_EQ(pci::acsRedirect(cut), Tri::Unknown);
    std::vector<std::uint8_t> empty(4096, 0);
    EXPECT_EQ(pci::acsRedirect(empty), Tri::Off); // PCIe device without extended capabilities

    const std::vector<Tri> offs { Tri::Off, Tri::Off };
    const std::vector<Tri> mixed { Tri::Off, Tri::Unknown };
    const std::vector<Tri> on { Tri::Unknown, Tri::On };
    EXPECT_EQ(pci::combineAcs(offs), Tri::Off);
    EXPECT_EQ(pci::combineAcs(mixed), Tri::Unknown);
    EXPECT_EQ(pci::combineAcs(on), Tri::On);
    EXPECT_EQ(pci::combineAcs({}), Tri::Off);
}

TEST(PciAcs, ReadsThisHostsConfigSpace)
{
    // Real config files of this machine: whatever they hold, the walker must end in a
    // definite answer when the whole space was read, and Unknown when only 64 bytes were.
    const std::string base = "/sys/bus/pci/devices/";
    int read = 0;
    for (const auto& name : sysfs::listDirectory(base)) {
        const auto config = sysfs::readBinary(base + name + "/config", 4096);
        if (config.size() < 64)
            continue;
        ++read;
        const Tri acs = pci::acsRedirect(config);
        if (config.size() < 0x104)
            EXPECT_EQ(acs, Tri::Unknown) << name;
        else
            EXPECT_NE(acs, Tri::Unknown) << name << " (" << config.size() << " bytes)";
    }
    if (read == 0)
        GTEST_SKIP() << "no PCI config space readable on this host";
}

// ---- DCB netlink ----------------------------------------------------------------------------

/// Builds a kernel-shaped RTM_GETDCB answer: nlmsghdr, dcbmsg, DCB_ATTR_IFNAME, DCB_ATTR_IEEE
/// { DCB_ATTR_IEEE_PFC (ieee_pfc), DCB_ATTR_IEEE_APP_TABLE { DCB_ATTR_IEEE_APP... } }.
class Message {
public:
    void attribute(std::uint16_t type, const void* data, std::size_t size)
    {
        nlattr header {};
        header.nla_len = static_cast<std::uint16_t>(NLA_HDRLEN + size);
        header.nla_type = type;
        append(&header, sizeof header);
        append(data, size);
        pad();
    }
    std::size_t begin(std::uint16_t type)
    {
        const std::size_t at = m_bytes.size();
        nlattr header {};
        header.nla_type = static_cast<std::uint16_t>(type | NLA_F_NESTED);
        append(&header, sizeof header);
        return at;
    }
    void end(std::size_t at)
    {
        const auto length = static_cast<std::uint16_t>(m_bytes.size() - at);
        std::memcpy(m_bytes.data() + at, &length, sizeof length);
    }
    std::vector<std::uint8_t> finish(std::uint16_t type, std::uint8_t cmd) const
    {
        std::vector<std::uint8_t> out(NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(dcbmsg)), 0);
        dcbmsg dcb {};
        dcb.dcb_family = AF_UNSPEC;
        dcb.cmd = cmd;
        std::memcpy(out.data() + NLMSG_HDRLEN, &dcb, sizeof dcb);
        out.insert(out.end(), m_bytes.begin(), m_bytes.end());
        nlmsghdr header {};
        header.nlmsg_len = static_cast<std::uint32_t>(out.size());
        header.nlmsg_type = type;
        header.nlmsg_seq = 7;
        std::memcpy(out.data(), &header, sizeof header);
        return out;
    }

private:
    void append(const void* data, std::size_t size)
    {
        const auto* p = static_cast<const std::uint8_t*>(data);
        m_bytes.insert(m_bytes.end(), p, p + size);
    }
    void pad()
    {
        while (m_bytes.size() % 4)
            m_bytes.push_back(0);
    }
    std::vector<std::uint8_t> m_bytes;
};

std::vector<std::uint8_t> ieeeAnswer(std::uint8_t pfcEnabled, std::vector<dcb_app> apps)
{
    Message m;
    const char name[] = "eth3";
    m.attribute(DCB_ATTR_IFNAME, name, sizeof name);
    const auto ieee = m.begin(DCB_ATTR_IEEE);
    ieee_ets ets {};
    m.attribute(DCB_ATTR_IEEE_ETS, &ets, sizeof ets);
    ieee_pfc pfc {};
    pfc.pfc_cap = 8;
    pfc.pfc_en = pfcEnabled;
    pfc.requests[3] = 12345;
    m.attribute(DCB_ATTR_IEEE_PFC, &pfc, sizeof pfc);
    const auto table = m.begin(DCB_ATTR_IEEE_APP_TABLE);
    for (const auto& app : apps)
        m.attribute(DCB_ATTR_IEEE_APP, &app, sizeof app);
    m.end(table);
    m.end(ieee);
    std::uint8_t dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
    m.attribute(DCB_ATTR_DCBX, &dcbx, sizeof dcbx);
    return m.finish(RTM_GETDCB, DCB_CMD_IEEE_GET);
}

TEST(DcbNetlink, RequestBytes)
{
    const auto request = dcb::buildIeeeGetRequest("ens1np0", 42);
    ASSERT_GE(request.size(), NLMSG_HDRLEN + sizeof(dcbmsg) + NLA_HDRLEN + 8);
    nlmsghdr header {};
    std::memcpy(&header, request.data(), sizeof header);
    EXPECT_EQ(header.nlmsg_len, request.size());
    EXPECT_EQ(header.nlmsg_type, RTM_GETDCB);
    EXPECT_EQ(header.nlmsg_flags, NLM_F_REQUEST);
    EXPECT_EQ(header.nlmsg_seq, 42u);
    EXPECT_EQ(request[NLMSG_HDRLEN + 1], DCB_CMD_IEEE_GET);
    nlattr attribute {};
    std::memcpy(&attribute, request.data() + NLMSG_HDRLEN + 4, sizeof attribute);
    EXPECT_EQ(attribute.nla_type, DCB_ATTR_IFNAME);
    EXPECT_EQ(attribute.nla_len, NLA_HDRLEN + 8);
    EXPECT_STREQ(reinterpret_cast<const char*>(request.data() + NLMSG_HDRLEN + 4 + NLA_HDRLEN), "ens1np0");
    EXPECT_EQ(request.size() % 4, 0u);
}

TEST(DcbNetlink, PfcOnPriority3WithDscpTrust)
{
    std::vector<dcb_app> apps;
    for (std::uint16_t dscp = 24; dscp < 32; ++dscp)
        apps.push_back(dcb_app { IEEE_8021QAZ_APP_SEL_DSCP, 3, dscp });
    const auto qos = dcb::parseIeeeGetReply(ieeeAnswer(0x08, apps));
    ASSERT_TRUE(qos) << qos.error().toString();
    EXPECT_TRUE(qos->pfcKnown);
    for (std::size_t p = 0; p < 8; ++p)
        EXPECT_EQ(qos->pfcEnabled[p], p == 3) << p;
    EXPECT_EQ(qos->trust, "dscp");
    EXPECT_EQ(qos->ecnNp[3], Tri::Unknown); // not DCB's business
}

TEST(DcbNetlink, PcpTrustWithoutDscpEntries)
{
    const auto qos = dcb::parseIeeeGetReply(ieeeAnswer(0x00, { dcb_app { IEEE_8021QAZ_APP_SEL_ETHERTYPE, 3, 0x8915 } }));
    ASSERT_TRUE(qos);
    EXPECT_TRUE(qos->pfcKnown);
    EXPECT_EQ(std::count(qos->pfcEnabled.begin(), qos->pfcEnabled.end(), true), 0);
    EXPECT_EQ(qos->trust, "pcp");
}

TEST(DcbNetlink, ErrorsAndDamage)
{
    // NLMSG_ERROR with -EOPNOTSUPP: a netdev without dcbnl ops.
    std::vector<std::uint8_t> error(NLMSG_HDRLEN + sizeof(nlmsgerr), 0);
    nlmsghdr header {};
    header.nlmsg_len = static_cast<std::uint32_t>(error.size());
    header.nlmsg_type = NLMSG_ERROR;
    std::memcpy(error.data(), &header, sizeof header);
    nlmsgerr body {};
    body.error = -EOPNOTSUPP;
    std::memcpy(error.data() + NLMSG_HDRLEN, &body, sizeof body);
    const auto refused = dcb::parseIeeeGetReply(error);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, "DCB_UNAVAILABLE");
    EXPECT_NE(refused.error().message.find("not supported"), std::string::npos) << refused.error().message;

    auto good = ieeeAnswer(0x08, {});
    for (std::size_t cut : { std::size_t { 3 }, std::size_t { 20 }, good.size() - 5 }) {
        auto damaged = good;
        damaged.resize(cut);
        if (cut >= sizeof(nlmsghdr)) { // keep the header's length honest so the attribute walk is tested
            const auto length = static_cast<std::uint32_t>(cut);
            std::memcpy(damaged.data(), &length, sizeof length);
        }
        EXPECT_FALSE(dcb::parseIeeeGetReply(damaged)) << cut;
    }
    // An answer without DCB_ATTR_IEEE says nothing about PFC.
    Message m;
    const char name[] = "eth3";
    m.attribute(DCB_ATTR_IFNAME, name, sizeof name);
    EXPECT_FALSE(dcb::parseIeeeGetReply(m.finish(RTM_GETDCB, DCB_CMD_IEEE_GET)));
}

TEST(DcbNetlink, RealSocketOnLoopback)
{
    // The real kernel: loopback has no DCB, so the query must come back refused, not hang.
    const auto qos = dcb::queryIeee("lo");
    ASSERT_FALSE(qos);
    EXPECT_TRUE(qos.error().code == "DCB_UNAVAILABLE" || qos.error().code == "DCB_NETLINK") << qos.error().toString();
}

// ---- ethtool ioctl --------------------------------------------------------------------------

TEST(EthtoolIoctl, ThisHostsInterfaces)
{
    const auto missing = ethtool::readStats("nosuchif0");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("ETHTOOL_"), std::string::npos);
    EXPECT_EQ(missing.error().where, "nosuchif0");

    const auto loopback = ethtool::readStats("lo");
    ASSERT_TRUE(loopback) << loopback.error().toString();
    EXPECT_TRUE(loopback->empty()); // loopback has no driver statistics

    // A virtio NIC (as on this build machine) exports per-queue statistics ("rx0_kicks" or
    // "rx_queue_0_packets", by kernel version): names and values pair up, the same names
    // each time, and the kick counters only grow.
    for (const auto& name : sysfs::listDirectory("/sys/class/net/")) {
        if (sysfs::linkTargetName("/sys/class/net/" + name + "/device/driver") != "virtio_net")
            continue;
        const auto first = ethtool::readStats(name);
        ASSERT_TRUE(first) << first.error().toString();
        ASSERT_FALSE(first->empty()) << name;
        const auto second = ethtool::readStats(name);
        ASSERT_TRUE(second);
        ASSERT_EQ(first->size(), second->size());
        for (const auto& [stat, value] : *first) {
            EXPECT_FALSE(stat.empty());
            ASSERT_TRUE(second->count(stat)) << stat;
            if (stat.find("kicks") != std::string::npos || stat.find("packets") != std::string::npos) {
                EXPECT_GE(second->at(stat), value) << stat;
            }
        }
    }
}

// ---- counter kinds --------------------------------------------------------------------------

TEST(CounterKinds, PmaWidthsSaturationAndWords)
{
    const auto data = sysfs::portCounter("port_xmit_data", 230442669431839ull);
    EXPECT_EQ(data.kind, CounterKind::Words4);
    EXPECT_EQ(data.widthBits, 64);
    EXPECT_EQ(sysfs::portCounter("port_rcv_data", 1).kind, CounterKind::Words4);
    EXPECT_EQ(sysfs::portCounter("port_xmit_packets", 1).kind, CounterKind::Plain);
    EXPECT_EQ(sysfs::portCounter("unicast_rcv_packets", 1).kind, CounterKind::Plain);

    const auto downed = sysfs::portCounter("link_downed", 255);
    EXPECT_EQ(downed.kind, CounterKind::Saturating);
    EXPECT_EQ(downed.widthBits, 8);
    EXPECT_TRUE(downed.saturated);
    EXPECT_FALSE(sysfs::portCounter("link_downed", 254).saturated);
    EXPECT_TRUE(sysfs::portCounter("excessive_buffer_overrun_errors", 15).saturated);
    EXPECT_EQ(sysfs::portCounter("local_link_integrity_errors", 3).widthBits, 4);
    EXPECT_TRUE(sysfs::portCounter("symbol_error", 65535).saturated);
    EXPECT_FALSE(sysfs::portCounter("symbol_error", 65534).saturated);
    EXPECT_EQ(sysfs::portCounter("port_rcv_constraint_errors", 1).widthBits, 8);
    EXPECT_EQ(sysfs::portCounter("VL15_dropped", 1).widthBits, 16);
    const auto wait = sysfs::portCounter("port_xmit_wait", 4294967295ull);
    EXPECT_EQ(wait.widthBits, 32);
    EXPECT_TRUE(wait.saturated);
}

TEST(CounterKinds, Mlx5HwCounters)
{
    const auto q = sysfs::hwCounter("rx_write_requests", 3809045607ull);
    EXPECT_EQ(q.kind, CounterKind::Wrapping32);
    EXPECT_EQ(q.widthBits, 32);
    EXPECT_FALSE(q.saturated);
    EXPECT_EQ(sysfs::hwCounter("out_of_sequence", 1).kind, CounterKind::Wrapping32);
    EXPECT_EQ(sysfs::hwCounter("vport_out_of_buffer", 1).kind, CounterKind::Wrapping32);
    EXPECT_EQ(sysfs::hwCounter("np_cnp_sent", 1).kind, CounterKind::Plain);
    EXPECT_EQ(sysfs::hwCounter("rp_cnp_handled", 1).widthBits, 64);
    EXPECT_EQ(sysfs::hwCounter("lifespan", 10).kind, CounterKind::Plain);
    EXPECT_EQ(sysfs::hwCounter("some_new_counter", 5000000000ull).kind, CounterKind::Plain); // cannot be 32-bit
}

// ---- small readers --------------------------------------------------------------------------

TEST(SysfsRead, Numbers)
{
    EXPECT_EQ(sysfs::parseUnsigned("0x1a\n"), 26u);
    EXPECT_EQ(sysfs::parseUnsigned(" 18446744073709551615\n"), 18446744073709551615ull);
    EXPECT_FALSE(sysfs::parseUnsigned("N/A (no PMA)"));
    EXPECT_FALSE(sysfs::parseUnsigned(""));
}

TEST(HostSources, NvidiaInformationAndOpensmLog)
{
    // The layout of /proc/driver/nvidia/gpus/<pci>/information (tab-aligned "Key: value").
    const std::string information = "Model: \t\t NVIDIA H100 80GB HBM3\nIRQ:   \t\t 0\nGPU UUID: \t GPU-00000000\n"
                                    "Bus Type: \t PCIe\nBus Location: \t 0000:18:00.0\n";
    EXPECT_EQ(parseNvidiaInformationModel(information), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(parseNvidiaInformationModel("IRQ: 5\n"), "");

    // osm_ucast_mgr_process's message ("%s: %s tables configured on all switches", as in the
    // strings of Debian's /usr/sbin/opensm), twice: the last one counts.
    const std::string log = "Mar 03 10:00:01 000001 [7F4A] 0x02 -> osm_ucast_mgr_process: updn tables configured on all switches\n"
                            "Mar 03 10:05:01 000002 [7F4A] 0x02 -> osm_ucast_mgr_process: ftree tables configured on all switches\n"
                            "Mar 03 10:05:01 000003 [7F4A] 0x02 -> SUBNET UP\n";
    EXPECT_EQ(parseOpensmRoutingEngine(log), "ftree");
    EXPECT_EQ(parseOpensmRoutingEngine("Mar 03 10:05:01 SUBNET UP\n"), "");
}

TEST(HostSources, RunProgram)
{
    const std::string echo = findProgram("echo");
    ASSERT_FALSE(echo.empty());
    const auto out = runProgram({ echo, "lldp.eth0.via=LLDP" }, std::chrono::seconds(5));
    ASSERT_TRUE(out) << out.error().toString();
    EXPECT_EQ(*out, "lldp.eth0.via=LLDP\n");
    const std::string falseProgram = findProgram("false");
    ASSERT_FALSE(falseProgram.empty());
    EXPECT_FALSE(runProgram({ falseProgram }, std::chrono::seconds(5)));
    EXPECT_FALSE(runProgram({ "/nonexistent/lldpctl" }, std::chrono::seconds(5)));
    const std::string sleepProgram = findProgram("sleep");
    ASSERT_FALSE(sleepProgram.empty());
    const auto slow = runProgram({ sleepProgram, "30" }, std::chrono::milliseconds(200));
    ASSERT_FALSE(slow);
    EXPECT_NE(slow.error().message.find("killed"), std::string::npos);
}

} // namespace
} // namespace railyard::live
