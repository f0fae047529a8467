// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/result.h"
#include "live/client/agent_client.h"

#include <string>
#include <vector>

namespace railyard::app::cli {

/// The agents of an agents.json and how to ask them.
struct AgentsInput {
    std::vector<live::AgentEndpoint> agents;
    live::FetchOptions fetch;
};

/// Reads `agentsFile` and the bearer token: `tokenFile` when given, else the file's token_file.
core::Result<AgentsInput> loadAgents(const std::string& agentsFile, const std::string& tokenFile, int timeoutMs, int maxInFlight = 64);

} // namespace railyard::app::cli
