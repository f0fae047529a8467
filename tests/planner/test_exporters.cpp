// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/exporters.h"

#include "core/catalog.h"
#include "core/plan_spec.h"
#include "planner/planner.h"

#include "tests/integration/hand_built_plans.h"
#include "tests/integration/ibnet_text.h"

#include "csv_test_util.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

using namespace railyard;
using railyard::testing::buildSmallPlan;
using railyard::testing::SmallFabric;
using railyard::testing::parseIbnet;

namespace {

using test::Row;
using test::parseCsv;


SmallFabric awkwardNames()
{
    SmallFabric f;
    f.nodes = { "node,1", "node\"2\"", "node003", "node004" };
    return f;
}

std::vector<core::BomLine> sampleBom(bool allPriced)
{
    std::vector<core::BomLine> bom;
    bom.push_back({ "switch", "NVIDIA Quantum-2 QM9700, 64 x NDR", "MQM9790-NS2F", "qm9700", 0, 3, 30000.0, 1720, 1 });
    bom.push_back({ "cable", "NDR 400G multimode fiber, 3 m", "MFP7E10-N003", "mfp7e10-n003", 3, 8, 120.5, 0, 0 });
    std::optional<double> price;
    if (allPriced)
        price = 1100;
    bom.push_back({ "transceiver", "OSFP 2x400G SR8, \"flat top\"", "MMA4Z00-NS", "osfp-2x400g-sr8", 0, 16, price, 17, 0 });
    return bom;
}

std::string cablesCsv(const core::Plan& plan)
{
    std::ostringstream out;
    planner::writeCablesCsv(plan, out);
    return out.str();
}

std::string ibnet(const core::Plan& plan, planner::IbnetdiscoverOptions options = {})
{
    std::ostringstream out;
    planner::writeIbnetdiscover(plan, out, options);
    return out.str();
}

std::filesystem::path tempPath(const std::string& name)
{
    return std::filesystem::temp_directory_path()
        / ("railyard-export-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" + name);
}

std::string readPrefix(const std::filesystem::path& path, std::size_t n)
{
    std::ifstream in(path, std::ios::binary);
    std::string bytes(n, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(n));
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    return bytes;
}

} // namespace

TEST(CablesCsv, HeaderAndOneRowPerLink)
{
    const auto plan = buildSmallPlan({});
    const auto rows = parseCsv(cablesCsv(plan));
    ASSERT_EQ(rows.size(), plan.links.size() + 1);
    EXPECT_EQ(rows[0], (Row { "a", "a_cage", "a_pos", "b", "b_cage", "b_pos", "tier", "type", "length_m", "part",
                           "assembly", "installed", "label" }));
    for (const auto& row : rows)
        EXPECT_EQ(row.size(), 13u);
}

TEST(CablesCsv, QuotesCommasAndQuotesInNames)
{
    const auto plan = buildSmallPlan(awkwardNames());
    const auto text = cablesCsv(plan);
    EXPECT_NE(text.find("\"node,1/nic0\","), std::string::npos);
    EXPECT_NE(text.find("\"node\"\"2\"\"/nic0\","), std::string::npos);
    const auto rows = parseCsv(text);
    ASSERT_EQ(rows.size(), plan.links.size() + 1);
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        ASSERT_EQ(rows[i + 1].size(), 13u) << "row " << i + 1;
        EXPECT_EQ(rows[i + 1][0], plan.portName(plan.links[i].a));
        EXPECT_EQ(rows[i + 1][3], plan.portName(plan.links[i].b));
    }
}

