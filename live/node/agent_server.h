// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The agent's HTTP/1.1 + JSON API (interfaces.md §4): /v1/inventory, /v1/counters and /v1/tests
// (bearer token), /v1/health and /metrics (Prometheus text, `railyard_*`; no token).
//
// /v1/tests runs whitelisted test programs (live/common/tool_invocation.h) on request:
//   POST   /v1/tests            {"program", "args": [...], "env": {"NCCL_...": "..."}, "timeout_s", "role"}
//                               -> 201 the test (state "running", or "failed_to_start" with "error");
//                               400 naming the field refused; 503 when 16 tests already run
//   GET    /v1/tests            -> {"tests": [...]} (no output)
//   GET    /v1/tests/ID[?offset=N] -> the test, with its output from byte N (at most 1 MiB per answer)
//                               and "next_offset"; 404 for an unknown id
//   DELETE /v1/tests/ID         -> SIGTERM to its process group, SIGKILL 2 s later; answers the end
// Each runs as toolsDir/<program> (no PATH search) in a process group of its own, stdin
// /dev/null, stdout and stderr into one pipe (16 MiB kept), environment PATH=/usr/bin:/bin, LANG=C,
// RAILYARD_SYSFS_ROOT=<the reader's sysfs root> and the request's NCCL_* variables only. A test
// past its timeout ends "timed_out" the same way; the last 64 finished tests are kept; stop()
// kills every running test and what it left in its group. Its arguments must follow the tool's
// grammar (checkInvocation); mpirun's plm_rsh_agent must be ssh, rsh or a file of the tools
// folder; a tool (or the folder) that others than its owner may write fails to start.
//
// Floods: connections that send nothing are held back by the kernel (TCP_DEFER_ACCEPT, a listen
// backlog of SOMAXCONN); at most 128 accepted connections wait for a worker, and from 32 waiting
// on every request is answered 503 AGENT_BUSY with Retry-After: 1 and the connection closed.
#pragma once

#include "core/result.h"
#include "live/node/node_reader.h"

#include <filesystem>
#include <memory>
#include <string>

namespace railyard::live {

struct AgentConfig {
    std::string listenAddress = "127.0.0.1";
    int port = 9473;   ///< 0: any free port (see AgentServer::port())
    std::string token; ///< required bearer token; empty: the JSON API refuses every request
    int threads = 2;   ///< worker threads of this server
    /// Read and write timeout per socket operation, and the keep-alive idle limit (rounded up to
    /// whole seconds): a client that stops sending or reading gives its worker back after this.
    int ioTimeoutMs = 5000;
    /// /metrics re-reads every counter, port state and rate on each scrape, but the rest of the
    /// inventory (device identity, ports, rails) at most this often; 0: on every scrape too.
    int metricsInventoryTtlMs = 30000;
    /// Where POST /v1/tests finds its programs: toolsDir/<program>, a whitelisted bare name.
    std::filesystem::path toolsDir = "/usr/bin";
};

class AgentServer {
public:
    AgentServer(AgentConfig config, std::shared_ptr<const NodeReader> reader);
    ~AgentServer();
    AgentServer(const AgentServer&) = delete;
    AgentServer& operator=(const AgentServer&) = delete;

    /// Binds and starts serving on a thread of its own; an error names the address when binding fails.
    core::Status start();
    /// Stops serving, then ends every running test (SIGTERM, SIGKILL after 2 s) and reaps it.
    void stop();
    int port() const; ///< the bound port once started

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Prometheus text exposition of one counter snapshot (plus inventory-derived gauges such as
/// link state and rate), labels `node`, `device`, `port`, `rail`.
std::string prometheusText(const Inventory& inventory, const CounterSnapshot& counters);

} // namespace railyard::live
