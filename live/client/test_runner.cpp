// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/test_runner.h"

#include "core/plan_json.h"
#include "live/client/live_check.h"
#include "live/common/json_fields.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <thread>

namespace railyard::live {

namespace {

    /// What to check when an agent refuses a test request.
    constexpr const char* kAgentHint = "check that the node's agent is railyard-agent with /v1/tests and that it has the tool in its --tools-dir";

    using Clock = std::chrono::steady_clock;

    /// "http://10.0.0.7:9473/" -> "10.0.0.7" ("[::1]" keeps no brackets); empty when not http://.
    std::string hostOfUrl(const std::string& url)
    {
        const std::string scheme = "http://";
        if (url.rfind(scheme, 0) != 0)
            return {};
        std::string rest = url.substr(scheme.size());
        rest = rest.substr(0, rest.find('/'));
        if (!rest.empty() && rest.front() == '[')
            return rest.substr(1, rest.find(']') - 1);
        return rest.substr(0, rest.rfind(':'));
    }

    /// One process on one agent, as we follow it.
    struct Job {
        AgentEndpoint agent;
        const ToolInvocation* invocation = nullptr;
        std::string id;
        std::string output;
        std::size_t offset = 0;
        std::string state; ///< "" before it started; the agent's state after
        std::optional<int> exitStatus;
        std::optional<core::Error> error;
        bool running() const { return !id.empty() && state == "running" && !error; }
    };

    std::string bodyOf(const ToolInvocation& inv, std::chrono::seconds timeout)
    {
        nlohmann::json env = nlohmann::json::object();
        for (const auto& [k, v] : inv.env)
            env[k] = v;
        return nlohmann::json { { "program", inv.program }, { "args", inv.args }, { "env", env }, { "timeout_s", timeout.count() },
                   { "role", inv.role.empty() ? std::string("launcher") : inv.role } }
            .dump();
    }

    /// POSTs each job's invocation; sets its id or its error.
    void startJobs(std::vector<Job*> jobs, const TestRunOptions& options)
    {
        std::vector<AgentRequest> requests;
        for (Job* j : jobs)
            requests.push_back({ j->agent, "POST", "/v1/tests", bodyOf(*j->invocation, options.testTimeout) });
        const auto replies = requestAll(requests, options.fetch);
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            const AgentReply& r = replies[i];
            if (r.error || (r.status != 201 && r.status != 200)) {
                jobs[i]->error = replyError(r, "cannot start " + jobs[i]->invocation->program, kAgentHint);
                continue;
            }
            const auto doc = nlohmann::json::parse(r.body, nullptr, false);
            if (doc.is_discarded() || !doc.contains("id") || !doc["id"].is_string()) {
                jobs[i]->error = core::Error { "AGENT_JSON", "the agent's answer to POST /v1/tests has no test id", r.agent.node, "" };
                continue;
            }
            jobs[i]->id = doc["id"].get<std::string>();
            jobs[i]->state = stringField(doc, "state", "running");
        }
    }

    /// GETs the new output and the state of every running job.
    void pollJobs(std::vector<Job*> jobs, const TestRunOptions& options)
    {
        std::vector<Job*> live;
        std::vector<AgentRequest> requests;
        for (Job* j : jobs)
            if (j->running()) {
                live.push_back(j);
                requests.push_back({ j->agent, "GET", "/v1/tests/" + j->id + "?offset=" + std::to_string(j->offset), {} });
            }
        const auto replies = requestAll(requests, options.fetch);
        for (std::size_t i = 0; i < live.size(); ++i) {
            const AgentReply& r = replies[i];
            if (r.error || r.status != 200) {
                live[i]->error = replyError(r, "lost track of " + live[i]->invocation->program, kAgentHint);
                continue;
            }
            const auto doc = nlohmann::json::parse(r.body, nullptr, false);
            if (doc.is_discarded() || !doc.is_object()) {
                live[i]->error = core::Error { "AGENT_JSON", "the agent's test state is not JSON", r.agent.node, "" };
                continue;
            }
            const std::string output = stringField(doc, "output");
            if (live[i]->output.size() + output.size() > kMaxToolOutputBytes) {
                live[i]->error = core::Error { "AGENT_OUTPUT_TOO_LARGE",
                    live[i]->invocation->program + " on " + r.agent.node + ": more than " + std::to_string(kMaxToolOutputBytes >> 20)
                        + " MiB of output; stopped",
                    r.agent.node, "the agent is not railyard-agent, or the tool is not the perftest it should be" };
                continue;
            }
            live[i]->output += output;
            live[i]->offset = unsignedField(doc, "next_offset").value_or(live[i]->offset + output.size());
            live[i]->state = stringField(doc, "state", "running");
            if (doc.contains("exit_status") && doc["exit_status"].is_number_integer())
                live[i]->exitStatus = doc["exit_status"].get<int>();
        }
    }

