// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/agent_farm.h"

#include "live/node/agent_server.h"
#include "live/node/node_reader.h"

namespace railyard::live {

struct AgentFarm::Agent {
    std::shared_ptr<const NodeReader> reader;
    std::unique_ptr<AgentServer> server;
};

AgentFarm::AgentFarm() = default;

AgentFarm::~AgentFarm()
{
    stop();
}

core::Status AgentFarm::start(const std::vector<EmulatedNode>& nodes, const FarmOptions& options)
{
    stop();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const auto& node = nodes[i];
        NodeOptions nodeOptions;
        nodeOptions.sysfsRoot = node.sysRoot;
        nodeOptions.node = node.name;
        nodeOptions.nodeType = node.nodeType;
        nodeOptions.railMap = node.railMap;
        if (i == 0)
            nodeOptions.opensmLog = options.opensmLog;
        auto agent = std::make_unique<Agent>();
        agent->reader = std::make_shared<const NodeReader>(std::move(nodeOptions), emulatedSources(node.simDir));
        AgentConfig config;
        config.listenAddress = options.listenAddress;
        config.port = options.basePort > 0 ? options.basePort + static_cast<int>(i) : 0;
        config.token = options.token;
        config.threads = options.threadsPerAgent;
        config.toolsDir = options.toolsDir;
        agent->server = std::make_unique<AgentServer>(config, agent->reader);
        if (auto s = agent->server->start(); !s) {
            stop();
            core::Error e = s.error();
            e.message = node.name + ": " + e.message;
            return e;
        }
        const int port = agent->server->port();
        m_ports.push_back(port);
        m_listings.push_back({ node.name, "http://" + options.listenAddress + ":" + std::to_string(port) });
        m_agents.push_back(std::move(agent));
    }
    return {};
}

void AgentFarm::stop()
{
    for (auto& agent : m_agents)
        agent->server->stop();
    m_agents.clear();
    m_listings.clear();
    m_ports.clear();
}

} // namespace railyard::live
