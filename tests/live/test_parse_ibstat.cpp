// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// parseIbstat against every real ibstat output in ../shared/fixtures (fed as stored, with their
// `# source:` line and the posters' prompt lines: the parser skips both).
#include "live/common/tool_parsers.h"
#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>


using namespace railyard::live;
using namespace railyard::live::test;

namespace {

std::string toCrlf(const std::string& s)
{
    std::string out;
    for (const char c : s) {
        if (c == '\n')
            out += '\r';
        out += c;
    }
    return out;
}

} // namespace

TEST(ParseIbstat, FourCasRoceAndInfiniBandWithSpaces)
{
    std::vector<std::string> warnings;
    const auto r = parseIbstat(sharedFixture("ibstat-4ca-cx4lx-roce-plus-cx6-hdr-ib-mixed-nccl-tests-350.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 4u);
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    const RdmaDevice& eth = (*r)[0];
    EXPECT_EQ(eth.name, "mlx5_0");
    EXPECT_EQ(eth.hcaType, "MT4117");
    EXPECT_EQ(eth.fwVersion, "14.32.1010");
    EXPECT_EQ(eth.nodeGuid, "b8ce:f603:00ce:e2b8");
    EXPECT_EQ(eth.sysImageGuid, "b8ce:f603:00ce:e2b8");
    ASSERT_EQ(eth.ports.size(), 1u);
    EXPECT_EQ(eth.ports[0].number, 1);
    EXPECT_EQ(eth.ports[0].state, 4);
    EXPECT_EQ(eth.ports[0].stateName, "ACTIVE");
    EXPECT_EQ(eth.ports[0].physState, 5);
    EXPECT_EQ(eth.ports[0].physStateName, "LinkUp");
    EXPECT_EQ(eth.ports[0].rateGbps, 25);
    EXPECT_EQ(eth.ports[0].rateText, "25");
    EXPECT_EQ(eth.ports[0].width, 0); // ibstat prints no width: nothing derived
    EXPECT_TRUE(eth.ports[0].generation.empty());
    EXPECT_EQ(eth.ports[0].linkLayer, LinkLayer::Ethernet);
    EXPECT_EQ(eth.ports[0].lid, 0);
    const RdmaDevice& down = (*r)[1];
    EXPECT_EQ(down.sysImageGuid, "b8ce:f603:00ce:e2b8");
    EXPECT_EQ(down.nodeGuid, "b8ce:f603:00ce:e2b9");
    EXPECT_EQ(down.ports[0].state, 1);
    EXPECT_EQ(down.ports[0].stateName, "DOWN");
    EXPECT_EQ(down.ports[0].physState, 3);
    EXPECT_EQ(down.ports[0].physStateName, "Disabled");
    EXPECT_EQ(down.ports[0].rateGbps, 40);
    const RdmaDevice& ib = (*r)[2];
    EXPECT_EQ(ib.hcaType, "MT4123");
    EXPECT_EQ(ib.fwVersion, "20.43.1014");
    EXPECT_EQ(ib.ports[0].linkLayer, LinkLayer::InfiniBand);
    EXPECT_EQ(ib.ports[0].rateGbps, 200);
    EXPECT_EQ(ib.ports[0].lid, 37);
    EXPECT_EQ(ib.ports[0].smLid, 26);
    EXPECT_EQ((*r)[3].ports[0].lid, 65535);
    EXPECT_EQ((*r)[3].ports[0].rateGbps, 10);
}

TEST(ParseIbstat, CrlfAndWithoutSourceLineGiveTheSame)
{
    const std::string text = sharedFixture("ibstat-4ca-cx4lx-roce-plus-cx6-hdr-ib-mixed-nccl-tests-350.txt");
    const auto plain = parseIbstat(text);
    const auto crlf = parseIbstat(toCrlf(text));
    const auto bare = parseIbstat(text.substr(text.find('\n') + 1));
    ASSERT_TRUE(plain && crlf && bare);
    ASSERT_EQ(crlf->size(), plain->size());
    ASSERT_EQ(bare->size(), plain->size());
    for (std::size_t i = 0; i < plain->size(); ++i) {
        EXPECT_EQ((*crlf)[i].name, (*plain)[i].name);
        EXPECT_EQ((*crlf)[i].fwVersion, (*plain)[i].fwVersion);
        EXPECT_EQ((*crlf)[i].ports[0].stateName, (*plain)[i].ports[0].stateName);
        EXPECT_EQ((*bare)[i].nodeGuid, (*plain)[i].nodeGuid);
    }
}

TEST(ParseIbstat, TabsAndTruncatedAfterNodeGuid)
{
    std::vector<std::string> warnings;
    const auto r = parseIbstat(sharedFixture("ibstat-cx6-hdr-ib-active-and-disabled-PARTIAL.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 3u);
    EXPECT_EQ((*r)[0].name, "mlx5_4");
    EXPECT_EQ((*r)[0].fwVersion, "20.26.4012");
    EXPECT_EQ((*r)[0].nodeGuid, "0c42:a103:0017:c078");
    EXPECT_EQ((*r)[0].ports[0].lid, 90);
    EXPECT_EQ((*r)[0].ports[0].smLid, 2);
    EXPECT_EQ((*r)[0].ports[0].state, 4);
    EXPECT_EQ((*r)[1].name, "mlx5_2");
    EXPECT_EQ((*r)[1].ports[0].stateName, "DOWN");
    EXPECT_EQ((*r)[1].ports[0].lid, 65535);
    EXPECT_EQ((*r)[2].name, "mlx5_0");
    EXPECT_EQ((*r)[2].nodeGuid, "0c42:a103:0017:c090");
    EXPECT_TRUE((*r)[2].ports.empty());
    EXPECT_TRUE(anyContains(warnings, "ends inside CA 'mlx5_0'"));
    // The prompt line "[root@amd01 ~]# ibstat" is a command, not a skipped line.
    EXPECT_FALSE(anyContains(warnings, "skipped"));
}

TEST(ParseIbstat, Cx7NdrInfiniBand)
{
    std::vector<std::string> warnings;
    const auto r = parseIbstat(sharedFixture("ibstat-cx7-ndr-400-ib-h20-PARTIAL.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 3u);
    EXPECT_EQ((*r)[0].hcaType, "MT4129");
    EXPECT_EQ((*r)[0].fwVersion, "28.43.2026");
    EXPECT_EQ((*r)[0].nodeGuid, "a088:c203:0074:cfda");
    EXPECT_EQ((*r)[0].ports[0].rateGbps, 400);
    EXPECT_EQ((*r)[0].ports[0].lid, 50);
    EXPECT_EQ((*r)[0].ports[0].smLid, 1);
    EXPECT_EQ((*r)[0].ports[0].linkLayer, LinkLayer::InfiniBand);
    EXPECT_EQ((*r)[1].ports[0].lid, 49);
    // The third CA is cut after its physical state.
    ASSERT_EQ((*r)[2].ports.size(), 1u);
    EXPECT_EQ((*r)[2].ports[0].physState, 5);
    EXPECT_EQ((*r)[2].ports[0].rateGbps, 0);
    EXPECT_EQ((*r)[2].ports[0].linkLayer, LinkLayer::Unknown);
    EXPECT_TRUE(anyContains(warnings, "ends inside CA 'mlx5_2'"));
}

TEST(ParseIbstat, Cx7RoceAndCx6DxDown)
{
    const auto r = parseIbstat(sharedFixture("ibstat-cx7-roce-200g-and-cx6dx-down-PARTIAL.txt"));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 3u);
    EXPECT_EQ((*r)[0].fwVersion, "28.39.1002");
    EXPECT_EQ((*r)[0].ports[0].linkLayer, LinkLayer::Ethernet);
    EXPECT_EQ((*r)[0].ports[0].rateGbps, 200);
    EXPECT_EQ((*r)[1].nodeGuid, "58a2:e103:00da:e627");
    EXPECT_EQ((*r)[1].sysImageGuid, "58a2:e103:00da:e626");
    EXPECT_EQ((*r)[2].name, "mlx5_10");
    EXPECT_EQ((*r)[2].hcaType, "MT4125");
    EXPECT_EQ((*r)[2].fwVersion, "22.31.1014");
    EXPECT_EQ((*r)[2].ports[0].state, 1);
    EXPECT_EQ((*r)[2].ports[0].physState, 3);
}

TEST(ParseIbstat, BlueField3BondDevices)
{
    const auto r = parseIbstat(sharedFixture("ibstat-bluefield3-bond-roce-200-PARTIAL.txt"));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 3u);
    EXPECT_EQ((*r)[0].name, "mlx5_bond_0");
    EXPECT_EQ((*r)[0].hcaType, "MT41692");
    EXPECT_EQ((*r)[0].fwVersion, "32.39.3804");
    EXPECT_EQ((*r)[0].ports[0].rateGbps, 200);
    EXPECT_EQ((*r)[0].ports[0].linkLayer, LinkLayer::Ethernet);
    EXPECT_EQ((*r)[1].name, "mlx5_bond_1");
    EXPECT_EQ((*r)[2].name, "mlx5_bond_2");
    EXPECT_EQ((*r)[2].nodeGuid, "c470:bd03:0072:2baa");
}

TEST(ParseIbstat, IbpanicAndElidedValuesKeepWhatWasParsed)
{
    std::vector<std::string> warnings;
    const auto r = parseIbstat(sharedFixture("ibstat-partial-failure-ibpanic-elided-by-poster.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 1u);
    const RdmaDevice& d = (*r)[0];
    EXPECT_EQ(d.name, "mlx5_7");
    EXPECT_TRUE(d.hcaType.empty());
    EXPECT_TRUE(d.fwVersion.empty());
    EXPECT_TRUE(d.nodeGuid.empty());
    ASSERT_EQ(d.ports.size(), 1u);
    EXPECT_EQ(d.ports[0].state, 4);
    EXPECT_EQ(d.ports[0].rateGbps, 200);
    EXPECT_EQ(d.ports[0].lid, 13305);
    EXPECT_EQ(d.ports[0].smLid, 1);
    EXPECT_EQ(d.ports[0].linkLayer, LinkLayer::InfiniBand);
    EXPECT_TRUE(anyContains(warnings, "stat of IB device 'mlx5_8' failed"));
    EXPECT_TRUE(anyContains(warnings, "elided"));

    // Only the panic: nothing parseable, an error naming the line.
    const auto none = parseIbstat("ibpanic: [1] main: stat of IB device 'mlx5_0' failed: No such file or directory\n");
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, "TOOL_OUTPUT");
    EXPECT_NE(none.error().message.find("ibpanic"), std::string::npos);
}

TEST(ParseIbstat, CutMidLineDropsTheLastLine)
{
    const std::string text = sharedFixture("ibstat-4ca-cx4lx-roce-plus-cx6-hdr-ib-mixed-nccl-tests-350.txt");
    // Cut inside mlx5_2's node GUID, and inside its state word.
    const std::string guidCut = text.substr(0, text.find("0xb8cef603002d857a") + 10);
    std::vector<std::string> warnings;
    const auto r = parseIbstat(guidCut, warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 3u);
    EXPECT_TRUE((*r)[2].nodeGuid.empty());
    EXPECT_TRUE(anyContains(warnings, "incomplete"));

    const auto mlx52 = text.find("CA 'mlx5_2'");
    const std::string stateCut = text.substr(0, text.find("State: Active", mlx52) + 10); // "State: Act"
    const auto s = parseIbstat(stateCut);
    ASSERT_TRUE(s) << s.error().message;
    ASSERT_EQ((*s)[2].ports.size(), 1u);
    EXPECT_EQ((*s)[2].ports[0].state, 0);
}

TEST(ParseIbstat, ForeignLineInsideTheListingIsAnError)
{
    std::string text = sharedFixture("ibstat-4ca-cx4lx-roce-plus-cx6-hdr-ib-mixed-nccl-tests-350.txt");
    text.insert(text.find("CA 'mlx5_1'"), "rx_packets=12\n");
    const auto r = parseIbstat(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "TOOL_OUTPUT");
    EXPECT_NE(r.error().message.find("ibstat: line 19 'rx_packets=12'"), std::string::npos) << r.error().message;
    EXPECT_EQ(r.error().where, "line 19");
}

TEST(ParseIbstat, GuidForms)
{
    EXPECT_EQ(guidToSysfsForm("0xb8cef60300cee2b8"), "b8ce:f603:00ce:e2b8");
    EXPECT_EQ(guidToSysfsForm("0XB8CEF60300CEE2B8"), "b8ce:f603:00ce:e2b8");
    EXPECT_EQ(guidToSysfsForm("0x2c9030001"), "0000:0002:c903:0001");
    EXPECT_EQ(guidToSysfsForm("B83F:D203:00A4:5E52"), "b83f:d203:00a4:5e52");
    EXPECT_FALSE(guidToSysfsForm("0x"));
    EXPECT_FALSE(guidToSysfsForm("0x1234567890abcdef0"));
    EXPECT_FALSE(guidToSysfsForm("b83f:d203:00a4"));
    EXPECT_FALSE(guidToSysfsForm("..."));
}
