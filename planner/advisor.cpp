// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/advisor.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <utility>

#include "core/text.h"

namespace railyard::planner {

using core::Fabric;

namespace {

// Weights: how much each answer counts. The lack of lossless-Ethernet skills
// weighs most, because it is the usual way a RoCEv2 fabric fails in practice.
constexpr double kScaleSmall = 1.0;
constexpr double kScaleMedium = 1.0;
constexpr double kScaleLarge = 2.0;
constexpr double kTuningAtScale = 2.0;
constexpr double kEthernetOps = 2.0;
constexpr double kNoEthernetOps = 1.0;
constexpr double kLosslessSkills = 2.0;
constexpr double kNoLosslessSkills = 3.0;
constexpr double kLossyRoce = 0.5;
constexpr double kLockIn = 2.0;
constexpr double kNoLockIn = 1.0;
constexpr double kBudget = 1.5;
constexpr double kNoBudget = 0.5;
constexpr double kShared = 2.0;
constexpr double kDedicated = 1.0;

const char* displayName(Fabric fabric)
{
    return fabric == Fabric::InfiniBand ? "InfiniBand" : "RoCEv2";
}

class ReasonList {
public:
    void add(Fabric favours, std::string text, double weight)
    {
        m_reasons.push_back(AdvisorReason { favours, std::move(text), weight });
    }
    std::vector<AdvisorReason> take() { return std::move(m_reasons); }

private:
    std::vector<AdvisorReason> m_reasons;
};

void addScaleReasons(const AdvisorAnswers& a, ReasonList& out)
{
    const std::string gpus = core::formatCount(a.gpuCount) + " GPUs";
    if (a.gpuCount <= kSmallFabricGpus) {
        out.add(Fabric::RoCEv2,
            "At " + gpus + " the fabric fits in one or two switch tiers, so only a few hops need lossless "
                "Ethernet settings, and InfiniBand's advantages at scale (adaptive routing over many paths, "
                "SHARP) matter less.",
            kScaleSmall);
        return;
    }
    if (a.gpuCount < kLargeFabricGpus) {
        out.add(Fabric::InfiniBand,
            "At " + gpus + " collective traffic crosses a spine tier on many parallel paths; InfiniBand's "
                "adaptive routing spreads it over them and SHARP performs all-reduce in the switches.",
            kScaleMedium);
        return;
    }
    out.add(Fabric::InfiniBand,
        "At " + gpus + " the fabric needs three switch tiers or very large switches; InfiniBand's subnet "
            "manager computes the routes of the whole fabric centrally, adaptive routing balances the many "
            "paths, and SHARP performs all-reduce in the switches.",
        kScaleLarge);
    if (!a.losslessEthernetSkills)
        out.add(Fabric::InfiniBand,
            "RoCEv2 at " + gpus + " means setting PFC, ECN and DCQCN consistently on thousands of NIC and "
                "switch ports; at that size one inconsistent hop is likely, and it can spread pause storms "
                "and congestion across the fabric.",
            kTuningAtScale);
}

void addOperationsReasons(const AdvisorAnswers& a, ReasonList& out)
{
    if (a.ethernetOperations)
        out.add(Fabric::RoCEv2,
            "Your team already operates Ethernet: RoCEv2 runs on switches, monitoring, automation and spares "
            "it knows, so the GPU fabric brings no second network technology into operations.",
            kEthernetOps);
    else
        out.add(Fabric::InfiniBand,
            "With no Ethernet operations practice to build on, either fabric means new tools, and InfiniBand "
            "has fewer settings to learn: the subnet manager configures the fabric and ibdiagnet checks it.",
            kNoEthernetOps);

    if (a.losslessEthernetSkills) {
        out.add(Fabric::RoCEv2,
            "Your staff has tuned PFC, ECN and DCQCN, which RoCEv2 needs set consistently on every NIC and "
            "switch hop; with that experience its main operational risk is covered.",
            kLosslessSkills);
    } else {
        out.add(Fabric::InfiniBand,
            "No one on staff has tuned lossless Ethernet. RoCEv2 needs PFC, ECN and DCQCN set consistently on "
            "every hop or its throughput collapses under congestion, while InfiniBand is lossless by design "
            "(credit-based link-level flow control) with no such settings to tune.",
            kNoLosslessSkills);
        out.add(Fabric::InfiniBand,
            "Running RoCEv2 lossy (without PFC) avoids those settings but relies on the NIC's retransmission to "
            "recover every dropped packet, which holds up only while drops stay rare.",
            kLossyRoce);
    }
}

void addBusinessReasons(const AdvisorAnswers& a, ReasonList& out)
{
    if (a.vendorLockInConcern)
        out.add(Fabric::RoCEv2,
            "RoCEv2 is an open standard on Ethernet with switches and NICs from several vendors, so you can "
            "compete bids and change suppliers; InfiniBand switches, adapters and subnet manager come in "
            "practice from a single vendor (NVIDIA).",
            kLockIn);
    else
        out.add(Fabric::InfiniBand,
            "A single vendor is acceptable to you, and InfiniBand's switches, adapters, cables, firmware and "
            "subnet manager come from one vendor and are tested as one system.",
            kNoLockIn);

    if (a.budgetPressure)
        out.add(Fabric::RoCEv2,
            "Ethernet switches and optics usually cost less per port than InfiniBand, and several vendors "
            "compete on price.",
            kBudget);
    else
        out.add(Fabric::InfiniBand,
            "The budget allows InfiniBand's usual price premium per port, which buys low and predictable "
            "switch latency for collectives.",
            kNoBudget);

    if (a.sharedWithEthernet)
        out.add(Fabric::RoCEv2,
            "The fabric must carry several tenants or meet storage and front-end Ethernet: RoCEv2 lives on the "
            "same Ethernet, isolated with VLANs, VRFs or VXLAN, while InfiniBand is a separate network that "
            "reaches Ethernet only through gateways.",
            kShared);
    else
        out.add(Fabric::InfiniBand,
            "The GPU fabric is a dedicated back-end network, where InfiniBand fits best: nothing else shares "
            "its links, so its separate management is no burden.",
            kDedicated);
}

std::vector<std::string> caveatsFor(Fabric fabric, const AdvisorAnswers& a)
{
    std::vector<std::string> caveats;
    if (fabric == Fabric::InfiniBand) {
        caveats.push_back("Run the subnet manager (UFM or OpenSM) with a standby, so losing one host does not "
                          "stop the fabric from being reconfigured.");
        if (a.sharedWithEthernet)
            caveats.push_back("Storage and front-end traffic stays on a separate Ethernet network or crosses an "
                              "InfiniBand-to-Ethernet gateway; size that path.");
        if (a.ethernetOperations)
            caveats.push_back("Your Ethernet monitoring does not see InfiniBand; plan UFM or ibdiagnet checks and "
                              "port-counter collection before bring-up.");
        if (a.vendorLockInConcern)
            caveats.push_back("Expect switches, adapters and cables from one vendor; negotiate support and spares "
                              "with that in mind.");
        return caveats;
    }
    caveats.push_back("Configure PFC on one lossless priority, ECN marking and DCQCN identically on every NIC and "
                      "switch port, and check them before traffic (Railyard's live checks report hosts without "
                      "PFC or ECN).");
    if (!a.losslessEthernetSkills)
        caveats.push_back("Nobody on staff has tuned lossless Ethernet yet: plan training or vendor services "
                          "before the cluster carries jobs, or the first congestion event will be hard to "
                          "diagnose.");
    if (a.gpuCount >= kLargeFabricGpus)
        caveats.push_back("At this scale set ECN thresholds and PFC headroom per switch tier, and watch pause "
                          "counters from the first day.");
    caveats.push_back("Ethernet's ECMP hashing balances a few large flows poorly; prefer switches with adaptive "
                      "routing or packet spraying for the GPU fabric.");
    return caveats;
}

} // namespace

std::vector<AdvisorReason> FabricAdvice::reasonsFor(Fabric fabric) const
{
    std::vector<AdvisorReason> result;
    std::copy_if(reasons.begin(), reasons.end(), std::back_inserter(result),
        [fabric](const AdvisorReason& r) { return r.favours == fabric; });
    return result;
}

core::Result<FabricAdvice> adviseFabric(const AdvisorAnswers& answers)
{
    if (answers.gpuCount <= 0)
        return core::Error { "ADVISOR_INPUT",
            "GPU count: must be a positive number of GPUs, got " + std::to_string(answers.gpuCount), "gpuCount",
            "Enter the number of GPUs on the back-end fabric, e.g. 1024 for 128 nodes of 8 GPUs." };

    ReasonList list;
    addScaleReasons(answers, list);
    addOperationsReasons(answers, list);
    addBusinessReasons(answers, list);

    FabricAdvice advice;
    advice.reasons = list.take();
    std::stable_sort(advice.reasons.begin(), advice.reasons.end(),
        [](const AdvisorReason& x, const AdvisorReason& y) { return x.weight > y.weight; });
    for (const AdvisorReason& r : advice.reasons)
        (r.favours == Fabric::InfiniBand ? advice.infinibandScore : advice.rocev2Score) += r.weight;

    // Ties go to InfiniBand: with equal arguments, fewer settings to get wrong wins.
    advice.recommendation = advice.rocev2Score > advice.infinibandScore ? Fabric::RoCEv2 : Fabric::InfiniBand;
    const double total = advice.infinibandScore + advice.rocev2Score;
    const double winner = std::max(advice.infinibandScore, advice.rocev2Score);
    advice.confidence = total > 0 ? winner / total : 0.5;
    advice.closeCall = std::abs(advice.infinibandScore - advice.rocev2Score) < kCloseCallMargin;
    advice.caveats = caveatsFor(advice.recommendation, answers);
    return advice;
}

std::string summarize(const FabricAdvice& advice)
{
    const bool ib = advice.recommendation == Fabric::InfiniBand;
    std::string line = std::string(displayName(advice.recommendation)) + " (confidence "
        + std::to_string(static_cast<int>(std::lround(advice.confidence * 100))) + "%, "
        + core::formatNumber(ib ? advice.infinibandScore : advice.rocev2Score) + " vs "
        + core::formatNumber(ib ? advice.rocev2Score : advice.infinibandScore) + ")";
    if (advice.closeCall)
        line += "; a close call";
    return line;
}

} // namespace railyard::planner
