// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `railyard-cli live watch`: the agents' counters sampled every interval (or the same series read
// from a Prometheus server, live/client/prometheus_source.h), per-rail and per-leaf throughput and
// congestion (live/client/telemetry.h), printed as it goes.
#include "app/cli/commands.h"

#include "core/text.h"

#include "app/cli/agents_input.h"
#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/progress_printer.h"
#include "app/cli/run_store.h"
#include "app/cli/stop_signal.h"
#include "core/plan_json.h"
#include "live/client/counters_poll.h"
#include "live/client/prometheus_source.h"
#include "live/client/switch_telemetry.h"
#include "live/client/telemetry_series.h"
#include "live/client/telemetry.h"
#include "live/common/inventory_json.h"
#include "live/common/umad2sim.h"
#include "planner/planner.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <memory>
#include <set>
#include <thread>

namespace railyard::app::cli {

namespace {

    struct LiveWatchOptions {
        InputOptions input;
        std::string agentsFile;
        std::string tokenFile;
        std::string prometheusUrl;
        std::string window = live::PrometheusOptions {}.window;
        std::string selector;
        std::string metrics = "railyard";
        double seconds = 10;
        int intervalMs = 1000;
        int timeoutMs = 2000;
        bool json = false;
        live::CongestionThresholds thresholds;
        bool switches = false; ///< also sweep the IB switches' own counters (PMA, ib_perf.h)
        bool ibsim = false;    ///< ... of the subnet ibsim simulates (libumad2sim)
        std::string umad2sim;
        std::string ca;
        int caPort = 0;
        std::string project;   ///< store the run (RunStore)
        std::string telemetry; ///< store the series; default with --project: the project's name with .telemetry
    };

    /// One line per switch sweep: the switches that are not healthy.
    void printSwitchSweep(const std::vector<live::SwitchRates>& sweep, double at, std::ostream& out)
    {
        out << "t=" << core::formatFixed(at, 1) << "s switches:";
        int healthy = 0;
        for (const live::SwitchRates& s : sweep) {
            if (s.health == live::Health::Healthy) {
                ++healthy;
                continue;
            }
            out << "  " << s.name << " " << live::toString(s.health);
        }
        out << "  (" << healthy << " of " << sweep.size() << " healthy)\n" << std::flush;
    }


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

    /// Where the sweeps come from: the agents' snapshots, or rates a Prometheus server computed.
    /// `begin` runs before the first interval and says whether it took baselines (the agents'
    /// first snapshots), so that the first round waits an interval; from then on, `stop` set
    /// (Ctrl+C) ends the sampler's waits within a moment, whatever their deadline. `sample` runs one round
    /// and returns its sweep, if there is one. Both record in `lastError` why a node (or the
    /// server) gave nothing. `last`: the round's sweep is the watch's last, so answers still on
    /// their way are waited for (saying so on `progress`) and counted in it, rather than left
    /// for a round that never comes.
    class Sampler {
    public:
        virtual ~Sampler() = default;
        virtual bool begin(std::map<std::string, std::string>& /*lastError*/, const std::atomic<bool>& /*stop*/) { return false; }
        virtual std::optional<live::Sweep> sample(std::map<std::string, std::string>& lastError, bool last, std::ostream& progress) = 0;
        virtual std::string sourceText() const = 0; ///< "3 of 4 agents", "Prometheus at URL"
        /// True when more rounds cannot help (a wrong URL, a refused query): the watch ends at once.
        virtual bool hopeless() const { return false; }
    };

    class AgentSampler final : public Sampler {
    public:
        AgentSampler(const core::Plan& plan, AgentsInput agents, const live::CongestionThresholds& thresholds, std::chrono::milliseconds interval)
            : m_agents(std::move(agents))
            , m_aggregator(plan, thresholds)
            , m_poller(m_agents.fetch)
            , m_interval(interval)
        {
        }

        /// Rates need two snapshots: the first is waited for from every agent (each within its
        /// deadline), so that the intervals that follow give every node that answers its rates
        /// however slow its answers are.
        bool begin(std::map<std::string, std::string>& lastError, const std::atomic<bool>& stop) override
        {
            m_poller.stopOn(&stop);
            take(m_poller.poll(m_agents.agents, m_aggregator), lastError);
            return true;
        }

