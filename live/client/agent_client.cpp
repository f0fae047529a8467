// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Non-blocking HTTP/1.1 requests to many agents at once: one io_context per AgentRequests, run on
// the calling thread; one small state machine per request (resolve or not, connect, send,
// receive), a steady_timer per request that closes its socket at the deadline, and at most
// `maxInFlight` requests open.
#include "live/client/agent_client.h"

#include "core/text.h"
#include "live/common/json_fields.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <variant>

namespace railyard::live {

namespace {

    namespace asio = boost::asio;
    using tcp = asio::ip::tcp;
    using Clock = std::chrono::steady_clock;

    constexpr std::size_t kMaxHeaderBytes = 64 * 1024;

    struct Url {
        std::string host; ///< without brackets for IPv6 literals
        std::string port;
        std::string hostHeader; ///< as written in the URL ("127.0.0.1:9473", "[::1]:9473")
        std::string basePath;   ///< "" or "/prefix" (no trailing slash)
    };

    /// "http://host[:port][/prefix]"; an error message when it cannot be used.
    std::variant<Url, std::string> parseUrl(std::string_view url)
    {
        constexpr std::string_view scheme = "http://";
        if (!core::startsWithIgnoreCase(url, scheme))
            return std::string("not an http:// URL (the agent speaks plain HTTP)");
        std::string_view rest = url.substr(scheme.size());
        const std::size_t slash = rest.find('/');
        std::string_view authority = rest.substr(0, slash);
        Url out;
        if (slash != std::string_view::npos) {
            out.basePath = std::string(rest.substr(slash));
            while (!out.basePath.empty() && out.basePath.back() == '/')
                out.basePath.pop_back();
        }
        if (authority.find('@') != std::string_view::npos)
            return std::string("user names in agent URLs are not supported (the token comes from --token-file)");
        out.hostHeader = std::string(authority);
        std::string_view portText;
        if (!authority.empty() && authority.front() == '[') {
            const std::size_t close = authority.find(']');
            if (close == std::string_view::npos)
                return std::string("unclosed '[' in the address");
            out.host = std::string(authority.substr(1, close - 1));
            std::string_view after = authority.substr(close + 1);
            if (!after.empty()) {
                if (after.front() != ':')
                    return std::string("unexpected text after the IPv6 address");
                portText = after.substr(1);
            }
        } else {
            const std::size_t colon = authority.rfind(':');
            out.host = std::string(authority.substr(0, colon));
            if (colon != std::string_view::npos)
                portText = authority.substr(colon + 1);
        }
        if (out.host.empty())
            return std::string("no host in the URL");
        if (portText.empty()) {
            out.port = "80";
        } else {
            int port = 0;
            const auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
            if (ec != std::errc() || end != portText.data() + portText.size() || port < 1 || port > 65535)
                return "bad port \"" + std::string(portText) + "\" (1 to 65535)";
            out.port = std::string(portText);
        }
        return out;
    }

    std::string_view trim(std::string_view text)
    {
        constexpr std::string_view blanks = " \t";
        const std::size_t begin = text.find_first_not_of(blanks);
        if (begin == std::string_view::npos)
            return {};
        return text.substr(begin, text.find_last_not_of(blanks) - begin + 1);
    }

    /// The first bytes of `data`, printable, for messages about what an agent sent.
    std::string preview(std::string_view data)
    {
        std::string out;
        for (char c : data.substr(0, 40)) {
            const auto u = static_cast<unsigned char>(c);
            if (u >= 0x20 && u < 0x7f) {
                out += c;
            } else {
                static constexpr char hex[] = "0123456789abcdef";
                out += "\\x";
                out += hex[u >> 4];
                out += hex[u & 15];
            }
        }
        if (data.size() > 40)
            out += "...";
        return out;
    }

    /// An HTTP/1.x response read incrementally: the status line, the headers, then a body framed
    /// by Content-Length, by chunked transfer coding, or by the end of the connection.
    class ResponseParser {
    public:
        enum class State { NeedMore, Done, Failed };

        explicit ResponseParser(std::size_t maxBody)
            : m_maxBody(maxBody)
        {
        }

