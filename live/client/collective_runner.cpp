// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/collective_runner.h"

#include "core/text.h"
#include "live/common/inventory_json.h"
#include "live/common/json_fields.h"
#include "live/common/rate.h"
#include "live/common/subprocess.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <set>
#include <thread>

namespace railyard::live {

namespace {

    /// What to check when an agent refuses a test request.
    constexpr const char* kAgentHint = "check that the node's agent has the launcher in its --tools-dir";

    using Clock = std::chrono::steady_clock;

    /// Feeds the launcher's output to both readers a whole line at a time, as it comes.
    class OutputReader {
    public:
        OutputReader(const std::string& tool, const CollectiveTestOptions& options, std::optional<int> rail)
            : m_tests(tool)
            , m_options(options)
            , m_rail(rail)
        {
        }

        void add(std::string_view bytes, std::string& all)
        {
            all.append(bytes);
            m_pending.append(bytes);
            std::size_t start = 0;
            for (std::size_t nl; (nl = m_pending.find('\n', start)) != std::string::npos; start = nl + 1)
                line(std::string_view(m_pending).substr(start, nl - start));
            m_pending.erase(0, start);
        }

        void finish()
        {
            if (!m_pending.empty())
                line(m_pending);
            m_pending.clear();
        }

        NcclTestsRun tests() const { return m_tests.finish(); }
        NcclLogReport log() { return m_log.finish(); }

    private:
        void line(std::string_view l)
        {
            m_log.feed(l);
            const NcclTestsRow* row = m_tests.feed(l);
            if (row && m_options.sizeDone)
                m_options.sizeDone(m_rail, *row);
            if (row && m_options.progress) {
                const NcclTestsResult& best = row->hasInPlace && row->inPlace.busbwGBs > row->outOfPlace.busbwGBs ? row->inPlace : row->outOfPlace;
                m_options.progress((m_rail ? "rail " + std::to_string(*m_rail) + ": " : std::string()) + std::to_string(row->bytes)
                    + " B: busbw " + core::formatFixed(best.busbwGBs, 2) + " GB/s, algbw " + core::formatFixed(best.algbwGBs, 2) + " GB/s");
            }
        }

        NcclTestsParser m_tests;
        NcclLogParser m_log;
        std::string m_pending;
        const CollectiveTestOptions& m_options;
        std::optional<int> m_rail;
    };

    bool stopRequested(const CollectiveTestOptions& o) { return o.stop && o.stop->load(); }

    std::map<std::string, std::string> envMap(const ToolInvocation& inv)
    {
        std::map<std::string, std::string> env;
        for (const auto& [k, v] : inv.env)
            env[k] = v;
        return env;
    }