        std::optional<live::Sweep> sample(std::map<std::string, std::string>& lastError, bool last, std::ostream& progress) override
        {
            // The round ends at the interval at most; an agent that has not answered by then answers into a later one.
            take(m_poller.poll(m_agents.agents, m_aggregator, std::chrono::steady_clock::now() + m_interval), lastError);
            if (last)
                settle(lastError, progress);
            return m_aggregator.sweep();
        }

        std::string sourceText() const override
        {
            return std::to_string(m_answered.size()) + " of " + std::to_string(m_agents.agents.size()) + " agents";
        }

    private:
        void take(const std::vector<live::CountersOutcome>& outcomes, std::map<std::string, std::string>& lastError)
        {
            for (const live::CountersOutcome& o : outcomes) {
                if (o.waiting) {
                    // An earlier failure says more than a wait; an earlier wait is brought up to date.
                    if (!lastError.count(o.agent.node) || m_waitNoted.count(o.agent.node)) {
                        lastError[o.agent.node] = "no answer yet: " + askedText(o);
                        m_waitNoted.insert(o.agent.node);
                    }
                    continue;
                }
                m_waitNoted.erase(o.agent.node);
                if (!o.error.empty()) {
                    lastError[o.agent.node] = o.error;
                } else {
                    answered(o.agent.node, lastError);
                }
            }
        }

        /// The last round reached its interval before some answers came: those requests are
        /// waited for (each within its deadline) and their rates go into the last sweep, so a
        /// loaded agent or network is neither left out of the figures nor reported as an
        /// unreachable node; an answer that fails or times out is reported as such.
        void settle(std::map<std::string, std::string>& lastError, std::ostream& progress)
        {
            const std::size_t open = m_poller.open();
            if (open == 0)
                return;
            progress << "waiting for the answers of " << open << " agents (the deadline is " << m_agents.fetch.deadline.count() << " ms)\n"
                     << std::flush;
            for (const live::CountersOutcome& o : m_poller.settle(m_aggregator)) {
                if (o.waiting) { // the watch was stopped first
                    if (!lastError.count(o.agent.node) || m_waitNoted.count(o.agent.node))
                        lastError[o.agent.node] = "no answer when the watch was stopped: " + askedText(o);
                    continue;
                }
                m_waitNoted.erase(o.agent.node);
                if (!o.error.empty())
                    lastError[o.agent.node] = o.error;
                else if (!m_answered.count(o.agent.node))
                    lastError[o.agent.node] = "its first answer came at the end of the watch, " + std::to_string(o.elapsed.count())
                        + " ms after it was asked: one snapshot gives no rate";
                else
                    answered(o.agent.node, lastError);
            }
        }

        /// "asked 2300 ms ago (the deadline is 5000 ms)": an open request.
        std::string askedText(const live::CountersOutcome& o) const
        {
            return "asked " + std::to_string(o.elapsed.count()) + " ms ago (the deadline is " + std::to_string(m_agents.fetch.deadline.count())
                + " ms)";
        }

        void answered(const std::string& node, std::map<std::string, std::string>& lastError)
        {
            m_answered.insert(node);
            lastError.erase(node);
        }

        AgentsInput m_agents;
        live::TelemetryAggregator m_aggregator;
        std::set<std::string> m_answered;
        std::set<std::string> m_waitNoted; ///< nodes whose last error is a wait for an open request
        live::CountersPoller m_poller;
        std::chrono::milliseconds m_interval;
    };

    class PrometheusSampler final : public Sampler {
    public:
        PrometheusSampler(const core::Plan& plan, live::PrometheusSource source, const live::CongestionThresholds& thresholds, std::string url)
            : m_plan(&plan)
            , m_source(std::move(source))
            , m_thresholds(thresholds)
            , m_url(std::move(url))
        {
        }

        std::optional<live::Sweep> sample(std::map<std::string, std::string>& lastError, bool /*last*/, std::ostream& /*progress*/) override
        {
            core::Result<live::PrometheusReading> reading = m_source.read();
            if (!reading) {
                const core::Error& e = reading.error();
                lastError["prometheus"] = e.message + (e.hint.empty() ? "" : " (" + e.hint + ")");
                // No data yet (a server that just started) and a timeout may pass; the rest will not.
                m_hopeless = e.code != "PROMETHEUS_NO_DATA" && e.code != "PROMETHEUS_TIMEOUT";
                return std::nullopt;
            }
            lastError.erase("prometheus");
            live::Sweep s = live::aggregateSweep(std::move(reading->ports), *m_plan, m_thresholds, m_xmitWaitFloor, reading->timestampMs);
            s.notes.insert(s.notes.begin(), reading->notes.begin(), reading->notes.end());
            return s;
        }