        State feed(std::string_view data)
        {
            if (m_state != State::NeedMore)
                return m_state;
            m_raw.append(data);
            return advance();
        }

        /// The peer closed the connection.
        State finishAtEof()
        {
            if (m_state != State::NeedMore)
                return m_state;
            if (m_raw.empty())
                return fail("the agent closed the connection without answering");
            if (!m_headersDone)
                return fail("the connection closed inside the answer's headers (" + std::to_string(m_raw.size()) + " bytes)");
            if (m_framing == Framing::ToEof) {
                body = m_raw.substr(m_bodyStart);
                m_state = State::Done;
                return m_state;
            }
            if (m_framing == Framing::Length)
                return fail("the connection closed after " + std::to_string(m_raw.size() - m_bodyStart) + " of "
                    + std::to_string(m_length) + " body bytes");
            return fail("the connection closed inside a chunked body");
        }

        std::size_t bytesReceived() const { return m_raw.size(); }

        int status = 0;
        std::string reason;
        std::string body;
        std::string error;

    private:
        enum class Framing { Length, Chunked, ToEof };

        State fail(std::string message)
        {
            error = std::move(message);
            m_state = State::Failed;
            return m_state;
        }

        State advance()
        {
            if (!m_headersDone) {
                const State s = parseHead();
                if (s != State::NeedMore || !m_headersDone)
                    return s;
            }
            switch (m_framing) {
            case Framing::Length:
                if (m_raw.size() - m_bodyStart >= m_length) {
                    body = m_raw.substr(m_bodyStart, m_length);
                    m_state = State::Done;
                }
                return m_state;
            case Framing::ToEof:
                if (m_raw.size() - m_bodyStart > m_maxBody)
                    return fail(tooLarge(m_raw.size() - m_bodyStart));
                return m_state;
            case Framing::Chunked:
                return parseChunks();
            }
            return m_state;
        }

        std::string tooLarge(std::size_t bytes) const
        {
            return "the answer's body (" + std::to_string(bytes) + " bytes or more) is over the limit of "
                + std::to_string(m_maxBody) + " bytes";
        }

        State parseHead()
        {
            const std::size_t end = m_raw.find("\r\n\r\n");
            // Reject non-HTTP answers as soon as the first bytes show it.
            constexpr std::string_view http = "HTTP/1.";
            const std::size_t n = std::min(m_raw.size(), http.size());
            if (m_raw.compare(0, n, http.substr(0, n)) != 0)
                return fail("not an HTTP answer: it starts with \"" + preview(m_raw) + "\"");
            if (end == std::string::npos) {
                if (m_raw.size() > kMaxHeaderBytes)
                    return fail("the answer's headers are longer than " + std::to_string(kMaxHeaderBytes) + " bytes");
                return State::NeedMore;
            }
            std::string_view head(m_raw.data(), end);
            const std::size_t lineEnd = head.find("\r\n");
            const std::string_view statusLine = head.substr(0, lineEnd);
            // "HTTP/1.1 200 OK"
            if (statusLine.size() < 12 || statusLine[8] != ' ' || !std::isdigit(static_cast<unsigned char>(statusLine[9]))
                || !std::isdigit(static_cast<unsigned char>(statusLine[10])) || !std::isdigit(static_cast<unsigned char>(statusLine[11]))
                || (statusLine.size() > 12 && statusLine[12] != ' '))
                return fail("bad HTTP status line \"" + preview(statusLine) + "\"");
            status = (statusLine[9] - '0') * 100 + (statusLine[10] - '0') * 10 + (statusLine[11] - '0');
            if (statusLine.size() > 13)
                reason = std::string(statusLine.substr(13));

            bool chunked = false;
            std::optional<std::size_t> length;
            std::string_view rest = lineEnd == std::string_view::npos ? std::string_view {} : head.substr(lineEnd + 2);
            while (!rest.empty()) {
                const std::size_t eol = rest.find("\r\n");
                const std::string_view line = rest.substr(0, eol);
                rest = eol == std::string_view::npos ? std::string_view {} : rest.substr(eol + 2);
                const std::size_t colon = line.find(':');
                if (colon == std::string_view::npos || colon == 0)
                    return fail("bad HTTP header line \"" + preview(line) + "\"");
                const std::string_view name = line.substr(0, colon);
                const std::string_view value = trim(line.substr(colon + 1));
                if (core::equalsIgnoreCase(name, "Transfer-Encoding")) {
                    chunked = core::toLower(value).find("chunked") != std::string::npos;
                } else if (core::equalsIgnoreCase(name, "Content-Length")) {
                    std::size_t v = 0;
                    const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
                    if (ec != std::errc() || p != value.data() + value.size())
                        return fail("bad Content-Length \"" + preview(value) + "\"");
                    if (length && *length != v)
                        return fail("two different Content-Length headers");
                    length = v;
                }
            }
            m_headersDone = true;
            m_bodyStart = end + 4;
            m_pos = m_bodyStart;
            if ((status >= 100 && status < 200) || status == 204 || status == 304) {
                m_framing = Framing::Length;
                m_length = 0;
            } else if (chunked) {
                m_framing = Framing::Chunked;
            } else if (length) {
                if (*length > m_maxBody)
                    return fail(tooLarge(*length));
                m_framing = Framing::Length;
                m_length = *length;
            } else {
                m_framing = Framing::ToEof;
            }
            return State::NeedMore;
        }

