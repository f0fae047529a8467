// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/plan_spec.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace railyard::core;
using nlohmann::json;

namespace {

const std::filesystem::path kSpecDir = std::filesystem::path(RAILYARD_TEST_DATA_DIR) / "specs";

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

PlanSpec parseOk(std::string_view text)
{
    auto spec = parsePlanSpecText(text, "test.plan.json");
    EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().toString());
    return spec.ok() ? *spec : PlanSpec {};
}

/// All error lines of a failed parse, one per line.
std::string errorText(std::string_view text)
{
    auto spec = parsePlanSpecText(text, "test.plan.json");
    if (spec.ok())
        return {};
    std::string out;
    for (const auto& e : spec.errors())
        out += e.toString() + "\n";
    return out;
}

constexpr std::string_view kExample = R"({
  "name": "DGX H100 SuperPOD, 4 SU",
  "fabric": "infiniband",
  "nodes": 127,
  "node_type": "dgx-h100",
  "link": { "generation": "NDR", "width": 4 },
  "leaf_switch": "qm9700",
  "spine_switch": "qm9700",
  "su_size": 32,
  "oversubscription": { "leaf": "1:1", "spine": "1:1" },
  "tiers": "auto"
})";

} // namespace

TEST(PlanSpec, MinimalInfiniBandGetsDefaults)
{
    const PlanSpec spec = parseOk(R"({"fabric": "infiniband", "nodes": 16, "link": {"generation": "ndr"}})");
    EXPECT_EQ(spec.fabric, Fabric::InfiniBand);
    EXPECT_EQ(spec.nodes, 16);
    EXPECT_FALSE(spec.gpus);
    EXPECT_EQ(spec.name, "");
    EXPECT_EQ(spec.nodeType, "generic-8gpu");
    EXPECT_EQ(spec.link.generation, IbGeneration::NDR);
    EXPECT_EQ(spec.link.width, 4);
    EXPECT_FALSE(spec.link.speedGbps);
    EXPECT_TRUE(spec.leafSwitch.empty());
    EXPECT_FALSE(spec.suSize);
    EXPECT_EQ(spec.leafOversubscription, (Ratio { 1, 1 }));
    EXPECT_EQ(spec.tiers, TierMode::Auto);
    EXPECT_EQ(spec.planes, 1);
    EXPECT_EQ(spec.reservedLeafPorts, 0);
    EXPECT_FALSE(spec.losslessGiven);
    EXPECT_FALSE(spec.racksGiven);
    EXPECT_EQ(spec.nodeNamePattern, "node%03d");
    EXPECT_FALSE(spec.growToNodes);

    const json j = toJson(spec);
    EXPECT_EQ(j["fabric"], "infiniband");
    EXPECT_EQ(j["link"], (json { { "generation", "NDR" }, { "width", 4 } }));
    EXPECT_EQ(j["oversubscription"]["leaf"], "1:1");
    EXPECT_EQ(j["tiers"], "auto");
    EXPECT_EQ(j["node_names"], "node%03d");
    EXPECT_EQ(j["racks"]["leaf_placement"], "row");
    EXPECT_EQ(j["racks"]["nodes_per_rack"], 4);
    EXPECT_FALSE(j.contains("lossless"));
    EXPECT_FALSE(j.contains("gpus"));
    EXPECT_FALSE(j.contains("leaf_switch"));
    EXPECT_FALSE(j.contains("grow_to"));
}

TEST(PlanSpec, InterfacesExample)
{
    const PlanSpec spec = parseOk(kExample);
    EXPECT_EQ(spec.name, "DGX H100 SuperPOD, 4 SU");
    EXPECT_EQ(spec.nodes, 127);
    EXPECT_EQ(spec.nodeType, "dgx-h100");
    EXPECT_EQ(spec.leafSwitch, "qm9700");
    EXPECT_EQ(spec.spineSwitch, "qm9700");
    EXPECT_EQ(spec.suSize, 32);
}

