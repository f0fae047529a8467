// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The agent client: agents.json, token files, and fetchAll against small scripted HTTP servers
// (plain sockets, one thread each) that answer well, answer badly, or never answer.
#include "live/client/agent_client.h"
#include "live/common/bearer_token.h"

#include "tests/live/loopback_http.h"
#include "tests/live/temp_dir.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

namespace railyard::live {
namespace {

    namespace fs = std::filesystem;
    using test::TempDir;
    using test::unusedLoopbackPort;
    using Clock = std::chrono::steady_clock;

    /// A TCP server on 127.0.0.1 that reads each request's head and then answers with `pieces`
    /// (written one after the other, then the connection is closed), or, for its first `silentFirst`
    /// connections, never answers and only notes when the client closes the connection.
    class ScriptedServer {
    public:
        explicit ScriptedServer(std::vector<std::string> pieces, bool silent = false)
            : ScriptedServer(std::move(pieces), silent ? std::numeric_limits<int>::max() : 0)
        {
        }
        ScriptedServer(std::vector<std::string> pieces, int silentFirst)
            : m_pieces(std::move(pieces))
            , m_silentFirst(silentFirst)
        {
            m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
            EXPECT_GE(m_listen, 0);
            sockaddr_in addr {};
            addr.sin_family = AF_INET;
            addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            addr.sin_port = 0;
            EXPECT_EQ(::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
            EXPECT_EQ(::listen(m_listen, 64), 0);
            socklen_t len = sizeof addr;
            ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &len);
            m_port = ntohs(addr.sin_port);
            EXPECT_EQ(::pipe2(m_wake, O_CLOEXEC), 0);
            m_thread = std::thread([this] { loop(); });
        }
        ~ScriptedServer()
        {
            const char c = 'x';
            (void)!::write(m_wake[1], &c, 1);
            m_thread.join();
            ::close(m_listen);
            ::close(m_wake[0]);
            ::close(m_wake[1]);
        }
        ScriptedServer(const ScriptedServer&) = delete;
        ScriptedServer& operator=(const ScriptedServer&) = delete;

        int port() const { return m_port; }
        std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
        std::vector<std::string> requests() const
        {
            std::lock_guard lock(m_mutex);
            return m_requests;
        }
        std::optional<Clock::time_point> firstAccepted() const
        {
            std::lock_guard lock(m_mutex);
            return m_firstAccepted;
        }
        /// When the last answer began to be sent (before the client could have it).
        std::optional<Clock::time_point> lastAnswered() const
        {
            std::lock_guard lock(m_mutex);
            return m_lastAnswered;
        }
        /// When this server saw a client close a connection it had not answered; waits for it
        /// (the server's thread may see the close after fetchAll has returned).
        std::optional<Clock::time_point> clientClosed(std::chrono::seconds wait = std::chrono::seconds(20)) const
        {
            const auto end = Clock::now() + wait;
            while (true) {
                {
                    std::lock_guard lock(m_mutex);
                    if (m_clientClosed || Clock::now() >= end)
                        return m_clientClosed;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(5));
            }
        }
        /// The most connections that were open at once, as this server saw them.
        int maxOpen() const
        {
            std::lock_guard lock(m_mutex);
            return m_maxOpen;
        }

    private:
        struct Conn {
            int fd;
            bool silent;
            std::string head;
            bool answered = false;
        };

