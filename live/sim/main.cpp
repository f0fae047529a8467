// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// railyard-sim: the fabric emulator (interfaces.md §4). Command line and wiring only; the work
// is in railyard_live_sim.
#include "core/catalog.h"
#include "core/examples.h"
#include "core/plan_spec.h"
#include "live/sim/agent_farm.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "live/sim/file_writer.h"
#include "live/sim/ibsim_runner.h"
#include "live/sim/nccl_tests_model.h"
#include "live/sim/perftest_tools.h"
#include "live/common/bearer_token.h"
#include "live/common/subprocess.h"
#include "planner/planner.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace railyard;
namespace fs = std::filesystem;

constexpr int kExitOk = 0;
constexpr int kExitBadInput = 2;
constexpr int kExitCouldNotStart = 3;

void printErrors(const core::Errors& errors)
{
    for (const auto& e : errors)
        std::cerr << "railyard-sim: " << e.toString() << '\n';
}

core::Result<std::string> readFile(const fs::path& path, const std::string& what)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return core::Error { "FILE_UNREADABLE", std::string("cannot read the ") + what + ": " + std::strerror(errno), path.string(),
            "check the path" };
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The token from `path` (first line), or a new random one written there with mode 0600.
core::Result<std::string> loadOrCreateToken(const fs::path& path)
{
    std::error_code ec;
    if (fs::exists(path, ec)) {
        auto text = readFile(path, "token file");
        if (!text)
            return text.errors();
        return live::parseBearerToken(*text, path.string());
    }
    unsigned char bytes[24];
    std::ifstream random("/dev/urandom", std::ios::binary);
    if (!random.read(reinterpret_cast<char*>(bytes), sizeof bytes))
        return core::Error { "TOKEN_RANDOM", "cannot read /dev/urandom for a token", path.string(), "give --token-file" };
    std::string token;
    for (unsigned char b : bytes) {
        char buf[4];
        std::snprintf(buf, sizeof buf, "%02x", b);
        token += buf;
    }
    const mode_t old = ::umask(077);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << token << '\n';
    out.close();
    ::umask(old);
    if (!out || ::chmod(path.c_str(), 0600) != 0)
        return core::Error { "TOKEN_WRITE", "cannot write the token file", path.string(), "check that the folder is writable" };
    return token;
}

double cpuSeconds()
{
    rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + 1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/// One agent per node needs a socket each, plus the files read per request.
void raiseFileLimit()
{
    rlimit limit {};
    if (::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        ::setrlimit(RLIMIT_NOFILE, &limit);
    }
}

} // namespace