    void deleteJobs(std::vector<Job*> jobs, const TestRunOptions& options)
    {
        std::vector<AgentRequest> requests;
        for (Job* j : jobs)
            if (!j->id.empty() && (j->state.empty() || j->state == "running"))
                requests.push_back({ j->agent, "DELETE", "/v1/tests/" + j->id, {} });
        if (!requests.empty())
            requestAll(requests, options.fetch);
    }

    bool stopped(const TestRunOptions& options) { return options.stop && options.stop->load(); }

    void say(const TestRunOptions& options, const std::string& line)
    {
        if (options.progress)
            options.progress(line);
    }

    std::string name(const PairTest& t)
    {
        return t.server + "<-" + t.client + " rail " + std::to_string(t.rail);
    }

    /// The bandwidth a run measured: the best average at 256 KiB or more, else the largest size's.
    std::optional<double> measured(const PerftestRun& run)
    {
        std::optional<double> best;
        for (const PerftestBwRow& r : run.bwRows)
            if (r.bytes >= (256u << 10) && (!best || r.bwAverageGbps > *best))
                best = r.bwAverageGbps;
        if (!best && !run.bwRows.empty())
            best = run.bwRows.back().bwAverageGbps;
        return best;
    }

} // namespace

std::vector<PairOutcome> runPerftestRound(const core::Plan& plan, const core::Catalog& catalog,
    const std::map<std::string, AgentEndpoint>& agentOf, const ScheduleRound& round, const PerftestParams& base,
    const TestRunOptions& options)
{
    std::vector<PairOutcome> out(round.tests.size());
    std::vector<Job> servers(round.tests.size()), clients(round.tests.size());
    std::map<std::string, int> portsUsed;
    for (std::size_t i = 0; i < round.tests.size(); ++i) {
        PairOutcome& o = out[i];
        o.test = round.tests[i];
        const auto s = agentOf.find(o.test.server);
        const auto c = agentOf.find(o.test.client);
        if (s == agentOf.end() || c == agentOf.end()) {
            o.error = core::Error { "TEST_NO_AGENT", "no agent for " + (s == agentOf.end() ? o.test.server : o.test.client) + " in agents.json",
                s == agentOf.end() ? o.test.server : o.test.client, "list every node to test in agents.json" };
            continue;
        }
        PerftestParams params = base;
        params.qps = std::max(base.qps, o.test.qps);
        auto invocations = perftestRailPair(plan, catalog, o.test.server, o.test.client, o.test.rail, params);
        if (!invocations) {
            o.error = invocations.error();
            continue;
        }
        o.invocations = std::move(invocations).value();
        // The client reaches the server where its agent is reached; an agent on loopback says
        // nothing about that (the emulator serves every node there), so the node's name is used.
        std::string host = hostOfUrl(s->second.url);
        if (host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0)
            host = o.test.server;
        if (const core::Status ok = validateHostName("server address", host); !ok) {
            o.error = ok.error();
            continue;
        }
        o.invocations[1].args.back() = host;
        // Servers that share an address (the emulator's nodes all live on one host) need a TCP
        // port each: the k-th test of this round whose server is at `host` takes base + k.
        const int port = base.tcpPort + portsUsed[host]++;
        if (const core::Status ok = validateInRange("tcp port", port, 1, 65535); !ok) {
            o.error = ok.error();
            continue;
        }
        for (ToolInvocation& inv : o.invocations)
            for (std::size_t a = 0; a + 1 < inv.args.size(); ++a)
                if (inv.args[a] == "-p")
                    inv.args[a + 1] = std::to_string(port);
        servers[i] = { s->second, &o.invocations[0], {}, {}, 0, {}, {}, {} };
        clients[i] = { c->second, &o.invocations[1], {}, {}, 0, {}, {}, {} };
    }

    std::vector<Job*> allServers, allClients;
    for (std::size_t i = 0; i < out.size(); ++i)
        if (!out[i].error) {
            allServers.push_back(&servers[i]);
            allClients.push_back(&clients[i]);
        }
    auto everything = [&] {
        std::vector<Job*> v = allServers;
        v.insert(v.end(), allClients.begin(), allClients.end());
        return v;
    };

    say(options, round.purpose + ": starting " + std::to_string(allServers.size()) + " servers");
    startJobs(allServers, options);
    // Servers ready: "Waiting for client" in their output (perftest prints it once listening).
    const auto readyBy = Clock::now() + options.serverReady;
    std::vector<bool> ready(out.size(), false);
    for (;;) {
        bool waiting = false;
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (out[i].error || ready[i])
                continue;
            if (servers[i].output.find("Waiting for client") != std::string::npos)
                ready[i] = true;
            else if (servers[i].running())
                waiting = true;
        }
        if (!waiting || Clock::now() >= readyBy || stopped(options))
            break;
        std::this_thread::sleep_for(options.pollInterval);
        pollJobs(allServers, options);
    }
    // A server that did not say it waits gets no client: it is stopped now, not left running
    // until the round's deadline.
    std::vector<Job*> toStart, notReady;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i].error)
            continue;
        if (ready[i] && !stopped(options))
            toStart.push_back(&clients[i]);
        else if (!ready[i] && servers[i].running())
            notReady.push_back(&servers[i]);
    }
    deleteJobs(notReady, options);
    for (Job* j : notReady)
        j->state = "killed";
    say(options, round.purpose + ": " + std::to_string(toStart.size()) + " servers wait; starting their clients");
    startJobs(toStart, options);

    const auto endBy = Clock::now() + options.testTimeout + std::chrono::seconds(5);
    // A server whose client has ended (it failed, or finished first) gets a short grace to print
    // its side, then is stopped rather than left waiting for a client that will not come.
    std::vector<std::optional<Clock::time_point>> clientEnded(out.size());
    for (;;) {
        bool any = false;
        std::vector<Job*> orphans;
        for (std::size_t i = 0; i < out.size(); ++i) {
            if (out[i].error)
                continue;
            if (!clients[i].id.empty() && !clients[i].running() && servers[i].running()) {
                if (!clientEnded[i])
                    clientEnded[i] = Clock::now();
                else if (Clock::now() - *clientEnded[i] > std::chrono::seconds(2))
                    orphans.push_back(&servers[i]);
            }
            any = any || servers[i].running() || clients[i].running();
        }
        deleteJobs(orphans, options);
        for (Job* j : orphans)
            j->state = "killed";
        if (!any || Clock::now() >= endBy || stopped(options))
            break;
        std::this_thread::sleep_for(options.pollInterval);
        pollJobs(everything(), options);
    }
    // Whatever still runs (cancel, deadline, a server whose client never came) is deleted.
    deleteJobs(everything(), options);

    for (std::size_t i = 0; i < out.size(); ++i) {
        PairOutcome& o = out[i];
        if (o.error)
            continue;
        o.serverOutput = servers[i].output;
        o.clientOutput = clients[i].output;
        if (servers[i].error || clients[i].error) {
            o.error = servers[i].error ? servers[i].error : clients[i].error;
            continue;
        }
        if (!ready[i]) {
            o.error = core::Error { "TEST_SERVER_NOT_READY",
                "the " + o.invocations[0].program + " server on " + o.test.server + " did not wait for its client: "
                    + (servers[i].output.empty() ? std::string("no output") : servers[i].output.substr(0, 400)),
                o.test.server, "check the NIC and its port on that node (live check)" };
            continue;
        }
        if (stopped(options) && clients[i].state != "exited") {
            o.error = core::Error { "TEST_CANCELLED", "cancelled", o.test.client, "" };
            continue;
        }
        auto parsed = parsePerftestOutput(clients[i].output);
        if (!parsed) {
            o.error = core::Error { "TEST_OUTPUT", "the client printed no perftest output: " + clients[i].output.substr(0, 400), o.test.client, "" };
            continue;
        }
        o.client = std::move(parsed).value();
        o.gbps = measured(*o.client);
        if (!o.client->complete || o.client->failed || !o.gbps) {
            std::string why = o.client->findings.empty() ? "incomplete output" : o.client->findings.front().message;
            o.error = core::Error { "TEST_FAILED", why, o.test.client, "" };
            o.gbps.reset();
        }
    }
    return out;
}

