// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// parseLldpctlKeyvalue, parseEthtoolStats, parseMlnxQos, parseDcbPfcShow and parseLsmod against
// the real outputs in ../shared/fixtures (and, where no real sample exists, short texts in the
// tool's documented format, marked as such).
#include "live/common/tool_parsers.h"
#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace railyard::live;
using namespace railyard::live::test;

TEST(ParseLldpctl, CumulusTwoNics)
{
    const auto r = parseLldpctlKeyvalue(sharedFixture("lldpctl-f-keyvalue-server-2nic-cumulus-dell-s4100-netbox-agent.txt"));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 2u);
    EXPECT_EQ((*r)[0].localInterface, "eno1");
    EXPECT_EQ((*r)[0].systemName, "toto-chassis.dc42");
    EXPECT_EQ((*r)[0].chassisId, "e4:f0:04:b6:47:32");
    EXPECT_EQ((*r)[0].portId, "swp46");
    EXPECT_EQ((*r)[0].portDescription, "BXVWNR2:lom2");
    EXPECT_EQ((*r)[1].localInterface, "eno2d1");
    // The fixture's second block names eno1 in its chassis.name key: eno2d1 has no name.
    EXPECT_EQ((*r)[1].systemName, "");
    EXPECT_EQ((*r)[1].chassisId, "e4:f0:04:b6:4e:32");
    EXPECT_EQ((*r)[1].portId, "swp46");
    EXPECT_EQ((*r)[1].portDescription, "BXVWNR2:lom1");
}

TEST(ParseLldpctl, JuniperLocalPortId)
{
    const auto r = parseLldpctlKeyvalue(sharedFixture("lldpctl-f-keyvalue-server-2nic-juniper-qfx5100-netbox-agent.txt"));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 2u);
    EXPECT_EQ((*r)[0].localInterface, "eth0");
    EXPECT_EQ((*r)[0].systemName, "sw-filer-f06.dc42");
    EXPECT_EQ((*r)[0].portId, "512");
    EXPECT_EQ((*r)[0].portDescription, "xe-0/0/1");
    EXPECT_EQ((*r)[1].systemName, "sw-filer-f05.dc42");
    EXPECT_EQ((*r)[1].chassisId, "40:a6:77:7c:fb:20");
}

TEST(ParseLldpctl, CiscoMultilineDescription)
{
    std::vector<std::string> warnings;
    const auto r = parseLldpctlKeyvalue(sharedFixture("lldpctl-f-keyvalue-server-cisco-2960x-multiline-descr-netbox-agent.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 1u);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    EXPECT_EQ((*r)[0].localInterface, "eno1");
    EXPECT_EQ((*r)[0].systemName, "s35-b12.dc3");
    EXPECT_EQ((*r)[0].portId, "Gi1/0/29");
    EXPECT_EQ((*r)[0].portDescription, "GigabitEthernet1/0/29");
    EXPECT_EQ((*r)[0].chassisId, "38:20:56:67:90:80");
}

TEST(ParseLldpctl, InterfaceNamesWithDotsStayWhole)
{
    // Written in lldpd's keyvalue format (no real sample of a VLAN interface was found).
    const auto r = parseLldpctlKeyvalue("lldp.eth0.100.via=LLDP\nlldp.eth0.100.chassis.name=su1-rail0-leaf\nlldp.eth0.100.port.ifname=swp7\n");
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 1u);
    EXPECT_EQ((*r)[0].localInterface, "eth0.100");
    EXPECT_EQ((*r)[0].systemName, "su1-rail0-leaf");
    EXPECT_EQ((*r)[0].portId, "swp7");
}

TEST(ParseEthtool, Mlx5EveryStatistic)
{
    const std::string text = sharedFixture("ethtool-S-mlx5_core-cx4lx-2018-ethq-fixture.txt");
    std::vector<std::string> warnings;
    const auto r = parseEthtoolStats(text, warnings);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    // Every line after the source line is one statistic.
    const auto lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) - 1;
    EXPECT_EQ(r->size(), lines);
    EXPECT_EQ(r->at("rx_packets"), 845320277u);
    EXPECT_EQ(r->at("rx_bytes"), 2195783498134u);
    EXPECT_EQ(r->at("rx_prio0_bytes"), 2202570777997u);
    EXPECT_EQ(r->at("rx_prio3_packets"), 0u);
    EXPECT_EQ(r->at("tx15_xmit_more"), 5530u);
    EXPECT_EQ(r->count("rx_prio3_pause"), 0u); // PFC was off on that port: no such counter

    // As ethtool prints it: the header and a 5-space indent.
    std::string printed = "NIC statistics:\n";
    std::istringstream in(text.substr(text.find('\n') + 1));
    for (std::string line; std::getline(in, line);)
        printed += "     " + line + "\n";
    const auto again = parseEthtoolStats(printed);
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(*again, *r);
}

