// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's poller: lives on its own thread, GETs every agent's /v1/counters with the
// one agent client (deadlines, bounded in flight), turns them into rates with the telemetry
// aggregator and hands each sweep to the GUI as a LiveFrame. The next poll is armed only once
// the previous one is handled, so polls never pile up (STYLE §6.4).
#pragma once

#include "app/models/live_frame.h"
#include "core/plan.h"
#include "live/client/agent_client.h"

#include <QObject>

#include <chrono>
#include <functional>
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
    ~LivePoller() override;

    /// Starts polling (call on the poller's thread, e.g. through QThread::started).
    void start();
    /// Stops the timer; a poll in progress still ends (at most one deadline).
    void stop();

private:
    void poll();
    std::shared_ptr<LiveFrame> frameOf(live::Sweep sweep, int pollMs) const;

    std::shared_ptr<const core::Plan> m_plan;
    std::vector<live::AgentEndpoint> m_agents;
    live::FetchOptions m_fetch;
    std::chrono::milliseconds m_interval;
    Deliver m_deliver;
    std::function<void()> m_beforePoll;
    std::unique_ptr<live::TelemetryAggregator> m_aggregator;
    std::vector<NodeConnection> m_nodes;
    QTimer* m_timer = nullptr;
    std::chrono::steady_clock::time_point m_start;
    bool m_first = true;
};

} // namespace railyard::app
