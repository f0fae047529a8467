// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The ibnetdiscover reader against real outputs (../shared/fixtures), the project's own
// exporter, and malformed input.
#include "live/client/ibnet_parse.h"

#include "core/examples.h"
#include "planner/exporters.h"
#include "planner/planner.h"
#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace railyard;
using namespace railyard::live;
using namespace railyard::live::test;

namespace {

const IbLink* linkAt(const IbFabric& f, std::uint64_t guid, int port)
{
    for (const auto& l : f.links)
        if ((l.a.guid == guid && l.a.port == port) || (l.b.guid == guid && l.b.port == port))
            return &l;
    return nullptr;
}

IbLinkEnd peerOf(const IbLink& l, std::uint64_t guid, int port)
{
    return l.a.guid == guid && l.a.port == port ? l.b : l.a;
}

} // namespace

TEST(IbnetParse, SuperbenchTopologyFormat)
{
    const std::string text = sharedFixture("ibnetdiscover-multiswitch-hdr-superbench-faked.txt");
    ASSERT_FALSE(text.empty()) << "fixture missing";
    auto f = parseIbnetdiscover(text, "superbench.txt");
    ASSERT_TRUE(f.ok()) << f.error().toString();
    int switches = 0, cas = 0;
    for (const auto& n : f->nodes)
        (n.type == IbNodeType::Switch ? switches : cas) += 1;
    EXPECT_EQ(switches, 8);
    EXPECT_EQ(cas, 11); // 10 hosts + the Aggregation Node (no Ca block of its own)
    const IbNode* spine = f->find(0xff08c43213b3f30);
    ASSERT_NE(spine, nullptr);
    EXPECT_EQ(spine->type, IbNodeType::Switch);
    EXPECT_EQ(spine->ports, 41);
    EXPECT_EQ(spine->lid, 387);
    EXPECT_EQ(spine->description, "MF0;rmd70-0101-0908-01ib1-A:MCS8500/S01/U1");
    const IbNode* agg = f->find(0xff08c43213b3f38);
    ASSERT_NE(agg, nullptr);
    EXPECT_EQ(agg->type, IbNodeType::CA);
    EXPECT_EQ(agg->description, "Mellanox Technologies Aggregation Node");
    const IbNode* host = f->find(0x1c34da03005baca4);
    ASSERT_NE(host, nullptr);
    EXPECT_EQ(host->description, "RMD701091902003 ibp11s0f0");
    EXPECT_EQ(host->lid, 1294);
    EXPECT_EQ(host->ports, 1);
    EXPECT_EQ(host->portGuids.at(1), 0x1c34da03005baca4u);
    // Every link once: 2 spine-leaf, 1 spine-aggregation node, 3+2 leaf-ToR, 5 x 2 ToR-host.
    EXPECT_EQ(f->links.size(), 18u);
    const IbLink* l = linkAt(*f, 0xff08c432172a97a, 12);
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(peerOf(*l, 0xff08c432172a97a, 12), (IbLinkEnd { 0xff08c43215bae68, 26 }));
    EXPECT_EQ(l->width, "4x");
    EXPECT_EQ(l->speed, "HDR");
    const IbLink* toHost = linkAt(*f, 0x43f720300e61112, 1);
    ASSERT_NE(toHost, nullptr);
    EXPECT_EQ(peerOf(*toHost, 0x43f720300e61112, 1), (IbLinkEnd { 0xff08c43215bae68, 9 }));
}

