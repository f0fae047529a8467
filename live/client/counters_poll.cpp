// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/counters_poll.h"

#include "live/common/inventory_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string_view>

namespace railyard::live {

namespace {

    /// The node of a compact text's first line ("railyard-counters <api> <node> <ms>"); "-" and
    /// anything unreadable give none (the parser has judged the text by then).
    std::string compactNode(std::string_view text)
    {
        text = text.substr(0, text.find('\n'));
        std::string_view words[3];
        for (std::string_view& w : words) {
            const auto start = text.find_first_not_of(" \t\r");
            if (start == std::string_view::npos)
                return {};
            text.remove_prefix(start);
            const auto end = text.find_first_of(" \t\r");
            w = text.substr(0, end);
            text.remove_prefix(end == std::string_view::npos ? text.size() : end);
        }
        return words[2] == "-" ? std::string() : std::string(words[2]);
    }

    /// A 200 answer; else `outcome` says why not.
    bool answered(const AgentReply& reply, CountersOutcome& outcome)
    {
        outcome.elapsed = reply.elapsed;
        if (reply.error)
            outcome.error = reply.error->message;
        else if (reply.status != 200)
            outcome.error = "HTTP status " + std::to_string(reply.status);
        return outcome.error.empty();
    }

    void addJson(const AgentReply& reply, TelemetryAggregator& aggregator, CountersOutcome& outcome)
    {
        const auto doc = nlohmann::json::parse(reply.body, nullptr, false);
        auto snapshot = doc.is_discarded() ? core::Result<CounterSnapshot>(core::Error { "AGENT_JSON", "the counters are not JSON", reply.agent.url, "" })
                                           : countersFromJson(doc, reply.agent.url);
        if (!snapshot) {
            outcome.error = snapshot.error().message;
            return;
        }
        outcome.node = snapshot->node;
        if (snapshot->node.empty())
            snapshot->node = reply.agent.node;
        aggregator.add(*snapshot);
    }

} // namespace

CountersPoller::CountersPoller(FetchOptions fetch)
    : m_fetch(std::move(fetch))
    , m_requests(m_fetch)
{
}

void CountersPoller::waitFor(std::vector<CountersOutcome>& outcomes, TelemetryAggregator& aggregator, Clock::time_point until)
{
    m_outcomes = &outcomes;
    m_aggregator = &aggregator;
    const auto enough = [this] { return m_awaitedLeft == 0; };
    if (!m_stop) {
        m_requests.wait(until, enough);
    } else {
        // The requests' I/O does not wake for a signal: the flag is looked at between slices.
        // What is ready is taken first, as wait() takes it, even past `until` or once stopped.
        do
            m_requests.wait(m_stop->load() ? Clock::now() : std::min(until, Clock::now() + kStopSlice), enough);
        while (!m_stop->load() && m_awaitedLeft > 0 && m_requests.pending() > 0 && Clock::now() < until);
    }
    m_outcomes = nullptr;
    m_aggregator = nullptr;
}

void CountersPoller::ask(std::size_t i, bool json)
{
    m_requests.start({ m_agents[i], "GET", json ? "/v1/counters" : "/v1/counters?format=compact", {} },
        [this, i, json](AgentReply reply) { take(i, json, std::move(reply)); });
}

void CountersPoller::take(std::size_t i, bool json, AgentReply reply)
{
    CountersOutcome& outcome = (*m_outcomes)[i];
    if (!json && (reply.status == 400 || reply.status == 404)) { // an older agent (AgentReply sets `error` for them too)
        m_jsonOnly.insert(reply.agent.url);
        ask(i, true); // in the same round, and only the JSON from then on
        return;
    }
    m_asked[i].reset();
    if (m_awaited[i]) {
        m_awaited[i] = false;
        --m_awaitedLeft;
    }
    outcome.waiting = false;
    outcome.error.clear();
    if (!answered(reply, outcome))
        return;
    // An agent that ignores ?format=compact answers JSON, which is read as JSON.
    if (const auto first = reply.body.find_first_not_of(" \t\r\n"); json || (first != std::string::npos && reply.body[first] == '{')) {
        addJson(reply, *m_aggregator, outcome);
        return;
    }
    if (core::Status ok = m_aggregator->addCompact(reply.body, reply.agent.url, reply.agent.node); !ok) {
        outcome.error = ok.errors().front().message;
        return;
    }
    outcome.node = compactNode(reply.body);
}

std::vector<CountersOutcome> CountersPoller::poll(const std::vector<AgentEndpoint>& agents, TelemetryAggregator& aggregator, Clock::time_point until)
{
    const bool same = agents.size() == m_agents.size()
        && std::equal(agents.begin(), agents.end(), m_agents.begin(), [](const AgentEndpoint& a, const AgentEndpoint& b) {
               return a.node == b.node && a.url == b.url;
           });
    if (!same) { // another list: what is open belongs to the old one
        m_requests = AgentRequests(m_fetch);
        m_agents = agents;
        m_asked.assign(agents.size(), std::nullopt);
        m_late.assign(agents.size(), false);
    }
    m_awaited.assign(agents.size(), false);
    m_awaitedLeft = 0;
    std::vector<CountersOutcome> outcomes(agents.size());
    const Clock::time_point now = Clock::now();
    for (std::size_t i = 0; i < agents.size(); ++i) {
        outcomes[i].agent = agents[i];
        outcomes[i].waiting = true; // until its answer comes
        if (!m_late[i] || until == Clock::time_point::max()) {
            m_awaited[i] = true;
            ++m_awaitedLeft;
        }
        if (!m_asked[i]) {
            m_asked[i] = now;
            ask(i, m_jsonOnly.count(agents[i].url) > 0);
        }
    }
    waitFor(outcomes, aggregator, until);
    const Clock::time_point end = Clock::now();
    for (std::size_t i = 0; i < agents.size(); ++i) {
        if (outcomes[i].waiting)
            outcomes[i].elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(end - m_asked[i].value_or(end));
        m_late[i] = outcomes[i].waiting || !outcomes[i].error.empty();
    }
    return outcomes;
}

std::size_t CountersPoller::open() const
{
    return static_cast<std::size_t>(std::count_if(m_asked.begin(), m_asked.end(), [](const auto& asked) { return asked.has_value(); }));
}

std::vector<CountersOutcome> CountersPoller::settle(TelemetryAggregator& aggregator)
{
    std::vector<CountersOutcome> outcomes(m_agents.size());
    m_awaited.assign(m_agents.size(), false);
    m_awaitedLeft = 0;
    for (std::size_t i = 0; i < m_agents.size(); ++i) {
        outcomes[i].agent = m_agents[i];
        if (m_asked[i]) {
            outcomes[i].waiting = true;
            m_awaited[i] = true;
            ++m_awaitedLeft;
        }
    }
    const std::vector<bool> wasOpen = m_awaited;
    waitFor(outcomes, aggregator, Clock::time_point::max());
    const Clock::time_point end = Clock::now();
    std::vector<CountersOutcome> settled;
    for (std::size_t i = 0; i < m_agents.size(); ++i) {
        if (!wasOpen[i])
            continue;
        if (outcomes[i].waiting) // stopped first
            outcomes[i].elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(end - m_asked[i].value_or(end));
        m_late[i] = outcomes[i].waiting || !outcomes[i].error.empty();
        settled.push_back(std::move(outcomes[i]));
    }
    return settled;
}

} // namespace railyard::live
