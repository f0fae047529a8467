// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "app/models/job_runner.h"
#include "core/catalog.h"
#include "core/plan.h"
#include "core/plan_spec.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace railyard::app {

/// The current plan spec and the plan made from it. Every new spec re-plans off the GUI
/// thread; a newer spec cancels the plan still being made. Results arrive as immutable
/// snapshots (shared_ptr<const Plan>) that models and views hold.
class PlanController : public QObject {
    Q_OBJECT
public:
    explicit PlanController(std::shared_ptr<const core::Catalog> catalog, QObject* parent = nullptr);

    const core::Catalog& catalog() const { return *m_catalog; }
    std::shared_ptr<const core::Catalog> sharedCatalog() const { return m_catalog; }
    const core::PlanSpec& spec() const { return m_spec; }
    /// The last plan made (null before the first one arrives).
    std::shared_ptr<const core::Plan> plan() const { return m_plan; }
    /// Errors that kept the last spec from planning at all (bad input), one line each.
    const QStringList& inputErrors() const { return m_inputErrors; }
    bool isPlanning() const { return m_runner.isRunning(); }

    /// Sets the spec and starts planning it.
    void setSpec(const core::PlanSpec& spec);
    /// Stops the plan being made; the previous plan stays.
    void cancel();
    /// Blocks until the running plan has been delivered or dropped (tests, shutdown).
    void waitForIdle();

signals:
    void specChanged();
    void planningStarted();
    /// `fraction` in [0, 1]; throttled to a few per second.
    void planningProgress(double fraction, const QString& phase);
    void planReady(std::shared_ptr<const core::Plan> plan);
    /// The spec could not be planned; the errors name the fields.
    void planFailed(const QStringList& errors);
    void planningCancelled();

private:
    std::shared_ptr<const core::Catalog> m_catalog;
    core::PlanSpec m_spec;
    std::shared_ptr<const core::Plan> m_plan;
    QStringList m_inputErrors;
    JobRunner m_runner;
};

} // namespace railyard::app
