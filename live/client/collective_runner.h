// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `live test --kind allreduce|all_gather|reduce_scatter`: nccl-tests across plan nodes, launched the
// way operators launch it (test_launch.h: Open MPI's mpirun with the generated hostfile, or Slurm's
// srun, with the NCCL environment), read line by line while it runs (NcclTestsParser for the table,
// NcclLogParser for NCCL's NCCL_DEBUG=INFO log), judged against the plan (modelCollective) and,
// when low, explained: NCCL's log (the NICs it used, GPUDirect RDMA per node, rings crossing rails,
// GID index and traffic class on RoCE) next to the counters of the run (the agents' /v1/counters
// before and after, through TelemetryAggregator: link errors, XmitWait, ECN, PFC) and the agents'
// inventory (a rail port down or trained below the plan's rate).
//
// Two ways to start the launcher, the same analysis after:
//   - here: the launcher is a child process of this one (live/common/subprocess.h), in a process
//     group of its own, with the NCCL environment added to this process's; cancel (the stop flag) or
//     the timeout end the whole group (SIGTERM, then SIGKILL), which takes mpirun's daemons and
//     ranks on this host with it (mpirun ends its remote daemons itself on SIGTERM).
//   - through an agent (CollectiveTestOptions::viaAgent): the first node's agent starts it
//     (POST /v1/tests, a whitelisted launcher with the token), followed by GET ?offset= and ended by
//     DELETE on cancel or timeout, as test_runner.h does for perftest. The hostfile cannot be sent,
//     so mpirun gets `--host A:G,B:G` (NcclTestsParams::hostList).
//
// Findings (core::Finding, `where` the node, "node/nicK", the leaf, or "rail K"):
//   ALLREDUCE_LOW (error when the verdict is low, warning when below): measured busbw against the
//     bound, with the most likely cause and its evidence; ALLREDUCE_RAIL_LOW per isolated rail;
//   ALLREDUCE_FAILED (error): the run failed (a rank died, a transport error, the tool's own
//     failure, a timeout), with NCCL's completion errors and the port that is down when known;
//   ALLREDUCE_CANCELLED (warning); plus the parsers' own findings (NCCL_GDR_DISABLED, ...), once.
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"
#include "live/client/agent_client.h"
#include "live/client/bandwidth_model.h"
#include "live/client/telemetry.h"
#include "live/client/test_launch.h"
#include "live/common/nccl_log.h"
#include "live/common/nccl_tests_output.h"

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace railyard::live {

struct CollectiveTestOptions {
    /// Tool, nodes (empty: every installed node of the plan), sizes, launcher and its options; the
    /// hostfile path is set per run (workDir), hostList when viaAgent.
    NcclTestsParams params;
    bool perRail = false; ///< one run per rail, NCCL_IB_HCA = that rail's NIC only (params.isolateRail ignored)
    bool viaAgent = false; ///< the first node's agent starts the launcher
    /// Here: the launcher program to run (an absolute path; findProgram("mpirun") when empty).
    std::string launcherProgram;
    /// Here: where the generated hostfile is written (hostfile-<n> in it).
    std::filesystem::path workDir;
    std::chrono::seconds timeout { 600 }; ///< each run
    std::chrono::milliseconds pollInterval { 100 };
    const std::atomic<bool>* stop = nullptr; ///< set from outside: stop the run, keep what was measured
    std::function<void(const std::string&)> progress; ///< one line per completed size and per event
    /// Each completed size as parsed (the launch's isolated rail, nullopt: all rails), for a front end's chart.
    std::function<void(std::optional<int> rail, const NcclTestsRow& row)> sizeDone;
    VerdictThresholds thresholds;
    /// The agents (by plan node): the launching agent, and counters and inventory for the analysis;
    /// empty: no counters (the analysis says so).
    std::map<std::string, AgentEndpoint> agents;
    FetchOptions fetch;
    CongestionThresholds congestion;
};

/// One launch (the whole set of rails, or one rail).
struct CollectiveRunOutcome {
    std::optional<int> rail; ///< the isolated rail; nullopt: all rails
    ToolInvocation launcher;
    std::string hostfile;
    std::string output; ///< stdout and stderr of the launcher, as read
    NcclTestsRun tests;
    NcclLogReport log;
    CollectiveModel model;
    std::optional<int> exitStatus; ///< the launcher's; nullopt when it did not end by itself
    bool cancelled = false, timedOut = false;
    std::optional<core::Error> error; ///< could not be started or followed
    bool ok() const { return !error && !cancelled && !timedOut && exitStatus == 0 && tests.complete; }
};

/// A rail port of a node that does not run at the plan's rate, from the agents' inventory.
struct PortProblem {
    std::string node, device;
    int rail = -1;
    std::string state;  ///< "ACTIVE", "DOWN", ...
    double rateGbps = 0;
    double plannedGbps = 0;
};

struct CollectiveTestReport {
    std::string tool;
    std::vector<std::string> nodes;
    std::vector<CollectiveRunOutcome> runs;
    std::optional<Sweep> counters; ///< the rates over the runs (before -> after); nullopt without agents
    std::vector<PortProblem> ports;
    std::vector<core::Finding> findings; ///< errors first
    bool complete = true; ///< every run ended by itself with a complete table and nothing was cancelled
};

CollectiveTestReport runCollectiveTest(const core::Plan& plan, const core::Catalog& catalog, const CollectiveTestOptions& options);

/// The root cause of a low or failed run, from what was seen (pure; runCollectiveTest calls it).
/// Appends its findings to `report.findings`.
void explainCollective(const core::Plan& plan, CollectiveTestReport& report, const VerdictThresholds& thresholds);

/// The report as JSON: tool, nodes, complete, runs [{rail, command, exit_status, cancelled,
/// timed_out, error, tests (the results import document), nccl_log {nics, hosts' gdr, channels,
/// gid_index, traffic_class, crosses_rails}, expected (toJson(CollectiveModel): bound, net_bw,
/// percent of bound per size, verdict)}], counters (toJson(Sweep)), ports, findings.
nlohmann::json toJson(const CollectiveTestReport& report);

} // namespace railyard::live
