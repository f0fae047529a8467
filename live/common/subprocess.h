// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Running other programs without a shell: a child process with its output in a log file or a
// pipe that is ended and reaped when it goes (ibsim and OpenSM under the emulator and the tests,
// the agent's tests), a program run to its end with its stdout captured (lldpctl in the agent),
// and finding a program or a file of an installed Debian package. Every wait is bounded. No child
// inherits a descriptor other than 0, 1 and 2.
#pragma once

#include "core/result.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

namespace railyard::live {

/// How to start a ChildProcess.
struct SpawnOptions {
    /// Variables set (or replaced) in the child's environment; the rest is inherited.
    std::map<std::string, std::string> env;
    /// Receives stdout and stderr (created or truncated); empty: both go to /dev/null.
    std::filesystem::path log;
    /// Runs the child in a process group of its own: signals go to the whole group, and
    /// whatever the child left in it is killed once the child has ended.
    bool ownProcessGroup = false;
    /// Starts the child with an empty signal mask and SIGINT/SIGTERM at their default
    /// actions (for a parent that blocks those signals to wait for them).
    bool defaultSignals = false;
    /// Sends stdout and stderr into one pipe instead of `log`; read it with
    /// ChildProcess::readOutput() (a child that fills the pipe waits until it is read).
    bool capture = false;
    /// Inherits this process's environment; false: the child's environment is `env` only.
    bool inheritEnvironment = true;
    /// Gives the child a pipe as its stdin instead of /dev/null; write to it with
    /// ChildProcess::writeInput() (a console such as ibsim's).
    bool inputPipe = false;
};

/// A child process, stdin from /dev/null (or a pipe: SpawnOptions::inputPipe). The destructor ends
/// it (stop()) and reaps it.
class ChildProcess {
public:
    /// Starts `argv` (argv[0] a path; PATH is not searched). See started() and error().
    ChildProcess(const std::vector<std::string>& argv, const SpawnOptions& options = {});
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    /// Whether the process was started.
    bool started() const { return m_started; }
    /// Why it was not started (e.g. "cannot start /usr/sbin/ibsim: No such file or directory").
    const std::string& error() const { return m_error; }
    /// True while the process runs (reaps it once it has ended).
    bool running() { return poll(); }
    /// The exit status once the process has ended within `timeout` (128 + the signal when a
    /// signal ended it); nullopt while it still runs, or when it never started.
    std::optional<int> waitFor(std::chrono::milliseconds timeout);
    /// Sends `signal` to the process (to its group with ownProcessGroup) while it runs.
    void signal(int signal) const;
    /// Ends the process: SIGTERM, then SIGKILL when it has not ended after `grace`; reaps it
    /// (and, with ownProcessGroup, what it left in its group: see reapGroup(), at most 1 s).
    void stop(std::chrono::milliseconds grace = std::chrono::seconds(3));

    /// The process id it was started with (with ownProcessGroup also its process group id);
    /// -1 when it never started. Still set once the process has been reaped.
    pid_t pid() const { return m_startedPid; }
    /// Once the process has ended: its exit code when it exited, nullopt when a signal ended it.
    std::optional<int> exitCode() const;
    /// Once the process has ended: the signal that ended it, nullopt when it exited.
    std::optional<int> termSignal() const;

    /// With ownProcessGroup, once the process has ended (running() false): reaps, without
    /// waiting, the processes it left in its group that have become children of this process
    /// (as they do when this process is PID 1 or a child subreaper; they were sent SIGKILL
    /// when the process ended).
    /// True when nothing of the group remains that this process could reap; call it again
    /// until then. Always true without ownProcessGroup.
    bool reapGroup();

    /// With `capture`: the read end of the output pipe (non-blocking; for poll()), -1 without
    /// capture or once the pipe has reached its end.
    int outputFd() const { return m_output; }
    /// With `capture`: appends to `into` what the child wrote and is available now, at most
    /// `maxBytes`, without waiting; closes the pipe at its end (every writer gone). Returns the
    /// number of bytes appended.
    std::size_t readOutput(std::string& into, std::size_t maxBytes = std::size_t(1) << 20);
    /// With `inputPipe`: writes all of `text` to the child's stdin, waiting while the pipe is full
    /// (at most `timeout` in all). False when it could not: no pipe, the child closed its stdin or
    /// ended, or the time ran out (then part of `text` may have been written).
    bool writeInput(std::string_view text, std::chrono::milliseconds timeout = std::chrono::seconds(5));
    /// With `inputPipe`: closes the child's stdin (it reads end of file).
    void closeInput();

private:
    bool poll();

    pid_t m_pid = -1;
    pid_t m_startedPid = -1;
    pid_t m_groupLeft = -1; ///< the group id while its leftovers may still need reaping
    bool m_started = false;
    bool m_group = false;
    int m_output = -1;
    int m_input = -1;
    std::optional<int> m_status;
    std::optional<int> m_waitStatus; ///< waitpid's status of the ended process
    std::string m_error;
};

/// Waits until the file `path` contains `text` while `child` runs; false when `timeout`
/// passes or the child ends first.
bool waitForText(ChildProcess& child, const std::filesystem::path& path, const std::string& text,
    std::chrono::milliseconds timeout);

/// Runs `argv` (argv[0] an absolute path; no shell) with stdin and stderr on /dev/null and
/// returns its stdout. Killed (and an error) after `timeout`; an error when it cannot start
/// or exits non-zero.
core::Result<std::string> runProgram(const std::vector<std::string>& argv, std::chrono::milliseconds timeout);

/// Where findProgram looks.
enum class ProgramSearch {
    PathThenSystem, ///< the folders of PATH, then the system folders (which a non-root PATH often lacks)
    SystemOnly,     ///< the system folders only (a daemon that does not trust its PATH)
};

/// The first executable `name`: see ProgramSearch; the system folders are /usr/sbin,
/// /usr/bin, /sbin, /bin, /usr/local/sbin and /usr/local/bin. Empty when there is none.
std::string findProgram(const std::string& name, ProgramSearch search = ProgramSearch::PathThenSystem);

/// A regular file of the installed Debian package `package` whose path ends with "/<name>"
/// (from `dpkg -L`); nullopt when the package or the file is not installed.
std::optional<std::filesystem::path> findPackageFile(const std::string& package, const std::string& name);

} // namespace railyard::live
