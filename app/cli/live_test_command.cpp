// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `railyard-cli live test`: pairwise GPUDirect bandwidth tests through the agents, judged against
// the plan and narrowed down to the bad port or uplinks; nccl-tests through mpirun, srun or the first
// node's agent, judged against the plan and explained (live/client/collective_runner.h).
#include "app/cli/commands.h"

#include "core/text.h"

#include "app/cli/agents_input.h"
#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/stop_signal.h"
#include "app/cli/output_file.h"
#include "app/cli/run_store.h"
#include "live/client/collective_runner.h"
#include "live/client/ib_routes.h"
#include "live/client/test_runner.h"
#include "live/common/umad2sim.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <system_error>

#include <unistd.h>

namespace railyard::app::cli {

namespace {

    struct LiveTestOptions {
        InputOptions input;
        std::string agentsFile;
        std::string tokenFile;
        std::string kind = "write_bw";
        std::string launcher = "agent";
        bool spinePaths = false;
        bool routes = false; ///< --spine-paths on InfiniBand: read the subnet's forwarding tables from this host
        bool ibsim = false;  ///< ... from the subnet ibsim simulates (libumad2sim)
        std::string umad2sim;
        std::string ca;
        int caPort = 0;
        std::vector<std::string> nodes;
        std::string size = "1M";
        bool allSizes = false;
        int qps = 1;
        bool bidirectional = false;
        bool dmabuf = false;
        double lowPercent = 75;
        int timeoutS = 120;
        int requestTimeoutMs = 5000;
        bool json = false;
        bool dryRun = false;
        std::optional<int> isolateRail;
        // nccl-tests
        bool perRail = false;
        std::string minBytes = "8", maxBytes = "8G";
        int iters = 20, warmupIters = 5;
        std::string rshAgent;
        std::string bindTo = "numa";
        bool allowRunAsRoot = false;
        std::string workDir;
        std::string out;
        std::string project; ///< store the run (RunStore)
    };

    // The stored runs' statuses are the CLI's exit codes (live/client/run_results.h).
    static_assert(live::kRunOk == kExitOk && live::kRunFindings == kExitFindings && live::kRunIncomplete == kExitIncomplete);


    live::NcclTestsParams ncclParams(const LiveTestOptions& options)
    {
        live::NcclTestsParams params;
        params.tool = live::ncclTestsToolOf(options.kind);
        params.launcher = options.launcher == "srun" ? "srun" : "mpirun";
        params.isolateRail = options.isolateRail;
        params.nodes = options.nodes;
        params.minBytes = options.minBytes;
        params.maxBytes = options.maxBytes;
        params.iters = options.iters;
        params.warmupIters = options.warmupIters;
        if (params.launcher == "mpirun") {
            params.rshAgent = options.rshAgent;
            params.bindTo = options.bindTo;
            // Open MPI refuses root without it; an agent runs as its own user, so only a launch from here asks.
            params.allowRunAsRoot = options.allowRunAsRoot || (options.launcher == "mpirun" && ::geteuid() == 0);
        }
        return params;
    }

    void printCollective(const live::CollectiveTestReport& report)
    {
        for (const live::CollectiveRunOutcome& run : report.runs) {
            std::cout << report.tool << " on " << (run.rail ? "rail " + std::to_string(*run.rail) : std::string("all rails")) << ": ";
            const live::CollectiveModel& m = run.model;
            if (!m.rows.empty()) {
                const live::ModelledCollectiveRow& best = *std::max_element(m.rows.begin(), m.rows.end(),
                    [](const auto& a, const auto& b) { return a.busbwGBs < b.busbwGBs; });
                std::cout << "busbw " << core::formatFixed(best.busbwGBs, 2) << " GB/s at " << best.bytes << " B, net_bw "
                          << core::formatFixed(best.netGBs, 2) << " GB/s per node";
                if (m.boundBusbwGBs)
                    std::cout << ", bound " << core::formatFixed(*m.boundBusbwGBs, 2) << " GB/s busbw (" << core::formatFixed(best.percentOfBound, 0)
                              << " %)";
            } else {
                std::cout << "no sizes measured";
            }
            std::cout << "; verdict " << m.verdict.status << (run.ok() ? "" : " (run failed or stopped)") << '\n';
        }
        for (const core::Finding& f : report.findings)
            std::cout << "  " << core::toString(f.severity) << ' ' << f.code << (f.where.empty() ? "" : " [" + f.where + "]") << ": " << f.message << '\n';
        if (report.findings.empty())
            std::cout << "no findings: the collective delivers what the plan's NICs allow\n";
    }