        State parseChunks()
        {
            while (true) {
                if (m_trailers) {
                    // Trailer lines until an empty line.
                    const std::size_t eol = m_raw.find("\r\n", m_pos);
                    if (eol == std::string::npos)
                        return State::NeedMore;
                    const bool empty = eol == m_pos;
                    m_pos = eol + 2;
                    if (empty) {
                        m_state = State::Done;
                        return m_state;
                    }
                    continue;
                }
                const std::size_t eol = m_raw.find("\r\n", m_pos);
                if (eol == std::string::npos) {
                    if (m_raw.size() - m_pos > 1024)
                        return fail("bad chunk size line \"" + preview(std::string_view(m_raw).substr(m_pos)) + "\"");
                    return State::NeedMore;
                }
                std::string_view line(m_raw.data() + m_pos, eol - m_pos);
                line = trim(line.substr(0, line.find(';')));
                std::size_t size = 0;
                const auto [p, ec] = std::from_chars(line.data(), line.data() + line.size(), size, 16);
                if (line.empty() || ec != std::errc() || p != line.data() + line.size())
                    return fail("bad chunk size line \"" + preview(line) + "\"");
                if (size == 0) {
                    m_pos = eol + 2;
                    m_trailers = true;
                    continue;
                }
                if (size > m_maxBody || body.size() + size > m_maxBody)
                    return fail(tooLarge(body.size() + size));
                const std::size_t dataStart = eol + 2;
                if (m_raw.size() < dataStart + size + 2)
                    return State::NeedMore;
                if (m_raw.compare(dataStart + size, 2, "\r\n") != 0)
                    return fail("a chunk is not followed by CRLF");
                body.append(m_raw, dataStart, size);
                m_pos = dataStart + size + 2;
            }
        }

        std::size_t m_maxBody;
        std::string m_raw;
        State m_state = State::NeedMore;
        bool m_headersDone = false;
        Framing m_framing = Framing::ToEof;
        std::size_t m_bodyStart = 0;
        std::size_t m_length = 0;
        std::size_t m_pos = 0;
        bool m_trailers = false;
    };

    std::string deadlineText(std::chrono::milliseconds deadline)
    {
        return std::to_string(deadline.count()) + " ms";
    }

    /// One request: resolve (names only), connect, send, receive; the timer closes the socket at the deadline.
    class Request : public std::enable_shared_from_this<Request> {
    public:
        Request(asio::io_context& io, AgentRequest request, const FetchOptions& options, std::function<void(AgentReply)> done)
            : m_resolver(io)
            , m_socket(io)
            , m_timer(io)
            , m_options(options)
            , m_parser(options.maxBodyBytes)
            , m_method(std::move(request.method))
            , m_path(std::move(request.path))
            , m_body(std::move(request.body))
            , m_done(std::move(done))
        {
            m_reply.agent = std::move(request.agent);
        }

