// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/umad2sim.h"

#include "live/common/subprocess.h"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define RAILYARD_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RAILYARD_ASAN_BUILD 1
#endif
#endif

namespace railyard::live {

namespace fs = std::filesystem;

std::optional<fs::path> findUmad2sim()
{
    std::error_code ec;
    for (const char* base : { "/usr/lib", "/usr/lib64", "/usr/local/lib" }) {
        for (const auto& entry : fs::directory_iterator(base, ec)) {
            const fs::path candidate = entry.path() / "umad2sim" / "libumad2sim.so";
            if (fs::is_regular_file(candidate, ec))
                return candidate;
        }
        for (const char* sub : { "umad2sim/libumad2sim.so", "libumad2sim.so" }) {
            const fs::path direct = fs::path(base) / sub;
            if (fs::is_regular_file(direct, ec))
                return direct;
        }
    }
    for (const char* package : { "libumad2sim0", "ibsim-utils" })
        if (auto found = findPackageFile(package, "libumad2sim.so"))
            return found;
    return std::nullopt;
}

bool umad2simLoaded()
{
    const char* preload = std::getenv("LD_PRELOAD");
    return preload && std::string(preload).find("umad2sim") != std::string::npos;
}

bool reexecutedUnderUmad2sim()
{
    return std::getenv("RAILYARD_UMAD2SIM_REEXEC") != nullptr;
}

bool reexecUnderUmad2sim(const fs::path& library)
{
    std::ifstream in("/proc/self/cmdline", std::ios::binary);
    const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<std::string> args;
    for (std::size_t at = 0; at < all.size();) {
        const auto end = all.find('\0', at);
        args.push_back(all.substr(at, end - at));
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    if (args.empty())
        return false;
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    const char* old = std::getenv("LD_PRELOAD");
    const std::string preload = old && *old ? library.string() + ":" + old : library.string();
    ::setenv("LD_PRELOAD", preload.c_str(), 1);
    ::setenv("RAILYARD_UMAD2SIM_REEXEC", "1", 1);
#ifdef RAILYARD_ASAN_BUILD
    // A sanitizer build (the tests' ASan run): libumad2sim is preloaded ahead of the ASan runtime,
    // which is intended here, and Debian's libumad2sim 0.10 read() copies a whole 320-byte MAD out
    // of a shorter buffer, an overread in that library: in the run under it, ASan's link-order
    // check and its range checks of memcpy/memmove/memset are off; every other check stays on.
    const char* asan = std::getenv("ASAN_OPTIONS");
    const std::string options = std::string(asan ? asan : "") + (asan && *asan ? ":" : "")
        + "verify_asan_link_order=0:replace_intrin=0:intercept_intrin=0";
    ::setenv("ASAN_OPTIONS", options.c_str(), 1);
#endif
    ::execv("/proc/self/exe", argv.data());
    return false;
}

} // namespace railyard::live
