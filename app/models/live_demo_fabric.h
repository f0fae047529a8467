// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// "Demo fabric": the emulator (live/sim) on the current plan in a scratch folder under the
// user's runtime folder (else /dev/shm, else the cache folder), every node served by the agent's
// own code in this process. Lives on a worker thread, the poller's: every method but the
// constructor runs there (the emulator is not locked, so updates and injected faults must not
// meet). Everything is stopped and the folder removed by shutdown() or the destructor.
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"
#include "live/client/agent_client.h"
#include "live/sim/faults.h"

#include <QObject>
#include <QString>

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

class QTemporaryDir;

namespace railyard::live {
class AgentFarm;
class FabricEmulator;
}

namespace railyard::app {

class LiveDemoFabric : public QObject {
    Q_OBJECT
public:
    struct Started {
        std::vector<live::AgentEndpoint> agents;
        std::string token;
        QString root; ///< the scratch folder (agents.json and token are in it)
        /// ROOT/tools: the stand-ins of perftest and nccl-tests the agents start for tests, mpirun's
        /// ssh to the emulated nodes (railyard-emu-ssh) and the fabric facts nccl-tests reads.
        std::string toolsDir;
        /// Why tests from the window cannot run on this demo (a stand-in was not found); empty when they can.
        std::string toolsNote;
    };
    /// Called (on the fabric's thread) when a counter update fails; the demo keeps its last values.
    using OnError = std::function<void(const QString&)>;

    LiveDemoFabric(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog, OnError onError);
    ~LiveDemoFabric() override;

    /// Lays out and writes the trees and starts one agent per node. `baseDir` empty: see above.
    core::Result<Started> start(const QString& baseDir = {});
    /// Advances the counters by the time since the last update. The poller calls it just before
    /// each round (every second): hardware counters are always current when read, and an
    /// emulator updated on a timer of its own would beat against the polls (two updates in one
    /// interval, none in the next: rates jumping between twice and nothing).
    void update();
    /// Also rewrites the nccl-tests stand-in's fabric facts (a congested leaf slows its collectives).
    core::Status inject(const live::Fault& fault);
    /// Stops the agent of `node` (its port is kept for startAgent), as if it had died.
    core::Status stopAgent(const std::string& node);
    core::Status startAgent(const std::string& node);
    /// Stops the updates and every agent and removes the folder.
    void shutdown();

private:
    /// ROOT/tools/nccl-tests-fabric.json from the plan and the faults injected so far.
    core::Status writeFabricFacts();

    std::shared_ptr<const core::Plan> m_plan;
    std::shared_ptr<const core::Catalog> m_catalog;
    OnError m_onError;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<live::FabricEmulator> m_emulator;
    /// One farm per node, so that one node's agent can be stopped and started again.
    std::vector<std::unique_ptr<live::AgentFarm>> m_farms;
    std::vector<int> m_ports;
    std::string m_token;
    std::filesystem::path m_tools;
    std::vector<live::Fault> m_faults; ///< injected so far
    std::chrono::steady_clock::time_point m_last;
};

} // namespace railyard::app
