// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What a counter file under /sys/class/infiniband/<dev>/ports/<n>/{counters,hw_counters}
// means: its unit, its hardware width, and whether it saturates or wraps.
#pragma once

#include "live/common/inventory.h"

#include <cstdint>
#include <string_view>

namespace railyard::live::sysfs {

/// A file of ports/<n>/counters (the IB PMA PortCounters / PortCountersExtended attributes of
/// drivers/infiniband/core/sysfs.c; widths from the IBA PMA attribute layout, as listed in
/// Documentation/ABI/stable/sysfs-class-infiniband and summarised in the fixture notes
/// sysfs-infiniband-and-mlx5-counter-reference-NOTES.txt §3):
///   - port_xmit_data, port_rcv_data (any "*_data"): Words4, 64 bits: octets divided by 4, read
///     from PortCountersExtended (the kernel uses the 64-bit counters when the PMA has them);
///   - the PMA error counters: Saturating at their width (symbol_error 16, link_error_recovery
///     8, link_downed 8, port_rcv_errors 16, port_rcv_remote_physical_errors 16,
///     port_rcv_switch_relay_errors 16, port_xmit_discards 16, port_xmit_constraint_errors 8,
///     port_rcv_constraint_errors 8, local_link_integrity_errors 4,
///     excessive_buffer_overrun_errors 4, VL15_dropped 16) and port_xmit_wait (32, ticks);
///     saturated when value == 2^width - 1 (a reset is needed; they never wrap);
///   - everything else (packets, unicast/multicast packets): Plain, 64 bits.
Counter portCounter(std::string_view name, std::uint64_t value);

/// A file of ports/<n>/hw_counters (mlx5: drivers/infiniband/hw/mlx5/counters.c; notes §4):
/// the Q counters (rx_write_requests, out_of_buffer, out_of_sequence, the retransmission,
/// error and RoCE-accelerator groups, and any name not known to be wider) are Wrapping32: the
/// kernel reads them from 32-bit hardware fields, so they wrap at 2^32. Known 64-bit ones are
/// Plain: the congestion counters (rp_cnp_ignored, rp_cnp_handled,
/// np_ecn_marked_roce_packets, np_cnp_sent), the PPCNT rx_icrc_encapsulated and the optional
/// cc_* / rdma_* counters; "lifespan" (cache lifetime in ms) is Plain. A "vport_" prefix
/// (switchdev representors) is ignored. A value above 2^32-1 proves a counter wider than 32
/// bits: such a value is reported Plain/64 rather than as a 32-bit counter.
Counter hwCounter(std::string_view name, std::uint64_t value);

} // namespace railyard::live::sysfs
