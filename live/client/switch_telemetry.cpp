// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/switch_telemetry.h"

#include "core/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace railyard::live {

namespace {

    int severity(Health h)
    {
        switch (h) {
        case Health::Erroring: return 3;
        case Health::Congested: return 2;
        case Health::Healthy: return 1;
        case Health::Pausing: return 2; // not judged on switches (no PFC on InfiniBand)
        case Health::Unknown: break;
        }
        return 0;
    }

    std::string portText(const SwitchPortRates& p)
    {
        std::string s = p.rates.node + "/" + std::to_string(p.rates.port);
        if (!p.peer.empty())
            s += " (" + p.role + " to " + p.peer + ")";
        else
            s += " (not cabled in the plan)";
        return s;
    }

    double loadPercent(const SwitchPortRates& p)
    {
        if (p.lineGbps <= 0)
            return 0;
        return 100.0 * std::max(p.rates.txGbps.value_or(0), p.rates.rxGbps.value_or(0)) / p.lineGbps;
    }

} // namespace

SwitchTelemetry::SwitchTelemetry(const core::Plan& plan, CongestionThresholds thresholds)
    : m_plan(&plan)
    , m_thresholds(thresholds)
{
    const double line = plan.summary.port.dataGbps;
    for (const core::Link& l : plan.links) {
        if (!l.installed)
            continue;
        const auto& a = plan.devices[l.a.device];
        const auto& b = plan.devices[l.b.device];
        // `a` is the lower end: a leaf's link to a spine is its uplink and the spine's downlink.
        if (a.kind == core::DeviceKind::Switch)
            m_ports[a.name][l.a.port] = { "uplink", plan.portName(l.b), line };
        if (b.kind == core::DeviceKind::Switch)
            m_ports[b.name][l.b.port] = { "downlink", plan.portName(l.a), line };
    }
}

void SwitchTelemetry::add(const CounterSnapshot& snapshot)
{
    if (const auto it = m_last.find(snapshot.node); it != m_last.end())
        for (PortRates& r : portRates(it->second, snapshot))
            m_pending.push_back(std::move(r));
    m_last[snapshot.node] = snapshot;
}

