// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Parsers of what the node-side tools print. Tested against the real outputs in
// ../shared/fixtures. Used by the agentless check (`live check --dumps`) and by the agent's
// stand-in sources, which read files in the tools' own formats.
//
// What every parser accepts (one rule for all, see tool_parsers.cpp):
// - LF or CRLF line ends; tabs or spaces wherever the tool prints whitespace.
// - A transcript around the output: blank lines and lines starting with '#' that are no command
//   (such as the fixtures' `# source:` line) are skipped; shell prompt lines ("$ ibstat",
//   "[root@host ~]# nvidia-smi topo -m", "sh-5.1# ...") and `set -x` trace lines ("+ mlnx_qos -i
//   eth4") are commands: what follows a command of another program is skipped up to the next
//   command; when the file holds several runs of the tool, the last run counts (a warning says so).
// - Lines before the tool's first recognisable line are skipped with a warning (job banners).
// - Truncated input: the last line may be cut anywhere; when it does not fit it is dropped with
//   a warning, never an error. What came before it is returned.
// - Anything else that does not fit, once the output has begun, is an error; so is input with no
//   recognisable line at all. The error (code "TOOL_OUTPUT") names the tool, the line number and
//   the line's text.
// The overloads with a `warnings` argument append what was skipped or cut, in words.
#pragma once

#include "core/result.h"
#include "live/common/inventory.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// `ibstat`: one device per "CA '<name>'" block with its ports (state, physical state, rate,
/// width where printed, base lid, SM lid, link layer, GUIDs, firmware).
/// - hcaType is "CA type" ("MT4129"), fwVersion "Firmware version".
/// - GUIDs: ibstat prints "0xb8cef60300cee2b8"; nodeGuid and sysImageGuid are given in sysfs's
///   form "b8ce:f603:00ce:e2b8" (guidToSysfsForm), as the agent reports them.
/// - State "Active" -> state 4 / stateName "ACTIVE" (sysfs names: DOWN, INIT, ARMED, ACTIVE);
///   physical state "LinkUp" -> physState 5 / physStateName "LinkUp" (sysfs names).
/// - "Rate: 400" -> rateGbps 400 and rateText "400" (as printed). ibstat prints no width and no
///   generation: width stays 0 and generation empty; nothing is derived.
/// - No PCI address, board id, node description or netdev: those stay empty.
/// - Values the poster elided as "..." stay empty (with a warning). An `ibpanic:` line ends the
///   listing: the devices before it are returned, with a warning; an error only when there are none.
core::Result<std::vector<RdmaDevice>> parseIbstat(std::string_view text);
core::Result<std::vector<RdmaDevice>> parseIbstat(std::string_view text, std::vector<std::string>& warnings);

/// "0xb8cef60300cee2b8" (ibstat, ibnetdiscover) or "b8ce:f603:00ce:e2b8" (sysfs) -> the sysfs form,
/// lower case; nullopt when the text is not a 64-bit GUID.
std::optional<std::string> guidToSysfsForm(std::string_view text);

/// `ibdev2netdev` ("mlx5_0 port 1 ==> ibp24s0 (Up)").
struct NetdevLink {
    std::string device;
    int port = 1;
    std::string netdev;
    bool up = false;
};
/// Accepts `column -t` alignment and trailing "# ..." comments. `-v` output is not supported.
core::Result<std::vector<NetdevLink>> parseIbdev2netdev(std::string_view text);
core::Result<std::vector<NetdevLink>> parseIbdev2netdev(std::string_view text, std::vector<std::string>& warnings);

/// `nvidia-smi topo -m`: the GPU rows and their relation to each NIC column, with the legend's
/// NIC names ("NIC0: mlx5_0") resolved.
struct GpuTopology {
    std::vector<std::string> gpus;                  ///< "GPU0", ...
    std::vector<std::string> nics;                  ///< device names in column order ("mlx5_0")
    std::vector<std::vector<std::string>> gpuToNic; ///< [gpu][nic] = "PIX", "PXB", "NODE", "SYS", ...
    std::vector<int> gpuNuma;                       ///< -1 when not printed
    std::vector<std::string> gpuCpuAffinity;        ///< "0-47,96-143"; empty when not printed
};
/// Also `nvidia-smi topo -mp`, the older form whose NIC columns carry device names ("mlx5_0")
/// instead of NICn plus a legend, and tab or space separated tables. A NIC column that the legend
/// does not name keeps its column name ("NIC3"). A GPU row cut short (truncated input) keeps the
/// cells it has; the missing ones are "" (and the last cell of a cut row is dropped, it may be cut).
/// Cells "X" (self) are kept as "X".
core::Result<GpuTopology> parseNvidiaSmiTopo(std::string_view text);
core::Result<GpuTopology> parseNvidiaSmiTopo(std::string_view text, std::vector<std::string>& warnings);

