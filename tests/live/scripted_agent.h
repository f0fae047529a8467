// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// An agent of the tests' own on loopback: every request answered by a function of its target
// (status and body), one connection at a time, `Connection: close`. For answers a real agent never
// gives: older versions, cut texts, fields of the wrong type.
#pragma once

#include "tests/live/loopback_http.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace railyard::live::test {

/// A loopback HTTP/1.1 server that answers each request with `answer(target)`: status and body.
class ScriptedAgent {
public:
    using Answer = std::function<std::pair<int, std::string>(const std::string& target)>;

    explicit ScriptedAgent(Answer answer)
        : m_answer(std::move(answer))
    {
        m_fd = listenOnLoopback(m_port);
        m_ok = m_fd >= 0;
        m_thread = std::thread([this] { serve(); });
    }
    ~ScriptedAgent()
    {
        m_stop = true;
        ::shutdown(m_fd, SHUT_RDWR);
        m_thread.join();
        ::close(m_fd);
    }
    /// False when it could not listen.
    bool ok() const { return m_ok; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    std::vector<std::string> targets() const
    {
        std::lock_guard lock(m_mutex);
        return m_targets;
    }

private:
    void serve()
    {
        while (!m_stop) {
            const int c = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (c < 0)
                return;
            std::string request;
            char buf[4096];
            while (request.find("\r\n\r\n") == std::string::npos) {
                const ssize_t n = ::recv(c, buf, sizeof buf, 0);
                if (n <= 0)
                    break;
                request.append(buf, static_cast<std::size_t>(n));
            }
            // The body too (a POST's), so that closing does not reset a connection with unread bytes.
            const std::size_t head = request.find("\r\n\r\n");
            std::size_t length = 0;
            for (const char* name : { "Content-Length: ", "content-length: " })
                if (const std::size_t at = request.find(name); at != std::string::npos && at < head)
                    length = std::strtoull(request.c_str() + at + std::strlen(name), nullptr, 10);
            while (head != std::string::npos && request.size() < head + 4 + length && length < (1u << 20)) {
                const ssize_t n = ::recv(c, buf, sizeof buf, 0);
                if (n <= 0)
                    break;
                request.append(buf, static_cast<std::size_t>(n));
            }
            const auto sp = request.find(' ');
            const std::string target = request.substr(sp + 1, request.find(' ', sp + 1) - sp - 1);
            {
                std::lock_guard lock(m_mutex);
                m_targets.push_back(target);
            }
            const auto [status, body] = m_answer(target);
            const std::string reply = "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Length: " + std::to_string(body.size())
                + "\r\nConnection: close\r\n\r\n" + body;
            ::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
            ::close(c);
        }
    }

    Answer m_answer;
    int m_fd = -1;
    int m_port = 0;
    bool m_ok = false;
    std::atomic<bool> m_stop { false };
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::vector<std::string> m_targets;
};

} // namespace railyard::live::test
