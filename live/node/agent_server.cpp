// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/node/agent_server.h"

#include "live/common/inventory_json.h"
#include "live/common/rate.h"
#include "live/node/sysfs_read.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <mutex>
#include <optional>
#include <string_view>
#include <thread>
#include <tuple>
#include <utility>

#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

namespace railyard::live {

namespace {

    constexpr const char* kJson = "application/json";
    constexpr const char* kPrometheus = "text/plain; version=0.0.4; charset=utf-8";
    constexpr std::size_t kMaxBody = 1024; // GET only: a request body is never needed

    // Compares in time that depends only on the lengths, never on where the first difference is.
    bool constantTimeEquals(std::string_view a, std::string_view b)
    {
        const std::size_t n = a.size() > b.size() ? a.size() : b.size();
        unsigned diff = a.size() == b.size() ? 0u : 1u;
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
            const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
            diff |= static_cast<unsigned>(x ^ y);
        }
        return diff == 0;
    }

    bool equalsIgnoreCase(std::string_view a, std::string_view b)
    {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            const auto lower = [](char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; };
            if (lower(a[i]) != lower(b[i]))
                return false;
        }
        return true;
    }

    // The token of an "Authorization: Bearer <token>" header; empty when there is none.
    std::string_view bearerToken(std::string_view header)
    {
        constexpr std::string_view kScheme = "bearer";
        if (header.size() <= kScheme.size() || !equalsIgnoreCase(header.substr(0, kScheme.size()), kScheme)
            || header[kScheme.size()] != ' ')
            return {};
        std::string_view token = header.substr(kScheme.size() + 1);
        while (!token.empty() && token.front() == ' ')
            token.remove_prefix(1);
        while (!token.empty() && (token.back() == ' ' || token.back() == '\t'))
            token.remove_suffix(1);
        return token;
    }

    void sendError(httplib::Response& res, int status, std::string_view code, std::string_view message)
    {
        res.status = status;
        const nlohmann::json body = { { "api_version", kApiVersion },
            { "error", { { "code", code }, { "message", message } } } };
        res.set_content(body.dump() + "\n", kJson);
    }

    void sendJson(httplib::Response& res, const nlohmann::json& doc)
    {
        res.status = 200;
        res.set_content(doc.dump() + "\n", kJson);
    }

    std::string hostName()
    {
        char buf[256] = {};
        if (::gethostname(buf, sizeof buf - 1) != 0)
            return {};
        return buf;
    }

    // "4: ACTIVE" -> {4, "ACTIVE"}; {0, ""} when the text has no leading number.
    std::pair<int, std::string> numberedName(std::string_view text)
    {
        int value = 0;
        std::size_t i = 0;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9' && value < 1000; ++i)
            value = value * 10 + (text[i] - '0');
        if (i == 0)
            return { 0, {} };
        std::string_view rest = text.substr(i);
        while (!rest.empty() && (rest.front() == ':' || rest.front() == ' '))
            rest.remove_prefix(1);
        return { value, std::string(rest) };
    }

    // Re-reads what changes while a node runs (port state, physical state, rate) into an
    // inventory that may be some seconds old. An unreadable port says "unknown" (0), never
    // what it said before.
    void refreshPortState(Inventory& inv, const std::string& sysfsRoot)
    {
        std::string text;
        for (RdmaDevice& d : inv.devices) {
            for (RdmaPort& p : d.ports) {
                const std::string base = sysfsRoot + "/class/infiniband/" + d.name + "/ports/" + std::to_string(p.number) + "/";
                if (sysfs::readText(base + "state", text))
                    std::tie(p.state, p.stateName) = numberedName(text);
                else
                    std::tie(p.state, p.stateName) = std::pair<int, std::string> { 0, {} };
                if (sysfs::readText(base + "phys_state", text))
                    std::tie(p.physState, p.physStateName) = numberedName(text);
                else
                    std::tie(p.physState, p.physStateName) = std::pair<int, std::string> { 0, {} };
                p.rateText.clear();
                p.rateGbps = 0;
                p.width = 0;
                p.generation.clear();
                if (sysfs::readText(base + "rate", p.rateText)) {
                    if (const auto rate = parseRateText(p.rateText)) {
                        p.rateGbps = rate->gbps;
                        p.width = rate->width;
                        p.generation = rate->generation;
                    }
                }
            }
        }
    }

    enum class Route { Health, Metrics, Inventory, Counters, Unknown };

    Route routeOf(std::string_view path)
    {
        if (path == "/v1/health")
            return Route::Health;
        if (path == "/metrics")
            return Route::Metrics;
        if (path == "/v1/inventory")
            return Route::Inventory;
        if (path == "/v1/counters")
            return Route::Counters;
        return Route::Unknown;
    }

} // namespace

