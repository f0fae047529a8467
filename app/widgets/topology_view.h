// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"

#include <QGraphicsView>

#include <cstdint>
#include <memory>
#include <vector>

namespace railyard::app {

/// The fabric drawn as a fat tree: nodes grouped by SU, rail leaves coloured by rail,
/// spines and cores above. Large plans start collapsed (one box per SU and rail group).
/// Zoom with the wheel or Ctrl +/-, pan by dragging; hovering a link shows its cable;
/// clicking a switch selects it; a switch or link can be marked failed for what-if.
class TopologyView : public QGraphicsView {
    Q_OBJECT
public:
    explicit TopologyView(QWidget* parent = nullptr);
    ~TopologyView() override;

    void setPlan(std::shared_ptr<const core::Plan> plan);
    /// Collapsed: one box per SU/rail group (automatic for large plans).
    void setCollapsed(bool collapsed);
    bool isCollapsed() const;
    /// Highlights the devices a finding's `where` names (a switch, a port, a spec field).
    void highlight(const QString& where);
    /// Number of graphics items in the scene (tests).
    int itemCount() const;
    /// Devices the last highlight() matched.
    int highlightedCount() const;

    /// What-if: failed switches (indices in Plan::devices) and links (indices in Plan::links), sorted.
    const std::vector<std::uint32_t>& failedDevices() const;
    const std::vector<std::size_t>& failedLinks() const;
    /// Marks one switch or link failed or restores it; emits failuresChanged on a change.
    void setDeviceFailed(std::uint32_t device, bool failed);
    void setLinkFailed(std::size_t link, bool failed);
    /// Replaces both failure sets; emits failuresChanged on a change.
    void setFailures(std::vector<std::uint32_t> devices, std::vector<std::size_t> links);
    /// Restores every failed switch and link (the what-if panel's "Restore all").
    void clearFailures();

    void zoomIn();
    void zoomOut();
    /// Fits the whole fabric into the view (also done on the first show and on resize until the user zooms).
    void fitToView();

signals:
    /// A switch was clicked (index in Plan::devices).
    void switchActivated(std::uint32_t device);
    /// The set of failed switches and links changed (what-if).
    void failuresChanged(const std::vector<std::uint32_t>& devices, const std::vector<std::size_t>& links);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    void rebuild();
    void refreshStates();
    void emitFailures();
    void scaleBy(double factor);
    QString toolTipAt(const QPoint& viewPos) const;

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace railyard::app