TEST(PlanSpec, RoceWithLossless)
{
    const PlanSpec spec = parseOk(R"({
        "fabric": "rocev2", "nodes": 64, "node_type": "hgx-8gpu-400g",
        "link": { "speed_gbps": 400, "lanes": 8 },
        "lossless": { "mode": "pfc-only", "pfc_priority": [3, 4], "ecn": false, "dcqcn": false,
                      "trust": "pcp", "roce_dscp": 24, "cnp_dscp": 46, "mtu": 9000 },
        "oversubscription": { "leaf": "1.5:1" }, "tiers": 3, "planes": 2
    })");
    EXPECT_EQ(spec.fabric, Fabric::RoCEv2);
    EXPECT_EQ(spec.link.speedGbps, 400);
    EXPECT_EQ(spec.link.lanes, 8);
    EXPECT_FALSE(spec.link.generation);
    EXPECT_TRUE(spec.losslessGiven);
    EXPECT_EQ(spec.lossless.mode, "pfc-only");
    EXPECT_EQ(spec.lossless.pfcPriorities, (std::vector<int> { 3, 4 }));
    EXPECT_FALSE(spec.lossless.ecn);
    EXPECT_FALSE(spec.lossless.dcqcn);
    EXPECT_EQ(spec.lossless.trust, "pcp");
    EXPECT_EQ(spec.lossless.roceDscp, 24);
    EXPECT_EQ(spec.lossless.cnpDscp, 46);
    EXPECT_EQ(spec.lossless.mtu, 9000);
    EXPECT_DOUBLE_EQ(spec.leafOversubscription.value(), 1.5);
    EXPECT_EQ(spec.tiers, TierMode::Three);
    EXPECT_EQ(spec.planes, 2);

    const json j = toJson(spec);
    EXPECT_EQ(j["link"], (json { { "speed_gbps", 400 }, { "lanes", 8 } }));
    EXPECT_EQ(j["lossless"]["pfc_priority"], (json { 3, 4 }));
    EXPECT_EQ(j["oversubscription"]["leaf"], "1.5:1");
    EXPECT_EQ(j["tiers"], 3);
}

TEST(PlanSpec, RoceDefaultLosslessIsWritten)
{
    const PlanSpec spec = parseOk(R"({"fabric": "rocev2", "nodes": 8, "link": {"speed_gbps": 200}})");
    EXPECT_FALSE(spec.losslessGiven);
    const json j = toJson(spec);
    EXPECT_EQ(j["lossless"]["mode"], "lossless");
    EXPECT_EQ(j["lossless"]["pfc_priority"], 3);
    EXPECT_EQ(j["lossless"]["roce_dscp"], 26);
    EXPECT_EQ(j["lossless"]["cnp_dscp"], 48);
    EXPECT_EQ(j["lossless"]["mtu"], 4096);
    EXPECT_FALSE(j["link"].contains("lanes"));
}

TEST(PlanSpec, GpusGiveNodesWhenGpusPerNodeIsKnown)
{
    const PlanSpec spec = parseOk(R"({"fabric": "ib", "gpus": 1001, "gpus_per_node": 8, "link": {"generation": "HDR"}})");
    EXPECT_EQ(spec.nodes, 126);
    EXPECT_EQ(spec.gpus, 1001);
    // Without gpus_per_node the planner resolves nodes from the node type.
    const PlanSpec open = parseOk(R"({"fabric": "ib", "gpus": 1000, "link": {"generation": "HDR"}})");
    EXPECT_EQ(open.nodes, 0);
    EXPECT_FALSE(toJson(open).contains("nodes"));
    // Both given without gpus_per_node: left to the planner.
    parseOk(R"({"fabric": "ib", "gpus": 1000, "nodes": 3, "link": {"generation": "HDR"}})");
}