        void start()
        {
            m_started = Clock::now();
            m_where = m_reply.agent.url + m_path;
            auto parsed = parseUrl(m_reply.agent.url);
            if (const std::string* problem = std::get_if<std::string>(&parsed)) {
                finish(core::Error { agent_error::kBadUrl, "cannot use the agent URL: " + *problem, m_where,
                    "fix the node's \"url\" in agents.json (\"http://ADDR:PORT\")" });
                return;
            }
            m_url = std::get<Url>(std::move(parsed));
            std::string target = m_url.basePath;
            target += m_path.empty() || m_path.front() != '/' ? "/" + m_path : m_path;
            m_request = m_method + " " + target + " HTTP/1.1\r\nHost: " + m_url.hostHeader
                + "\r\nAccept: application/json\r\nUser-Agent: railyard-cli\r\nConnection: close\r\n";
            if (!m_options.token.empty())
                m_request += "Authorization: Bearer " + m_options.token + "\r\n";
            if (!m_body.empty() || m_method == "POST" || m_method == "PUT")
                m_request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(m_body.size()) + "\r\n";
            m_request += "\r\n";
            m_request += m_body;

            m_timer.expires_after(m_options.deadline);
            m_timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
                if (!ec)
                    self->onDeadline();
            });

            boost::system::error_code ec;
            const asio::ip::address address = asio::ip::make_address(m_url.host, ec);
            if (!ec) {
                const auto port = static_cast<unsigned short>(std::stoi(m_url.port));
                m_phase = Phase::Connecting;
                m_socket.async_connect(tcp::endpoint(address, port),
                    [self = shared_from_this()](const boost::system::error_code& e) { self->onConnect(e); });
                return;
            }
            m_phase = Phase::Resolving;
            m_resolver.async_resolve(m_url.host, m_url.port,
                [self = shared_from_this()](const boost::system::error_code& e, const tcp::resolver::results_type& results) {
                    self->onResolve(e, results);
                });
        }

    private:
        enum class Phase { Resolving, Connecting, Sending, Receiving, Finished };

        std::string phaseText() const
        {
            switch (m_phase) {
            case Phase::Resolving: return "while resolving " + m_url.host;
            case Phase::Connecting: return "while connecting";
            case Phase::Sending: return "while sending the request";
            case Phase::Receiving:
                return m_parser.bytesReceived() == 0
                    ? std::string("waiting for the answer (connected, nothing received)")
                    : "while receiving the answer (" + std::to_string(m_parser.bytesReceived()) + " bytes so far)";
            case Phase::Finished: break;
            }
            return {};
        }

        void onDeadline()
        {
            if (m_phase == Phase::Finished)
                return;
            m_timedOut = true;
            finish(core::Error { agent_error::kTimedOut,
                "timed out: no complete answer within the deadline of " + deadlineText(m_options.deadline) + " ("
                    + phaseText() + ")",
                m_where, "check that the agent on " + m_reply.agent.node + " is healthy, or allow more time (--timeout-ms)" });
        }

        bool stopped(const boost::system::error_code& ec) const
        {
            return m_phase == Phase::Finished || m_timedOut || ec == asio::error::operation_aborted;
        }

        void unreachable(const boost::system::error_code& ec, const std::string& what)
        {
            std::string hint = "check that railyard-agent runs on " + m_reply.agent.node + " and listens on "
                + m_url.hostHeader + " (--listen), and that no firewall blocks the port";
            if (ec == asio::error::connection_refused)
                finish(core::Error { agent_error::kUnreachable, "connection refused at " + m_url.hostHeader, m_where, hint });
            else
                finish(core::Error { agent_error::kUnreachable, what + ": " + ec.message(), m_where, hint });
        }

        void onResolve(const boost::system::error_code& ec, const tcp::resolver::results_type& results)
        {
            if (stopped(ec))
                return;
            if (ec) {
                finish(core::Error { agent_error::kUnreachable, "cannot resolve " + m_url.host + ": " + ec.message(), m_where,
                    "check the host name in agents.json, or use an address" });
                return;
            }
            m_phase = Phase::Connecting;
            asio::async_connect(m_socket, results,
                [self = shared_from_this()](const boost::system::error_code& e, const tcp::endpoint&) { self->onConnect(e); });
        }

