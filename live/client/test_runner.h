// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `live test --kind write_bw`: pairwise perftest runs started through the nodes' agents
// (POST /v1/tests: whitelisted tools only, with the token), followed while they run
// (GET /v1/tests/<id>?offset=), parsed with the same reader as `results import`, judged against
// the plan, and narrowed down to the bad port or uplinks (pair_schedule.h). A cancel deletes
// every test of the round on every node (DELETE /v1/tests/<id>).
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"
#include "live/client/agent_client.h"
#include "live/client/bandwidth_model.h"
#include "live/client/pair_schedule.h"
#include "live/client/test_launch.h"
#include "live/common/perftest_output.h"

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace railyard::live {

struct PairOutcome;

struct TestRunOptions {
    FetchOptions fetch;
    std::chrono::milliseconds pollInterval { 200 };
    std::chrono::seconds serverReady { 20 }; ///< a server must say it waits for its client by then
    std::chrono::seconds testTimeout { 120 }; ///< each test, on the agent (timeout_s) and here
    const std::atomic<bool>* stop = nullptr;  ///< set from outside: cancel the round
    std::function<void(const std::string&)> progress; ///< one line per event, for a person
    /// Each round's outcomes once the round has ended (retests too), for a front end's table.
    std::function<void(const std::vector<PairOutcome>&)> roundDone;
};

/// One test of a round, as it went.
struct PairOutcome {
    PairTest test;
    std::vector<ToolInvocation> invocations; ///< [server, client]
    std::string serverOutput, clientOutput;
    std::optional<PerftestRun> client;       ///< the client's parsed output (it prints the results)
    std::optional<double> gbps;              ///< the bandwidth the client measured (largest size's average)
    std::optional<core::Error> error;        ///< why there is no result (agent, tool, timeout, cancel)
};

/// Runs the tests of `round` at once: every server first, then, once each server says it waits
/// for its client, the clients; each client reaches its server at the address its agent is
/// reached at (agents.json; for an agent on loopback, such as the emulator's, at the node's
/// name), on a TCP port of its own among the servers at that address (base.tcpPort + k).
/// Outcomes in the round's order.
std::vector<PairOutcome> runPerftestRound(const core::Plan& plan, const core::Catalog& catalog,
    const std::map<std::string, AgentEndpoint>& agentOf, const ScheduleRound& round, const PerftestParams& base,
    const TestRunOptions& options);

/// A whole `live test --kind write_bw`: the schedule, every round, the per-test verdicts against
/// the plan and the narrowing of low results (with its retest round run too).
struct BandwidthTestReport {
    PairSchedule schedule;
    std::vector<std::vector<PairOutcome>> rounds;
    std::vector<PairOutcome> retests;
    Narrowing narrowing;
    double boundGbps = 0; ///< per test, from the plan (modelPerftest)
    double lowGbps = 0;   ///< a test below this is low
    std::vector<core::Finding> findings; ///< tests that failed (TEST_FAILED), then the narrowing's
    bool complete = true; ///< every test gave a result and nothing was cancelled
};

struct BandwidthTestOptions {
    ScheduleOptions schedule;
    PerftestParams base;          ///< tool, size, qps, ...; hosts, devices and GPUs are filled per test
    double lowPercent = 75;       ///< of the plan's bound
    bool retest = true;           ///< run the narrowing's retest round
};

BandwidthTestReport runBandwidthTest(const core::Plan& plan, const core::Catalog& catalog,
    const std::map<std::string, AgentEndpoint>& agentOf, const BandwidthTestOptions& test, const TestRunOptions& options);

nlohmann::json toJson(const BandwidthTestReport& report);

} // namespace railyard::live