TEST(PlanSpec, RoundTripThroughJson)
{
    std::vector<std::string> texts { std::string(kExample),
        R"({"fabric": "rocev2", "nodes": 10, "link": {"speed_gbps": 800, "lanes": 8}, "planes": 2,
            "lossless": {"pfc_priority": [2, 5], "mtu": 1024}, "node_names": "gpu-%d-x", "tiers": 2})",
        R"({"fabric": "infiniband", "nodes": 3, "gpus": 20, "gpus_per_node": 7, "rails": 4, "nic": "connectx-7",
            "link": {"generation": "XDR", "width": 2}, "core_switch": "q3400", "oversubscription": {"leaf": "4:3", "spine": "2:1"},
            "reserved_leaf_ports": 2, "management_ports": 1, "node_names": ["a", "b", "c", "d", "e"], "grow_to": {"nodes": 5},
            "racks": {"nodes_per_rack": 2, "leaf_placement": "rack", "slack_m": 0.25}})" };
    for (const auto& entry : std::filesystem::directory_iterator(kSpecDir / "good"))
        texts.push_back(readFile(entry.path()));
    for (const auto& text : texts) {
        PlanSpec first = parseOk(text);
        const json j = toJson(first);
        auto again = parsePlanSpec(j, "round trip");
        ASSERT_TRUE(again.ok()) << again.error().toString() << "\n" << j.dump(2);
        // toJson writes the rack layout (and the RoCEv2 lossless profile) with defaults filled in.
        first.racksGiven = true;
        first.losslessGiven = first.fabric == Fabric::RoCEv2;
        EXPECT_EQ(*again, first) << j.dump(2);
        EXPECT_EQ(toJson(*again), j);
    }
}

TEST(PlanSpec, CollectsEveryError)
{
    auto spec = parsePlanSpecText(R"({"fabric": "infiniband", "nodes": -4, "link": {"generation": "NDR", "width": 3},
        "oversubscription": {"leaf": "2-1"}, "planes": 3, "bogus": 1})",
        "h100.plan.json");
    ASSERT_FALSE(spec.ok());
    ASSERT_EQ(spec.errors().size(), 5u);
    std::set<std::string> messages;
    for (const auto& e : spec.errors()) {
        EXPECT_EQ(e.where, "h100.plan.json");
        messages.insert(e.message);
    }
    EXPECT_TRUE(messages.contains("nodes: must be a positive integer, got -4"));
    EXPECT_TRUE(messages.contains("link.width: NDR is offered at 1x, 2x, 4x or 8x, got 3"));
    EXPECT_TRUE(messages.contains("oversubscription.leaf: must be \"down:up\" like \"2:1\", got \"2-1\""));
    EXPECT_TRUE(messages.contains("planes: must be 1 or 2, got 3"));
    EXPECT_TRUE(messages.contains("bogus: unknown field"));
}

TEST(PlanSpec, ErrorCodes)
{
    auto unknown = parsePlanSpecText(R"({"fabric": "ib", "node": 4, "link": {"generation": "NDR"}})", "x.plan.json");
    ASSERT_FALSE(unknown.ok());
    bool sawUnknown = false;
    for (const auto& e : unknown.errors()) {
        if (e.code == "SPEC_UNKNOWN_FIELD") {
            sawUnknown = true;
            EXPECT_EQ(e.message, "node: unknown field");
            EXPECT_EQ(e.hint, "did you mean \"nodes\"?");
        } else {
            EXPECT_EQ(e.code, "SPEC_FIELD");
            EXPECT_EQ(e.message.rfind("nodes:", 0), 0u) << e.message;
        }
    }
    EXPECT_TRUE(sawUnknown);

    auto syntax = parsePlanSpecText("{\n  \"fabric\": \"ib\",\n  \"nodes\": 4,,\n}", "y.plan.json");
    ASSERT_FALSE(syntax.ok());
    EXPECT_EQ(syntax.error().code, "SPEC_SYNTAX");
    EXPECT_EQ(syntax.error().where, "y.plan.json");
    EXPECT_NE(syntax.error().message.find("line 3, column"), std::string::npos) << syntax.error().message;
}