/// Rank of an `nvidia-smi topo` relation for "which NIC is closest": PIX 0 < PXB 1 < PHB 2 <
/// NODE 3 < SYS 4 (SOC, the old name of SYS, too); nullopt for anything else (NV#, X, "").
std::optional<int> topoRelationRank(std::string_view relation);

/// The NIC (column index) closest to GPU `gpu`: the best rank of topoRelationRank, ties to the
/// lowest NIC index; nullopt when the row has no PCIe relation to any NIC.
std::optional<std::size_t> closestNic(const GpuTopology& topology, std::size_t gpu);

/// `lldpctl -f keyvalue`: one neighbour per local interface, in the order first seen.
/// systemName = chassis.name; chassisId = chassis.mac (or .local/.ip/.ifname); portId =
/// port.ifname (or .local/.mac/.ip, as the switch sends its port id); portDescription = port.descr.
/// A line that does not start with "lldp." continues the previous value (multi-line descriptions).
/// Interface names with dots (VLANs, "eth0.100") are kept whole.
core::Result<std::vector<LldpNeighbor>> parseLldpctlKeyvalue(std::string_view text);
core::Result<std::vector<LldpNeighbor>> parseLldpctlKeyvalue(std::string_view text, std::vector<std::string>& warnings);

/// `ethtool -S <if>`: every "name: value" statistic. The optional "NIC statistics:" header is
/// skipped. The name is everything before the last ':' (trimmed), so names with spaces, brackets or
/// colons ("[0]: rx_bytes") stay whole; the value is an unsigned decimal integer. A repeated name
/// keeps its first value (with a warning).
core::Result<std::map<std::string, std::uint64_t>> parseEthtoolStats(std::string_view text);
core::Result<std::map<std::string, std::uint64_t>> parseEthtoolStats(std::string_view text, std::vector<std::string>& warnings);

/// `mlnx_qos -i <if>`: trust state and PFC per priority.
struct MlnxQos {
    std::string trust;                 ///< "pcp" or "dscp"
    std::array<bool, 8> pfcEnabled {};
    bool pfcKnown = false;
};
/// pfcEnabled from the "enabled" row of "PFC configuration:" matched to its "priority" header row;
/// trust from "Priority trust state:". Other "key: value" lines (DCBX mode, dscp2prio, cable
/// length, buffers, tc/tsa) are read over.
core::Result<MlnxQos> parseMlnxQos(std::string_view text);
core::Result<MlnxQos> parseMlnxQos(std::string_view text, std::vector<std::string>& warnings);

/// `dcb pfc show dev <if>`: "pfc-cap 8 macsec-bypass off delay 0 prio-pfc 0:off 1:off ... 3:on ...".
/// Accepts "prio-pfc" and the pre-release "pg-pfc", one line or several, trailing spaces.
core::Result<std::array<bool, 8>> parseDcbPfcShow(std::string_view text);

/// Everything `dcb pfc show dev <if>` prints.
struct DcbPfc {
    std::optional<int> pfcCap;
    std::optional<bool> macsecBypass;
    std::optional<int> delay;
    std::array<bool, 8> prioPfc {};
    bool prioPfcKnown = false;
    std::optional<std::array<std::uint64_t, 8>> requests;    ///< PFC frames sent per priority
    std::optional<std::array<std::uint64_t, 8>> indications; ///< PFC frames received per priority
};
core::Result<DcbPfc> parseDcbPfc(std::string_view text, std::vector<std::string>& warnings);

/// `lsmod`: the loaded module names (first column, the "Module Size Used by" header skipped).
core::Result<std::vector<std::string>> parseLsmod(std::string_view text);

} // namespace railyard::live
