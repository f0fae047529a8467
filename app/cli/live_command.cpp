// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/commands.h"

#include <CLI/CLI.hpp>

namespace railyard::app::cli {

std::vector<Command> addLiveCommands(CLI::App& root)
{
    CLI::App* live = root.add_subcommand("live", "Bring-up checks of a running fabric against its plan");
    live->require_subcommand(1);
    live->footer("Exit status: 0 done (no error findings), 1 error findings, 2 bad input, 3 could not finish\n"
                 "(unreachable agents, tool failure); what was seen is still printed.");
    return { addLiveCheckCommand(*live), addLiveCablingCommand(*live), addLiveWatchCommand(*live), addLiveTestCommand(*live) };
}

} // namespace railyard::app::cli
