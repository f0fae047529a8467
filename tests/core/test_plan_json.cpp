// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/plan_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace railyard::core;
using nlohmann::json;

namespace {

Device makeSwitch(std::string name, SwitchTier tier, int su, int rail)
{
    Device d;
    d.name = std::move(name);
    d.kind = DeviceKind::Switch;
    d.tier = tier;
    d.model = "qm9700";
    d.su = su;
    d.rail = rail;
    d.ports = 64;
    d.portsPerCage = 2;
    return d;
}

Device makeEndpoint(std::string name, DeviceKind kind, bool installed)
{
    Device d;
    d.name = std::move(name);
    d.kind = kind;
    d.model = kind == DeviceKind::Node ? "dgx-h100" : "";
    d.su = 1;
    d.installed = installed;
    return d;
}

std::uint32_t addAssembly(Plan& plan, std::string cable, Medium medium, float length, std::uint8_t links, bool installed)
{
    plan.assemblies.push_back(Assembly { std::move(cable), medium, length, links, installed });
    return static_cast<std::uint32_t>(plan.assemblies.size() - 1);
}

void addLink(Plan& plan, PortRef a, PortRef b, LinkTier tier, std::uint32_t assembly)
{
    const Assembly& as = plan.assemblies[assembly];
    plan.links.push_back(Link { a, b, tier, as.medium, as.lengthM, assembly, as.installed });
    ++plan.devices[a.device].portsUsed;
    ++plan.devices[b.device].portsUsed;
}

PlanSpec smallSpec()
{
    PlanSpec spec;
    spec.name = "small \"test\" plan";
    spec.nodes = 4;
    spec.nodeType = "dgx-h100";
    spec.gpusPerNode = 8;
    spec.rails = 2;
    spec.link.generation = IbGeneration::NDR;
    spec.leafSwitch = spec.spineSwitch = "qm9700";
    spec.suSize = 32;
    spec.managementPorts = 1;
    spec.growToNodes = 6;
    return spec;
}

Summary smallSummary()
{
    Summary s;
    s.nodes = 4;
    s.gpus = 32;
    s.rails = 2;
    s.suCount = 1;
    s.suSize = 32;
    s.leafDownlinks = 32;
    s.leafUplinks = 32;
    s.spinesPerGroup = 1;
    s.linksPerLeafSpine = 2;
    s.switches = { 2, 1, 0 };
    s.cables = { 9, 4, 0 };
    s.assemblies = 11;
    s.transceivers = 16;
    s.port = *ibRate(IbGeneration::NDR, 4);
    s.perGpuGbps = 400;
    s.bisectionGbps = 1600;
    s.leafOversubscription = 1;
    s.spineOversubscription = 1.5;
    s.lidsPerSubnet = 9;
    s.powerW = 5160.25;
    s.rackUnits = 3;
    s.costUsd = 123456.78;
    s.finalSwitches = SwitchCounts { 2, 1, 0 };
    s.finalCables = CableCounts { 13, 4, 0 };
    s.finalNodes = 6;
    return s;
}

void addBomAndFindings(Plan& plan)
{
    plan.bom.push_back(BomLine { "switch", "NVIDIA Quantum-2 QM9700", "MQM9700-NS2F", "qm9700", 0, 3, 29999.5, 1720, 1 });
    plan.bom.push_back(BomLine { "cable", "NDR twin-port DAC, 1.5 m", "MCP4Y10-N01A", "mcp4y10", 1.5, 2, std::nullopt, 0, 0 });
    plan.bom.push_back(BomLine { "transceiver", "OSFP 2x400G SR8", "MMA4Z00-NS", "osfp-sr8", 0, 16, 1200, 17.5, 0 });
    plan.findings.push_back(Finding { Severity::Error, "RADIX_EXCEEDED", "says \"no\"\nand a tab\t here", "su1-rail0-leaf" });
    plan.findings.push_back(Finding { Severity::Warning, "GROWTH", "2 nodes planned, not installed", "grow_to.nodes" });
    plan.findings.push_back(Finding { Severity::Info, "NOTE", "unicode: \xc3\xa9t\xc3\xa9 \xe2\x86\x92 ok", "" });
}

/// 4 nodes installed (+2 for grow_to), 2 rails, 2 leaves, 1 spine, one management port.
Plan smallPlan()
{
    Plan plan;
    plan.spec = smallSpec();
    plan.summary = smallSummary();
    for (int n = 0; n < 6; ++n)
        plan.devices.push_back(makeEndpoint(nodeName(plan.spec, n), DeviceKind::Node, n < 4));
    plan.devices.push_back(makeEndpoint("mgmt1", DeviceKind::Management, true));
    const std::uint32_t leaf0 = 7;
    const std::uint32_t spine = 9;
    plan.devices.push_back(makeSwitch("su1-rail0-leaf", SwitchTier::Leaf, 1, 0));
    plan.devices.push_back(makeSwitch("su1-rail1-leaf", SwitchTier::Leaf, 1, 1));
    plan.devices.push_back(makeSwitch("spine1", SwitchTier::Spine, 0, -1));
    plan.devices[leaf0].portsReserved = 2;
    for (std::uint16_t n = 0; n < 6; ++n) {
        for (std::uint16_t r = 0; r < 2; ++r) {
            const auto as = addAssembly(plan, "mfp7e10-n003", Medium::Mmf, 3.5f, 1, n < 4);
            addLink(plan, PortRef { n, r, 0 }, PortRef { leaf0 + r, static_cast<std::uint16_t>(n + 1), 0 }, LinkTier::NodeLeaf, as);
        }
    }
    addLink(plan, PortRef { 6, 1, 0 }, PortRef { leaf0, 32, 0 }, LinkTier::NodeLeaf,
        addAssembly(plan, "mcp7y00-n003", Medium::Dac, 2.7f, 1, true));
    for (std::uint16_t r = 0; r < 2; ++r) {
        const auto as = addAssembly(plan, "mcp4y10-n01a", Medium::Dac, 1.5f, 2, true);
        for (std::uint16_t k = 0; k < 2; ++k)
            addLink(plan, PortRef { leaf0 + r, static_cast<std::uint16_t>(33 + k), 0 },
                PortRef { spine, static_cast<std::uint16_t>(2 * r + k + 1), 0 }, LinkTier::LeafSpine, as);
    }
    addBomAndFindings(plan);
    plan.analysis.hopsSameLeaf = 1;
    plan.analysis.hopsSameRailAcrossSu = 3;
    plan.analysis.hopsAcrossRails = 3;
    plan.analysis.leafPathsSwitch = 1;
    plan.analysis.leafPathsLink = 2;
    plan.analysis.freeLeafDownlinks = 55;
    plan.analysis.worstSwitch.push_back(FailureImpact { "spine1", 1600, 0, 0, { 1600.0, 1600.0 } });
    plan.analysis.worstCable.push_back(FailureImpact { "node001/nic0 <-> su1-rail0-leaf/1", 400, 0, 1, { 1200.0, 1600.0 } });
    return plan;
}

std::string write(const Plan& plan)
{
    std::ostringstream out;
    writePlanJson(plan, out);
    return out.str();
}

/// nodes x rails NIC links into per-rail leaves, each leaf with `rails` uplinks to every spine.
Plan bigPlan(int nodes, int rails, int spines)
{
    Plan plan;
    plan.spec = smallSpec();
    plan.spec.nodes = nodes;
    plan.spec.growToNodes.reset();
    plan.devices.reserve(static_cast<std::size_t>(nodes + rails * 200 + spines));
    for (int n = 0; n < nodes; ++n)
        plan.devices.push_back(makeEndpoint(nodeName(plan.spec, n), DeviceKind::Node, true));
    const int sus = (nodes + 31) / 32;
    const auto leafBase = static_cast<std::uint32_t>(plan.devices.size());
    for (int su = 0; su < sus; ++su) {
        for (int r = 0; r < rails; ++r)
            plan.devices.push_back(makeSwitch("su" + std::to_string(su + 1) + "-rail" + std::to_string(r) + "-leaf", SwitchTier::Leaf, su + 1, r));
    }
    const auto spineBase = static_cast<std::uint32_t>(plan.devices.size());
    for (int s = 0; s < spines; ++s)
        plan.devices.push_back(makeSwitch("spine" + std::to_string(s + 1), SwitchTier::Spine, 0, -1));
    for (int n = 0; n < nodes; ++n) {
        for (int r = 0; r < rails; ++r) {
            const auto as = addAssembly(plan, "mfp7e10-n010", Medium::Mmf, 10.0f + static_cast<float>(n % 7) * 0.5f, 1, true);
            const auto leaf = leafBase + static_cast<std::uint32_t>((n / 32) * rails + r);
            plan.links.push_back(Link { PortRef { static_cast<std::uint32_t>(n), static_cast<std::uint16_t>(r), 0 },
                PortRef { leaf, static_cast<std::uint16_t>(n % 32 + 1), 0 }, LinkTier::NodeLeaf, Medium::Mmf, plan.assemblies[as].lengthM, as, true });
        }
    }
    for (std::uint32_t leaf = leafBase; leaf < spineBase; ++leaf) {
        for (int k = 0; k < 32; ++k) {
            const auto as = addAssembly(plan, "mfp7e10-n030", Medium::Mmf, 30, 1, true);
            const auto spine = spineBase + static_cast<std::uint32_t>(k % spines);
            plan.links.push_back(Link { PortRef { leaf, static_cast<std::uint16_t>(33 + k), 0 },
                PortRef { spine, static_cast<std::uint16_t>((leaf - leafBase) % 64 + 1), 0 }, LinkTier::LeafSpine, Medium::Mmf, 30, as, true });
        }
    }
    return plan;
}

} // namespace