        void loop()
        {
            std::vector<Conn> conns;
            while (true) {
                std::vector<pollfd> fds { { m_wake[0], POLLIN, 0 }, { m_listen, POLLIN, 0 } };
                for (const Conn& c : conns)
                    fds.push_back({ c.fd, POLLIN, 0 });
                if (::poll(fds.data(), fds.size(), -1) < 0)
                    continue;
                if (fds[0].revents)
                    break;
                // Closes first, then new connections: a client that closes one connection and then
                // opens another is seen in that order (on loopback the FIN is queued before the SYN).
                for (std::size_t i = 2; i < fds.size(); ++i) {
                    if (!fds[i].revents)
                        continue;
                    Conn& c = conns[i - 2];
                    char buf[4096];
                    const ssize_t n = ::read(c.fd, buf, sizeof buf);
                    if (n <= 0) {
                        std::lock_guard lock(m_mutex);
                        --m_open;
                        m_clientClosed = Clock::now();
                        ::close(c.fd);
                        c.fd = -1;
                        continue;
                    }
                    c.head.append(buf, static_cast<std::size_t>(n));
                    if (c.answered || c.head.find("\r\n\r\n") == std::string::npos)
                        continue;
                    {
                        std::lock_guard lock(m_mutex);
                        m_requests.push_back(c.head);
                    }
                    c.answered = true;
                    if (c.silent)
                        continue;
                    {
                        std::lock_guard lock(m_mutex);
                        m_lastAnswered = Clock::now();
                    }
                    for (const std::string& piece : m_pieces) {
                        std::size_t sent = 0;
                        while (sent < piece.size()) {
                            const ssize_t w = ::send(c.fd, piece.data() + sent, piece.size() - sent, MSG_NOSIGNAL);
                            if (w <= 0)
                                break;
                            sent += static_cast<std::size_t>(w);
                        }
                    }
                    {
                        std::lock_guard lock(m_mutex);
                        --m_open;
                    }
                    ::close(c.fd);
                    c.fd = -1;
                }
                if (fds[1].revents & POLLIN) {
                    const int fd = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
                    if (fd >= 0) {
                        conns.push_back({ fd, m_accepted++ < m_silentFirst, {} });
                        std::lock_guard lock(m_mutex);
                        m_maxOpen = std::max(m_maxOpen, ++m_open);
                        if (!m_firstAccepted)
                            m_firstAccepted = Clock::now();
                    }
                }
                std::erase_if(conns, [](const Conn& c) { return c.fd < 0; });
            }
            for (const Conn& c : conns)
                ::close(c.fd);
        }

        std::vector<std::string> m_pieces;
        int m_silentFirst;
        int m_accepted = 0;
        int m_open = 0;
        int m_maxOpen = 0;
        int m_listen = -1;
        int m_wake[2] { -1, -1 };
        int m_port = 0;
        std::thread m_thread;
        mutable std::mutex m_mutex;
        std::vector<std::string> m_requests;
        std::optional<Clock::time_point> m_firstAccepted;
        std::optional<Clock::time_point> m_lastAnswered;
        std::optional<Clock::time_point> m_clientClosed;
    };

    std::string ok(const std::string& body)
    {
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    }

    AgentReply fetchOne(const std::string& url, const FetchOptions& options = {})
    {
        std::vector<AgentReply> replies = fetchAll({ { "node001", url } }, "/v1/inventory", options);
        EXPECT_EQ(replies.size(), 1u);
        return replies.front();
    }

} // namespace

// ---- agents.json and token files ----

TEST(AgentsFile, ReadsAgentsAndResolvesTheTokenFileAgainstItsFolder)
{
    TempDir dir;
    const fs::path file = dir.write("sim/agents.json",
        R"({ "token_file": "token", "agents": [ { "node": "node001", "url": "http://127.0.0.1:9473" },
             { "node": "node002", "url": "http://127.0.0.1:9474", "extra": 1 } ] })");
    core::Result<AgentsFile> agents = readAgentsFile(file);
    ASSERT_TRUE(agents) << agents.error().toString();
    EXPECT_EQ(agents->tokenFile, (dir.path() / "sim" / "token").lexically_normal());
    ASSERT_EQ(agents->agents.size(), 2u);
    EXPECT_EQ(agents->agents[1].node, "node002");
    EXPECT_EQ(agents->agents[1].url, "http://127.0.0.1:9474");
}

TEST(AgentsFile, AbsoluteTokenFileAndNoTokenFile)
{
    TempDir dir;
    const fs::path abs = dir.path() / "elsewhere" / "t";
    core::Result<AgentsFile> a = readAgentsFile(dir.write("a.json", R"({ "token_file": ")" + abs.string() + R"(", "agents": [] })"));
    ASSERT_TRUE(a);
    EXPECT_EQ(a->tokenFile, abs);
    core::Result<AgentsFile> b = readAgentsFile(dir.write("b.json", R"({ "agents": [] })"));
    ASSERT_TRUE(b);
    EXPECT_TRUE(b->tokenFile.empty());
}

