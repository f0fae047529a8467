// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// One round of every agent's counters into a TelemetryAggregator, as `live watch` and the
// desktop's Live workspace both poll: the compact text first (`/v1/counters?format=compact`,
// counters_compact.h: a fraction of the JSON's CPU at thousands of nodes). An agent older than
// that format refuses the parameter (400 or 404) and is asked for the JSON from then on, in the
// same round already; one that ignores the parameter answers JSON, which is read as JSON. A round
// ends at its own time: an agent that has not answered by then is left to answer into a later
// round, so one hung agent does not hold every round to the deadline.
#pragma once

#include "live/client/agent_client.h"
#include "live/client/telemetry.h"

#include <atomic>
#include <chrono>
#include <optional>
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
    /// How long the answer took; while `waiting`, how long ago the open request was sent.
    std::chrono::milliseconds elapsed { 0 };
    std::string error; ///< empty: its snapshot went into the aggregator (or it is waiting); else why not, in words
    /// No answer by the end of the round: the request stays open (within its deadline) and its
    /// answer is taken in a later round; the agent is not asked again meanwhile.
    bool waiting = false;
};

class CountersPoller {
public:
    using Clock = std::chrono::steady_clock;

    explicit CountersPoller(FetchOptions fetch);
    CountersPoller(const CountersPoller&) = delete;
    CountersPoller& operator=(const CountersPoller&) = delete;

    /// One round over `agents` (the same list every round: a new list starts afresh): every agent
    /// with no request open is asked, and every answer that comes in the round goes into
    /// `aggregator` (a snapshot without a node name as the agent's node), late answers to earlier
    /// rounds included. The round ends once every agent that answered the round before has
    /// answered, or at `until`: a failing or late agent is not waited for (its answer is taken
    /// when it comes in time). With `until` left out the round waits for every answer, each
    /// within the deadline. One outcome per agent, in `agents` order.
    std::vector<CountersOutcome> poll(const std::vector<AgentEndpoint>& agents, TelemetryAggregator& aggregator,
        Clock::time_point until = Clock::time_point::max());

    /// The requests still open from the rounds so far.
    std::size_t open() const;
    /// The end of the rounds: waits, asking no one, for the requests still open, each within its
    /// deadline; their answers go into `aggregator`. One outcome per agent that had a request
    /// open: answered (no error), or why not (refused, failed, timed out); `waiting` only when
    /// the stop flag ended the wait first.
    std::vector<CountersOutcome> settle(TelemetryAggregator& aggregator);

    /// From now on a round or a settle ends within kStopSlice once `*stop` is set (Ctrl+C on a
    /// watch whose deadline is long), its open requests reported `waiting`; nullptr: no flag.
    void stopOn(const std::atomic<bool>* stop) { m_stop = stop; }
    static constexpr std::chrono::milliseconds kStopSlice { 100 };

private:
    /// Asks agent `i` for its counters: the compact text unless it does not offer it.
    void ask(std::size_t i, bool json);
    void take(std::size_t i, bool json, AgentReply reply);
    /// Drives the requests until every awaited agent has answered or `until`, the answers going
    /// into `outcomes` and `aggregator`.
    void waitFor(std::vector<CountersOutcome>& outcomes, TelemetryAggregator& aggregator, Clock::time_point until);

    FetchOptions m_fetch;
    AgentRequests m_requests;
    std::vector<AgentEndpoint> m_agents;           ///< the list of the rounds so far
    std::vector<std::optional<Clock::time_point>> m_asked; ///< per agent: when its open request was sent
    std::vector<bool> m_late;     ///< per agent: failed or had not answered at the end of the round before
    std::vector<bool> m_awaited;  ///< per agent: the round waits for its answer
    std::size_t m_awaitedLeft = 0;
    std::set<std::string> m_jsonOnly;              ///< agent URLs that do not offer the compact counters
    // The round wait() is in: where its answers go.
    std::vector<CountersOutcome>* m_outcomes = nullptr;
    TelemetryAggregator* m_aggregator = nullptr;
    const std::atomic<bool>* m_stop = nullptr;
};

} // namespace railyard::live
