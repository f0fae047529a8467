// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's time charts: one line per rail (and direction) over a sliding window,
// with the plan's line rate as a reference line. Like ChartAdapter (which draws at most two
// series against one x axis, for the planner), the one file here that knows Qt Charts for the
// live views; series are replaced in bulk once per sweep (STYLE §6.4).
#pragma once

#include "app/models/live_session.h"

#include <QWidget>

#include <deque>
#include <memory>
#include <vector>

namespace railyard::app {

class LiveRailChart : public QWidget {
    Q_OBJECT
public:
    enum class Kind {
        Throughput, ///< tx (solid) and rx (dashed) Gb/s per rail, line rate as reference
        Congestion, ///< InfiniBand: XmitWait ticks/s; RoCE: ECN marks/s (solid) and PFC pauses/s (dashed)
    };

    explicit LiveRailChart(Kind kind, QWidget* parent = nullptr);
    ~LiveRailChart() override;

    /// Sets the number of rails, the fabric (congestion lines differ) and the reference line (0: none).
    void configure(int rails, bool roce, double lineRateGbps);
    /// Redraws from the session's series: the last windowSeconds() up to `now`, unless paused.
    void setSeries(const std::vector<std::deque<RailSample>>& series, double now);
    void setWindowSeconds(double seconds);
    double windowSeconds() const;
    /// A paused chart keeps its picture; new samples are kept by the session meanwhile.
    void setPaused(bool paused);
    bool isPaused() const;
    /// Points of rail `rail`'s first line (tx, or the first congestion signal), for the tests.
    int pointCount(int rail) const;
    /// The last paint times of the chart view in milliseconds, for the benchmark.
    const std::deque<double>& paintTimesMs() const;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace railyard::app