TEST(AgentsFile, ErrorsNameTheFileAndTheField)
{
    TempDir dir;
    const fs::path file = dir.write("agents.json",
        R"({ "agents": [ { "node": "node001" }, { "node": "", "url": "http://x:1" }, { "node": "node003", "url": "https://x:1" },
             { "node": "node004", "url": "http://a:1" }, { "node": "node004", "url": "http://b:1" }, 7 ] })");
    core::Result<AgentsFile> agents = readAgentsFile(file);
    ASSERT_FALSE(agents);
    std::string all;
    for (const core::Error& e : agents.errors()) {
        EXPECT_EQ(e.where, file.string());
        all += e.message + "\n";
    }
    EXPECT_NE(all.find("agents[0].url: missing"), std::string::npos) << all;
    EXPECT_NE(all.find("agents[1].node: must be a non-empty string"), std::string::npos) << all;
    EXPECT_NE(all.find("agents[2].url: must be an http:// URL"), std::string::npos) << all;
    EXPECT_NE(all.find("agents[4].node: node004 is listed twice (also agents[3])"), std::string::npos) << all;
    EXPECT_NE(all.find("agents[5]: must be an object"), std::string::npos) << all;
}

TEST(AgentsFile, MissingListBadJsonAndMissingFile)
{
    TempDir dir;
    core::Result<AgentsFile> none = readAgentsFile(dir.write("a.json", R"({ "token_file": "t" })"));
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().message.find("agents: missing"), std::string::npos);

    core::Result<AgentsFile> bad = readAgentsFile(dir.write("b.json", "{\n  \"agents\": [\n    { \"node\": }\n  ]\n}"));
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("not valid JSON at line 3"), std::string::npos) << bad.error().message;
    // A number past a double's range is nlohmann's out_of_range, not a parse_error (found by fuzz_results_faults in
    // the faults file, the same code): refused as bad JSON, not an "internal" error.
    core::Result<AgentsFile> huge = readAgentsFile(dir.write("c.json", R"({ "agents": [ 1e3081 ] })"));
    ASSERT_FALSE(huge);
    EXPECT_NE(huge.error().message.find("not valid JSON: "), std::string::npos) << huge.error().message;
    EXPECT_NE(huge.error().message.find("number overflow parsing '1e3081'"), std::string::npos) << huge.error().message;

    core::Result<AgentsFile> missing = readAgentsFile(dir.path() / "nope.json");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().where, (dir.path() / "nope.json").string());
    EXPECT_NE(missing.error().message.find("cannot read the agents file"), std::string::npos);
}

TEST(TokenFile, FirstLineTrimmed)
{
    TempDir dir;
    core::Result<std::string> token = readTokenFile(dir.write("t", "  s3cret-token \t\r\nsecond line\n"));
    ASSERT_TRUE(token);
    EXPECT_EQ(*token, "s3cret-token");
}

TEST(TokenFile, EmptyOrUnreadableIsAnErrorNamingTheFile)
{
    TempDir dir;
    const fs::path empty = dir.write("empty", " \n token-on-line-two\n");
    core::Result<std::string> e = readTokenFile(empty);
    ASSERT_FALSE(e);
    EXPECT_EQ(e.error().where, empty.string());
    EXPECT_NE(e.error().message.find("empty"), std::string::npos);
    core::Result<std::string> m = readTokenFile(dir.path() / "missing");
    ASSERT_FALSE(m);
    EXPECT_EQ(m.error().where, (dir.path() / "missing").string());
    EXPECT_FALSE(readTokenFile(dir.path()));
}

