// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/advisor.h"

#include <cctype>
#include <cmath>
#include <string>

#include <gtest/gtest.h>

using namespace railyard;
using namespace railyard::planner;
using core::Fabric;

namespace {

// A large, dedicated training cluster run by an HPC team new to Ethernet.
AdvisorAnswers hpcShop()
{
    AdvisorAnswers a;
    a.gpuCount = 16384;
    return a;
}

// A small enterprise cluster run by a seasoned Ethernet team.
AdvisorAnswers ethernetShop()
{
    AdvisorAnswers a;
    a.gpuCount = 128;
    a.ethernetOperations = true;
    a.losslessEthernetSkills = true;
    a.vendorLockInConcern = true;
    a.budgetPressure = true;
    a.sharedWithEthernet = true;
    return a;
}

bool mentions(const FabricAdvice& advice, Fabric fabric, const std::string& words)
{
    for (const AdvisorReason& r : advice.reasonsFor(fabric))
        if (r.text.find(words) != std::string::npos)
            return true;
    return false;
}

} // namespace

TEST(Advisor, LargeDedicatedClusterWithoutEthernetSkillsGetsInfiniBand)
{
    core::Result<FabricAdvice> advice = adviseFabric(hpcShop());
    ASSERT_TRUE(advice) << advice.error().toString();
    EXPECT_EQ(advice->recommendation, Fabric::InfiniBand);
    EXPECT_GT(advice->infinibandScore, advice->rocev2Score);
    EXPECT_GE(advice->confidence, 0.9);
    EXPECT_FALSE(advice->closeCall);
    EXPECT_TRUE(mentions(*advice, Fabric::InfiniBand, "credit-based"));
    EXPECT_TRUE(mentions(*advice, Fabric::InfiniBand, "subnet manager"));
    EXPECT_TRUE(mentions(*advice, Fabric::InfiniBand, "SHARP"));
    EXPECT_TRUE(mentions(*advice, Fabric::InfiniBand, "16,384 GPUs"));
    EXPECT_TRUE(mentions(*advice, Fabric::InfiniBand, "retransmission")) << "lossy RoCE is addressed";
    EXPECT_FALSE(advice->caveats.empty());
    EXPECT_EQ(summarize(*advice).rfind("InfiniBand (confidence 100%", 0), 0u) << summarize(*advice);
}

TEST(Advisor, SmallSharedClusterRunByEthernetTeamGetsRoce)
{
    core::Result<FabricAdvice> advice = adviseFabric(ethernetShop());
    ASSERT_TRUE(advice);
    EXPECT_EQ(advice->recommendation, Fabric::RoCEv2);
    EXPECT_GT(advice->rocev2Score, advice->infinibandScore);
    EXPECT_GE(advice->confidence, 0.9);
    EXPECT_TRUE(mentions(*advice, Fabric::RoCEv2, "several vendors"));
    EXPECT_TRUE(mentions(*advice, Fabric::RoCEv2, "PFC, ECN and DCQCN"));
    EXPECT_TRUE(mentions(*advice, Fabric::RoCEv2, "operates Ethernet"));
    EXPECT_TRUE(mentions(*advice, Fabric::RoCEv2, "storage"));
    // The RoCE caveats say what to set on every hop.
    bool pfcCaveat = false;
    for (const std::string& c : advice->caveats)
        pfcCaveat = pfcCaveat || c.find("PFC") != std::string::npos;
    EXPECT_TRUE(pfcCaveat);
    EXPECT_EQ(summarize(*advice).rfind("RoCEv2", 0), 0u) << summarize(*advice);
}

TEST(Advisor, LosslessSkillsDecideABalancedCase)
{
    AdvisorAnswers a;
    a.gpuCount = 1024;
    a.ethernetOperations = true;

    a.losslessEthernetSkills = true;
    core::Result<FabricAdvice> skilled = adviseFabric(a);
    ASSERT_TRUE(skilled);
    EXPECT_EQ(skilled->recommendation, Fabric::RoCEv2);

    a.losslessEthernetSkills = false;
    core::Result<FabricAdvice> unskilled = adviseFabric(a);
    ASSERT_TRUE(unskilled);
    EXPECT_EQ(unskilled->recommendation, Fabric::InfiniBand);
    EXPECT_TRUE(mentions(*unskilled, Fabric::InfiniBand, "collapses"));
}

