// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/catalog.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

using namespace railyard::core;

namespace {

const std::string kFixtures = std::string(RAILYARD_TEST_DATA_DIR) + "/catalog";

Catalog builtinCatalog()
{
    auto c = Catalog::builtin();
    if (!c) {
        ADD_FAILURE() << c.error().toString();
        return {};
    }
    return c.value();
}

PortRate ib(IbGeneration g, int width)
{
    return ibRate(g, width).value();
}

PortRate eth(int speed, int lanes)
{
    return ethernetRate(speed, lanes).value();
}

bool fabricOk(const std::vector<Fabric>& fabrics, Fabric f)
{
    return fabrics.empty() || std::find(fabrics.begin(), fabrics.end(), f) != fabrics.end();
}

bool carries(const CableModel& c, int speed, Fabric f)
{
    return fabricOk(c.fabrics, f) && std::find(c.speedsGbps.begin(), c.speedsGbps.end(), speed) != c.speedsGbps.end();
}

/// Longest run a fiber medium reaches with a transceiver of this shape at both... one end.
double fiberReach(const Catalog& cat, Medium medium, const std::string& form, int ports, int speed, Fabric f,
    std::optional<bool> flatTop = std::nullopt)
{
    double cableMax = 0;
    for (const auto& c : cat.cables()) {
        if (c.medium == medium && c.linksPerAssembly == 1 && carries(c, speed, f))
            cableMax = std::max(cableMax, c.maxLengthM());
    }
    double reach = 0;
    for (const auto& t : cat.transceivers()) {
        if (t.medium == medium && t.form == form && t.ports == ports && t.speedGbps == speed && fabricOk(t.fabrics, f)
            && (!flatTop || t.flatTop == *flatTop))
            reach = std::max(reach, t.reachM);
    }
    return std::min(cableMax, reach);
}

double shortestCopper(const Catalog& cat, int speed, Fabric f)
{
    double best = 1e9;
    for (const auto& c : cat.cables()) {
        if (!needsTransceivers(c.medium) && carries(c, speed, f) && !c.lengthsM.empty())
            best = std::min(best, c.lengthsM.front());
    }
    return best;
}

std::string errorText(const Status& s)
{
    std::string out;
    for (const auto& e : s.errors())
        out += e.toString() + "\n";
    return out;
}

} // namespace

TEST(CatalogBuiltin, LoadsWithoutError)
{
    auto c = Catalog::builtin();
    ASSERT_TRUE(c) << c.error().toString();
    EXPECT_GE(c->switches().size(), 7u);
    EXPECT_GE(c->cables().size(), 10u);
    EXPECT_GE(c->transceivers().size(), 10u);
    EXPECT_EQ(c->findSwitch("qm9700")->source, "catalog/switches.json");
}

TEST(CatalogBuiltin, ContractIdsExist)
{
    const Catalog cat = builtinCatalog();
    for (auto id : { "dgx-a100", "dgx-h100", "dgx-h200", "dgx-b200", "dgx-b300", "hgx-8gpu-400g", "generic-8gpu" })
        EXPECT_NE(cat.findNodeType(id), nullptr) << id;
    for (auto id : { "connectx-6", "connectx-7", "connectx-8", "bluefield-3" })
        EXPECT_NE(cat.findNic(id), nullptr) << id;
    for (auto id : { "qm8700", "qm9700", "q3400", "sn5600", "sn5400", "th5-64x800", "sb7800" })
        EXPECT_NE(cat.findSwitch(id), nullptr) << id;
    EXPECT_EQ(cat.findSwitch("nope"), nullptr);
}

TEST(CatalogBuiltin, EveryNodeTypeNamesAKnownNic)
{
    const Catalog cat = builtinCatalog();
    for (const auto& t : cat.nodeTypes()) {
        EXPECT_NE(cat.findNic(t.nic), nullptr) << t.id;
        EXPECT_TRUE(t.railMap.empty() || static_cast<int>(t.railMap.size()) == t.rails) << t.id;
    }
}

