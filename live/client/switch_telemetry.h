// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Switch-side telemetry (InfiniBand): the leaves' and spines' own port counters, read through
// the PMAs (live/client/ib_perf.h), turned into per-port rates with the same arithmetic as the
// nodes' counters (telemetry.h portRates()), and judged per switch: how loaded its uplinks and
// downlinks are against the plan's line rate, and whether its ports stall (XmitWait) or err.
//
// Which port is an uplink comes from the plan's cable map (a leaf's ports cabled to spines, a
// spine's to cores); a port the plan does not cable is reported as such.
//
// Verdict per switch (thresholds: CongestionThresholds, telemetry.h), in this order:
//   erroring   a port's link-health counters rose by at least `errors` in the interval;
//   congested  a port's XmitWait is at least `xmitWaitMinPerS` ticks/s and `xmitWaitRatio` times
//              its baseline: the lower of its own lowest rate so far and the lower quartile of
//              the same tier's ports in this sweep (0, an idle tier, counts as exceeded);
//   healthy    neither; unknown when no port had a rate.
// The evidence names the worst port, what it is cabled to, and the load it carries.
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"
#include "live/client/ib_discovery.h"
#include "live/client/ib_perf.h"
#include "live/client/telemetry.h"
#include "live/common/inventory.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace railyard::live {

struct SwitchPortRates {
    PortRates rates;       ///< node = device = the switch's name
    std::string role;      ///< "uplink", "downlink" or "uncabled" (from the plan)
    std::string peer;      ///< the planned far end ("spine3/17", "node007/nic2"); empty when uncabled
    double lineGbps = 0;   ///< the planned data rate of the link
};

struct SwitchRates {
    std::string name;
    std::string tier; ///< "leaf", "spine", "core"
    int rail = -1;    ///< leaves
    std::vector<SwitchPortRates> ports;
    int uplinks = 0, downlinks = 0;    ///< ports with a rate
    double uplinkTxGbps = 0, uplinkRxGbps = 0, downlinkTxGbps = 0, downlinkRxGbps = 0;
    double uplinkCapacityGbps = 0;     ///< sum of the measured uplinks' line rates
    double busiestUplinkPercent = 0;   ///< the highest tx or rx share of line rate on one uplink
    std::string busiestUplink;         ///< "su1-rail2-leaf/33"
    double xmitWaitPerS = 0;           ///< summed over the ports
    std::uint64_t linkErrors = 0;
    Health health = Health::Unknown;
    std::string reason;
};

/// Keeps each switch's previous PMA snapshot and each port's XmitWait baseline across sweeps.
class SwitchTelemetry {
public:
    SwitchTelemetry(const core::Plan& plan, CongestionThresholds thresholds = {});
    /// A new snapshot of one switch (CounterSnapshot::node = its planned name); the first of a
    /// switch only sets its baseline.
    void add(const CounterSnapshot& snapshot);
    /// The switches whose rates were added since the last sweep, in plan order.
    std::vector<SwitchRates> sweep();

private:
    struct PortPlan {
        std::string role, peer;
        double lineGbps = 0;
    };
    const core::Plan* m_plan;
    CongestionThresholds m_thresholds;
    std::map<std::string, std::map<int, PortPlan>> m_ports; ///< switch -> port -> plan
    std::map<std::string, CounterSnapshot> m_last;
    std::map<std::string, double> m_xmitWaitFloor; ///< "switch/port" -> lowest rate seen
    std::vector<PortRates> m_pending;
};

/// `live watch --switches`: the subnet discovered once (libibnetdisc), its switches identified
/// against the plan (the cabling check's rules, cabling.h), then one PMA sweep per sample.
class SwitchWatch {
public:
    /// Fails (IB_DISCOVERY, IB_PMA) when the subnet cannot be discovered or has no switch with a LID.
    static core::Result<std::unique_ptr<SwitchWatch>> start(const core::Plan& plan, const core::Catalog& catalog,
        const DiscoveryOptions& discovery, const CongestionThresholds& thresholds);
    /// One sweep of every switch; nullopt for the first (it sets the baselines) or when no switch
    /// answered. `failures` gets the ports that did not answer this time.
    std::optional<std::vector<SwitchRates>> sample(std::vector<std::string>& failures);
    std::size_t switchCount() const { return m_targets.size(); }
    std::size_t unidentified() const { return m_unidentified; }

private:
    SwitchWatch(const core::Plan& plan, const CongestionThresholds& thresholds)
        : m_telemetry(plan, thresholds)
    {
    }
    std::vector<SwitchTarget> m_targets;
    PmaOptions m_pma;
    SwitchTelemetry m_telemetry;
    std::size_t m_unidentified = 0;
    bool m_first = true;
};

/// Folds one sweep into `worst`: each switch as it was at its worst so far (erroring > congested >
/// healthy > unknown; the first such sweep), in the order first seen. A watch of hours keeps one
/// entry per switch, not every sweep.
void keepWorstSwitches(std::vector<SwitchRates>& worst, const std::vector<SwitchRates>& sweep);

/// One finding per switch of `worst` that is not healthy: SWITCH_ERRORING (error) or
/// SWITCH_CONGESTED (warning), `where` the switch's name. (The agents' view of the same leaf,
/// from its hosts' ports, gives CONGESTION_* findings: telemetry.h.)
std::vector<core::Finding> switchFindings(const std::vector<SwitchRates>& worst);

nlohmann::json toJson(const SwitchRates& s);

} // namespace railyard::live
