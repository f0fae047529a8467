// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's node x rail heatmap: one custom-painted widget (no item per cell), so a
// sweep of 1,000 nodes x 8 rails repaints in a few milliseconds. Nodes are laid out in as many
// columns of rows as fit; each row is a connection stripe and one cell per rail. Colour by
// throughput (share of the plan's line rate), congestion (against the telemetry thresholds) or
// health (connection, check findings, link errors). Hover shows a cell's numbers; a click
// selects the node and rail.
#pragma once

#include "app/models/live_frame.h"
#include "core/plan.h"

#include <QColor>
#include <QRect>
#include <QWidget>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace railyard::app {

class LiveGrid : public QWidget {
    Q_OBJECT
public:
    enum class Colour { Throughput, Congestion, Health };

    explicit LiveGrid(QWidget* parent = nullptr);

    void setFrame(std::shared_ptr<const LiveFrame> frame);
    void setColour(Colour colour);
    Colour colour() const { return m_colour; }
    /// Check findings by place: "node007" (the node) or "node007/3" (its rail 3) -> worst severity.
    void setMarks(std::map<std::string, core::Severity> marks);
    /// Selects a node (row in the frame) and a rail (-1: the whole node); -1, -1 clears.
    void select(int node, int rail);
    int selectedNode() const { return m_selectedNode; }
    int selectedRail() const { return m_selectedRail; }
    /// The index of `name` in the current frame, -1 when absent.
    int nodeIndex(const std::string& name) const;

    /// What a cell shows and says (also the tooltip).
    QColor cellColour(int node, int rail) const;
    QString cellText(int node, int rail) const;
    /// Where a cell is painted (empty when the layout has no room for it).
    QRect cellRect(int node, int rail) const;
    /// The last paint times in milliseconds (at most 1,000), for the benchmark.
    const std::deque<double>& paintTimesMs() const { return m_paintMs; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void cellSelected(int node, int rail);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Layout {
        int cell = 0;      ///< cell side in pixels
        int label = 0;     ///< node name width (0: names not shown)
        int columns = 1;
        int rowsPerColumn = 0;
        int blockWidth = 0;
        int header = 0;    ///< rail header height
    };
    void relayout();
    int rowOf(int node) const;
    std::pair<int, int> cellAt(QPoint point) const; ///< node, rail; -1 when none
    /// The worst check finding on the cell or its node.
    std::optional<core::Severity> markOf(int node, int rail) const;

    std::shared_ptr<const LiveFrame> m_frame;
    Colour m_colour = Colour::Throughput;
    std::map<std::string, core::Severity> m_marks;
    int m_selectedNode = -1, m_selectedRail = -1;
    Layout m_layout;
    std::deque<double> m_paintMs;
};

} // namespace railyard::app
