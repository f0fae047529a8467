// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Addressing of a routed RoCEv2 fabric: the spec's `addressing`, planAddresses(), the range
// errors, the 128K-GPU figure, the address exports and the cable map's address columns.
#include "intent_test_util.h"

#include "core/examples.h"
#include "planner/exporters.h"
#include "../live/temp_dir.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <sstream>

namespace railyard::test {
namespace {

    using nlohmann::json;
    using planner::AddressPlan;

    std::uint32_t ip(const std::string& text)
    {
        const auto address = core::parseIpv4(text);
        EXPECT_TRUE(address) << text;
        return address.value_or(0);
    }

    core::Errors specErrors(const json& addressing)
    {
        json doc = json::parse(readFixture("intent/roce-2su.plan.json"));
        doc["addressing"] = addressing;
        auto r = core::parsePlanSpec(doc, "t.plan.json");
        return r ? core::Errors {} : r.errors();
    }

    bool mentions(const core::Errors& errors, const std::string& text)
    {
        for (const auto& e : errors) {
            if (e.toString().find(text) != std::string::npos)
                return true;
        }
        return false;
    }

    TEST(AddressingSpec, DefaultsWhenNotGivenAndEchoedWhenGiven)
    {
        const core::PlanSpec spec = intentSpec();
        EXPECT_TRUE(spec.addressingGiven);
        EXPECT_EQ(spec.addressing.fabric.toString(), "10.0.0.0/24");
        EXPECT_EQ(spec.addressing.loopbacks.toString(), "10.255.0.0/24");
        const json echo = core::toJson(spec);
        EXPECT_EQ(echo["addressing"]["scheme"], "p2p31");
        EXPECT_EQ(echo["addressing"]["asn"]["base"], 4200000000U);
        auto again = core::parsePlanSpec(echo, "echo");
        ASSERT_TRUE(again) << again.error().toString();
        EXPECT_TRUE(again->addressingGiven);
        EXPECT_EQ(again->addressing, spec.addressing);

        json doc = json::parse(readFixture("intent/roce-2su.plan.json"));
        doc.erase("addressing");
        auto plain = core::parsePlanSpec(doc, "t");
        ASSERT_TRUE(plain);
        EXPECT_FALSE(plain->addressingGiven);
        EXPECT_EQ(plain->addressing.fabric.toString(), "10.0.0.0/10");
        EXPECT_EQ(plain->addressing.loopbacks.toString(), "10.255.0.0/16");
        EXPECT_FALSE(core::toJson(*plain).contains("addressing")) << "plans without addressing keep their documents";
    }

    TEST(AddressingSpec, Ipv4AddressesReadAndWrittenDottedDecimal)
    {
        EXPECT_EQ(core::parseIpv4("10.0.0.13"), 0x0A00000DU);
        EXPECT_EQ(core::parseIpv4("255.255.255.255"), 0xFFFFFFFFU);
        EXPECT_EQ(core::parseIpv4("0.0.0.0"), 0U);
        for (const char* bad : { "", "10.0.0", "10.0.0.1.", "10.0.0.1/32", "10.0.0.256", "10.00.0.1", "10.0.0.1x", " 10.0.0.1",
                 "10..0.1", "-1.0.0.1", "1234.0.0.1", "fd00::1" })
            EXPECT_FALSE(core::parseIpv4(bad)) << bad;
        for (const char* text : { "10.0.0.13", "127.201.1.0", "0.0.0.0", "255.255.255.255" })
            EXPECT_EQ(core::formatIpv4(*core::parseIpv4(text)), text);
    }

    TEST(AddressingSpec, StrictFields)
    {
        EXPECT_TRUE(mentions(specErrors({ { "scheme", "p2p30" } }), "addressing.scheme"));
        EXPECT_TRUE(mentions(specErrors({ { "fabric", "10.0.0.1/15" } }), "the network is 10.0.0.0/15"));
        EXPECT_TRUE(mentions(specErrors({ { "fabric", "fd00::/64" } }), "only IPv4"));
        EXPECT_TRUE(mentions(specErrors({ { "fabric", "10.0.0.0/33" } }), "addressing.fabric: must be an IPv4 prefix"));
        EXPECT_TRUE(mentions(specErrors({ { "fabric", "10.00.0.0/16" } }), "addressing.fabric"));
        EXPECT_TRUE(mentions(specErrors({ { "fabric", 10 } }), "addressing.fabric"));
        EXPECT_TRUE(mentions(specErrors({ { "loopbacks", "10.0.0.128/25" }, { "fabric", "10.0.0.0/24" } }), "overlaps"));
        EXPECT_TRUE(mentions(specErrors({ { "asn", { { "base", 65535 } } } }), "private AS number"));
        EXPECT_TRUE(mentions(specErrors({ { "asn", { { "base", 4199999999LL } } } }), "private AS number"));
        EXPECT_TRUE(mentions(specErrors({ { "asn", { { "scheme", "per_spine" } } } }), "addressing.asn.scheme"));
        EXPECT_TRUE(mentions(specErrors({ { "asn", { { "bse", 64512 } } } }), "bse"));
        EXPECT_TRUE(mentions(specErrors({ { "vlan", 10 } }), "vlan"));
        EXPECT_TRUE(specErrors({ { "asn", { { "base", 64512 } } } }).empty());

        json ib = json::parse(R"({"fabric": "infiniband", "nodes": 4, "node_type": "dgx-h100", "link": {"generation": "NDR"},
            "addressing": {}})");
        auto r = core::parsePlanSpec(ib, "ib");
        ASSERT_FALSE(r);
        EXPECT_TRUE(mentions(r.errors(), "addressing: only for RoCEv2"));
    }