TEST(CatalogBuiltin, RadixPerSpeed)
{
    const Catalog cat = builtinCatalog();
    auto ports = [&](const char* id, const PortRate& r) {
        const SwitchMode* m = cat.findSwitch(id)->modeFor(r);
        return m ? m->ports : -1;
    };
    EXPECT_EQ(ports("qm9700", ib(IbGeneration::NDR, 4)), 64);
    EXPECT_EQ(ports("qm9700", ib(IbGeneration::NDR, 2)), 128);
    EXPECT_EQ(cat.findSwitch("qm9700")->modeFor(ib(IbGeneration::NDR, 2))->portsPerCage, 4);
    EXPECT_EQ(ports("qm9700", ib(IbGeneration::HDR, 4)), 64);
    EXPECT_EQ(ports("qm8700", ib(IbGeneration::HDR, 4)), 40);
    EXPECT_EQ(ports("qm8700", ib(IbGeneration::HDR, 2)), 80);
    EXPECT_EQ(ports("q3400", ib(IbGeneration::XDR, 4)), 144);
    EXPECT_EQ(ports("sb7800", ib(IbGeneration::EDR, 4)), 36);
    EXPECT_EQ(ports("sn5600", eth(800, 8)), 64);
    EXPECT_EQ(ports("sn5600", eth(400, 4)), 128);
    EXPECT_EQ(ports("sn5600", eth(200, 2)), 256);
    EXPECT_EQ(ports("sn5600", eth(400, 8)), -1); // 400G over 8 x 50G is the SN5400's mode
    EXPECT_EQ(ports("sn5400", eth(400, 8)), 64);
    EXPECT_EQ(ports("th5-64x800", eth(400, 4)), 128);
    EXPECT_EQ(cat.findSwitch("qm9700")->cagePorts, 2);
    EXPECT_EQ(cat.findSwitch("qm9700")->cages, 32);
}

TEST(CatalogBuiltin, NodeTypes)
{
    const Catalog cat = builtinCatalog();
    const NodeType* h100 = cat.findNodeType("dgx-h100");
    ASSERT_NE(h100, nullptr);
    const std::vector<std::string> h100Map { "mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10",
        "mlx5_11" };
    EXPECT_EQ(h100->railMap, h100Map);
    EXPECT_EQ(h100->railsPerCage, 2);
    EXPECT_TRUE(h100->flatTopTransceivers);
    EXPECT_EQ(h100->nic, "connectx-7");
    EXPECT_DOUBLE_EQ(h100->powerW, 10200);
    EXPECT_EQ(h100->rackUnits, 8);
    EXPECT_EQ(cat.findNodeType("dgx-h200")->railMap, h100Map);
    EXPECT_EQ(cat.findNodeType("dgx-b200")->railsPerCage, 2);
    EXPECT_EQ(cat.findNodeType("dgx-b300")->nic, "connectx-8");
    EXPECT_EQ(cat.findNodeType("dgx-b300")->railsPerCage, 1);
    EXPECT_EQ(cat.findNodeType("dgx-a100")->nic, "connectx-6");
    EXPECT_EQ(cat.findNodeType("dgx-a100")->cageForm, "QSFP56");
    EXPECT_EQ(cat.findNodeType("hgx-8gpu-400g")->cageForm, "QSFP112");
    for (const auto& t : cat.nodeTypes()) {
        EXPECT_EQ(t.gpus, 8) << t.id;
        EXPECT_EQ(t.rails, 8) << t.id;
    }
}

