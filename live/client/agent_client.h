// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The one agent client (CLI, GUI and tests): agents.json, and non-blocking HTTP/1.1 GETs to many
// agents at once (Boost.Asio) with a deadline per request and a bounded number in flight, so one
// slow or hostile agent never delays the others.
#pragma once

#include "core/result.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// One agent: the plan's node name and the agent's base URL ("http://127.0.0.1:9473").
struct AgentEndpoint {
    std::string node;
    std::string url;
};

/// `agents.json` (interfaces.md §4): `{ "token_file": "...", "agents": [ { "node", "url" } ] }`.
struct AgentsFile {
    std::filesystem::path tokenFile; ///< resolved against the file's folder; empty when absent
    std::vector<AgentEndpoint> agents;
};
core::Result<AgentsFile> readAgentsFile(const std::filesystem::path& path);
/// The agents file's text as read from `path` (its errors name it; a relative token_file is
/// taken from its folder).
core::Result<AgentsFile> parseAgentsFile(std::string_view text, const std::filesystem::path& path);

/// Reads a bearer token file (live::parseBearerToken); an error names the file.
core::Result<std::string> readTokenFile(const std::filesystem::path& path);

struct FetchOptions {
    std::chrono::milliseconds deadline { 5000 }; ///< per request: connect, send, receive
    int maxInFlight = 64;
    std::string token;                          ///< sent as "Authorization: Bearer <token>" when not empty
    std::size_t maxBodyBytes = 64u << 20;       ///< larger answers are refused
};

/// What one agent answered (or why it did not).
struct AgentReply {
    AgentEndpoint agent;
    int status = 0;                  ///< HTTP status; 0 when no answer
    std::string body;
    std::optional<core::Error> error; ///< unreachable, timed out, malformed, refused (401), ...
    std::chrono::milliseconds elapsed { 0 };
};

/// One request to one agent: a method, a path with its query, and a JSON body (POST).
struct AgentRequest {
    AgentEndpoint agent;
    std::string method = "GET"; ///< "GET", "POST", "DELETE"
    std::string path;           ///< "/v1/tests/4f2a?offset=120"
    std::string body;           ///< sent with Content-Type: application/json when not empty (or for POST)
};

/// Requests that may outlive the call that waits for them: started with start(), driven by wait()
/// on the calling thread (one io_context; at most options.maxInFlight open, each with its own
/// deadline from the moment it opens). A request still open when wait() returns stays open, its
/// deadline running, and finishes in a later wait(): a live poller ends its round at its own time
/// and takes a late agent's answer in the next round, instead of holding every round to the
/// deadline of its slowest agent. Destroying the object closes what is still open or queued
/// without calling back. Not thread-safe: one thread starts and waits.
class AgentRequests {
public:
    using Clock = std::chrono::steady_clock;
    /// Called from wait() once the request finished: answered, refused, failed or timed out.
    using Done = std::function<void(AgentReply)>;

    explicit AgentRequests(FetchOptions options);
    ~AgentRequests();
    AgentRequests(AgentRequests&&) noexcept;
    AgentRequests& operator=(AgentRequests&&) noexcept;

    /// Queues `request`; it opens in wait() as soon as fewer than maxInFlight are open. `done`
    /// may start more requests.
    void start(AgentRequest request, Done done);
    /// Runs the requests until none is open or queued, or `until` has passed, or `enough` (when
    /// given) says so after a request finished. Returns how many are still open or queued.
    std::size_t wait(Clock::time_point until = Clock::time_point::max(), const std::function<bool()>& enough = {});
    /// Requests started and not finished (open or queued).
    std::size_t pending() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// Sends every request in parallel (at most options.maxInFlight open, each with its own
/// deadline) and waits for all of them; one reply per request, in input order.
std::vector<AgentReply> requestAll(const std::vector<AgentRequest>& requests, const FetchOptions& options);

/// A reply that failed as one error: `what` ("cannot start ib_write_bw") and the client's own
/// error; or, when the client saw none (a status other than the one asked for), the HTTP status
/// and the agent's JSON `error` (its `message`, else the value as JSON), with `hint`.
core::Error replyError(const AgentReply& reply, const std::string& what, const std::string& hint);

/// GETs `path` ("/v1/inventory") from every agent in parallel; one reply per agent, in input order.
std::vector<AgentReply> fetchAll(const std::vector<AgentEndpoint>& agents, std::string_view path, const FetchOptions& options);

/// `core::Error::code` of AgentReply::error, one per way an agent can fail to answer.
namespace agent_error {
    inline constexpr const char* kBadUrl = "AGENT_URL";                 ///< the URL cannot be used (not http://host:port)
    inline constexpr const char* kUnreachable = "AGENT_UNREACHABLE";    ///< connection refused, no route, name not found, connection lost
    inline constexpr const char* kTimedOut = "AGENT_TIMEOUT";           ///< no complete answer before the deadline
    inline constexpr const char* kMalformed = "AGENT_MALFORMED";        ///< not HTTP, bad framing, closed early, or over the size limit
    inline constexpr const char* kTokenRefused = "AGENT_TOKEN_REFUSED"; ///< HTTP 401 or 403
    inline constexpr const char* kHttpStatus = "AGENT_HTTP_STATUS";     ///< any other status than 2xx
} // namespace agent_error

} // namespace railyard::live
