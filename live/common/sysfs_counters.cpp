// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/sysfs_counters.h"

#include <array>
#include <utility>

namespace railyard::live::sysfs {

namespace {

struct Width {
    std::string_view name;
    int bits;
};

// IBA PortCounters widths (see the header for the sources).
constexpr std::array<Width, 13> kSaturating { {
    { "symbol_error", 16 },
    { "link_error_recovery", 8 },
    { "link_downed", 8 },
    { "port_rcv_errors", 16 },
    { "port_rcv_remote_physical_errors", 16 },
    { "port_rcv_switch_relay_errors", 16 },
    { "port_xmit_discards", 16 },
    { "port_xmit_constraint_errors", 8 },
    { "port_rcv_constraint_errors", 8 },
    { "local_link_integrity_errors", 4 },
    { "excessive_buffer_overrun_errors", 4 },
    { "VL15_dropped", 16 },
    { "port_xmit_wait", 32 },
} };

constexpr std::array<std::string_view, 13> kHw64 {
    "rp_cnp_ignored", "rp_cnp_handled", "np_ecn_marked_roce_packets", "np_cnp_sent", "rx_icrc_encapsulated",
    "cc_rx_ce_pkts", "cc_rx_cnp_pkts", "cc_tx_cnp_pkts", "rdma_tx_packets", "rdma_tx_bytes", "rdma_rx_packets",
    "rdma_rx_bytes", "lifespan",
};

} // namespace

Counter portCounter(std::string_view name, std::uint64_t value)
{
    Counter counter;
    counter.value = value;
    for (const auto& [known, bits] : kSaturating) {
        if (known == name) {
            counter.kind = CounterKind::Saturating;
            counter.widthBits = bits;
            counter.saturated = value >= (std::uint64_t { 1 } << bits) - 1;
            return counter;
        }
    }
    if (name.ends_with("_data"))
        counter.kind = CounterKind::Words4;
    return counter;
}

Counter hwCounter(std::string_view name, std::uint64_t value)
{
    Counter counter;
    counter.value = value;
    if (name.starts_with("vport_"))
        name.remove_prefix(6);
    for (const auto known : kHw64)
        if (known == name)
            return counter;
    if (value > 0xffffffffu)
        return counter;
    counter.kind = CounterKind::Wrapping32;
    counter.widthBits = 32;
    return counter;
}

} // namespace railyard::live::sysfs