TEST(CatalogBuiltin, NicRates)
{
    const Catalog cat = builtinCatalog();
    const NicModel* cx7 = cat.findNic("connectx-7");
    EXPECT_TRUE(cx7->supports(ib(IbGeneration::NDR, 4)));
    EXPECT_TRUE(cx7->supports(ib(IbGeneration::NDR, 2)));
    EXPECT_TRUE(cx7->supports(eth(400, 4)));
    EXPECT_FALSE(cx7->supports(eth(400, 8)));
    EXPECT_FALSE(cx7->supports(ib(IbGeneration::XDR, 4)));
    const NicModel* cx8 = cat.findNic("connectx-8");
    EXPECT_TRUE(cx8->supports(ib(IbGeneration::XDR, 4)));
    EXPECT_FALSE(cx8->supports(eth(800, 8))); // 800GbE is 2 x 400G on a CX-8
    EXPECT_DOUBLE_EQ(cx8->maxGbps, 800);
    EXPECT_FALSE(cat.findNic("connectx-6")->supports(ib(IbGeneration::NDR, 4)));
    EXPECT_EQ(cat.findNic("bluefield-3")->cageForm, "QSFP112");
}

TEST(CatalogBuiltin, DefaultSwitches)
{
    const Catalog cat = builtinCatalog();
    auto id = [&](Fabric f, const PortRate& r) {
        const SwitchModel* s = cat.defaultSwitch(f, r);
        return s ? s->id : std::string("(none)");
    };
    EXPECT_EQ(id(Fabric::InfiniBand, ib(IbGeneration::EDR, 4)), "sb7800");
    EXPECT_EQ(id(Fabric::InfiniBand, ib(IbGeneration::HDR, 4)), "qm8700");
    EXPECT_EQ(id(Fabric::InfiniBand, ib(IbGeneration::HDR, 2)), "qm8700");
    EXPECT_EQ(id(Fabric::InfiniBand, ib(IbGeneration::NDR, 4)), "qm9700");
    EXPECT_EQ(id(Fabric::InfiniBand, ib(IbGeneration::NDR, 2)), "qm9700");
    EXPECT_EQ(id(Fabric::InfiniBand, ib(IbGeneration::XDR, 4)), "q3400");
    EXPECT_EQ(id(Fabric::RoCEv2, eth(100, 2)), "sn5400");
    EXPECT_EQ(id(Fabric::RoCEv2, eth(200, 2)), "sn5600");
    EXPECT_EQ(id(Fabric::RoCEv2, eth(400, 4)), "sn5600");
    EXPECT_EQ(id(Fabric::RoCEv2, eth(800, 8)), "sn5600");
    EXPECT_EQ(id(Fabric::RoCEv2, eth(400, 8)), "sn5400"); // the default cannot run it: first that can
    EXPECT_EQ(id(Fabric::InfiniBand, ib(IbGeneration::NDR, 1)), "(none)");
    EXPECT_EQ(id(Fabric::RoCEv2, ib(IbGeneration::NDR, 4)), "(none)");
}

TEST(CatalogBuiltin, MediaAndTransceiversForEverySpeed)
{
    // Switch end as cabled: form = cage form, ports = logical ports per cage at that rate.
    struct Case {
        Fabric fabric;
        PortRate rate;
        double fiberReachM; ///< longest fiber run the catalog can build at this rate
    };
    const Case cases[] = {
        { Fabric::InfiniBand, ib(IbGeneration::EDR, 4), 2000 },
        { Fabric::InfiniBand, ib(IbGeneration::HDR, 4), 2000 },
        { Fabric::InfiniBand, ib(IbGeneration::HDR, 2), 500 },
        { Fabric::InfiniBand, ib(IbGeneration::NDR, 4), 2000 },
        { Fabric::InfiniBand, ib(IbGeneration::NDR, 2), 50 },
        { Fabric::InfiniBand, ib(IbGeneration::XDR, 4), 2000 },
        { Fabric::RoCEv2, eth(100, 2), 500 },
        { Fabric::RoCEv2, eth(200, 2), 50 },
        { Fabric::RoCEv2, eth(400, 4), 2000 },
        { Fabric::RoCEv2, eth(800, 8), 2000 },
    };
    const Catalog cat = builtinCatalog();
    for (const auto& c : cases) {
        SCOPED_TRACE(c.rate.label());
        const SwitchModel* sw = cat.defaultSwitch(c.fabric, c.rate);
        ASSERT_NE(sw, nullptr);
        const SwitchMode* mode = sw->modeFor(c.rate);
        ASSERT_NE(mode, nullptr);
        const int speed = c.rate.speedGbps();
        EXPECT_LE(shortestCopper(cat, speed, c.fabric), 1.0);
        double reach = 0;
        for (Medium m : { Medium::Mmf, Medium::Smf })
            reach = std::max(reach, fiberReach(cat, m, sw->cageForm, mode->portsPerCage, speed, c.fabric));
        EXPECT_GE(reach, c.fiberReachM) << sw->id;
    }
}