TEST(PlanSpec, WrongTypesAndFabricSpecificFields)
{
    EXPECT_NE(errorText(R"({"fabric": "rocev2", "nodes": 4, "link": {"speed_gbps": 400, "generation": "NDR"}})")
                  .find("link.generation: only for InfiniBand"),
        std::string::npos);
    EXPECT_NE(errorText(R"({"fabric": "ib", "nodes": 4, "link": {"generation": "NDR", "speed_gbps": 400}})")
                  .find("link.speed_gbps: only for RoCEv2"),
        std::string::npos);
    EXPECT_NE(errorText(R"({"fabric": "ib", "nodes": 4, "link": {"generation": "HDR"}, "lossless": {}})")
                  .find("lossless: only for RoCEv2"),
        std::string::npos);
    EXPECT_NE(errorText(R"({"fabric": "rocev2", "nodes": 4, "link": {"speed_gbps": 400, "lanes": 2}})")
                  .find("link.lanes: 400G runs over 4 or 8 lanes, got 2"),
        std::string::npos);
    EXPECT_NE(errorText(R"({"fabric": "ib", "nodes": "4", "link": {"generation": "EDR", "width": 2}})")
                  .find("link.width: EDR is offered at 1x or 4x, got 2"),
        std::string::npos);
    EXPECT_NE(errorText(R"({"fabric": "ib", "nodes": "4", "link": {"generation": "EDR"}})").find("nodes: must be a positive integer, got \"4\""),
        std::string::npos);
    // An integral number written with a fraction is accepted; a real fraction is not.
    EXPECT_EQ(parseOk(R"({"fabric": "ib", "nodes": 32.0, "link": {"generation": "NDR"}})").nodes, 32);
}

TEST(PlanSpec, RatioParsing)
{
    EXPECT_EQ(parseRatio("2:1"), (Ratio { 2, 1 }));
    EXPECT_EQ(parseRatio(" 4 : 3 "), (Ratio { 4, 3 }));
    EXPECT_EQ(parseRatio("1.5:1"), (Ratio { 1.5, 1 }));
    EXPECT_FALSE(parseRatio("2-1"));
    EXPECT_FALSE(parseRatio("0:1"));
    EXPECT_FALSE(parseRatio("-2:1"));
    EXPECT_FALSE(parseRatio("2:"));
    EXPECT_FALSE(parseRatio("2:1:1"));
    EXPECT_FALSE(parseRatio("inf:1"));
    EXPECT_FALSE(parseRatio("nan:1"));
    EXPECT_FALSE(parseRatio(""));
    EXPECT_EQ((Ratio { 2, 1 }).toString(), "2:1");
    EXPECT_EQ((Ratio { 1.5, 1 }).toString(), "1.5:1");
    EXPECT_EQ((Ratio { 4, 3 }).toString(), "4:3");
    EXPECT_DOUBLE_EQ(parseRatio("4:3")->value(), 4.0 / 3.0);
}

TEST(PlanSpec, NodeNamesFromPattern)
{
    PlanSpec spec;
    EXPECT_EQ(nodeName(spec, 0), "node001");
    EXPECT_EQ(nodeName(spec, 6), "node007");
    EXPECT_EQ(nodeName(spec, 998), "node999");
    EXPECT_EQ(nodeName(spec, 999), "node1000");
    spec.nodeNamePattern = "gpu-%05d.rack";
    EXPECT_EQ(nodeName(spec, 41), "gpu-00042.rack");
    spec.nodeNamePattern = "n%d";
    EXPECT_EQ(nodeName(spec, 9), "n10");
    spec.nodeNamePattern = "a%%b%02d";
    EXPECT_EQ(nodeName(spec, 0), "a%b01");

    EXPECT_EQ(nodeNamePatternProblem("node%03d"), "");
    EXPECT_EQ(nodeNamePatternProblem("n%d"), "");
    EXPECT_NE(nodeNamePatternProblem("node"), "");
    EXPECT_NE(nodeNamePatternProblem("r%02dn%03d"), "");
    EXPECT_NE(nodeNamePatternProblem("node%s"), "");
    EXPECT_NE(nodeNamePatternProblem("node%3d"), "");
    EXPECT_NE(nodeNamePatternProblem("rack/node%03d"), "");
    EXPECT_NE(nodeNamePatternProblem("node %03d"), "");
}