TEST(ParseEthtool, NamesWithSpacesBracketsAndColons)
{
    // ethtool prints "%s: %llu" with the driver's string; some drivers use spaces and brackets.
    const auto r = parseEthtoolStats("NIC statistics:\n     rx_packets: 5\n     [0]: rx_bytes: 7\n     tx queue 0 packets: 3\n");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->at("rx_packets"), 5u);
    EXPECT_EQ(r->at("[0]: rx_bytes"), 7u);
    EXPECT_EQ(r->at("tx queue 0 packets"), 3u);
    const auto bad = parseEthtoolStats("NIC statistics:\n     rx_packets: 5\n     rx_bytes: -7\n     tx_bytes: 1\n");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("ethtool -S: line 3 'rx_bytes: -7'"), std::string::npos) << bad.error().message;
}

TEST(ParseMlnxQos, TrustDscpPfcOnPriorityThreeInAScriptTrace)
{
    std::vector<std::string> warnings;
    const auto r = parseMlnxQos(sharedFixture("mlnx_qos-trust-dscp-pfc-prio3-script-trace.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->trust, "dscp");
    EXPECT_TRUE(r->pfcKnown);
    EXPECT_EQ(r->pfcEnabled, (std::array<bool, 8> { false, false, false, true, false, false, false, false }));
    EXPECT_TRUE(anyContains(warnings, "2 runs"));
}

TEST(ParseMlnxQos, PcpAndReorderedPriorityHeader)
{
    // The same layout as the fixture, with trust pcp and PFC on 5 and 6.
    const auto r = parseMlnxQos("DCBX mode: OS controlled\nPriority trust state: pcp\nPFC configuration:\n"
                                "\tpriority    0   1   2   3   4   5   6   7\n\tenabled     0   0   0   0   0   1   1   0   \n");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->trust, "pcp");
    EXPECT_EQ(r->pfcEnabled, (std::array<bool, 8> { false, false, false, false, false, true, true, false }));
    const auto bad = parseMlnxQos("DCBX mode: OS controlled\nPriority trust state: pcp\nPFC configuration:\n\tenabled 0 0 0 1\n\tx\n");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("line 4"), std::string::npos) << bad.error().message;
}

TEST(ParseDcbPfc, IproutePfcExampleWithCounters)
{
    std::vector<std::string> warnings;
    const auto r = parseDcbPfc(sharedFixture("dcb-pfc-show-mlxsw-port-requests-indications-iproute2-commit-example.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->pfcCap, 8);
    EXPECT_EQ(r->macsecBypass, true);
    EXPECT_EQ(r->delay, 0);
    EXPECT_TRUE(r->prioPfcKnown);
    EXPECT_EQ(r->prioPfc, (std::array<bool, 8> { false, true, false, false, false, false, false, true }));
    ASSERT_TRUE(r->requests);
    EXPECT_EQ((*r->requests)[1], 217u);
    EXPECT_EQ((*r->requests)[7], 28u);
    ASSERT_TRUE(r->indications);
    EXPECT_EQ((*r->indications)[1], 179u);
    const auto flags = parseDcbPfcShow(sharedFixture("dcb-pfc-show-mlxsw-port-requests-indications-iproute2-commit-example.txt"));
    ASSERT_TRUE(flags);
    EXPECT_TRUE((*flags)[7]);
}

TEST(ParseDcbPfc, ReleasedFormatWithTrailingSpaces)
{
    // The man page's example (quoted in the fixture's source line), with the released tool's
    // trailing space after every item.
    const auto r = parseDcbPfcShow("pfc-cap 8 macsec-bypass off delay 4096 \nprio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:on 7:on \n");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(*r, (std::array<bool, 8> { false, false, false, false, false, false, true, true }));
    const auto none = parseDcbPfcShow("pfc-cap 8 macsec-bypass off delay 4096\n");
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("prio-pfc"), std::string::npos);
}

TEST(ParseLsmod, ModuleNames)
{
    // lsmod's layout ("%-19s %8lu  %s"); no real lsmod of a GPU node is among the fixtures.
    const auto r = parseLsmod("Module                  Size  Used by\nnvidia_peermem         16384  0\n"
                              "nvidia              56770560  3 nvidia_uvm,nvidia_peermem,nvidia_modeset\nib_core               446464  9 rdma_cm,ib_ipoib\n");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(*r, (std::vector<std::string> { "nvidia_peermem", "nvidia", "ib_core" }));
}