TEST(CatalogBuiltin, CopperSplittersAtNdr)
{
    const Catalog cat = builtinCatalog();
    const CableModel* dac = cat.findCable("mcp7y00-n");
    ASSERT_NE(dac, nullptr);
    EXPECT_TRUE(dac->splitter);
    EXPECT_EQ(dac->linksPerAssembly, 2);
    EXPECT_DOUBLE_EQ(dac->maxLengthM(), 3);
    const CableModel* straight = cat.findCable("mcp4y10-n");
    EXPECT_FALSE(straight->splitter);
    EXPECT_EQ(straight->linksPerAssembly, 2);
    EXPECT_DOUBLE_EQ(straight->maxLengthM(), 2);
    const CableModel* acc = cat.findCable("mca7j60-n");
    EXPECT_EQ(acc->medium, Medium::Acc);
    EXPECT_DOUBLE_EQ(acc->maxLengthM(), 5);
}

TEST(CatalogBuiltin, NodeSideTransceivers)
{
    const Catalog cat = builtinCatalog();
    struct Case {
        const char* node;
        PortRate rate;
    };
    const Case cases[] = {
        { "dgx-a100", ib(IbGeneration::HDR, 4) },
        { "dgx-h100", ib(IbGeneration::NDR, 4) },
        { "dgx-b200", ib(IbGeneration::NDR, 4) },
        { "dgx-b300", ib(IbGeneration::XDR, 4) },
        { "hgx-8gpu-400g", eth(400, 4) },
        { "generic-8gpu", ib(IbGeneration::NDR, 4) },
    };
    for (const auto& c : cases) {
        const NodeType* t = cat.findNodeType(c.node);
        ASSERT_NE(t, nullptr) << c.node;
        EXPECT_TRUE(cat.findNic(t->nic)->supports(c.rate)) << c.node;
        double reach = 0;
        for (Medium m : { Medium::Mmf, Medium::Smf }) {
            reach = std::max(reach, fiberReach(cat, m, t->cageForm, t->railsPerCage, c.rate.speedGbps(), c.rate.fabric,
                                        t->flatTopTransceivers));
        }
        EXPECT_GE(reach, 50) << c.node;
    }
    EXPECT_EQ(cat.findTransceiver("mma4z00-ns-flt")->part, "980-9I51A-00NS00");
    EXPECT_FALSE(cat.findTransceiver("mma4z00-ns")->flatTop);
    EXPECT_DOUBLE_EQ(cat.findTransceiver("mma4z00-ns")->powerW, 15);
}

TEST(CatalogBuiltin, NoBuiltinPrices)
{
    const Catalog cat = builtinCatalog();
    for (const auto& s : cat.switches())
        EXPECT_FALSE(s.priceUsd) << s.id;
    for (const auto& c : cat.cables())
        EXPECT_FALSE(c.priceUsd) << c.id;
    for (const auto& t : cat.transceivers())
        EXPECT_FALSE(t.priceUsd) << t.id;
}

TEST(CatalogMedium, RoundTrip)
{
    for (auto m : { Medium::Dac, Medium::Acc, Medium::Aoc, Medium::Mmf, Medium::Smf })
        EXPECT_EQ(parseMedium(toString(m)), m);
    EXPECT_EQ(toString(Medium::Smf), "smf");
    EXPECT_FALSE(parseMedium("fiber"));
    EXPECT_TRUE(needsTransceivers(Medium::Mmf));
    EXPECT_FALSE(needsTransceivers(Medium::Aoc));
}

