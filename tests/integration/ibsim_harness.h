// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Runs the real InfiniBand management tools against ibsim for the tests: finds ibsim, OpenSM,
// ibnetdiscover, ibtracert and libumad2sim at run time (PATH, then the Debian package lists), starts
// child processes in their own process group with every wait bounded, and kills and reaps
// them when the guard goes out of scope, whatever happened in between.
#pragma once

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace railyard::ibsimtest {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

inline std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// `name` in a PATH folder (plus the sbin folders, which a non-root PATH often lacks).
inline std::optional<fs::path> findInPath(const std::string& name)
{
    const char* env = std::getenv("PATH");
    std::string dirs = env ? env : "";
    dirs += ":/usr/sbin:/sbin";
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

/// A file of an installed Debian package whose path ends with "/<name>" (`dpkg -L`).
inline std::optional<fs::path> findInPackage(const std::string& package, const std::string& name)
{
    const std::string command = "dpkg -L " + package + " 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return std::nullopt;
    std::optional<fs::path> found;
    char line[4096];
    while (std::fgets(line, sizeof line, pipe)) {
        std::string path(line);
        while (!path.empty() && (path.back() == '\n' || path.back() == '\r'))
            path.pop_back();
        if (!found && path.size() > name.size() && path.ends_with("/" + name) && fs::is_regular_file(path))
            found = fs::path(path);
    }
    ::pclose(pipe);
    return found;
}

struct Tools {
    fs::path ibsim, opensm, ibnetdiscover, ibtracert, umad2sim;
    std::string missing; ///< why the tools cannot run; empty when they can
};

inline Tools findTools()
{
    Tools tools;
    auto need = [&](fs::path& slot, const std::string& name, const std::string& package) {
        auto found = findInPath(name);
        if (!found)
            found = findInPackage(package, name);
        if (found)
            slot = *found;
        else
            tools.missing += (tools.missing.empty() ? "" : ", ") + name + " (Debian package " + package + ")";
    };
    need(tools.ibsim, "ibsim", "ibsim-utils");
    need(tools.opensm, "opensm", "opensm");
    need(tools.ibnetdiscover, "ibnetdiscover", "infiniband-diags");
    need(tools.ibtracert, "ibtracert", "infiniband-diags");
    if (auto so = findInPackage("libumad2sim0", "libumad2sim.so"))
        tools.umad2sim = *so;
    else if (auto so2 = findInPackage("ibsim-utils", "libumad2sim.so"))
        tools.umad2sim = *so2;
    else
        tools.missing += std::string(tools.missing.empty() ? "" : ", ") + "libumad2sim.so (Debian package libumad2sim0)";
    if (!tools.missing.empty())
        tools.missing = "not installed: " + tools.missing;
    return tools;
}

/// A scratch folder removed at the end of the test.
class TempDir {
public:
    TempDir()
    {
        std::string pattern = (fs::temp_directory_path() / "railyard-ibsim-test-XXXXXX").string();
        m_path = ::mkdtemp(pattern.data()) ? fs::path(pattern) : fs::path();
    }
    ~TempDir()
    {
        std::error_code ec;
        if (!m_path.empty())
            fs::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

using Env = std::map<std::string, std::string>;

/// A child process in its own process group, stdin from /dev/null, stdout and stderr to `log`.
/// The destructor ends the group (SIGTERM, then SIGKILL after a grace period) and reaps it.
class Child {
public:
    Child(const std::vector<std::string>& argv, const Env& overrides, const fs::path& log)
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
        posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
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
    bool running() { return poll(); }

    /// The exit status once the process ends within `timeout`; nullopt if it is still running.
    std::optional<int> waitFor(std::chrono::milliseconds timeout)
    {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (poll()) {
            if (std::chrono::steady_clock::now() >= deadline)
                return std::nullopt;
            std::this_thread::sleep_for(20ms);
        }
        return m_status;
    }

    /// Ends the process group and reaps the process (bounded: SIGKILL after 3 s).
    void stop()
    {
        if (!poll())
            return;
        ::kill(-m_pid, SIGTERM);
        if (!waitFor(3s)) {
            ::kill(-m_pid, SIGKILL);
            ::waitpid(m_pid, nullptr, 0);
            m_pid = -1;
        }
    }

private:
    /// True while the child runs. Once it has ended, ends what it left in its process group
    /// (while the unreaped child still holds the group id), then reaps it and keeps its status.
    bool poll()
    {
        if (m_pid <= 0)
            return false;
        siginfo_t info {};
        if (::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0)
            return true;
        ::kill(-m_pid, SIGKILL);
        int status = 0;
        if (::waitpid(m_pid, &status, 0) == m_pid)
            m_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        m_pid = -1;
        return false;
    }

    pid_t m_pid = -1;
    std::optional<int> m_status;
};

/// Waits until `path` contains `text` while `child` runs; false on timeout or exit.
inline bool waitForText(Child& child, const fs::path& path, const std::string& text, std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (readFile(path).find(text) != std::string::npos)
            return true;
        if (!child.running() || std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(20ms);
    }
}

/// A socket name no other ibsim on this machine uses (ibsim's sockets are abstract, per name).
inline std::string uniqueSocketName()
{
    static int counter = 0;
    const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
    return "railyard-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + "-"
        + std::to_string(ticks % 1000000007);
}

} // namespace railyard::ibsimtest