TEST(PlanJson, WriteReadWriteIsByteIdentical)
{
    const Plan plan = smallPlan();
    const std::string first = write(plan);
    auto read = readPlanJson(first, "small.json");
    ASSERT_TRUE(read.ok()) << read.error().toString();
    const std::string second = write(*read);
    EXPECT_EQ(first, second);
}

TEST(PlanJson, DocumentShape)
{
    const json doc = json::parse(write(smallPlan()));
    for (const char* key : { "spec", "summary", "findings", "switches", "cables", "bom", "analysis" })
        EXPECT_TRUE(doc.contains(key)) << key;
    const json& s = doc["summary"];
    for (const char* key : { "nodes", "gpus", "rails", "su_count", "tiers", "planes", "su_size", "leaves_per_rail",
             "leaf_downlinks", "leaf_uplinks", "assemblies", "transceivers", "lids_per_subnet", "rack_units" })
        EXPECT_TRUE(s[key].is_number_integer()) << key;
    for (const char* key : { "leaf", "spine", "core", "total" })
        EXPECT_TRUE(s["switches"][key].is_number_integer()) << key;
    for (const char* key : { "node_leaf", "leaf_spine", "spine_core", "total" })
        EXPECT_TRUE(s["cables"][key].is_number_integer()) << key;
    EXPECT_EQ(s["switches"]["total"], 3);
    EXPECT_EQ(s["cables"]["total"], 13);
    EXPECT_EQ(s["port"]["data_gbps"], 400.0);
    EXPECT_EQ(s["port"]["signaling_gbps"], 425.0);
    EXPECT_EQ(s["port"]["lanes"], 4);
    EXPECT_TRUE(s["per_gpu_gbps"].is_number_float());
    EXPECT_TRUE(s["bisection_gbps"].is_number_float());
    EXPECT_EQ(s["oversubscription"]["spine"], 1.5);
    EXPECT_EQ(s["final"]["nodes"], 6);
    EXPECT_EQ(s["final"]["cables"]["node_leaf"], 13);
    EXPECT_EQ(s["cost_usd"], 123456.78);

    ASSERT_EQ(doc["findings"].size(), 3u);
    EXPECT_EQ(doc["findings"][0]["severity"], "error");
    EXPECT_EQ(doc["findings"][0]["message"], "says \"no\"\nand a tab\t here");
    EXPECT_EQ(doc["findings"][2]["message"], "unicode: \xc3\xa9t\xc3\xa9 \xe2\x86\x92 ok");

    ASSERT_EQ(doc["switches"].size(), 3u);
    const json& leaf = doc["switches"][0];
    EXPECT_EQ(leaf["id"], "su1-rail0-leaf");
    EXPECT_EQ(leaf["tier"], "leaf");
    EXPECT_EQ(leaf["su"], 1);
    EXPECT_EQ(leaf["rail"], 0);
    EXPECT_EQ(leaf["ports_used"], 9);
    EXPECT_EQ(leaf["ports_reserved"], 2);
    EXPECT_EQ(leaf["ports_free"], 53);
    EXPECT_FALSE(leaf.contains("plane"));
    EXPECT_FALSE(doc["switches"][2].contains("rail"));
    EXPECT_FALSE(doc["switches"][2].contains("su"));

    ASSERT_EQ(doc["cables"].size(), 17u);
    const json& first = doc["cables"][0];
    EXPECT_EQ(first["a"], "node001/nic0");
    EXPECT_EQ(first["b"], "su1-rail0-leaf/1");
    EXPECT_EQ(first["tier"], "node_leaf");
    EXPECT_EQ(first["type"], "mmf");
    EXPECT_EQ(first["length_m"], 3.5);
    EXPECT_FALSE(first.contains("a_cage"));
    EXPECT_EQ(first["b_cage"], 1);
    EXPECT_EQ(first["b_pos"], 1);
    EXPECT_EQ(first["part"], "mfp7e10-n003");
    EXPECT_EQ(first["installed"], true);
    EXPECT_EQ(doc["cables"][11]["installed"], false);
    const json& mgmt = doc["cables"][12];
    EXPECT_EQ(mgmt["a"], "mgmt1/1");
    EXPECT_EQ(mgmt["b"], "su1-rail0-leaf/32");
    EXPECT_EQ(mgmt["b_cage"], 16);
    EXPECT_EQ(mgmt["b_pos"], 2);
    EXPECT_EQ(mgmt["length_m"], 2.7); // written as the float's shortest form
    const json& up = doc["cables"][14];
    EXPECT_EQ(up["tier"], "leaf_spine");
    EXPECT_EQ(up["a_cage"], 17);
    EXPECT_EQ(up["a_pos"], 2);
    EXPECT_EQ(up["assembly"], doc["cables"][13]["assembly"]);
    for (const auto& row : doc["cables"])
        EXPECT_TRUE(row["assembly"].is_number_integer());

    ASSERT_EQ(doc["bom"].size(), 3u);
    EXPECT_EQ(doc["bom"][0]["quantity"], 3);
    EXPECT_TRUE(doc["bom"][0]["quantity"].is_number_integer());
    EXPECT_EQ(doc["bom"][0]["unit_price_usd"], 29999.5);
    EXPECT_FALSE(doc["bom"][0].contains("length_m"));
    EXPECT_EQ(doc["bom"][1]["length_m"], 1.5);
    EXPECT_FALSE(doc["bom"][1].contains("unit_price_usd"));
    EXPECT_EQ(doc["spec"]["grow_to"]["nodes"], 6);
    EXPECT_EQ(doc["analysis"]["worst_switch"][0]["element"], "spine1");
    EXPECT_EQ(doc["analysis"]["leaf_paths_link"], 2);
}