struct AgentServer::Impl {
    AgentConfig config;
    std::shared_ptr<const NodeReader> reader;
    httplib::Server server;
    std::thread thread;
    std::mutex mutex; // start/stop
    std::atomic<int> boundPort { 0 };
    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
    std::string nodeName;
    bool running = false;
    // /metrics: the inventory part (device identity, ports, rails) is read at most every
    // config.metricsInventoryTtlMs; port state and rate are re-read on every scrape.
    mutable std::mutex metricsMutex;
    mutable std::optional<Inventory> metricsInventory;
    mutable std::chrono::steady_clock::time_point metricsInventoryAt;
    std::atomic<bool> listenReturned { false };

    Impl(AgentConfig c, std::shared_ptr<const NodeReader> r)
        : config(std::move(c))
        , reader(std::move(r))
    {
    }

    // Everything is answered here, before cpp-httplib's own routing: one place decides on
    // method, token and path, so no request can reach a handler the checks did not see.
    void handle(const httplib::Request& req, httplib::Response& res) const
    {
        const Route route = routeOf(req.path);
        const bool isPublic = route == Route::Health || route == Route::Metrics;
        if (!isPublic && !authorize(req, res))
            return;
        if (route == Route::Unknown) {
            sendError(res, 404, "NOT_FOUND",
                "no such path: " + req.path + " (the agent answers /v1/inventory, /v1/counters, /v1/health and /metrics)");
            return;
        }
        if (req.method != "GET" && req.method != "HEAD") {
            res.set_header("Allow", "GET, HEAD");
            sendError(res, 405, "METHOD_NOT_ALLOWED", req.method + " " + req.path + ": only GET is allowed");
            return;
        }
        try {
            answer(route, res);
        } catch (const std::exception& e) {
            sendError(res, 500, "INTERNAL", std::string("reading the node failed: ") + e.what());
        }
    }

    bool authorize(const httplib::Request& req, httplib::Response& res) const
    {
        if (config.token.empty()) {
            sendError(res, 403, "NO_TOKEN_CONFIGURED",
                "this agent has no token configured, so it refuses every JSON API request; restart it with "
                "--token-file FILE (/metrics and /v1/health need no token)");
            return false;
        }
        const auto it = req.headers.find("Authorization");
        const std::string_view token = it == req.headers.end() ? std::string_view {} : bearerToken(it->second);
        if (token.empty()) {
            res.set_header("WWW-Authenticate", "Bearer realm=\"railyard-agent\"");
            sendError(res, 401, "UNAUTHORIZED",
                "missing bearer token: send \"Authorization: Bearer <token>\" with the token of the agent's --token-file");
            return false;
        }
        if (!constantTimeEquals(token, config.token)) {
            res.set_header("WWW-Authenticate", "Bearer realm=\"railyard-agent\", error=\"invalid_token\"");
            sendError(res, 401, "UNAUTHORIZED", "wrong bearer token: use the token of the agent's --token-file");
            return false;
        }
        return true;
    }

    void answer(Route route, httplib::Response& res) const
    {
        switch (route) {
        case Route::Health: {
            const auto up = std::chrono::steady_clock::now() - started;
            AgentHealth h;
            h.node = nodeName;
            h.uptimeSeconds = std::chrono::duration_cast<std::chrono::seconds>(up).count();
            sendJson(res, toJson(h));
            return;
        }
        case Route::Metrics: {
            const Inventory inv = inventoryForMetrics();
            const CounterSnapshot counters = reader->counters();
            res.status = 200;
            res.set_content(prometheusText(inv, counters), kPrometheus);
            return;
        }
        case Route::Inventory:
            sendJson(res, toJson(reader->inventory()));
            return;
        case Route::Counters:
            sendJson(res, toJson(reader->counters()));
            return;
        case Route::Unknown:
            break;
        }
    }

    Inventory inventoryForMetrics() const
    {
        Inventory inv;
        {
            const std::lock_guard lock(metricsMutex);
            const auto now = std::chrono::steady_clock::now();
            if (!metricsInventory || now - metricsInventoryAt >= std::chrono::milliseconds(config.metricsInventoryTtlMs)) {
                metricsInventory = reader->inventory();
                metricsInventoryAt = now;
                return *metricsInventory; // just read: state and rate are fresh
            }
            inv = *metricsInventory;
        }
        refreshPortState(inv, reader->options().sysfsRoot.string());
        return inv;
    }

