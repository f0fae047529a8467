// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/live_session.h"

#include "app/models/live_demo_fabric.h"
#include "app/models/live_poller.h"
#include "live/client/hostfile.h"
#include "live/client/prometheus_source.h"
#include "live/sim/faults.h"

#include <QPointer>
#include <QThread>

#include <algorithm>

namespace railyard::app {

namespace {

    constexpr std::chrono::milliseconds kPollInterval { 1000 };
    constexpr std::chrono::milliseconds kDeadline { 2000 };
    constexpr std::size_t kCheckChunk = 16; ///< agents asked per step of `live check` (its progress)

    QString text(const core::Errors& errors)
    {
        QStringList lines;
        for (const auto& e : errors)
            lines << QString::fromStdString(e.toString());
        return lines.join(QLatin1Char('\n'));
    }

    /// Connection findings for nodes that do not answer, or answer late.
    std::vector<core::Finding> connectionFindings(const LiveFrame& frame)
    {
        std::vector<core::Finding> out;
        for (const NodeConnection& n : frame.nodes) {
            if (n.link == NodeLink::Lost)
                out.push_back({ core::Severity::Error, "NODE_UNREACHABLE",
                    n.node + ": no counters from its agent at " + n.url + " (" + n.lastError
                        + "); its ports are not in the figures: check that railyard-agent runs and the address is reachable",
                    n.node });
            else if (n.link == NodeLink::Slow)
                out.push_back({ core::Severity::Warning, "NODE_SLOW",
                    n.node + ": its agent answered after " + std::to_string(n.latencyMs) + " ms; a loaded host or network delays its figures",
                    n.node });
        }
        return out;
    }

} // namespace

LiveSession::LiveSession(QObject* parent)
    : QObject(parent)
{
}

LiveSession::~LiveSession()
{
    m_checks.cancel();
    m_checks.waitForIdle();
    stopThreads();
}

void LiveSession::setPlan(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog)
{
    m_plan = std::move(plan);
    m_catalog = std::move(catalog);
}

void LiveSession::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    emit stateChanged(state);
}

