// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A whitelisted tool invocation and the checks of every parameter that reaches it: shared by the
// client, which builds the command lines from the plan (live/client/test_launch.h), and the agent,
// which runs them (POST /v1/tests) and checks each again before anything starts.
//
// Launching is an explicit, whitelisted set of tool invocations: a program name from a fixed list
// and an argv vector, never a shell string. Every parameter that reaches an argv or an environment
// value is validated first; anything with a shell metacharacter, whitespace, a leading '-' or a NUL
// is refused with an Error (code LAUNCH_PARAM) that names the parameter and shows the bad value.
// Pure functions: no I/O, nothing is started here.
//
// Error codes: LAUNCH_PARAM (a parameter refused), LAUNCH_TOOL (a program not in the whitelist).
#pragma once

#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace railyard::live {

/// One process to start: a whitelisted program, its argv (without argv[0]) and the environment
/// variables to add. No shell is involved anywhere.
struct ToolInvocation {
    std::string program;                                   ///< bare tool name from the whitelist ("ib_write_bw")
    std::vector<std::string> args;                         ///< argv[1..]
    std::vector<std::pair<std::string, std::string>> env;  ///< added to the inherited environment, in this order
    std::string host;                                      ///< node the process runs on ("" = the local launcher)
    std::string role;                                      ///< "server", "client" or "launcher"

    bool operator==(const ToolInvocation&) const = default;
};

/// The most output of one tool run that a client keeps (perftest prints kilobytes, nccl-tests
/// tens of them); an agent that sends more is treated as broken and its run stopped.
inline constexpr std::size_t kMaxToolOutputBytes = 16u << 20;

/// The programs Railyard may start: ib_write_bw, ib_read_bw, ib_write_lat, ib_read_lat,
/// all_reduce_perf, all_gather_perf, reduce_scatter_perf, mpirun, srun. Exact, case-sensitive names
/// (no paths).
bool isWhitelistedTool(std::string_view program);
/// The four perftest tools of the whitelist.
bool isPerftestTool(std::string_view program);
/// The three nccl-tests tools of the whitelist.
bool isNcclTestsTool(std::string_view program);
/// The two launchers of the whitelist: mpirun and srun.
bool isLauncherTool(std::string_view program);

// --- Validation helpers. Each returns success, or one LAUNCH_PARAM error whose message names
// `parameter` and shows the value (quoted, with control bytes escaped) and what is wrong; `where`
// is `parameter`.

/// The first character of `value` that is never accepted in a parameter (a shell metacharacter
/// ; & | < > ` $ \ " ' ( ) { } [ ] * ? ! ~ # %, whitespace, a control byte or NUL), or nullopt.
std::optional<char> unsafeCharacter(std::string_view value);

/// A host name made of RFC 1123 labels (letters, digits and '-', 1..63 characters, no '-' at either
/// end of a label, 253 characters in all), or an IPv4 literal ("10.0.0.7"). Names whose labels are
/// all digits must be a valid IPv4 address.
core::Status validateHostName(std::string_view parameter, std::string_view value);
/// An RDMA device name ("mlx5_0"): [A-Za-z0-9_.-], 1..64 characters, not starting with '-'.
core::Status validateRdmaDevice(std::string_view parameter, std::string_view value);
/// A network interface name ("ens1f0np0"): [A-Za-z0-9_.-], 1..15 characters (IFNAMSIZ), not
/// starting with '-', not "." or "..".
core::Status validateNetdevName(std::string_view parameter, std::string_view value);
/// min <= value <= max.
core::Status validateInRange(std::string_view parameter, long long value, long long min, long long max);
/// A byte count as nccl-tests reads it: decimal digits with an optional K, M or G suffix (powers of
/// 1024), from 1 byte to 2^34 bytes (16G). Returns the number of bytes.
core::Result<std::uint64_t> parseByteSize(std::string_view parameter, std::string_view value);
/// A file path for a generated file (the hostfile): [A-Za-z0-9_./+-], 1..4096 characters, not
/// starting with '-', no ".." component.
core::Status validateFilePath(std::string_view parameter, std::string_view value);
/// An NCCL environment variable: the name is NCCL_ followed by [A-Z0-9_]; the value is 1..256
/// characters of [A-Za-z0-9_.,:=^+/-] (NCCL's list syntax: "=mlx5_0:1,mlx5_3:1", "^docker"), not
/// starting with '-'.
core::Status validateNcclEnv(std::string_view name, std::string_view value);

/// The last gate before anything is started (the agent runs it on every invocation it receives):
/// the program is whitelisted, the role is one of the three, the host is empty or a valid host
/// name, every argument is 1..4096 characters of [A-Za-z0-9_.,:=/+-] (options may start with '-',
/// nothing else can), and every env entry passes validateNcclEnv. The arguments then follow the
/// tool's grammar: only the options test_launch.h writes, each value checked (numbers in range,
/// sizes up to 16G, device and host names); a launcher's (mpirun, srun) options are followed by
/// nothing or by an nccl-tests tool's bare name and that tool's options, so a launcher never
/// starts another program; mpirun's -x passes on only NCCL_* names and --mca sets only pml, btl
/// and plm_rsh_agent. Everything test_launch.h generates passes it. All problems found are
/// returned.
core::Status checkInvocation(const ToolInvocation& invocation);

/// The programs a launcher invocation starts besides its nccl-tests tool: mpirun's
/// `--mca plm_rsh_agent PATH` values. The agent allows only ssh, rsh or a file in its tools folder.
std::vector<std::string> launcherHelpers(const ToolInvocation& invocation);

/// For a person (logs, reports, "run it yourself"): `NAME=value ... program arg ...` with POSIX
/// single quotes where a word needs them. Never executed by Railyard.
std::string displayCommand(const ToolInvocation& invocation);

/// The message helpers of the validators, shared with the builders of test_launch.cpp so that
/// every launch error reads the same. Not an API of their own.
namespace launch_detail {

    /// The value as an error message shows it: in double quotes, control bytes and quotes escaped,
    /// cut at 80 characters.
    std::string shown(std::string_view value);
    /// LAUNCH_PARAM "<parameter>: refused <shown value>: <why>", where = parameter.
    core::Error paramError(std::string_view parameter, std::string_view value, const std::string& why, std::string hint = {});
    /// The checks every string parameter gets first: not empty, no unsafe character, no leading '-'.
    std::optional<core::Error> commonProblem(std::string_view parameter, std::string_view value);

    /// Collects the errors of a list of checks.
    struct Problems {
        core::Errors errors;
        void add(const core::Status& s);
        void add(core::Error e);
        bool any() const { return !errors.empty(); }
    };

} // namespace launch_detail

} // namespace railyard::live
