// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"

#include <QWidget>

#include <cstdint>
#include <memory>
#include <vector>

namespace railyard::app {

/// What failing some switches and cables costs (planner::failureImpact): capacity lost,
/// nodes cut off, NIC ports lost and per-rail bandwidth left, next to the topology view.
/// Small plans are computed at once; large ones (100,000 links or more) on the thread pool,
/// the newest failure set winning.
class WhatIfPanel : public QWidget {
    Q_OBJECT
public:
    explicit WhatIfPanel(QWidget* parent = nullptr);
    ~WhatIfPanel() override;

    /// A new plan clears the failures.
    void setPlan(std::shared_ptr<const core::Plan> plan);
    /// The failed switches and links; connect TopologyView::failuresChanged here.
    void setFailures(const std::vector<std::uint32_t>& devices, const std::vector<std::size_t>& links);

    /// The impact on show; null while nothing is failed or before the first result.
    const core::FailureImpact* impact() const;
    /// A computation is running in the background.
    bool isComputing() const;

signals:
    /// "Restore all" was pressed; connect to TopologyView::clearFailures.
    void restoreAllRequested();
    /// A new impact (or none) is on show.
    void impactChanged();

private:
    void compute();
    void showResult();

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace railyard::app
