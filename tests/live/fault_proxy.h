// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A small fault-injecting TCP proxy for the hostile-network tests: it listens on a loopback port
// and forwards each connection to an agent, or misbehaves the way a bad network or a broken
// agent does (delay, stall, reset, byte-by-byte answers, a close mid-answer, garbage, an endless
// body, an accept that never answers). The fault can be changed while it runs; connections
// started after the change get the new one. Plain sockets and one thread per connection, joined
// once it ends (railyard-bench-live --hostile runs proxies for minutes).
#pragma once

#include <atomic>
#include <chrono>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace railyard::live::test {

class FaultProxy {
public:
    enum class Fault {
        None,            ///< forward both ways
        Delay,           ///< forward, but hold the answer for delay() first
        Stall,           ///< read the request, answer nothing, keep the connection open
        Reset,           ///< accept, then reset the connection (RST) at once
        ByteByByte,      ///< forward the answer one byte every 20 ms
        CloseMidAnswer,  ///< forward the first half of the answer, then close
        Garbage,         ///< answer bytes that are not HTTP
        HugeBody,        ///< answer 200 with a 100 GB Content-Length and send zeros until closed
        AcceptNoRead,    ///< accept and neither read nor answer
    };

    FaultProxy(int upstreamPort)
        : m_upstream(upstreamPort)
    {
        m_listen = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        int yes = 1;
        ::setsockopt(m_listen, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        sockaddr_in addr = loopback(0);
        ::bind(m_listen, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
        ::listen(m_listen, 128);
        socklen_t len = sizeof addr;
        ::getsockname(m_listen, reinterpret_cast<sockaddr*>(&addr), &len);
        m_port = ntohs(addr.sin_port);
        m_acceptor = std::thread([this] { acceptLoop(); });
    }

    ~FaultProxy()
    {
        m_stop = true;
        m_acceptor.join();
        std::list<Connection> threads;
        {
            const std::lock_guard lock(m_mutex);
            threads.swap(m_threads);
        }
        for (Connection& c : threads)
            c.thread.join();
        ::close(m_listen);
    }

    FaultProxy(const FaultProxy&) = delete;
    FaultProxy& operator=(const FaultProxy&) = delete;

    int port() const { return m_port; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }
    void setFault(Fault fault, std::chrono::milliseconds delay = std::chrono::milliseconds(0))
    {
        m_delayMs = static_cast<int>(delay.count());
        m_fault = fault;
    }
    /// Bytes of the endless body sent so far (HugeBody).
    long long hugeBytesSent() const { return m_hugeBytes; }

private:
    static sockaddr_in loopback(int port)
    {
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<uint16_t>(port));
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        return addr;
    }

    void acceptLoop()
    {
        while (!m_stop) {
            pollfd p { m_listen, POLLIN, 0 };
            if (::poll(&p, 1, 20) <= 0)
                continue;
            const int client = ::accept4(m_listen, nullptr, nullptr, SOCK_CLOEXEC);
            if (client < 0)
                continue;
            const Fault fault = m_fault;
            const std::lock_guard lock(m_mutex);
            reapFinished();
            auto done = std::make_shared<std::atomic<bool>>(false);
            m_threads.push_back({ std::thread([this, client, fault, done] {
                serve(client, fault);
                ::close(client);
                *done = true;
            }),
                done });
        }
    }

    // Joins the connections' threads that have ended (a long run makes thousands).
    void reapFinished()
    {
        for (auto it = m_threads.begin(); it != m_threads.end();) {
            if (*it->done) {
                it->thread.join();
                it = m_threads.erase(it);
            } else {
                ++it;
            }
        }
    }

    // Waits up to `ms` for `fd` to be readable; false when stopping or timed out.
    bool readable(int fd, int ms) const
    {
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
        while (!m_stop && std::chrono::steady_clock::now() < until) {
            pollfd p { fd, POLLIN, 0 };
            if (::poll(&p, 1, 20) > 0)
                return true;
        }
        return false;
    }

    // Holds the connection until the client closes it or the proxy stops.
    void holdUntilClosed(int fd, bool read) const
    {
        char buf[4096];
        while (!m_stop) {
            if (!read) {
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                pollfd p { fd, POLLRDHUP, 0 };
                if (::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
                    return;
                continue;
            }
            if (readable(fd, 20) && ::recv(fd, buf, sizeof buf, 0) <= 0)
                return;
        }
    }

    // The request head (the agent client sends GETs with Connection: close).
    std::string readRequest(int client) const
    {
        std::string request;
        char buf[4096];
        while (request.find("\r\n\r\n") == std::string::npos && readable(client, 5000)) {
            const ssize_t n = ::recv(client, buf, sizeof buf, 0);
            if (n <= 0)
                break;
            request.append(buf, static_cast<std::size_t>(n));
        }
        return request;
    }

    // The agent's whole answer to `request` (it closes after answering).
    std::string askUpstream(const std::string& request) const
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr = loopback(m_upstream);
        std::string answer;
        if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0
            && ::send(fd, request.data(), request.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(request.size())) {
            char buf[65536];
            while (readable(fd, 5000)) {
                const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
                if (n <= 0)
                    break;
                answer.append(buf, static_cast<std::size_t>(n));
            }
        }
        ::close(fd);
        return answer;
    }

    static bool sendAll(int fd, const char* data, std::size_t size)
    {
        while (size > 0) {
            const ssize_t n = ::send(fd, data, size, MSG_NOSIGNAL);
            if (n <= 0)
                return false;
            data += n;
            size -= static_cast<std::size_t>(n);
        }
        return true;
    }

    void serve(int client, Fault fault)
    {
        switch (fault) {
        case Fault::Reset: {
            linger hard { 1, 0 };
            ::setsockopt(client, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
            return; // closing with a zero linger sends RST
        }
        case Fault::AcceptNoRead:
            holdUntilClosed(client, false);
            return;
        default:
            break;
        }
        const std::string request = readRequest(client);
        switch (fault) {
        case Fault::Stall:
            holdUntilClosed(client, true);
            return;
        case Fault::Garbage: {
            const std::string junk = "SSH-2.0-OpenSSH_9.2\r\n\x01\x02\x03 not http at all\r\n\r\n";
            sendAll(client, junk.data(), junk.size());
            return;
        }
        case Fault::HugeBody: {
            const std::string head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000000000\r\n\r\n";
            if (!sendAll(client, head.data(), head.size()))
                return;
            const std::string zeros(65536, '0');
            while (!m_stop && sendAll(client, zeros.data(), zeros.size()))
                m_hugeBytes += static_cast<long long>(zeros.size());
            return;
        }
        default:
            break;
        }
        const std::string answer = askUpstream(request);
        switch (fault) {
        case Fault::Delay:
            for (int waited = 0; waited < m_delayMs && !m_stop; waited += 10)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            sendAll(client, answer.data(), answer.size());
            return;
        case Fault::ByteByByte:
            for (std::size_t i = 0; i < answer.size() && !m_stop; ++i) {
                if (!sendAll(client, answer.data() + i, 1))
                    return;
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
            return;
        case Fault::CloseMidAnswer:
            sendAll(client, answer.data(), answer.size() / 2);
            return;
        default:
            sendAll(client, answer.data(), answer.size());
            return;
        }
    }

    const int m_upstream;
    int m_listen = -1;
    int m_port = 0;
    std::atomic<bool> m_stop { false };
    std::atomic<Fault> m_fault { Fault::None };
    std::atomic<int> m_delayMs { 0 };
    std::atomic<long long> m_hugeBytes { 0 };
    std::thread m_acceptor;
    struct Connection {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::mutex m_mutex;
    std::list<Connection> m_threads;
};

} // namespace railyard::live::test
