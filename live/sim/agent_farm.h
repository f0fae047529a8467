// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Serves every emulated node through the agent's own code, in this process: one AgentServer per
// node, reading the node's tree with a NodeReader over emulatedSources, each on its own port.
#pragma once

#include "core/result.h"
#include "live/sim/emulator.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace railyard::live {

struct FarmOptions {
    std::string listenAddress = "127.0.0.1";
    int basePort = 0;           ///< node i listens on basePort + i; 0: any free port per node
    std::string token;          ///< bearer token every agent requires
    int threadsPerAgent = 1;
    std::filesystem::path opensmLog; ///< given to the first node's reader (the host that runs the SM)
    std::filesystem::path toolsDir = "/usr/bin"; ///< every agent's AgentConfig::toolsDir (POST /v1/tests)
};

class AgentFarm {
public:
    AgentFarm();
    ~AgentFarm(); ///< stops every server
    AgentFarm(const AgentFarm&) = delete;
    AgentFarm& operator=(const AgentFarm&) = delete;

    /// Starts one agent per node; on failure the ones started are stopped again and the error
    /// names the node and the address.
    core::Status start(const std::vector<EmulatedNode>& nodes, const FarmOptions& options);
    void stop();
    /// One entry per node, "http://<address>:<port>".
    const std::vector<AgentListing>& listings() const { return m_listings; }
    const std::vector<int>& ports() const { return m_ports; }

private:
    struct Agent;
    std::vector<std::unique_ptr<Agent>> m_agents;
    std::vector<AgentListing> m_listings;
    std::vector<int> m_ports;
};

} // namespace railyard::live