TEST(PlanJson, ReadRebuildsTheModel)
{
    const Plan plan = smallPlan();
    auto read = readPlanJson(write(plan), "small.json");
    ASSERT_TRUE(read.ok()) << read.error().toString();
    const Plan& back = *read;
    PlanSpec spec = plan.spec;
    spec.racksGiven = true; // the document writes the rack layout with its defaults
    EXPECT_EQ(back.spec, spec) << toJson(back.spec).dump();
    EXPECT_EQ(back.findings, plan.findings);
    ASSERT_EQ(back.devices.size(), plan.devices.size());
    for (std::size_t i = 0; i < plan.devices.size(); ++i) {
        const Device& want = plan.devices[i];
        const Device& got = back.devices[i];
        EXPECT_EQ(got.name, want.name);
        EXPECT_EQ(got.kind, want.kind) << want.name;
        EXPECT_EQ(got.installed, want.installed) << want.name;
        EXPECT_EQ(got.portsUsed, want.portsUsed) << want.name;
        EXPECT_EQ(got.su, want.su) << want.name;
        EXPECT_EQ(got.ports, want.ports) << want.name;
        EXPECT_EQ(got.portsPerCage, want.portsPerCage) << want.name;
    }
    ASSERT_EQ(back.links.size(), plan.links.size());
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        EXPECT_EQ(back.links[i].a, plan.links[i].a) << i;
        EXPECT_EQ(back.links[i].b, plan.links[i].b) << i;
        EXPECT_EQ(back.links[i].tier, plan.links[i].tier) << i;
        EXPECT_EQ(back.links[i].medium, plan.links[i].medium) << i;
        EXPECT_EQ(back.links[i].lengthM, plan.links[i].lengthM) << i;
        EXPECT_EQ(back.links[i].assembly, plan.links[i].assembly) << i;
        EXPECT_EQ(back.links[i].installed, plan.links[i].installed) << i;
    }
    ASSERT_EQ(back.assemblies.size(), plan.assemblies.size());
    for (std::size_t i = 0; i < plan.assemblies.size(); ++i) {
        EXPECT_EQ(back.assemblies[i].cable, plan.assemblies[i].cable);
        EXPECT_EQ(back.assemblies[i].links, plan.assemblies[i].links);
        EXPECT_EQ(back.assemblies[i].installed, plan.assemblies[i].installed);
    }
    EXPECT_EQ(back.bom.size(), 3u);
    EXPECT_EQ(back.bom[1].lengthM, 1.5);
    EXPECT_FALSE(back.bom[1].unitPriceUsd);
    EXPECT_EQ(back.summary.finalCables->nodeLeaf, 13);
    EXPECT_EQ(back.summary.port, plan.summary.port);
    EXPECT_EQ(back.analysis.worstCable[0].railGbpsLeft, plan.analysis.worstCable[0].railGbpsLeft);
    EXPECT_TRUE(back.hasErrors());
}

