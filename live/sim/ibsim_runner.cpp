// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/ibsim_runner.h"

#include "live/common/subprocess.h"
#include "live/common/umad2sim.h"
#include "live/node/host_sources.h"
#include "live/sim/file_writer.h"
#include "planner/exporters.h"

#include <algorithm>
#include <cstdio>
#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include <poll.h>

#include <unistd.h>

namespace railyard::live {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

    std::string readText(const fs::path& path)
    {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    /// ibsim and OpenSM: in their own process groups, stdout and stderr to `log`. The emulator
    /// blocks SIGINT/SIGTERM to wait for them; the children get the defaults.
    std::unique_ptr<ChildProcess> startChild(
        const std::vector<std::string>& argv, std::map<std::string, std::string> env, const fs::path& log)
    {
        return std::make_unique<ChildProcess>(
            argv, SpawnOptions { .env = std::move(env), .log = log, .ownProcessGroup = true, .defaultSignals = true });
    }

    /// ibsim's table sizes for the file (its defaults hold 2048 nodes and 256 switches).
    std::vector<std::string> sizeArgs(const std::string& ibnet)
    {
        long long switches = 0, adapters = 0, ports = 0;
        std::istringstream in(ibnet);
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("Switch", 0) == 0)
                ++switches;
            else if (line.rfind("Ca", 0) == 0)
                ++adapters;
            else if (line.rfind("[", 0) == 0)
                ++ports;
        }
        return { "-N", std::to_string(std::max(2048LL, switches + adapters + 16)), "-S", std::to_string(std::max(256LL, switches + 4)),
            "-P", std::to_string(std::max(13312LL, ports + switches + adapters + 64)) };
    }

} // namespace

struct IbsimRunner::Impl {
    std::unique_ptr<ChildProcess> ibsim;
    std::unique_ptr<ChildProcess> opensm; // declared last: destroyed (ended) before ibsim
    std::thread drain;                    // copies ibsim's console output to its log
    std::atomic<bool> draining { false };
    std::atomic<std::size_t> refused { 0 };
    std::map<std::pair<std::string, int>, IbsimPortCounters> sent; // what ibsim holds now

    /// Reads ibsim's output until it ends (or `draining` is cleared) into `log`, leaving out the
    /// acknowledgement of every PerformanceSet ("... has been set to N") and counting refusals.
    void drainOutput(const fs::path& log)
    {
        std::ofstream out(log, std::ios::binary | std::ios::trunc);
        std::string pending;
        auto emit = [&](std::string_view line) {
            if (line.find("has been set to") != std::string_view::npos)
                return;
            // ibsim's console answers a command it cannot carry out with a comment line:
            // "# nodeid ... not found", "# field not found in command", "# attribute ... not
            // found", "# command does not match: ...", "# bad port number ...".
            if (line.starts_with("# ")
                && (line.find("not found") != std::string_view::npos || line.find("does not match") != std::string_view::npos
                    || line.find("bad ") != std::string_view::npos))
                ++refused;
            out << line << '\n';
            out.flush(); // waitForText reads the log while ibsim starts
        };
        while (draining) {
            pollfd pfd { ibsim->outputFd(), POLLIN, 0 };
            if (pfd.fd < 0)
                break;
            if (::poll(&pfd, 1, 100) <= 0)
                continue;
            if (ibsim->readOutput(pending) == 0 && ibsim->outputFd() < 0)
                break;
            std::size_t start = 0;
            for (std::size_t nl; (nl = pending.find('\n', start)) != std::string::npos; start = nl + 1) {
                std::string_view line(pending.data() + start, nl - start);
                // The console prompt ("sim> ") precedes each answer on the same line.
                while (line.starts_with("sim> "))
                    line.remove_prefix(5);
                emit(line);
            }
            pending.erase(0, start);
            // A prompt alone, waiting for input: not a line yet, but the log should show it.
            if (pending == "sim> ")
                pending.clear();
        }
        if (!pending.empty())
            emit(pending);
    }

    void stopDrain()
    {
        draining = false;
        if (drain.joinable())
            drain.join();
    }
};

IbsimRunner::IbsimRunner()
    : m_impl(std::make_unique<Impl>())
{
}

