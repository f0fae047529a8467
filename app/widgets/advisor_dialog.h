// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan_spec.h"
#include "planner/advisor.h"

#include <QDialog>

#include <optional>

class QCheckBox;
class QPushButton;
class QSpinBox;
class QTextBrowser;

namespace railyard::app {

/// "Which fabric?": asks the InfiniBand-or-RoCEv2 advisor's questions, shows its
/// recommendation, confidence and reasons as the answers change, and on Apply hands back
/// the spec moved to the recommended fabric (specChosen).
class AdvisorDialog : public QDialog {
    Q_OBJECT
public:
    /// `spec` is the current spec; `gpus` prefills the GPU count (from the current plan).
    AdvisorDialog(const core::PlanSpec& spec, long long gpus, QWidget* parent = nullptr);

    QSpinBox* gpuField() const { return m_gpus; }
    QCheckBox* ethernetOperations() const { return m_ethernetOps; }
    QCheckBox* losslessSkills() const { return m_lossless; }
    QCheckBox* vendorLockIn() const { return m_lockIn; }
    QCheckBox* budgetPressure() const { return m_budget; }
    QCheckBox* sharedWithEthernet() const { return m_shared; }
    QPushButton* applyButton() const { return m_apply; }

    planner::AdvisorAnswers answers() const;
    /// The advice for the answers shown (nullopt while they are not valid).
    const std::optional<planner::FabricAdvice>& advice() const { return m_advice; }
    /// The recommendation as shown, as plain text.
    QString resultText() const;

    /// `spec` moved to `fabric` with a link that fabric runs (NDR 4x for InfiniBand, 400G for
    /// RoCEv2) and the catalog's default switches; unchanged when it is on `fabric` already.
    static core::PlanSpec specWithFabric(const core::PlanSpec& spec, core::Fabric fabric);

    /// Emits specChosen with the recommended fabric and closes.
    void apply();

signals:
    void specChosen(const core::PlanSpec& spec);

private:
    QCheckBox* addQuestion(const QString& text, const QString& tooltip);
    void updateAdvice();

    core::PlanSpec m_spec;
    QSpinBox* m_gpus = nullptr;
    QCheckBox* m_ethernetOps = nullptr;
    QCheckBox* m_lossless = nullptr;
    QCheckBox* m_lockIn = nullptr;
    QCheckBox* m_budget = nullptr;
    QCheckBox* m_shared = nullptr;
    QTextBrowser* m_result = nullptr;
    QPushButton* m_apply = nullptr;
    std::optional<planner::FabricAdvice> m_advice;
};

} // namespace railyard::app