    int runAllReduce(const LiveTestOptions& options, const core::Plan& plan, const core::Catalog& catalog)
    {
        live::NcclTestsParams params = ncclParams(options);
        if (params.nodes.empty())
            for (const core::Device& d : plan.devices)
                if (d.kind == core::DeviceKind::Node && d.installed)
                    params.nodes.push_back(d.name);
        params.hostList = options.launcher == "agent" && params.launcher == "mpirun";
        if (options.dryRun) {
            auto launch = live::ncclTestsLaunch(plan, catalog, params);
            if (!launch) {
                printErrors(launch.errors());
                return kExitBadInput;
            }
            if (options.json) {
                nlohmann::json env = nlohmann::json::object();
                for (const auto& [k, v] : launch->launcher.env)
                    env[k] = v;
                std::cout << nlohmann::json { { "program", launch->launcher.program }, { "args", launch->launcher.args }, { "env", env },
                                 { "hostfile", launch->hostfile }, { "command", live::displayCommand(launch->launcher) } }
                                 .dump(2)
                          << '\n';
            } else {
                if (!launch->hostfile.empty())
                    std::cout << "# " << params.hostfilePath << "\n" << launch->hostfile;
                std::cout << live::displayCommand(launch->launcher) << '\n';
            }
            return kExitOk;
        }

        live::CollectiveTestOptions run;
        run.params = params;
        run.perRail = options.perRail;
        run.viaAgent = options.launcher == "agent";
        // The hostfile is written here only when the launcher runs from here (not through an agent).
        std::error_code folderError;
        run.workDir = !options.workDir.empty() ? std::filesystem::path(options.workDir)
            : run.viaAgent                     ? std::filesystem::path()
                                               : std::filesystem::temp_directory_path(folderError);
        if (folderError) {
            printErrors({ core::Error { "OUTPUT_UNWRITABLE", "no temp folder for the hostfile: " + folderError.message(), "TMPDIR",
                "set TMPDIR to a folder, or give --work-dir DIR" } });
            return kExitBadInput;
        }
        run.timeout = std::chrono::seconds(options.timeoutS);
        run.thresholds.belowPercent = options.lowPercent;
        if (!options.agentsFile.empty()) {
            core::Result<AgentsInput> agents = loadAgents(options.agentsFile, options.tokenFile, options.requestTimeoutMs);
            if (!agents) {
                printErrors(agents.errors());
                return kExitBadInput;
            }
            run.fetch = agents->fetch;
            for (const live::AgentEndpoint& a : agents->agents)
                run.agents[a.node] = a;
        }
        if (!run.viaAgent && !options.workDir.empty()) {
            std::filesystem::create_directories(run.workDir, folderError);
            if (folderError) {
                printErrors({ core::Error { "OUTPUT_UNWRITABLE", "cannot create the folder for the hostfile: " + folderError.message(),
                    options.workDir, "give --work-dir a folder you can write to" } });
                return kExitBadInput;
            }
        }
        StopOnSignal stop;
        run.stop = &stop.flag();
        run.progress = [](const std::string& line) { std::cerr << line << '\n' << std::flush; };
        std::optional<RunStore> runStore = RunStore::open(options.project);
        if (!runStore)
            return kExitBadInput;
        const live::CollectiveTestReport report = live::runCollectiveTest(plan, catalog, run);
        for (const live::CollectiveRunOutcome& r : report.runs)
            if (r.error && r.error->code.rfind("LAUNCH_", 0) == 0) {
                printErrors({ *r.error });
                return kExitBadInput;
            }
        const nlohmann::json doc = live::toJson(report);
        if (!options.out.empty()) {
            if (auto s = writeOutput(options.out, [&doc](std::ostream& o) { o << doc.dump(2) << '\n'; }); !s) {
                printErrors(s.errors());
                return kExitBadInput;
            }
        }
        if (options.json)
            std::cout << doc.dump(2) << '\n';
        else
            printCollective(report);
        std::cout.flush();
        const live::RunSummary summary = live::collectiveRunSummary(report);
        if (!runStore->save(plan.spec.name, options.kind, summary.exitStatus, report.complete, summary.summary, doc))
            return kExitIncomplete;
        return summary.exitStatus;
    }