IbsimRunner::~IbsimRunner()
{
    stop();
}

void IbsimRunner::stop()
{
    // OpenSM first (it talks to ibsim), then ibsim.
    if (m_impl->opensm)
        m_impl->opensm->stop();
    if (m_impl->ibsim)
        m_impl->ibsim->stop();
    m_impl->stopDrain();
    m_impl->opensm.reset();
    m_impl->ibsim.reset();
    m_impl->sent.clear();
}

core::Result<IbsimSubnet> IbsimRunner::start(const fs::path& ibnet, const fs::path& workDir)
{
    stop();
    const std::string ibsim = findProgram("ibsim");
    const std::string opensm = findProgram("opensm");
    const auto umad2sim = findUmad2sim();
    std::string missing;
    if (ibsim.empty())
        missing += "ibsim (Debian package ibsim-utils)";
    if (opensm.empty())
        missing += std::string(missing.empty() ? "" : ", ") + "opensm (Debian package opensm)";
    if (!umad2sim)
        missing += std::string(missing.empty() ? "" : ", ") + "libumad2sim.so (Debian package libumad2sim0)";
    if (!missing.empty())
        return core::Error { "SIM_IBSIM", "cannot run the emulated subnet: not installed: " + missing, "--ibsim",
            "install the packages, or run without --ibsim" };
    if (auto s = makeDirs(workDir / "opensm-cache"); !s)
        return s.errors();

    IbsimSubnet subnet;
    subnet.sockName = "railyard-sim-" + std::to_string(::getpid()) + "-"
        + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count() % 1000000007);
    subnet.umad2sim = *umad2sim;
    subnet.opensmLog = workDir / "opensm.log";
    subnet.envFile = workDir / "ibsim.env";

    // -s: start the simulation at once; the console (stdin) stays open for PerformanceSet.
    std::vector<std::string> argv { ibsim, "-s" };
    for (auto& a : sizeArgs(readText(ibnet)))
        argv.push_back(std::move(a));
    argv.push_back(ibnet.string());
    const fs::path ibsimLog = workDir / "ibsim.log";
    m_impl->ibsim = std::make_unique<ChildProcess>(argv,
        SpawnOptions { .env = { { "IBSIM_SOCKNAME", subnet.sockName } }, .log = {}, .ownProcessGroup = true,
            .defaultSignals = true, .capture = true, .inputPipe = true });
    if (!m_impl->ibsim->started())
        return core::Error { "SIM_IBSIM", m_impl->ibsim->error(), "--ibsim", "" };
    m_impl->refused = 0;
    m_impl->draining = true;
    m_impl->drain = std::thread([impl = m_impl.get(), ibsimLog] { impl->drainOutput(ibsimLog); });
    if (!waitForText(*m_impl->ibsim, ibsimLog, "Network simulator ready", 60s)) {
        stop();
        return core::Error { "SIM_IBSIM", "ibsim did not load the fabric", ibsimLog.string(), "read the log" };
    }

    std::map<std::string, std::string> env { { "IBSIM_SOCKNAME", subnet.sockName }, { "LD_PRELOAD", umad2sim->string() },
        { "OSM_CACHE_DIR", (workDir / "opensm-cache").string() }, { "OSM_TMP_DIR", workDir.string() } };
    // OpenSM tries the engines in order: ftree for a fat-tree, updn when ftree cannot route it.
    // -e starts a fresh log, -d2 flushes it after each message (we wait for "SUBNET UP" in it).
    m_impl->opensm = startChild(
        { opensm, "-R", "ftree,updn", "-e", "-d2", "-f", subnet.opensmLog.string() }, std::move(env), workDir / "opensm.out");
    if (!m_impl->opensm->started()) {
        stop();
        return core::Error { "SIM_IBSIM", m_impl->opensm->error(), "--ibsim", "" };
    }
    if (!waitForText(*m_impl->opensm, subnet.opensmLog, "SUBNET UP", 120s)) {
        stop();
        return core::Error { "SIM_IBSIM", "OpenSM did not bring the emulated subnet up", subnet.opensmLog.string(),
            "read the log (and " + (workDir / "opensm.out").string() + ")" };
    }
    subnet.routingEngine = parseOpensmRoutingEngine(readText(subnet.opensmLog));
    if (subnet.routingEngine != "ftree")
        subnet.note = "ftree could not route this fabric; OpenSM fell back to "
            + (subnet.routingEngine.empty() ? std::string("its default engine") : subnet.routingEngine) + " (see "
            + subnet.opensmLog.string() + ")";
    AtomicWriter writer(workDir / ".tmp");
    if (auto s = writer.write(subnet.envFile.string(),
            "IBSIM_SOCKNAME=" + subnet.sockName + "\nLD_PRELOAD=" + umad2sim->string() + "\n");
        !s) {
        stop();
        return s.errors();
    }
    return subnet;
}

