// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's time charts: one line per rail (and direction) over a sliding window,
// with the plan's line rate as a reference line. The window zooms with the mouse wheel (10 s up
// to the hour of samples the session keeps) and scrolls back with the bar below the chart; at
// the bar's right end it follows the newest sample again. Like ChartAdapter (which draws at most two
// series against one x axis, for the planner), the one file here that knows Qt Charts for the
// live views; series are replaced in bulk once per sweep (STYLE §6.4).
#pragma once

#include "app/models/live_session.h"

#include <QWidget>

class QScrollBar;

#include <deque>
#include <memory>
#include <optional>
#include <utility>
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
    /// Redraws from the session's series (kept by reference: the session's own, which outlives
    /// the chart's use of it): the last windowSeconds() up to `now`, or up to where the chart was
    /// scrolled back to; a paused chart keeps its picture and its `now`.
    void setSeries(const std::vector<std::deque<RailSample>>& series, double now);
    void setWindowSeconds(double seconds);
    double windowSeconds() const;
    /// The time window (zoom, 10 s up to the samples kept) and where it ends: `end` in the
    /// series' seconds when scrolled back, none to follow the newest sample. Emits nothing.
    void setView(double windowSeconds, std::optional<double> end);
    /// Where the window ends when scrolled back; none while it follows the newest sample.
    std::optional<double> viewEnd() const;
    /// The x axis' range now (seconds since connecting).
    std::pair<double, double> visibleRange() const;
    /// Scrolls back through the kept samples (right end: follow the newest).
    QScrollBar* scrollBar() const;
    /// A paused chart keeps its picture; new samples are kept by the session meanwhile.
    void setPaused(bool paused);
    bool isPaused() const;
    /// Points of rail `rail`'s first line (tx, or the first congestion signal), for the tests.
    int pointCount(int rail) const;
    /// The last paint times of the chart view in milliseconds, for the benchmark.
    const std::deque<double>& paintTimesMs() const;

signals:
    /// The user zoomed (the wheel) or scrolled: the other time chart follows (setView).
    void viewChanged(double windowSeconds, std::optional<double> end);

private:
    void redraw();
    void zoomBy(int steps);
    double oldestSample() const;

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace railyard::app
