// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's session, on the GUI thread: connects to a demo fabric or to the agents of an
// agents.json, runs the poller and the demo on worker threads of their own (the GUI thread never
// waits for an agent), keeps the per-rail series (bounded: an hour at 1 Hz), the congestion
// findings of the last sweeps, and runs `live check` off the GUI thread with progress and cancel.
// Every engine call is the live library's; this class only wires them to Qt.
#pragma once

#include "app/models/job_runner.h"
#include "app/models/live_frame.h"
#include "core/catalog.h"
#include "core/plan.h"
#include "core/store/project_store.h"
#include "live/client/live_check.h"
#include "live/client/test_runner.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QThread;

namespace railyard::live {
class PrometheusSource;
}

namespace railyard::app {

class LiveDemoFabric;
class LivePoller;

/// One rail's aggregate at one sweep: throughput as the mean of its ports (comparable with the
/// line rate), congestion signals summed over them.
struct RailSample {
    double t = 0; ///< seconds since connecting
    double txGbps = 0, rxGbps = 0; ///< per port
    double xmitWaitPerS = 0, ecnMarkedPerS = 0, cnpPerS = 0, pfcPausePerS = 0;
};

/// A finding of the Live workspace and where it came from.
struct LiveFinding {
    enum class Source { Check, Congestion, Connection, Test };
    core::Finding finding;
    Source source = Source::Check;
};

/// A test from the window: GPUDirect bandwidth per rail (perftest pairs through the agents) or an
/// all-reduce (nccl-tests, launched by the first node's agent).
struct LiveTestRequest {
    /// The CLI's --kind, and the stored run's: allreduce, allgather, reduce_scatter (nccl-tests),
    /// write_bw, read_bw (perftest).
    std::string kind = "allreduce";
    std::vector<std::string> nodes;  ///< plan nodes; empty: every node of the plan
    bool perRail = false;            ///< collectives: one run per rail (NCCL_IB_HCA = that rail's NIC)
    std::string minBytes = "1M", maxBytes = "1G"; ///< collectives: the sizes (-b, -e), ×4 each step
    int iters = 5;                   ///< collectives: iterations per size (-n)
    std::string messageBytes = "1M"; ///< bandwidth tests: the message size (perftest's -s)
    std::chrono::seconds timeout { 300 };
};

/// What a running test has measured so far (read on the GUI thread after testMeasured()).
struct LiveTestPartial {
    std::string kind;
    std::optional<double> boundBusbwGBs; ///< all-reduce: the plan's bound (the chart's reference line)
    double boundGbps = 0, lowGbps = 0;   ///< bandwidth test: the plan's bound per test, and "low" under this
    /// All-reduce: busbw (GB/s) by message size (B), per launch (-1: every rail; else the isolated rail).
    std::map<int, std::vector<std::pair<std::uint64_t, double>>> busbw;
    std::vector<live::PairOutcome> outcomes; ///< bandwidth test: the tests done so far, in order
};

class LiveSession : public QObject {
    Q_OBJECT
public:
    enum class State { Disconnected, Starting, Connected };
    static constexpr std::size_t kSeriesCapacity = 3600; ///< samples kept per rail
    static constexpr std::size_t kCongestionSweeps = 10; ///< sweeps the congestion findings cover

    explicit LiveSession(QObject* parent = nullptr);
    ~LiveSession() override;

    /// The plan the fabric is compared with (and the demo emulates). Takes effect at the next connect.
    void setPlan(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog);
    std::shared_ptr<const core::Plan> plan() const { return m_plan; }

    /// Starts a demo fabric of the plan (asynchronously: connected() when its agents answer).
    /// `baseDir` empty: the user's runtime folder.
    void connectDemo(const QString& baseDir = {});
    /// Connects to the agents listed in `path`; false (and failed()) when the file cannot be used.
    bool connectAgentsFile(const QString& path);
    /// Connects to the agents of a hostfile (live/client/hostfile.h: one host per line, Open MPI's
    /// `host slots=N` too), each at `port`; `tokenFile` empty: no token. False (and failed()) when
    /// the file or the token cannot be used.
    bool connectHostfile(const QString& path, int port, const QString& tokenFile = {});
    /// Reads the fabric's rates from a Prometheus server (`live watch --prometheus`,
    /// live/client/prometheus_source.h): the agents' railyard_* series, or the node exporter's
    /// node_infiniband_* (`nodeExporter`); `selector` extra label matchers. False (and failed())
    /// when the URL or the selector is refused.
    bool connectPrometheus(const QString& url, bool nodeExporter, const QString& selector = {}, const QString& tokenFile = {});
    /// Stops polling and, for a demo, the emulator and its agents (the folder is removed).
    void disconnectFabric();
    State state() const { return m_state; }
    bool isDemo() const { return m_demo != nullptr; }
    QString sourceName() const { return m_sourceName; }

    /// The newest sweep (null before the first one).
    std::shared_ptr<const LiveFrame> frame() const { return m_frame; }
    std::size_t framesReceived() const { return m_framesReceived; }
    const std::vector<std::deque<RailSample>>& series() const { return m_series; }