std::vector<IbsimPortCounters> ibsimPortCounters(
    const core::Plan& plan, const std::vector<SwitchPortCounters>& ports, int plane)
{
    std::vector<IbsimPortCounters> out;
    out.reserve(ports.size());
    const bool planes = std::max({ 1, plan.spec.planes, plan.summary.planes }) > 1;
    std::map<std::uint32_t, std::string> ids;
    for (const auto& p : ports) {
        if (p.device >= plan.devices.size())
            continue;
        const auto& dev = plan.devices[p.device];
        if (planes && dev.plane != plane)
            continue;
        auto [it, fresh] = ids.try_emplace(p.device);
        if (fresh) {
            char guid[24];
            std::snprintf(guid, sizeof guid, "%016llx",
                static_cast<unsigned long long>(planner::ibnetdiscoverGuid(plan, { p.device, 0, 0 }, plane)));
            it->second = std::string("S-") + guid;
        }
        out.push_back({ it->second, p.port, p.xmitBytes / 4, p.rcvBytes / 4, p.xmitPkts, p.rcvPkts,
            static_cast<std::uint32_t>(std::min<std::uint64_t>(p.xmitWait, 0xffffffffULL)) });
    }
    return out;
}

core::Status IbsimRunner::setPortCounters(const std::vector<IbsimPortCounters>& ports)
{
    if (!m_impl->ibsim || !m_impl->ibsim->running())
        return core::Error { "SIM_IBSIM", "ibsim is not running", "--ibsim", "" };
    // PortCountersExtended holds the 64-bit data and packet counters; PortXmitWait is only in
    // PortCounters. A field is sent only when its value changed: a fabric of thousands of ports
    // costs one console line per moving counter per update.
    std::string commands;
    auto set = [&](const IbsimPortCounters& p, const char* attribute, const char* field, std::uint64_t value) {
        commands += "PerformanceSet \"" + p.node + "\"[" + std::to_string(p.port) + "] " + attribute + "." + field + "="
            + std::to_string(value) + "\n";
    };
    for (const auto& p : ports) {
        auto [it, fresh] = m_impl->sent.try_emplace({ p.node, p.port });
        IbsimPortCounters& last = it->second;
        if (fresh || last.xmitDataWords != p.xmitDataWords)
            set(p, "PortCountersExtended", "PortXmitData", p.xmitDataWords);
        if (fresh || last.rcvDataWords != p.rcvDataWords)
            set(p, "PortCountersExtended", "PortRcvData", p.rcvDataWords);
        if (fresh || last.xmitPkts != p.xmitPkts)
            set(p, "PortCountersExtended", "PortXmitPkts", p.xmitPkts);
        if (fresh || last.rcvPkts != p.rcvPkts)
            set(p, "PortCountersExtended", "PortRcvPkts", p.rcvPkts);
        if (fresh || last.xmitWait != p.xmitWait)
            set(p, "PortCounters", "PortXmitWait", p.xmitWait);
        last = p;
    }
    if (commands.empty())
        return {};
    if (!m_impl->ibsim->writeInput(commands, 10s)) {
        m_impl->sent.clear();
        return core::Error { "SIM_IBSIM", "ibsim's console does not take commands (has it ended?)", "--ibsim",
            "read ibsim.log in the emulator's root" };
    }
    return {};
}

std::size_t IbsimRunner::refusedCommands() const
{
    return m_impl->refused;
}

} // namespace railyard::live