TEST(CatalogUser, AddsASwitchWithAPrice)
{
    Catalog cat = builtinCatalog();
    const std::string path = kFixtures + "/extra/lab_switch.json";
    const Status s = cat.addFile(path);
    ASSERT_TRUE(s) << errorText(s);
    const SwitchModel* sw = cat.findSwitch("lab-q9700");
    ASSERT_NE(sw, nullptr);
    ASSERT_TRUE(sw->priceUsd);
    EXPECT_DOUBLE_EQ(*sw->priceUsd, 12345.5);
    EXPECT_DOUBLE_EQ(sw->powerW, 1720.5);
    EXPECT_EQ(sw->source, path);
    EXPECT_EQ(sw->modeFor(ib(IbGeneration::NDR, 2))->ports, 128);
    // A later file's default replaces the built-in one for the same generation.
    EXPECT_EQ(cat.defaultSwitch(Fabric::InfiniBand, ib(IbGeneration::NDR, 4))->id, "lab-q9700");
    EXPECT_EQ(cat.defaultSwitch(Fabric::InfiniBand, ib(IbGeneration::HDR, 4))->id, "qm8700");
}

TEST(CatalogUser, DuplicateAcrossFilesNamesBoth)
{
    Catalog cat = builtinCatalog();
    const std::string a = kFixtures + "/extra/site_a.json";
    const std::string b = kFixtures + "/extra/site_b.json";
    ASSERT_TRUE(cat.addFile(a));
    const Status s = cat.addFile(b);
    ASSERT_FALSE(s);
    const std::string text = s.error().toString();
    EXPECT_NE(text.find("site_a.json"), std::string::npos) << text;
    EXPECT_NE(text.find("site_b.json"), std::string::npos) << text;
    EXPECT_NE(text.find("cables[0] (id \"site-trunk\")"), std::string::npos) << text;
    EXPECT_EQ(s.error().code, "CATALOG_DUPLICATE");
    EXPECT_DOUBLE_EQ(cat.findCable("site-trunk")->maxLengthM(), 120); // the first one stays
}

TEST(CatalogUser, MissingFile)
{
    Catalog cat;
    const Status s = cat.addFile(kFixtures + "/no/such/file.json");
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, "CATALOG_FILE");
    EXPECT_NE(s.error().toString().find("file.json"), std::string::npos);
}

TEST(CatalogUser, ExactMessageShape)
{
    Catalog cat;
    const Status s = cat.addFile(kFixtures + "/bad/wrong_type_ports.json");
    ASSERT_FALSE(s);
    const std::string text = s.error().toString();
    EXPECT_NE(text.find("wrong_type_ports.json: switches[2] (id \"foo\"): modes[0].ports: must be a positive integer, "
                        "got \"x\""),
        std::string::npos)
        << text;
}

TEST(CatalogUser, SyntaxErrorGivesLineAndColumn)
{
    Catalog cat;
    const Status s = cat.addJson("{\n  \"schema\": 1,\n  \"nics\": [ x ]\n}\n", "inline.json");
    ASSERT_FALSE(s);
    EXPECT_EQ(s.error().code, "CATALOG_SYNTAX");
    EXPECT_EQ(s.error().where, "inline.json:3:13");
}

TEST(CatalogUser, FailedFileChangesNothing)
{
    Catalog cat = builtinCatalog();
    const auto before = cat.switches().size();
    const Status s = cat.addJson(R"({"switches": [
        {"id": "good-one", "name": "G", "fabric": "infiniband", "cages": 36, "cage_form": "QSFP28",
         "modes": [{"rate": {"generation": "EDR", "width": 4}, "ports": 36}]},
        {"id": "bad-one", "name": "B", "fabric": "infiniband", "cages": 0, "cage_form": "QSFP28",
         "modes": [{"rate": {"generation": "EDR", "width": 4}, "ports": 36}]}]})",
        "two.json");
    ASSERT_FALSE(s);
    EXPECT_NE(s.error().toString().find("two.json: switches[1] (id \"bad-one\"): cages"), std::string::npos)
        << errorText(s);
    EXPECT_EQ(cat.switches().size(), before);
    EXPECT_EQ(cat.findSwitch("good-one"), nullptr);
}