TEST(CablesCsv, FieldsOfANodeLinkAndAnUplink)
{
    const auto plan = buildSmallPlan({});
    const auto rows = parseCsv(cablesCsv(plan));
    // node001/nic0 -> su1-rail0-leaf/1: cage 1, position 1 on a QM9700 at two ports per cage.
    EXPECT_EQ(rows[1], (Row { "node001/nic0", "", "", "su1-rail0-leaf/1", "1", "1", "node_leaf", "mmf", "3",
                           "mfp7e10-n005", "1", "yes", "C000001 node001/nic0 <-> su1-rail0-leaf/1" }));
    // node002/nic1 -> su1-rail1-leaf/2: cage 1, position 2; 2.5 m keeps its one decimal.
    EXPECT_EQ(rows[4], (Row { "node002/nic1", "", "", "su1-rail1-leaf/2", "1", "2", "node_leaf", "mmf", "2.5",
                           "mfp7e10-n005", "4", "yes", "C000004 node002/nic1 <-> su1-rail1-leaf/2" }));
    // First uplink: su1-rail0-leaf/33 is cage 17, position 1.
    const auto& up = rows[9];
    EXPECT_EQ(up[0], "su1-rail0-leaf/33");
    EXPECT_EQ(up[1], "17");
    EXPECT_EQ(up[2], "1");
    EXPECT_EQ(up[3], "spine1/1");
    EXPECT_EQ(up[6], "leaf_spine");
    EXPECT_EQ(up[7], "dac");
    EXPECT_EQ(up[8], "20");
    // A twin-port assembly carries the next uplink too: same assembly number.
    EXPECT_EQ(rows[10][10], up[10]);
    EXPECT_EQ(rows.back()[11], "no"); // the grow_to link
}

