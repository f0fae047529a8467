// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/telemetry.h"

#include "core/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace railyard::live {

namespace {

    const Counter* find(const std::map<std::string, Counter>& counters, const std::string& name)
    {
        const auto it = counters.find(name);
        return it == counters.end() ? nullptr : &it->second;
    }

    /// The counters of the rates, by slot (PortRateInputs): the order is the order of the notes.
    struct RateCounter {
        CounterSection section;
        const char* name;
    };
    constexpr RateCounter kRateCounters[] = {
        { CounterSection::Counters, "port_xmit_data" }, { CounterSection::Counters, "port_rcv_data" },
        { CounterSection::Counters, "port_xmit_wait" }, { CounterSection::Counters, "symbol_error" },
        { CounterSection::Counters, "link_error_recovery" }, { CounterSection::Counters, "link_downed" },
        { CounterSection::Counters, "port_rcv_errors" }, { CounterSection::Counters, "port_xmit_discards" },
        { CounterSection::Counters, "local_link_integrity_errors" }, { CounterSection::Counters, "excessive_buffer_overrun_errors" },
        { CounterSection::HwCounters, "np_ecn_marked_roce_packets" }, { CounterSection::HwCounters, "np_cnp_sent" },
        { CounterSection::HwCounters, "rp_cnp_handled" }, { CounterSection::HwCounters, "out_of_sequence" },
        { CounterSection::HwCounters, "packet_seq_err" }, { CounterSection::HwCounters, "roce_adp_retrans" },
        // ethtool -S: pause frames and pause duration (microseconds) received per priority, in
        // name order (the order the JSON's map gives).
        { CounterSection::Ethtool, "rx_prio0_pause" }, { CounterSection::Ethtool, "rx_prio0_pause_duration" },
        { CounterSection::Ethtool, "rx_prio1_pause" }, { CounterSection::Ethtool, "rx_prio1_pause_duration" },
        { CounterSection::Ethtool, "rx_prio2_pause" }, { CounterSection::Ethtool, "rx_prio2_pause_duration" },
        { CounterSection::Ethtool, "rx_prio3_pause" }, { CounterSection::Ethtool, "rx_prio3_pause_duration" },
        { CounterSection::Ethtool, "rx_prio4_pause" }, { CounterSection::Ethtool, "rx_prio4_pause_duration" },
        { CounterSection::Ethtool, "rx_prio5_pause" }, { CounterSection::Ethtool, "rx_prio5_pause_duration" },
        { CounterSection::Ethtool, "rx_prio6_pause" }, { CounterSection::Ethtool, "rx_prio6_pause_duration" },
        { CounterSection::Ethtool, "rx_prio7_pause" }, { CounterSection::Ethtool, "rx_prio7_pause_duration" },
    };
    static_assert(std::size(kRateCounters) == kRateCounterSlots);
    enum : std::size_t { kXmitData = 0, kRcvData = 1, kXmitWait = 2, kLinkErrorsFirst = 3, kLinkErrorsEnd = 10, kEcnMarked = 10,
        kCnpSent, kCnpHandled, kOutOfSequence, kPacketSeqErr, kRetransmits, kEthtoolFirst };

    /// The names as std::string, so a map lookup makes no temporary.
    const std::array<std::string, kRateCounterSlots>& rateCounterNames()
    {
        static const std::array<std::string, kRateCounterSlots> names = [] {
            std::array<std::string, kRateCounterSlots> n;
            for (std::size_t s = 0; s < kRateCounterSlots; ++s)
                n[s] = kRateCounters[s].name;
            return n;
        }();
        return names;
    }

    /// The slot of (section, name), -1 when no rate is made of it.
    std::int8_t slotOf(CounterSection section, std::string_view name)
    {
        for (std::size_t s = 0; s < kRateCounterSlots; ++s)
            if (kRateCounters[s].section == section && name == kRateCounters[s].name)
                return static_cast<std::int8_t>(s);
        return -1;
    }

    void put(PortRateInputs& p, std::size_t slot, const Counter& c)
    {
        p.slots[slot] = { c.value, static_cast<std::uint8_t>(c.kind), static_cast<std::uint8_t>(c.widthBits), c.saturated };
        p.present |= std::uint32_t { 1 } << slot;
    }

    Counter counterOf(const PortRateInputs::Slot& s)
    {
        return { s.value, static_cast<CounterKind>(s.kind), s.widthBits, s.saturated };
    }

