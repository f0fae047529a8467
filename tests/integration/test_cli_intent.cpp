// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// railyard-cli export addresses | switch-config | host-config end to end: exit statuses, the
// files written and what is in them.
#include "cli_test_support.h"

#include <fstream>
#include <set>

using namespace railyard::clitest;

namespace {

const std::string kSpec = std::string(RAILYARD_TEST_DATA_DIR) + "/intent/roce-2su.plan.json";

/// The fixture spec with `addressing` replaced, written into `dir`.
std::string specWith(const TempDir& dir, const json& addressing)
{
    json doc = json::parse(readText(kSpec));
    doc["addressing"] = addressing;
    const fs::path path = dir.path() / "spec.plan.json";
    std::ofstream(path) << doc.dump(2);
    return path.string();
}

std::set<std::string> filesIn(const fs::path& dir)
{
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir))
        names.insert(e.path().filename().string());
    return names;
}

} // namespace

TEST(CliIntent, HelpForEachCommand)
{
    for (const std::string cmd : { "addresses", "switch-config", "host-config" }) {
        const std::vector<std::string> args { "export", cmd, "--help" };
        const CliRun run = runCli(args);
        EXPECT_EQ(run.status, 0) << describe(args, run);
        EXPECT_NE(run.out.find("--example"), std::string::npos) << describe(args, run);
    }
}

TEST(CliIntent, AddressesCsvAndJson)
{
    TempDir dir;
    const std::string csv = (dir.path() / "addresses.csv").string();
    std::vector<std::string> args { "export", "addresses", kSpec, "--out", csv };
    CliRun run = runCli(args);
    ASSERT_EQ(run.status, 0) << describe(args, run);
    const std::string text = readText(csv);
    EXPECT_EQ(text.substr(0, text.find('\n')), "kind,name,address,prefix_length,peer,peer_address,asn,rail,plane,tier");
    EXPECT_NE(text.find("\nlink,node001/nic0,10.0.0.1,31,su1-rail0-leaf/1,10.0.0.0,,0,,node_leaf\n"), std::string::npos) << text;
    EXPECT_EQ(countLinesStartingWith(text, "switch,"), 5);
    EXPECT_EQ(countLinesStartingWith(text, "link,"), 16);

    args = { "export", "addresses", kSpec, "--format", "json" };
    run = runCli(args);
    ASSERT_EQ(run.status, 0) << describe(args, run);
    const json doc = json::parse(run.out);
    EXPECT_EQ(doc["nics"].size(), 8U);
    EXPECT_EQ(doc["switches"][4]["device"], "spine1");
    EXPECT_EQ(doc["switches"][4]["asn"], 4200000004U);
}

TEST(CliIntent, RangeTooSmallIsBadInputAndAnErrorFinding)
{
    TempDir dir;
    const std::string spec = specWith(dir, { { "fabric", "10.0.0.0/28" } });
    std::vector<std::string> args { "export", "addresses", spec };
    CliRun run = runCli(args);
    EXPECT_EQ(run.status, 2) << describe(args, run);
    EXPECT_NE(run.err.find("addressing.fabric 10.0.0.0/28 holds 16 addresses, but the plan needs 32 (16 links x /31)"),
        std::string::npos)
        << run.err;
    EXPECT_NE(run.err.find("give a /27 or larger"), std::string::npos) << run.err;
    EXPECT_TRUE(run.out.empty());

    args = { "export", "switch-config", spec, "--out-dir", (dir.path() / "sw").string() };
    run = runCli(args);
    EXPECT_EQ(run.status, 2) << describe(args, run);
    EXPECT_FALSE(fs::exists(dir.path() / "sw"));

    args = { "validate", spec };
    run = runCli(args);
    EXPECT_EQ(run.status, 1) << describe(args, run);
    EXPECT_NE(run.out.find("ADDRESS_RANGE_TOO_SMALL"), std::string::npos) << run.out;
}