    /// --spine-paths with --routes or --ibsim on an InfiniBand plan: the subnet's routes, so that the
    /// schedule covers every uplink from them; otherwise (or when they cannot be read) nullptr and
    /// a note: the spine rounds then pair SU against SU.
    std::shared_ptr<const live::SubnetRoutes> subnetRoutes(const LiveTestOptions& options, const core::Plan& plan,
        const core::Catalog& catalog, std::vector<std::string>& notes)
    {
        if (!options.spinePaths || !(options.routes || options.ibsim))
            return nullptr;
        if (plan.spec.fabric != core::Fabric::InfiniBand) {
            notes.push_back("--routes: a RoCEv2 fabric's ECMP paths are chosen per flow by hash, not read from a table; each cross-SU test "
                            "runs enough QPs to cover them");
            return nullptr;
        }
        live::DiscoveryOptions local;
        local.caName = options.ca;
        local.caPort = options.caPort;
        // Per SMP: libibmad's default (--timeout-ms is the agents' HTTP deadline, not a MAD's).
        auto read = live::readSubnetRoutes(plan, catalog, local, notes);
        if (!read) {
            notes.push_back("the subnet's routes could not be read (" + read.error().message + "; " + read.error().hint
                + "): the spine rounds pair SU against SU, and a low pair is narrowed to its leaves' uplinks");
            return nullptr;
        }
        return *read;
    }

