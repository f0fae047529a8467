// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/counters_poll.h"

#include "live/common/inventory_json.h"

#include <nlohmann/json.hpp>

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

std::vector<CountersOutcome> CountersPoller::poll(const std::vector<AgentEndpoint>& agents, const FetchOptions& fetch, TelemetryAggregator& aggregator)
{
    std::vector<CountersOutcome> outcomes(agents.size());
    std::vector<AgentEndpoint> compact, json;
    std::vector<std::size_t> compactAt, jsonAt; // the agents' places in `agents`
    for (std::size_t i = 0; i < agents.size(); ++i) {
        outcomes[i].agent = agents[i];
        const bool jsonOnly = m_jsonOnly.count(agents[i].url) > 0;
        (jsonOnly ? json : compact).push_back(agents[i]);
        (jsonOnly ? jsonAt : compactAt).push_back(i);
    }
    const std::vector<AgentReply> compactReplies = fetchAll(compact, "/v1/counters?format=compact", fetch);
    for (std::size_t k = 0; k < compactReplies.size(); ++k) {
        const AgentReply& reply = compactReplies[k];
        CountersOutcome& outcome = outcomes[compactAt[k]];
        if (reply.status == 400 || reply.status == 404) { // (fetchAll also sets `error` for them)
            m_jsonOnly.insert(reply.agent.url);
            json.push_back(reply.agent);
            jsonAt.push_back(compactAt[k]);
            continue;
        }
        if (!answered(reply, outcome))
            continue;
        if (const auto first = reply.body.find_first_not_of(" \t\r\n"); first != std::string::npos && reply.body[first] == '{') {
            addJson(reply, aggregator, outcome);
            continue;
        }
        if (core::Status ok = aggregator.addCompact(reply.body, reply.agent.url, reply.agent.node); !ok) {
            outcome.error = ok.errors().front().message;
            continue;
        }
        outcome.node = compactNode(reply.body);
    }
    if (!json.empty()) {
        const std::vector<AgentReply> jsonReplies = fetchAll(json, "/v1/counters", fetch);
        for (std::size_t k = 0; k < jsonReplies.size(); ++k) {
            CountersOutcome& outcome = outcomes[jsonAt[k]];
            outcome.error.clear();
            if (answered(jsonReplies[k], outcome))
                addJson(jsonReplies[k], aggregator, outcome);
        }
    }
    return outcomes;
}

} // namespace railyard::live
