// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/plan_controller.h"

#include "planner/planner.h"

#include <QCoreApplication>
#include <QPointer>

#include <chrono>

namespace railyard::app {

namespace {

    /// Forwards engine progress to the controller's thread, at most ten times a second.
    class QueuedProgress final : public core::ProgressSink {
    public:
        QueuedProgress(PlanController* target, JobRunner* runner, quint64 generation)
            : m_target(target)
            , m_runner(runner)
            , m_generation(generation)
        {
        }

        void progress(double fraction, std::string_view phase) override
        {
            const auto now = std::chrono::steady_clock::now();
            if (fraction < 1.0 && now - m_last < std::chrono::milliseconds(100))
                return;
            m_last = now;
            QPointer<PlanController> target = m_target;
            JobRunner* runner = m_runner;
            const quint64 generation = m_generation;
            QMetaObject::invokeMethod(
                target.data(),
                [target, runner, generation, fraction, text = QString::fromUtf8(phase.data(), static_cast<qsizetype>(phase.size()))] {
                    if (target && runner->isCurrent(generation))
                        emit target->planningProgress(fraction, text);
                },
                Qt::QueuedConnection);
        }

    private:
        PlanController* m_target;
        JobRunner* m_runner;
        quint64 m_generation;
        std::chrono::steady_clock::time_point m_last {};
    };

    QStringList toLines(const core::Errors& errors)
    {
        QStringList out;
        for (const auto& e : errors)
            out << QString::fromStdString(e.toString());
        return out;
    }

} // namespace

PlanController::PlanController(std::shared_ptr<const core::Catalog> catalog, QObject* parent)
    : QObject(parent)
    , m_catalog(std::move(catalog))
{
    connect(&m_runner, &JobRunner::cancelled, this, &PlanController::planningCancelled);
}

void PlanController::setSpec(const core::PlanSpec& spec)
{
    m_spec = spec;
    emit specChanged();
    auto catalog = m_catalog;
    emit planningStarted();
    QPointer<PlanController> self(this);
    JobRunner* runner = &m_runner;
    m_runner.start<core::Result<core::Plan>>(
        [spec, catalog, self, runner](std::stop_token stop, quint64 generation) {
            QueuedProgress progress(self.data(), runner, generation);
            return planner::makePlan(spec, *catalog, progress, stop);
        },
        [this](core::Result<core::Plan> result) {
            if (!result.ok()) {
                const core::Errors& errors = result.errors();
                if (errors.front().code != "CANCELLED") {
                    m_inputErrors = toLines(errors);
                    emit planFailed(m_inputErrors);
                }
                return;
            }
            m_inputErrors.clear();
            m_plan = std::make_shared<const core::Plan>(std::move(result).value());
            emit planReady(m_plan);
        });
}

void PlanController::cancel()
{
    m_runner.cancel();
}

void PlanController::waitForIdle()
{
    m_runner.waitForIdle();
    QCoreApplication::sendPostedEvents(this);
}

} // namespace railyard::app
