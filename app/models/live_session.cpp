// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/live_session.h"

#include "app/models/live_demo_fabric.h"
#include "app/models/live_poller.h"
#include "live/client/hostfile.h"
#include "live/client/prometheus_source.h"
#include "live/client/collective_runner.h"
#include "app/models/run_results.h"
#include "live/common/tool_invocation.h"
#include "live/sim/faults.h"
#include "live/sim/perftest_tools.h"

#include <QFileInfo>
#include <QPointer>
#include <QThread>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <stop_token>

#include <unistd.h>

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
    m_storePool.setMaxThreadCount(1);
}

LiveSession::~LiveSession()
{
    m_checks.cancel();
    m_checks.waitForIdle();
    if (m_stopTest)
        m_stopTest->store(true);
    m_tests.cancel();
    m_tests.waitForIdle(); // the test's processes are ended while the agents still answer
    m_storePool.waitForDone();
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
                    self->m_toolsDir = (*started)->toolsDir;
                    self->m_toolsNote = (*started)->toolsNote;
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
    return connectAgents(path, std::move(file->agents), file->tokenFile);
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
    return connectAgents(path, std::move(*agents), tokenFile.toStdString());
}

bool LiveSession::connectAgents(const QString& sourceName, std::vector<live::AgentEndpoint> agents, const std::string& tokenFile)
{
    std::string token;
    if (!tokenFile.empty()) {
        core::Result<std::string> read = live::readTokenFile(tokenFile);
        if (!read) {
            emit failed(tr("Cannot read the agents' token: %1").arg(text(read.errors())));
            return false;
        }
        token = *read;
    }
    disconnectFabric();
    ++m_connection;
    m_sourceName = sourceName;
    setState(State::Starting);
    startPolling(std::move(agents), token, nullptr);
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

std::function<void(std::shared_ptr<const LiveFrame>)> LiveSession::frameDelivery()
{
    // Queued to this object's thread, and dropped there when this session is gone or has since
    // connected elsewhere (a late frame of the last connection).
    return [self = QPointer<LiveSession>(this), generation = m_connection](std::shared_ptr<const LiveFrame> frame) {
        QMetaObject::invokeMethod(
            self.data(), [self, generation, frame = std::move(frame)] {
                if (self && self->m_connection == generation)
                    self->receive(frame);
            },
            Qt::QueuedConnection);
    };
}

void LiveSession::startPrometheusPolling(std::shared_ptr<const live::PrometheusSource> source, const std::string& url)
{
    m_pollThread = new QThread(this);
    m_pollThread->setObjectName(QStringLiteral("live-prometheus"));
    // The source points into the plan, which the poller holds (and outlives the source in it).
    m_poller = new LivePoller(m_plan, std::move(source), url, kPollInterval, frameDelivery());
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
    std::function<void()> beforePoll;
    if (thread && m_demo)
        beforePoll = [demo = m_demo] { demo->update(); };
    else {
        m_pollThread = thread = new QThread(this);
        m_pollThread->setObjectName(QStringLiteral("live-poll"));
    }
    m_poller = new LivePoller(m_plan, m_agents, fetch, kPollInterval, frameDelivery(), beforePoll);
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
    if (m_tests.isRunning()) {
        // Ended on the nodes before the agents go (a demo's are stopped below): at most a deadline.
        m_stopTest->store(true);
        m_tests.cancel();
        m_tests.waitForIdle();
    }
    m_toolsDir.clear();
    m_toolsNote.clear();
    m_partial = {};
    m_testFindings.clear();
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
    const std::string startedAt = live::utcNow();
    m_checks.start<live::LiveCheckReport>(work, [this, startedAt](live::LiveCheckReport report) {
        m_check = std::move(report);
        // Stored as `live check --project` stores it, so that `results list` shows it.
        m_lastCheckRun = live::makeRunRecord(m_plan->spec.name, "check", startedAt, m_check->complete, live::checkRunSummary(*m_check),
            live::toJson(*m_check));
        storeRun(*m_lastCheckRun);
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

void LiveSession::runTest(const LiveTestRequest& request)
{
    if (m_agents.empty() || !m_plan || !m_catalog) {
        emit failed(tr("Nothing to test: connect to a demo fabric or to an agents.json first."));
        return;
    }
    if (m_tests.isRunning()) {
        emit failed(tr("A test is running: stop it first (Shift+F6)."));
        return;
    }
    const bool collective = live::isCollectiveKind(request.kind);
    if (!collective && !live::isBandwidthKind(request.kind)) {
        emit failed(tr("Unknown test kind %1: choose allreduce, allgather, reduce_scatter, write_bw or read_bw.").arg(QString::fromStdString(request.kind)));
        return;
    }
    // The sizes, refused here with the reason rather than by the agent.
    if (collective) {
        const auto lo = live::parseByteSize("minBytes", request.minBytes), hi = live::parseByteSize("maxBytes", request.maxBytes);
        if (!lo || !hi) {
            emit failed(tr("Sizes: %1").arg(text((!lo ? lo : hi).errors())));
            return;
        }
        if (*lo == 0 || *hi < *lo) {
            emit failed(tr("Sizes: from %1 to %2 is not a range of sizes: give a first size above 0 and a last size at least as large.")
                            .arg(QString::fromStdString(request.minBytes), QString::fromStdString(request.maxBytes)));
            return;
        }
        if (request.iters < 1) {
            emit failed(tr("Iterations: give at least 1."));
            return;
        }
    } else {
        const auto size = live::parseByteSize("messageBytes", request.messageBytes);
        if (!size || *size == 0 || *size > 0x7fffffffULL) {
            emit failed(tr("Message size: %1 is not a perftest size (1 B to 2 GiB - 1).").arg(QString::fromStdString(request.messageBytes)));
            return;
        }
    }
    if (isDemo() && !m_toolsNote.empty()) {
        emit failed(tr("Tests cannot run on this demo fabric: %1").arg(QString::fromStdString(m_toolsNote)));
        return;
    }
    std::vector<std::string> nodes = request.nodes;
    if (nodes.empty())
        for (const core::Device& d : m_plan->devices)
            if (d.kind == core::DeviceKind::Node && d.installed)
                nodes.push_back(d.name);
    std::map<std::string, live::AgentEndpoint> agentOf;
    for (const live::AgentEndpoint& a : m_agents)
        agentOf[a.node] = a;
    for (const std::string& n : nodes)
        if (!agentOf.count(n)) {
            emit failed(tr("%1 is not a node of this fabric's agents: name plan nodes (node001, ...), or leave the list empty for all.")
                            .arg(QString::fromStdString(n)));
            return;
        }

    m_partial = {};
    m_partial.kind = request.kind;
    m_testFindings.clear();
    m_stopTest = std::make_shared<std::atomic<bool>>(false);
    const auto stop = m_stopTest;
    QPointer<LiveSession> self(this);
    const quint64 connection = m_connection;
    // Posts `apply` to the GUI thread while this connection's test is the running one.
    auto post = [self, connection](std::function<void(LiveSession&)> apply) {
        QMetaObject::invokeMethod(
            self.data(), [self, connection, apply = std::move(apply)] {
                if (self && self->m_connection == connection && self->m_tests.isRunning())
                    apply(*self);
            },
            Qt::QueuedConnection);
    };
    live::FetchOptions fetch;
    fetch.deadline = std::chrono::milliseconds(10'000);
    fetch.token = m_token;
    const std::string startedAt = live::utcNow();
    const std::string planName = m_plan->spec.name;

    std::function<core::store::RunRecord(std::stop_token, quint64)> work;
    if (collective) {
        live::CollectiveTestOptions o;
        o.params.tool = live::ncclTestsToolOf(request.kind);
        o.params.nodes = nodes;
        o.params.minBytes = request.minBytes;
        o.params.maxBytes = request.maxBytes;
        o.params.stepFactor = "4";
        o.params.iters = request.iters;
        o.params.warmupIters = 1;
        o.params.hostList = true; // the first node's agent starts mpirun: no hostfile can be sent
        if (isDemo()) {
            // mpirun reaches the emulated nodes through the emulator's ssh; their ranks share this
            // machine's cores (no binding); the demo's agents are this process, maybe root.
            o.params.rshAgent = (std::filesystem::path(m_toolsDir) / std::string(live::kEmulatedSshName)).string();
            o.params.bindTo = "none";
            o.params.allowRunAsRoot = ::geteuid() == 0;
        }
        o.perRail = request.perRail;
        o.viaAgent = true;
        o.timeout = request.timeout;
        o.stop = stop.get();
        o.agents = agentOf;
        o.fetch = fetch;
        // The plan's bound for the chart's reference line before the first size is in.
        const int gpusPerNode = m_plan->summary.nodes > 0 ? static_cast<int>(m_plan->summary.gpus / m_plan->summary.nodes) : 8;
        live::CollectiveRun shape { live::collectiveOfTool(o.params.tool), live::NcclAlgorithm::Ring, gpusPerNode * static_cast<int>(nodes.size()),
            static_cast<int>(nodes.size()), nodes };
        m_partial.boundBusbwGBs = live::modelCollective(*m_plan, shape, {}).boundBusbwGBs;
        const auto lo = live::parseByteSize("minBytes", request.minBytes), hi = live::parseByteSize("maxBytes", request.maxBytes);
        const double sizes = lo && hi && *lo > 0 && *hi >= *lo ? std::floor(std::log(static_cast<double>(*hi) / *lo) / std::log(4.0)) + 1 : 1;
        const double total = sizes * (request.perRail ? std::max(1, m_plan->summary.rails) : 1);
        auto done = std::make_shared<std::atomic<int>>(0);
        o.sizeDone = [post, done, total, tool = QString::fromStdString(o.params.tool)](std::optional<int> rail, const live::NcclTestsRow& row) {
            const double busbw = std::max(row.outOfPlace.busbwGBs, row.hasInPlace ? row.inPlace.busbwGBs : 0.0);
            const double fraction = std::min(1.0, ++*done / total);
            post([rail, bytes = row.bytes, busbw, fraction, tool](LiveSession& s) {
                s.m_partial.busbw[rail.value_or(-1)].emplace_back(bytes, busbw);
                emit s.testMeasured();
                emit s.testProgress(fraction, tr("%1%2: %3 B, busbw %4 GB/s")
                                                  .arg(tool, rail ? tr(" on rail %1").arg(*rail) : QString())
                                                  .arg(bytes)
                                                  .arg(busbw, 0, 'f', 2));
            });
        };
        o.progress = [post](const std::string& line) {
            post([text = QString::fromStdString(line)](LiveSession& s) { emit s.testProgress(-1, text); });
        };
        work = [plan = m_plan, catalog = m_catalog, o, stop, planName, startedAt, kind = request.kind](std::stop_token token, quint64) {
            std::stop_callback onCancel(token, [stop] { stop->store(true); });
            const live::CollectiveTestReport report = live::runCollectiveTest(*plan, *catalog, o);
            return live::makeRunRecord(planName, kind, startedAt, report.complete, live::collectiveRunSummary(report), live::toJson(report));
        };
    } else {
        live::BandwidthTestOptions test;
        test.schedule.nodes = request.nodes;
        test.base.tool = "ib_" + request.kind;
        test.base.size = *live::parseByteSize("messageBytes", request.messageBytes); // checked above
        live::TestRunOptions run;
        run.fetch = fetch;
        run.testTimeout = request.timeout;
        run.stop = stop.get();
        const live::PerftestModel bound = live::modelPerftest(*m_plan, live::railMapOf(*m_plan, *m_catalog), "", false, {});
        m_partial.boundGbps = bound.boundGbps;
        m_partial.lowGbps = bound.boundGbps * test.lowPercent / 100;
        auto schedule = live::schedulePairs(*m_plan, test.schedule);
        std::size_t total = 0;
        if (schedule)
            for (const live::ScheduleRound& r : schedule->rounds)
                total += r.tests.size();
        run.roundDone = [post, total](const std::vector<live::PairOutcome>& outcomes) {
            post([outcomes, total](LiveSession& s) {
                s.m_partial.outcomes.insert(s.m_partial.outcomes.end(), outcomes.begin(), outcomes.end());
                emit s.testMeasured();
                if (total > 0)
                    emit s.testProgress(std::min(1.0, static_cast<double>(s.m_partial.outcomes.size()) / static_cast<double>(total)),
                        tr("%1 of %2 tests done").arg(s.m_partial.outcomes.size()).arg(total));
            });
        };
        run.progress = [post](const std::string& line) {
            post([text = QString::fromStdString(line)](LiveSession& s) { emit s.testProgress(-1, text); });
        };
        work = [plan = m_plan, catalog = m_catalog, agentOf, test, run, stop, planName, startedAt, kind = request.kind](std::stop_token token, quint64) {
            std::stop_callback onCancel(token, [stop] { stop->store(true); });
            const live::BandwidthTestReport report = live::runBandwidthTest(*plan, *catalog, agentOf, test, run);
            return live::makeRunRecord(planName, kind, startedAt, report.complete, live::bandwidthRunSummary(kind, report),
                live::bandwidthTestDocument(report));
        };
    }
    m_tests.start<core::store::RunRecord>(work, [this](core::store::RunRecord record) {
        // The findings of the run, from its document: the same reading as a stored run's.
        if (auto table = live::runTableOf(record.kind, nlohmann::json::parse(record.resultJson, nullptr, false)))
            m_testFindings = table->findings;
        m_lastTest = record;
        m_sessionTests.push_back(record);
        storeRun(std::move(record));
        emit testFinished();
        emit findingsChanged();
    });
    emit testStarted();
}

void LiveSession::stopTest()
{
    if (m_tests.isRunning() && m_stopTest)
        m_stopTest->store(true);
}

void LiveSession::setProjectPath(const QString& path)
{
    if (path == m_projectPath)
        return;
    m_projectPath = path;
    // Runs of this session made while no project was open go into the one that is now.
    std::vector<core::store::RunRecord> pending;
    pending.swap(m_unsaved);
    for (core::store::RunRecord& run : pending)
        storeRun(std::move(run));
}

void LiveSession::storeRun(core::store::RunRecord run)
{
    if (m_projectPath.isEmpty()) {
        m_unsaved.push_back(std::move(run));
        return;
    }
    QPointer<LiveSession> self(this);
    const std::string path = m_projectPath.toStdString();
    m_storePool.start([self, path, run = std::move(run)] {
        // Its own connection on this thread (STYLE §6.7); opened per run: runs are minutes apart.
        auto store = core::store::ProjectStore::open(path);
        auto id = store ? store->saveRun(run) : core::Result<std::int64_t>(store.errors());
        const QString error = id ? QString() : text(id.errors());
        const qint64 stored = id ? *id : 0;
        QMetaObject::invokeMethod(
            self.data(), [self, stored, error, run] {
                if (!self)
                    return;
                if (error.isEmpty()) {
                    emit self->runStored(stored);
                    return;
                }
                self->m_unsaved.push_back(run); // kept: saved with the project when it is saved again
                emit self->runNotStored(tr("The run was not stored in the project: %1").arg(error));
            },
            Qt::QueuedConnection);
    });
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
    for (const core::Finding& f : m_testFindings)
        out.push_back({ f, LiveFinding::Source::Test });
    return out;
}

} // namespace railyard::app