int main(int argc, char** argv)
{
    // Block the stop signals before any thread starts: the main loop waits for them.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    sigaddset(&stopSignals, SIGINT);
    sigaddset(&stopSignals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    CLI::App app { "railyard-sim: emulates a planned fabric (sysfs trees, counters, faults, ibsim) and serves every node "
                   "through the agent's code" };
    app.set_version_flag("--version", std::string("railyard-sim ") + RAILYARD_VERSION);
    std::string specPath, example, root, faultsPath, listen = "127.0.0.1", traffic = "allreduce", tokenFile;
    std::vector<std::string> catalogFiles;
    double seconds = 0;
    int basePort = 0, updateMs = 1000, slowEvery = 0;
    bool ibsim = false;
    auto* planOpt = app.add_option("--plan", specPath, "Plan spec file (*.plan.json)")->type_name("SPEC");
    app.add_option("--example", example, "Use the built-in example NAME instead of --plan")->type_name("NAME")->excludes(planOpt);
    app.add_option("--catalog", catalogFiles, "Add the parts of a catalog FILE to the built-in catalog (repeatable)")
        ->type_name("FILE");
    app.add_option("--root", root, "Folder for the emulated trees, agents.json and fabric.ibnet")->required()->type_name("DIR");
    app.add_option("--faults", faultsPath, "Faults to inject (JSON list, interfaces.md §4)")->type_name("FILE");
    app.add_option("--listen", listen, "Address the agents listen on")->capture_default_str();
    app.add_option("--base-port", basePort, "Node i listens on P+i (default: any free ports)")->type_name("P")->check(CLI::Range(1, 65535));
    app.add_option("--seconds", seconds, "Stop after N seconds (default: run until SIGINT/SIGTERM)")->type_name("N")->check(CLI::NonNegativeNumber);
    app.add_option("--traffic", traffic, "Traffic model: idle or allreduce")->check(CLI::IsMember({ "idle", "allreduce" }))->capture_default_str();
    app.add_option("--update-ms", updateMs, "Counter update interval in milliseconds")->check(CLI::Range(50, 3600000))->capture_default_str();
    app.add_option("--slow-every", slowEvery,
           "Rewrite the counters other than data and congestion counters (packets, unicast packets, hw_counters request counters, ethtool of uncongested ports) every N updates "
           "(default: 1 up to 256 nodes, 4 above)")
        ->check(CLI::Range(1, 1000));
    app.add_flag("--ibsim", ibsim, "InfiniBand: run ibsim on fabric.ibnet and OpenSM (ftree, else updn) against it");
    app.add_option("--token-file", tokenFile, "Bearer token file (default: DIR/token, created with a random token, mode 0600)")
        ->type_name("FILE");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kExitOk : kExitBadInput;
    }
    if (specPath.empty() == example.empty()) {
        std::cerr << "railyard-sim: give --plan SPEC or --example NAME\n";
        return kExitBadInput;
    }

    // The plan.
    auto catalog = core::Catalog::builtin();
    if (!catalog) {
        printErrors(catalog.errors());
        return kExitBadInput;
    }
    for (const auto& file : catalogFiles) {
        if (auto s = catalog->addFile(file); !s) {
            printErrors(s.errors());
            return kExitBadInput;
        }
    }
    std::string source = specPath;
    core::Result<core::PlanSpec> spec = core::Error { "", "", "", "" };
    if (!example.empty()) {
        const auto found = core::findExample(example);
        if (!found) {
            std::cerr << "railyard-sim: --example: no built-in example called '" << example
                      << "' (railyard-cli plan --list-examples lists them)\n";
            return kExitBadInput;
        }
        source = "examples/" + example + ".plan.json";
        spec = core::parsePlanSpecText(found->content, source);
    } else {
        auto text = readFile(specPath, "spec");
        if (!text) {
            printErrors(text.errors());
            return kExitBadInput;
        }
        spec = core::parsePlanSpecText(*text, specPath);
    }
    if (!spec) {
        printErrors(spec.errors());
        return kExitBadInput;
    }
    auto plan = planner::makePlan(*spec, *catalog);
    if (!plan) {
        printErrors(plan.errors());
        return kExitBadInput;
    }
    for (const auto& f : plan->findings)
        if (f.severity == core::Severity::Error)
            std::cerr << "railyard-sim: warning: the plan has an error finding, emulated as planned: " << f.code << ": "
                      << f.message << '\n';
    if (ibsim && plan->spec.fabric != core::Fabric::InfiniBand) {
        std::cerr << "railyard-sim: --ibsim: the plan is RoCEv2; ibsim emulates InfiniBand subnets only (RoCE cabling "
                     "comes from the nodes' LLDP files)\n";
        return kExitBadInput;
    }

    std::vector<live::Fault> faults;
    if (!faultsPath.empty()) {
        auto parsed = live::readFaultsFile(faultsPath, *plan);
        if (!parsed) {
            printErrors(parsed.errors());
            return kExitBadInput;
        }
        faults = std::move(*parsed);
    }

    live::EmulatorOptions options;
    options.root = fs::absolute(root);
    options.traffic = traffic == "idle" ? live::TrafficKind::Idle : live::TrafficKind::AllReduce;
    options.slowEvery = slowEvery > 0 ? slowEvery : (plan->summary.nodes > 256 ? 4 : 1);
    const std::vector<live::Fault> faultList = faults; // the nccl-tests stand-in's fabric file needs them too
    auto emulator = live::FabricEmulator::create(*plan, *catalog, std::move(faults), options);
    if (!emulator) {
        printErrors(emulator.errors());
        return kExitBadInput;
    }
    auto& sim = **emulator;
    const auto writeStart = std::chrono::steady_clock::now();
    if (auto s = sim.writeTree(); !s) {
        printErrors(s.errors());
        return kExitCouldNotStart;
    }
    const double writeSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - writeStart).count();

    // Token and agents.
    const fs::path tokenPath = tokenFile.empty() ? options.root / "token" : fs::absolute(tokenFile);
    auto token = loadOrCreateToken(tokenPath);
    if (!token) {
        printErrors(token.errors());
        return tokenFile.empty() ? kExitCouldNotStart : kExitBadInput;
    }

    live::IbsimRunner ibsimRunner;
    live::FarmOptions farmOptions;
    if (ibsim) {
        auto subnet = ibsimRunner.start(sim.ibnetPath(), options.root);
        if (!subnet) {
            printErrors(subnet.errors());
            return kExitCouldNotStart;
        }
        farmOptions.opensmLog = subnet->opensmLog;
        std::cout << "railyard-sim: ibsim serves " << sim.ibnetPath().string() << " (IBSIM_SOCKNAME=" << subnet->sockName
                  << ", LD_PRELOAD=" << subnet->umad2sim.string() << "; both in " << subnet->envFile.string()
                  << "); OpenSM routing engine " << subnet->routingEngine << '\n';
        if (!subnet->note.empty())
            std::cout << "railyard-sim: " << subnet->note << '\n';
    }

    // perftest for `live test` through the agents: DIR/tools/ib_write_bw etc., links to the stand-in
    // next to this program (POST /v1/tests starts DIR/tools/<program>).
    const fs::path toolsDir = options.root / "tools";
    std::error_code selfError;
    const fs::path self = fs::read_symlink("/proc/self/exe", selfError);
    const fs::path perftestEmulator = selfError ? fs::path() : live::perftestEmulatorNextTo(self);
    if (perftestEmulator.empty()) {
        std::cerr << "railyard-sim: warning: no " << live::kPerftestEmulatorName << " next to "
                  << (selfError ? std::string("this program") : self.string())
                  << ": the agents' tests (live test --launcher agent) will not find perftest in " << toolsDir.string()
                  << " (build the railyard-perftest-emu target)" << std::endl;
    } else if (auto s = live::writePerftestTools(toolsDir, perftestEmulator); !s) {
        for (const auto& e : s.errors())
            std::cerr << "railyard-sim: warning: " << e.toString() << '\n';
    }
    // nccl-tests for `live test --kind allreduce`: DIR/tools/all_reduce_perf etc. and the ssh through
    // which mpirun reaches the emulated nodes, links to the stand-in next to this program; mpirun,
    // Open MPI's, for the agents' launcher; and the fabric facts the stand-in cannot read from a node.
    const fs::path ncclEmulator = selfError ? fs::path() : live::emulatorToolNextTo(self, live::kNcclTestsEmulatorName);
    if (ncclEmulator.empty()) {
        std::cerr << "railyard-sim: warning: no " << live::kNcclTestsEmulatorName << " next to "
                  << (selfError ? std::string("this program") : self.string()) << ": `live test --kind allreduce` will not find nccl-tests in "
                  << toolsDir.string() << " (build the railyard-nccl-tests-emu target)" << std::endl;
    } else if (auto s = live::writeNcclTestsTools(toolsDir, ncclEmulator, live::findProgram("mpirun")); !s) {
        for (const auto& e : s.errors())
            std::cerr << "railyard-sim: warning: " << e.toString() << '\n';
    }
    if (auto s = live::writeNcclEmuFabric(toolsDir / "nccl-tests-fabric.json",
            live::ncclEmuFabricOf(sim.cabledPlan(), faultList, sim.nodes().empty() ? std::vector<std::string>() : sim.nodes().front().railMap));
        !s)
        for (const auto& e : s.errors())
            std::cerr << "railyard-sim: warning: " << e.toString() << '\n';
    farmOptions.toolsDir = toolsDir;

    raiseFileLimit();
    farmOptions.listenAddress = listen;
    farmOptions.basePort = basePort;
    farmOptions.token = *token;
    farmOptions.threadsPerAgent = plan->summary.nodes > 64 ? 1 : 2;
    live::AgentFarm farm;
    if (auto s = farm.start(sim.nodes(), farmOptions); !s) {
        printErrors(s.errors());
        return kExitCouldNotStart;
    }
    const fs::path agentsPath = options.root / "agents.json";
    const std::string tokenRef = tokenFile.empty() ? std::string("token") : tokenPath.string();
    if (auto s = live::writeAgentsJson(agentsPath, tokenRef, farm.listings()); !s) {
        printErrors(s.errors());
        return kExitCouldNotStart;
    }
    const auto [lo, hi] = std::minmax_element(farm.ports().begin(), farm.ports().end());
    std::cout << "railyard-sim: " << sim.nodes().size() << " nodes serving on " << listen << ":" << *lo << "-" << *hi
              << "; agents: " << agentsPath.string() << std::endl;
    std::cerr << "railyard-sim: " << sim.portCount() << " ports; tree written in " << writeSeconds << " s; traffic " << traffic
              << ", update every " << updateMs << " ms" << std::endl;

    // Update loop until --seconds or a stop signal.
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto interval = std::chrono::milliseconds(updateMs);
    auto next = start + interval;
    auto last = start;
    const double cpuStart = cpuSeconds();
    double updateCpu = 0;
    std::size_t updates = 0, files = 0;
    int exitCode = kExitOk;
    for (;;) {
        const auto now = Clock::now();
        if (seconds > 0 && now - start >= std::chrono::duration<double>(seconds))
            break;
        auto wake = next;
        if (seconds > 0)
            wake = std::min(wake, start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)));
        const auto wait = std::max(Clock::duration::zero(), wake - now);
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count();
        timespec timeout { static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000) };
        const int sig = ::sigtimedwait(&stopSignals, nullptr, &timeout);
        if (sig == SIGINT || sig == SIGTERM)
            break;
        if (Clock::now() < next)
            continue;
        const auto t = Clock::now();
        const double c0 = cpuSeconds();
        auto stats = sim.update(std::chrono::duration<double>(t - last).count());
        updateCpu += cpuSeconds() - c0;
        last = t;
        if (!stats) {
            printErrors(stats.errors());
            exitCode = kExitCouldNotStart;
            break;
        }
        ++updates;
        files += stats->filesWritten;
        // The switch ports' PMA counters move with the traffic (perfquery, `live watch --switches`).
        if (ibsim) {
            if (auto pushed = ibsimRunner.setPortCounters(live::ibsimPortCounters(sim.cabledPlan(), sim.switchPortCounters()));
                !pushed) {
                printErrors(pushed.errors());
                exitCode = kExitCouldNotStart;
                break;
            }
        }
        next += interval;
        if (next < Clock::now())
            next = Clock::now() + interval; // fell behind: skip, never pile up
    }
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    const double cpu = cpuSeconds() - cpuStart;
    farm.stop();
    ibsimRunner.stop();
    std::cerr << "railyard-sim: stopped after " << updates << " updates in " << wall << " s; " << files << " files written; CPU "
              << (wall > 0 ? 100.0 * cpu / wall : 0.0) << "% of one core (updates alone "
              << (updates ? 1000.0 * updateCpu / static_cast<double>(updates) : 0.0) << " ms CPU each)" << std::endl;
    return exitCode;
}
