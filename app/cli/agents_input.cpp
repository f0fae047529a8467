// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/agents_input.h"

#include <filesystem>

namespace railyard::app::cli {

core::Result<AgentsInput> loadAgents(const std::string& agentsFile, const std::string& tokenFile, int timeoutMs, int maxInFlight)
{
    core::Result<live::AgentsFile> file = live::readAgentsFile(agentsFile);
    if (!file)
        return file.errors();
    AgentsInput out;
    out.agents = file->agents;
    out.fetch.deadline = std::chrono::milliseconds(timeoutMs);
    out.fetch.maxInFlight = maxInFlight;
    const std::filesystem::path token = tokenFile.empty() ? file->tokenFile : std::filesystem::path(tokenFile);
    if (!token.empty()) {
        core::Result<std::string> text = live::readTokenFile(token);
        if (!text)
            return text.errors();
        out.fetch.token = *text;
    }
    return out;
}

} // namespace railyard::app::cli
