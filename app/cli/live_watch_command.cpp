// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `railyard-cli live watch`: the agents' counters sampled every interval, per-rail and per-leaf
// throughput and congestion (live/client/telemetry.h), printed as it goes.
#include "app/cli/commands.h"

#include "core/text.h"

#include "app/cli/agents_input.h"
#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/progress_printer.h"
#include "app/cli/stop_signal.h"
#include "core/plan_json.h"
#include "live/client/telemetry.h"
#include "live/common/inventory_json.h"
#include "planner/planner.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <set>
#include <thread>

namespace railyard::app::cli {

namespace {

    struct LiveWatchOptions {
        InputOptions input;
        std::string agentsFile;
        std::string tokenFile;
        double seconds = 10;
        int intervalMs = 1000;
        int timeoutMs = 2000;
        bool json = false;
        live::CongestionThresholds thresholds;
    };


    /// One line per sweep: each rail's throughput and verdict.
    void printSweep(const live::Sweep& s, double at, std::ostream& out)
    {
        out << "t=" << core::formatFixed(at, 1) << "s";
        for (const live::GroupRates& r : s.rails) {
            out << "  r" << r.rail << " " << core::formatFixed(r.txGbps, 0) << "G";
            if (r.health != live::Health::Healthy)
                out << " " << live::toString(r.health);
        }
        out << '\n' << std::flush;
    }

    int runLiveWatch(const LiveWatchOptions& options)
    {
        std::string source;
        core::Result<core::Plan> plan = planInput(options.input, source);
        if (!plan) {
            printErrors(plan.errors(), source);
            return kExitBadInput;
        }
        core::Result<AgentsInput> agents = loadAgents(options.agentsFile, options.tokenFile, options.timeoutMs);
        if (!agents) {
            printErrors(agents.errors());
            return kExitBadInput;
        }

        StopOnSignal stop;
        live::TelemetryAggregator aggregator(*plan, options.thresholds);
        std::vector<live::Sweep> sweeps;
        std::map<std::string, std::string> lastError; // node -> why its counters are missing
        std::set<std::string> answered;
        const auto start = std::chrono::steady_clock::now();
        const auto interval = std::chrono::milliseconds(options.intervalMs);
        auto next = start;
        bool first = true;
        // --seconds is the sampled time: that many intervals (at least one), however long the
        // sweeps themselves take on a slow machine or a large fabric.
        const int wanted = std::max(1, static_cast<int>(std::lround(options.seconds * 1000 / options.intervalMs)));
        std::ostream& progress = options.json ? std::cerr : std::cout;
        while (!stop.requested()) {
            // The next sweep is scheduled only once this one is handled: polls never pile up.
            for (const live::AgentReply& reply : live::fetchAll(agents->agents, "/v1/counters", agents->fetch)) {
                if (reply.error || reply.status != 200) {
                    lastError[reply.agent.node] = reply.error ? reply.error->message : "HTTP status " + std::to_string(reply.status);
                    continue;
                }
                const auto doc = nlohmann::json::parse(reply.body, nullptr, false);
                auto snapshot = doc.is_discarded() ? core::Result<live::CounterSnapshot>(core::Error { "AGENT_JSON", "not JSON", reply.agent.url, "" })
                                                   : live::countersFromJson(doc, reply.agent.url);
                if (!snapshot) {
                    lastError[reply.agent.node] = snapshot.error().message;
                    continue;
                }
                if (snapshot->node.empty())
                    snapshot->node = reply.agent.node;
                answered.insert(reply.agent.node);
                lastError.erase(reply.agent.node);
                aggregator.add(*snapshot);
            }
            const double at = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (!first) {
                live::Sweep s = aggregator.sweep();
                printSweep(s, at, progress);
                sweeps.push_back(std::move(s));
            }
            first = false;
            if (static_cast<int>(sweeps.size()) >= wanted)
                break;
            next += interval;
            const auto now = std::chrono::steady_clock::now();
            if (next < now)
                next = now; // a slow sweep: go on at once, never catch up in a burst
            while (!stop.requested() && std::chrono::steady_clock::now() < next)
                std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(next - std::chrono::steady_clock::now(),
                    std::chrono::milliseconds(100)));
        }

        live::WatchSummary summary = live::summarizeSweeps(sweeps);
        std::vector<core::Finding> findings;
        for (const auto& [node, why] : lastError)
            findings.push_back({ core::Severity::Error, "NODE_UNREACHABLE",
                node + ": no counters from its agent (" + why + "): its ports are not in the figures; check that railyard-agent runs",
                node });
        findings.insert(findings.end(), summary.findings.begin(), summary.findings.end());
        if (sweeps.size() < static_cast<std::size_t>(wanted))
            findings.push_back({ core::Severity::Info, "WATCH_STOPPED",
                "stopped after " + std::to_string(sweeps.size()) + " of " + std::to_string(wanted) + " intervals", "" });
        const bool complete = lastError.empty() && !sweeps.empty();

