// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's leaf/spine view: the plan's switches in one custom-painted widget (no item
// per switch, as LiveGrid), so a 1,000-node plan (256 leaves, 256 spines, 128 cores) repaints in a
// few milliseconds. Cores and spines are rows of boxes at the top; the leaves a grid below, one
// row per SU and one column per rail (and plane), wrapped into side-by-side blocks when the SUs do
// not fit the height. Each leaf is coloured by its verdict of the last sweep (telemetry.h: the
// hosts' ports on it, XmitWait on InfiniBand, ECN and PFC on RoCE): congested or pausing in the
// congestion colour, erroring red, otherwise by the traffic its hosts send into it against its
// uplink capacity; its uplinks are drawn in the same colour. The links between two tiers are
// drawn when there are few enough to read (kMaxLines); otherwise only the selected switch's and
// the unhealthy leaves' links are. Hover shows a switch's numbers; a click selects it.
#pragma once

#include "app/models/live_frame.h"
#include "app/models/live_session.h"
#include "core/plan.h"

#include <QColor>
#include <QLine>
#include <QRect>
#include <QWidget>

#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace railyard::app {

class LiveFabricView : public QWidget {
    Q_OBJECT
public:
    /// Links between two tiers drawn in full up to this many switch pairs.
    static constexpr std::size_t kMaxLines = 4096;

    explicit LiveFabricView(QWidget* parent = nullptr);
    ~LiveFabricView() override;

    void setPlan(std::shared_ptr<const core::Plan> plan);
    void setFrame(std::shared_ptr<const LiveFrame> frame);

    /// Switches of the plan, in plan order; -1 when `name` is none.
    int switchCount() const { return static_cast<int>(m_switches.size()); }
    int switchIndex(const std::string& name) const;
    const std::string& switchName(int index) const;
    /// Selects a switch (-1 clears) and emits nothing.
    void select(int index);
    int selectedSwitch() const { return m_selected; }

    /// Where a switch is painted (empty when it is not).
    QRect switchRect(int index) const;
    /// The switch under `point`, -1 when none.
    int switchAt(QPoint point) const;
    /// What a switch's box is filled with, and (leaves) the colour its uplinks are drawn in.
    QColor switchColour(int index) const;
    QColor uplinkColour(int index) const;
    /// The tooltip: the switch's numbers.
    QString switchText(int index) const;
    /// The side panel's page for a switch: its ports below and above, their load, its findings.
    QString switchHtml(int index, const std::vector<LiveFinding>& findings) const;
    /// Links drawn in the last paint (for the tests: all pairs, or only the selected and unhealthy).
    std::size_t linesPainted() const { return m_linesPainted; }
    /// The last paint times in milliseconds (at most 1,000), for the benchmark.
    const std::deque<double>& paintTimesMs() const { return m_paintMs; }

    static QColor congestionColour();
    static QColor erroringColour();

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void switchSelected(int index);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    bool event(QEvent* event) override;

private:
    struct Peer {
        int other = 0; ///< switch index
        int links = 0;
    };
    struct Switch {
        std::string name;
        core::SwitchTier tier = core::SwitchTier::Leaf;
        int su = 0, rail = -1, plane = 0, pod = 0;
        int row = 0, column = 0;   ///< leaves: grid place; spines and cores: position in their tier
        std::vector<Peer> up;      ///< switches above, with parallel links
        std::vector<Peer> down;    ///< switches below
        int uplinks = 0, downlinks = 0; ///< planned links (installed)
    };
    void relayout();
    const live::GroupRates* ratesOf(int index) const;
    double hostShare(int index) const; ///< hosts' tx into a leaf / its uplink capacity; -1 unknown

    std::shared_ptr<const core::Plan> m_plan;
    std::shared_ptr<const LiveFrame> m_frame;
    std::vector<Switch> m_switches;
    std::vector<int> m_leafOfDevice;        ///< plan device -> switch index, -1
    std::vector<const live::GroupRates*> m_rates; ///< per switch, from the frame's sweep.leaves
    int m_leafRows = 0, m_leafColumns = 0;
    std::vector<QString> m_rowLabels, m_columnLabels;
    std::size_t m_pairs = 0;               ///< switch pairs with links (both tier boundaries)
    std::vector<QRect> m_rects;            ///< per switch
    QRect m_spineBand, m_coreBand;
    int m_leafTop = 0, m_blocks = 1, m_blockWidth = 0, m_cellW = 0, m_cellH = 0, m_label = 0, m_rowsPerBlock = 0;
    int m_selected = -1;
    std::size_t m_linesPainted = 0;
    std::deque<double> m_paintMs;
};

} // namespace railyard::app