TEST(PlanSpec, NodeNamesFromList)
{
    const PlanSpec spec = parseOk(R"({"fabric": "ib", "nodes": 3, "link": {"generation": "NDR"},
        "node_names": ["alpha", "beta", "gamma"]})");
    EXPECT_EQ(nodeName(spec, 0), "alpha");
    EXPECT_EQ(nodeName(spec, 2), "gamma");
    EXPECT_EQ(toJson(spec)["node_names"], (json { "alpha", "beta", "gamma" }));
    EXPECT_NE(errorText(R"({"fabric": "ib", "nodes": 2, "grow_to": {"nodes": 3}, "link": {"generation": "NDR"},
        "node_names": ["alpha", "beta"]})")
                  .find("node_names: lists 2 names, but the plan needs 3 (grow_to.nodes)"),
        std::string::npos);
}

TEST(PlanSpec, DuplicateFieldIsAnError)
{
    const std::string text = errorText(R"({"fabric": "ib", "nodes": 4, "link": {"generation": "NDR", "width": 4, "width": 2}})");
    EXPECT_NE(text.find("link.width: given twice"), std::string::npos) << text;
}

TEST(PlanSpec, GoodSpecsParse)
{
    int count = 0;
    for (const auto& entry : std::filesystem::directory_iterator(kSpecDir / "good")) {
        auto spec = parsePlanSpecText(readFile(entry.path()), entry.path().filename().string());
        EXPECT_TRUE(spec.ok()) << entry.path() << ": " << (spec.ok() ? "" : spec.error().toString());
        ++count;
    }
    EXPECT_GE(count, 3);
}

TEST(PlanSpec, MalformedCorpus)
{
    const auto dir = kSpecDir / "bad";
    std::ifstream manifest(dir / "EXPECTED.tsv");
    ASSERT_TRUE(manifest) << "missing " << (dir / "EXPECTED.tsv");
    std::string line;
    std::getline(manifest, line);
    EXPECT_EQ(line, "file\tfield\tstage");
    std::set<std::string> listed;
    int parseCases = 0;
    int planCases = 0;
    while (std::getline(manifest, line)) {
        if (line.empty())
            continue;
        std::istringstream row(line);
        std::string file, field, stage;
        std::getline(row, file, '\t');
        std::getline(row, field, '\t');
        std::getline(row, stage, '\t');
        ASSERT_TRUE(listed.insert(file).second) << file << " is listed twice";
        ASSERT_TRUE(std::filesystem::exists(dir / file)) << file;
        auto spec = parsePlanSpecText(readFile(dir / file), file);
        if (stage == "plan") {
            ++planCases;
            EXPECT_TRUE(spec.ok()) << file << " should parse (the planner rejects it): "
                                   << (spec.ok() ? "" : spec.error().toString());
            continue;
        }
        ASSERT_EQ(stage, "parse") << file;
        ++parseCases;
        ASSERT_FALSE(spec.ok()) << file << " should not parse";
        bool named = false;
        for (const auto& e : spec.errors()) {
            EXPECT_EQ(e.where, file);
            named = named || e.toString().find(field) != std::string::npos;
        }
        EXPECT_TRUE(named) << file << ": no error names \"" << field << "\"; first: " << spec.error().toString();
    }
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (name != "EXPECTED.tsv") {
            EXPECT_TRUE(listed.contains(name)) << name << " is not in EXPECTED.tsv";
        }
    }
    EXPECT_GE(parseCases + planCases, 32);
    EXPECT_GE(planCases, 5);
}