std::vector<SwitchRates> SwitchTelemetry::sweep()
{
    std::vector<PortRates> pending = std::move(m_pending);
    m_pending.clear();
    std::map<std::string, SwitchRates> bySwitch;
    for (PortRates& r : pending) {
        SwitchRates& s = bySwitch[r.node];
        s.name = r.node;
        SwitchPortRates p;
        const auto sw = m_ports.find(r.node);
        if (sw != m_ports.end())
            if (const auto port = sw->second.find(r.port); port != sw->second.end()) {
                p.role = port->second.role;
                p.peer = port->second.peer;
                p.lineGbps = port->second.lineGbps;
            }
        if (p.role.empty())
            p.role = "uncabled";
        p.rates = std::move(r);
        s.ports.push_back(std::move(p));
    }

    // XmitWait baselines per tier: the quieter ports of the same tier now, or the port's own floor.
    std::map<std::string, std::string> tierOf;
    for (const core::Device& d : m_plan->devices)
        if (d.kind == core::DeviceKind::Switch)
            tierOf[d.name] = std::string(core::toString(d.tier));
    std::map<std::string, std::vector<double>> tierWaits;
    for (const auto& [name, s] : bySwitch)
        for (const SwitchPortRates& p : s.ports)
            if (p.rates.xmitWaitPerS)
                tierWaits[tierOf[name]].push_back(*p.rates.xmitWaitPerS);
    std::map<std::string, double> tierQuiet;
    for (auto& [tier, v] : tierWaits) {
        std::sort(v.begin(), v.end());
        tierQuiet[tier] = v.empty() ? 0 : v[(v.size() - 1) / 4];
    }

    std::vector<SwitchRates> out;
    for (const core::Device& d : m_plan->devices) {
        if (d.kind != core::DeviceKind::Switch)
            continue;
        const auto it = bySwitch.find(d.name);
        if (it == bySwitch.end())
            continue;
        SwitchRates s = std::move(it->second);
        s.tier = std::string(core::toString(d.tier));
        s.rail = d.tier == core::SwitchTier::Leaf ? d.rail : -1;
        std::sort(s.ports.begin(), s.ports.end(),
            [](const SwitchPortRates& a, const SwitchPortRates& b) { return a.rates.port < b.rates.port; });
        const SwitchPortRates* erroring = nullptr;
        const SwitchPortRates* stalled = nullptr;
        double stallRatio = 0;
        int measured = 0;
        for (const SwitchPortRates& p : s.ports) {
            const PortRates& r = p.rates;
            if (!r.txGbps && !r.rxGbps)
                continue;
            ++measured;
            if (p.role == "uplink") {
                ++s.uplinks;
                s.uplinkTxGbps += r.txGbps.value_or(0);
                s.uplinkRxGbps += r.rxGbps.value_or(0);
                s.uplinkCapacityGbps += p.lineGbps;
                if (const double load = loadPercent(p); load > s.busiestUplinkPercent || s.busiestUplink.empty()) {
                    s.busiestUplinkPercent = load;
                    s.busiestUplink = r.node + "/" + std::to_string(r.port);
                }
            } else if (p.role == "downlink") {
                ++s.downlinks;
                s.downlinkTxGbps += r.txGbps.value_or(0);
                s.downlinkRxGbps += r.rxGbps.value_or(0);
            }
            s.linkErrors += r.linkErrors;
            s.xmitWaitPerS += r.xmitWaitPerS.value_or(0);
            if (r.linkErrors >= m_thresholds.errors && (!erroring || r.linkErrors > erroring->rates.linkErrors))
                erroring = &p;
            if (r.xmitWaitPerS) {
                const std::string key = r.node + "/" + std::to_string(r.port);
                const auto floor = m_xmitWaitFloor.find(key);
                const double own = floor == m_xmitWaitFloor.end() ? *r.xmitWaitPerS : std::min(floor->second, *r.xmitWaitPerS);
                m_xmitWaitFloor[key] = own;
                const double base = std::min(own, tierQuiet[s.tier]);
                if (*r.xmitWaitPerS >= m_thresholds.xmitWaitMinPerS) {
                    const double ratio = base > 0 ? *r.xmitWaitPerS / base : HUGE_VAL;
                    if (ratio >= m_thresholds.xmitWaitRatio && ratio > stallRatio) {
                        stallRatio = ratio;
                        stalled = &p;
                    }
                }
            }
        }
        if (measured == 0) {
            s.health = Health::Unknown;
            s.reason = "no port had a rate in this interval";
        } else if (erroring) {
            s.health = Health::Erroring;
            s.reason = std::to_string(s.linkErrors) + " link errors in the interval; most on " + portText(*erroring) + " ("
                + std::to_string(erroring->rates.linkErrors) + "): check the cable and both ports";
        } else if (stalled) {
            s.health = Health::Congested;
            s.reason = "XmitWait " + core::formatFixed(*stalled->rates.xmitWaitPerS, 0) + " ticks/s on " + portText(*stalled)
                + (std::isinf(stallRatio) ? std::string(", where the other ports of its tier do not wait at all")
                                          : ", " + core::formatFixed(stallRatio, 1) + " times its baseline")
                + ", carrying " + core::formatFixed(loadPercent(*stalled), 0) + " % of its line rate"
                + (stalled->role == "uplink" ? std::string(": the uplink is short of bandwidth or credits (its far end, "
                                                           "the cable, or too much traffic for the uplinks)")
                                             : std::string(": packets wait for credits from the far end"));
        } else {
            s.health = Health::Healthy;
            s.reason = "no link errors and no XmitWait above the thresholds";
        }
        out.push_back(std::move(s));
    }
    return out;
}

