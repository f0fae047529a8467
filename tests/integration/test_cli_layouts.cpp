// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// railyard-cli end to end: the plan document of each built-in example against the published
// layouts (fabric-facts.md §1.3-1.6, §8 P1-P5, §8.1 quick checks) and the demos.
#include "cli_test_support.h"

#include <map>
#include <set>

namespace {

using namespace railyard::clitest;

const json& exampleDocument(const std::string& name)
{
    static std::map<std::string, json> cache;
    if (auto it = cache.find(name); it != cache.end())
        return it->second;
    const CliRun run = runCli({ "plan", "--example", name, "--json" });
    json doc = run.status <= 1 ? parsePlanDocument(run.out) : json();
    if (doc.is_discarded() || run.status > 1)
        ADD_FAILURE() << describe({ "plan", "--example", name, "--json" }, run);
    return cache[name] = doc;
}


// --- published layouts (fabric-facts.md §1.3-1.6, §8 P1-P5, §8.1 Q1-Q6) -------------------

struct Published {
    const char* example;
    long long nodes, gpus;
    int suCount, tiers;
    long long leaf, spine, core;
    long long nodeLeaf, leafSpine, spineCore;
};

// Cable counts are links (one per connected port pair). The B300 Spectrum-4 table counts 800G
// cages; the plan counts its 400G links, two per cage (fabric-facts.md §1.6, P5).
const Published kPublished[] = {
    { "dgx-h100-superpod-1su", 31, 248, 1, 2, 8, 4, 0, 252, 256, 0 },       // Table 4, Q1
    { "dgx-h100-superpod-2su", 63, 504, 2, 2, 16, 8, 0, 508, 512, 0 },      // Table 4
    { "dgx-h100-superpod-3su", 95, 760, 3, 2, 24, 16, 0, 764, 768, 0 },     // Table 4, P2
    { "dgx-h100-superpod-4su", 127, 1016, 4, 2, 32, 16, 0, 1020, 1024, 0 }, // Table 4, P1
    { "dgx-b200-superpod-2su", 64, 512, 2, 2, 16, 8, 0, 512, 512, 0 },
    { "dgx-b200-superpod-4su", 128, 1024, 4, 2, 32, 16, 0, 1024, 1024, 0 },
    { "dgx-b200-superpod-8su", 256, 2048, 8, 2, 64, 32, 0, 2048, 2048, 0 },              // Q5
    { "dgx-b200-superpod-16su", 512, 4096, 16, 3, 128, 128, 64, 4096, 4096, 4096 },      // Q6
    { "dgx-b200-superpod-32su", 1024, 8192, 32, 3, 256, 256, 128, 8192, 8192, 8192 },
    { "dgx-b200-superpod-64su", 2048, 16384, 64, 3, 512, 512, 256, 16384, 16384, 16384 }, // P3
    { "dgx-b300-xdr-superpod-1su", 72, 576, 1, 2, 8, 4, 0, 576, 576, 0 },
    { "dgx-b300-xdr-superpod-2su", 144, 1152, 2, 2, 16, 8, 0, 1152, 1152, 0 },
    { "dgx-b300-xdr-superpod-4su", 288, 2304, 4, 2, 32, 18, 0, 2304, 2304, 0 },           // P4
    { "dgx-b300-xdr-superpod-8su", 576, 4608, 8, 2, 64, 36, 0, 4608, 4608, 0 },
    { "dgx-b300-xdr-superpod-18su", 1296, 10368, 18, 2, 144, 72, 0, 10368, 10368, 0 },    // Q2
    { "dgx-b300-spectrum4-2su", 128, 1024, 2, 2, 32, 16, 0, 2048, 2048, 0 },              // P5
    { "dgx-b300-spectrum4-16su", 1024, 8192, 16, 2, 256, 128, 0, 16384, 16384, 0 },
};

void PrintTo(const Published& p, std::ostream* os)
{
    *os << p.example;
}

class CliPublished : public ::testing::TestWithParam<Published> { };

TEST_P(CliPublished, SummaryMatchesThePublishedTable)
{
    const Published& p = GetParam();
    const json& doc = exampleDocument(p.example);
    ASSERT_TRUE(doc.is_object());
    for (const char* key : { "spec", "summary", "findings", "switches", "bom" })
        EXPECT_TRUE(doc.contains(key)) << key;
    const json& s = doc["summary"];
    EXPECT_EQ(s["nodes"], p.nodes);
    EXPECT_EQ(s["gpus"], p.gpus);
    EXPECT_EQ(s["su_count"], p.suCount);
    EXPECT_EQ(s["tiers"], p.tiers);
    EXPECT_EQ(s["switches"]["leaf"], p.leaf);
    EXPECT_EQ(s["switches"]["spine"], p.spine);
    EXPECT_EQ(s["switches"]["core"], p.core);
    EXPECT_EQ(s["switches"]["total"], p.leaf + p.spine + p.core);
    EXPECT_EQ(s["cables"]["node_leaf"], p.nodeLeaf);
    EXPECT_EQ(s["cables"]["leaf_spine"], p.leafSpine);
    EXPECT_EQ(s["cables"]["spine_core"], p.spineCore);
    EXPECT_EQ(s["cables"]["total"], p.nodeLeaf + p.leafSpine + p.spineCore);
    EXPECT_EQ(doc["switches"].size(), static_cast<std::size_t>(p.leaf + p.spine + p.core));
    for (const json& f : doc["findings"])
        EXPECT_NE(f["severity"], "error") << f.dump();
}

INSTANTIATE_TEST_SUITE_P(Examples, CliPublished, ::testing::ValuesIn(kPublished),
    [](const ::testing::TestParamInfo<Published>& param) {
        std::string name = param.param.example;
        std::replace(name.begin(), name.end(), '-', '_');
        return name;
    });

/// Ports used per switch of one tier, as a set (a balanced fabric has one value).
std::set<long long> portsUsed(const json& doc, const std::string& tier)
{
    std::set<long long> used;
    for (const json& sw : doc["switches"])
        if (sw["tier"] == tier)
            used.insert(sw["ports_used"].get<long long>());
    return used;
}

TEST(CliPublishedDetail, P1DgxH100FourSu)
{
    const CliRun run = runCli({ "plan", "--example", "dgx-h100-superpod-4su", "--json" });
    ASSERT_EQ(run.status, 0) << run.err;
    const json doc = parsePlanDocument(run.out, true);
    ASSERT_TRUE(doc.is_object());
    const json& s = doc["summary"];
    EXPECT_EQ(s["rails"], 8);
    EXPECT_DOUBLE_EQ(s["port"]["data_gbps"].get<double>(), 400.0);
    EXPECT_DOUBLE_EQ(s["port"]["signaling_gbps"].get<double>(), 425.0);
    EXPECT_EQ(s["port"]["lanes"], 4);
    EXPECT_DOUBLE_EQ(s["per_gpu_gbps"].get<double>(), 400.0);
    EXPECT_NEAR(s["bisection_gbps"].get<double>(), 203200.0, 1.0);
    EXPECT_DOUBLE_EQ(s["oversubscription"]["leaf"].get<double>(), 1.0);
    EXPECT_EQ(doc["cables"].size(), 2044u);
    std::set<std::string> names;
    for (const json& sw : doc["switches"]) {
        EXPECT_EQ(sw["model"], "qm9700");
        names.insert(sw["id"].get<std::string>());
    }
    EXPECT_TRUE(names.contains("su1-rail0-leaf"));
    EXPECT_TRUE(names.contains("su4-rail7-leaf"));
    EXPECT_TRUE(names.contains("spine16"));
    EXPECT_EQ(portsUsed(doc, "spine"), std::set<long long> { 64 });
    long long mgmt = 0;
    for (const json& c : doc["cables"])
        mgmt += c["a"].get<std::string>().rfind("mgmt", 0) == 0 ? 1 : 0;
    EXPECT_EQ(mgmt, 4);
    if (s.contains("transceivers")) { // 1536 switch + 508 DGX + 4 UFM (RA-11333-001 Table 8)
        EXPECT_EQ(s["transceivers"], 2048);
    }
}

TEST(CliPublishedDetail, P2SpinesUseFortyEightPorts)
{
    const json& doc = exampleDocument("dgx-h100-superpod-3su");
    ASSERT_TRUE(doc.is_object());
    EXPECT_EQ(portsUsed(doc, "spine"), std::set<long long> { 48 });
}

TEST(CliPublishedDetail, P3CoresAreFull)
{
    const json& doc = exampleDocument("dgx-b200-superpod-64su");
    ASSERT_TRUE(doc.is_object());
    EXPECT_EQ(portsUsed(doc, "core"), std::set<long long> { 64 });
    EXPECT_NEAR(doc["summary"]["bisection_gbps"].get<double>(), 3276800.0, 1.0);
}

TEST(CliPublishedDetail, P4XdrSpinesUse128Ports)
{
    const json& doc = exampleDocument("dgx-b300-xdr-superpod-4su");
    ASSERT_TRUE(doc.is_object());
    EXPECT_EQ(portsUsed(doc, "spine"), std::set<long long> { 128 });
    EXPECT_DOUBLE_EQ(doc["summary"]["per_gpu_gbps"].get<double>(), 800.0);
}

TEST(CliPublishedDetail, P5TwinPlaneEthernet)
{
    const json& doc = exampleDocument("dgx-b300-spectrum4-2su");
    ASSERT_TRUE(doc.is_object());
    EXPECT_DOUBLE_EQ(doc["summary"]["per_gpu_gbps"].get<double>(), 800.0);
    EXPECT_NEAR(doc["summary"]["bisection_gbps"].get<double>(), 409600.0, 1.0);
    EXPECT_EQ(portsUsed(doc, "leaf"), std::set<long long> { 128 });
    bool plane1 = false, plane2 = false;
    for (const json& sw : doc["switches"]) {
        plane1 = plane1 || sw["id"].get<std::string>().rfind("p1-", 0) == 0;
        plane2 = plane2 || sw["id"].get<std::string>().rfind("p2-", 0) == 0;
    }
    EXPECT_TRUE(plane1 && plane2);
}

// --- the demos --------------------------------------------------------------------------------

TEST(CliDemos, RoCE128kGpusPlansInThreeTiersWithPods)
{
    const json& doc = exampleDocument("roce-128k-gpu-400g");
    ASSERT_TRUE(doc.is_object());
    const json& s = doc["summary"];
    EXPECT_EQ(s["gpus"], 131072);
    EXPECT_EQ(s["nodes"], 16384);
    EXPECT_EQ(s["tiers"], 3);
    EXPECT_EQ(s["cables"]["node_leaf"], 131072);
    bool podSpine = false;
    for (const json& sw : doc["switches"])
        podSpine = podSpine || sw["id"].get<std::string>().rfind("pod", 0) == 0;
    EXPECT_TRUE(podSpine) << "expected pod<P>-spine<J> names";
}

TEST(CliDemos, TwoToOneLeavesAreBuiltTwoToOne)
{
    const json& doc = exampleDocument("ib-ndr-2to1");
    ASSERT_TRUE(doc.is_object());
    const double leaf = doc["summary"]["oversubscription"]["leaf"].get<double>();
    EXPECT_GE(leaf, 1.9);
    EXPECT_LE(leaf, 2.1);
}

TEST(CliDemos, GrowShowsNowAndFinal)
{
    const json& doc = exampleDocument("ib-ndr-grow");
    ASSERT_TRUE(doc.is_object());
    EXPECT_EQ(doc["summary"]["nodes"], 64);
    EXPECT_EQ(doc["summary"]["cables"]["node_leaf"], 512);
    const CliRun run = runCli({ "plan", "--example", "ib-ndr-grow" });
    EXPECT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("final"), std::string::npos) << run.out;
}

TEST(CliDemos, LosslessProfileIsKept)
{
    const json& doc = exampleDocument("roce-lossless-demo");
    ASSERT_TRUE(doc.is_object());
    EXPECT_EQ(doc["spec"]["lossless"]["mode"], "lossless");
    EXPECT_EQ(doc["summary"]["switches"]["leaf"], 32);
    EXPECT_EQ(doc["summary"]["switches"]["spine"], 16);
    EXPECT_EQ(doc["summary"]["cables"]["node_leaf"], 2048);
}

} // namespace
