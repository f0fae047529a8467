// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Where PCI functions sit in the PCI tree (from their sysfs paths), how two of them relate in
// `nvidia-smi topo -m` words, and whether ACS redirects peer-to-peer traffic on the bridges
// between them (from the bridges' config space).
#pragma once

#include "live/common/inventory.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live::pci {

/// "0000:18:00.0" (domain:bus:device.function, lower-case hex).
bool isAddress(std::string_view text);
/// Lower-cases and adds the default domain "0000:" to "18:00.0"; returns the text unchanged
/// (lower-cased) when it is not a PCI address.
std::string normalizeAddress(std::string_view text);

/// A PCI function's place in the tree, read from its canonical sysfs path
/// `<root>/devices/pci0000:00/0000:00:01.0/0000:01:00.0/0000:02:00.0/0000:03:00.0`.
struct Placement {
    std::string address;              ///< "0000:03:00.0"
    std::string hostBridge;           ///< "pci0000:00" (the root complex); empty when not in the path
    std::vector<std::string> bridges; ///< functions above it, root port first: "0000:00:01.0", ...
    std::filesystem::path path;       ///< canonical sysfs folder of the function
    int numaNode = -1;                ///< its `numa_node` (-1: not said)
};

/// The placement of the function at canonical sysfs folder `path`; nullopt when the last
/// component is not a PCI address. `numaNode` is left at -1 (the caller reads the file).
std::optional<Placement> placementFromPath(const std::filesystem::path& path);

/// How two functions relate, in nvidia-smi topo's words:
///   - different host bridges: "NODE" when their numa_node values are equal (both -1 counts as
///     equal: a one-node machine reports -1), "SYS" otherwise;
///   - same host bridge, no common bridge (their chains differ from the root port on): "PHB";
///   - otherwise let A be the deepest common bridge and h the number of bridges strictly below
///     A on the two chains together: h <= 2 is "PIX" (both sit on downstream ports of the one
///     switch whose upstream port is A, or are functions of one device), h > 2 is "PXB"
///     (several switches, no host bridge). A PCIe switch shows as two levels in sysfs (upstream
///     port, then downstream port), which is why one switch is h = 2, as NCCL's topology code
///     also counts it (two path levels per switch).
struct Relation {
    std::string word;                       ///< "PIX", "PXB", "PHB", "NODE", "SYS"
    int rank = 0;                           ///< 0 PIX .. 4 SYS (smaller is closer)
    int hops = 0;                           ///< bridges on the path (see `bridgesOnPath`)
    std::vector<std::string> bridgesOnPath; ///< bridges that P2P traffic between them crosses
};
Relation relate(const Placement& a, const Placement& b);

/// ACS on one bridge, from its config space (the sysfs `config` file).
/// The extended capability list starts at 0x100; ACS is capability ID 0x000D and its ACS
/// Control register is the 16-bit word at cap+6 (PCIe Base Spec §7.7.8). Redirection of peer
/// traffic is on when P2P Request Redirect (bit 2), P2P Completion Redirect (bit 3) or P2P
/// Egress Control (bit 5) is set: then a GPU's writes to a NIC under the same switch go up to
/// the root complex, which breaks or slows GPUDirect RDMA (NVIDIA asks for ACS off).
/// Unknown when fewer than 0x104 bytes were read (a non-root reader gets only 64 bytes).
Tri acsRedirect(std::span<const std::uint8_t> config);

/// ACS over several bridges: On when any is On, Off when all are Off (also for no bridge),
/// Unknown otherwise.
Tri combineAcs(std::span<const Tri> states);

} // namespace railyard::live::pci
