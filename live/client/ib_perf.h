// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// InfiniBand switch port counters through the subnet's performance-management agents (PMA),
// read with libibmad as `perfquery` reads them: PortCountersExtended for the 64-bit data and
// packet counters, PortCounters for PortXmitWait and the error counters. The agents on the nodes
// see only the host end of each link; this sweep sees the switch ends, so uplink load and
// XmitWait on leaves and spines are measured, not guessed.
//
// The counters come back as CounterSnapshots in the agents' counter vocabulary (port_xmit_data
// in 4-byte words, port_xmit_wait, symbol_error, ... with the units and widths of
// live/common/sysfs_counters.h), one snapshot per switch with `node` = the planned switch name,
// so the rate arithmetic is the same code (live/client/telemetry.h portRates()).
//
// Runs from a host of the subnet (a umad device), or under ibsim with libumad2sim.so preloaded
// and IBSIM_SOCKNAME set (the emulator: `railyard-sim --ibsim` sets the switch counters through
// ibsim's console).
#pragma once

#include "core/result.h"
#include "live/client/cabling.h"
#include "live/client/ibnet_parse.h"
#include "live/common/inventory.h"

#include <cstdint>
#include <string>
#include <vector>

namespace railyard::live {

/// One switch to sweep.
struct SwitchTarget {
    std::string name;      ///< the planned name ("su1-rail2-leaf"); the node description when unidentified
    std::uint64_t guid = 0;
    int lid = 0;           ///< port 0's LID
    std::vector<int> ports; ///< the ports with a link, ascending
};

/// The switches of a discovered fabric with a LID, named as the cabling check identified them
/// (`matches`: CablingReport::switches; unidentified switches keep their node description), and
/// their linked ports.
std::vector<SwitchTarget> switchTargets(const IbFabric& fabric, const std::vector<SwitchMatch>& matches);

struct PmaOptions {
    std::string caName;     ///< local HCA ("mlx5_0"); empty: the first with an active port
    int caPort = 0;         ///< 0: the first active
    unsigned timeoutMs = 0; ///< per MAD; 0: libibmad's default
    int retries = 0;        ///< 0: the default
};

struct SwitchCounterSweep {
    std::vector<CounterSnapshot> snapshots; ///< one per switch that answered, in target order
    std::vector<std::string> failures;      ///< "su1-rail2-leaf port 33: no answer to PortCounters" ...
    std::size_t mads = 0;                   ///< queries sent
};

/// Reads every target port's counters. Fails (code IB_PMA) only when no local port can be opened;
/// switches or ports that do not answer are listed in `failures` and left out.
core::Result<SwitchCounterSweep> querySwitchCounters(const std::vector<SwitchTarget>& targets, const PmaOptions& options = {});

} // namespace railyard::live
