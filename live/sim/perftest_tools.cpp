// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/perftest_tools.h"

#include <string>
#include <system_error>

#include <unistd.h>

namespace railyard::live {

namespace fs = std::filesystem;

fs::path perftestEmulatorNextTo(const fs::path& program)
{
    const fs::path candidate = program.parent_path() / std::string(kPerftestEmulatorName);
    std::error_code ec;
    if (!fs::is_regular_file(candidate, ec) || ::access(candidate.c_str(), X_OK) != 0)
        return {};
    return candidate;
}

core::Status writePerftestTools(const fs::path& toolsDir, const fs::path& emulator)
{
    std::error_code ec;
    fs::create_directories(toolsDir, ec);
    if (ec)
        return core::Error { "TOOLS_DIR", "cannot create the tools folder: " + ec.message(), toolsDir.string(),
            "check that the emulator's folder is writable" };
    const fs::path target = fs::absolute(emulator, ec);
    for (const std::string_view name : kEmulatedPerftestTools) {
        const fs::path link = toolsDir / std::string(name);
        fs::remove(link, ec); // a link from an earlier run, or anything else of that name
        ec.clear();
        fs::create_symlink(target, link, ec);
        if (ec)
            return core::Error { "TOOLS_DIR",
                "cannot link " + std::string(name) + " to " + target.string() + ": " + ec.message(), link.string(),
                "check that the tools folder is writable" };
    }
    return {};
}

} // namespace railyard::live