TEST(PlanJson, TwoPlanesNamePortsAndRoundTrip)
{
    Plan plan = smallPlan();
    plan.spec.planes = 2;
    plan.summary.planes = 2;
    for (auto& d : plan.devices) {
        if (d.kind == DeviceKind::Switch)
            d.plane = 1;
    }
    plan.links[1].a.plane = 1;
    EXPECT_EQ(plan.portName(plan.links[0].a), "node001/nic0-p1");
    EXPECT_EQ(plan.portName(plan.links[1].a), "node001/nic1-p2");
    const std::string first = write(plan);
    const json doc = json::parse(first);
    EXPECT_EQ(doc["cables"][1]["a"], "node001/nic1-p2");
    EXPECT_EQ(doc["switches"][0]["plane"], 1);
    auto read = readPlanJson(first, "planes.json");
    ASSERT_TRUE(read.ok()) << read.error().toString();
    EXPECT_EQ(read->links[1].a, plan.links[1].a);
    EXPECT_EQ(write(*read), first);
}

TEST(PlanJson, PortNamesAndCages)
{
    const Plan plan = smallPlan();
    EXPECT_EQ(plan.portName(PortRef { 5, 3, 0 }), "node006/nic3");
    EXPECT_EQ(plan.portName(PortRef { 6, 1, 0 }), "mgmt1/1");
    EXPECT_EQ(plan.portName(PortRef { 8, 17, 0 }), "su1-rail1-leaf/17");
    EXPECT_EQ(plan.cageOf(PortRef { 8, 17, 0 }), std::make_pair(9, 1));
    EXPECT_EQ(plan.cageOf(PortRef { 8, 18, 0 }), std::make_pair(9, 2));
    EXPECT_EQ(plan.cageOf(PortRef { 8, 1, 0 }), std::make_pair(1, 1));
    EXPECT_EQ(plan.cageOf(PortRef { 8, 64, 0 }), std::make_pair(32, 2));
    EXPECT_EQ(plan.cageOf(PortRef { 0, 3, 0 }), std::make_pair(0, 0));
    EXPECT_EQ(plan.cageOf(PortRef { 6, 1, 0 }), std::make_pair(0, 0));
    Plan ndr200 = plan;
    ndr200.devices[8].portsPerCage = 4; // QM9700 at NDR200
    EXPECT_EQ(ndr200.cageOf(PortRef { 8, 17, 0 }), std::make_pair(5, 1));
    EXPECT_EQ(ndr200.cageOf(PortRef { 8, 20, 0 }), std::make_pair(5, 4));
    ndr200.devices[8].portsPerCage = 1;
    EXPECT_EQ(ndr200.cageOf(PortRef { 8, 20, 0 }), std::make_pair(20, 1));
}

