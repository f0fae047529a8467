// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The agent client's reading of an HTTP answer (live/client/agent_client.cpp: status line,
// headers, Content-Length, chunked or to-the-end bodies, size limits), from a hostile agent: a
// loopback listener of this program answers each GET with the input's bytes and closes. Checked:
// a reply is either an error with a code of agent_error or a 2xx status with a body no larger than
// the limit; a refused token (401, 403) is always an error.
#include "live/client/agent_client.h"
#include "fuzz/fuzz_support.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace railyard;

namespace {

constexpr const char* kTarget = "fuzz_agent_client";
constexpr std::size_t kMaxBody = 4096;

/// Answers every connection with `answer` once the request's head has arrived, then closes.
class HostileAgent {
public:
    HostileAgent()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof addr;
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(m_fd, 16) != 0
            || ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &length) != 0)
            fuzz::fail(kTarget, "loopback listener: " + std::string(std::strerror(errno)));
        port = ntohs(addr.sin_port);
        m_thread = std::thread([this] { serve(); });
    }

    void setAnswer(std::string_view answer)
    {
        std::lock_guard lock(m_mutex);
        m_answer = answer;
    }

    int port = 0;

private:
    void serve()
    {
        for (;;) {
            const int c = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (c < 0)
                continue;
            std::string head;
            char buffer[4096];
            while (head.find("\r\n\r\n") == std::string::npos) {
                pollfd p { c, POLLIN, 0 };
                if (::poll(&p, 1, 1000) <= 0)
                    break;
                const ssize_t n = ::recv(c, buffer, sizeof buffer, 0);
                if (n <= 0)
                    break;
                head.append(buffer, static_cast<std::size_t>(n));
            }
            std::string answer;
            {
                std::lock_guard lock(m_mutex);
                answer = m_answer;
            }
            std::size_t sent = 0;
            while (sent < answer.size()) {
                const ssize_t n = ::send(c, answer.data() + sent, answer.size() - sent, MSG_NOSIGNAL);
                if (n <= 0)
                    break;
                sent += static_cast<std::size_t>(n);
            }
            ::close(c);
        }
    }

    int m_fd = -1;
    std::thread m_thread;
    std::mutex m_mutex;
    std::string m_answer;
};

HostileAgent& hostile()
{
    // Never destroyed: its thread serves until the process ends.
    static HostileAgent* agent = new HostileAgent;
    return *agent;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    (void)hostile();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    HostileAgent& agent = hostile();
    agent.setAnswer(fuzz::asText(data, size));
    live::FetchOptions options;
    options.deadline = std::chrono::milliseconds(2000);
    options.token = "fuzz-token";
    options.maxBodyBytes = kMaxBody;
    const std::vector<live::AgentReply> replies
        = live::fetchAll({ { "node001", "http://127.0.0.1:" + std::to_string(agent.port) } }, "/v1/inventory", options);
    RAILYARD_FUZZ_CHECK(kTarget, replies.size() == 1, std::to_string(replies.size()) + " replies to one request");
    const live::AgentReply& r = replies.front();
    if (r.error) {
        static const std::set<std::string> codes { live::agent_error::kBadUrl, live::agent_error::kUnreachable, live::agent_error::kTimedOut,
            live::agent_error::kMalformed, live::agent_error::kTokenRefused, live::agent_error::kHttpStatus };
        RAILYARD_FUZZ_CHECK(kTarget, codes.count(r.error->code) == 1, "error code " + r.error->code);
        RAILYARD_FUZZ_CHECK(kTarget, r.error->code != live::agent_error::kTimedOut, "timed out on an answer that was sent whole and closed");
        return 0;
    }
    RAILYARD_FUZZ_CHECK(kTarget, r.status >= 200 && r.status < 300, "status " + std::to_string(r.status) + " without an error");
    RAILYARD_FUZZ_CHECK(kTarget, r.body.size() <= kMaxBody, "a body of " + std::to_string(r.body.size()) + " bytes over the limit");
    return 0;
}
