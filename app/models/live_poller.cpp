// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/live_poller.h"

#include <QTimer>

#include <algorithm>
#include <set>

namespace railyard::app {

LivePoller::LivePoller(std::shared_ptr<const core::Plan> plan, std::vector<live::AgentEndpoint> agents, live::FetchOptions fetch,
    std::chrono::milliseconds interval, Deliver deliver, std::function<void()> beforePoll)
    : m_plan(std::move(plan))
    , m_agents(std::move(agents))
    , m_fetch(std::move(fetch))
    , m_interval(interval)
    , m_deliver(std::move(deliver))
    , m_beforePoll(std::move(beforePoll))
    , m_aggregator(std::make_unique<live::TelemetryAggregator>(*m_plan))
    , m_counters(m_fetch)
{
    for (const auto& a : m_agents)
        m_nodes.push_back({ a.node, a.url, NodeLink::Waiting, {}, 0, 0 });
}

LivePoller::LivePoller(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const live::PrometheusSource> prometheus, std::string url,
    std::chrono::milliseconds interval, Deliver deliver)
    : m_plan(std::move(plan))
    , m_interval(interval)
    , m_deliver(std::move(deliver))
    , m_counters(m_fetch)
    , m_prometheus(std::move(prometheus))
{
    for (const core::Device& d : m_plan->devices)
        if (d.kind == core::DeviceKind::Node && d.installed)
            m_nodes.push_back({ d.name, url, NodeLink::Waiting, {}, 0, 0 });
}

LivePoller::~LivePoller() = default;

void LivePoller::start()
{
    m_start = std::chrono::steady_clock::now();
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &LivePoller::poll);
    m_timer->start(0);
}

void LivePoller::stop()
{
    if (m_timer)
        m_timer->stop();
}

void LivePoller::poll()
{
    const auto began = std::chrono::steady_clock::now();
    if (m_prometheus) {
        live::Sweep sweep = pollPrometheus(began);
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began);
        m_deliver(frameOf(std::move(sweep), static_cast<int>(took.count())));
        m_timer->start(std::max(std::chrono::milliseconds(0), m_interval - took));
        return;
    }
    if (m_beforePoll)
        m_beforePoll();
    // The compact counters, JSON from agents without them (counters_poll.h: as `live watch`). The
    // round ends at the interval at most: an agent that has not answered by then answers into a
    // later round, and one that failed or was late the round before is not waited for.
    const std::vector<live::CountersOutcome> outcomes = m_counters.poll(m_agents, *m_aggregator, began + m_interval);
    std::vector<bool> waiting(outcomes.size(), false);
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        const live::CountersOutcome& o = outcomes[i];
        NodeConnection& node = m_nodes[i];
        if (o.waiting) {
            // Still within its deadline: a node that answered before keeps its state (slow once
            // the wait is kSlowMs), a lost one stays lost, and its cells keep their last figures.
            waiting[i] = node.link != NodeLink::Lost;
            node.latencyMs = static_cast<int>(o.elapsed.count());
            if (node.link == NodeLink::Connected && node.latencyMs >= kSlowMs)
                node.link = NodeLink::Slow;
            continue;
        }
        if (o.error.empty() && !o.node.empty() && o.node != node.node)
            node.node = o.node; // a hostfile's address or alias: the agent names its node
        node.latencyMs = static_cast<int>(o.elapsed.count());
        if (o.error.empty()) {
            node.failures = 0;
            node.link = node.latencyMs >= kSlowMs ? NodeLink::Slow : NodeLink::Connected;
        } else {
            ++node.failures;
            node.link = NodeLink::Lost;
            node.lastError = o.error;
        }
    }
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began);
    // The first round only sets each node's baseline: rates need two snapshots.
    live::Sweep sweep = m_first ? live::Sweep {} : m_aggregator->sweep();
    m_first = false;
    std::shared_ptr<LiveFrame> frame = frameOf(std::move(sweep), static_cast<int>(took.count()));
    const auto rails = static_cast<std::size_t>(frame->rails);
    if (m_lastCells.size() == frame->cells.size())
        for (std::size_t i = 0; i < waiting.size(); ++i)
            if (waiting[i])
                std::copy_n(m_lastCells.begin() + static_cast<std::ptrdiff_t>(i * rails), rails, frame->cells.begin() + static_cast<std::ptrdiff_t>(i * rails));
    m_lastCells = frame->cells;
    m_deliver(std::move(frame));
    // Re-armed only now: a slow round delays the next one instead of piling up behind it.
    m_timer->start(std::max(std::chrono::milliseconds(0), m_interval - took));
}

