// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/commands.h"

#include "app/cli/examples.h"
#include "app/cli/exit_codes.h"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>

#ifndef RAILYARD_VERSION
#define RAILYARD_VERSION "unknown"
#endif

namespace railyard::app::cli {

namespace {

    constexpr const char* kDescription
        = "railyard-cli: plan rail-optimized GPU cluster fabrics (InfiniBand and RoCEv2).\n"
          "Sizes leaves, spines and cores into scalable units, counts cables and transceivers,\n"
          "checks the design and exports the bill of materials, the cable map and the topology.";

    constexpr const char* kFooter
        = "Every planning command takes a SPEC file or --example NAME, and --catalog FILE (repeatable).\n"
          "Exit status: 0 done (no error findings), 1 the plan has error findings, 2 bad input.\n"
          "Try: railyard-cli plan --example dgx-h100-superpod-4su";

    // CLI11's own errors (unknown option, bad value, missing subcommand) are bad input: status 2.
    int parseFailure(CLI::App& app, const CLI::ParseError& e)
    {
        if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success))
            return app.exit(e); // --help, --help-all, --version: printed to stdout
        std::cerr << "error: " << e.what() << "\nRun with --help for more information.\n";
        return kExitBadInput;
    }

} // namespace

int runCli(int argc, char** argv)
{
    CLI::App app(kDescription, "railyard-cli");
    app.footer(kFooter);
    app.set_version_flag("--version", std::string("railyard-cli ") + RAILYARD_VERSION);
    app.require_subcommand(0, 1);
    bool listExamples = false;
    app.add_flag("--list-examples", listExamples, "List the built-in example plans and exit");

    std::vector<Command> commands { addPlanCommand(app) };
    for (Command& c : addExportCommands(app))
        commands.push_back(std::move(c));
    for (Command& c : addIntentExportCommands(app))
        commands.push_back(std::move(c));
    commands.push_back(addValidateCommand(app));
    commands.push_back(addCatalogCommand(app));
    commands.push_back(addAdviseCommand(app));
    for (Command& c : addLiveCommands(app))
        commands.push_back(std::move(c));
    commands.push_back(addResultsCommand(app));
    for (Command& c : addResultsStoreCommands(app))
        commands.push_back(std::move(c));

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return parseFailure(app, e);
    }
    try {
        for (const Command& c : commands) {
            if (c.app->parsed())
                return c.run();
        }
    } catch (const std::exception& e) {
        std::cerr << "error: internal: " << e.what() << '\n';
        return kExitBadInput;
    }
    if (listExamples) {
        printExampleList(std::cout);
        return kExitOk;
    }
    std::cerr << app.help() << "\nerror: no command given\n";
    return kExitBadInput;
}

} // namespace railyard::app::cli