// Speed is measured by bench/ (railyard-bench-plan); this checks a plan past 65,535 links.
TEST(CablesCsv, LargePlanOneRowPerLink)
{
    core::Plan plan;
    plan.spec.fabric = core::Fabric::InfiniBand;
    constexpr std::uint32_t kNodes = 10240, kRails = 8, kLeafPorts = 64;
    for (std::uint32_t n = 0; n < kNodes; ++n) {
        core::Device d;
        d.name = "node" + std::to_string(n + 1);
        plan.devices.push_back(d);
    }
    constexpr std::uint32_t kLeaves = kNodes * kRails / kLeafPorts;
    for (std::uint32_t l = 0; l < kLeaves; ++l) {
        core::Device d;
        d.name = "leaf" + std::to_string(l + 1);
        d.kind = core::DeviceKind::Switch;
        d.ports = kLeafPorts;
        d.portsPerCage = 2;
        plan.devices.push_back(d);
    }
    plan.assemblies.push_back({ "mfp7e10-n003", core::Medium::Mmf, 3, 1, true });
    plan.links.reserve(kNodes * kRails);
    for (std::uint32_t i = 0; i < kNodes * kRails; ++i) {
        const core::PortRef a { i / kRails, static_cast<std::uint16_t>(i % kRails), 0 };
        const core::PortRef b { kNodes + i / kLeafPorts, static_cast<std::uint16_t>(i % kLeafPorts + 1), 0 };
        plan.links.push_back({ a, b, core::LinkTier::NodeLeaf, core::Medium::Mmf, 3, 0, true });
    }
    ASSERT_EQ(plan.links.size(), 81920u);
    std::ostringstream out;
    planner::writeCablesCsv(plan, out);
    const auto text = out.str();
    EXPECT_EQ(static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')), plan.links.size() + 1);
}

TEST(BomCsv, LinesAndTotals)
{
    auto plan = buildSmallPlan({});
    plan.bom = sampleBom(true);
    std::ostringstream out;
    planner::writeBomCsv(plan, out);
    const auto rows = parseCsv(out.str());
    ASSERT_EQ(rows.size(), plan.bom.size() + 2);
    EXPECT_EQ(rows[0], (Row { "category", "item", "part", "catalog_id", "length_m", "quantity", "unit_price_usd",
                           "total_price_usd", "unit_power_w" }));
    EXPECT_EQ(rows[1], (Row { "switch", "NVIDIA Quantum-2 QM9700, 64 x NDR", "MQM9790-NS2F", "qm9700", "", "3",
                           "30000", "90000", "1720" }));
    EXPECT_EQ(rows[2][4], "3");
    EXPECT_EQ(rows[2][7], "964");
    EXPECT_EQ(rows[3][1], "OSFP 2x400G SR8, \"flat top\"");
    const auto& total = rows.back();
    EXPECT_EQ(total[0], "total");
    EXPECT_EQ(total[5], "27");
    EXPECT_EQ(total[7], "108564"); // 90000 + 964 + 17600
    EXPECT_EQ(total[8], "5432");   // 3 x 1720 W + 16 x 17 W
}

TEST(BomCsv, NoTotalPriceWhenALineIsUnpriced)
{
    auto plan = buildSmallPlan({});
    plan.bom = sampleBom(false);
    std::ostringstream out;
    planner::writeBomCsv(plan, out);
    const auto rows = parseCsv(out.str());
    EXPECT_EQ(rows[3][6], "");
    EXPECT_EQ(rows[3][7], "");
    EXPECT_EQ(rows.back()[7], "");
    EXPECT_EQ(rows.back()[5], "27");
}

TEST(BomJson, Structure)
{
    auto plan = buildSmallPlan({});
    plan.bom = sampleBom(true);
    std::ostringstream out;
    planner::writeBomJson(plan, out);
    const auto doc = nlohmann::json::parse(out.str());
    EXPECT_EQ(doc["plan"], "hand-built test fabric");
    ASSERT_EQ(doc["lines"].size(), 3u);
    const auto& sw = doc["lines"][0];
    EXPECT_EQ(sw["category"], "switch");
    EXPECT_EQ(sw["part"], "MQM9790-NS2F");
    EXPECT_EQ(sw["catalog_id"], "qm9700");
    EXPECT_EQ(sw["quantity"], 3);
    EXPECT_DOUBLE_EQ(sw["unit_price_usd"].get<double>(), 30000);
    EXPECT_DOUBLE_EQ(sw["total_price_usd"].get<double>(), 90000);
    EXPECT_FALSE(sw.contains("length_m"));
    EXPECT_DOUBLE_EQ(doc["lines"][1]["length_m"].get<double>(), 3);
    const auto& totals = doc["totals"];
    EXPECT_EQ(totals["quantity"]["switch"], 3);
    EXPECT_EQ(totals["quantity"]["cable"], 8);
    EXPECT_EQ(totals["quantity"]["transceiver"], 16);
    EXPECT_DOUBLE_EQ(totals["power_w"].get<double>(), 5432);
    EXPECT_DOUBLE_EQ(totals["cost_usd"].get<double>(), 108564);
}

TEST(BomJson, CostOnlyWhenEveryLineIsPriced)
{
    auto plan = buildSmallPlan({});
    plan.bom = sampleBom(false);
    std::ostringstream out;
    planner::writeBomJson(plan, out);
    const auto doc = nlohmann::json::parse(out.str());
    EXPECT_FALSE(doc["totals"].contains("cost_usd"));
    EXPECT_TRUE(doc["lines"][2]["unit_price_usd"].is_null());
}

TEST(Xlsx, WorkbooksAreZipFiles)
{
    auto plan = buildSmallPlan(awkwardNames());
    plan.bom = sampleBom(false);
    const auto cables = tempPath("cables.xlsx");
    const auto bom = tempPath("bom.xlsx");
    ASSERT_TRUE(planner::writeCablesXlsx(plan, cables.string()));
    ASSERT_TRUE(planner::writeBomXlsx(plan, bom.string()));
    EXPECT_EQ(readPrefix(cables, 2), "PK");
    EXPECT_EQ(readPrefix(bom, 2), "PK");
    EXPECT_GT(std::filesystem::file_size(cables), 1000u);
    std::filesystem::remove(cables);
    std::filesystem::remove(bom);
}

TEST(Xlsx, UnwritablePathIsAnErrorNamingIt)
{
    const auto plan = buildSmallPlan({});
    const auto path = (tempPath("no-such-dir") / "cables.xlsx").string();
    const auto status = planner::writeCablesXlsx(plan, path);
    ASSERT_FALSE(status);
    EXPECT_EQ(status.error().where, path);
    EXPECT_FALSE(status.error().message.empty());
    EXPECT_FALSE(planner::writeBomXlsx(plan, path));
}

TEST(Ibnetdiscover, EveryInstalledLinkFromBothEnds)
{
    const auto plan = buildSmallPlan({});
    const auto topo = parseIbnet(ibnet(plan));
    EXPECT_EQ(topo.switches, 3); // two rail leaves and a spine
    EXPECT_EQ(topo.adapters, 8); // 4 nodes x 2 NICs
    std::size_t portLines = 0;
    for (const auto& [id, node] : topo.nodes) {
        EXPECT_EQ(node.ports, node.isSwitch ? 64 : 1) << id;
        EXPECT_EQ(id.substr(0, 2), node.isSwitch ? "S-" : "H-");
        for (const auto& [port, line] : node.links) {
            ++portLines;
            const auto peer = topo.nodes.find(line.peerId);
            ASSERT_NE(peer, topo.nodes.end()) << id << "[" << port << "] names an unknown node";
            const auto back = peer->second.links.find(line.peerPort);
            ASSERT_NE(back, peer->second.links.end()) << "no line back from " << line.peerId;
            EXPECT_EQ(back->second.peerId, id);
            EXPECT_EQ(back->second.peerPort, port);
        }
    }
    const auto installed = static_cast<std::size_t>(
        std::count_if(plan.links.begin(), plan.links.end(), [](const auto& l) { return l.installed; }));
    EXPECT_EQ(installed, plan.links.size() - 1);
    EXPECT_EQ(portLines, 2 * installed);
}

TEST(Ibnetdiscover, NamesGuidsAndSpeeds)
{
    const auto plan = buildSmallPlan(awkwardNames());
    const auto text = ibnet(plan);
    EXPECT_EQ(text, ibnet(plan)) << "the export is deterministic";
    const auto topo = parseIbnet(text);
    const auto leafGuid = planner::ibnetdiscoverGuid(plan, { 4, 0, 0 }, 1);
    char leafId[24];
    std::snprintf(leafId, sizeof leafId, "S-%016llx", static_cast<unsigned long long>(leafGuid));
    ASSERT_TRUE(topo.nodes.contains(leafId));
    EXPECT_EQ(topo.nodes.at(leafId).description, "su1-rail0-leaf");
    EXPECT_NE(text.find("\"node'2'/nic1\""), std::string::npos) << "quotes in names are replaced";
    EXPECT_NE(text.find("# \"node,1/nic0\""), std::string::npos);
    const auto nicGuid = planner::ibnetdiscoverGuid(plan, { 0, 1, 0 }, 1);
    EXPECT_NE(nicGuid, planner::ibnetdiscoverGuid(plan, { 0, 0, 0 }, 1));
    EXPECT_NE(nicGuid, planner::ibnetdiscoverGuid(plan, { 0, 1, 0 }, 2));
    char caguid[40];
    std::snprintf(caguid, sizeof caguid, "caguid=0x%llx\n", static_cast<unsigned long long>(nicGuid));
    EXPECT_NE(text.find(caguid), std::string::npos);
    for (const auto& [id, node] : topo.nodes)
        for (const auto& [port, line] : node.links)
            EXPECT_EQ(line.speed, "4xHDR") << "ibsim 0.10 knows speeds up to HDR";
    EXPECT_NE(text.find("written as 4xHDR"), std::string::npos);
    const auto planned = parseIbnet(ibnet(plan, { 1, planner::IbnetSpeeds::Planned }));
    EXPECT_EQ(planned.nodes.at(leafId).links.at(1).speed, "4xNDR");
    EXPECT_EQ(planned.linksByName(), topo.linksByName());
}

TEST(Ibnetdiscover, OneSubnetPerPlane)
{
    SmallFabric f;
    f.planes = 2;
    const auto plan = buildSmallPlan(f);
    for (int plane = 1; plane <= 2; ++plane) {
        const auto text = ibnet(plan, { plane, planner::IbnetSpeeds::Ibsim });
        const auto topo = parseIbnet(text);
        EXPECT_EQ(topo.switches, 3);
        EXPECT_EQ(topo.adapters, 8);
        const std::string prefix = "p" + std::to_string(plane) + "-";
        for (const auto& [id, node] : topo.nodes) {
            if (node.isSwitch)
                EXPECT_EQ(node.description.substr(0, 3), prefix);
            else
                EXPECT_NE(node.description.find("-p" + std::to_string(plane)), std::string::npos) << node.description;
        }
    }
    const auto none = ibnet(plan, { 3, planner::IbnetSpeeds::Ibsim });
    EXPECT_EQ(parseIbnet(none).nodes.size(), 0u);
    EXPECT_NE(none.find("plane 3 does not exist"), std::string::npos);
}

TEST(Ibnetdiscover, RoceFabricHasNoSubnet)
{
    auto plan = buildSmallPlan({});
    plan.spec.fabric = core::Fabric::RoCEv2;
    const auto text = ibnet(plan);
    EXPECT_EQ(parseIbnet(text).nodes.size(), 0u);
    EXPECT_EQ(text.rfind("#", 0), 0u);
}

namespace {

core::Plan realPlan(const std::string& json)
{
    auto catalog = core::Catalog::builtin();
    EXPECT_TRUE(catalog.ok()) << (catalog.ok() ? "" : catalog.error().toString());
    auto spec = core::parsePlanSpecText(json, "test.plan.json");
    EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().toString());
    if (!catalog.ok() || !spec.ok())
        return {};
    auto plan = planner::makePlan(*spec, *catalog);
    EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().toString());
    return plan.ok() ? std::move(plan).value() : core::Plan {};
}