    TEST(Addressing, P2p31GivesEveryLinkAPairTheUpperEndEven)
    {
        const core::Plan p = plan(intentSpec());
        ASSERT_FALSE(p.links.empty());
        auto r = planner::planAddresses(p);
        ASSERT_TRUE(r) << r.error().toString();
        const AddressPlan& a = *r;
        ASSERT_EQ(a.links.size(), p.links.size());
        std::set<std::string> seen;
        for (std::size_t i = 0; i < a.links.size(); ++i) {
            const auto& l = a.links[i];
            EXPECT_EQ(l.link, i);
            EXPECT_EQ(l.prefixLength, 31);
            const std::uint32_t b = ip(l.bAddress);
            EXPECT_EQ(b % 2, 0U) << p.portName(p.links[i].b);
            EXPECT_EQ(ip(l.aAddress), b + 1);
            EXPECT_GE(b, ip("10.0.0.0"));
            EXPECT_LE(b, ip("10.0.0.255"));
            EXPECT_TRUE(seen.insert(l.aAddress).second && seen.insert(l.bAddress).second) << "address used twice";
        }
        const long long nodeLinks = p.summary.cables.nodeLeaf;
        EXPECT_EQ(static_cast<long long>(a.nics.size()), nodeLinks);
        // The leaf side is the gateway, and one rail's NIC addresses are contiguous.
        std::map<int, std::vector<std::uint32_t>> byRail;
        for (const auto& n : a.nics) {
            EXPECT_EQ(ip(n.gateway) + 1, ip(n.address));
            EXPECT_EQ(n.leaf + "/", n.leafPort.substr(0, n.leaf.size() + 1));
            EXPECT_EQ(n.plane, 0);
            byRail[n.rail].push_back(ip(n.address));
        }
        ASSERT_EQ(byRail.size(), 2U);
        const auto [lo0, hi0] = std::minmax_element(byRail[0].begin(), byRail[0].end());
        const auto [lo1, hi1] = std::minmax_element(byRail[1].begin(), byRail[1].end());
        EXPECT_EQ(*hi0 - *lo0, 2 * (byRail[0].size() - 1));
        EXPECT_LT(*hi0, *lo1);
        EXPECT_EQ(a.nics.front().node, "node001");
        EXPECT_EQ(a.nics.front().rail, 0);
        EXPECT_EQ(a.nics.front().address, "10.0.0.1");
        EXPECT_EQ(a.nics.front().leafPort, "su1-rail0-leaf/1");
    }

    TEST(Addressing, LoopbacksAndAsnsPerLeafAndPerTier)
    {
        core::Plan p = plan(intentSpec());
        auto r = planner::planAddresses(p);
        ASSERT_TRUE(r);
        std::set<std::uint32_t> leafAsns;
        std::set<std::uint32_t> spineAsns;
        std::set<std::string> loopbacks;
        for (const auto& s : r->switches) {
            EXPECT_TRUE(loopbacks.insert(s.loopback).second);
            (s.device.find("leaf") != std::string::npos ? leafAsns : spineAsns).insert(s.asn);
        }
        EXPECT_EQ(r->switches.front().loopback, "10.255.0.1");
        EXPECT_EQ(leafAsns.size(), static_cast<std::size_t>(p.summary.switches.leaf)) << "one ASN per leaf";
        EXPECT_EQ(spineAsns.size(), 1U) << "the spines of a two-tier plane share one";
        EXPECT_EQ(*leafAsns.begin(), 4200000000U);

        p.spec.addressing.asn.scheme = "per_tier";
        auto tier = planner::planAddresses(p);
        ASSERT_TRUE(tier);
        std::set<std::uint32_t> all;
        for (const auto& s : tier->switches)
            all.insert(s.asn);
        EXPECT_EQ(all, (std::set<std::uint32_t> { 4200000000U, 4200000001U }));
    }