TEST(PlanJson, EnumNamesAndErrors)
{
    EXPECT_EQ(toString(Severity::Warning), "warning");
    EXPECT_EQ(toString(SwitchTier::Spine), "spine");
    EXPECT_EQ(toString(LinkTier::SpineCore), "spine_core");
    Plan plan;
    EXPECT_FALSE(plan.hasErrors());
    plan.findings.push_back(Finding { Severity::Warning, "W", "m", "" });
    EXPECT_FALSE(plan.hasErrors());
    plan.findings.push_back(Finding { Severity::Error, "E", "m", "" });
    EXPECT_TRUE(plan.hasErrors());
    EXPECT_EQ(toJson(plan.findings[1])["severity"], "error");
}

TEST(PlanJson, ReaderNamesSourceAndMember)
{
    json doc = json::parse(write(smallPlan()));
    doc["cables"][3]["b"] = "su9-rail0-leaf/1";
    doc["bom"][0]["quantity"] = "three";
    doc["summary"].erase("nodes");
    auto bad = readPlanJson(doc.dump(), "edited.json");
    ASSERT_FALSE(bad.ok());
    std::string all;
    for (const auto& e : bad.errors()) {
        EXPECT_EQ(e.where, "edited.json");
        all += e.message + "\n";
    }
    EXPECT_NE(all.find("cables[3].b: \"su9-rail0-leaf/1\""), std::string::npos) << all;
    EXPECT_NE(all.find("bom[0].quantity: must be an integer, got \"three\""), std::string::npos) << all;
    EXPECT_NE(all.find("summary.nodes: required"), std::string::npos) << all;

    json missing = json::parse(write(smallPlan()));
    missing.erase("bom");
    auto noBom = readPlanJson(missing.dump(), "m.json");
    ASSERT_FALSE(noBom.ok());
    EXPECT_EQ(noBom.error().message, "bom: required member of a plan document");

    json badSpec = json::parse(write(smallPlan()));
    badSpec["spec"]["nodes"] = -1;
    auto spec = readPlanJson(badSpec.dump(), "s.json");
    ASSERT_FALSE(spec.ok());
    EXPECT_EQ(spec.error().message.rfind("spec.nodes:", 0), 0u) << spec.error().message;

    json notList = json::parse(write(smallPlan()));
    notList["cables"] = json { { "x", { { "a", "node001/nic0" } } } };
    auto cablesObject = readPlanJson(notList.dump(), "c.json");
    ASSERT_FALSE(cablesObject.ok());
    EXPECT_EQ(cablesObject.error().message.rfind("cables: must be a list", 0), 0u) << cablesObject.error().message;

    // A member of the wrong type deep in the analysis (found by fuzz_core_json: it threw).
    json oddImpact = json::parse(write(smallPlan()));
    oddImpact["analysis"]["worst_switch"] = json::array({ { { "element", "spine1" }, { "bandwidth_lost_gbps", 800 }, { "nodes_cut_off", 0 },
        { "node_rails_lost", 0 }, { "rail_gbps_left", 7 } } });
    auto impact = readPlanJson(oddImpact.dump(), "i.json");
    ASSERT_FALSE(impact.ok());
    std::string impactErrors;
    for (const auto& e : impact.errors())
        impactErrors += e.message + "\n";
    EXPECT_NE(impactErrors.find("analysis.worst_switch[0].rail_gbps_left: must be a list"), std::string::npos) << impactErrors;

    // A cable longer than a float holds (found by fuzz_core_json: it was read as infinity and
    // written back as null, a document its own reader refused); a negative one is no length either.
    for (const double length : { 43e57, -1.0, 1e6 }) {
        json far = json::parse(write(smallPlan()));
        far["cables"][1]["length_m"] = length;
        auto longCable = readPlanJson(far.dump(), "l.json");
        ASSERT_FALSE(longCable.ok()) << length;
        EXPECT_EQ(longCable.error().message.rfind("cables[1].length_m: must be a length in metres from 0 to 100000", 0), 0u)
            << longCable.error().message;
    }

    auto syntax = readPlanJson("{\n\"spec\": }", "t.json");
    ASSERT_FALSE(syntax.ok());
    EXPECT_EQ(syntax.error().code, "PLAN_SYNTAX");
    EXPECT_NE(syntax.error().message.find("line 2"), std::string::npos) << syntax.error().message;
}

TEST(PlanJson, LargerPlanRoundTrips)
{
    const Plan plan = bigPlan(512, 8, 16); // 4096 node links, 4096 uplinks
    const std::string first = write(plan);
    auto read = readPlanJson(first, "big.json");
    ASSERT_TRUE(read.ok()) << read.error().toString();
    EXPECT_EQ(read->links.size(), plan.links.size());
    EXPECT_EQ(write(*read), first);
}
