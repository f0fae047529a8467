// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <functional>
#include <vector>

namespace CLI {
class App;
}

namespace railyard::app::cli {

/// A command registered on the parser and what to run when the parse selected it.
struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run; ///< returns the exit status
};

/// `plan SPEC [--json] [--out FILE]`, `plan --example NAME`, `plan --list-examples`.
Command addPlanCommand(CLI::App& root);
/// `export bom|cables|ibnetdiscover ...`: one Command per subcommand.
std::vector<Command> addExportCommands(CLI::App& root);
/// `export addresses|switch-config|host-config ...` (the network intent of a routed RoCEv2 plan),
/// added to the `export` command that addExportCommands() made.
std::vector<Command> addIntentExportCommands(CLI::App& root);
/// `validate SPEC`: findings only.
Command addValidateCommand(CLI::App& root);

/// `advise --gpus N [--ethernet-ops] ...`: InfiniBand or RoCEv2, with the reasons.
Command addAdviseCommand(CLI::App& root);

/// `catalog`: lists the parts of the built-in catalog and any --catalog files.
Command addCatalogCommand(CLI::App& root);

/// `live check|cabling|watch|test ...`: the bring-up checks against agents, dumps or the subnet.
std::vector<Command> addLiveCommands(CLI::App& root);
Command addLiveCheckCommand(CLI::App& live);
Command addLiveCablingCommand(CLI::App& live);
Command addLiveWatchCommand(CLI::App& live);
Command addLiveTestCommand(CLI::App& live);

/// `results import FILE [--kind ...] [--plan SPEC] [--json]`: a run made outside Railyard.
Command addResultsCommand(CLI::App& root);
/// `results list|show --project FILE`: the runs stored in a project (after addResultsCommand).
std::vector<Command> addResultsStoreCommands(CLI::App& root);

/// Parses `argv` and runs the selected command; returns the exit status.
int runCli(int argc, char** argv);

} // namespace railyard::app::cli