TEST(IbnetParse, TreydockPortsFormatEdr)
{
    const std::string text = sharedFixture("ibnetdiscover-ports-edr-treydock.txt");
    ASSERT_FALSE(text.empty());
    auto f = parseIbnetdiscover(text, "edr.txt");
    ASSERT_TRUE(f.ok()) << f.error().toString();
    EXPECT_EQ(f->links.size(), 4u); // 3 CA links (each listed from both ends) + 1 switch-switch
    const IbLink* l = linkAt(*f, 0x7cfe9003003b4bde, 1);
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(peerOf(*l, 0x7cfe9003003b4bde, 1), (IbLinkEnd { 0x7cfe9003009ce5b0, 10 }));
    EXPECT_EQ(l->width, "4x");
    EXPECT_EQ(l->speed, "EDR");
    const IbNode* ca = f->find(0x7cfe9003003b4bde);
    ASSERT_NE(ca, nullptr);
    EXPECT_EQ(ca->description, "o0001 HCA-1");
    EXPECT_EQ(ca->lid, 134);
    EXPECT_EQ(ca->type, IbNodeType::CA);
    const IbNode* sw = f->find(0x506b4b03005c2740);
    ASSERT_NE(sw, nullptr);
    EXPECT_EQ(sw->description, "ib-i4l1s01");
    EXPECT_EQ(sw->lid, 2052);
    ASSERT_EQ(f->unconnectedPorts.size(), 2u); // "4x ???" and "4x SDR" without a peer
    EXPECT_EQ(f->unconnectedPorts[0], (IbLinkEnd { 0x08c0eb0300add20e, 80 }));
    EXPECT_EQ(f->unconnectedPorts[1], (IbLinkEnd { 0x506b4b03005c2740, 37 }));
    EXPECT_NE(f->find(0x08c0eb0300add20e), nullptr);
    EXPECT_EQ(f->find(0x08c0eb0300add20e)->description, "ib-i7l2s01");
}

// A description is any bytes an administrator set (and the SM cuts it at 64, maybe inside a
// character). One that was not UTF-8 went into `live cabling --json` as it was, and its dump()
// threw ("error: internal", type_error 316). Read as UTF-8 now, U+FFFD for each such byte.
TEST(IbnetParse, ADescriptionThatIsNotUtf8ReadsAsAReplacementCharacter)
{
    std::string text = sharedFixture("ibnetdiscover-ports-edr-treydock.txt");
    for (std::size_t at; (at = text.find("'ib-i4l1s01'")) != std::string::npos;)
        text.replace(at, 12, "'ib-i4l1s\xE9'");
    auto f = parseIbnetdiscover(text, "edr.txt");
    ASSERT_TRUE(f.ok()) << f.error().toString();
    const IbNode* sw = f->find(0x506b4b03005c2740);
    ASSERT_NE(sw, nullptr);
    EXPECT_EQ(sw->description, "ib-i4l1s\xEF\xBF\xBD");
    EXPECT_EQ(f->find(0x7cfe9003003b4bde)->description, "o0001 HCA-1");
}

TEST(IbnetParse, TreydockPortsFormatHdrQdrKeepsDescriptionSpaces)
{
    const std::string text = sharedFixture("ibnetdiscover-ports-hdr-qdr-treydock.txt");
    ASSERT_FALSE(text.empty());
    auto f = parseIbnetdiscover(text, "hdr.txt");
    ASSERT_TRUE(f.ok()) << f.error().toString();
    ASSERT_NE(f->find(0x946dae0300630bf6), nullptr);
    EXPECT_EQ(f->find(0x946dae0300630bf6)->description, "5FB0405-leaf-IB01 ");
    ASSERT_NE(f->find(0x946dae0300618c83), nullptr);
    EXPECT_EQ(f->find(0x946dae0300618c83)->description, " 5FB0406-spine-IB02 ");
    ASSERT_NE(f->find(0x946dae030053ec1a), nullptr);
    EXPECT_EQ(f->find(0x946dae030053ec1a)->description, " 5FB0406-spine-IB03 ");
    const IbNode* agg = f->find(0x946dae0300630bfe);
    ASSERT_NE(agg, nullptr);
    EXPECT_EQ(agg->description, "Mellanox Technologies Aggregation Node");
    EXPECT_EQ(agg->type, IbNodeType::CA);
    // The aggregation node is seen from the leaf (port 81) and from spine IB03 (port 81).
    EXPECT_EQ(f->links.size(), 3u);
    const IbLink* l = linkAt(*f, 0xb83fd20300da1138, 1);
    ASSERT_NE(l, nullptr);
    EXPECT_EQ(peerOf(*l, 0xb83fd20300da1138, 1), (IbLinkEnd { 0x946dae0300630bf6, 79 }));
    EXPECT_EQ(f->find(0xb83fd20300da1138)->description, "worker20 mlx5_3");
    EXPECT_EQ(f->unconnectedPorts.size(), 3u);
    EXPECT_EQ(f->find(0x0002c9020040f160)->description, "Infiniscale-IV Mellanox Technologies");
}