TEST(CliIntent, InfiniBandAndBadSpecsAreBadInput)
{
    std::vector<std::string> args { "export", "addresses", "--example", "dgx-h100-superpod-1su" };
    CliRun run = runCli(args);
    EXPECT_EQ(run.status, 2) << describe(args, run);
    EXPECT_NE(run.err.find("InfiniBand"), std::string::npos) << run.err;

    TempDir dir;
    const std::string spec = specWith(dir, { { "fabric", "10.0.0.1/24" } });
    args = { "export", "addresses", spec };
    run = runCli(args);
    EXPECT_EQ(run.status, 2) << describe(args, run);
    EXPECT_NE(run.err.find("addressing.fabric"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("10.0.0.0/24"), std::string::npos) << run.err;
}

TEST(CliIntent, SwitchConfigWritesOneFilePerSwitch)
{
    TempDir dir;
    for (const std::string os : { "nvue", "sonic" }) {
        const fs::path out = dir.path() / os;
        const std::vector<std::string> args { "export", "switch-config", kSpec, "--os", os, "--out-dir", out.string() };
        const CliRun run = runCli(args);
        ASSERT_EQ(run.status, 0) << describe(args, run);
        const std::string suffix = os == "nvue" ? ".nvue.sh" : ".config_db.json";
        EXPECT_EQ(filesIn(out),
            (std::set<std::string> { "spine1" + suffix, "su1-rail0-leaf" + suffix, "su1-rail1-leaf" + suffix, "su2-rail0-leaf" + suffix,
                "su2-rail1-leaf" + suffix }));
        const std::string leaf = readText(out / ("su1-rail0-leaf" + suffix));
        EXPECT_EQ(leaf, readText(fs::path(RAILYARD_TEST_DATA_DIR) / "intent" / ("su1-rail0-leaf" + suffix)));
    }
    const std::vector<std::string> args { "export", "switch-config", kSpec, "--os", "eos", "--out-dir", dir.path().string() };
    EXPECT_EQ(runCli(args).status, 2);
    EXPECT_EQ(runCli({ "export", "switch-config", kSpec }).status, 2) << "--out-dir is required";
}

TEST(CliIntent, HostConfigPerNodeOrOneToStdout)
{
    TempDir dir;
    const fs::path out = dir.path() / "hosts";
    std::vector<std::string> args { "export", "host-config", kSpec, "--out-dir", out.string() };
    CliRun run = runCli(args);
    ASSERT_EQ(run.status, 0) << describe(args, run);
    EXPECT_EQ(filesIn(out), (std::set<std::string> { "node001.sh", "node002.sh", "node003.sh", "node004.sh" }));
    EXPECT_EQ(readText(out / "node001.sh"), readText(fs::path(RAILYARD_TEST_DATA_DIR) / "intent/node001.sh"));

    args = { "export", "host-config", kSpec, "--node", "node001" };
    run = runCli(args);
    ASSERT_EQ(run.status, 0) << describe(args, run);
    EXPECT_EQ(run.out, readText(out / "node001.sh"));

    args = { "export", "host-config", kSpec, "--node", "node042" };
    run = runCli(args);
    EXPECT_EQ(run.status, 2) << describe(args, run);
    EXPECT_NE(run.err.find("node042"), std::string::npos) << run.err;

    args = { "export", "host-config", kSpec };
    run = runCli(args);
    EXPECT_EQ(run.status, 2) << describe(args, run);
    EXPECT_NE(run.err.find("--out-dir DIR or --node NAME"), std::string::npos) << run.err;
}

TEST(CliIntent, CableMapOfARoutedPlanHasTheAddresses)
{
    const std::vector<std::string> args { "export", "cables", kSpec };
    const CliRun run = runCli(args);
    ASSERT_EQ(run.status, 0) << describe(args, run);
    EXPECT_EQ(run.out.substr(0, run.out.find('\n')),
        "a,a_cage,a_pos,b,b_cage,b_pos,tier,type,length_m,part,assembly,installed,label,a_address,b_address");
    EXPECT_NE(run.out.find(",10.0.0.17/31,10.0.0.16/31\n"), std::string::npos) << "su1-rail0-leaf/3 <-> spine1/1";
}
