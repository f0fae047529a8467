// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What a live session keeps of each sweep in the telemetry database (core/store/telemetry_store.h):
// the series and their metrics, named so that the desktop app and scripts can find them.
//   "<node>/<device>/<port>"  tx_gbps rx_gbps [xmit_wait_per_s] ecn_marked_per_s cnp_sent_per_s
//                             pfc_pause_per_s retransmits_per_s link_errors
//   "rail <k>", "<leaf>"      tx_gbps rx_gbps xmit_wait_per_s ecn_marked_per_s pfc_pause_per_s health
//   "<switch>/<port>"         tx_gbps rx_gbps [xmit_wait_per_s] link_errors   (IB switch ports, PMA)
//   "<switch>"                uplink_tx_gbps uplink_rx_gbps busiest_uplink_percent health
// `health` is 0 unknown, 1 healthy, 2 congested, 3 pausing, 4 erroring (the Health enum's order).
#pragma once

#include "core/store/telemetry_store.h"
#include "live/client/switch_telemetry.h"
#include "live/client/telemetry.h"

#include <vector>

namespace railyard::live {

std::vector<core::store::TelemetrySample> telemetrySamples(const Sweep& sweep);
std::vector<core::store::TelemetrySample> telemetrySamples(const std::vector<SwitchRates>& switches);

} // namespace railyard::live
