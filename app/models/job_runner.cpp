// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/job_runner.h"

namespace railyard::app {

JobRunner::JobRunner(QObject* parent)
    : QObject(parent)
    , m_stop(std::make_shared<std::stop_source>())
{
    // One job at a time: the newest replaces the one before it.
    m_pool.setMaxThreadCount(1);
}

JobRunner::~JobRunner()
{
    m_stop->request_stop();
    m_pool.waitForDone();
}

quint64 JobRunner::beginJob()
{
    m_stop->request_stop();
    m_stop = std::make_shared<std::stop_source>();
    m_running = true;
    emit started();
    return ++m_generation;
}

void JobRunner::cancel()
{
    if (!m_running)
        return;
    m_stop->request_stop();
    ++m_generation;
    m_running = false;
    emit cancelled();
}

void JobRunner::waitForIdle()
{
    m_pool.waitForDone();
}

} // namespace railyard::app