// Each malformed file: the error names the file, the entry and the field.
TEST(CatalogUser, MalformedFilesNameFileEntryAndField)
{
    struct Case {
        const char* file;
        const char* expected; ///< text the first error must contain after "<file>: "
    };
    const Case cases[] = {
        { "syntax_error.json", ":4:27: syntax error" }, // where the parser stopped: the end of "name"
        { "wrong_type_ports.json", "switches[2] (id \"foo\"): modes[0].ports: must be a positive integer" },
        { "unknown_field.json", "switches[0] (id \"bad-unknown\"): colour: unknown field" },
        { "missing_required.json", "nics[0] (id \"nic-no-max\"): max_gbps: required field is missing" },
        { "impossible_ib_width.json", "switches[0] (id \"edr-2x\"): modes[0].rate.width: EDR is not offered at width 2" },
        { "impossible_ethernet_lanes.json", "nics[0] (id \"nic-3-lanes\"): ethernet_rates[1].lanes" },
        { "bad_medium.json", "cables[0] (id \"copper-thing\"): medium: must be one of" },
        { "lengths_not_ascending.json", "cables[0] (id \"fiber-unsorted\"): lengths_m[2]: lengths must be listed in ascending" },
        { "transceiver_copper.json", "transceivers[0] (id \"copper-module\"): medium: a transceiver drives fiber" },
        { "rail_map_size.json", "node_types[0] (id \"short-map\"): rail_map: has 7 entries" },
        { "unknown_nic.json", "node_types[0] (id \"future-node\"): nic: unknown NIC \"connectx-99\"" },
        { "ports_exceed_cages.json", "switches[0] (id \"too-many-ports\"): modes[0].ports: must be at most" },
        { "unknown_section.json", "routers: unknown section" },
        { "duplicate_key.json", "colour: the key \"colour\" appears twice" },
        { "default_unknown_switch.json", "defaults[0]: switch: unknown switch \"no-such-switch\"" },
        { "bad_id.json", "switches[0]: id: must be a lower-case id" },
        { "duplicate_in_file.json", "cables[1] (id \"twice\"): id: \"twice\" is listed twice in this file" },
        { "negative_price.json", "transceivers[0] (id \"cheap-module\"): price_usd: must be a non-negative number" },
        { "schema_version.json", "schema: unsupported catalog schema 2" },
        { "splitter_one_link.json", "cables[0] (id \"lonely-splitter\"): splitter: a splitter carries at least 2" },
        { "builtin_duplicate.json", "switches[0] (id \"qm9700\"): id: \"qm9700\" is already defined in catalog/switches.json" },
        { "ib_rate_on_ethernet_switch.json", "switches[0] (id \"mixed-up\"): modes[0].rate.generation: unknown field" },
        { "not_an_object.json", "must be an object" },
    };
    std::set<std::string> covered;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file);
        covered.insert(c.file);
        Catalog cat = builtinCatalog();
        const auto before = cat.switches().size() + cat.nics().size() + cat.cables().size();
        const std::string path = kFixtures + "/bad/" + c.file;
        const Status s = cat.addFile(path);
        ASSERT_FALSE(s);
        const std::string text = s.error().toString();
        EXPECT_EQ(text.rfind(path, 0), 0u) << text; // starts with the file
        EXPECT_NE(text.find(c.expected), std::string::npos) << text;
        EXPECT_EQ(cat.switches().size() + cat.nics().size() + cat.cables().size(), before);
    }
    // Every fixture in bad/ has an expectation above.
    for (const auto& entry : std::filesystem::directory_iterator(kFixtures + "/bad"))
        EXPECT_TRUE(covered.count(entry.path().filename().string())) << entry.path();
}
