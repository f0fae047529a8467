// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <stop_token>

namespace railyard::app {

/// Runs engine jobs off the GUI thread, one kind of job per runner: starting job N+1 stops
/// job N and makes its result stale, so a stale result never reaches the GUI (hotspot's
/// JobTracker). Results are delivered on the thread of `context` through a queued call,
/// and dropped when `context` has died.
class JobRunner : public QObject {
    Q_OBJECT
public:
    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;

    /// Starts `work(stop, generation)` on the pool; then `deliver(result)` on this object's
    /// thread if the job is still the latest and was not cancelled. Returns the generation.
    template <class Result>
    quint64 start(std::function<Result(std::stop_token, quint64)> work, std::function<void(Result)> deliver)
    {
        const quint64 generation = beginJob();
        auto stop = m_stop;
        QPointer<JobRunner> self(this);
        m_pool.start([self, generation, stop, work = std::move(work), deliver = std::move(deliver)]() mutable {
            auto result = std::make_shared<Result>(work(stop->get_token(), generation));
            if (!self)
                return;
            QMetaObject::invokeMethod(
                self.data(),
                [self, generation, result, deliver = std::move(deliver)]() mutable {
                    if (self && self->isCurrent(generation)) {
                        self->m_running = false;
                        deliver(std::move(*result));
                        emit self->finished();
                    }
                },
                Qt::QueuedConnection);
        });
        return generation;
    }

    /// Stops the running job (its result is dropped).
    void cancel();
    bool isRunning() const { return m_running; }
    bool isCurrent(quint64 generation) const { return generation == m_generation; }
    /// Waits for every job to end (used on shutdown and in tests).
    void waitForIdle();

signals:
    void started();
    void finished();
    void cancelled();

private:
    quint64 beginJob();

    QThreadPool m_pool;
    std::shared_ptr<std::stop_source> m_stop;
    quint64 m_generation = 0;
    bool m_running = false;
};

} // namespace railyard::app
