// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's side panel: the selected node's agent, each of its rail ports with its
// rates and counters of the last sweep, the findings about it and what the last check could not
// read on it.
#pragma once

#include "app/models/live_frame.h"
#include "app/models/live_session.h"

#include <QTextBrowser>

#include <memory>
#include <vector>

namespace railyard::app {

class LiveNodePanel : public QTextBrowser {
    Q_OBJECT
public:
    explicit LiveNodePanel(QWidget* parent = nullptr);
    /// Shows node `node` (row of `frame`; -1: nothing selected) with `rail` highlighted, and the
    /// node's reading notes from `check` (the last live check; none: nullptr).
    void showNode(const std::shared_ptr<const LiveFrame>& frame, int node, int rail, const std::vector<LiveFinding>& findings,
        const live::LiveCheckReport* check);
};

} // namespace railyard::app