TEST(IbnetParse, UnquotedPortsDescriptions)
{
    // Hand-written: the -p format with descriptions left unquoted (as some wrappers print them).
    const std::string text = "CA    88  1 0xb83fd20300da1138 4x HDR - SW    51 79 0x946dae0300630bf6 ( worker20 mlx5_3 - leaf-IB01 )\n"
                             "SW    24 1 0x946dae0300618c82 4x SDR    spine-IB01\n";
    auto f = parseIbnetdiscover(text, "unquoted.txt");
    ASSERT_TRUE(f.ok()) << f.error().toString();
    EXPECT_EQ(f->find(0xb83fd20300da1138)->description, "worker20 mlx5_3");
    EXPECT_EQ(f->find(0x946dae0300630bf6)->description, "leaf-IB01");
    EXPECT_EQ(f->find(0x946dae0300618c82)->description, "spine-IB01");
}

TEST(IbnetParse, ReadsWhatTheExporterWrites)
{
    auto catalog = core::Catalog::builtin();
    ASSERT_TRUE(catalog.ok());
    const auto example = core::findExample("dgx-h100-superpod-1su");
    ASSERT_TRUE(example);
    auto spec = core::parsePlanSpecText(example->content, example->path);
    ASSERT_TRUE(spec.ok());
    auto plan = planner::makePlan(*spec, *catalog);
    ASSERT_TRUE(plan.ok());
    std::ostringstream text;
    planner::writeIbnetdiscover(*plan, text, planner::IbnetdiscoverOptions { 1, planner::IbnetSpeeds::Planned });
    auto f = parseIbnetdiscover(text.str(), "export");
    ASSERT_TRUE(f.ok()) << f.error().toString();
    std::size_t installed = 0;
    for (const auto& l : plan->links)
        installed += l.installed ? 1 : 0;
    EXPECT_EQ(f->links.size(), installed);
    const auto leafGuid = planner::ibnetdiscoverGuid(*plan, { 0, 0, 0 }, 1); // node001's NIC 0 adapter
    const IbNode* ca = f->find(leafGuid);
    ASSERT_NE(ca, nullptr);
    EXPECT_EQ(ca->description, "node001/nic0");
    EXPECT_EQ(ca->portGuids.at(1), leafGuid + 1);
    for (const auto& l : f->links) {
        EXPECT_EQ(l.width, "4x");
        EXPECT_EQ(l.speed, "NDR");
    }
}

TEST(IbnetParse, ErrorsNameTheLine)
{
    auto bad = parseIbnetdiscover("vendid=0x2c9\nSwitch 36 \"S-0001\" # \"sw\" base port 0 lid 1 lmc 0\n[x] \"H-0002\"[1]\n",
        "bad.txt");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().where, "bad.txt:3");
    EXPECT_NE(bad.error().message.find("local port"), std::string::npos) << bad.error().message;

    auto orphan = parseIbnetdiscover("[1] \"H-0002\"[1]\n", "orphan.txt");
    ASSERT_FALSE(orphan.ok());
    EXPECT_EQ(orphan.error().where, "orphan.txt:1");

    auto garbage = parseIbnetdiscover("hello world\n", "garbage.txt");
    ASSERT_FALSE(garbage.ok());
    EXPECT_EQ(garbage.error().where, "garbage.txt:1");

    auto ports = parseIbnetdiscover("CA 1 1 0x1 4x HDR - XX 2 2 0x2 ( 'a' - 'b' )\n", "p.txt");
    ASSERT_FALSE(ports.ok());
    EXPECT_EQ(ports.error().where, "p.txt:1");

    auto empty = parseIbnetdiscover("# nothing\n\n", "empty.txt");
    ASSERT_FALSE(empty.ok());
    EXPECT_EQ(empty.error().code, "IBNET_EMPTY");
}

TEST(IbnetParse, Guids)
{
    EXPECT_EQ(parseGuid("0x0002c9020040f160"), 0x0002c9020040f160u);
    EXPECT_EQ(parseGuid("b83f:d203:00a4:5e52"), 0xb83fd20300a45e52u);
    EXPECT_FALSE(parseGuid("0xzz"));
    EXPECT_FALSE(parseGuid("0x11112222333344445"));
    EXPECT_EQ(formatGuid(0x2c9), "0x00000000000002c9");
}
