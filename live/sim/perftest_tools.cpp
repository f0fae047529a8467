// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/perftest_tools.h"

#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace railyard::live {

namespace fs = std::filesystem;

fs::path emulatorToolNextTo(const fs::path& program, std::string_view name)
{
    const fs::path candidate = program.parent_path() / std::string(name);
    std::error_code ec;
    if (!fs::is_regular_file(candidate, ec) || ::access(candidate.c_str(), X_OK) != 0)
        return {};
    return candidate;
}

fs::path perftestEmulatorNextTo(const fs::path& program) { return emulatorToolNextTo(program, kPerftestEmulatorName); }

namespace {

    core::Status linkTools(const fs::path& toolsDir, const fs::path& target, const std::vector<std::string_view>& names)
    {
        std::error_code ec;
        fs::create_directories(toolsDir, ec);
        if (ec)
            return core::Error { "TOOLS_DIR", "cannot create the tools folder: " + ec.message(), toolsDir.string(),
                "check that the emulator's folder is writable" };
        const fs::path absolute = fs::absolute(target, ec);
        for (const std::string_view name : names) {
            const fs::path link = toolsDir / std::string(name);
            fs::remove(link, ec); // a link from an earlier run, or anything else of that name
            ec.clear();
            fs::create_symlink(absolute, link, ec);
            if (ec)
                return core::Error { "TOOLS_DIR",
                    "cannot link " + std::string(name) + " to " + absolute.string() + ": " + ec.message(), link.string(),
                    "check that the tools folder is writable" };
        }
        return {};
    }

} // namespace

core::Status writePerftestTools(const fs::path& toolsDir, const fs::path& emulator)
{
    return linkTools(toolsDir, emulator, { kEmulatedPerftestTools.begin(), kEmulatedPerftestTools.end() });
}

core::Status writeNcclTestsTools(const fs::path& toolsDir, const fs::path& emulator, const fs::path& mpirun)
{
    std::vector<std::string_view> names { kEmulatedNcclTestsTools.begin(), kEmulatedNcclTestsTools.end() };
    names.push_back(kEmulatedSshName);
    if (auto s = linkTools(toolsDir, emulator, names); !s)
        return s;
    if (!mpirun.empty())
        return linkTools(toolsDir, mpirun, { "mpirun" });
    return {};
}

std::string standInTool(std::vector<char*>& args)
{
    const std::string_view first = args.size() > 1 ? std::string_view(args[1]) : std::string_view();
    char* as = nullptr;
    if (first.rfind("--as=", 0) == 0) {
        as = args[1] + 5;
        args.erase(args.begin() + 1);
    } else if (first == "--as" && args.size() > 2) {
        as = args[2];
        args.erase(args.begin() + 1, args.begin() + 3);
    }
    if (as && *as) {
        args[0] = as;
        return as;
    }
    return args.empty() ? std::string() : std::filesystem::path(args[0]).filename().string();
}

} // namespace railyard::live
