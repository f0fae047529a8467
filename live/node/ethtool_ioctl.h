// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Netdev statistics through the SIOCETHTOOL ioctl, as `ethtool -S` reads them:
// ETHTOOL_GSSET_INFO (how many ETH_SS_STATS strings), ETHTOOL_GSTRINGS (their names) and
// ETHTOOL_GSTATS (the u64 values, same order). None of these needs CAP_NET_ADMIN.
#pragma once

#include "core/result.h"

#include <cstdint>
#include <map>
#include <string>

namespace railyard::live::ethtool {

/// Every statistic of `ifname` by name; an error naming the interface and the failing step
/// when the interface does not exist or its driver has no statistics.
core::Result<std::map<std::string, std::uint64_t>> readStats(const std::string& ifname);

} // namespace railyard::live::ethtool