    TEST(Addressing, RailSubnetsOneSubnetPerLeafTheLeafTheGateway)
    {
        core::PlanSpec spec = intentSpec();
        spec.addressing.scheme = "rail_subnets";
        const core::Plan p = plan(spec);
        auto r = planner::planAddresses(p);
        ASSERT_TRUE(r) << r.error().toString();
        ASSERT_EQ(static_cast<long long>(r->subnets.size()), p.summary.switches.leaf);
        // 2 NICs per leaf + network, gateway, broadcast: a /30 holds 4, so /29.
        for (const auto& s : r->subnets) {
            EXPECT_EQ(s.prefixLength, 29);
            EXPECT_EQ(ip(s.gateway), ip(s.network) + 1);
        }
        for (const auto& n : r->nics) {
            EXPECT_EQ(n.prefixLength, 29);
            const auto sub = std::find_if(r->subnets.begin(), r->subnets.end(), [&](const auto& s) { return s.leaf == n.leaf; });
            ASSERT_NE(sub, r->subnets.end());
            EXPECT_EQ(n.gateway, sub->gateway);
            EXPECT_EQ(ip(n.address) & ~7U, ip(sub->network));
        }
        // The switch-switch links still get /31s, after the subnets.
        for (std::size_t i = 0; i < p.links.size(); ++i) {
            if (p.links[i].tier != core::LinkTier::NodeLeaf) {
                EXPECT_EQ(r->links[i].prefixLength, 31);
            }
        }
    }

    TEST(Addressing, RangesTooSmallSayNeededAndAvailable)
    {
        core::PlanSpec spec = intentSpec();
        std::string problem;
        spec.addressing.fabric = *core::parseIpv4Prefix("10.0.0.0/28", problem);
        spec.addressing.loopbacks = *core::parseIpv4Prefix("10.255.0.0/30", problem);
        spec.addressing.asn.base = 65534;
        const core::Plan p = plan(spec);
        const auto needs = planner::addressNeeds(p);
        auto r = planner::planAddresses(p);
        ASSERT_FALSE(r);
        ASSERT_EQ(r.errors().size(), 3U);
        const core::Error& fabric = r.errors()[0];
        EXPECT_EQ(fabric.code, "ADDRESS_RANGE_TOO_SMALL");
        EXPECT_EQ(fabric.where, "addressing.fabric");
        EXPECT_NE(fabric.message.find("holds 16 addresses, but the plan needs " + std::to_string(needs.fabricAddresses)),
            std::string::npos)
            << fabric.message;
        EXPECT_NE(fabric.hint.find("/" + std::to_string(32 - std::bit_width(needs.fabricAddresses - 1))), std::string::npos)
            << fabric.hint;
        EXPECT_EQ(r.errors()[1].where, "addressing.loopbacks");
        EXPECT_EQ(r.errors()[2].code, "ASN_RANGE_TOO_SMALL");
        EXPECT_NE(r.errors()[2].message.find("leaves 1 private AS numbers"), std::string::npos) << r.errors()[2].message;
        EXPECT_TRUE(hasFinding(p, "ADDRESS_RANGE_TOO_SMALL")) << "validate reports it too";
        EXPECT_TRUE(hasFinding(p, "ASN_RANGE_TOO_SMALL"));
        EXPECT_TRUE(p.hasErrors());
    }

