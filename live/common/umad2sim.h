// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// libumad2sim.so (Debian package libumad2sim0): preloaded, it turns a program's umad calls into
// messages to ibsim (IBSIM_SOCKNAME), so that libibnetdisc and libibmad talk to the emulated
// subnet. The emulator starts OpenSM with it; `live cabling --ibsim` and `live watch --switches
// --ibsim` run themselves again with it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace railyard::live {

/// The library in the multiarch folders Debian installs it in, then from `dpkg -L`.
std::optional<std::filesystem::path> findUmad2sim();

/// Whether LD_PRELOAD names it in this process.
bool umad2simLoaded();

/// Runs this program again (same arguments, /proc/self/exe) with `library` preloaded ahead of any
/// LD_PRELOAD already set, and RAILYARD_UMAD2SIM_REEXEC=1 so that it does not loop. Returns only
/// when that failed (false).
bool reexecUnderUmad2sim(const std::filesystem::path& library);

/// Whether this process is such a second run.
bool reexecutedUnderUmad2sim();

} // namespace railyard::live