        std::string sourceText() const override { return "Prometheus at " + m_url; }
        bool hopeless() const override { return m_hopeless; }

    private:
        const core::Plan* m_plan;
        live::PrometheusSource m_source;
        live::CongestionThresholds m_thresholds;
        std::map<std::string, double> m_xmitWaitFloor;
        std::string m_url;
        bool m_hopeless = false;
    };

    /// The sampler the options ask for; errors are bad input.
    core::Result<std::unique_ptr<Sampler>> makeSampler(const LiveWatchOptions& options, const core::Plan& plan)
    {
        if (options.prometheusUrl.empty()) {
            core::Result<AgentsInput> agents = loadAgents(options.agentsFile, options.tokenFile, options.timeoutMs);
            if (!agents)
                return agents.errors();
            return std::unique_ptr<Sampler>(std::make_unique<AgentSampler>(plan, std::move(*agents), options.thresholds, std::chrono::milliseconds(options.intervalMs)));
        }
        live::PrometheusOptions prom;
        prom.url = options.prometheusUrl;
        prom.window = options.window;
        prom.selector = options.selector;
        prom.deadline = std::chrono::milliseconds(options.timeoutMs);
        std::map<std::string, int> railOfDevice;
        if (options.metrics == "node-exporter") {
            prom.metrics = live::PrometheusMetrics::NodeExporter;
            // node_infiniband_* has no rail label: the node type's rail map names the devices.
            core::Result<core::Catalog> catalog = loadCatalog(options.input);
            if (!catalog)
                return catalog.errors();
            if (const core::NodeType* type = catalog->findNodeType(plan.spec.nodeType))
                for (std::size_t k = 0; k < type->railMap.size(); ++k)
                    railOfDevice[type->railMap[k]] = static_cast<int>(k);
        }
        if (!options.tokenFile.empty()) {
            core::Result<std::string> token = live::readTokenFile(options.tokenFile);
            if (!token)
                return token.errors();
            prom.token = *token;
        }
        live::PrometheusSource source(plan, std::move(prom), std::move(railOfDevice));
        if (core::Status ok = source.validate(); !ok)
            return ok.errors();
        return std::unique_ptr<Sampler>(std::make_unique<PrometheusSampler>(plan, std::move(source), options.thresholds, options.prometheusUrl));
    }

