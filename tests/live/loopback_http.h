// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A minimal HTTP/1.1 client on a raw loopback socket for the tests (no cpp-httplib in the
// tests: its library is built with options the tests would have to repeat exactly), a loopback
// port that nothing listens on, and one that listens and never accepts (a hung agent).
#pragma once

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace railyard::live::test {

/// The answer to one request.
struct HttpResponse {
    int status = 0;
    std::map<std::string, std::string> headers; ///< names lower-cased
    std::string body;

    /// The value of header `lowerName`; empty when absent.
    std::string header(const std::string& lowerName) const
    {
        const auto it = headers.find(lowerName);
        return it == headers.end() ? std::string() : it->second;
    }
};

/// One request on a fresh connection (`Connection: close`), read to the end. Every wait is
/// bounded by `deadline`; nullopt when the connection fails or the deadline passes.
inline std::optional<HttpResponse> httpRequest(int port, const std::string& method, const std::string& path,
    const std::string& extraHeaders = {}, std::chrono::milliseconds deadline = std::chrono::seconds(10))
{
    const auto until = std::chrono::steady_clock::now() + deadline;
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return std::nullopt;
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return std::nullopt;
    }
    const std::string request = method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + extraHeaders + "\r\n";
    if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(request.size())) {
        ::close(fd);
        return std::nullopt;
    }
    std::string raw;
    char buf[65536];
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            ::close(fd);
            return std::nullopt;
        }
        pollfd p { fd, POLLIN, 0 };
        if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
            continue;
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        raw.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fd);
    const auto headerEnd = raw.find("\r\n\r\n");
    if (headerEnd == std::string::npos || raw.rfind("HTTP/1.1 ", 0) != 0)
        return std::nullopt;
    HttpResponse r;
    r.status = std::atoi(raw.c_str() + 9);
    std::istringstream head(raw.substr(0, headerEnd));
    std::string line;
    std::getline(head, line); // status line
    while (std::getline(head, line)) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            continue;
        std::string name = line.substr(0, colon);
        for (char& c : name)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        std::string value = line.substr(colon + 1);
        while (!value.empty() && value.front() == ' ')
            value.erase(value.begin());
        r.headers[name] = value;
    }
    r.body = raw.substr(headerEnd + 4);
    return r;
}

inline std::string bearer(const std::string& token)
{
    return "Authorization: Bearer " + token + "\r\n";
}

/// A loopback TCP port that nothing listens on (bound, then released).
inline int unusedLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

/// A listening socket on a free loopback port (its port in `port`); -1 when it cannot listen.
inline int listenOnLoopback(int& port, int backlog = 16)
{
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd >= 0 && (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(fd, backlog) != 0
                       || ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)) {
        ::close(fd);
        fd = -1;
    }
    port = ntohs(addr.sin_port);
    return fd;
}

/// A hung agent: a loopback port that listens and never accepts. A client's connection opens
/// (the kernel's backlog takes it) and its request is never read or answered.
class NeverAnswers {
public:
    NeverAnswers()
        : m_fd(listenOnLoopback(m_port))
    {
    }
    ~NeverAnswers()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    NeverAnswers(const NeverAnswers&) = delete;
    NeverAnswers& operator=(const NeverAnswers&) = delete;

    /// False when it could not listen.
    bool ok() const { return m_fd >= 0; }
    std::string url() const { return "http://127.0.0.1:" + std::to_string(m_port); }

private:
    int m_port = 0;
    int m_fd = -1;
};

} // namespace railyard::live::test
