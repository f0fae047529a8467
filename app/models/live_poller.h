// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's poller: lives on its own thread, GETs every agent's /v1/counters with the
// one agent client (deadlines, bounded in flight), turns them into rates with the telemetry
// aggregator and hands each sweep to the GUI as a LiveFrame. A round ends once the agents that
// answered the round before have answered, at the interval at most; an agent that has not
// answered by then answers into a later round, so a hung agent does not slow the others' refresh. The next poll is armed only once the previous one is handled, so polls
// never pile up (STYLE §6.4).
#pragma once

#include "app/models/live_frame.h"
#include "core/plan.h"
#include "live/client/agent_client.h"
#include "live/client/counters_poll.h"
#include "live/client/prometheus_source.h"

#include <QObject>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <vector>

class QTimer;

namespace railyard::app {

class LivePoller : public QObject {
    Q_OBJECT
public:
    using Deliver = std::function<void(std::shared_ptr<const LiveFrame>)>;

    /// `deliver` is called on the poller's thread; it must hand the frame on (queued) itself.
    /// `beforePoll`, when set, runs on the poller's thread before each round (the demo fabric
    /// advances its counters there, see LiveDemoFabric::update).
    LivePoller(std::shared_ptr<const core::Plan> plan, std::vector<live::AgentEndpoint> agents, live::FetchOptions fetch,
        std::chrono::milliseconds interval, Deliver deliver, std::function<void()> beforePoll = {});
    /// Reads the rates from a Prometheus server instead (`live watch --prometheus`): every node of
    /// the plan is listed, connected while Prometheus has fresh series of it, lost otherwise.
    LivePoller(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const live::PrometheusSource> prometheus, std::string url,
        std::chrono::milliseconds interval, Deliver deliver);
    ~LivePoller() override;

    /// Starts polling (call on the poller's thread, e.g. through QThread::started).
    void start();
    /// Stops the timer; a poll in progress still ends (at most one deadline).
    void stop();

private:
    void poll();
    /// One Prometheus round: the sweep, and each node's state from the series it has.
    live::Sweep pollPrometheus(std::chrono::steady_clock::time_point began);
    std::shared_ptr<LiveFrame> frameOf(live::Sweep sweep, int pollMs) const;

    std::shared_ptr<const core::Plan> m_plan;
    std::vector<live::AgentEndpoint> m_agents;
    live::FetchOptions m_fetch;
    std::chrono::milliseconds m_interval;
    Deliver m_deliver;
    std::function<void()> m_beforePoll;
    std::unique_ptr<live::TelemetryAggregator> m_aggregator;
    live::CountersPoller m_counters; ///< agents: compact counters, JSON where not offered
    std::vector<LiveCell> m_lastCells; ///< the last frame's cells: a node still waiting for its answer keeps its row
    std::vector<NodeConnection> m_nodes;
    QTimer* m_timer = nullptr;
    std::chrono::steady_clock::time_point m_start;
    bool m_first = true;
    std::shared_ptr<const live::PrometheusSource> m_prometheus;
    std::map<std::string, double> m_xmitWaitFloor; ///< Prometheus: the ports' XmitWait baselines (aggregateSweep)
};

} // namespace railyard::app
