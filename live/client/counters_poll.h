// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// One round of every agent's counters into a TelemetryAggregator, as `live watch` and the
// desktop's Live workspace both poll: the compact text first (`/v1/counters?format=compact`,
// counters_compact.h: a fraction of the JSON's CPU at thousands of nodes). An agent older than
// that format refuses the parameter (400 or 404) and is asked for the JSON from then on, in the
// same round already; one that ignores the parameter answers JSON, which is read as JSON.
#pragma once

#include "live/client/agent_client.h"
#include "live/client/telemetry.h"

#include <chrono>
#include <set>
#include <string>
#include <vector>

namespace railyard::live {

/// How one agent answered a round.
struct CountersOutcome {
    AgentEndpoint agent;
    /// The node its snapshot names; empty when it names none (agent.node is the node then) or
    /// when it did not answer.
    std::string node;
    std::chrono::milliseconds elapsed { 0 };
    std::string error; ///< empty: its snapshot went into the aggregator; else why not, in words
};

class CountersPoller {
public:
    /// Every agent's counters once, into `aggregator` (a snapshot without a node name is added as
    /// the agent's node); one outcome per agent, in `agents` order.
    std::vector<CountersOutcome> poll(const std::vector<AgentEndpoint>& agents, const FetchOptions& fetch, TelemetryAggregator& aggregator);

private:
    std::set<std::string> m_jsonOnly; ///< agent URLs that do not offer the compact counters
};

} // namespace railyard::live
