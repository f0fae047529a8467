// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The real sources of a host that are not sysfs files (see hostSources() in node_reader.h),
// and the small text readers they use, tested on their own. Running a program (lldpctl) is
// live/common/subprocess.h (runProgram, findProgram).
#pragma once

#include "live/common/subprocess.h"

#include <string>
#include <string_view>

namespace railyard::live {

/// The "Model:" line of the NVIDIA driver's /proc/driver/nvidia/gpus/<pci>/information
/// ("Model: \t\t NVIDIA H100 80GB HBM3" -> "NVIDIA H100 80GB HBM3"); empty when absent.
std::string parseNvidiaInformationModel(std::string_view text);

/// The routing engine OpenSM last configured, from its log: the word before
/// " tables configured on all switches" (osm_ucast_mgr_process's message, e.g.
/// "... osm_ucast_mgr_process: ftree tables configured on all switches"). Empty when the log
/// does not say (never guessed).
std::string parseOpensmRoutingEngine(std::string_view log);

} // namespace railyard::live
