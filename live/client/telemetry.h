// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Telemetry: counter snapshots of the agents (/v1/counters) turned into rates, per-rail and
// per-leaf aggregates and a congestion verdict per rail and per leaf. Pure: the polling is the
// caller's (fetchAll), so the same code serves the CLI, the GUI and the tests.
//
// Counter arithmetic between two snapshots of a port (the units and widths are the agent's,
// live/common/inventory.h):
// - 64-bit counters (data, packets, the mlx5 64-bit hw_counters) do not wrap: a smaller value
//   means the counter was reset, and that interval has no rate for it (a note says so);
// - Words4 counters (port_xmit_data, port_rcv_data) count 4-byte words;
// - IBA PMA error counters saturate at their width: a counter at its maximum means "reset
//   needed", never a wrap; its delta is unknown from then on (a note says so);
// - mlx5 32-bit hw_counters wrap: the delta is taken modulo 2^32.
//
// Congestion signals per port and second: IB port_xmit_wait (ticks; the tick is device-specific,
// so it is judged against the port's own baseline, below), RoCE ECN-marked packets
// (np_ecn_marked_roce_packets), CNPs sent (np_cnp_sent) and handled (rp_cnp_handled), PFC pause
// frames and pause duration received per priority (ethtool rx_prio<N>_pause[_duration]), out of
// sequence packets and retransmits (out_of_sequence, packet_seq_err, roce_adp_retrans); link
// health as deltas (symbol errors, link recoveries and downs, receive errors, discards).
//
// Verdicts (thresholds in CongestionThresholds, all documented there and configurable), checked
// in this order for a rail or a leaf, over the ports it aggregates:
//   erroring   any port's link-health counters rose by at least `errors` in the interval;
//   pausing    PFC pause frames received at `pausePerS` or more on some port;
//   congested  ECN marks at `ecnMarkedPerS` or more, or XmitWait at `xmitWaitRatio` times the
//              port's baseline and at least `xmitWaitMinPerS` ticks/s; the baseline is the lower
//              of the port's own lowest rate so far and the lower quartile of the same rail's
//              ports in this sweep (so a port congested from the start is still caught, as long
//              as a quarter of its rail is not); a baseline of 0 (an idle rail) counts as exceeded;
//   healthy    none of these; unknown when no port had a rate.
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "live/common/counters_compact.h"
#include "live/common/inventory.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace railyard::live {

/// The delta of one counter between two reads; nullopt when it cannot be known (reset, or a
/// saturated PMA counter). `note` gets why, when it is not null. The one implementation of the
/// rules above: the JSON and the compact ingest (TelemetryAggregator::add, addCompact) both
/// come here for every counter a rate is made of.
std::optional<std::uint64_t> counterDelta(const Counter& before, const Counter& after, std::string* note = nullptr);

/// The counters the rates are made of, each in a fixed slot (telemetry.cpp kRateCounters):
/// port_xmit_data, port_rcv_data, port_xmit_wait, the link-health counters, the RoCE
/// hw_counters and the ethtool rx_prio<0-7>_pause[_duration] statistics. What both ingest paths
/// keep of a port between snapshots, so a port costs a few hundred bytes and no map.
inline constexpr std::size_t kRateCounterSlots = 32;

struct PortRateInputs {
    std::string device;
    int port = 1;
    int rail = -1;
    /// Counter of each slot packed (value, kind, width, saturated); `present` has bit s set for slot s.
    struct Slot {
        std::uint64_t value = 0;
        std::uint8_t kind = 0;
        std::uint8_t widthBits = 64;
        bool saturated = false;
    };
    std::array<Slot, kRateCounterSlots> slots {};
    std::uint32_t present = 0;
};

struct NodeRateInputs {
    std::int64_t timestampMs = 0;
    std::vector<PortRateInputs> ports;
};
static_assert(kRateCounterSlots <= 32, "PortRateInputs::present is 32 bits");

/// One port's rates between two snapshots.
struct PortRates {
    std::string node, device;
    int port = 1;
    int rail = -1;
    std::string leaf;                 ///< from the plan (node, rail); empty when not planned
    double seconds = 0;               ///< the interval
    std::optional<double> txGbps, rxGbps; ///< port_xmit_data / port_rcv_data
    std::optional<double> xmitWaitPerS;   ///< IB port_xmit_wait ticks per second
    double ecnMarkedPerS = 0, cnpSentPerS = 0, cnpHandledPerS = 0;
    double pfcPausePerS = 0, pfcPauseUsPerS = 0; ///< received, summed over priorities
    double outOfSequencePerS = 0, retransmitsPerS = 0;
    std::uint64_t linkErrors = 0;     ///< symbol errors, link recoveries and downs, receive errors, discards
    std::vector<std::string> notes;   ///< resets and saturated counters, in words
};

/// Rates of every port that is in both snapshots of one node (same device and port).
std::vector<PortRates> portRates(const CounterSnapshot& before, const CounterSnapshot& after);

struct CongestionThresholds {
    double xmitWaitRatio = 4;       ///< times the port's baseline
    double xmitWaitMinPerS = 1e5;   ///< ticks per second, at least
    double ecnMarkedPerS = 1000;    ///< ECN-marked packets received per second
    double pausePerS = 100;         ///< PFC pause frames received per second
    std::uint64_t errors = 1;       ///< link-health counter increments in one interval
};

