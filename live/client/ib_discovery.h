// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// InfiniBand subnet discovery through libibnetdisc (the library behind `ibnetdiscover`), into
// the same IbFabric model as the ibnetdiscover reader. Runs from a host of the subnet; under
// ibsim, with libumad2sim.so preloaded (LD_PRELOAD) and IBSIM_SOCKNAME naming the simulator.
#pragma once

#include "core/result.h"
#include "live/client/ibnet_parse.h"

#include <string>

namespace railyard::live {

struct DiscoveryOptions {
    std::string caName;    ///< local HCA to discover from ("mlx5_0"); empty: the first with an active port
    int caPort = 0;        ///< its port; 0: the first active
    unsigned timeoutMs = 0; ///< per SMP; 0: libibmad's default
    unsigned retries = 0;   ///< 0: the default
};

/// Discovers the subnet. Fails (code IB_DISCOVERY) when no umad device is usable or the sweep
/// fails; the error says what to check.
core::Result<IbFabric> discoverFabric(const DiscoveryOptions& options = {});

/// "4x" from a PortInfo LinkWidthActive value; "" when unknown.
std::string linkWidthText(unsigned width);
/// "SDR"... "NDR", "XDR" from LinkSpeedActive / LinkSpeedExtActive / the Mellanox FDR10 bit, as
/// ibnetdiscover prints them; "" when unknown.
std::string linkSpeedText(unsigned speed, unsigned extSpeed, unsigned fdr10);

} // namespace railyard::live
