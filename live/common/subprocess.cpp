// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/subprocess.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace railyard::live {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

    std::string errorText(int error) { return std::system_category().message(error); }

    int statusOf(int wstatus) { return WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : 128 + WTERMSIG(wstatus); }

    std::string readText(const fs::path& path)
    {
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    /// posix_spawn of `argv` with the file actions the caller prepared and the environment
    /// and signal/process-group attributes of `options`. Returns 0 or the error number.
    int spawn(pid_t& pid, const std::vector<std::string>& argv, const posix_spawn_file_actions_t& actions,
        const SpawnOptions& options)
    {
        if (argv.empty())
            return EINVAL;
        std::vector<char*> args;
        for (const auto& a : argv)
            args.push_back(const_cast<char*>(a.c_str()));
        args.push_back(nullptr);

        std::vector<std::string> envStrings;
        for (char** e = options.inheritEnvironment ? environ : nullptr; e && *e; ++e) {
            const std::string entry(*e);
            if (!options.env.contains(entry.substr(0, entry.find('='))))
                envStrings.push_back(entry);
        }
        for (const auto& [key, value] : options.env)
            envStrings.push_back(key + "=" + value);
        std::vector<char*> envp;
        for (auto& e : envStrings)
            envp.push_back(e.data());
        envp.push_back(nullptr);

        posix_spawnattr_t attr;
        posix_spawnattr_init(&attr);
        short flags = 0;
        if (options.defaultSignals) {
            sigset_t none;
            sigemptyset(&none);
            posix_spawnattr_setsigmask(&attr, &none);
            sigset_t deflt;
            sigemptyset(&deflt);
            sigaddset(&deflt, SIGINT);
            sigaddset(&deflt, SIGTERM);
            posix_spawnattr_setsigdefault(&attr, &deflt);
            flags |= POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF;
        }
        if (options.ownProcessGroup) {
            posix_spawnattr_setpgroup(&attr, 0);
            flags |= POSIX_SPAWN_SETPGROUP;
        }
        posix_spawnattr_setflags(&attr, flags);
        const int result = ::posix_spawn(&pid, args[0], &actions, &attr, args.data(), envp.data());
        posix_spawnattr_destroy(&attr);
        return result;
    }

    /// The child inherits 0, 1 and 2 only: not the sockets or files of this process (an agent's
    /// listening socket, other children's pipes) that lack O_CLOEXEC.
    void closeTheRest(posix_spawn_file_actions_t& actions) { posix_spawn_file_actions_addclosefrom_np(&actions, 3); }

} // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const SpawnOptions& options)
    : m_group(options.ownProcessGroup)
{
    std::array<int, 2> pipeFds { -1, -1 };
    std::array<int, 2> inputFds { -1, -1 };
    if ((options.capture && ::pipe2(pipeFds.data(), O_CLOEXEC) != 0)
        || (options.inputPipe && ::pipe2(inputFds.data(), O_CLOEXEC) != 0)) {
        m_error = "cannot start " + (argv.empty() ? std::string("(nothing)") : argv.front()) + ": pipe: " + errorText(errno);
        for (const int fd : { pipeFds[0], pipeFds[1], inputFds[0], inputFds[1] })
            if (fd >= 0)
                ::close(fd);
        return;
    }
    const std::string log = options.log.empty() ? std::string("/dev/null") : options.log.string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (options.inputPipe)
        posix_spawn_file_actions_adddup2(&actions, inputFds[0], 0);
    else
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (options.capture)
        posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
    else
        posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    closeTheRest(actions);
    const int result = spawn(m_pid, argv, actions, options);
    posix_spawn_file_actions_destroy(&actions);
    if (options.capture) {
        ::close(pipeFds[1]);
        if (result == 0) {
            m_output = pipeFds[0];
            ::fcntl(m_output, F_SETFL, ::fcntl(m_output, F_GETFL) | O_NONBLOCK);
        } else {
            ::close(pipeFds[0]);
        }
    }
    if (options.inputPipe) {
        ::close(inputFds[0]);
        if (result == 0) {
            m_input = inputFds[1];
            ::fcntl(m_input, F_SETFL, ::fcntl(m_input, F_GETFL) | O_NONBLOCK);
        } else {
            ::close(inputFds[1]);
        }
    }
    m_started = result == 0;
    if (!m_started) {
        m_pid = -1;
        m_error = "cannot start " + (argv.empty() ? std::string("(nothing)") : argv.front()) + ": " + errorText(result);
        return;
    }
    m_startedPid = m_pid;
}