    int runLiveWatch(const LiveWatchOptions& options)
    {
        if (const auto failed = reexecForIbsim(options.ibsim, options.umad2sim, "live watch"))
            return *failed;
        std::string source;
        core::Result<core::Plan> plan = planInput(options.input, source);
        if (!plan) {
            printErrors(plan.errors(), source);
            return kExitBadInput;
        }
        const bool nodes = !options.agentsFile.empty() || !options.prometheusUrl.empty();
        core::Result<std::unique_ptr<Sampler>> sampler = nodes ? makeSampler(options, *plan) : std::unique_ptr<Sampler>();
        if (!sampler) {
            printErrors(sampler.errors());
            return kExitBadInput;
        }
        std::unique_ptr<live::SwitchWatch> switchWatch;
        if (options.switches) {
            if (plan->spec.fabric != core::Fabric::InfiniBand) {
                std::cerr << source << ": --switches reads InfiniBand switches through their PMAs; a RoCEv2 plan's switches are not\n";
                return kExitBadInput;
            }
            core::Result<core::Catalog> catalog = loadCatalog(options.input);
            if (!catalog) {
                printErrors(catalog.errors());
                return kExitBadInput;
            }
            live::DiscoveryOptions discovery;
            discovery.caName = options.ca;
            discovery.caPort = options.caPort;
            discovery.timeoutMs = static_cast<unsigned>(options.timeoutMs);
            auto started = live::SwitchWatch::start(*plan, *catalog, discovery, options.thresholds);
            if (!started) {
                printErrors(started.errors());
                return kExitIncomplete;
            }
            switchWatch = std::move(started).value();
        }
        std::vector<live::SwitchRates> worstSwitches; // each switch at its worst so far
        std::size_t switchSweeps = 0;
        std::vector<std::string> switchFailures; // of the last round

        std::optional<RunStore> runStore = RunStore::open(options.project);
        if (!runStore)
            return kExitBadInput;
        std::optional<core::store::TelemetryStore> series;
        std::string seriesPath = options.telemetry;
        if (seriesPath.empty() && !options.project.empty())
            seriesPath = std::filesystem::path(options.project).replace_extension(".telemetry").string();
        if (!seriesPath.empty()) {
            auto opened = core::store::TelemetryStore::open(seriesPath);
            if (!opened) {
                printErrors(opened.errors());
                return kExitBadInput;
            }
            series = std::move(opened).value();
        }
        std::string seriesError; // the first failure to store a sweep (then no more tries)
        auto keep = [&](std::int64_t ms, const std::vector<core::store::TelemetrySample>& samples) {
            if (!series || !seriesError.empty())
                return;
            if (core::Status stored = series->append(ms, samples); !stored)
                seriesError = stored.error().message;
        };

        StopOnSignal stop;
        std::vector<live::Sweep> sweeps;
        live::SweepSummarizer summarizer;
        std::size_t nodeSweeps = 0;
        std::map<std::string, std::string> lastError; // node (or "prometheus") -> why its counters are missing
        // The baselines (the agents' first snapshots, the switches' first PMA sweep) come before
        // the intervals: however long they take, the first interval is a whole one.
        bool baselines = *sampler && (*sampler)->begin(lastError, stop.flag());
        if (switchWatch) {
            switchWatch->sample(switchFailures);
            baselines = true;
        }
        const auto start = std::chrono::steady_clock::now();
        const auto interval = std::chrono::milliseconds(options.intervalMs);
        auto next = baselines ? start + interval : start;
        // --seconds is the sampled time: that many intervals (at least one), however long the
        // sweeps themselves take on a slow machine or a large fabric.
        const int wanted = std::max(1, static_cast<int>(std::lround(options.seconds * 1000 / options.intervalMs)));
        std::ostream& progress = options.json ? std::cerr : std::cout;
        int rounds = 0;
        while (true) {
            // The next sweep is scheduled only once this one is handled: polls never pile up.
            while (!stop.requested() && std::chrono::steady_clock::now() < next)
                std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(next - std::chrono::steady_clock::now(),
                    std::chrono::milliseconds(100)));
            if (stop.requested())
                break;
            const bool last = static_cast<int>(nodeSweeps) + 1 >= wanted;
            std::optional<live::Sweep> s = *sampler ? (*sampler)->sample(lastError, last, progress) : std::nullopt;
            std::optional<std::vector<live::SwitchRates>> sw;
            if (switchWatch) {
                switchFailures.clear();
                sw = switchWatch->sample(switchFailures);
            }
            ++rounds;
            const double at = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const std::int64_t nowMs
                = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
            if (s) {
                printSweep(*s, at, progress);
                keep(s->timestampMs > 0 ? s->timestampMs : nowMs, live::telemetrySamples(*s));
                summarizer.add(*s);
                ++nodeSweeps;
                // Only --json prints every sweep; without it a watch of hours keeps the summary alone.
                if (options.json)
                    sweeps.push_back(std::move(*s));
            }
            if (sw) {
                printSwitchSweep(*sw, at, progress);
                keep(nowMs, live::telemetrySamples(*sw));
                live::keepWorstSwitches(worstSwitches, *sw);
                ++switchSweeps;
            }
            // Switches alone: their sweeps count; with agents or Prometheus, the nodes' sweeps.
            const int done = static_cast<int>(*sampler ? nodeSweeps : switchSweeps);
            // A source that gives nothing at all: give up after as many rounds as were wanted.
            if (done >= wanted || (*sampler && (*sampler)->hopeless())
                || (done == 0 && rounds > wanted && (lastError.count("prometheus") || !*sampler)))
                break;
            next += interval;
            if (const auto now = std::chrono::steady_clock::now(); next < now)
                next = now; // a slow sweep: go on at once, never catch up in a burst
        }

        live::WatchSummary summary = summarizer.summary();
        std::vector<core::Finding> findings;
        for (const auto& [node, why] : lastError) {
            if (node == "prometheus" && !options.prometheusUrl.empty())
                findings.push_back({ core::Severity::Error, "PROMETHEUS_UNAVAILABLE",
                    "no rates from Prometheus at " + options.prometheusUrl + " in the last round: " + why, options.prometheusUrl });
            else
                findings.push_back({ core::Severity::Error, "NODE_UNREACHABLE",
                    node + ": no counters from its agent (" + why + "): its ports are not in the figures; check that railyard-agent runs",
                    node });
        }
        findings.insert(findings.end(), summary.findings.begin(), summary.findings.end());
        const std::vector<live::SwitchRates>& switches = worstSwitches;
        for (const core::Finding& f : live::switchFindings(switches))
            findings.push_back(f);
        for (const std::string& why : switchFailures)
            findings.push_back({ core::Severity::Error, "SWITCH_UNREACHABLE",
                why + ": that switch port is not in the figures; check the switch and the Subnet Manager", "" });
        if (static_cast<int>(*sampler ? nodeSweeps : switchSweeps) < wanted)
            findings.push_back({ core::Severity::Info, "WATCH_STOPPED",
                "stopped after " + std::to_string(nodeSweeps) + " of " + std::to_string(wanted) + " intervals", "" });
        const bool complete = lastError.empty() && (!*sampler || nodeSweeps > 0)
            && (!switchWatch || (switchSweeps > 0 && switchFailures.empty()));