/// Checks one plane's export of a real plan against the plan's own lists.
void checkPlaneExport(const core::Plan& plan, int plane)
{
    const auto topo = parseIbnet(ibnet(plan, { plane, planner::IbnetSpeeds::Ibsim }));
    auto inPlane = [&](std::uint32_t device) {
        const auto& d = plan.devices[device];
        return d.kind == core::DeviceKind::Switch && d.installed && (plan.spec.planes <= 1 || d.plane == plane);
    };
    int switches = 0;
    for (std::uint32_t d = 0; d < plan.devices.size(); ++d)
        switches += inPlane(d) ? 1 : 0;
    std::size_t links = 0, adapters = 0;
    for (const auto& link : plan.links) {
        if (link.installed && inPlane(link.b.device)) {
            ++links;
            adapters += link.tier == core::LinkTier::NodeLeaf ? 1 : 0;
        }
    }
    EXPECT_EQ(topo.switches, switches) << "plane " << plane;
    EXPECT_EQ(static_cast<std::size_t>(topo.adapters), adapters) << "plane " << plane;
    std::size_t portLines = 0;
    for (const auto& [id, node] : topo.nodes) {
        for (const auto& [port, line] : node.links) {
            ++portLines;
            const auto& peer = topo.nodes.at(line.peerId);
            EXPECT_EQ(peer.links.at(line.peerPort).peerId, id);
        }
    }
    EXPECT_EQ(portLines, 2 * links) << "plane " << plane;
}

} // namespace