        void onConnect(const boost::system::error_code& ec)
        {
            if (stopped(ec))
                return;
            if (ec) {
                unreachable(ec, "cannot connect to " + m_url.hostHeader);
                return;
            }
            m_phase = Phase::Sending;
            asio::async_write(m_socket, asio::buffer(m_request),
                [self = shared_from_this()](const boost::system::error_code& e, std::size_t) { self->onSent(e); });
        }

        void onSent(const boost::system::error_code& ec)
        {
            if (stopped(ec))
                return;
            if (ec) {
                unreachable(ec, "connection lost while sending the request");
                return;
            }
            m_phase = Phase::Receiving;
            readMore();
        }

        void readMore()
        {
            m_socket.async_read_some(asio::buffer(m_chunk),
                [self = shared_from_this()](const boost::system::error_code& e, std::size_t n) { self->onRead(e, n); });
        }

        void onRead(const boost::system::error_code& ec, std::size_t n)
        {
            if (stopped(ec))
                return;
            ResponseParser::State state = ResponseParser::State::NeedMore;
            if (n > 0)
                state = m_parser.feed(std::string_view(m_chunk.data(), n));
            if (state == ResponseParser::State::NeedMore && ec) {
                if (ec != asio::error::eof) {
                    unreachable(ec, "connection lost " + phaseText());
                    return;
                }
                state = m_parser.finishAtEof();
            }
            switch (state) {
            case ResponseParser::State::NeedMore: readMore(); return;
            case ResponseParser::State::Failed:
                finish(core::Error { agent_error::kMalformed, "malformed answer: " + m_parser.error, m_where,
                    "check that " + m_url.hostHeader + " is a railyard-agent (and not another service on that port)" });
                return;
            case ResponseParser::State::Done: answered(); return;
            }
        }

        void answered()
        {
            m_reply.status = m_parser.status;
            m_reply.body = std::move(m_parser.body);
            const int status = m_parser.status;
            const std::string statusText = "HTTP " + std::to_string(status) + (m_parser.reason.empty() ? "" : " " + m_parser.reason);
            if (status == 401 || status == 403) {
                finish(core::Error { agent_error::kTokenRefused,
                    "token refused: check --token-file (" + statusText + (m_options.token.empty() ? ", no token was sent" : "") + ")",
                    m_where, "give the token the agent was started with (--token-file, or token_file in agents.json)" });
                return;
            }
            if (status < 200 || status >= 300) {
                std::string detail = preview(m_reply.body);
                finish(core::Error { agent_error::kHttpStatus,
                    "the agent answered " + statusText + (detail.empty() ? "" : ": " + detail), m_where,
                    "check that the agent's version serves " + m_path });
                return;
            }
            finish(std::nullopt);
        }

        void finish(std::optional<core::Error> error)
        {
            if (m_phase == Phase::Finished)
                return;
            m_phase = Phase::Finished;
            m_reply.error = std::move(error);
            m_reply.elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - m_started);
            boost::system::error_code ignored;
            m_timer.cancel();
            m_resolver.cancel();
            m_socket.shutdown(tcp::socket::shutdown_both, ignored);
            m_socket.close(ignored);
            if (m_done)
                std::exchange(m_done, nullptr)(std::move(m_reply));
        }

        tcp::resolver m_resolver;
        tcp::socket m_socket;
        asio::steady_timer m_timer;
        AgentReply m_reply;
        const FetchOptions& m_options;
        ResponseParser m_parser;
        std::string m_method;
        std::string m_path;
        std::string m_body;
        std::function<void(AgentReply)> m_done;
        Url m_url;
        std::string m_where;
        std::string m_request;
        std::array<char, 16 * 1024> m_chunk {};
        Phase m_phase = Phase::Resolving;
        bool m_timedOut = false;
        Clock::time_point m_started;
    };

} // namespace

