// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/prometheus_file_sd.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace railyard::live {

namespace {

    /// A Prometheus target ("host:port") and metrics path from an agent URL "http://host[:port][/prefix]".
    struct Target {
        std::string address;
        std::string metricsPath; ///< empty: Prometheus' default /metrics
    };

    core::Result<Target> targetOf(const AgentEndpoint& agent)
    {
        constexpr std::string_view scheme = "http://";
        const std::string_view url = agent.url;
        if (url.size() <= scheme.size() || url.substr(0, scheme.size()) != scheme)
            return core::Error { "AGENT_URL", agent.node + ": the agent URL \"" + agent.url + "\" does not start with http://",
                "agents.json", "give each agent as http://HOST:PORT" };
        std::string_view rest = url.substr(scheme.size());
        const std::size_t slash = rest.find('/');
        const std::string_view authority = rest.substr(0, slash);
        if (authority.empty() || authority.find_first_of("@?#") != std::string_view::npos)
            return core::Error { "AGENT_URL", agent.node + ": no usable host:port in the agent URL \"" + agent.url + "\"",
                "agents.json", "give each agent as http://HOST:PORT" };
        Target t { std::string(authority), {} };
        if (slash != std::string_view::npos) {
            std::string prefix(rest.substr(slash));
            while (!prefix.empty() && prefix.back() == '/')
                prefix.pop_back();
            if (!prefix.empty())
                t.metricsPath = prefix + "/metrics";
        }
        return t;
    }

    /// Each installed node's installed node-leaf links: (rail, plane 0-based) -> leaf device.
    std::map<std::uint32_t, std::map<std::pair<int, int>, std::uint32_t>> nodeLinks(const core::Plan& plan)
    {
        std::map<std::uint32_t, std::map<std::pair<int, int>, std::uint32_t>> out;
        for (const core::Link& l : plan.links)
            if (l.tier == core::LinkTier::NodeLeaf && l.installed && plan.devices[l.a.device].kind == core::DeviceKind::Node)
                out[l.a.device][{ l.a.port, l.a.plane }] = l.b.device;
        return out;
    }

} // namespace

core::Result<nlohmann::json> prometheusFileSd(const core::Plan& plan, const std::vector<AgentEndpoint>* agents, int port)
{
    if (!agents && (port < 1 || port > 65535))
        return core::Error { "CLI_USAGE", "port " + std::to_string(port) + " is not a TCP port", "--port", "give 1..65535 (the agent listens on 9473)" };
    std::map<std::string, Target> targets;
    core::Errors errors;
    std::set<std::string> planned;
    for (const core::Device& d : plan.devices)
        if (d.kind == core::DeviceKind::Node && d.installed)
            planned.insert(d.name);
    if (agents) {
        std::set<std::string> listed;
        for (const AgentEndpoint& a : *agents) {
            if (!planned.count(a.node)) {
                errors.push_back({ "FILE_SD_UNKNOWN_NODE", "agents.json lists " + a.node + ", which is not an installed node of the plan",
                    "agents.json", "remove it, or check that agents.json belongs to this plan" });
                continue;
            }
            listed.insert(a.node);
            core::Result<Target> t = targetOf(a);
            if (!t)
                errors.push_back(t.error());
            else
                targets[a.node] = *t;
        }
        std::vector<std::string> missing;
        for (const std::string& n : planned)
            if (!listed.count(n))
                missing.push_back(n);
        if (!missing.empty()) {
            std::string shown;
            for (std::size_t i = 0; i < std::min<std::size_t>(missing.size(), 5); ++i)
                shown += (i ? ", " : "") + missing[i];
            if (missing.size() > 5)
                shown += " and " + std::to_string(missing.size() - 5) + " more";
            errors.push_back({ "FILE_SD_NO_AGENT", std::to_string(missing.size()) + " node(s) of the plan have no agent in agents.json: " + shown,
                "agents.json", "add their agents, or give --port N to list every node as <node>:N" });
        }
        if (!errors.empty())
            return errors;
    }

    const bool planes = std::max(plan.spec.planes, plan.summary.planes) > 1;
    const auto links = nodeLinks(plan);
    nlohmann::json out = nlohmann::json::array();
    for (std::uint32_t i = 0; i < plan.devices.size(); ++i) {
        const core::Device& node = plan.devices[i];
        if (node.kind != core::DeviceKind::Node || !node.installed)
            continue;
        const auto it = links.find(i);
        if (it == links.end())
            continue;
        const Target target = agents ? targets.at(node.name) : Target { node.name + ":" + std::to_string(port), {} };
        for (const auto& [railPlane, leaf] : it->second) {
            const auto [rail, plane] = railPlane;
            nlohmann::json labels { { "node", node.name }, { "rail", std::to_string(rail) }, { "su", std::to_string(node.su) },
                { "leaf", plan.devices[leaf].name }, { "__param_rail", std::to_string(rail) } };
            if (planes) {
                labels["plane"] = std::to_string(plane + 1);
                labels["__param_port"] = std::to_string(plane + 1);
            }
            if (!target.metricsPath.empty())
                labels["__metrics_path__"] = target.metricsPath;
            out.push_back({ { "targets", nlohmann::json::array({ target.address }) }, { "labels", std::move(labels) } });
        }
    }
    return out;
}

} // namespace railyard::live
