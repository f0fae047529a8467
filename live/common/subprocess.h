// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Running other programs without a shell: a child process with its output in a log file that
// is ended and reaped when it goes (ibsim and OpenSM under the emulator and the tests), a
// program run to its end with its stdout captured (lldpctl in the agent), and finding a
// program or a file of an installed Debian package. Every wait is bounded.
#pragma once

#include "core/result.h"

#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
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
};

/// A child process, stdin from /dev/null. The destructor ends it (stop()) and reaps it.
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
    /// Ends the process: SIGTERM, then SIGKILL when it has not ended after `grace`; reaps it.
    void stop(std::chrono::milliseconds grace = std::chrono::seconds(3));

private:
    bool poll();

    pid_t m_pid = -1;
    bool m_started = false;
    bool m_group = false;
    std::optional<int> m_status;
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
