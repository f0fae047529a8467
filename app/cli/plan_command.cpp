// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/commands.h"

#include "app/cli/examples.h"
#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/output_file.h"
#include "app/cli/summary_printer.h"
#include "core/plan_json.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace railyard::app::cli {

namespace {

    struct PlanOptions {
        InputOptions input;
        bool json = false;
        bool listExamples = false;
        std::string out;
    };

    int runPlan(const PlanOptions& options)
    {
        if (options.listExamples) {
            printExampleList(std::cout);
            return kExitOk;
        }
        std::string source;
        core::Result<core::Plan> plan = planInput(options.input, source);
        if (!plan) {
            printErrors(plan.errors(), source);
            return kExitBadInput;
        }
        const core::Status written = writeOutput(options.out, [&](std::ostream& out) {
            if (options.json)
                core::writePlanJson(*plan, out);
            else
                printSummary(*plan, source, out);
        });
        if (!written) {
            printErrors(written.errors());
            return kExitBadInput;
        }
        return plan->hasErrors() ? kExitFindings : kExitOk;
    }

} // namespace

Command addPlanCommand(CLI::App& root)
{
    auto options = std::make_shared<PlanOptions>();
    CLI::App* cmd = root.add_subcommand("plan",
        "Size the fabric for a plan spec and print a summary (or, with --json, the plan document)");
    cmd->footer("Exit status: 0 plan without error findings, 1 plan with error findings, 2 bad input.\n"
                "Examples:\n"
                "  railyard-cli plan cluster.plan.json\n"
                "  railyard-cli plan --example dgx-h100-superpod-4su --json --out plan.json\n"
                "  railyard-cli plan --list-examples");
    addInputOptions(*cmd, options->input);
    cmd->add_flag("--json", options->json, "Print the plan document (JSON) instead of the summary");
    cmd->add_option("--out", options->out, "Write to FILE (atomically) instead of standard output; '-' is stdout")
        ->type_name("FILE");
    cmd->add_flag("--list-examples", options->listExamples, "List the built-in examples and exit");
    return { cmd, [options] { return runPlan(*options); } };
}

} // namespace railyard::app::cli
