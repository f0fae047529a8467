// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The agent's HTTP requests (live/node/agent_server.cpp): a real AgentServer on a loopback port,
// over a small sysfs tree, gets each input as a request on a connection of its own. The first
// byte picks how:
//   bits 0-1: 0 raw (the input is the whole request: cpp-httplib's parser, then our pre-routing
//             checks of method, token, path and length); 1 GET, 2 POST, 3 DELETE with the rest as
//             "<target>\n<body>" and the right token, Content-Length and Connection: close;
//   bit 2:    in the built requests, no token (or a wrong one with bit 3);
//   bit 4:    no request at all: the rest is a ToolInvocation ("program\0arg\0arg\0\0NAME=value\0..."),
//             checked by checkInvocation (live/common/tool_invocation.h) directly.
// POST /v1/tests starts whitelisted programs from an empty tools folder: nothing is ever run.
// Checked: every request gets an HTTP answer with a status line, never a 500 (a handler that threw);
// a refused request is never 2xx; an accepted invocation names a whitelisted program and no
// argument or value carries a character checkInvocation calls unsafe.
#include "live/common/tool_invocation.h"
#include "live/node/agent_server.h"
#include "live/node/node_reader.h"
#include "fuzz/fuzz_support.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace railyard;
namespace fs = std::filesystem;

namespace {

constexpr const char* kTarget = "fuzz_agent_http";
constexpr const char* kToken = "fuzz-token";

void writeFile(const fs::path& path, const std::string& content)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary | std::ios::trunc) << content;
}

struct Agent {
    fs::path dir;
    std::unique_ptr<live::AgentServer> server;
    int port = 0;

    ~Agent()
    {
        if (server)
            server->stop();
        if (!dir.empty()) {
            std::error_code ignored;
            fs::remove_all(dir, ignored);
        }
    }
};

// One agent for the whole run, over two NDR ports (one rail each) and an empty tools folder.
Agent& agent()
{
    static Agent a;
    if (a.server)
        return a;
    {
        Agent& out = a;
        std::string name = (fs::temp_directory_path() / "railyard-fuzz-agent-XXXXXX").string();
        if (!::mkdtemp(name.data()))
            fuzz::fail(kTarget, "mkdtemp " + name + ": " + std::string(std::strerror(errno)));
        out.dir = name;
        for (const char* dev : { "mlx5_0", "mlx5_1" }) {
            const fs::path port = out.dir / "sys/class/infiniband" / dev / "ports/1";
            writeFile(port / "state", "4: ACTIVE\n");
            writeFile(port / "phys_state", "5: LinkUp\n");
            writeFile(port / "rate", "400 Gb/sec (4X NDR)\n");
            writeFile(port / "link_layer", "InfiniBand\n");
            writeFile(port / "counters/port_xmit_data", "123456\n");
            writeFile(port / "counters/symbol_error", "0\n");
            writeFile(port / "hw_counters/out_of_buffer", "7\n");
        }
        fs::create_directories(out.dir / "tools");
        fs::create_directories(out.dir / "sources");
        live::NodeOptions options;
        options.sysfsRoot = out.dir / "sys";
        options.node = "node001";
        options.railMap = { "mlx5_0", "mlx5_1" };
        auto reader = std::make_shared<const live::NodeReader>(options, live::emulatedSources(out.dir / "sources"));
        live::AgentConfig config;
        config.port = 0;
        config.token = kToken;
        config.threads = 2;
        config.ioTimeoutMs = 500;
        config.metricsInventoryTtlMs = 0;
        config.toolsDir = out.dir / "tools";
        out.server = std::make_unique<live::AgentServer>(config, reader);
        if (const core::Status started = out.server->start(); !started)
            fuzz::fail(kTarget, started.error().toString());
        out.port = out.server->port();
    }
    return a;
}