enum class Health { Unknown, Healthy, Congested, Pausing, Erroring };
std::string_view toString(Health health); ///< "unknown", "healthy", "congested", "pausing", "erroring"

/// A rail or a leaf, over its ports in one sweep.
struct GroupRates {
    std::string name;   ///< "rail 3" or the leaf's name
    int rail = -1;
    int ports = 0;      ///< ports with a rate
    double txGbps = 0, rxGbps = 0;
    double xmitWaitPerS = 0, ecnMarkedPerS = 0, cnpSentPerS = 0, pfcPausePerS = 0, pfcPauseUsPerS = 0;
    double retransmitsPerS = 0;
    std::uint64_t linkErrors = 0;
    Health health = Health::Unknown;
    std::string reason; ///< the evidence for the verdict, naming the worst port
};

struct Sweep {
    std::int64_t timestampMs = 0;
    std::vector<PortRates> ports;
    std::vector<GroupRates> rails; ///< rail order
    std::vector<GroupRates> leaves; ///< plan order
    std::vector<std::string> notes;
};

/// "node/rail" -> the plan's leaf of that rail of that node (plane 1 on a two-plane plan).
std::map<std::string, std::string> railLeaves(const core::Plan& plan);

/// The one aggregation: per-rail and per-leaf sums and verdicts over `ports` (each with its
/// `leaf` set by the caller; railLeaves() has the plan's), leaves in plan order. Used by
/// TelemetryAggregator::sweep() for the agents' snapshots and by the Prometheus source
/// (prometheus_source.h) for rates a Prometheus server computed, so both judge alike.
/// `xmitWaitFloor` ("node/device/port" -> lowest XmitWait rate seen) carries the ports' own
/// baselines from sweep to sweep and is updated.
Sweep aggregateSweep(std::vector<PortRates> ports, const core::Plan& plan, const CongestionThresholds& thresholds,
    std::map<std::string, double>& xmitWaitFloor, std::int64_t timestampMs);

/// Keeps each node's previous snapshot and each port's XmitWait baseline across sweeps.
class TelemetryAggregator {
public:
    TelemetryAggregator(const core::Plan& plan, CongestionThresholds thresholds = {});

    /// A new snapshot of one node; the first of a node only sets its baseline.
    void add(const CounterSnapshot& snapshot);
    /// The same from the agent's compact text (counters_compact.h, `/v1/counters?format=compact`),
    /// read without a CounterSnapshot or a map per port: the same rates as add() gives for the
    /// same counters. `node` names a node the text leaves empty. A malformed text is refused
    /// whole (the node's previous snapshot stays its baseline), with the error of
    /// parseCompactCounters().
    core::Status addCompact(std::string_view text, std::string_view where, std::string_view node = {});
    /// The aggregates of the rates added since the last sweep (ports whose node sent no new
    /// snapshot are left out).
    Sweep sweep();

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
    };
    /// Rates of `now` against the node's previous inputs, which `now` then replaces (swapped, so
    /// `now` gets the old buffers back to fill next time).
    void ingest(std::string_view node, NodeRateInputs& now);
    struct NodeState {
        NodeRateInputs inputs;
        std::vector<const std::string*> leafOfRail; ///< into m_leafOf; null: not planned
    };
    /// The plan's leaf of (node, rail), or null; cached in `state`.
    const std::string* leafOf(NodeState& state, const std::string& node, int rail) const;

    const core::Plan* m_plan;
    CongestionThresholds m_thresholds;
    std::map<std::string, std::string> m_leafOf; ///< "node/rail" -> leaf
    std::unordered_map<std::string, NodeState, Hash, std::equal_to<>> m_last;
    CounterNames m_names;                ///< the compact texts' counter names
    std::vector<std::int8_t> m_slotOf;   ///< name id -> slot, -1 for a counter no rate uses
    NodeRateInputs m_scratch;
    std::map<std::string, double> m_xmitWaitFloor; ///< "node/device/port" -> lowest rate seen
    std::vector<PortRates> m_pending;
    std::int64_t m_latestMs = 0;
};

/// A watch over several sweeps: each rail and leaf at its worst (the sweep with the most severe
/// verdict, erroring > pausing > congested > healthy, and of those the one with rates for the most
/// ports; mean throughput over the sweeps that had ports), and one
/// finding per group that was not healthy: CONGESTION_ERRORING (error), CONGESTION_PAUSING and
/// CONGESTION_CONGESTED (warning), `where` the leaf's name or "rail N".
struct WatchSummary {
    std::vector<GroupRates> rails, leaves;
    std::vector<core::Finding> findings;
};
WatchSummary summarizeSweeps(const std::vector<Sweep>& sweeps);

/// summarizeSweeps() one sweep at a time, keeping only each group's worst and its sums: a watch
/// of hours holds a few numbers per rail and leaf, not every sweep.
class SweepSummarizer {
public:
    void add(const Sweep& sweep);
    WatchSummary summary() const;

private:
    struct Group {
        GroupRates worst;
        double txSum = 0, rxSum = 0;
        int counted = 0;
    };
    struct Groups {
        std::vector<std::string> order;
        std::map<std::string, Group> byName;
        void add(const GroupRates& g);
        void into(std::vector<GroupRates>& out) const;
    };
    Groups m_rails, m_leaves;
};

nlohmann::json toJson(const PortRates& port);
nlohmann::json toJson(const GroupRates& group);
nlohmann::json toJson(const Sweep& sweep);

} // namespace railyard::live
