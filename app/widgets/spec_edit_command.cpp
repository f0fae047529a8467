// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/spec_edit_command.h"

#include "app/widgets/spec_form.h"

namespace railyard::app {

SpecEditCommand::SpecEditCommand(SpecForm& form, core::PlanSpec before, core::PlanSpec after, int mergeId, const QString& text)
    : QUndoCommand(text)
    , m_form(form)
    , m_before(std::move(before))
    , m_after(std::move(after))
    , m_mergeId(mergeId)
    , m_time(std::chrono::steady_clock::now())
{
}

void SpecEditCommand::undo()
{
    m_form.applySpec(m_before, true);
}

void SpecEditCommand::redo()
{
    m_form.applySpec(m_after, m_pushed);
    m_pushed = true;
}

bool SpecEditCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const SpecEditCommand*>(other);
    if (m_mergeId < 0 || next->m_mergeId != m_mergeId || next->m_time - m_time > kMergeWindow)
        return false;
    m_after = next->m_after;
    m_time = next->m_time;
    // Typing a value and then its old value back leaves nothing to undo.
    setObsolete(m_after == m_before);
    return true;
}

} // namespace railyard::app
