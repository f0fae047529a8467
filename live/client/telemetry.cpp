// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/telemetry.h"

#include "core/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace railyard::live {

namespace {

    constexpr const char* kLinkErrorCounters[] = { "symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors",
        "port_xmit_discards", "local_link_integrity_errors", "excessive_buffer_overrun_errors" };


    const Counter* find(const std::map<std::string, Counter>& counters, const std::string& name)
    {
        const auto it = counters.find(name);
        return it == counters.end() ? nullptr : &it->second;
    }

    /// The lower quartile (nearest rank below): what the quieter ports of a rail see.
    double lowerQuartile(std::vector<double> v)
    {
        if (v.empty())
            return 0;
        std::sort(v.begin(), v.end());
        return v[(v.size() - 1) / 4];
    }

    /// The verdict of a group from its ports' rates, and the evidence.
    void judge(GroupRates& g, const std::vector<const PortRates*>& ports, const std::map<const PortRates*, double>& baseline,
        const CongestionThresholds& t)
    {
        if (g.ports == 0) {
            g.health = Health::Unknown;
            g.reason = "no port had a rate in this interval";
            return;
        }
        auto worst = [&](auto value) {
            const PortRates* w = nullptr;
            for (const PortRates* p : ports)
                if (!w || value(*p) > value(*w))
                    w = p;
            return w;
        };
        auto name = [](const PortRates& p) { return p.node + " " + p.device + " (rail " + std::to_string(p.rail) + ")"; };
        if (const PortRates* e = worst([](const PortRates& p) { return static_cast<double>(p.linkErrors); });
            e && e->linkErrors >= t.errors) {
            g.health = Health::Erroring;
            g.reason = std::to_string(g.linkErrors) + " link errors in the interval; most on " + name(*e) + " ("
                + std::to_string(e->linkErrors) + "): check the cable and both ports";
            return;
        }
        if (const PortRates* p = worst([](const PortRates& r) { return r.pfcPausePerS; }); p && p->pfcPausePerS >= t.pausePerS) {
            g.health = Health::Pausing;
            g.reason = "PFC pause frames received: " + core::formatFixed(p->pfcPausePerS, 0) + "/s on " + name(*p) + " ("
                + core::formatFixed(p->pfcPauseUsPerS / 1e4, 1) + " % of the time paused): the switch runs out of buffer on the lossless "
                                                     "priority; ECN/DCQCN should act before PFC does";
            return;
        }
        if (const PortRates* p = worst([](const PortRates& r) { return r.ecnMarkedPerS; }); p && p->ecnMarkedPerS >= t.ecnMarkedPerS) {
            g.health = Health::Congested;
            g.reason = "ECN-marked packets: " + core::formatFixed(p->ecnMarkedPerS, 0) + "/s on " + name(*p) + ", CNPs sent "
                + core::formatFixed(p->cnpSentPerS, 0) + "/s";
            return;
        }
        const PortRates* stalled = nullptr;
        double ratio = 0;
        for (const PortRates* p : ports) {
            if (!p->xmitWaitPerS || *p->xmitWaitPerS < t.xmitWaitMinPerS)
                continue;
            const double base = baseline.count(p) ? baseline.at(p) : 0;
            const double r = base > 0 ? *p->xmitWaitPerS / base : HUGE_VAL;
            if (r >= t.xmitWaitRatio && r > ratio) {
                ratio = r;
                stalled = p;
            }
        }
        if (stalled) {
            g.health = Health::Congested;
            g.reason = "XmitWait " + core::formatFixed(*stalled->xmitWaitPerS, 0) + " ticks/s on " + name(*stalled)
                + (std::isinf(ratio) ? std::string(", where the port and its rail are otherwise idle")
                                     : ", " + core::formatFixed(ratio, 1) + " times its baseline")
                + ": packets wait for credits, the path beyond the port (its leaf's uplinks) is short of bandwidth";
            return;
        }
        g.health = Health::Healthy;
        g.reason = "no errors, pauses, ECN marks or XmitWait above the thresholds";
    }

    void addTo(GroupRates& g, const PortRates& p)
    {
        if (!p.txGbps && !p.rxGbps)
            return;
        ++g.ports;
        g.txGbps += p.txGbps.value_or(0);
        g.rxGbps += p.rxGbps.value_or(0);
        g.xmitWaitPerS += p.xmitWaitPerS.value_or(0);
        g.ecnMarkedPerS += p.ecnMarkedPerS;
        g.cnpSentPerS += p.cnpSentPerS;
        g.pfcPausePerS += p.pfcPausePerS;
        g.pfcPauseUsPerS += p.pfcPauseUsPerS;
        g.retransmitsPerS += p.retransmitsPerS;
        g.linkErrors += p.linkErrors;
    }

