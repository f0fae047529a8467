// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `railyard-cli live check`: every node's inventory (agents or dumps) against the plan.
#include "app/cli/commands.h"

#include "app/cli/agents_input.h"
#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/run_store.h"
#include "app/cli/progress_printer.h"
#include "app/cli/reading_notes.h"
#include "live/client/agent_client.h"
#include "live/client/live_check.h"
#include "planner/planner.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <iostream>
#include <optional>
#include <memory>

namespace railyard::app::cli {

namespace {

    struct LiveCheckOptions {
        InputOptions input;
        std::string agentsFile;
        std::string dumpsDir;
        std::string tokenFile;
        bool json = false;
        int timeoutMs = 5000;
        int maxInFlight = 64;
        std::string project;
    };

    std::string nodeOf(const core::Finding& finding)
    {
        return finding.where.substr(0, finding.where.find('/'));
    }

    std::string counted(int n, const std::string& word)
    {
        return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
    }

    void printText(const live::LiveCheckReport& report, const std::string& source, const std::string& from, std::ostream& out)
    {
        int planned = 0;
        int reachable = 0;
        std::vector<std::string> unreachable;
        for (const live::NodeStatus& s : report.nodes) {
            if (!s.planned)
                continue;
            ++planned;
            if (s.reachable)
                ++reachable;
            else
                unreachable.push_back(s.node);
        }
        out << "live check: " << source << " against " << from << '\n';
        std::string current;
        for (const core::Finding& f : report.findings) {
            const std::string node = nodeOf(f);
            if (node != current) {
                out << node << '\n';
                current = node;
            }
            // Messages name the node and the rail themselves; `where` is in --json.
            out << "  " << core::toString(f.severity) << ' ' << f.code << ": " << f.message << '\n';
        }
        if (report.findings.empty())
            out << "no findings: every planned node matches the plan\n";
        printReadingNotes(live::readingNotes(report.nodes), out);
        out << "summary: " << planned << " nodes planned, " << reachable << " checked";
        if (!unreachable.empty()) {
            out << ", " << unreachable.size() << " not checked (";
            for (std::size_t i = 0; i < unreachable.size() && i < 10; ++i)
                out << (i ? ", " : "") << unreachable[i];
            if (unreachable.size() > 10)
                out << ", ...";
            out << ')';
        }
        out << "; findings: " << counted(report.count(core::Severity::Error), "error") << ", "
            << counted(report.count(core::Severity::Warning), "warning") << ", " << report.count(core::Severity::Info) << " info\n";
        if (!report.complete)
            out << "incomplete: some planned nodes could not be checked (see NODE_UNREACHABLE, TOKEN_REFUSED, AGENT_ERROR above)\n";
    }

    int runLiveCheck(const LiveCheckOptions& options)
    {
        std::optional<RunStore> runStore = RunStore::open(options.project);
        if (!runStore)
            return kExitBadInput;
        core::Result<Input> input = loadInput(options.input);
        if (!input) {
            printErrors(input.errors(), options.input.example.empty() ? options.input.specPath : "examples/" + options.input.example + ".plan.json");
            return kExitBadInput;
        }
        core::Result<core::Plan> plan = [&] {
            ProgressPrinter progress(stderr);
            return planner::makePlan(input->spec, input->catalog, progress);
        }();
        if (!plan) {
            printErrors(plan.errors(), input->source);
            return kExitBadInput;
        }

        std::vector<live::NodeObservation> observed;
        std::string from;
        if (!options.agentsFile.empty()) {
            core::Result<AgentsInput> agents = loadAgents(options.agentsFile, options.tokenFile, options.timeoutMs, options.maxInFlight);
            if (!agents) {
                printErrors(agents.errors());
                return kExitBadInput;
            }
            observed = live::observeAgents(agents->agents, agents->fetch);
            from = options.agentsFile + " (" + std::to_string(agents->agents.size()) + " agents)";
        } else {
            core::Result<std::vector<live::NodeObservation>> dumps = live::observeDumps(*plan, input->catalog, options.dumpsDir);
            if (!dumps) {
                printErrors(dumps.errors());
                return kExitBadInput;
            }
            observed = std::move(dumps).value();
            from = "the dumps in " + options.dumpsDir;
        }

        const live::LiveCheckReport report = live::checkFabric(*plan, input->catalog, observed);
        const nlohmann::json doc = live::toJson(report);
        if (options.json)
            std::cout << doc.dump(2) << '\n';
        else
            printText(report, input->source, from, std::cout);
        std::cout.flush();
        const live::RunSummary summary = live::checkRunSummary(report);
        if (!runStore->save(plan->spec.name, "check", summary.exitStatus, report.complete, summary.summary, doc))
            return kExitIncomplete;
        return summary.exitStatus;
    }

} // namespace

Command addLiveCheckCommand(CLI::App& live)
{
    auto options = std::make_shared<LiveCheckOptions>();
    CLI::App* cmd = live.add_subcommand("check", "Check every node (agents or command dumps) against the plan");
    CLI::Option* plan = cmd->add_option("--plan", options->input.specPath, "Plan spec file (*.plan.json)")->type_name("SPEC");
    cmd->add_option("--example", options->input.example, "Use the built-in example NAME as the plan")->type_name("NAME")->excludes(plan);
    cmd->add_option("--catalog", options->input.catalogFiles, "Add the parts of a catalog FILE to the built-in catalog (repeatable)")
        ->type_name("FILE")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    CLI::Option* agents = cmd->add_option("--agents", options->agentsFile, "The agents to ask (agents.json)")->type_name("FILE");
    CLI::Option* dumps = cmd->add_option("--dumps", options->dumpsDir,
                                 "Agentless: a folder with one folder of command outputs per node (ibstat.txt, ibdev2netdev.txt, "
                                 "nvidia-smi-topo.txt, lldpctl.txt, ethtool-S-<netdev>.txt)")
                             ->type_name("DIR");
    agents->excludes(dumps);
    cmd->add_option("--token-file", options->tokenFile, "Bearer token of the agents (overrides token_file in agents.json)")
        ->type_name("FILE")
        ->excludes(dumps);
    cmd->add_flag("--json", options->json, "Print {\"nodes\", \"findings\", \"complete\"} as JSON");
    cmd->add_option("--project", options->project, "Also store the run in this project file (created when missing)")->type_name("FILE");
    cmd->add_option("--timeout-ms", options->timeoutMs, "Deadline of each agent request (connect, send, receive)")
        ->check(CLI::Range(1, 3600 * 1000))
        ->capture_default_str();
    cmd->add_option("--max-in-flight", options->maxInFlight, "Agent requests open at once")->check(CLI::Range(1, 4096))->capture_default_str();
    cmd->footer("Give the plan (--plan SPEC or --example NAME) and either --agents or --dumps.\n"
                "Exit status: 0 every node checked, no error findings; 1 error findings; 2 bad input (spec, agents.json,\n"
                "token file); 3 could not finish: some planned node was not checked (unreachable or timed-out agent,\n"
                "a token the agent refused, a malformed answer, a missing dump folder). What was seen is still printed.");
    cmd->callback([cmd, agents, dumps, plan] {
        if (agents->count() == 0 && dumps->count() == 0)
            throw CLI::RequiredError("--agents FILE or --dumps DIR");
        if (plan->count() == 0 && cmd->get_option("--example")->count() == 0)
            throw CLI::RequiredError("--plan SPEC or --example NAME");
    });
    return { cmd, [options] { return runLiveCheck(*options); } };
}

} // namespace railyard::app::cli
