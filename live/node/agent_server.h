// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The agent's HTTP/1.1 + JSON API (interfaces.md §4): /v1/inventory, /v1/counters (bearer
// token), /v1/health and /metrics (Prometheus text, `railyard_*`; no token).
#pragma once

#include "core/result.h"
#include "live/node/node_reader.h"

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
};

class AgentServer {
public:
    AgentServer(AgentConfig config, std::shared_ptr<const NodeReader> reader);
    ~AgentServer();
    AgentServer(const AgentServer&) = delete;
    AgentServer& operator=(const AgentServer&) = delete;

    /// Binds and starts serving on a thread of its own; an error names the address when binding fails.
    core::Status start();
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
