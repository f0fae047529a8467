// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The emulator's tools folder: DIR/tools/ with perftest's program names linked to
// railyard-perftest-emu and nccl-tests' to railyard-nccl-tests-emu, the stand-ins that the emulated
// nodes' agents start for `live test` (POST /v1/tests runs a whitelisted DIR/tools/<program>), plus
// railyard-emu-ssh (the same stand-in: the ssh through which mpirun reaches the emulated nodes),
// mpirun (a link to Open MPI's, when installed, for the agents' launcher) and
// nccl-tests-fabric.json (what the nccl-tests stand-in cannot read from a node: live/sim/nccl_tests_model.h).
#pragma once

#include "core/result.h"

#include <array>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// The program names linked to the stand-in: the perftest tools of Railyard's whitelist.
inline constexpr std::array<std::string_view, 4> kEmulatedPerftestTools { "ib_write_bw", "ib_read_bw", "ib_write_lat",
    "ib_read_lat" };

/// The stand-in's file name.
inline constexpr std::string_view kPerftestEmulatorName = "railyard-perftest-emu";

/// nccl-tests' program names linked to railyard-nccl-tests-emu (the three of Railyard's whitelist).
inline constexpr std::array<std::string_view, 3> kEmulatedNcclTestsTools { "all_reduce_perf", "all_gather_perf",
    "reduce_scatter_perf" };
inline constexpr std::string_view kNcclTestsEmulatorName = "railyard-nccl-tests-emu";
/// The name under which railyard-nccl-tests-emu is mpirun's ssh for the emulated nodes.
inline constexpr std::string_view kEmulatedSshName = "railyard-emu-ssh";

/// `name` (an executable file) in the folder of `program`; an empty path when there is none.
std::filesystem::path emulatorToolNextTo(const std::filesystem::path& program, std::string_view name);

/// Links kEmulatedNcclTestsTools and kEmulatedSshName in `toolsDir` to `emulator`, and `mpirun` to
/// `mpirun` when that is not empty (Open MPI's, for the agents' --launcher agent). Error TOOLS_DIR.
core::Status writeNcclTestsTools(const std::filesystem::path& toolsDir, const std::filesystem::path& emulator,
    const std::filesystem::path& mpirun);

/// railyard-perftest-emu in the folder of `program` (the running program, /proc/self/exe); an
/// empty path when there is no executable file of that name there.
std::filesystem::path perftestEmulatorNextTo(const std::filesystem::path& program);

/// Creates `toolsDir` (and its parents) with one symbolic link per kEmulatedPerftestTools name to
/// `emulator` (absolute), replacing whatever has that name there. Error TOOLS_DIR naming the path.
core::Status writePerftestTools(const std::filesystem::path& toolsDir, const std::filesystem::path& emulator);

/// The tool a stand-in plays, from its command line `args` (argv): a first argument `--as TOOL`
/// or `--as=TOOL`, which is taken out of `args`, else the base name of args[0]. With --as,
/// args[0] becomes TOOL too, so that the option parser's messages name the tool.
std::string standInTool(std::vector<char*>& args);

} // namespace railyard::live