BandwidthTestReport runBandwidthTest(const core::Plan& plan, const core::Catalog& catalog,
    const std::map<std::string, AgentEndpoint>& agentOf, const BandwidthTestOptions& test, const TestRunOptions& options)
{
    BandwidthTestReport report;
    auto schedule = schedulePairs(plan, test.schedule);
    if (!schedule) {
        report.findings.push_back({ core::Severity::Error, schedule.error().code, schedule.error().message, schedule.error().where });
        report.complete = false;
        return report;
    }
    report.schedule = std::move(schedule).value();
    const PerftestModel bound = modelPerftest(plan, railMapOf(plan, catalog), "", test.base.bidirectional, {});
    report.boundGbps = bound.boundGbps;
    report.lowGbps = bound.boundGbps * test.lowPercent / 100;

    std::vector<PairResult> results;
    auto collect = [&](const std::vector<PairOutcome>& outcomes) {
        if (options.roundDone)
            options.roundDone(outcomes);
        for (const PairOutcome& o : outcomes) {
            if (o.gbps) {
                results.push_back({ o.test, *o.gbps });
                continue;
            }
            report.complete = false;
            const core::Error e = o.error.value_or(core::Error { "TEST_FAILED", "no result", o.test.client, "" });
            report.findings.push_back({ core::Severity::Error, e.code == "TEST_CANCELLED" ? "TEST_CANCELLED" : "TEST_FAILED",
                name(o.test) + ": " + e.message + (e.hint.empty() ? "" : " (" + e.hint + ")"), o.test.client + "/nic" + std::to_string(o.test.rail) });
        }
    };
    for (std::size_t r = 0; r < report.schedule.rounds.size() && !stopped(options); ++r) {
        say(options, "round " + std::to_string(r + 1) + " of " + std::to_string(report.schedule.rounds.size()) + " ("
                + report.schedule.rounds[r].purpose + ", " + std::to_string(report.schedule.rounds[r].tests.size()) + " tests)");
        report.rounds.push_back(runPerftestRound(plan, catalog, agentOf, report.schedule.rounds[r], test.base, options));
        collect(report.rounds.back());
    }
    report.narrowing = narrowDown(results, report.lowGbps);
    if (test.retest && !report.narrowing.nextRound.tests.empty() && !stopped(options)) {
        say(options, "retests: " + std::to_string(report.narrowing.nextRound.tests.size()) + " tests to tell suspects apart");
        report.retests = runPerftestRound(plan, catalog, agentOf, report.narrowing.nextRound, test.base, options);
        collect(report.retests);
        report.narrowing = narrowDown(results, report.lowGbps);
    }
    if (stopped(options))
        report.complete = false;
    report.findings.insert(report.findings.end(), report.narrowing.findings.begin(), report.narrowing.findings.end());
    return report;
}