    double round2(double v) { return std::round(v * 100) / 100; }

} // namespace

std::optional<std::uint64_t> counterDelta(const Counter& before, const Counter& after, std::string* note)
{
    switch (after.kind) {
    case CounterKind::Saturating:
        if (before.saturated || after.saturated) {
            if (note)
                *note = "at its maximum (" + std::to_string(after.widthBits) + " bits): reset needed, its rate is unknown";
            return std::nullopt;
        }
        [[fallthrough]];
    case CounterKind::Plain:
    case CounterKind::Words4:
        if (after.value < before.value) {
            if (note)
                *note = "went down (" + std::to_string(before.value) + " to " + std::to_string(after.value) + "): the counter was reset";
            return std::nullopt;
        }
        return after.value - before.value;
    case CounterKind::Wrapping32:
        return (after.value - before.value) & 0xffffffffull;
    }
    return std::nullopt;
}

std::vector<PortRates> portRates(const CounterSnapshot& before, const CounterSnapshot& after)
{
    std::vector<PortRates> out;
    const double seconds = static_cast<double>(after.timestampMs - before.timestampMs) / 1000;
    if (seconds <= 0)
        return out;
    for (const PortCounters& a : after.ports) {
        const auto b = std::find_if(before.ports.begin(), before.ports.end(),
            [&](const PortCounters& p) { return p.device == a.device && p.port == a.port; });
        if (b == before.ports.end())
            continue;
        PortRates r;
        r.node = after.node;
        r.device = a.device;
        r.port = a.port;
        r.rail = a.rail;
        r.seconds = seconds;
        auto delta = [&](const std::map<std::string, Counter>& x, const std::map<std::string, Counter>& y,
                         const std::string& name) -> std::optional<std::uint64_t> {
            const Counter* c0 = find(x, name);
            const Counter* c1 = find(y, name);
            if (!c0 || !c1)
                return std::nullopt;
            std::string why;
            auto d = counterDelta(*c0, *c1, &why);
            if (!d)
                r.notes.push_back(name + " " + why);
            return d;
        };
        auto perSecond = [&](std::optional<std::uint64_t> d) { return d ? static_cast<double>(*d) / seconds : 0.0; };
        if (const auto d = delta(b->counters, a.counters, "port_xmit_data"))
            r.txGbps = static_cast<double>(*d) * 4 * 8 / seconds / 1e9;
        if (const auto d = delta(b->counters, a.counters, "port_rcv_data"))
            r.rxGbps = static_cast<double>(*d) * 4 * 8 / seconds / 1e9;
        if (find(a.counters, "port_xmit_wait"))
            if (const auto d = delta(b->counters, a.counters, "port_xmit_wait"))
                r.xmitWaitPerS = static_cast<double>(*d) / seconds;
        for (const char* name : kLinkErrorCounters)
            r.linkErrors += delta(b->counters, a.counters, name).value_or(0);
        r.ecnMarkedPerS = perSecond(delta(b->hwCounters, a.hwCounters, "np_ecn_marked_roce_packets"));
        r.cnpSentPerS = perSecond(delta(b->hwCounters, a.hwCounters, "np_cnp_sent"));
        r.cnpHandledPerS = perSecond(delta(b->hwCounters, a.hwCounters, "rp_cnp_handled"));
        r.outOfSequencePerS = perSecond(delta(b->hwCounters, a.hwCounters, "out_of_sequence"))
            + perSecond(delta(b->hwCounters, a.hwCounters, "packet_seq_err"));
        r.retransmitsPerS = perSecond(delta(b->hwCounters, a.hwCounters, "roce_adp_retrans"));
        // ethtool: 64-bit statistics; rx_prio<N>_pause and rx_prio<N>_pause_duration (microseconds).
        for (const auto& [name, value] : a.ethtool) {
            const bool pause = name.starts_with("rx_prio") && name.ends_with("_pause");
            const bool duration = name.starts_with("rx_prio") && name.ends_with("_pause_duration");
            if (!pause && !duration)
                continue;
            const auto old = b->ethtool.find(name);
            if (old == b->ethtool.end())
                continue;
            if (value < old->second) {
                r.notes.push_back(name + " went down: the statistics were reset");
                continue;
            }
            (pause ? r.pfcPausePerS : r.pfcPauseUsPerS) += static_cast<double>(value - old->second) / seconds;
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::string_view toString(Health health)
{
    switch (health) {
    case Health::Healthy: return "healthy";
    case Health::Congested: return "congested";
    case Health::Pausing: return "pausing";
    case Health::Erroring: return "erroring";
    case Health::Unknown: break;
    }
    return "unknown";
}

std::map<std::string, std::string> railLeaves(const core::Plan& plan)
{
    std::map<std::string, std::string> out;
    for (const core::Link& l : plan.links)
        if (l.tier == core::LinkTier::NodeLeaf && l.a.plane == 0)
            out[plan.devices[l.a.device].name + "/" + std::to_string(l.a.port)] = plan.devices[l.b.device].name;
    return out;
}

TelemetryAggregator::TelemetryAggregator(const core::Plan& plan, CongestionThresholds thresholds)
    : m_plan(&plan)
    , m_thresholds(thresholds)
    , m_leafOf(railLeaves(plan))
{
}

void TelemetryAggregator::add(const CounterSnapshot& snapshot)
{
    const auto it = m_last.find(snapshot.node);
    if (it != m_last.end()) {
        for (PortRates& r : portRates(it->second, snapshot)) {
            if (const auto leaf = m_leafOf.find(r.node + "/" + std::to_string(r.rail)); leaf != m_leafOf.end())
                r.leaf = leaf->second;
            m_pending.push_back(std::move(r));
        }
    }
    m_latestMs = std::max(m_latestMs, snapshot.timestampMs);
    m_last[snapshot.node] = snapshot;
}

Sweep TelemetryAggregator::sweep()
{
    std::vector<PortRates> ports = std::move(m_pending);
    m_pending.clear();
    return aggregateSweep(std::move(ports), *m_plan, m_thresholds, m_xmitWaitFloor, m_latestMs);
}

Sweep aggregateSweep(std::vector<PortRates> ports, const core::Plan& plan, const CongestionThresholds& thresholds,
    std::map<std::string, double>& xmitWaitFloor, std::int64_t timestampMs)
{
    Sweep s;
    s.timestampMs = timestampMs;
    s.ports = std::move(ports);

    // XmitWait baselines: the lower of the port's own lowest rate so far and its rail's lower quartile now.
    std::map<int, std::vector<double>> railWaits;
    for (const PortRates& p : s.ports)
        if (p.xmitWaitPerS)
            railWaits[p.rail].push_back(*p.xmitWaitPerS);
    std::map<int, double> railQuiet;
    for (auto& [rail, v] : railWaits)
        railQuiet[rail] = lowerQuartile(v);
    std::map<const PortRates*, double> baseline;
    for (const PortRates& p : s.ports) {
        if (!p.xmitWaitPerS)
            continue;
        const std::string key = p.node + "/" + p.device + "/" + std::to_string(p.port);
        auto floor = xmitWaitFloor.find(key);
        const double own = floor == xmitWaitFloor.end() ? *p.xmitWaitPerS : std::min(floor->second, *p.xmitWaitPerS);
        baseline[&p] = std::min(own, railQuiet[p.rail]);
        xmitWaitFloor[key] = own;
    }

    std::map<int, GroupRates> rails;
    std::map<int, std::vector<const PortRates*>> railPorts;
    std::map<std::string, GroupRates> leaves;
    std::map<std::string, std::vector<const PortRates*>> leafPorts;
    for (const PortRates& p : s.ports) {
        if (p.rail < 0)
            continue;
        GroupRates& r = rails[p.rail];
        r.rail = p.rail;
        r.name = "rail " + std::to_string(p.rail);
        addTo(r, p);
        railPorts[p.rail].push_back(&p);
        if (!p.leaf.empty()) {
            GroupRates& l = leaves[p.leaf];
            l.name = p.leaf;
            l.rail = p.rail;
            addTo(l, p);
            leafPorts[p.leaf].push_back(&p);
        }
        for (const std::string& n : p.notes)
            s.notes.push_back(p.node + " " + p.device + ": " + n);
    }
    for (auto& [rail, g] : rails) {
        judge(g, railPorts[rail], baseline, thresholds);
        s.rails.push_back(g);
    }
    // Leaves in plan order.
    for (const core::Device& d : plan.devices) {
        if (d.kind != core::DeviceKind::Switch || d.tier != core::SwitchTier::Leaf)
            continue;
        const auto it = leaves.find(d.name);
        if (it == leaves.end())
            continue;
        judge(it->second, leafPorts[d.name], baseline, thresholds);
        s.leaves.push_back(it->second);
    }
    return s;
}

WatchSummary summarizeSweeps(const std::vector<Sweep>& sweeps)
{
    WatchSummary out;
    auto fold = [&](auto member, std::vector<GroupRates>& into) {
        std::vector<std::string> order;
        std::map<std::string, GroupRates> worst;
        std::map<std::string, std::pair<double, double>> sums;
        std::map<std::string, int> counted;
        for (const Sweep& s : sweeps)
            for (const GroupRates& g : s.*member) {
                if (!worst.count(g.name)) {
                    order.push_back(g.name);
                    worst[g.name] = g;
                } else if (static_cast<int>(g.health) > static_cast<int>(worst[g.name].health)) {
                    worst[g.name] = g;
                }
                if (g.ports > 0) {
                    sums[g.name].first += g.txGbps;
                    sums[g.name].second += g.rxGbps;
                    ++counted[g.name];
                }
            }
        for (const std::string& name : order) {
            GroupRates g = worst[name];
            if (counted[name] > 0) {
                g.txGbps = sums[name].first / counted[name];
                g.rxGbps = sums[name].second / counted[name];
            }
            into.push_back(g);
        }
    };
    fold(&Sweep::rails, out.rails);
    fold(&Sweep::leaves, out.leaves);
    for (const auto* list : { &out.leaves, &out.rails })
        for (const GroupRates& g : *list) {
            switch (g.health) {
            case Health::Erroring:
                out.findings.push_back({ core::Severity::Error, "CONGESTION_ERRORING", g.name + ": " + g.reason, g.name });
                break;
            case Health::Pausing:
                out.findings.push_back({ core::Severity::Warning, "CONGESTION_PAUSING", g.name + ": " + g.reason, g.name });
                break;
            case Health::Congested:
                out.findings.push_back({ core::Severity::Warning, "CONGESTION_CONGESTED", g.name + ": " + g.reason, g.name });
                break;
            case Health::Healthy:
            case Health::Unknown: break;
            }
        }
    return out;
}

nlohmann::json toJson(const PortRates& p)
{
    nlohmann::json j { { "node", p.node }, { "device", p.device }, { "port", p.port }, { "rail", p.rail }, { "leaf", p.leaf },
        { "seconds", round2(p.seconds) } };
    j["tx_gbps"] = p.txGbps ? nlohmann::json(round2(*p.txGbps)) : nlohmann::json();
    j["rx_gbps"] = p.rxGbps ? nlohmann::json(round2(*p.rxGbps)) : nlohmann::json();
    j["xmit_wait_per_s"] = p.xmitWaitPerS ? nlohmann::json(round2(*p.xmitWaitPerS)) : nlohmann::json();
    j["ecn_marked_per_s"] = round2(p.ecnMarkedPerS);
    j["cnp_sent_per_s"] = round2(p.cnpSentPerS);
    j["cnp_handled_per_s"] = round2(p.cnpHandledPerS);
    j["pfc_pause_per_s"] = round2(p.pfcPausePerS);
    j["pfc_pause_us_per_s"] = round2(p.pfcPauseUsPerS);
    j["out_of_sequence_per_s"] = round2(p.outOfSequencePerS);
    j["retransmits_per_s"] = round2(p.retransmitsPerS);
    j["link_errors"] = p.linkErrors;
    if (!p.notes.empty())
        j["notes"] = p.notes;
    return j;
}

nlohmann::json toJson(const GroupRates& g)
{
    return { { "name", g.name }, { "rail", g.rail }, { "ports", g.ports }, { "tx_gbps", round2(g.txGbps) }, { "rx_gbps", round2(g.rxGbps) },
        { "xmit_wait_per_s", round2(g.xmitWaitPerS) }, { "ecn_marked_per_s", round2(g.ecnMarkedPerS) },
        { "cnp_sent_per_s", round2(g.cnpSentPerS) }, { "pfc_pause_per_s", round2(g.pfcPausePerS) },
        { "retransmits_per_s", round2(g.retransmitsPerS) }, { "link_errors", g.linkErrors },
        { "health", std::string(toString(g.health)) }, { "reason", g.reason } };
}

nlohmann::json toJson(const Sweep& s)
{
    nlohmann::json rails = nlohmann::json::array();
    for (const GroupRates& g : s.rails)
        rails.push_back(toJson(g));
    nlohmann::json leaves = nlohmann::json::array();
    for (const GroupRates& g : s.leaves)
        leaves.push_back(toJson(g));
    return { { "timestamp_ms", s.timestampMs }, { "rails", std::move(rails) }, { "leaves", std::move(leaves) }, { "notes", s.notes } };
}

} // namespace railyard::live