core::Result<std::unique_ptr<SwitchWatch>> SwitchWatch::start(const core::Plan& plan, const core::Catalog& catalog,
    const DiscoveryOptions& discovery, const CongestionThresholds& thresholds)
{
    core::Result<IbFabric> fabric = discoverFabric(discovery);
    if (!fabric)
        return fabric.errors();
    const CablingReport report = checkIbCabling(plan, catalog, *fabric);
    std::unique_ptr<SwitchWatch> watch(new SwitchWatch(plan, thresholds));
    watch->m_targets = switchTargets(*fabric, report.switches);
    for (const SwitchMatch& m : report.switches)
        if (m.name.empty())
            ++watch->m_unidentified;
    if (watch->m_targets.empty())
        return core::Error { "IB_PMA", "the discovered subnet has no switch with a LID to query", "--switches",
            "check that the Subnet Manager has brought the subnet up (LIDs assigned)" };
    watch->m_pma.caName = discovery.caName;
    watch->m_pma.caPort = discovery.caPort;
    watch->m_pma.timeoutMs = discovery.timeoutMs;
    watch->m_pma.retries = static_cast<int>(discovery.retries);
    return watch;
}

std::optional<std::vector<SwitchRates>> SwitchWatch::sample(std::vector<std::string>& failures)
{
    core::Result<SwitchCounterSweep> sweep = querySwitchCounters(m_targets, m_pma);
    if (!sweep) {
        failures.push_back(sweep.error().message);
        return std::nullopt;
    }
    failures.insert(failures.end(), sweep->failures.begin(), sweep->failures.end());
    if (sweep->snapshots.empty())
        return std::nullopt;
    for (const CounterSnapshot& s : sweep->snapshots)
        m_telemetry.add(s);
    if (m_first) {
        m_first = false;
        return std::nullopt;
    }
    return m_telemetry.sweep();
}

void keepWorstSwitches(std::vector<SwitchRates>& worst, const std::vector<SwitchRates>& sweep)
{
    for (std::size_t i = 0; i < sweep.size(); ++i) {
        const SwitchRates& s = sweep[i];
        // Sweeps list the switches in the same order: the same place first, a search otherwise.
        const auto it = i < worst.size() && worst[i].name == s.name
            ? worst.begin() + static_cast<std::ptrdiff_t>(i)
            : std::find_if(worst.begin(), worst.end(), [&](const SwitchRates& w) { return w.name == s.name; });
        if (it == worst.end())
            worst.push_back(s);
        else if (severity(s.health) > severity(it->health))
            *it = s;
    }
}

std::vector<core::Finding> switchFindings(const std::vector<SwitchRates>& worst)
{
    std::vector<core::Finding> out;
    for (const SwitchRates& s : worst) {
        if (s.health == Health::Erroring)
            out.push_back({ core::Severity::Error, "SWITCH_ERRORING", s.name + ": " + s.reason, s.name });
        else if (s.health == Health::Congested)
            out.push_back({ core::Severity::Warning, "SWITCH_CONGESTED", s.name + ": " + s.reason, s.name });
    }
    return out;
}

nlohmann::json toJson(const SwitchRates& s)
{
    auto r2 = [](double v) { return std::round(v * 100) / 100; };
    nlohmann::json ports = nlohmann::json::array();
    for (const SwitchPortRates& p : s.ports) {
        nlohmann::json j = toJson(p.rates);
        j["role"] = p.role;
        j["peer"] = p.peer;
        j["load_percent"] = r2(loadPercent(p));
        ports.push_back(std::move(j));
    }
    return {
        { "name", s.name },
        { "tier", s.tier },
        { "rail", s.rail >= 0 ? nlohmann::json(s.rail) : nlohmann::json() },
        { "uplinks", s.uplinks },
        { "downlinks", s.downlinks },
        { "uplink_tx_gbps", r2(s.uplinkTxGbps) },
        { "uplink_rx_gbps", r2(s.uplinkRxGbps) },
        { "downlink_tx_gbps", r2(s.downlinkTxGbps) },
        { "downlink_rx_gbps", r2(s.downlinkRxGbps) },
        { "uplink_capacity_gbps", r2(s.uplinkCapacityGbps) },
        { "busiest_uplink", s.busiestUplink },
        { "busiest_uplink_percent", r2(s.busiestUplinkPercent) },
        { "xmit_wait_per_s", r2(s.xmitWaitPerS) },
        { "link_errors", s.linkErrors },
        { "health", std::string(toString(s.health)) },
        { "reason", s.reason },
        { "ports", std::move(ports) },
    };
}

} // namespace railyard::live
