// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The emulator's faults file (interfaces.md §4): a JSON list of faults to inject, each checked
// against the plan it is applied to. Errors name the file, the entry (0-based index) and the
// field, and for an unknown name the plan's valid range.
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "core/speed.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

enum class FaultKind {
    LinkDown,
    Degraded,
    Swap,
    Unplugged,
    Congested,
    NoPfc,
    NoEcn,
    NoGpuDirect,
    WrongTrust,       ///< a rail NIC trusts pcp where the plan trusts dscp (or the other way round)
    PfcWrongPriority, ///< a rail NIC has PFC on another priority than the plan's
    MtuMismatch,      ///< a rail NIC's netdev MTU is 1500
    RpFilterStrict,   ///< a rail NIC's rp_filter is 1 (strict)
    WrongGidIndex,    ///< the RoCE v2 GID of the rail address sits at another index than the plan's
};

/// Every kind, in the order of the enum: the one list the faults file, the messages and the
/// desktop's fault menu take their names from.
const std::vector<FaultKind>& allFaultKinds();

/// "link_down", "degraded", "swap", "unplugged", "congested", "no_pfc", "no_ecn", "no_gpudirect",
/// "wrong_trust", "pfc_wrong_priority", "mtu_mismatch", "rp_filter_strict", "wrong_gid_index"
std::string_view toString(FaultKind kind);
std::optional<FaultKind> parseFaultKind(std::string_view text);

/// One NIC of the plan: a node (by name and plan device index) and a rail.
struct NicRef {
    std::string node;
    std::uint32_t device = 0; ///< index into Plan::devices
    int rail = 0;
    bool operator==(const NicRef& other) const { return device == other.device && rail == other.rail; }
};

/// One fault, resolved against the plan.
struct Fault {
    FaultKind kind = FaultKind::LinkDown;
    int index = 0; ///< position in the faults file, from 0
    /// link_down, degraded, unplugged and the host settings faults (wrong_trust ... wrong_gid_index):
    /// the NIC; swap: end `a`; no_pfc/no_ecn/no_gpudirect: the node (rail unused).
    NicRef nic;
    NicRef other; ///< swap: end `b`
    std::optional<int> width;                     ///< degraded: trained width (lanes)
    std::optional<core::IbGeneration> generation; ///< degraded (InfiniBand): trained generation
    std::string switchName;                       ///< congested
    std::uint32_t switchDevice = 0;               ///< congested: index into Plan::devices
    int uplinks = 0;                              ///< congested: the first N uplinks of the switch
    double factor = 1;                            ///< congested: share of line rate they carry (0..1)
};

/// Parses and checks a faults document against `plan`. `source` names the input in errors
/// ("faults.json"). Every problem found is returned.
core::Result<std::vector<Fault>> parseFaults(std::string_view text, const std::string& source, const core::Plan& plan);
/// Reads and parses a faults file.
core::Result<std::vector<Fault>> readFaultsFile(const std::filesystem::path& path, const core::Plan& plan);

/// The port rate a `degraded` fault leaves a NIC at, from the plan's port rate; nullopt when
/// the combination does not exist (e.g. a width the generation is not offered at).
std::optional<core::PortRate> degradedRate(const core::PortRate& planned, const Fault& fault);

/// Uplink links (leaf to spine, spine to core) of plan device `device`, in port order
/// (indices into Plan::links).
std::vector<std::size_t> uplinksOf(const core::Plan& plan, std::uint32_t device);

} // namespace railyard::live