    /// What the rates need of a JSON-read snapshot.
    NodeRateInputs inputsOf(const CounterSnapshot& snapshot)
    {
        const auto& names = rateCounterNames();
        NodeRateInputs out;
        out.timestampMs = snapshot.timestampMs;
        out.ports.reserve(snapshot.ports.size());
        for (const PortCounters& p : snapshot.ports) {
            PortRateInputs& in = out.ports.emplace_back();
            in.device = p.device;
            in.port = p.port;
            in.rail = p.rail;
            for (std::size_t s = 0; s < kRateCounterSlots; ++s) {
                switch (kRateCounters[s].section) {
                case CounterSection::Counters:
                    if (const Counter* c = find(p.counters, names[s]))
                        put(in, s, *c);
                    break;
                case CounterSection::HwCounters:
                    if (const Counter* c = find(p.hwCounters, names[s]))
                        put(in, s, *c);
                    break;
                case CounterSection::Ethtool:
                    if (const auto it = p.ethtool.find(names[s]); it != p.ethtool.end())
                        put(in, s, { it->second, CounterKind::Plain, 64, false });
                    break;
                }
            }
        }
        return out;
    }

    /// The port of `before` that is `now` (same device and port), the first such; null when none.
    const PortRateInputs* matching(const NodeRateInputs& before, const PortRateInputs& now)
    {
        for (const PortRateInputs& p : before.ports)
            if (p.port == now.port && p.device == now.device)
                return &p;
        return nullptr;
    }

    /// One port's rates: the one place the counters become rates, for both ingest paths.
    PortRates ratesOf(std::string_view node, const PortRateInputs& b, const PortRateInputs& a, double seconds)
    {
        PortRates r;
        r.node = node;
        r.device = a.device;
        r.port = a.port;
        r.rail = a.rail;
        r.seconds = seconds;
        const std::uint32_t both = a.present & b.present;
        auto delta = [&](std::size_t slot) -> std::optional<std::uint64_t> {
            if (!(both & (std::uint32_t { 1 } << slot)))
                return std::nullopt;
            std::string why;
            auto d = counterDelta(counterOf(b.slots[slot]), counterOf(a.slots[slot]), &why);
            if (!d)
                r.notes.push_back(kRateCounters[slot].name + (" " + why));
            return d;
        };
        auto perSecond = [&](std::optional<std::uint64_t> d) { return d ? static_cast<double>(*d) / seconds : 0.0; };
        if (const auto d = delta(kXmitData))
            r.txGbps = static_cast<double>(*d) * 4 * 8 / seconds / 1e9;
        if (const auto d = delta(kRcvData))
            r.rxGbps = static_cast<double>(*d) * 4 * 8 / seconds / 1e9;
        if (const auto d = delta(kXmitWait))
            r.xmitWaitPerS = static_cast<double>(*d) / seconds;
        for (std::size_t s = kLinkErrorsFirst; s < kLinkErrorsEnd; ++s)
            r.linkErrors += delta(s).value_or(0);
        r.ecnMarkedPerS = perSecond(delta(kEcnMarked));
        r.cnpSentPerS = perSecond(delta(kCnpSent));
        r.cnpHandledPerS = perSecond(delta(kCnpHandled));
        r.outOfSequencePerS = perSecond(delta(kOutOfSequence)) + perSecond(delta(kPacketSeqErr));
        r.retransmitsPerS = perSecond(delta(kRetransmits));
        // ethtool statistics are 64-bit and plain: a smaller value means they were reset.
        for (std::size_t s = kEthtoolFirst; s < kRateCounterSlots; s += 2) {
            if (const auto d = delta(s))
                r.pfcPausePerS += static_cast<double>(*d) / seconds;
            if (const auto d = delta(s + 1))
                r.pfcPauseUsPerS += static_cast<double>(*d) / seconds;
        }
        return r;
    }

    /// Fills a node's inputs from a compact text, reusing the buffers of `into`.
    class InputsSink final : public CompactCountersSink {
    public:
        InputsSink(NodeRateInputs& into, std::vector<std::int8_t>& slots, const CounterNames& names)
            : m_into(into)
            , m_slots(slots)
            , m_names(names)
        {
        }
        void begin(std::string_view node, std::int64_t timestampMs) override
        {
            nodeName = node;
            m_into.timestampMs = timestampMs;
        }
        void port(std::string_view device, int port, int rail, std::string_view) override
        {
            if (m_count == m_into.ports.size())
                m_into.ports.emplace_back();
            PortRateInputs& p = m_into.ports[m_count++];
            p.device.assign(device);
            p.port = port;
            p.rail = rail;
            p.present = 0;
        }
        void sample(CounterSection, std::uint32_t name, const Counter& value) override
        {
            while (m_slots.size() <= name) {
                const auto id = static_cast<std::uint32_t>(m_slots.size());
                m_slots.push_back(slotOf(m_names.section(id), m_names.name(id)));
            }
            if (const std::int8_t s = m_slots[name]; s >= 0)
                put(m_into.ports[m_count - 1], static_cast<std::size_t>(s), value);
        }
        void finish() { m_into.ports.resize(m_count); }
        std::string_view nodeName; ///< as the text says, points into it