TEST(TokenFile, OneWordOfVisibleAsciiOrAnErrorWithItsColumn)
{
    EXPECT_EQ(parseBearerToken("a-Z_0.9~+/=\n", "t").value(), "a-Z_0.9~+/=");
    EXPECT_EQ(parseBearerToken("\v tok \f", "t").value(), "tok"); // no line end at all
    const struct {
        std::string text;
        std::string message;
    } refused[] = {
        { "two words\n", "the token has a blank at column 4 of the first line" },
        { "  tab\tin\n", "the token has a blank at column 6 of the first line" },
        { "ctl\x01\n", "the token has a byte that is no visible ASCII character (0x01) at column 4 of the first line" },
        { "del\x7f", "the token has a byte that is no visible ASCII character (0x7f) at column 4 of the first line" },
        { "tok\xc3\xa9n", "the token has a byte that is no visible ASCII character (0xc3) at column 4 of the first line" },
        { std::string("nul\0byte", 8), "the token has a byte that is no visible ASCII character (0x00) at column 4 of the first line" },
        { "", "the first line is empty: no token" },
        { "\r\ntoken-on-line-two", "the first line is empty: no token" },
    };
    for (const auto& r : refused) {
        const core::Result<std::string> token = parseBearerToken(r.text, "the/token");
        ASSERT_FALSE(token) << r.text;
        EXPECT_EQ(token.error().code, "TOKEN_FILE");
        EXPECT_EQ(token.error().where, "the/token");
        EXPECT_EQ(token.error().message, r.message);
    }
}

// ---- fetchAll ----

TEST(FetchAll, SendsAProperRequestAndReadsAContentLengthBody)
{
    ScriptedServer server({ ok(R"({"api_version":1})") });
    FetchOptions options;
    options.token = "tok123";
    const AgentReply reply = fetchOne(server.url(), options);
    ASSERT_FALSE(reply.error) << reply.error->toString();
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.body, R"({"api_version":1})");
    EXPECT_EQ(reply.agent.node, "node001");
    const std::vector<std::string> requests = server.requests();
    ASSERT_EQ(requests.size(), 1u);
    const std::string& r = requests.front();
    EXPECT_EQ(r.rfind("GET /v1/inventory HTTP/1.1\r\n", 0), 0u) << r;
    EXPECT_NE(r.find("\r\nHost: 127.0.0.1:" + std::to_string(server.port()) + "\r\n"), std::string::npos) << r;
    EXPECT_NE(r.find("\r\nAuthorization: Bearer tok123\r\n"), std::string::npos) << r;
    EXPECT_NE(r.find("\r\nConnection: close\r\n"), std::string::npos) << r;
}

TEST(FetchAll, NoAuthorizationHeaderWithoutAToken)
{
    ScriptedServer server({ ok("{}") });
    const AgentReply reply = fetchOne(server.url());
    ASSERT_FALSE(reply.error);
    ASSERT_EQ(server.requests().size(), 1u);
    EXPECT_EQ(server.requests().front().find("Authorization"), std::string::npos);
}

TEST(FetchAll, UrlPrefixIsKept)
{
    ScriptedServer server({ ok("{}") });
    const AgentReply reply = fetchOne(server.url() + "/agents/n1/");
    ASSERT_FALSE(reply.error);
    EXPECT_EQ(server.requests().front().rfind("GET /agents/n1/v1/inventory HTTP/1.1", 0), 0u);
}

