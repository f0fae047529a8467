// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A hostfile as the agents' list: one host per line, as operators already keep it for their
// launchers. Accepted lines (after `#` comments are cut and blanks trimmed):
//   node007                       the host alone
//   node007 slots=8 max_slots=8   Open MPI (`slots`, `max_slots`, `max-slots`: read and ignored)
//   node007:8                     MPICH/Hydra (host:processes; a number only, else it is refused)
// Each host's agent is at http://HOST:PORT (the port of every agent, default 9473). The node name
// is the host; a fully qualified name whose first label is a plan node ("node007.cluster.local")
// is that node. An agent names its node in its counters anyway, so an address as host works too.
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "live/client/agent_client.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

inline constexpr int kDefaultAgentPort = 9473;

/// The agents of a hostfile's text. `where` names the file in errors; `plan` (optional) maps
/// fully qualified names to its nodes. Errors (HOSTFILE_SYNTAX, HOSTFILE_DUPLICATE, HOSTFILE_EMPTY,
/// HOSTFILE_PORT) name the line and what to write instead; all of a file's errors are reported.
core::Result<std::vector<AgentEndpoint>> parseHostfile(std::string_view text, const std::string& where, int port = kDefaultAgentPort,
    const core::Plan* plan = nullptr);

/// The same from a file (FILE_UNREADABLE when it cannot be read).
core::Result<std::vector<AgentEndpoint>> readHostfile(const std::filesystem::path& path, int port = kDefaultAgentPort,
    const core::Plan* plan = nullptr);

} // namespace railyard::live
