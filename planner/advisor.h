// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <string>
#include <vector>

#include "core/fabric.h"
#include "core/result.h"

namespace railyard::planner {

/// What the architect tells the InfiniBand-or-RoCEv2 advisor.
struct AdvisorAnswers {
    /// GPUs on the back-end (GPU-to-GPU) fabric; must be positive.
    int gpuCount = 0;
    /// The team already runs Ethernet data-centre networks: switch OS,
    /// monitoring, automation, spares and on-call practice.
    bool ethernetOperations = false;
    /// Someone on staff has tuned lossless Ethernet (PFC, ECN, DCQCN) in production.
    bool losslessEthernetSkills = false;
    /// Depending on a single vendor for switches, NICs and management is a concern.
    bool vendorLockInConcern = false;
    /// The budget is tight: cost per port weighs heavily.
    bool budgetPressure = false;
    /// The fabric must be shared: several tenants, or converged with storage
    /// or front-end Ethernet rather than a dedicated back-end network.
    bool sharedWithEthernet = false;
};

/// One reason for one fabric: a plain sentence an architect would accept.
struct AdvisorReason {
    core::Fabric favours = core::Fabric::InfiniBand; ///< the fabric this reason argues for
    std::string text;                                ///< one or two sentences, ending in a full stop
    double weight = 0;                               ///< > 0; added to that fabric's score
};

/// The advisor's answer.
struct FabricAdvice {
    core::Fabric recommendation = core::Fabric::InfiniBand;
    double infinibandScore = 0; ///< sum of the weights of the reasons for InfiniBand
    double rocev2Score = 0;     ///< sum of the weights of the reasons for RoCEv2
    /// Share of the total weight on the recommended side: 0.5 (a coin toss) to 1.0 (one-sided).
    double confidence = 0.5;
    /// True when the scores are within kCloseCallMargin: either fabric can be
    /// defended, and the caveats of the other deserve a look.
    bool closeCall = false;
    /// Every reason that applied, heaviest first (ties keep the order of the answers).
    std::vector<AdvisorReason> reasons;
    /// What to get right with the recommended fabric, in plain sentences.
    std::vector<std::string> caveats;

    /// The reasons that argue for `fabric`, heaviest first.
    std::vector<AdvisorReason> reasonsFor(core::Fabric fabric) const;
};

/// Score difference below which FabricAdvice::closeCall is set.
inline constexpr double kCloseCallMargin = 1.5;
/// At most this many GPUs fit one or two switch tiers comfortably ("small").
inline constexpr int kSmallFabricGpus = 256;
/// From this many GPUs the fabric needs three switch tiers or large radix ("large").
inline constexpr int kLargeFabricGpus = 4096;

/// Recommends InfiniBand or RoCEv2 from the answers, with the reasons on
/// both sides. Deterministic: the same answers give the same advice. Equal
/// scores go to InfiniBand, the fabric with fewer settings to get wrong.
/// Fails with ADVISOR_INPUT when gpuCount is not positive.
core::Result<FabricAdvice> adviseFabric(const AdvisorAnswers& answers);

/// One line for a CLI or a status bar: "InfiniBand (confidence 78%, 9.5 vs 2.5)".
std::string summarize(const FabricAdvice& advice);

} // namespace railyard::planner