nlohmann::json toJson(const BandwidthTestReport& report)
{
    auto outcomes = [](const std::vector<PairOutcome>& list) {
        nlohmann::json a = nlohmann::json::array();
        for (const PairOutcome& o : list) {
            nlohmann::json j { { "server", o.test.server }, { "client", o.test.client }, { "rail", o.test.rail },
                { "crosses_spine", o.test.crossesSpine }, { "qps", o.test.qps } };
            j["gbps"] = o.gbps ? nlohmann::json(std::round(*o.gbps * 100) / 100) : nlohmann::json();
            if (o.error)
                j["error"] = { { "code", o.error->code }, { "message", o.error->message } };
            if (!o.invocations.empty()) {
                j["server_command"] = displayCommand(o.invocations[0]);
                j["client_command"] = displayCommand(o.invocations[1]);
            }
            a.push_back(std::move(j));
        }
        return a;
    };
    nlohmann::json rounds = nlohmann::json::array();
    for (std::size_t i = 0; i < report.rounds.size(); ++i)
        rounds.push_back({ { "purpose", report.schedule.rounds[i].purpose }, { "tests", outcomes(report.rounds[i]) } });
    nlohmann::json findings = nlohmann::json::array();
    for (const core::Finding& f : report.findings)
        findings.push_back(core::toJson(f));
    return { { "bound_gbps", std::round(report.boundGbps * 100) / 100 }, { "low_gbps", std::round(report.lowGbps * 100) / 100 },
        { "rounds", std::move(rounds) }, { "retests", outcomes(report.retests) }, { "narrowing", toJson(report.narrowing) },
        { "schedule_notes", report.schedule.notes }, { "findings", std::move(findings) }, { "complete", report.complete } };
}

} // namespace railyard::live
