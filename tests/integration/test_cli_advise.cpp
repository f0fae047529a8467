// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "cli_test_support.h"

using namespace railyard::clitest;

TEST(CliAdvise, LargeDedicatedClusterWithoutEthernetTeamGetsInfiniband)
{
    const CliRun run = runCli({ "advise", "--gpus", "16384", "--json" });
    ASSERT_EQ(run.status, 0) << run.err;
    const auto doc = nlohmann::json::parse(run.out);
    EXPECT_EQ(doc.at("recommendation"), "infiniband");
    EXPECT_FALSE(doc.at("reasons").empty());
}

TEST(CliAdvise, SharedClusterRunByAnEthernetTeamGetsRocev2)
{
    const CliRun run = runCli({ "advise", "--gpus", "256", "--ethernet-ops", "--lossless-skills", "--vendor-lock-in", "--shared" });
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_NE(run.out.find("Recommendation: RoCEv2"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("For RoCEv2:"), std::string::npos) << run.out;
}

TEST(CliAdvise, MissingOrBadGpuCountIsBadInput)
{
    EXPECT_EQ(runCli({ "advise" }).status, 2);
    EXPECT_EQ(runCli({ "advise", "--gpus", "-5" }).status, 2);
    EXPECT_EQ(runCli({ "advise", "--help" }).status, 0);
}