live::Sweep LivePoller::pollPrometheus(std::chrono::steady_clock::time_point began)
{
    core::Result<live::PrometheusReading> reading = m_prometheus->read();
    const int ms = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - began).count());
    if (!reading) {
        // The server, not the nodes, failed: every node is without figures, for the server's reason.
        const std::string why = "Prometheus: " + reading.error().toString();
        for (NodeConnection& n : m_nodes) {
            n.link = NodeLink::Lost;
            n.lastError = why;
            n.latencyMs = ms;
            ++n.failures;
        }
        return {};
    }
    std::set<std::string> fresh;
    for (const live::PortRates& p : reading->ports)
        fresh.insert(p.node);
    for (NodeConnection& n : m_nodes) {
        n.latencyMs = ms;
        if (fresh.count(n.node)) {
            n.failures = 0;
            n.link = ms >= kSlowMs ? NodeLink::Slow : NodeLink::Connected;
        } else {
            ++n.failures;
            n.link = NodeLink::Lost;
            n.lastError = "Prometheus has no fresh series of this node (its target is down, or not scraped)";
        }
    }
    std::vector<std::string> notes = std::move(reading->notes);
    live::Sweep sweep = live::aggregateSweep(std::move(reading->ports), *m_plan, {}, m_xmitWaitFloor, reading->timestampMs);
    sweep.notes.insert(sweep.notes.begin(), notes.begin(), notes.end());
    return sweep;
}

std::shared_ptr<LiveFrame> LivePoller::frameOf(live::Sweep sweep, int pollMs) const
{
    auto frame = std::make_shared<LiveFrame>();
    frame->rails = std::max(1, m_plan->summary.rails);
    frame->lineRateGbps = m_plan->summary.port.dataGbps;
    frame->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    frame->pollMs = pollMs;
    frame->nodes = m_nodes;
    frame->cells.resize(m_nodes.size() * static_cast<std::size_t>(frame->rails));
    std::map<std::string, std::size_t> row;
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
        row.emplace(m_nodes[i].node, i);
    for (std::size_t p = 0; p < sweep.ports.size(); ++p) {
        const live::PortRates& r = sweep.ports[p];
        const auto it = row.find(r.node);
        if (it == row.end() || r.rail < 0 || r.rail >= frame->rails || m_nodes[it->second].link == NodeLink::Lost)
            continue;
        LiveCell& c = frame->cells[it->second * static_cast<std::size_t>(frame->rails) + static_cast<std::size_t>(r.rail)];
        if (!c.present)
            c.port = static_cast<int>(p);
        c.present = c.present || r.txGbps || r.rxGbps;
        c.txGbps += static_cast<float>(r.txGbps.value_or(0));
        c.rxGbps += static_cast<float>(r.rxGbps.value_or(0));
        c.xmitWaitPerS = std::max(c.xmitWaitPerS, static_cast<float>(r.xmitWaitPerS.value_or(0)));
        c.ecnMarkedPerS = std::max(c.ecnMarkedPerS, static_cast<float>(r.ecnMarkedPerS));
        c.cnpPerS = std::max(c.cnpPerS, static_cast<float>(r.cnpSentPerS + r.cnpHandledPerS));
        c.pfcPausePerS = std::max(c.pfcPausePerS, static_cast<float>(r.pfcPausePerS));
        c.linkErrors += static_cast<std::uint32_t>(r.linkErrors);
    }
    frame->sweep = std::move(sweep);
    return frame;
}

} // namespace railyard::app