        if (options.json) {
            nlohmann::json doc { { "plan", source }, { "interval_ms", options.intervalMs }, { "sweeps", nlohmann::json::array() },
                { "rails", nlohmann::json::array() }, { "leaves", nlohmann::json::array() }, { "findings", nlohmann::json::array() },
                { "complete", complete } };
            for (const live::Sweep& s : sweeps)
                doc["sweeps"].push_back(live::toJson(s));
            for (const live::GroupRates& g : summary.rails)
                doc["rails"].push_back(live::toJson(g));
            for (const live::GroupRates& g : summary.leaves)
                doc["leaves"].push_back(live::toJson(g));
            for (const core::Finding& f : findings)
                doc["findings"].push_back(core::toJson(f));
            std::cout << doc.dump(2) << '\n';
        } else {
            std::cout << "over " << sweeps.size() << " intervals of " << options.intervalMs << " ms, " << answered.size() << " of "
                      << agents->agents.size() << " agents:\n";
            for (const live::GroupRates& r : summary.rails)
                std::cout << "  " << r.name << ": tx " << core::formatFixed(r.txGbps, 1) << " Gb/s, rx " << core::formatFixed(r.rxGbps, 1) << " Gb/s over "
                          << r.ports << " ports, " << live::toString(r.health) << '\n';
            for (const core::Finding& f : findings)
                std::cout << "  " << core::toString(f.severity) << ' ' << f.code << ": " << f.message << '\n';
            if (findings.empty())
                std::cout << "no findings: every rail and leaf healthy\n";
        }
        std::cout.flush();
        if (!complete)
            return kExitIncomplete;
        for (const core::Finding& f : findings)
            if (f.severity == core::Severity::Error)
                return kExitFindings;
        return kExitOk;
    }

} // namespace

Command addLiveWatchCommand(CLI::App& live)
{
    auto options = std::make_shared<LiveWatchOptions>();
    CLI::App* cmd = live.add_subcommand("watch", "Per-rail and per-leaf throughput and congestion from the agents' counters");
    CLI::Option* plan = cmd->add_option("--plan", options->input.specPath, "Plan spec file (*.plan.json)")->type_name("SPEC");
    cmd->add_option("--example", options->input.example, "Use the built-in example NAME as the plan")->type_name("NAME")->excludes(plan);
    cmd->add_option("--catalog", options->input.catalogFiles, "Add the parts of a catalog FILE to the built-in catalog (repeatable)")
        ->type_name("FILE")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--agents", options->agentsFile, "The agents to sample (agents.json)")->type_name("FILE")->required();
    cmd->add_option("--token-file", options->tokenFile, "Bearer token of the agents (overrides token_file in agents.json)")->type_name("FILE");
    cmd->add_option("--seconds", options->seconds, "How long to sample: this many seconds of intervals, at least one (Ctrl+C stops early)")->check(CLI::Range(0.0, 86400.0))->capture_default_str();
    cmd->add_option("--interval-ms", options->intervalMs, "Sampling interval")->check(CLI::Range(100, 600000))->capture_default_str();
    cmd->add_option("--timeout-ms", options->timeoutMs, "Deadline of each agent request")->check(CLI::Range(1, 600000))->capture_default_str();
    cmd->add_flag("--json", options->json, "Print the sweeps, the worst verdict per rail and leaf, and the findings as JSON");
    cmd->add_option("--xmit-wait-ratio", options->thresholds.xmitWaitRatio, "Congested: XmitWait this many times the port's baseline")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    cmd->add_option("--xmit-wait-min", options->thresholds.xmitWaitMinPerS, "Congested: and at least this many XmitWait ticks per second")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--ecn-per-s", options->thresholds.ecnMarkedPerS, "Congested: ECN-marked packets per second on a port")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->add_option("--pause-per-s", options->thresholds.pausePerS, "Pausing: PFC pause frames received per second on a port")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    cmd->footer("Verdicts per rail and leaf (live/client/telemetry.h): erroring (link errors rose), pausing (PFC pauses),\n"
                "congested (ECN marks, or XmitWait above the port's baseline), healthy.\n"
                "Exit status: 0 no error findings (pausing and congested are warnings); 1 error findings; 2 bad input;\n"
                "3 could not finish: some agent gave no counters (what was seen is still printed).");
    cmd->callback([cmd, plan] {
        if (plan->count() == 0 && cmd->get_option("--example")->count() == 0)
            throw CLI::RequiredError("--plan SPEC or --example NAME");
    });
    return { cmd, [options] { return runLiveWatch(*options); } };
}

} // namespace railyard::app::cli