void LiveSession::connectDemo(const QString& baseDir)
{
    if (!m_plan || !m_catalog) {
        emit failed(tr("There is no plan to emulate yet: wait for the planner to finish, or fix the spec's errors."));
        return;
    }
    disconnectFabric();
    const quint64 generation = ++m_connection;
    m_sourceName = tr("demo fabric");
    setState(State::Starting);
    QPointer<LiveSession> self(this);
    auto onError = [self, generation](const QString& message) {
        QMetaObject::invokeMethod(
            self.data(), [self, generation, message] {
                if (self && self->m_connection == generation)
                    emit self->failed(tr("The demo fabric could not update its counters: %1").arg(message));
            },
            Qt::QueuedConnection);
    };
    m_demoThread = new QThread(this);
    m_demoThread->setObjectName(QStringLiteral("live-demo"));
    m_demo = new LiveDemoFabric(m_plan, m_catalog, onError);
    m_demo->moveToThread(m_demoThread);
    connect(m_demoThread, &QThread::finished, m_demo, &QObject::deleteLater);
    m_demoThread->start();
    QMetaObject::invokeMethod(
        m_demo, [demo = m_demo, self, generation, baseDir] {
            auto started = std::make_shared<core::Result<LiveDemoFabric::Started>>(demo->start(baseDir));
            QMetaObject::invokeMethod(
                self.data(), [self, generation, started] {
                    if (!self || self->m_connection != generation)
                        return;
                    if (!*started) {
                        self->disconnectFabric();
                        emit self->failed(tr("The demo fabric did not start: %1").arg(text(started->errors())));
                        return;
                    }
                    self->startPolling((*started)->agents, (*started)->token, self->m_demoThread);
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

bool LiveSession::connectAgentsFile(const QString& path)
{
    if (!m_plan) {
        emit failed(tr("There is no plan to compare the fabric with yet: wait for the planner to finish."));
        return false;
    }
    core::Result<live::AgentsFile> file = live::readAgentsFile(path.toStdString());
    if (!file) {
        emit failed(tr("Cannot use %1: %2").arg(path, text(file.errors())));
        return false;
    }
    std::string token;
    if (!file->tokenFile.empty()) {
        core::Result<std::string> read = live::readTokenFile(file->tokenFile);
        if (!read) {
            emit failed(tr("Cannot read the agents' token: %1").arg(text(read.errors())));
            return false;
        }
        token = *read;
    }
    disconnectFabric();
    ++m_connection;
    m_sourceName = path;
    setState(State::Starting);
    startPolling(file->agents, token, nullptr);
    return true;
}

bool LiveSession::connectHostfile(const QString& path, int port, const QString& tokenFile)
{
    if (!m_plan) {
        emit failed(tr("There is no plan to compare the fabric with yet: wait for the planner to finish."));
        return false;
    }
    core::Result<std::vector<live::AgentEndpoint>> agents = live::readHostfile(path.toStdString(), port, m_plan.get());
    if (!agents) {
        emit failed(tr("Cannot use %1: %2").arg(path, text(agents.errors())));
        return false;
    }
    std::string token;
    if (!tokenFile.isEmpty()) {
        core::Result<std::string> read = live::readTokenFile(tokenFile.toStdString());
        if (!read) {
            emit failed(tr("Cannot read the agents' token: %1").arg(text(read.errors())));
            return false;
        }
        token = *read;
    }
    disconnectFabric();
    ++m_connection;
    m_sourceName = path;
    setState(State::Starting);
    startPolling(std::move(*agents), token, nullptr);
    return true;
}

bool LiveSession::connectPrometheus(const QString& url, bool nodeExporter, const QString& selector, const QString& tokenFile)
{
    if (!m_plan || !m_catalog) {
        emit failed(tr("There is no plan to compare the fabric with yet: wait for the planner to finish."));
        return false;
    }
    live::PrometheusOptions options;
    options.url = url.trimmed().toStdString();
    options.selector = selector.trimmed().toStdString();
    options.deadline = std::chrono::milliseconds(5000);
    std::map<std::string, int> railOfDevice;
    if (nodeExporter) {
        options.metrics = live::PrometheusMetrics::NodeExporter;
        // node_infiniband_* has no rail label: the node type's rail map names the devices (as the CLI).
        if (const core::NodeType* type = m_catalog->findNodeType(m_plan->spec.nodeType))
            for (std::size_t k = 0; k < type->railMap.size(); ++k)
                railOfDevice[type->railMap[k]] = static_cast<int>(k);
    }
    if (!tokenFile.isEmpty()) {
        core::Result<std::string> read = live::readTokenFile(tokenFile.toStdString());
        if (!read) {
            emit failed(tr("Cannot read the token for Prometheus: %1").arg(text(read.errors())));
            return false;
        }
        options.token = *read;
    }
    auto source = std::make_shared<const live::PrometheusSource>(*m_plan, options, std::move(railOfDevice));
    if (core::Status ok = source->validate(); !ok) {
        emit failed(tr("Cannot read from Prometheus at %1: %2").arg(url, text(ok.errors())));
        return false;
    }
    disconnectFabric();
    ++m_connection;
    m_sourceName = tr("Prometheus at %1").arg(url.trimmed());
    setState(State::Starting);
    startPrometheusPolling(std::move(source), options.url);
    return true;
}

void LiveSession::startPrometheusPolling(std::shared_ptr<const live::PrometheusSource> source, const std::string& url)
{
    QPointer<LiveSession> self(this);
    const quint64 generation = m_connection;
    auto deliver = [self, generation](std::shared_ptr<const LiveFrame> frame) {
        QMetaObject::invokeMethod(
            self.data(), [self, generation, frame = std::move(frame)] {
                if (self && self->m_connection == generation)
                    self->receive(frame);
            },
            Qt::QueuedConnection);
    };
    m_pollThread = new QThread(this);
    m_pollThread->setObjectName(QStringLiteral("live-prometheus"));
    // The source points into the plan, which the poller holds (and outlives the source in it).
    m_poller = new LivePoller(m_plan, std::move(source), url, kPollInterval, deliver);
    m_poller->moveToThread(m_pollThread);
    connect(m_pollThread, &QThread::finished, m_poller, &QObject::deleteLater);
    connect(m_pollThread, &QThread::started, m_poller, &LivePoller::start);
    m_pollThread->start();
}

void LiveSession::startPolling(std::vector<live::AgentEndpoint> agents, const std::string& token, QThread* thread)
{
    m_agents = std::move(agents);
    m_token = token;
    live::FetchOptions fetch;
    fetch.deadline = kDeadline;
    fetch.token = token;
    // Every agent in one wave: each node's counters are read as close to the same time as the
    // machine allows, so that the nodes' rates compare.
    fetch.maxInFlight = 1024;
    QPointer<LiveSession> self(this);
    const quint64 generation = m_connection;
    auto deliver = [self, generation](std::shared_ptr<const LiveFrame> frame) {
        QMetaObject::invokeMethod(
            self.data(), [self, generation, frame = std::move(frame)] {
                if (self && self->m_connection == generation)
                    self->receive(frame);
            },
            Qt::QueuedConnection);
    };
    std::function<void()> beforePoll;
    if (thread && m_demo)
        beforePoll = [demo = m_demo] { demo->update(); };
    else {
        m_pollThread = thread = new QThread(this);
        m_pollThread->setObjectName(QStringLiteral("live-poll"));
    }
    m_poller = new LivePoller(m_plan, m_agents, fetch, kPollInterval, deliver, beforePoll);
    m_poller->moveToThread(thread);
    connect(thread, &QThread::finished, m_poller, &QObject::deleteLater);
    if (thread->isRunning())
        QMetaObject::invokeMethod(m_poller, &LivePoller::start, Qt::QueuedConnection);
    else {
        connect(thread, &QThread::started, m_poller, &LivePoller::start);
        thread->start();
    }
}

void LiveSession::receive(std::shared_ptr<const LiveFrame> frame)
{
    m_frame = std::move(frame);
    ++m_framesReceived;
    setState(State::Connected);
    const live::Sweep& sweep = m_frame->sweep;
    if (!sweep.rails.empty()) {
        m_series.resize(std::max(m_series.size(), sweep.rails.size()));
        for (std::size_t r = 0; r < sweep.rails.size(); ++r) {
            const live::GroupRates& g = sweep.rails[r];
            auto& series = m_series[r];
            const double ports = std::max(1, g.ports);
            series.push_back({ m_frame->seconds, g.txGbps / ports, g.rxGbps / ports, g.xmitWaitPerS, g.ecnMarkedPerS, g.cnpSentPerS, g.pfcPausePerS });
            while (series.size() > kSeriesCapacity)
                series.pop_front();
        }
        live::Sweep aggregates = sweep;
        aggregates.ports.clear();
        m_recent.push_back(std::move(aggregates));
        while (m_recent.size() > kCongestionSweeps)
            m_recent.pop_front();
    }
    std::vector<core::Finding> congestion = live::summarizeSweeps({ m_recent.begin(), m_recent.end() }).findings;
    std::vector<core::Finding> connection = connectionFindings(*m_frame);
    const bool changed = congestion != m_congestion || connection != m_connectionFindings;
    m_congestion = std::move(congestion);
    m_connectionFindings = std::move(connection);
    emit frameReady();
    if (changed)
        emit findingsChanged();
}

void LiveSession::stopThreads()
{
    // Quitting a thread ends its poll or update in progress (at most one deadline), then deletes
    // its worker there (finished -> deleteLater): the demo stops its agents and removes its folder.
    for (QThread** thread : { &m_pollThread, &m_demoThread }) {
        if (!*thread)
            continue;
        (*thread)->quit();
        (*thread)->wait();
        delete *thread;
        *thread = nullptr;
    }
    m_poller = nullptr;
    m_demo = nullptr;
}

void LiveSession::disconnectFabric()
{
    ++m_connection;
    m_checks.cancel();
    stopThreads();
    m_agents.clear();
    m_token.clear();
    m_frame.reset();
    m_framesReceived = 0;
    m_series.clear();
    m_recent.clear();
    m_congestion.clear();
    m_connectionFindings.clear();
    m_check.reset();
    m_sourceName.clear();
    setState(State::Disconnected);
    emit findingsChanged();
}

void LiveSession::injectFault(const std::string& faultJson)
{
    if (!m_demo || !m_plan) {
        emit failed(tr("Faults can be injected into a demo fabric only: connect to one first (Live > Demo fabric)."));
        return;
    }
    auto faults = live::parseFaults("[" + faultJson + "]", "fault menu", *m_plan);
    if (!faults || faults->empty()) {
        emit failed(tr("The fault cannot be injected: %1").arg(faults ? tr("no fault given") : text(faults.errors())));
        return;
    }
    const live::Fault fault = faults->front();
    QString description = QString::fromUtf8(live::toString(fault.kind).data(), static_cast<qsizetype>(live::toString(fault.kind).size()));
    if (fault.kind == live::FaultKind::Congested)
        description += QStringLiteral(" %1").arg(QString::fromStdString(fault.switchName));
    else if (fault.kind == live::FaultKind::NoPfc || fault.kind == live::FaultKind::NoEcn || fault.kind == live::FaultKind::NoGpuDirect)
        description += QStringLiteral(" %1").arg(QString::fromStdString(fault.nic.node));
    else
        description += QStringLiteral(" %1/rail %2").arg(QString::fromStdString(fault.nic.node)).arg(fault.nic.rail);
    QPointer<LiveSession> self(this);
    const quint64 generation = m_connection;
    QMetaObject::invokeMethod(
        m_demo, [demo = m_demo, fault, self, generation, description] {
            auto done = std::make_shared<core::Status>(demo->inject(fault));
            QMetaObject::invokeMethod(
                self.data(), [self, generation, done, description] {
                    if (!self || self->m_connection != generation)
                        return;
                    if (*done)
                        emit self->faultInjected(description);
                    else
                        emit self->failed(tr("The fault %1 was not injected: %2").arg(description, text(done->errors())));
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void LiveSession::setAgentRunning(const std::string& node, bool running)
{
    if (!m_demo) {
        emit failed(tr("Agents can be stopped and started in a demo fabric only."));
        return;
    }
    QPointer<LiveSession> self(this);
    const quint64 generation = m_connection;
    QMetaObject::invokeMethod(
        m_demo, [demo = m_demo, node, running, self, generation] {
            auto done = std::make_shared<core::Status>(running ? demo->startAgent(node) : demo->stopAgent(node));
            QMetaObject::invokeMethod(
                self.data(), [self, generation, done] {
                    if (self && self->m_connection == generation && !*done)
                        emit self->failed(text(done->errors()));
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void LiveSession::runCheck()
{
    if (m_agents.empty() || !m_plan || !m_catalog) {
        emit failed(tr("Nothing to check: connect to a demo fabric or to an agents.json first."));
        return;
    }
    QPointer<LiveSession> self(this);
    auto work = [self, plan = m_plan, catalog = m_catalog, agents = m_agents, token = m_token](std::stop_token stop, quint64) {
        live::FetchOptions fetch;
        fetch.deadline = std::chrono::milliseconds(10'000); // an inventory is read, not a counter file
        fetch.token = token;
        std::vector<live::NodeObservation> observed;
        for (std::size_t i = 0; i < agents.size() && !stop.stop_requested(); i += kCheckChunk) {
            const std::vector<live::AgentEndpoint> chunk(agents.begin() + static_cast<std::ptrdiff_t>(i),
                agents.begin() + static_cast<std::ptrdiff_t>(std::min(agents.size(), i + kCheckChunk)));
            std::vector<live::NodeObservation> part = live::observeAgents(chunk, fetch);
            std::move(part.begin(), part.end(), std::back_inserter(observed));
            const double fraction = static_cast<double>(observed.size()) / static_cast<double>(agents.size());
            const QString what = tr("Reading inventories: %1 of %2 nodes").arg(observed.size()).arg(agents.size());
            QMetaObject::invokeMethod(
                self.data(), [self, fraction, what] {
                    if (self && self->m_checks.isRunning())
                        emit self->checkProgress(fraction, what);
                },
                Qt::QueuedConnection);
        }
        return live::checkFabric(*plan, *catalog, observed);
    };
    emit checkStarted();
    m_checks.start<live::LiveCheckReport>(work, [this](live::LiveCheckReport report) {
        m_check = std::move(report);
        emit checkFinished();
        emit findingsChanged();
    });
}

void LiveSession::cancelCheck()
{
    if (!m_checks.isRunning())
        return;
    m_checks.cancel();
    emit checkCancelled();
}

std::vector<LiveFinding> LiveSession::findings() const
{
    std::vector<LiveFinding> out;
    if (m_check)
        for (const core::Finding& f : m_check->findings)
            out.push_back({ f, LiveFinding::Source::Check });
    for (const core::Finding& f : m_congestion)
        out.push_back({ f, LiveFinding::Source::Congestion });
    for (const core::Finding& f : m_connectionFindings)
        out.push_back({ f, LiveFinding::Source::Connection });
    return out;
}

} // namespace railyard::app