    /// Demo only: injects a fault given as one entry of a faults file (interfaces.md §4), checked
    /// against the plan; faultInjected() or failed() follows.
    void injectFault(const std::string& faultJson);
    /// Demo only: stops or restarts a node's agent (as if it died, or came back).
    void setAgentRunning(const std::string& node, bool running);

    /// `live check` through the agents, off the GUI thread; checkProgress() and checkFinished().
    void runCheck();
    void cancelCheck();
    bool isChecking() const { return m_checks.isRunning(); }
    const std::optional<live::LiveCheckReport>& checkReport() const { return m_check; }

    /// Runs `request` off the GUI thread: testStarted(), testProgress() per event, testMeasured()
    /// when a size or a round is in, testFinished() (also after stopTest(): what was measured is kept).
    void runTest(const LiveTestRequest& request);
    /// Stops the running test: its processes on the nodes are ended (DELETE /v1/tests, the
    /// launcher's process group); the measured part is kept and stored.
    void stopTest();
    bool isTesting() const { return m_tests.isRunning(); }
    const LiveTestPartial& testPartial() const { return m_partial; }
    /// The newest finished test and check of this session as stored runs (id 0: not stored).
    const std::optional<core::store::RunRecord>& lastTest() const { return m_lastTest; }
    const std::optional<core::store::RunRecord>& lastCheckRun() const { return m_lastCheckRun; }
    /// This session's finished tests, oldest first (the bring-up report's).
    const std::vector<core::store::RunRecord>& sessionTests() const { return m_sessionTests; }

    /// The project file runs are stored in (every check and test from the window); empty: none is
    /// open, runs stay in this session (unsavedRuns()) and are stored when one is set.
    void setProjectPath(const QString& path);
    const QString& projectPath() const { return m_projectPath; }
    const std::vector<core::store::RunRecord>& unsavedRuns() const { return m_unsaved; }

    /// Check, congestion, connection and test findings, in that order.
    std::vector<LiveFinding> findings() const;

signals:
    void stateChanged(railyard::app::LiveSession::State state);
    void frameReady();
    void findingsChanged();
    void checkStarted();
    void checkProgress(double fraction, const QString& text);
    /// The check's report is in checkReport(); findingsChanged() follows at once.
    void checkFinished();
    void checkCancelled();
    void faultInjected(const QString& description);
    void testStarted();
    void testProgress(double fraction, const QString& text);
    void testMeasured();
    void testFinished();
    /// A run was stored in the project (`id`), or could not be (`error`, in words).
    void runStored(qint64 id);
    void runNotStored(const QString& error);
    /// Something went wrong, in words (what, where, what to do).
    void failed(const QString& message);

private:
    /// Reads the token (when a file is named), then polls `agents`; false with failed() otherwise.
    bool connectAgents(const QString& sourceName, std::vector<live::AgentEndpoint> agents, const std::string& tokenFile);
    /// Polls on `thread` (the demo's, which then updates its counters before each round) or on a
    /// thread of its own (null).
    void startPolling(std::vector<live::AgentEndpoint> agents, const std::string& token, QThread* thread);
    /// Polls `source` on a thread of its own (connectPrometheus).
    void startPrometheusPolling(std::shared_ptr<const live::PrometheusSource> source, const std::string& url);
    /// What a poller calls with each frame it reads.
    std::function<void(std::shared_ptr<const LiveFrame>)> frameDelivery();
    void receive(std::shared_ptr<const LiveFrame> frame);
    void setState(State state);
    void stopThreads();

    std::shared_ptr<const core::Plan> m_plan;
    std::shared_ptr<const core::Catalog> m_catalog;
    State m_state = State::Disconnected;
    QString m_sourceName;
    quint64 m_connection = 0; ///< generation: frames of an earlier connection are dropped

    QThread* m_pollThread = nullptr;
    LivePoller* m_poller = nullptr;
    QThread* m_demoThread = nullptr;
    LiveDemoFabric* m_demo = nullptr;

    std::vector<live::AgentEndpoint> m_agents;
    std::string m_token;
    std::shared_ptr<const LiveFrame> m_frame;
    std::size_t m_framesReceived = 0;
    std::vector<std::deque<RailSample>> m_series;
    std::deque<live::Sweep> m_recent; ///< aggregates only (ports dropped), for the congestion findings
    std::vector<core::Finding> m_congestion;
    std::vector<core::Finding> m_connectionFindings;

    /// Stores `run` in the project off the GUI thread (runStored/runNotStored), or keeps it for
    /// later when no project is open.
    void storeRun(core::store::RunRecord run);

    JobRunner m_checks;
    std::optional<live::LiveCheckReport> m_check;
    std::optional<core::store::RunRecord> m_lastCheckRun;

    JobRunner m_tests;
    QThreadPool m_storePool; ///< one thread: the project's single writer, in the order runs end
    std::shared_ptr<std::atomic<bool>> m_stopTest;
    LiveTestPartial m_partial;
    std::optional<core::store::RunRecord> m_lastTest;
    std::vector<core::Finding> m_testFindings;
    std::vector<core::store::RunRecord> m_sessionTests;
    std::string m_toolsDir, m_toolsNote;
    QString m_projectPath;
    std::vector<core::store::RunRecord> m_unsaved;
};

} // namespace railyard::app