TEST(Advisor, EachAnswerMovesTheScoreTowardsItsSide)
{
    const AdvisorAnswers base { 1024, false, false, false, false, false };
    const FabricAdvice baseline = *adviseFabric(base);
    const auto roceShare = [](const FabricAdvice& f) { return f.rocev2Score / (f.rocev2Score + f.infinibandScore); };

    for (int i = 0; i < 5; ++i) {
        AdvisorAnswers a = base;
        bool* flags[] = { &a.ethernetOperations, &a.losslessEthernetSkills, &a.vendorLockInConcern,
            &a.budgetPressure, &a.sharedWithEthernet };
        *flags[i] = true;
        EXPECT_GT(roceShare(*adviseFabric(a)), roceShare(baseline)) << "answer " << i;
    }
    AdvisorAnswers small = base;
    small.gpuCount = 64;
    EXPECT_GT(roceShare(*adviseFabric(small)), roceShare(baseline));
    AdvisorAnswers large = base;
    large.gpuCount = 32768;
    EXPECT_GT(adviseFabric(large)->infinibandScore, baseline.infinibandScore);
}

TEST(Advisor, ReasonsAreSentencesWithWeightsThatAddUp)
{
    for (const AdvisorAnswers& a : { hpcShop(), ethernetShop(), AdvisorAnswers { 2048, true, false, true, false, false } }) {
        const FabricAdvice advice = *adviseFabric(a);
        ASSERT_FALSE(advice.reasons.empty());
        EXPECT_FALSE(advice.reasonsFor(advice.recommendation).empty()) << "the winner has reasons";
        double ib = 0;
        double roce = 0;
        for (std::size_t i = 0; i < advice.reasons.size(); ++i) {
            const AdvisorReason& r = advice.reasons[i];
            EXPECT_GT(r.weight, 0);
            ASSERT_GT(r.text.size(), 20u);
            EXPECT_TRUE(std::isupper(static_cast<unsigned char>(r.text.front()))) << r.text;
            EXPECT_EQ(r.text.back(), '.') << r.text;
            if (i > 0) {
                EXPECT_GE(advice.reasons[i - 1].weight, r.weight) << "heaviest first";
            }
            (r.favours == Fabric::InfiniBand ? ib : roce) += r.weight;
        }
        EXPECT_DOUBLE_EQ(advice.infinibandScore, ib);
        EXPECT_DOUBLE_EQ(advice.rocev2Score, roce);
        EXPECT_GE(advice.confidence, 0.5);
        EXPECT_LE(advice.confidence, 1.0);
        for (const std::string& c : advice.caveats)
            EXPECT_EQ(c.back(), '.') << c;
    }
}

TEST(Advisor, DeterministicAndTiesGoToInfiniBand)
{
    const FabricAdvice first = *adviseFabric(ethernetShop());
    const FabricAdvice second = *adviseFabric(ethernetShop());
    ASSERT_EQ(first.reasons.size(), second.reasons.size());
    for (std::size_t i = 0; i < first.reasons.size(); ++i) {
        EXPECT_EQ(first.reasons[i].text, second.reasons[i].text);
        EXPECT_EQ(first.reasons[i].favours, second.reasons[i].favours);
    }
    EXPECT_EQ(summarize(first), summarize(second));

    // Small (RoCEv2 +1), Ethernet ops (+2), lock-in concern (+2) against no
    // lossless skills (InfiniBand +3.5), no budget pressure (+0.5), dedicated (+1).
    const FabricAdvice tie = *adviseFabric(AdvisorAnswers { 64, true, false, true, false, false });
    ASSERT_DOUBLE_EQ(tie.infinibandScore, tie.rocev2Score);
    EXPECT_EQ(tie.recommendation, Fabric::InfiniBand);
    EXPECT_TRUE(tie.closeCall);
    EXPECT_DOUBLE_EQ(tie.confidence, 0.5);
    EXPECT_NE(summarize(tie).find("close call"), std::string::npos);
}

TEST(Advisor, RejectsANonPositiveGpuCount)
{
    for (int gpus : { 0, -8 }) {
        AdvisorAnswers a;
        a.gpuCount = gpus;
        core::Result<FabricAdvice> advice = adviseFabric(a);
        ASSERT_FALSE(advice);
        EXPECT_EQ(advice.error().code, "ADVISOR_INPUT");
        EXPECT_NE(advice.error().message.find(std::to_string(gpus)), std::string::npos);
    }
}
