// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Runs the real InfiniBand management tools against ibsim for the tests: finds ibsim, OpenSM,
// ibnetdiscover, ibtracert and libumad2sim at run time (PATH, then the Debian package lists), starts
// child processes in their own process group with every wait bounded, and kills and reaps
// them when the guard goes out of scope, whatever happened in between (live/common/subprocess.h).
#pragma once

#include "live/common/subprocess.h"
#include "tests/live/temp_dir.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

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

struct Tools {
    fs::path ibsim, opensm, ibnetdiscover, ibtracert, umad2sim;
    std::string missing; ///< why the tools cannot run; empty when they can
};

inline Tools findTools()
{
    Tools tools;
    auto need = [&](fs::path& slot, const std::string& name, const std::string& package) {
        std::optional<fs::path> found;
        if (auto inPath = live::findProgram(name); !inPath.empty())
            found = inPath;
        else
            found = live::findPackageFile(package, name);
        if (found)
            slot = *found;
        else
            tools.missing += (tools.missing.empty() ? "" : ", ") + name + " (Debian package " + package + ")";
    };
    need(tools.ibsim, "ibsim", "ibsim-utils");
    need(tools.opensm, "opensm", "opensm");
    need(tools.ibnetdiscover, "ibnetdiscover", "infiniband-diags");
    need(tools.ibtracert, "ibtracert", "infiniband-diags");
    if (auto so = live::findPackageFile("libumad2sim0", "libumad2sim.so"))
        tools.umad2sim = *so;
    else if (auto so2 = live::findPackageFile("ibsim-utils", "libumad2sim.so"))
        tools.umad2sim = *so2;
    else
        tools.missing += std::string(tools.missing.empty() ? "" : ", ") + "libumad2sim.so (Debian package libumad2sim0)";
    if (!tools.missing.empty())
        tools.missing = "not installed: " + tools.missing;
    return tools;
}

using live::test::TempDir;

using Env = std::map<std::string, std::string>;

/// A child process in its own process group, stdin from /dev/null, stdout and stderr to `log`.
/// The destructor ends the group (SIGTERM, then SIGKILL after a grace period) and reaps it.
class Child : public live::ChildProcess {
public:
    Child(const std::vector<std::string>& argv, const Env& overrides, const fs::path& log)
        : ChildProcess(argv, live::SpawnOptions { .env = overrides, .log = log, .ownProcessGroup = true })
    {
    }
};

using live::waitForText;

/// A socket name no other ibsim on this machine uses (ibsim's sockets are abstract, per name).
inline std::string uniqueSocketName()
{
    static int counter = 0;
    const auto ticks = std::chrono::steady_clock::now().time_since_epoch().count();
    return "railyard-test-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) + "-"
        + std::to_string(ticks % 1000000007);
}

} // namespace railyard::ibsimtest