    private:
        NodeRateInputs& m_into;
        std::vector<std::int8_t>& m_slots;
        const CounterNames& m_names;
        std::size_t m_count = 0;
    };

    /// The lower quartile (nearest rank below): what the quieter ports of a rail see.
    double lowerQuartile(std::vector<double>& v)
    {
        if (v.empty())
            return 0;
        // The element a sort would put there, without sorting the rest (16K ports a rail).
        const auto at = v.begin() + static_cast<std::ptrdiff_t>((v.size() - 1) / 4);
        std::nth_element(v.begin(), at, v.end());
        return *at;
    }

    /// The verdict of a group from its ports' rates, and the evidence.
    /// `baseline` has the XmitWait baseline of each port, by its index in `all`.
    void judge(GroupRates& g, const std::vector<const PortRates*>& ports, const PortRates* all, const std::vector<double>& baseline,
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
            const double base = baseline[static_cast<std::size_t>(p - all)];
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
    const NodeRateInputs b = inputsOf(before), a = inputsOf(after);
    for (const PortRateInputs& now : a.ports) {
        if (const PortRateInputs* old = matching(b, now))
            out.push_back(ratesOf(after.node, *old, now, seconds));
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
    NodeRateInputs now = inputsOf(snapshot);
    ingest(snapshot.node, now);
}

core::Status TelemetryAggregator::addCompact(std::string_view text, std::string_view where, std::string_view node)
{
    InputsSink sink(m_scratch, m_slotOf, m_names);
    if (core::Status ok = parseCompactCounters(text, where, m_names, sink); !ok)
        return ok;
    sink.finish();
    const std::string_view name = sink.nodeName.empty() ? node : sink.nodeName;
    if (name.empty())
        return core::Error { "AGENT_COMPACT", "the counters name no node", std::string(where),
            "give the node's name (agents.json \"node\"), or start the agent with --node NAME" };
    // `name` may point into `text`, which ingest() does not touch.
    ingest(name, m_scratch);
    return core::Status::success();
}

void TelemetryAggregator::ingest(std::string_view node, NodeRateInputs& now)
{
    auto it = m_last.find(node);
    if (it == m_last.end()) {
        it = m_last.emplace(std::string(node), NodeState {}).first;
    } else if (const double seconds = static_cast<double>(now.timestampMs - it->second.inputs.timestampMs) / 1000; seconds > 0) {
        NodeState& state = it->second;
        for (const PortRateInputs& p : now.ports) {
            const PortRateInputs* old = matching(state.inputs, p);
            if (!old)
                continue;
            PortRates r = ratesOf(it->first, *old, p, seconds);
            if (const std::string* leaf = leafOf(state, it->first, r.rail))
                r.leaf = *leaf;
            m_pending.push_back(std::move(r));
        }
    }
    m_latestMs = std::max(m_latestMs, now.timestampMs);
    std::swap(it->second.inputs, now);
}

const std::string* TelemetryAggregator::leafOf(NodeState& state, const std::string& node, int rail) const
{
    // The plan's leaves do not change: each node looks its rails up once.
    static const std::string notLookedUp;
    const bool cached = rail >= 0 && rail < 64;
    if (cached && static_cast<std::size_t>(rail) < state.leafOfRail.size() && state.leafOfRail[static_cast<std::size_t>(rail)] != &notLookedUp)
        return state.leafOfRail[static_cast<std::size_t>(rail)];
    const auto found = m_leafOf.find(node + "/" + std::to_string(rail));
    const std::string* leaf = found == m_leafOf.end() ? nullptr : &found->second;
    if (cached) {
        if (static_cast<std::size_t>(rail) >= state.leafOfRail.size())
            state.leafOfRail.resize(static_cast<std::size_t>(rail) + 1, &notLookedUp);
        state.leafOfRail[static_cast<std::size_t>(rail)] = leaf;
    }
    return leaf;
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
    // 131K ports a sweep at 16K nodes: one pass, no string made or map searched per port where
    // an index does (the baselines by port index, the leaves by a view of the port's leaf name).
    Sweep s;
    s.timestampMs = timestampMs;
    s.ports = std::move(ports);
    const PortRates* all = s.ports.data();

    // XmitWait baselines: the lower of the port's own lowest rate so far and its rail's lower quartile now.
    std::map<int, std::vector<double>> railWaits;
    for (const PortRates& p : s.ports)
        if (p.xmitWaitPerS)
            railWaits[p.rail].push_back(*p.xmitWaitPerS);
    std::map<int, double> railQuiet;
    for (auto& [rail, v] : railWaits)
        railQuiet[rail] = lowerQuartile(v);
    std::vector<double> baseline(s.ports.size(), 0.0);
    std::string key;
    auto hint = xmitWaitFloor.end();
    for (std::size_t i = 0; i < s.ports.size(); ++i) {
        const PortRates& p = s.ports[i];
        if (!p.xmitWaitPerS)
            continue;
        key.assign(p.node).append("/").append(p.device).append("/").append(std::to_string(p.port));
        // Sweeps list the ports in the same order, so the key is often the one after the last.
        auto floor = hint != xmitWaitFloor.end() ? std::next(hint) : xmitWaitFloor.end();
        if (floor == xmitWaitFloor.end() || floor->first != key)
            floor = xmitWaitFloor.find(key);
        const double own = floor == xmitWaitFloor.end() ? *p.xmitWaitPerS : std::min(floor->second, *p.xmitWaitPerS);
        baseline[i] = std::min(own, railQuiet[p.rail]);
        if (floor == xmitWaitFloor.end())
            floor = xmitWaitFloor.emplace(key, own).first;
        else
            floor->second = own;
        hint = floor;
    }

    struct Group {
        GroupRates rates;
        std::vector<const PortRates*> ports;
    };
    std::map<int, Group> rails;
    std::unordered_map<std::string_view, Group> leaves; // views of s.ports' leaf names, which stay put
    Group* lastRail = nullptr;
    Group* lastLeaf = nullptr;
    std::string_view lastLeafName;
    for (const PortRates& p : s.ports) {
        if (p.rail < 0)
            continue;
        if (!lastRail || lastRail->rates.rail != p.rail) {
            auto [it, made] = rails.try_emplace(p.rail);
            if (made) {
                it->second.rates.rail = p.rail;
                it->second.rates.name = "rail " + std::to_string(p.rail);
            }
            lastRail = &it->second;
        }
        addTo(lastRail->rates, p);
        lastRail->ports.push_back(&p);
        if (!p.leaf.empty()) {
            if (!lastLeaf || lastLeafName != p.leaf) {
                auto [it, made] = leaves.try_emplace(std::string_view(p.leaf));
                if (made)
                    it->second.rates.name = p.leaf;
                lastLeaf = &it->second;
                lastLeafName = p.leaf;
            }
            lastLeaf->rates.rail = p.rail;
            addTo(lastLeaf->rates, p);
            lastLeaf->ports.push_back(&p);
        }
        for (const std::string& n : p.notes)
            s.notes.push_back(p.node + " " + p.device + ": " + n);
    }
    for (auto& [rail, g] : rails) {
        judge(g.rates, g.ports, all, baseline, thresholds);
        s.rails.push_back(std::move(g.rates));
    }
    // Leaves in plan order.
    for (const core::Device& d : plan.devices) {
        if (d.kind != core::DeviceKind::Switch || d.tier != core::SwitchTier::Leaf)
            continue;
        const auto it = leaves.find(std::string_view(d.name));
        if (it == leaves.end())
            continue;
        judge(it->second.rates, it->second.ports, all, baseline, thresholds);
        s.leaves.push_back(std::move(it->second.rates));
    }
    return s;
}

void SweepSummarizer::Groups::add(const GroupRates& g)
{
    auto [it, fresh] = byName.try_emplace(g.name);
    Group& group = it->second;
    // The most severe verdict; of equal ones, the sweep that had rates for the most ports (a sweep
    // taken while some agents' answers were still on their way covers fewer).
    const int severity = static_cast<int>(g.health), worst = static_cast<int>(group.worst.health);
    if (fresh) {
        order.push_back(g.name);
        group.worst = g;
    } else if (severity > worst || (severity == worst && g.ports > group.worst.ports)) {
        group.worst = g;
    }
    if (g.ports > 0) {
        group.txSum += g.txGbps;
        group.rxSum += g.rxGbps;
        ++group.counted;
    }
}

void SweepSummarizer::Groups::into(std::vector<GroupRates>& out) const
{
    for (const std::string& name : order) {
        const Group& group = byName.at(name);
        GroupRates g = group.worst;
        if (group.counted > 0) {
            g.txGbps = group.txSum / group.counted;
            g.rxGbps = group.rxSum / group.counted;
        }
        out.push_back(std::move(g));
    }
}

void SweepSummarizer::add(const Sweep& sweep)
{
    for (const GroupRates& g : sweep.rails)
        m_rails.add(g);
    for (const GroupRates& g : sweep.leaves)
        m_leaves.add(g);
}

WatchSummary SweepSummarizer::summary() const
{
    WatchSummary out;
    m_rails.into(out.rails);
    m_leaves.into(out.leaves);
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

WatchSummary summarizeSweeps(const std::vector<Sweep>& sweeps)
{
    SweepSummarizer summarizer;
    for (const Sweep& s : sweeps)
        summarizer.add(s);
    return summarizer.summary();
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
