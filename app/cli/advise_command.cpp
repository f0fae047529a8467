// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/commands.h"

#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "planner/advisor.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <iostream>
#include <memory>

namespace railyard::app::cli {

namespace {

    struct AdviseOptions {
        planner::AdvisorAnswers answers;
        bool json = false;
    };

    std::string fabricName(core::Fabric f)
    {
        return f == core::Fabric::InfiniBand ? "InfiniBand" : "RoCEv2";
    }

    void printText(const planner::FabricAdvice& advice)
    {
        std::cout << "Recommendation: " << planner::summarize(advice) << "\n";
        for (core::Fabric side : { advice.recommendation,
                 advice.recommendation == core::Fabric::InfiniBand ? core::Fabric::RoCEv2 : core::Fabric::InfiniBand }) {
            const auto reasons = advice.reasonsFor(side);
            if (reasons.empty())
                continue;
            std::cout << "\nFor " << fabricName(side) << ":\n";
            for (const auto& r : reasons)
                std::cout << "  - " << r.text << "\n";
        }
        if (!advice.caveats.empty()) {
            std::cout << "\nWith " << fabricName(advice.recommendation) << ", get these right:\n";
            for (const auto& c : advice.caveats)
                std::cout << "  - " << c << "\n";
        }
    }

    void printJson(const planner::FabricAdvice& advice)
    {
        nlohmann::json reasons = nlohmann::json::array();
        for (const auto& r : advice.reasons)
            reasons.push_back({ { "favours", core::toString(r.favours) }, { "text", r.text }, { "weight", r.weight } });
        const nlohmann::json doc {
            { "recommendation", core::toString(advice.recommendation) },
            { "infiniband_score", advice.infinibandScore },
            { "rocev2_score", advice.rocev2Score },
            { "confidence", std::round(advice.confidence * 1000) / 1000 },
            { "close_call", advice.closeCall },
            { "reasons", reasons },
            { "caveats", advice.caveats },
        };
        std::cout << doc.dump(2) << '\n';
    }

    int runAdvise(const AdviseOptions& options)
    {
        const auto advice = planner::adviseFabric(options.answers);
        if (!advice) {
            printErrors(advice.errors(), "advise");
            return kExitBadInput;
        }
        if (options.json)
            printJson(*advice);
        else
            printText(*advice);
        return kExitOk;
    }

} // namespace

Command addAdviseCommand(CLI::App& root)
{
    auto options = std::make_shared<AdviseOptions>();
    CLI::App* cmd = root.add_subcommand("advise", "InfiniBand or RoCEv2? A recommendation with its reasons, from a few answers");
    cmd->footer("Example: railyard-cli advise --gpus 4096 --ethernet-ops --vendor-lock-in\n"
                "Exit status: 0 advice given, 2 bad input.");
    auto& a = options->answers;
    cmd->add_option("--gpus", a.gpuCount, "GPUs on the back-end (GPU-to-GPU) fabric")->required()->check(CLI::PositiveNumber);
    cmd->add_flag("--ethernet-ops", a.ethernetOperations,
        "The team already runs Ethernet data-centre networks (switch OS, monitoring, automation, spares)");
    cmd->add_flag("--lossless-skills", a.losslessEthernetSkills,
        "Someone on staff has tuned lossless Ethernet (PFC, ECN, DCQCN) in production");
    cmd->add_flag("--vendor-lock-in", a.vendorLockInConcern, "Depending on one vendor for switches, NICs and management is a concern");
    cmd->add_flag("--budget", a.budgetPressure, "The budget is tight: cost per port weighs heavily");
    cmd->add_flag("--shared", a.sharedWithEthernet,
        "The fabric is shared: several tenants, or converged with storage or front-end Ethernet");
    cmd->add_flag("--json", options->json, "Print the advice as JSON");
    return { cmd, [options] { return runAdvise(*options); } };
}

} // namespace railyard::app::cli