    TEST(Addressing, InfiniBandHasNoAddresses)
    {
        auto r = planner::planAddresses(plan(h100(32)));
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, "ADDRESSING_NOT_ROCE");
    }

    // The 131,072-GPU example: 16,384 nodes x 8 rails in three tiers at 1:1. Every link is a /31:
    // 131,072 NIC links + 131,072 leaf-spine + 131,072 spine-core = 393,216 /31s = 786,432
    // addresses, which needs a /12; the brief's /15 holds 131,072.
    TEST(Addressing, The128kGpuFabricNeeds393216Slash31s)
    {
        const auto example = core::findExample("roce-128k-gpu-400g");
        ASSERT_TRUE(example);
        auto spec = core::parsePlanSpecText(example->content, example->path);
        ASSERT_TRUE(spec);
        spec->addressingGiven = true;
        const core::Plan p = plan(*spec);
        ASSERT_EQ(p.summary.gpus, 131072);
        const auto needs = planner::addressNeeds(p);
        EXPECT_EQ(needs.p2pLinks, 393216U);
        EXPECT_EQ(needs.p2pLinks, static_cast<std::uint64_t>(p.summary.cables.total()));
        EXPECT_EQ(needs.fabricAddresses, 786432U);

        auto fits = planner::planAddresses(p); // the default 10.0.0.0/10
        ASSERT_TRUE(fits) << fits.error().toString();
        EXPECT_EQ(fits->nics.size(), 131072U);
        EXPECT_EQ(fits->links.back().aAddress, "10.11.255.255");

        core::Plan small = p;
        std::string problem;
        small.spec.addressing.fabric = *core::parseIpv4Prefix("10.0.0.0/15", problem);
        auto tooSmall = planner::planAddresses(small);
        ASSERT_FALSE(tooSmall);
        EXPECT_EQ(tooSmall.error().message,
            "addressing.fabric 10.0.0.0/15 holds 131,072 addresses, but the plan needs 786,432 (393,216 links x /31)");
        EXPECT_EQ(tooSmall.error().hint, "give a /12 or larger");
    }

    TEST(Addressing, CableMapGainsAddressColumnsOnlyWhenRouted)
    {
        const core::Plan routed = plan(intentSpec());
        std::ostringstream csv;
        planner::writeCablesCsv(routed, csv);
        const auto rows = csvRows(csv.str());
        ASSERT_EQ(rows.size(), routed.links.size() + 1);
        EXPECT_EQ(rows[0].substr(rows[0].size() - 20), ",a_address,b_address");
        EXPECT_EQ(rows[1].substr(0, 13), "node001/nic0,");
        EXPECT_EQ(rows[1].substr(rows[1].size() - 24), ",10.0.0.1/31,10.0.0.0/31");

        core::PlanSpec plainSpec = intentSpec();
        plainSpec.addressingGiven = false;
        std::ostringstream plain;
        planner::writeCablesCsv(plan(plainSpec), plain);
        EXPECT_EQ(csvRows(plain.str())[0], "a,a_cage,a_pos,b,b_cage,b_pos,tier,type,length_m,part,assembly,installed,label");
        // Every old column is unchanged: the routed rows are the plain rows plus two fields.
        const auto plainRows = csvRows(plain.str());
        for (std::size_t i = 1; i < rows.size(); ++i)
            EXPECT_EQ(rows[i].substr(0, plainRows[i].size() + 1), plainRows[i] + ",");
    }

    // The sheet's XML is deflated (and zlib is no test dependency): the address columns show as a
    // larger workbook, and a failed write as an error.
    TEST(Addressing, CableWorkbookOfARoutedPlanIsWritten)
    {
        const live::test::TempDir dir("xlsx");
        const core::Plan routed = plan(intentSpec());
        core::PlanSpec plainSpec = intentSpec();
        plainSpec.addressingGiven = false;
        const core::Plan plain = plan(plainSpec);
        const auto withAddresses = dir.path() / "routed.xlsx";
        const auto without = dir.path() / "plain.xlsx";
        ASSERT_TRUE(planner::writeCablesXlsx(routed, withAddresses.string()));
        ASSERT_TRUE(planner::writeCablesXlsx(plain, without.string()));
        EXPECT_GT(std::filesystem::file_size(withAddresses), std::filesystem::file_size(without) + 100);
        auto a = planner::planAddresses(routed);
        ASSERT_TRUE(a);
        EXPECT_FALSE(planner::writeCablesXlsx(routed, (dir.path() / "missing" / "c.xlsx").string(), *a));
    }

    TEST(Addressing, CsvAndJsonExportsMatchThePlan)
    {
        core::PlanSpec spec = intentSpec();
        spec.addressing.scheme = "rail_subnets";
        const core::Plan p = plan(spec);
        auto a = planner::planAddresses(p);
        ASSERT_TRUE(a);
        std::ostringstream csv;
        planner::writeAddressesCsv(p, *a, csv);
        const auto rows = csvRows(csv.str());
        EXPECT_EQ(rows[0], "kind,name,address,prefix_length,peer,peer_address,asn,rail,plane,tier");
        EXPECT_EQ(rows.size(), 1 + a->switches.size() + a->subnets.size() + a->links.size());
        EXPECT_EQ(rows[1], "switch,su1-rail0-leaf,10.255.0.1,32,,,4200000000,,,");

        std::ostringstream out;
        planner::writeAddressesJson(p, *a, out);
        const json doc = json::parse(out.str());
        EXPECT_EQ(doc["scheme"], "rail_subnets");
        EXPECT_EQ(doc["nics"].size(), a->nics.size());
        EXPECT_EQ(doc["links"].size(), p.links.size());
        EXPECT_EQ(doc["subnets"][0]["gateway"], a->subnets[0].gateway);
        EXPECT_EQ(doc["nics"][0]["leaf_port"], "su1-rail0-leaf/1");
    }

} // namespace
} // namespace railyard::test