/// The queue, the open count and the io_context the requests run on. The io_context is the last
/// member: destroyed first, it drops the handlers of requests still open (their sockets close
/// with them) while the options they refer to still exist, and calls none of their `done`.
struct AgentRequests::Impl {
    explicit Impl(FetchOptions o)
        : options(std::move(o))
        , limit(static_cast<std::size_t>(std::max(1, options.maxInFlight)))
    {
    }

    /// Opens queued requests while fewer than `limit` are open; each finished one opens the next.
    void launch()
    {
        while (open < limit && !queued.empty()) {
            auto [request, done] = std::move(queued.front());
            queued.pop_front();
            ++open;
            // Posted, so that a request that fails at once (bad URL) calls back from wait(), never from start().
            asio::post(io, [this, request = std::move(request), done = std::move(done)]() mutable {
                std::make_shared<Request>(io, std::move(request), options, [this, done = std::move(done)](AgentReply reply) {
                    --open;
                    done(std::move(reply));
                    launch();
                })->start();
            });
        }
    }

    FetchOptions options;
    std::size_t limit;
    std::deque<std::pair<AgentRequest, Done>> queued;
    std::size_t open = 0; ///< posted or running, not finished
    asio::io_context io { 1 };
};

AgentRequests::AgentRequests(FetchOptions options)
    : m_impl(std::make_unique<Impl>(std::move(options)))
{
}

AgentRequests::~AgentRequests() = default;
AgentRequests::AgentRequests(AgentRequests&&) noexcept = default;
AgentRequests& AgentRequests::operator=(AgentRequests&&) noexcept = default;

void AgentRequests::start(AgentRequest request, Done done)
{
    m_impl->queued.emplace_back(std::move(request), std::move(done));
    m_impl->launch();
}

std::size_t AgentRequests::pending() const
{
    return m_impl->open + m_impl->queued.size();
}

std::size_t AgentRequests::wait(Clock::time_point until, const std::function<bool()>& enough)
{
    Impl& m = *m_impl;
    if (m.io.stopped())
        m.io.restart();
    m.io.poll(); // what is ready already, even when `until` has passed
    // Every open request has its deadline timer, so the io_context has work until the last one
    // finishes: run_one returns 0 only once `until` has passed.
    while (pending() > 0 && Clock::now() < until && !(enough && enough())) {
        if (m.io.stopped())
            m.io.restart();
        const std::size_t ran = until == Clock::time_point::max() ? m.io.run_one() : m.io.run_one_until(until);
        if (ran == 0 && Clock::now() >= until)
            break;
    }
    return pending();
}

std::vector<AgentReply> requestAll(const std::vector<AgentRequest>& requests, const FetchOptions& options)
{
    std::vector<AgentReply> replies(requests.size());
    AgentRequests open(options);
    for (std::size_t i = 0; i < requests.size(); ++i) {
        replies[i].agent = requests[i].agent;
        open.start(requests[i], [&replies, i](AgentReply reply) { replies[i] = std::move(reply); });
    }
    open.wait();
    return replies;
}

core::Error replyError(const AgentReply& reply, const std::string& what, const std::string& hint)
{
    if (reply.error)
        return core::Error { reply.error->code, what + ": " + reply.error->message, reply.agent.node, reply.error->hint };
    std::string detail;
    const auto doc = nlohmann::json::parse(reply.body, nullptr, false);
    if (doc.is_object() && doc.contains("error")) {
        const auto& e = doc["error"];
        detail = e.is_object() ? stringField(e, "message", e.dump()) : e.dump();
    }
    return core::Error { agent_error::kHttpStatus, what + ": HTTP " + std::to_string(reply.status) + (detail.empty() ? "" : " (" + detail + ")"),
        reply.agent.node, hint };
}

std::vector<AgentReply> fetchAll(const std::vector<AgentEndpoint>& agents, std::string_view path, const FetchOptions& options)
{
    std::vector<AgentRequest> requests;
    requests.reserve(agents.size());
    for (const AgentEndpoint& a : agents)
        requests.push_back({ a, "GET", std::string(path), {} });
    return requestAll(requests, options);
}

} // namespace railyard::live