TEST(ExportRealPlan, TwoPlanesGrowingFabric)
{
    const auto plan = realPlan(R"({ "name": "grow", "fabric": "infiniband", "nodes": 40, "node_type": "dgx-b300",
        "link": { "generation": "XDR", "width": 4 }, "planes": 2, "grow_to": { "nodes": 64 },
        "management_ports": 2 })");
    ASSERT_FALSE(plan.links.empty());
    const auto uninstalled = std::count_if(plan.links.begin(), plan.links.end(), [](const auto& l) { return !l.installed; });
    ASSERT_GT(uninstalled, 0);
    const auto rows = parseCsv(cablesCsv(plan));
    ASSERT_EQ(rows.size(), plan.links.size() + 1);
    EXPECT_EQ(std::count_if(rows.begin(), rows.end(), [](const Row& r) { return r.size() > 11 && r[11] == "no"; }), uninstalled);
    for (int plane = 1; plane <= 2; ++plane)
        checkPlaneExport(plan, plane);
    const auto planned = parseIbnet(ibnet(plan, { 1, planner::IbnetSpeeds::Planned }));
    EXPECT_EQ(planned.nodes.begin()->second.links.begin()->second.speed, "4xXDR");
}

TEST(ExportRealPlan, ManagementPortsAndWorkbooks)
{
    const auto plan = realPlan(R"({ "name": "dgx", "fabric": "infiniband", "nodes": 40, "node_type": "dgx-h100",
        "link": { "generation": "NDR", "width": 4 }, "management_ports": 2 })");
    ASSERT_FALSE(plan.links.empty());
    checkPlaneExport(plan, 1);
    const auto text = ibnet(plan);
    EXPECT_NE(text.find("# \"mgmt1/1\""), std::string::npos);
    EXPECT_NE(text.find("# \"su1-rail7-leaf\""), std::string::npos);
    const auto cables = tempPath("real-cables.xlsx");
    const auto bom = tempPath("real-bom.xlsx");
    ASSERT_TRUE(planner::writeCablesXlsx(plan, cables.string()));
    ASSERT_TRUE(planner::writeBomXlsx(plan, bom.string()));
    EXPECT_EQ(readPrefix(cables, 2), "PK");
    EXPECT_EQ(readPrefix(bom, 2), "PK");
    std::filesystem::remove(cables);
    std::filesystem::remove(bom);
    std::ostringstream json;
    planner::writeBomJson(plan, json);
    const auto doc = nlohmann::json::parse(json.str());
    EXPECT_EQ(doc["lines"].size(), plan.bom.size());
    EXPECT_EQ(doc["totals"]["quantity"]["switch"], plan.summary.switches.total());
}