/// Sends `request`, half-closes, and reads the answer to the end (2 s at most).
std::string ask(int port, std::string_view request)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        fuzz::fail(kTarget, "socket: " + std::string(std::strerror(errno)));
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    // libFuzzer's -timeout alarm (SIGALRM, once a second) interrupts system calls: EINTR is
    // retried everywhere here. An interrupted connect goes on by itself; its end is polled for.
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        int error = errno;
        if (error == EINTR) {
            pollfd p { fd, POLLOUT, 0 };
            while (::poll(&p, 1, 1000) < 0 && errno == EINTR) {
            }
            socklen_t len = sizeof error;
            if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &len) != 0)
                error = errno;
        }
        if (error != 0)
            fuzz::fail(kTarget, "connect to the agent: " + std::string(std::strerror(error)));
    }
    std::size_t sent = 0;
    while (sent < request.size()) {
        const ssize_t n = ::send(fd, request.data() + sent, request.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // the agent closed early (refused a long request): its answer is read below
        sent += static_cast<std::size_t>(n);
    }
    ::shutdown(fd, SHUT_WR);
    std::string answer;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    char buffer[16384];
    while (std::chrono::steady_clock::now() < until) {
        pollfd p { fd, POLLIN, 0 };
        if (::poll(&p, 1, 100) <= 0)
            continue;
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        answer.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return answer;
}

int statusOf(const std::string& answer)
{
    // "HTTP/1.1 200 OK"
    if (answer.size() < 12 || answer.compare(0, 9, "HTTP/1.1 ") != 0)
        return 0;
    int status = 0;
    for (std::size_t i = 9; i < 12; ++i) {
        if (answer[i] < '0' || answer[i] > '9')
            return 0;
        status = status * 10 + (answer[i] - '0');
    }
    return status;
}

void invocation(std::string_view text)
{
    live::ToolInvocation inv;
    const auto parts = [&] {
        std::vector<std::string_view> out;
        std::size_t pos = 0;
        while (pos <= text.size()) {
            std::size_t end = text.find('\0', pos);
            if (end == std::string_view::npos)
                end = text.size();
            out.push_back(text.substr(pos, end - pos));
            pos = end + 1;
        }
        return out;
    }();
    std::size_t i = 0;
    inv.program = std::string(parts[i++]);
    for (; i < parts.size() && !parts[i].empty(); ++i)
        inv.args.emplace_back(parts[i]);
    for (++i; i < parts.size(); ++i) {
        const std::size_t eq = parts[i].find('=');
        if (eq == std::string_view::npos) {
            inv.host = std::string(parts[i]);
            continue;
        }
        inv.env.emplace_back(std::string(parts[i].substr(0, eq)), std::string(parts[i].substr(eq + 1)));
    }
    if (!live::checkInvocation(inv))
        return;
    RAILYARD_FUZZ_CHECK(kTarget, live::isWhitelistedTool(inv.program), "accepted program " + inv.program);
    for (const std::string& a : inv.args)
        RAILYARD_FUZZ_CHECK(kTarget, !live::unsafeCharacter(a), "accepted argument " + a);
    for (const auto& [name, value] : inv.env)
        RAILYARD_FUZZ_CHECK(kTarget, !live::unsafeCharacter(value) && !live::unsafeCharacter(name), "accepted variable " + name + "=" + value);
    (void)live::displayCommand(inv);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    (void)agent();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::uint8_t selector = data[0];
    const std::string_view text = fuzz::asText(data + 1, size - 1);
    if (selector & 0x10) {
        invocation(text);
        return 0;
    }
    std::string request;
    const int how = selector & 3;
    const bool authorized = !(selector & 4);
    if (how == 0) {
        request = std::string(text);
    } else {
        const std::size_t nl = text.find('\n');
        const std::string_view target = text.substr(0, nl);
        const std::string_view body = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        request = std::string(how == 1 ? "GET " : how == 2 ? "POST " : "DELETE ") + std::string(target)
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n";
        if (authorized)
            request += std::string("Authorization: Bearer ") + kToken + "\r\n";
        else if (selector & 8)
            request += "Authorization: Bearer not-the-token\r\n";
        if (how == 2)
            request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
        request += "\r\n";
        request += body;
    }
    const std::string answer = ask(agent().port, request);
    if (answer.empty())
        return 0; // the connection was closed without an answer (httplib does so for a request it cannot read)
    const int status = statusOf(answer);
    RAILYARD_FUZZ_CHECK(kTarget, status >= 100, "no HTTP status line in the answer: " + answer.substr(0, 80));
    RAILYARD_FUZZ_CHECK(kTarget, status != 500, "500 (a handler threw): " + answer.substr(0, 400));
    if (how != 0 && !authorized) {
        const std::string_view target = text.substr(0, text.find('\n'));
        const bool open = target.substr(0, 10) == "/v1/health" || target.substr(0, 8) == "/metrics";
        if (!open)
            RAILYARD_FUZZ_CHECK(kTarget, status < 200 || status >= 300, "served without the token: " + std::string(target));
    }
    return 0;
}
