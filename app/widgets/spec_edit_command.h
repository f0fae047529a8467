// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan_spec.h"

#include <QUndoCommand>

#include <chrono>

namespace railyard::app {

class SpecForm;

/// One edit of the plan spec: the whole spec before and after. Undo and redo hand the spec
/// to the form, which re-plans. Edits of one text or number field typed within about a
/// second merge into one command, so undo takes back "63", not "6" and then "3".
class SpecEditCommand : public QUndoCommand {
public:
    /// `mergeId` is the field's merge id, or -1 for edits that never merge (choices, toggles).
    SpecEditCommand(SpecForm& form, core::PlanSpec before, core::PlanSpec after, int mergeId, const QString& text);

    void undo() override;
    void redo() override;
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand* other) override;

    const core::PlanSpec& before() const { return m_before; }
    const core::PlanSpec& after() const { return m_after; }

    /// Edits of one field closer together than this merge.
    static constexpr std::chrono::milliseconds kMergeWindow { 1000 };

private:
    SpecForm& m_form;
    core::PlanSpec m_before;
    core::PlanSpec m_after;
    int m_mergeId;
    bool m_pushed = false; ///< the first redo() is the edit itself: the fields show it already
    std::chrono::steady_clock::time_point m_time;
};

} // namespace railyard::app
