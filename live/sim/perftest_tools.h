// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The emulator's tools folder: DIR/tools/ with perftest's program names linked to
// railyard-perftest-emu, the stand-in that the emulated nodes' agents start for `live test`
// (POST /v1/tests runs a whitelisted DIR/tools/<program>).
#pragma once

#include "core/result.h"

#include <array>
#include <filesystem>
#include <string_view>

namespace railyard::live {

/// The program names linked to the stand-in: the perftest tools of Railyard's whitelist.
inline constexpr std::array<std::string_view, 4> kEmulatedPerftestTools { "ib_write_bw", "ib_read_bw", "ib_write_lat",
    "ib_read_lat" };

/// The stand-in's file name.
inline constexpr std::string_view kPerftestEmulatorName = "railyard-perftest-emu";

/// railyard-perftest-emu in the folder of `program` (the running program, /proc/self/exe); an
/// empty path when there is no executable file of that name there.
std::filesystem::path perftestEmulatorNextTo(const std::filesystem::path& program);

/// Creates `toolsDir` (and its parents) with one symbolic link per kEmulatedPerftestTools name to
/// `emulator` (absolute), replacing whatever has that name there. Error TOOLS_DIR naming the path.
core::Status writePerftestTools(const std::filesystem::path& toolsDir, const std::filesystem::path& emulator);

} // namespace railyard::live
