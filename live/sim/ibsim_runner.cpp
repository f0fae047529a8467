// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/ibsim_runner.h"

#include "live/sim/file_writer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

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

    std::optional<fs::path> findProgram(const std::string& name)
    {
        const char* env = std::getenv("PATH");
        std::string dirs = env ? env : "";
        dirs += ":/usr/sbin:/sbin:/usr/bin";
        std::istringstream in(dirs);
        std::string dir;
        while (std::getline(in, dir, ':')) {
            if (dir.empty())
                continue;
            const fs::path candidate = fs::path(dir) / name;
            if (::access(candidate.c_str(), X_OK) == 0)
                return candidate;
        }
        return std::nullopt;
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
        for (const char* package : { "libumad2sim0", "ibsim-utils" }) {
            const std::string command = std::string("dpkg -L ") + package + " 2>/dev/null";
            FILE* pipe = ::popen(command.c_str(), "r");
            if (!pipe)
                continue;
            std::optional<fs::path> found;
            char line[4096];
            while (std::fgets(line, sizeof line, pipe)) {
                std::string path(line);
                while (!path.empty() && (path.back() == '\n' || path.back() == '\r'))
                    path.pop_back();
                if (!found && path.ends_with("/libumad2sim.so") && fs::is_regular_file(path, ec))
                    found = fs::path(path);
            }
            ::pclose(pipe);
            if (found)
                return found;
        }
        return std::nullopt;
    }

    /// A child in its own process group, stdin /dev/null, stdout and stderr to `log`.
    class Child {
    public:
        Child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& overrides, const fs::path& log)
        {
            std::vector<std::string> envStrings;
            for (char** e = environ; *e; ++e) {
                const std::string entry(*e);
                if (!overrides.contains(entry.substr(0, entry.find('='))))
                    envStrings.push_back(entry);
            }
            for (const auto& [key, value] : overrides)
                envStrings.push_back(key + "=" + value);
            std::vector<char*> args, envp;
            for (const auto& a : argv)
                args.push_back(const_cast<char*>(a.c_str()));
            args.push_back(nullptr);
            for (auto& e : envStrings)
                envp.push_back(e.data());
            envp.push_back(nullptr);
            posix_spawn_file_actions_t actions;
            posix_spawn_file_actions_init(&actions);
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
            posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            posix_spawn_file_actions_adddup2(&actions, 1, 2);
            posix_spawnattr_t attr;
            posix_spawnattr_init(&attr);
            // The emulator blocks SIGINT/SIGTERM to wait for them; the children get the defaults.
            sigset_t none;
            sigemptyset(&none);
            posix_spawnattr_setsigmask(&attr, &none);
            sigset_t deflt;
            sigemptyset(&deflt);
            sigaddset(&deflt, SIGINT);
            sigaddset(&deflt, SIGTERM);
            posix_spawnattr_setsigdefault(&attr, &deflt);
            posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
            posix_spawnattr_setpgroup(&attr, 0);
            if (::posix_spawn(&m_pid, args[0], &actions, &attr, args.data(), envp.data()) != 0)
                m_pid = -1;
            posix_spawnattr_destroy(&attr);
            posix_spawn_file_actions_destroy(&actions);
        }
        ~Child() { stop(); }
        Child(const Child&) = delete;
        Child& operator=(const Child&) = delete;

        bool started() const { return m_pid > 0; }
        bool running()
        {
            if (m_pid <= 0)
                return false;
            int status = 0;
            const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
            if (r == 0)
                return true;
            m_pid = -1;
            return false;
        }
        void stop()
        {
            if (!running())
                return;
            ::kill(-m_pid, SIGTERM);
            const auto deadline = std::chrono::steady_clock::now() + 3s;
            while (running() && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(20ms);
            if (m_pid > 0) {
                ::kill(-m_pid, SIGKILL);
                ::waitpid(m_pid, nullptr, 0);
                m_pid = -1;
            }
        }

    private:
        pid_t m_pid = -1;
    };

    bool waitForText(Child& child, const fs::path& log, const std::string& text, std::chrono::seconds timeout)
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (readText(log).find(text) != std::string::npos)
                return true;
            if (!child.running() || std::chrono::steady_clock::now() >= deadline)
                return false;
            std::this_thread::sleep_for(50ms);
        }
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
    std::unique_ptr<Child> ibsim;
    std::unique_ptr<Child> opensm; // declared last: destroyed (ended) before ibsim
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
    const auto ibsim = findProgram("ibsim");
    const auto opensm = findProgram("opensm");
    const auto umad2sim = findUmad2sim();
    std::string missing;
    if (!ibsim)
        missing += "ibsim (Debian package ibsim-utils)";
    if (!opensm)
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

    std::vector<std::string> argv { ibsim->string(), "-s", "-n" };
    for (auto& a : sizeArgs(readText(ibnet)))
        argv.push_back(std::move(a));
    argv.push_back(ibnet.string());
    const fs::path ibsimLog = workDir / "ibsim.log";
    m_impl->ibsim = std::make_unique<Child>(argv, std::map<std::string, std::string> { { "IBSIM_SOCKNAME", subnet.sockName } }, ibsimLog);
    if (!m_impl->ibsim->started())
        return core::Error { "SIM_IBSIM", "cannot start " + ibsim->string(), "--ibsim", "" };
    if (!waitForText(*m_impl->ibsim, ibsimLog, "Network simulator ready", 60s)) {
        stop();
        return core::Error { "SIM_IBSIM", "ibsim did not load the fabric", ibsimLog.string(), "read the log" };
    }

    std::map<std::string, std::string> env { { "IBSIM_SOCKNAME", subnet.sockName }, { "LD_PRELOAD", umad2sim->string() },
        { "OSM_CACHE_DIR", (workDir / "opensm-cache").string() }, { "OSM_TMP_DIR", workDir.string() } };
    // OpenSM tries the engines in order: ftree for a fat-tree, updn when ftree cannot route it.
    // -e starts a fresh log, -d2 flushes it after each message (we wait for "SUBNET UP" in it).
    m_impl->opensm = std::make_unique<Child>(
        std::vector<std::string> { opensm->string(), "-R", "ftree,updn", "-e", "-d2", "-f", subnet.opensmLog.string() }, env,
        workDir / "opensm.out");
    if (!m_impl->opensm->started()) {
        stop();
        return core::Error { "SIM_IBSIM", "cannot start " + opensm->string(), "--ibsim", "" };
    }
    if (!waitForText(*m_impl->opensm, subnet.opensmLog, "SUBNET UP", 120s)) {
        stop();
        return core::Error { "SIM_IBSIM", "OpenSM did not bring the emulated subnet up", subnet.opensmLog.string(),
            "read the log (and " + (workDir / "opensm.out").string() + ")" };
    }
    const std::string log = readText(subnet.opensmLog);
    const std::string marker = " tables configured on all switches";
    const auto at = log.rfind(marker);
    if (at != std::string::npos) {
        const auto begin = log.rfind(' ', at - 1);
        subnet.routingEngine = log.substr(begin + 1, at - begin - 1);
    }
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
