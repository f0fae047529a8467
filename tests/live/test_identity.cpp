// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The identity mapping: JSON both ways, the OpenSM node-name map and the ftree root GUID file.
#include "live/client/identity.h"

#include "core/examples.h"
#include "planner/planner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sstream>

using namespace railyard;
using namespace railyard::live;

namespace {

Identity sample()
{
    Identity id;
    id.plan = "test";
    id.entries.push_back({ "spine1", "switch", "spine", { 0x5259010000002b00 }, "MF0;sw-2:MQM9700/U1", "", "", "", "", "", "switches" });
    id.entries.push_back({ "su1-rail0-leaf", "switch", "leaf", { 0x5259010000002300 }, "", "", "", "", "", "", "hosts" });
    id.entries.push_back({ "node007/nic3", "nic", "", { 0x5259010000000606, 0x5259010000000607 }, "node007 mlx5_5", "node007",
        "mlx5_5", "0000:4c:00.0", "", "", "description" });
    return id;
}

} // namespace

TEST(Identity, JsonRoundTrip)
{
    const Identity id = sample();
    const auto doc = toJson(id);
    EXPECT_EQ(doc["entries"][2]["guids"][1], "0x5259010000000607");
    EXPECT_FALSE(doc["entries"][1].contains("hostname"));
    auto back = identityFromJson(doc, "id.json");
    ASSERT_TRUE(back.ok()) << back.error().toString();
    EXPECT_EQ(back->plan, "test");
    EXPECT_EQ(back->entries, id.entries);
    EXPECT_EQ(back->byGuid(0x5259010000000607)->name, "node007/nic3");
    EXPECT_EQ(back->byName("spine1")->tier, "spine");
}

TEST(Identity, BadDocumentsNameTheField)
{
    auto doc = toJson(sample());
    doc["entries"][0]["guids"][0] = "0xnothex";
    auto bad = identityFromJson(doc, "id.json");
    ASSERT_FALSE(bad.ok());
    EXPECT_EQ(bad.error().where, "id.json");
    EXPECT_NE(bad.error().message.find("entries[0].guids"), std::string::npos) << bad.error().message;

    auto unknown = toJson(sample());
    unknown["entries"][1]["colour"] = "red";
    auto bad2 = identityFromJson(unknown, "id.json");
    ASSERT_FALSE(bad2.ok());
    EXPECT_NE(bad2.error().message.find("entries[1].colour: unknown field"), std::string::npos);
}

TEST(Identity, NodeNameMapListsSwitchesThenAdapters)
{
    std::ostringstream out;
    writeNodeNameMap(sample(), out);
    const std::string text = out.str();
    const auto spine = text.find("0x5259010000002b00 \"spine1\"\n");
    const auto leaf = text.find("0x5259010000002300 \"su1-rail0-leaf\"\n");
    const auto nic = text.find("0x5259010000000606 \"node007/nic3\"\n");
    ASSERT_NE(spine, std::string::npos) << text;
    ASSERT_NE(leaf, std::string::npos) << text;
    ASSERT_NE(nic, std::string::npos) << text;
    EXPECT_LT(spine, leaf);
    EXPECT_LT(leaf, nic);
    // Every non-comment line is `0x<16 hex> "<name>"`, as opensm's node_name_map parser reads it.
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        EXPECT_EQ(line.substr(0, 2), "0x");
        EXPECT_EQ(line[18], ' ');
        EXPECT_EQ(line[19], '"');
        EXPECT_EQ(line.back(), '"');
    }
}

TEST(Identity, RootGuidsAreTheTopTier)
{
    auto catalog = core::Catalog::builtin();
    const auto example = core::findExample("dgx-h100-superpod-1su");
    auto spec = core::parsePlanSpecText(example->content, example->path);
    auto plan = planner::makePlan(*spec, *catalog);
    ASSERT_TRUE(plan.ok());
    std::vector<std::string> missing;
    const auto roots = rootGuids(sample(), *plan, &missing);
    ASSERT_EQ(roots.size(), 1u);
    EXPECT_EQ(roots[0], 0x5259010000002b00u);
    EXPECT_EQ(missing, (std::vector<std::string> { "spine2", "spine3", "spine4" }));
    std::ostringstream out;
    writeRootGuids(roots, out);
    EXPECT_EQ(out.str(), "0x5259010000002b00\n");
}