    int runLiveTest(const LiveTestOptions& options)
    {
        if (const auto failed = reexecForIbsim(options.ibsim, options.umad2sim, "live test"))
            return *failed;
        std::string source;
        core::Result<core::Catalog> catalog = loadCatalog(options.input);
        if (!catalog) {
            printErrors(catalog.errors());
            return kExitBadInput;
        }
        core::Result<core::Plan> plan = planInput(options.input, source);
        if (!plan) {
            printErrors(plan.errors(), source);
            return kExitBadInput;
        }
        if (live::isCollectiveKind(options.kind))
            return runAllReduce(options, *plan, *catalog);
        if (options.launcher != "agent") {
            std::cerr << "error: --kind " << options.kind << " runs through the agents (--launcher agent)\n";
            return kExitBadInput;
        }

        live::BandwidthTestOptions test;
        test.schedule.spinePaths = options.spinePaths;
        test.schedule.nodes = options.nodes;
        test.base.tool = "ib_" + options.kind;
        test.base.allSizes = options.allSizes;
        if (!options.allSizes) {
            auto size = live::parseByteSize("--size", options.size);
            if (!size) {
                printErrors(size.errors());
                return kExitBadInput;
            }
            test.base.size = *size;
        }
        test.base.qps = options.qps;
        test.base.bidirectional = options.bidirectional;
        test.base.dmabuf = options.dmabuf;
        test.lowPercent = options.lowPercent;
        std::vector<std::string> routeNotes;
        const std::shared_ptr<const live::SubnetRoutes> routes = subnetRoutes(options, *plan, *catalog, routeNotes);
        live::KnownRoutes known;
        if (routes) {
            known = live::knownRoutes(routes);
            test.schedule.routes = &known;
        }

        if (options.dryRun) {
            auto schedule = live::schedulePairs(*plan, test.schedule);
            if (!schedule) {
                printErrors(schedule.errors());
                return kExitBadInput;
            }
            schedule->notes.insert(schedule->notes.begin(), routeNotes.begin(), routeNotes.end());
            if (options.json) {
                std::cout << live::toJson(*schedule).dump(2) << '\n';
                return kExitOk;
            }
            for (const live::ScheduleRound& r : schedule->rounds) {
                std::cout << "# round: " << r.purpose << ", " << r.tests.size() << " tests at once\n";
                for (const live::PairTest& t : r.tests) {
                    live::PerftestParams p = test.base;
                    p.qps = std::max(p.qps, t.qps);
                    auto inv = live::perftestRailPair(*plan, *catalog, t.server, t.client, t.rail, p);
                    if (!inv) {
                        printErrors(inv.errors());
                        return kExitBadInput;
                    }
                    std::cout << t.server << ": " << live::displayCommand((*inv)[0]) << '\n'
                              << t.client << ": " << live::displayCommand((*inv)[1]) << '\n';
                    if (!t.route.empty()) {
                        std::cout << "#   route " << t.client << "/nic" << t.rail << " ->";
                        for (const std::string& port : t.route)
                            std::cout << ' ' << port;
                        std::cout << " -> " << t.serverLeaf << '\n';
                    }
                }
            }
            for (const std::string& n : schedule->notes)
                std::cout << "# " << n << '\n';
            return kExitOk;
        }

        core::Result<AgentsInput> agents = loadAgents(options.agentsFile, options.tokenFile, options.requestTimeoutMs);
        if (!agents) {
            printErrors(agents.errors());
            return kExitBadInput;
        }
        std::map<std::string, live::AgentEndpoint> agentOf;
        for (const live::AgentEndpoint& a : agents->agents)
            agentOf[a.node] = a;

        live::TestRunOptions run;
        run.fetch = agents->fetch;
        run.testTimeout = std::chrono::seconds(options.timeoutS);
        StopOnSignal stop;
        run.stop = &stop.flag();
        std::ostream& progress = options.json ? std::cerr : std::cout;
        run.progress = [&progress](const std::string& line) { progress << line << '\n' << std::flush; };
        for (const std::string& n : routeNotes)
            progress << "note: " << n << '\n';
        std::optional<RunStore> runStore = RunStore::open(options.project);
        if (!runStore)
            return kExitBadInput;
        live::BandwidthTestReport report = live::runBandwidthTest(*plan, *catalog, agentOf, test, run);
        report.schedule.notes.insert(report.schedule.notes.begin(), routeNotes.begin(), routeNotes.end());

        const nlohmann::json doc = live::bandwidthTestDocument(report);
        std::size_t tests = 0, low = 0;
        for (const auto& round : report.rounds)
            for (const live::PairOutcome& o : round) {
                ++tests;
                if (o.gbps && *o.gbps < report.lowGbps)
                    ++low;
            }
        if (options.json) {
            std::cout << doc.dump(2) << '\n';
        } else {
            std::cout << "ib_" << options.kind << ": " << tests << " tests in " << report.rounds.size() << " rounds, " << low
                      << " below " << core::formatFixed(report.lowGbps) << " Gb/s (" << core::formatFixed(options.lowPercent, 0) << " % of the plan's "
                      << core::formatFixed(report.boundGbps) << " Gb/s)\n";
            if (report.schedule.links > 0)
                std::cout << "spine paths from the subnet's routes: " << report.schedule.linksCovered << " of " << report.schedule.links
                          << " inter-switch ports on a test's route, in " << report.schedule.pathRounds << " rounds (lower bound "
                          << report.schedule.pathLowerBound << ")\n";
            for (const core::Finding& f : report.findings)
                std::cout << "  " << core::toString(f.severity) << ' ' << f.code << ": " << f.message << '\n';
            if (report.findings.empty())
                std::cout << "no findings: every rail of every pair delivers what the plan promises\n";
        }
        std::cout.flush();
        const live::RunSummary summary = live::bandwidthRunSummary(options.kind, report);
        if (!runStore->save(plan->spec.name, options.kind, summary.exitStatus, report.complete, summary.summary, doc))
            return kExitIncomplete;
        return summary.exitStatus;
    }

} // namespace

Command addLiveTestCommand(CLI::App& live)
{
    auto options = std::make_shared<LiveTestOptions>();
    CLI::App* cmd = live.add_subcommand("test", "Pairwise GPUDirect bandwidth tests through the agents (or an nccl-tests launch)");
    CLI::Option* plan = cmd->add_option("--plan", options->input.specPath, "Plan spec file (*.plan.json)")->type_name("SPEC");
    cmd->add_option("--example", options->input.example, "Use the built-in example NAME as the plan")->type_name("NAME")->excludes(plan);
    cmd->add_option("--catalog", options->input.catalogFiles, "Add the parts of a catalog FILE to the built-in catalog (repeatable)")
        ->type_name("FILE")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_option("--agents", options->agentsFile, "The agents that start the tests (agents.json)")->type_name("FILE");
    cmd->add_option("--token-file", options->tokenFile, "Bearer token of the agents (overrides token_file in agents.json)")->type_name("FILE");
    cmd->add_option("--kind", options->kind, "The test")
        ->check(CLI::IsMember({ "write_bw", "read_bw", "allreduce", "allgather", "all_gather", "reduce_scatter" }))
        ->capture_default_str();
    cmd->add_option("--launcher", options->launcher,
           "agent (perftest pairs; nccl-tests: the first node's agent starts mpirun), mpirun or srun (nccl-tests, started here)")
        ->check(CLI::IsMember({ "agent", "mpirun", "srun" }))
        ->capture_default_str();
    CLI::Option* spineOpt = cmd->add_flag("--spine-paths", options->spinePaths, "Also cover every leaf-to-spine (and spine-to-core) path");
    CLI::Option* routesOpt = cmd->add_flag("--routes", options->routes,
        "With --spine-paths on InfiniBand: read the subnet's forwarding tables from this host and choose the pairs from the routes")
        ->needs(spineOpt);
    CLI::Option* ibsimOpt = cmd->add_flag("--ibsim", options->ibsim,
        "As --routes, from the subnet ibsim simulates (railyard-sim --ibsim; IBSIM_SOCKNAME)")
        ->needs(spineOpt);
    cmd->add_option("--umad2sim", options->umad2sim, "Path of libumad2sim.so for --ibsim")->type_name("FILE")->needs(ibsimOpt);
    cmd->add_option("--ca", options->ca, "With --routes: the local HCA to query from (default: the first with an active port)")
        ->type_name("NAME")
        ->needs(routesOpt);
    cmd->add_option("--ca-port", options->caPort, "With --routes: its port")->check(CLI::Range(0, 255))->needs(routesOpt);
    cmd->add_option("--nodes", options->nodes, "Test these nodes only (plan names, comma separated)")->delimiter(',')->type_name("NODE,...");
    cmd->add_option("--size", options->size, "Message size (K, M, G suffixes)")->capture_default_str();
    cmd->add_flag("--all-sizes", options->allSizes, "Sweep every size from 2 bytes to 8 MiB (perftest -a)");
    cmd->add_option("--qps", options->qps, "Queue pairs per test (RoCEv2 spine paths get enough for ECMP anyway)")
        ->check(CLI::Range(1, 64))
        ->capture_default_str();
    cmd->add_flag("--bidirectional", options->bidirectional, "Load both directions (perftest -b)");
    cmd->add_flag("--dmabuf", options->dmabuf, "GPU memory through dma-buf (--use_cuda_dmabuf) instead of nvidia-peermem");
    cmd->add_option("--low-percent", options->lowPercent, "A test below this % of the plan's bound is low")
        ->check(CLI::Range(1.0, 100.0))
        ->capture_default_str();
    cmd->add_option("--isolate-rail", options->isolateRail, "nccl-tests: use only this rail's NIC (NCCL_IB_HCA)")->check(CLI::NonNegativeNumber);
    cmd->add_flag("--per-rail", options->perRail, "nccl-tests: one run per rail (NCCL_IB_HCA = that rail's NIC only), a verdict per rail");
    cmd->add_option("--min-bytes", options->minBytes, "nccl-tests: smallest size (-b)")->capture_default_str();
    cmd->add_option("--max-bytes", options->maxBytes, "nccl-tests: largest size (-e)")->capture_default_str();
    cmd->add_option("--iters", options->iters, "nccl-tests: iterations per size (-n)")->check(CLI::Range(1, 1000000))->capture_default_str();
    cmd->add_option("--warmup-iters", options->warmupIters, "nccl-tests: warm-up iterations (-w)")->check(CLI::Range(0, 1000000))->capture_default_str();
    cmd->add_option("--rsh-agent", options->rshAgent,
           "mpirun: reach the nodes with this program instead of ssh (--mca plm_rsh_agent; the emulator's DIR/tools/railyard-emu-ssh)")
        ->type_name("PATH");
    cmd->add_option("--bind-to", options->bindTo, "mpirun: --bind-to policy (none on the emulator: its nodes share this machine's cores)")
        ->capture_default_str();
    cmd->add_flag("--allow-run-as-root", options->allowRunAsRoot, "mpirun: --allow-run-as-root (added anyway when started here as root)");
    cmd->add_option("--work-dir", options->workDir, "nccl-tests: where the generated hostfile is written (default: the temp folder)")->type_name("DIR");
    cmd->add_option("--out", options->out, "nccl-tests: write the JSON result to FILE as well")->type_name("FILE");
    cmd->add_option("--timeout-s", options->timeoutS, "Each test's time limit")->check(CLI::Range(5, 86400))->capture_default_str();
    cmd->add_option("--timeout-ms", options->requestTimeoutMs, "Deadline of each agent request")->check(CLI::Range(1, 600000))->capture_default_str();
    cmd->add_flag("--dry-run", options->dryRun, "Print the schedule and every command line; run nothing");
    cmd->add_flag("--json", options->json, "Print the rounds, every test's result and the findings as JSON");
    cmd->add_option("--project", options->project, "Also store the run and its results in this project file (created when missing)")
        ->type_name("FILE");
    cmd->footer("perftest pairs run GPU k with NIC k of two nodes on the same rail, every rail in parallel, no NIC in two tests\n"
                "at once; low results are narrowed down to a node port or a leaf's uplinks, with a retest round when two\n"
                "suspects need telling apart. --spine-paths --routes (InfiniBand; --ibsim on the emulator) reads every switch's\n"
                "forwarding table, picks the pairs whose routes cover every leaf uplink and spine downlink, and names the uplink\n"
                "on a low pair's route. Ctrl+C cancels: every test of the round is stopped on every node.\n"
                "nccl-tests (allreduce, all_gather, reduce_scatter) run through mpirun or srun started here, or mpirun started by\n"
                "the first node's agent (--launcher agent); busbw per size is judged against the bound of the plan's NICs, and a\n"
                "low or failed run is explained from NCCL's log, the agents' counters before and after, and their ports\n"
                "(--agents). On the emulator: --rsh-agent DIR/tools/railyard-emu-ssh --bind-to none. Ctrl+C stops the run and\n"
                "its whole process group; the sizes measured are kept.\n"
                "Exit status: 0 no error findings; 1 error findings (low bandwidth); 2 bad input; 3 could not finish\n"
                "(a test failed, an agent did not answer, cancelled).");
    cmd->callback([cmd, plan, options] {
        if (plan->count() == 0 && cmd->get_option("--example")->count() == 0)
            throw CLI::RequiredError("--plan SPEC or --example NAME");
        const bool perftest = live::isBandwidthKind(options->kind);
        if ((perftest || options->launcher == "agent") && !options->dryRun && options->agentsFile.empty())
            throw CLI::RequiredError("--agents FILE");
    });
    return { cmd, [options] { return runLiveTest(*options); } };
}

} // namespace railyard::app::cli