    /// The launcher as a child of this process: its group ended on stop or timeout.
    void runHere(const CollectiveTestOptions& options, CollectiveRunOutcome& run, OutputReader& reader)
    {
        std::string program = options.launcherProgram.empty() ? findProgram(run.launcher.program) : options.launcherProgram;
        if (program.empty()) {
            run.error = core::Error { "LAUNCHER_MISSING", run.launcher.program + " is not installed on this machine", run.launcher.program,
                run.launcher.program == "mpirun" ? "install Open MPI (Debian: openmpi-bin), or let an agent start it (--launcher agent)"
                                                 : "run this on a Slurm login node, or use --launcher mpirun" };
            return;
        }
        if (!run.hostfile.empty()) {
            const auto at = std::find(run.launcher.args.begin(), run.launcher.args.end(), "--hostfile");
            const std::filesystem::path path = at != run.launcher.args.end() && at + 1 != run.launcher.args.end() ? *(at + 1) : "hostfile";
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out << run.hostfile;
            if (!out) {
                run.error = core::Error { "HOSTFILE_WRITE", "cannot write the hostfile", path.string(), "give a writable --work-dir" };
                return;
            }
        }
        std::vector<std::string> argv { program };
        argv.insert(argv.end(), run.launcher.args.begin(), run.launcher.args.end());
        SpawnOptions spawn;
        spawn.env = envMap(run.launcher);
        spawn.capture = true;
        spawn.ownProcessGroup = true;
        spawn.defaultSignals = true;
        ChildProcess child(argv, spawn);
        if (!child.started()) {
            run.error = core::Error { "LAUNCHER_START", child.error(), program, "check that the launcher can be run" };
            return;
        }
        const auto deadline = Clock::now() + options.timeout;
        std::string chunk;
        for (;;) {
            chunk.clear();
            child.readOutput(chunk);
            if (!chunk.empty())
                reader.add(chunk, run.output);
            if (!child.running() && child.outputFd() < 0)
                break;
            if (!child.running()) {
                // Ended: drain what is left in the pipe (its other writers are gone or will be killed).
                for (int i = 0; i < 50 && child.outputFd() >= 0; ++i) {
                    chunk.clear();
                    if (child.readOutput(chunk) == 0)
                        std::this_thread::sleep_for(std::chrono::milliseconds(10));
                    reader.add(chunk, run.output);
                }
                break;
            }
            if (stopRequested(options) || Clock::now() > deadline) {
                (stopRequested(options) ? run.cancelled : run.timedOut) = true;
                child.stop(std::chrono::seconds(3));
                chunk.clear();
                child.readOutput(chunk);
                reader.add(chunk, run.output);
                break;
            }
            if (chunk.empty())
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        child.waitFor(std::chrono::seconds(5));
        while (!child.reapGroup())
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (!run.cancelled && !run.timedOut)
            run.exitStatus = child.exitCode() ? *child.exitCode() : 128 + child.termSignal().value_or(0);
    }

    /// The launcher started by the first node's agent, followed until it ends.
    void runViaAgent(const CollectiveTestOptions& options, const AgentEndpoint& agent, CollectiveRunOutcome& run, OutputReader& reader)
    {
        nlohmann::json env = nlohmann::json::object();
        for (const auto& [k, v] : run.launcher.env)
            env[k] = v;
        const std::string body = nlohmann::json { { "program", run.launcher.program }, { "args", run.launcher.args }, { "env", env },
            { "timeout_s", options.timeout.count() }, { "role", "launcher" } }
                                     .dump();
        const AgentReply started = requestAll({ { agent, "POST", "/v1/tests", body } }, options.fetch).front();
        if (started.error || (started.status != 201 && started.status != 200)) {
            run.error = replyError(started, "cannot start " + run.launcher.program + " on " + agent.node, kAgentHint);
            return;
        }
        const auto doc = nlohmann::json::parse(started.body, nullptr, false);
        if (!doc.is_object() || !doc.contains("id") || !doc["id"].is_string()) {
            run.error = core::Error { "AGENT_JSON", "the agent's answer to POST /v1/tests has no test id", agent.node, "" };
            return;
        }
        const std::string id = doc["id"].get<std::string>();
        if (stringField(doc, "state") == "failed_to_start") {
            run.error = core::Error { "LAUNCHER_START", agent.node + " could not start " + run.launcher.program + ": " + stringField(doc, "error"),
                agent.node, "install it on that node (Open MPI: openmpi-bin) in the agent's --tools-dir" };
            return;
        }
        // The agent times the launcher out first; past this it is stopped from here, and an agent
        // that still does not say it ended is left after a grace period (as long as the run, 10 s at most).
        const std::chrono::milliseconds kGrace = std::clamp<std::chrono::milliseconds>(options.timeout, std::chrono::seconds(1), std::chrono::seconds(10));
        auto deadline = Clock::now() + options.timeout + kGrace;
        bool stopSent = false;
        std::size_t offset = 0;
        for (;;) {
            if (!stopSent && stopRequested(options)) {
                run.cancelled = true;
                stopSent = true;
                requestAll({ { agent, "DELETE", "/v1/tests/" + id, {} } }, options.fetch);
                deadline = std::min(deadline, Clock::now() + kGrace);
            }
            const AgentReply r = requestAll({ { agent, "GET", "/v1/tests/" + id + "?offset=" + std::to_string(offset), {} } }, options.fetch).front();
            if (r.error || r.status != 200) {
                run.error = replyError(r, "lost track of " + run.launcher.program, kAgentHint);
                requestAll({ { agent, "DELETE", "/v1/tests/" + id, {} } }, options.fetch);
                return;
            }
            const auto state = nlohmann::json::parse(r.body, nullptr, false);
            if (!state.is_object()) {
                run.error = core::Error { "AGENT_JSON", "the agent's test state is not JSON", agent.node, "" };
                return;
            }
            const std::string text = stringField(state, "output");
            if (run.output.size() + text.size() > kMaxToolOutputBytes) {
                run.error = core::Error { "AGENT_OUTPUT_TOO_LARGE",
                    run.launcher.program + " on " + agent.node + ": more than " + std::to_string(kMaxToolOutputBytes >> 20) + " MiB of output; stopped",
                    agent.node, "the agent is not railyard-agent, or the launcher is not the one it should be" };
                requestAll({ { agent, "DELETE", "/v1/tests/" + id, {} } }, options.fetch);
                return;
            }
            reader.add(text, run.output);
            offset = unsignedField(state, "next_offset").value_or(offset + text.size());
            const std::string s = stringField(state, "state", "running");
            if (s != "running" && text.empty()) {
                if (s == "timed_out")
                    run.timedOut = true;
                if (!run.cancelled && !run.timedOut && state.contains("exit_status") && state["exit_status"].is_number_integer())
                    run.exitStatus = state["exit_status"].get<int>();
                else if (!run.cancelled && !run.timedOut && state.contains("signal") && state["signal"].is_number_integer())
                    run.exitStatus = 128 + state["signal"].get<int>();
                return;
            }
            if (Clock::now() > deadline) {
                if (stopSent)
                    return; // stopped once already: the agent does not say that it ended
                run.timedOut = true;
                stopSent = true;
                requestAll({ { agent, "DELETE", "/v1/tests/" + id, {} } }, options.fetch);
                deadline = Clock::now() + kGrace;
            }
            if (text.empty())
                std::this_thread::sleep_for(options.pollInterval);
        }
    }

    /// The plan as it looks to a run on one rail's NICs only.
    core::Plan oneRailPlan(const core::Plan& plan)
    {
        core::Plan p;
        p.spec = plan.spec;
        p.summary = plan.summary;
        p.summary.rails = 1;
        p.devices = plan.devices;
        return p;
    }

    CollectiveModel modelOf(const core::Plan& plan, const std::string& tool, const CollectiveRunOutcome& run, const VerdictThresholds& thresholds)
    {
        CollectiveRun facts;
        facts.collective = collectiveOfTool(tool);
        if (const auto a = run.log.env.find("NCCL_ALGO"); a != run.log.env.end())
            facts.algorithm = ncclAlgorithmOf(a->second);
        facts.ranks = run.tests.ranks;
        std::set<std::string> hosts;
        for (const NcclTestsRank& r : run.tests.rankList)
            if (hosts.insert(r.host).second)
                facts.hosts.push_back(r.host);
        facts.nodes = static_cast<int>(hosts.size());
        std::vector<MeasuredCollectiveRow> rows;
        for (const NcclTestsRow& r : run.tests.rows) {
            const NcclTestsResult& best = r.hasInPlace && r.inPlace.busbwGBs > r.outOfPlace.busbwGBs ? r.inPlace : r.outOfPlace;
            rows.push_back({ r.bytes, best.algbwGBs, best.busbwGBs });
        }
        return run.rail ? modelCollective(oneRailPlan(plan), facts, rows, thresholds) : modelCollective(plan, facts, rows, thresholds);
    }

    /// The body of an agent's 200 answer as JSON; nullopt for an error, another status or a body
    /// that is not JSON (the report then has nothing from that node, as for one that did not answer).
    std::optional<nlohmann::json> answerJson(const AgentReply& r)
    {
        if (r.error || r.status != 200)
            return std::nullopt;
        auto doc = nlohmann::json::parse(r.body, nullptr, false);
        if (doc.is_discarded())
            return std::nullopt;
        return doc;
    }

    /// Rail ports that are down or below the plan's rate, from the agents' inventory.
    std::vector<PortProblem> portProblems(const core::Plan& plan, const std::vector<AgentReply>& replies)
    {
        std::vector<PortProblem> out;
        for (const AgentReply& r : replies) {
            const auto doc = answerJson(r);
            if (!doc)
                continue;
            auto inv = inventoryFromJson(*doc, r.agent.node);
            if (!inv)
                continue;
            for (const RdmaDevice& d : inv->devices) {
                if (d.rail < 0 || d.ports.empty())
                    continue;
                const RdmaPort& p = d.ports.front();
                const double planned = plan.summary.port.dataGbps;
                std::optional<LinkRate> rate = parseRateText(p.rateText);
                const double gbps = rate ? rate->gbps : p.rateGbps;
                if (p.state != 4 || (planned > 0 && gbps + 0.5 < planned))
                    out.push_back({ r.agent.node, d.name, d.rail, p.stateName.empty() ? std::to_string(p.state) : p.stateName, gbps, planned });
            }
        }
        return out;
    }

    std::vector<AgentEndpoint> agentsOf(const CollectiveTestOptions& options, const std::vector<std::string>& nodes)
    {
        std::vector<AgentEndpoint> out;
        for (const std::string& n : nodes)
            if (const auto it = options.agents.find(n); it != options.agents.end())
                out.push_back(it->second);
        return out;
    }

    void addCounters(TelemetryAggregator& aggregator, const std::vector<AgentReply>& replies)
    {
        for (const AgentReply& r : replies) {
            if (const auto doc = answerJson(r))
                if (auto c = countersFromJson(*doc, r.agent.node))
                    aggregator.add(*c);
        }
    }

} // namespace

CollectiveTestReport runCollectiveTest(const core::Plan& plan, const core::Catalog& catalog, const CollectiveTestOptions& options)
{
    CollectiveTestReport report;
    report.tool = options.params.tool;
    report.nodes = options.params.nodes;
    if (report.nodes.empty())
        for (const core::Device& d : plan.devices)
            if (d.kind == core::DeviceKind::Node && d.installed)
                report.nodes.push_back(d.name);

    const std::vector<AgentEndpoint> agents = agentsOf(options, report.nodes);
    TelemetryAggregator aggregator(plan, options.congestion);
    if (!agents.empty()) {
        report.ports = portProblems(plan, fetchAll(agents, "/v1/inventory", options.fetch));
        addCounters(aggregator, fetchAll(agents, "/v1/counters", options.fetch));
    }

    std::vector<std::optional<int>> rails;
    if (options.perRail)
        for (int k = 0; k < plan.summary.rails; ++k)
            rails.emplace_back(k);
    else
        rails.push_back(options.params.isolateRail);

    for (std::size_t i = 0; i < rails.size() && !stopRequested(options); ++i) {
        CollectiveRunOutcome run;
        run.rail = rails[i];
        NcclTestsParams params = options.params;
        params.nodes = report.nodes;
        params.isolateRail = rails[i];
        params.hostList = options.viaAgent && params.launcher == "mpirun";
        if (!params.hostList && params.launcher == "mpirun")
            params.hostfilePath = ((options.workDir.empty() ? std::filesystem::path(".") : options.workDir) / ("hostfile-" + std::to_string(i))).string();
        auto launch = ncclTestsLaunch(plan, catalog, params);
        if (!launch) {
            run.error = launch.error();
            report.runs.push_back(std::move(run));
            report.complete = false;
            break;
        }
        run.launcher = launch->launcher;
        run.hostfile = launch->hostfile;
        if (options.progress)
            options.progress((run.rail ? "rail " + std::to_string(*run.rail) + ": " : std::string()) + displayCommand(run.launcher));
        OutputReader reader(params.tool, options, run.rail);
        if (options.viaAgent) {
            const auto agent = options.agents.find(report.nodes.front());
            if (agent == options.agents.end())
                run.error = core::Error { "AGENT_MISSING", "no agent for " + report.nodes.front() + " in agents.json, which should start the launcher",
                    report.nodes.front(), "add the node to agents.json, or start the launcher here (--launcher mpirun)" };
            else
                runViaAgent(options, agent->second, run, reader);
        } else {
            runHere(options, run, reader);
        }
        reader.finish();
        run.tests = reader.tests();
        run.log = reader.log();
        run.model = modelOf(plan, params.tool, run, options.thresholds);
        if (!run.ok())
            report.complete = false;
        report.runs.push_back(std::move(run));
    }

    if (!agents.empty()) {
        addCounters(aggregator, fetchAll(agents, "/v1/counters", options.fetch));
        report.counters = aggregator.sweep();
    }
    explainCollective(plan, report, options.thresholds);
    return report;
}

nlohmann::json toJson(const CollectiveTestReport& report)
{
    nlohmann::json runs = nlohmann::json::array();
    for (const CollectiveRunOutcome& r : report.runs) {
        nlohmann::json log = toJson(r.log);
        runs.push_back({ { "rail", r.rail ? nlohmann::json(*r.rail) : nlohmann::json(nullptr) }, { "command", displayCommand(r.launcher) },
            { "hostfile", r.hostfile }, { "exit_status", r.exitStatus ? nlohmann::json(*r.exitStatus) : nlohmann::json(nullptr) },
            { "cancelled", r.cancelled }, { "timed_out", r.timedOut },
            { "error", r.error ? nlohmann::json(r.error->toString()) : nlohmann::json(nullptr) }, { "tests", toJson(r.tests) },
            { "nccl_log", log }, { "expected", toJson(r.model) } });
    }
    nlohmann::json ports = nlohmann::json::array();
    for (const PortProblem& p : report.ports)
        ports.push_back({ { "node", p.node }, { "device", p.device }, { "rail", p.rail }, { "state", p.state }, { "rate_gbps", p.rateGbps },
            { "planned_gbps", p.plannedGbps } });
    nlohmann::json findings = nlohmann::json::array();
    for (const core::Finding& f : report.findings)
        findings.push_back({ { "severity", core::toString(f.severity) }, { "code", f.code }, { "message", f.message }, { "where", f.where } });
    return { { "tool", report.tool }, { "nodes", report.nodes }, { "complete", report.complete }, { "runs", runs },
        { "counters", report.counters ? toJson(*report.counters) : nlohmann::json(nullptr) }, { "ports", ports }, { "findings", findings } };
}

} // namespace railyard::live
