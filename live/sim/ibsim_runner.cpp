// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/ibsim_runner.h"

#include "live/common/subprocess.h"
#include "live/node/host_sources.h"
#include "live/sim/file_writer.h"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

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

    /// libumad2sim.so: the multiarch folders Debian installs it in, then `dpkg -L`.
    std::optional<fs::path> findUmad2sim()
    {
        std::error_code ec;
        for (const char* base : { "/usr/lib", "/usr/lib64", "/usr/local/lib" }) {
            for (const auto& entry : fs::directory_iterator(base, ec)) {
                const fs::path candidate = entry.path() / "umad2sim" / "libumad2sim.so";
                if (fs::is_regular_file(candidate, ec))
                    return candidate;
            }
            const fs::path direct = fs::path(base) / "umad2sim" / "libumad2sim.so";
            if (fs::is_regular_file(direct, ec))
                return direct;
        }
        for (const char* package : { "libumad2sim0", "ibsim-utils" })
            if (auto found = findPackageFile(package, "libumad2sim.so"))
                return found;
        return std::nullopt;
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
    m_impl->opensm.reset();
    m_impl->ibsim.reset();
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

    std::vector<std::string> argv { ibsim, "-s", "-n" };
    for (auto& a : sizeArgs(readText(ibnet)))
        argv.push_back(std::move(a));
    argv.push_back(ibnet.string());
    const fs::path ibsimLog = workDir / "ibsim.log";
    m_impl->ibsim = startChild(argv, { { "IBSIM_SOCKNAME", subnet.sockName } }, ibsimLog);
    if (!m_impl->ibsim->started())
        return core::Error { "SIM_IBSIM", m_impl->ibsim->error(), "--ibsim", "" };
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

} // namespace railyard::live
