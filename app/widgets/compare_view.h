// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "core/plan_spec.h"

#include <QStringList>
#include <QThreadPool>
#include <QWidget>

#include <memory>
#include <stop_token>
#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace railyard::app {

class ChartAdapter;
class PlanController;

/// The Compare page: plans pinned side by side (cells that differ from the first pin are
/// highlighted), and a chart of switch count and cost (or power, when unpriced) against
/// cluster size for the current design choices. The chart re-plans the current spec at
/// about eight sizes on a worker thread; a new spec cancels the sweep still running.
class CompareView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxPins = 6;

    explicit CompareView(PlanController& controller, QWidget* parent = nullptr);
    ~CompareView() override;

    /// Pins the controller's current plan; false when there is none, it is pinned already,
    /// or kMaxPins plans are pinned.
    bool pinCurrent();
    /// Removes the pin in table column `column`.
    void removePin(int column);
    int pinCount() const { return static_cast<int>(m_pins.size()); }
    QTableWidget* table() const { return m_table; }
    /// True when the cell shows a value other than the first pin's in that row.
    bool differs(int row, int column) const;
    ChartAdapter* chart() const { return m_chart; }
    /// Re-plans the current spec at the sweep sizes (cancels a sweep still running).
    void refreshChart();
    /// Stops the running sweep; the points so far stay.
    void cancelSweep();

    /// Cluster sizes (nodes) the chart plans, ascending, ending at `nodes`: every SU count
    /// up to eight SUs, otherwise eight SU counts on a log scale.
    static std::vector<int> sweepSizes(int nodes, int suSize);
    /// `spec` resized to `nodes` nodes; what grows with the size (GPU count, growth target,
    /// a node name list) is cleared, every design choice is kept.
    static core::PlanSpec resizedSpec(const core::PlanSpec& spec, int nodes);

signals:
    /// The chart's sweep ended (all sizes planned, or some could not be).
    void sweepFinished();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct SweepPoint {
        int nodes = 0;
        double gpus = 0;
        double switches = 0;
        double second = 0; ///< cost in US$ thousands, or power in kW
        QString error;     ///< the size could not be planned
    };

    void rebuildTable();
    void updateButtons();
    void planArrived();
    void pointArrived(quint64 generation, const SweepPoint& point);
    void sweepDone(quint64 generation);

    PlanController& m_controller;
    std::vector<std::shared_ptr<const core::Plan>> m_pins;
    QPushButton* m_pin = nullptr;
    QPushButton* m_remove = nullptr;
    QPushButton* m_clear = nullptr;
    QLabel* m_pinCount = nullptr;
    QTableWidget* m_table = nullptr;
    ChartAdapter* m_chart = nullptr;

    QThreadPool m_pool;
    std::shared_ptr<std::stop_source> m_stop;
    quint64 m_generation = 0;
    bool m_chartDirty = true;
    bool m_sweeping = false;
    core::PlanSpec m_sweptSpec;
    int m_sweepTotal = 0;
    int m_sweepDone = 0;
    QStringList m_sweepErrors;
    bool m_priced = false;
};

} // namespace railyard::app