ChildProcess::~ChildProcess()
{
    closeInput();
    stop();
    if (m_output >= 0)
        ::close(m_output);
}

bool ChildProcess::writeInput(std::string_view text, std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!text.empty()) {
        if (m_input < 0)
            return false;
        pollfd pfd { m_input, POLLOUT, 0 };
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return false;
        const int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0 || (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))) {
            closeInput();
            return false;
        }
        // A write to a pipe whose reader is gone raises SIGPIPE, which this process need not
        // ignore: block it in this thread for the write and take the pending one (EPIPE says it).
        sigset_t pipeSignal, previous;
        sigemptyset(&pipeSignal);
        sigaddset(&pipeSignal, SIGPIPE);
        ::pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous);
        const ssize_t n = ::write(m_input, text.data(), text.size());
        const int writeError = errno;
        if (n < 0 && writeError == EPIPE) {
            const timespec now {};
            while (::sigtimedwait(&pipeSignal, nullptr, &now) < 0 && errno == EINTR) {
            }
        }
        ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
        errno = writeError;
        if (n < 0) {
            if (errno == EAGAIN || errno == EINTR)
                continue;
            closeInput();
            return false;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

void ChildProcess::closeInput()
{
    if (m_input >= 0) {
        ::close(m_input);
        m_input = -1;
    }
}

bool ChildProcess::poll()
{
    if (m_pid <= 0)
        return false;
    siginfo_t info {};
    if (::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == 0)
        return true;
    // Ended: end what it left in its group while the unreaped child still holds the group id.
    if (m_group) {
        ::kill(-m_pid, SIGKILL);
        m_groupLeft = m_pid;
    }
    int status = 0;
    if (::waitpid(m_pid, &status, 0) == m_pid) {
        m_status = statusOf(status);
        m_waitStatus = status;
    }
    m_pid = -1;
    return false;
}

std::optional<int> ChildProcess::exitCode() const
{
    if (!m_waitStatus || !WIFEXITED(*m_waitStatus))
        return std::nullopt;
    return WEXITSTATUS(*m_waitStatus);
}

std::optional<int> ChildProcess::termSignal() const
{
    if (!m_waitStatus || !WIFSIGNALED(*m_waitStatus))
        return std::nullopt;
    return WTERMSIG(*m_waitStatus);
}

bool ChildProcess::reapGroup()
{
    if (m_groupLeft <= 0)
        return true;
    for (;;) {
        // No process (not even a zombie) left in the group: done.
        if (::kill(-m_groupLeft, 0) != 0 && errno == ESRCH)
            break;
        const pid_t reaped = ::waitpid(-m_groupLeft, nullptr, WNOHANG);
        if (reaped > 0)
            continue;
        if (reaped == 0)
            return false; // a child of ours in the group has not ended yet (it got SIGKILL)
        if (errno == EINTR)
            continue;
        break; // ECHILD: what remains is not ours to reap (init reaps it)
    }
    m_groupLeft = -1;
    return true;
}

std::size_t ChildProcess::readOutput(std::string& into, std::size_t maxBytes)
{
    std::size_t total = 0;
    std::array<char, 65536> chunk;
    while (m_output >= 0 && total < maxBytes) {
        const std::size_t want = std::min(chunk.size(), maxBytes - total);
        const ssize_t n = ::read(m_output, chunk.data(), want);
        if (n > 0) {
            into.append(chunk.data(), static_cast<std::size_t>(n));
            total += static_cast<std::size_t>(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        ::close(m_output); // the end (every writer gone), or an error that will not pass
        m_output = -1;
    }
    return total;
}

std::optional<int> ChildProcess::waitFor(std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (poll()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return std::nullopt;
        std::this_thread::sleep_for(20ms);
    }
    return m_status;
}

void ChildProcess::signal(int signal) const
{
    if (m_pid > 0)
        ::kill(m_group ? -m_pid : m_pid, signal);
}

void ChildProcess::stop(std::chrono::milliseconds grace)
{
    if (poll()) {
        signal(SIGTERM);
        if (!waitFor(grace)) {
            signal(SIGKILL);
            if (m_group)
                m_groupLeft = m_pid;
            int status = 0;
            while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
            }
            m_status = statusOf(status);
            m_waitStatus = status;
            m_pid = -1;
        }
    }
    // What the group left behind has had SIGKILL: give it a moment to go, and reap it.
    const auto deadline = std::chrono::steady_clock::now() + 1s;
    while (!reapGroup() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(2ms);
}

bool waitForText(ChildProcess& child, const fs::path& path, const std::string& text, std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        if (readText(path).find(text) != std::string::npos)
            return true;
        if (!child.running() || std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(20ms);
    }
}

core::Result<std::string> runProgram(const std::vector<std::string>& argv, std::chrono::milliseconds timeout)
{
    const std::string where = argv.empty() ? std::string() : argv.front();
    const auto fail = [&](const std::string& what) { return core::Error { "RUN_PROGRAM", what, where, "" }; };
    if (argv.empty())
        return fail("nothing to run");
    std::array<int, 2> pipeFds {};
    if (::pipe2(pipeFds.data(), O_CLOEXEC) != 0)
        return fail("pipe: " + errorText(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    closeTheRest(actions);
    pid_t pid = 0;
    const int spawned = spawn(pid, argv, actions, SpawnOptions {});
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipeFds[1]);
    if (spawned != 0) {
        ::close(pipeFds[0]);
        return fail("cannot start: " + errorText(spawned));
    }
    std::string output;
    bool timedOut = false;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::array<char, 8192> chunk {};
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timedOut = true;
            break;
        }
        pollfd pfd { pipeFds[0], POLLIN, 0 };
        const int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            timedOut = ready == 0;
            break;
        }
        const ssize_t n = ::read(pipeFds[0], chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        output.append(chunk.data(), static_cast<std::size_t>(n));
    }
    ::close(pipeFds[0]);
    if (timedOut)
        ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timedOut)
        return fail("did not finish within " + std::to_string(timeout.count()) + " ms; killed");
    if (statusOf(status) != 0)
        return fail("exited with status " + std::to_string(statusOf(status)));
    return output;
}

std::string findProgram(const std::string& name, ProgramSearch search)
{
    std::vector<std::string> folders;
    if (search == ProgramSearch::PathThenSystem) {
        const char* env = std::getenv("PATH");
        std::istringstream in(env ? env : "");
        for (std::string folder; std::getline(in, folder, ':');)
            if (!folder.empty())
                folders.push_back(std::move(folder));
    }
    for (const char* folder : { "/usr/sbin", "/usr/bin", "/sbin", "/bin", "/usr/local/sbin", "/usr/local/bin" })
        folders.emplace_back(folder);
    for (const auto& folder : folders) {
        const std::string path = folder + "/" + name;
        if (::access(path.c_str(), X_OK) == 0)
            return path;
    }
    return {};
}

std::optional<fs::path> findPackageFile(const std::string& package, const std::string& name)
{
    const std::string dpkg = findProgram("dpkg");
    if (dpkg.empty())
        return std::nullopt;
    const auto listing = runProgram({ dpkg, "-L", package }, 10s);
    if (!listing)
        return std::nullopt;
    std::istringstream in(*listing);
    std::error_code ec;
    for (std::string path; std::getline(in, path);) {
        while (!path.empty() && path.back() == '\r')
            path.pop_back();
        if (path.size() > name.size() && path.ends_with("/" + name) && fs::is_regular_file(path, ec))
            return fs::path(path);
    }
    return std::nullopt;
}

} // namespace railyard::live