        if (!seriesError.empty())
            findings.push_back({ core::Severity::Warning, "TELEMETRY_NOT_STORED", seriesError + ": the series after that are not stored",
                seriesPath });
        nlohmann::json doc;
        {
            doc = nlohmann::json { { "plan", source }, { "source", !options.prometheusUrl.empty() ? "prometheus" : !options.agentsFile.empty() ? "agents" : "switches" },
                { "interval_ms", options.intervalMs }, { "sweeps", nlohmann::json::array() },
                { "rails", nlohmann::json::array() }, { "leaves", nlohmann::json::array() }, { "findings", nlohmann::json::array() },
                { "complete", complete } };
            for (const live::Sweep& s : sweeps)
                doc["sweeps"].push_back(live::toJson(s));
            for (const live::GroupRates& g : summary.rails)
                doc["rails"].push_back(live::toJson(g));
            for (const live::GroupRates& g : summary.leaves)
                doc["leaves"].push_back(live::toJson(g));
            if (switchWatch) {
                doc["switches"] = nlohmann::json::array();
                for (const live::SwitchRates& sr : switches)
                    doc["switches"].push_back(live::toJson(sr));
                doc["switch_sweeps"] = switchSweeps;
            }
            for (const core::Finding& f : findings)
                doc["findings"].push_back(core::toJson(f));
        }
        if (options.json) {
            std::cout << doc.dump(2) << '\n';
        } else {
            const std::string from = std::string(*sampler ? (*sampler)->sourceText() : "")
                + (switchWatch ? std::string(*sampler ? " and " : "") + std::to_string(switchWatch->switchCount()) + " switches' PMAs" : "");
            std::cout << "over " << (*sampler ? nodeSweeps : switchSweeps) << " intervals of " << options.intervalMs << " ms, "
                      << from << ":\n";
            for (const live::GroupRates& r : summary.rails)
                std::cout << "  " << r.name << ": tx " << core::formatFixed(r.txGbps, 1) << " Gb/s, rx " << core::formatFixed(r.rxGbps, 1) << " Gb/s over "
                          << r.ports << " ports, " << live::toString(r.health) << '\n';
            for (const live::SwitchRates& sr : switches)
                std::cout << "  " << sr.name << ": uplinks tx " << core::formatFixed(sr.uplinkTxGbps, 1) << " Gb/s, rx "
                          << core::formatFixed(sr.uplinkRxGbps, 1) << " Gb/s over " << sr.uplinks << " (busiest "
                          << core::formatFixed(sr.busiestUplinkPercent, 0) << " %), " << live::toString(sr.health) << '\n';
            for (const core::Finding& f : findings)
                std::cout << "  " << core::toString(f.severity) << ' ' << f.code << ": " << f.message << '\n';
            if (findings.empty())
                std::cout << "no findings: every rail and leaf healthy\n";
        }
        std::cout.flush();
        int status = kExitOk;
        int errors = 0, warnings = 0;
        for (const core::Finding& f : findings) {
            if (f.severity == core::Severity::Error)
                ++errors;
            else if (f.severity == core::Severity::Warning)
                ++warnings;
        }
        if (!complete)
            status = kExitIncomplete;
        else if (errors > 0)
            status = kExitFindings;
        const std::size_t intervals = *sampler ? nodeSweeps : switchSweeps;
        if (!runStore->save(plan->spec.name, "watch", status, complete,
                std::to_string(intervals) + " intervals; " + std::to_string(errors) + " errors, " + std::to_string(warnings) + " warnings"
                    + (series ? "; series in " + seriesPath : ""),
                doc))
            return kExitIncomplete;
        return status;
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
    CLI::Option* agentsOpt = cmd->add_option("--agents", options->agentsFile, "The agents to sample (agents.json)")->type_name("FILE");
    CLI::Option* promOpt = cmd->add_option("--prometheus", options->prometheusUrl,
                                  "Or read the agents' series from the Prometheus server at URL (http://HOST:9090)")
                               ->type_name("URL")
                               ->excludes(agentsOpt);
    cmd->add_option("--window", options->window, "With --prometheus: the window W of rate(...[W]), at least two scrape intervals")
        ->type_name("W")
        ->needs(promOpt)
        ->capture_default_str();
    cmd->add_option("--selector", options->selector, "With --prometheus: extra label matchers, e.g. job=\"railyard\"")
        ->type_name("MATCHERS")
        ->needs(promOpt);
    cmd->add_option("--metrics", options->metrics,
           "With --prometheus: railyard (the agents' railyard_*) or node-exporter (node_infiniband_*: data, XmitWait and link errors only)")
        ->check(CLI::IsMember({ "railyard", "node-exporter" }))
        ->needs(promOpt)
        ->capture_default_str();
    cmd->add_option("--token-file", options->tokenFile,
        "Bearer token of the agents (overrides token_file in agents.json), or of a proxy in front of Prometheus")->type_name("FILE");
    cmd->add_option("--seconds", options->seconds, "How long to sample: this many seconds of intervals, at least one (Ctrl+C stops early)")->check(CLI::Range(0.0, 86400.0))->capture_default_str();
    cmd->add_option("--interval-ms", options->intervalMs, "Sampling interval")->check(CLI::Range(100, 600000))->capture_default_str();
    cmd->add_option("--timeout-ms", options->timeoutMs, "Deadline of each agent request (or Prometheus query)")->check(CLI::Range(1, 600000))->capture_default_str();
    cmd->add_flag("--json", options->json, "Print the sweeps, the worst verdict per rail and leaf, and the findings as JSON");
    cmd->add_option("--project", options->project,
        "Also store the run in this project file (created when missing), and the series in the telemetry database beside it")
        ->type_name("FILE");
    cmd->add_option("--telemetry", options->telemetry,
        "Store the series (per port, rail, leaf and switch, one sample per interval) in this telemetry database "
        "(default with --project: PROJECT with the extension .telemetry; 1 h raw, 1 day of 10 s, 30 days of 1 min averages)")
        ->type_name("FILE");
    CLI::Option* switchesOpt = cmd->add_flag("--switches", options->switches,
        "InfiniBand: also sweep every switch port's counters through the subnet's PMAs (what perfquery reads): uplink load and "
        "XmitWait per leaf and spine; run on a host of the subnet");
    cmd->add_flag("--ibsim", options->ibsim, "With --switches: the subnet ibsim simulates (railyard-sim --ibsim; IBSIM_SOCKNAME)")
        ->needs(switchesOpt);
    cmd->add_option("--umad2sim", options->umad2sim, "Path of libumad2sim.so for --ibsim")->type_name("FILE");
    cmd->add_option("--ca", options->ca, "With --switches: the local HCA to query from (default: the first with an active port)")
        ->type_name("DEV")
        ->needs(switchesOpt);
    cmd->add_option("--ca-port", options->caPort, "With --switches: its port")->check(CLI::Range(0, 255))->needs(switchesOpt);
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
                "congested (ECN marks, or XmitWait above the port's baseline), healthy. --switches: per switch, from its own\n"
                "ports' PMA counters (live/client/switch_telemetry.h): erroring, congested (XmitWait), healthy.\n"
                "Exit status: 0 no error findings (pausing and congested are warnings); 1 error findings; 2 bad input;\n"
                "3 could not finish: some agent (or the Prometheus server) gave no counters (what was seen is still printed).\n"
                "--prometheus: one round of instant queries per interval (rate(...[W]) over the agents' series; the\n"
                "PromQL is in live/client/prometheus_source.h); scrape the agents with the targets of `export file-sd`.");
    cmd->callback([cmd, plan, agentsOpt, promOpt, switchesOpt] {
        if (plan->count() == 0 && cmd->get_option("--example")->count() == 0)
            throw CLI::RequiredError("--plan SPEC or --example NAME");
        if (agentsOpt->count() == 0 && promOpt->count() == 0 && switchesOpt->count() == 0)
            throw CLI::RequiredError("--agents FILE, --prometheus URL or --switches");
    });
    return { cmd, [options] { return runLiveWatch(*options); } };
}

} // namespace railyard::app::cli