TEST(FetchAll, ChunkedBodyInPieces)
{
    ScriptedServer server({ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhel", "lo\r\n", "6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n" });
    const AgentReply reply = fetchOne(server.url());
    ASSERT_FALSE(reply.error) << reply.error->toString();
    EXPECT_EQ(reply.body, "hello world");
}

TEST(FetchAll, BodyUntilTheConnectionCloses)
{
    ScriptedServer server({ "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n", "part one, ", "part two" });
    const AgentReply reply = fetchOne(server.url());
    ASSERT_FALSE(reply.error) << reply.error->toString();
    EXPECT_EQ(reply.body, "part one, part two");
}

TEST(FetchAll, Unauthorized)
{
    ScriptedServer server({ "HTTP/1.1 401 Unauthorized\r\nContent-Length: 12\r\n\r\nno token fit" });
    FetchOptions options;
    options.token = "wrong";
    const AgentReply reply = fetchOne(server.url(), options);
    ASSERT_TRUE(reply.error);
    EXPECT_EQ(reply.error->code, agent_error::kTokenRefused);
    EXPECT_EQ(reply.status, 401);
    EXPECT_EQ(reply.error->message, "token refused: check --token-file (HTTP 401 Unauthorized)");
}

TEST(FetchAll, OtherStatus)
{
    ScriptedServer server({ "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found" });
    const AgentReply reply = fetchOne(server.url());
    ASSERT_TRUE(reply.error);
    EXPECT_EQ(reply.error->code, agent_error::kHttpStatus);
    EXPECT_EQ(reply.status, 404);
    EXPECT_NE(reply.error->message.find("HTTP 404 Not Found"), std::string::npos) << reply.error->message;
}

TEST(FetchAll, GarbageIsMalformed)
{
    ScriptedServer server({ "SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n\x01\x02" });
    const AgentReply reply = fetchOne(server.url());
    ASSERT_TRUE(reply.error);
    EXPECT_EQ(reply.error->code, agent_error::kMalformed);
    EXPECT_NE(reply.error->message.find("not an HTTP answer"), std::string::npos) << reply.error->message;
    EXPECT_NE(reply.error->message.find("SSH-2.0"), std::string::npos) << reply.error->message;
}

TEST(FetchAll, BadFramingIsMalformed)
{
    ScriptedServer shortBody({ "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this" });
    const AgentReply a = fetchOne(shortBody.url());
    ASSERT_TRUE(a.error);
    EXPECT_EQ(a.error->code, agent_error::kMalformed);
    EXPECT_NE(a.error->message.find("9 of 100"), std::string::npos) << a.error->message;

    ScriptedServer badChunk({ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n" });
    const AgentReply b = fetchOne(badChunk.url());
    ASSERT_TRUE(b.error);
    EXPECT_EQ(b.error->code, agent_error::kMalformed);
    EXPECT_NE(b.error->message.find("chunk size"), std::string::npos) << b.error->message;

    ScriptedServer badStatus({ "HTTP/1.1 OK\r\n\r\n" });
    const AgentReply c = fetchOne(badStatus.url());
    ASSERT_TRUE(c.error);
    EXPECT_EQ(c.error->code, agent_error::kMalformed);

    ScriptedServer nothing({});
    const AgentReply d = fetchOne(nothing.url());
    ASSERT_TRUE(d.error);
    EXPECT_EQ(d.error->code, agent_error::kMalformed);
    EXPECT_NE(d.error->message.find("without answering"), std::string::npos) << d.error->message;
}

TEST(FetchAll, BodyLimit)
{
    ScriptedServer declared({ ok(std::string(100, 'x')) });
    FetchOptions options;
    options.maxBodyBytes = 10;
    const AgentReply a = fetchOne(declared.url(), options);
    ASSERT_TRUE(a.error);
    EXPECT_EQ(a.error->code, agent_error::kMalformed);
    EXPECT_NE(a.error->message.find("over the limit of 10 bytes"), std::string::npos) << a.error->message;

    ScriptedServer streamed({ "HTTP/1.1 200 OK\r\n\r\n", std::string(100, 'y') });
    const AgentReply b = fetchOne(streamed.url(), options);
    ASSERT_TRUE(b.error);
    EXPECT_NE(b.error->message.find("over the limit"), std::string::npos) << b.error->message;

    ScriptedServer chunked({ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n" });
    const AgentReply c = fetchOne(chunked.url(), options);
    ASSERT_TRUE(c.error);
    EXPECT_NE(c.error->message.find("over the limit"), std::string::npos) << c.error->message;
}

TEST(FetchAll, ClosedPortIsUnreachable)
{
    const int port = unusedLoopbackPort();
    const AgentReply reply = fetchOne("http://127.0.0.1:" + std::to_string(port));
    ASSERT_TRUE(reply.error);
    EXPECT_EQ(reply.error->code, agent_error::kUnreachable);
    EXPECT_NE(reply.error->message.find("connection refused"), std::string::npos) << reply.error->message;
    EXPECT_NE(reply.error->hint.find("node001"), std::string::npos);
}

TEST(FetchAll, BadUrls)
{
    for (const char* url : { "ftp://127.0.0.1:1", "http://127.0.0.1:99999", "http://:80", "http://[::1" }) {
        const AgentReply reply = fetchOne(url);
        ASSERT_TRUE(reply.error) << url;
        EXPECT_EQ(reply.error->code, agent_error::kBadUrl) << url;
    }
}

TEST(FetchAll, ASilentAgentTimesOutAndDoesNotDelayTheOthers)
{
    ScriptedServer silent({}, true);
    ScriptedServer a({ ok("{\"a\":1}") });
    ScriptedServer b({ ok("{\"b\":1}") });
    FetchOptions options;
    options.deadline = std::chrono::milliseconds(3000);
    const std::vector<AgentReply> replies = fetchAll(
        { { "node001", silent.url() }, { "node002", a.url() }, { "node003", b.url() } }, "/v1/health", options);
    ASSERT_EQ(replies.size(), 3u);
    ASSERT_TRUE(replies[0].error);
    EXPECT_EQ(replies[0].error->code, agent_error::kTimedOut);
    EXPECT_NE(replies[0].error->message.find("3000 ms"), std::string::npos) << replies[0].error->message;
    EXPECT_NE(replies[0].error->message.find("waiting for the answer"), std::string::npos) << replies[0].error->message;
    ASSERT_FALSE(replies[1].error);
    ASSERT_FALSE(replies[2].error);
    EXPECT_EQ(replies[1].body, "{\"a\":1}");
    EXPECT_EQ(replies[2].body, "{\"b\":1}");
    // Ordering, not wall time: both others were answered before the client gave up on the silent one.
    ASSERT_TRUE(silent.clientClosed());
    ASSERT_TRUE(a.lastAnswered() && b.lastAnswered());
    EXPECT_LT(*a.lastAnswered(), *silent.clientClosed());
    EXPECT_LT(*b.lastAnswered(), *silent.clientClosed());
    EXPECT_LE(replies[1].elapsed, replies[0].elapsed);
}

TEST(FetchAll, BoundedInFlight)
{
    // One server whose first two connections get no answer; five requests, two at a time: the
    // server never sees more than two connections open, and the last three are answered once the
    // first two have timed out.
    ScriptedServer server({ ok("{}") }, 2);
    FetchOptions options;
    // Long enough that a loaded machine answers the healthy three within it.
    options.deadline = std::chrono::milliseconds(2000);
    options.maxInFlight = 2;
    std::vector<AgentEndpoint> agents;
    for (int i = 0; i < 5; ++i)
        agents.push_back({ "n" + std::to_string(i), server.url() });
    const std::vector<AgentReply> replies = fetchAll(agents, "/v1/health", options);
    ASSERT_EQ(replies.size(), 5u);
    EXPECT_EQ(replies[0].error->code, agent_error::kTimedOut);
    EXPECT_EQ(replies[1].error->code, agent_error::kTimedOut);
    for (std::size_t i = 2; i < 5; ++i)
        EXPECT_FALSE(replies[i].error) << i;
    EXPECT_EQ(server.requests().size(), 5u);
    EXPECT_LE(server.maxOpen(), 2);
    EXPECT_GE(server.maxOpen(), 1);
}

TEST(FetchAll, ManyAgentsInInputOrder)
{
    std::vector<std::unique_ptr<ScriptedServer>> servers;
    std::vector<AgentEndpoint> agents;
    for (int i = 0; i < 40; ++i) {
        servers.push_back(std::make_unique<ScriptedServer>(std::vector<std::string> { ok(std::to_string(i)) }));
        agents.push_back({ "node" + std::to_string(i), servers.back()->url() });
    }
    agents.push_back({ "gone", "http://127.0.0.1:" + std::to_string(unusedLoopbackPort()) });
    FetchOptions options;
    options.maxInFlight = 7;
    const std::vector<AgentReply> replies = fetchAll(agents, "/v1/inventory", options);
    ASSERT_EQ(replies.size(), agents.size());
    for (int i = 0; i < 40; ++i) {
        ASSERT_FALSE(replies[static_cast<std::size_t>(i)].error) << i;
        EXPECT_EQ(replies[static_cast<std::size_t>(i)].agent.node, "node" + std::to_string(i));
        EXPECT_EQ(replies[static_cast<std::size_t>(i)].body, std::to_string(i));
    }
    EXPECT_EQ(replies.back().error->code, agent_error::kUnreachable);
    EXPECT_TRUE(fetchAll({}, "/v1/inventory", options).empty());
}

// ---- requests that outlive a wait ----

TEST(AgentRequests, AWaitEndsAtItsTimeAndAnOpenRequestFinishesInALaterOne)
{
    ScriptedServer silent({}, true);
    ScriptedServer a({ ok("{\"a\":1}") });
    FetchOptions options;
    options.deadline = std::chrono::milliseconds(800);
    AgentRequests open(options);
    std::vector<AgentReply> done;
    for (const auto& [node, url] : { std::pair { "node001", silent.url() }, std::pair { "node002", a.url() } })
        open.start({ { node, url }, "GET", "/v1/health", {} }, [&done](AgentReply reply) { done.push_back(std::move(reply)); });
    EXPECT_EQ(open.pending(), 2u);
    EXPECT_TRUE(done.empty()); // nothing calls back before a wait

    EXPECT_EQ(open.wait(AgentRequests::Clock::now() + std::chrono::milliseconds(300)), 1u);
    ASSERT_EQ(done.size(), 1u);
    EXPECT_EQ(done[0].agent.node, "node002");
    EXPECT_EQ(done[0].body, "{\"a\":1}");
    EXPECT_FALSE(silent.clientClosed(std::chrono::seconds(0))); // still open, its deadline running

    // Done may start more: a second request to the answering agent, within the same wait.
    EXPECT_EQ(open.wait(), 0u);
    ASSERT_EQ(done.size(), 2u);
    EXPECT_EQ(done[1].agent.node, "node001");
    ASSERT_TRUE(done[1].error);
    EXPECT_EQ(done[1].error->code, agent_error::kTimedOut);
    EXPECT_GE(done[1].elapsed, std::chrono::milliseconds(800)); // counted from when it opened, across both waits
    EXPECT_EQ(open.pending(), 0u);
    EXPECT_EQ(open.wait(AgentRequests::Clock::now()), 0u); // nothing left: returns at once
}

TEST(AgentRequests, DoneMayStartMoreAndAnEndedWaitStillTakesWhatIsReady)
{
    ScriptedServer a({ ok("{}") });
    AgentRequests open(FetchOptions {});
    int calls = 0;
    std::function<void(AgentReply)> again = [&](AgentReply reply) {
        EXPECT_FALSE(reply.error) << reply.error->message;
        if (++calls < 3)
            open.start({ { "node001", a.url() }, "GET", "/v1/health", {} }, again);
    };
    open.start({ { "node001", a.url() }, "GET", "/v1/health", {} }, again);
    EXPECT_EQ(open.wait(), 0u);
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(a.requests().size(), 3u);

    // A bad URL fails at once, but only calls back from a wait: even one whose time has passed.
    bool failed = false;
    open.start({ { "node002", "ftp://x" }, "GET", "/v1/health", {} }, [&failed](AgentReply reply) {
        failed = reply.error && reply.error->code == agent_error::kBadUrl;
    });
    EXPECT_FALSE(failed);
    EXPECT_EQ(open.wait(AgentRequests::Clock::now() - std::chrono::seconds(1)), 0u);
    EXPECT_TRUE(failed);
}

TEST(AgentRequests, DestroyedWithRequestsOpenItClosesThemAndCallsNothingBack)
{
    ScriptedServer silent({}, true);
    FetchOptions options;
    options.deadline = std::chrono::seconds(30);
    options.maxInFlight = 2;
    int calls = 0;
    {
        AgentRequests open(options);
        for (int i = 0; i < 3; ++i) // two open, one queued
            open.start({ { "node00" + std::to_string(i), silent.url() }, "GET", "/v1/health", {} }, [&calls](AgentReply) { ++calls; });
        EXPECT_EQ(open.wait(AgentRequests::Clock::now() + std::chrono::milliseconds(200)), 3u);
    }
    EXPECT_EQ(calls, 0);
    EXPECT_TRUE(silent.clientClosed()); // the open connections were closed, not left behind
    EXPECT_LE(silent.requests().size(), 2u);
}

} // namespace railyard::live