    core::Status bind()
    {
        const std::string where = config.listenAddress + ":" + std::to_string(config.port);
        const std::string shown = config.listenAddress.find(':') != std::string::npos
            ? "[" + config.listenAddress + "]:" + std::to_string(config.port)
            : where;
        addrinfo hints {};
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICHOST;
        addrinfo* found = nullptr;
        const int rc = ::getaddrinfo(config.listenAddress.c_str(), nullptr, &hints, &found);
        if (found)
            ::freeaddrinfo(found);
        if (rc != 0) {
            return core::Error { "AGENT_BIND", "cannot listen on " + shown + ": not an IP address (" + ::gai_strerror(rc) + ")",
                shown, "give --listen an IPv4 or IPv6 address and a port, e.g. 127.0.0.1:9473 or [::1]:9473" };
        }
        if (config.port < 0 || config.port > 65535) {
            return core::Error { "AGENT_BIND", "cannot listen on " + shown + ": port out of range", shown,
                "use a port from 1 to 65535, or 0 for any free port" };
        }
        errno = 0;
        int port = config.port;
        bool ok = false;
        if (config.port == 0) {
            port = server.bind_to_any_port(config.listenAddress);
            ok = port > 0;
        } else {
            ok = server.bind_to_port(config.listenAddress, config.port);
        }
        if (!ok) {
            const int err = errno;
            const std::string reason = err != 0 ? std::strerror(err) : "the address could not be bound";
            const std::string hint = err == EADDRINUSE ? "another program listens there; stop it or choose another port with --listen"
                : err == EACCES                       ? "ports below 1024 need privileges; choose a port above 1024"
                : err == EADDRNOTAVAIL                ? "this host has no such address; use one of its own addresses"
                                                      : "check the address and port given to --listen";
            return core::Error { "AGENT_BIND", "cannot listen on " + shown + ": " + reason, shown, hint };
        }
        boundPort = port;
        return core::Status::success();
    }

    void configure()
    {
        const int threads = config.threads < 1 ? 1 : config.threads;
        server.new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
        // Short timeouts: a client that stops sending or reading gives its worker back soon.
        const auto io = std::chrono::milliseconds(config.ioTimeoutMs < 1 ? 1 : config.ioTimeoutMs);
        server.set_read_timeout(io);
        server.set_write_timeout(io);
        server.set_keep_alive_timeout(std::chrono::duration_cast<std::chrono::seconds>(io).count() < 1
                ? 1
                : std::chrono::duration_cast<std::chrono::seconds>(io).count());
        server.set_keep_alive_max_count(100);
        server.set_payload_max_length(kMaxBody);
        // httplib's default also sets SO_REUSEPORT, which would let a second agent (or any
        // program of the same user) bind the same port and take a share of the connections.
        server.set_socket_options([](socket_t sock) {
            int yes = 1;
            ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        });
        server.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
            handle(req, res);
            return httplib::Server::HandlerResponse::Handled;
        });
    }
};

AgentServer::AgentServer(AgentConfig config, std::shared_ptr<const NodeReader> reader)
    : m_impl(std::make_unique<Impl>(std::move(config), std::move(reader)))
{
}

AgentServer::~AgentServer()
{
    stop();
}

core::Status AgentServer::start()
{
    Impl& d = *m_impl;
    const std::lock_guard lock(d.mutex);
    if (d.running)
        return core::Error { "AGENT_STATE", "the agent server is already running", {}, {} };
    if (!d.reader)
        return core::Error { "AGENT_STATE", "the agent server has no node reader", {}, "construct it with a NodeReader" };
    d.nodeName = d.reader->options().node.empty() ? hostName() : d.reader->options().node;
    d.configure();
    if (core::Status s = d.bind(); !s)
        return s;
    d.started = std::chrono::steady_clock::now();
    d.running = true;
    d.listenReturned = false;
    d.thread = std::thread([&d] {
        d.server.listen_after_bind();
        d.listenReturned = true;
    });
    // httplib's stop() does nothing until the accept loop has begun: wait for it, so that a
    // stop() right after start() cannot miss it and leave the thread listening.
    while (!d.server.is_running() && !d.listenReturned)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return core::Status::success();
}

void AgentServer::stop()
{
    Impl& d = *m_impl;
    const std::lock_guard lock(d.mutex);
    if (!d.running)
        return;
    if (!d.listenReturned)
        d.server.stop();
    if (d.thread.joinable())
        d.thread.join();
    d.running = false;
}

int AgentServer::port() const
{
    return m_impl->boundPort;
}

} // namespace railyard::live
