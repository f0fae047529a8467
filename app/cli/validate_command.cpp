// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/commands.h"

#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/summary_printer.h"
#include "core/plan_json.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace railyard::app::cli {

namespace {

    struct ValidateOptions {
        InputOptions input;
        bool json = false;
    };

    void printFindingsJson(const std::vector<core::Finding>& findings)
    {
        nlohmann::json list = nlohmann::json::array();
        for (const core::Finding& f : findings)
            list.push_back(core::toJson(f));
        std::cout << nlohmann::json { { "findings", list } }.dump(2) << '\n';
    }

    int runValidate(const ValidateOptions& options)
    {
        std::string source;
        core::Result<core::Plan> plan = planInput(options.input, source);
        if (!plan) {
            printErrors(plan.errors(), source);
            return kExitBadInput;
        }
        if (options.json) {
            printFindingsJson(plan->findings);
        } else {
            std::cout << source << '\n';
            printFindings(plan->findings, std::cout);
        }
        std::cout.flush();
        return plan->hasErrors() ? kExitFindings : kExitOk;
    }

} // namespace

Command addValidateCommand(CLI::App& root)
{
    auto options = std::make_shared<ValidateOptions>();
    CLI::App* cmd = root.add_subcommand("validate", "Check a plan spec: print the design findings only");
    cmd->footer("Exit status: 0 no error findings, 1 error findings, 2 bad input (the errors name the field).");
    addInputOptions(*cmd, options->input);
    cmd->add_flag("--json", options->json, "Print the findings as JSON");
    return { cmd, [options] { return runValidate(*options); } };
}

} // namespace railyard::app::cli
