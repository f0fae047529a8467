// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Test helpers for the agent tests: a sysfs tree written from a real fixture, a minimal HTTP/1.1
// client on a raw socket (no cpp-httplib in the tests: its library is built with options the
// test would have to repeat exactly), and a Prometheus text parser.
#pragma once

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace railyard::live::test {

/// A directory that is removed when the test ends.
class TempDir {
public:
    TempDir()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "railyard-agent-test-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

inline void writeFile(const std::filesystem::path& path, const std::string& content)
{
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
}

/// The gpud H100 fixture (a real node's /sys/class/infiniband, one `path:content` line per file)
/// written as a sysfs tree under `root` (root/class/infiniband/...).
inline void writeGpudTree(const std::filesystem::path& root)
{
    const std::filesystem::path fixture = std::filesystem::path(RAILYARD_SHARED_FIXTURES_DIR)
        / "sysfs-class-infiniband-h100-node-8x-ndr-ib-plus-roce-bond-gpud.txt";
    std::ifstream in(fixture);
    ASSERT_TRUE(in) << "cannot read " << fixture;
    std::string line;
    int files = 0;
    while (std::getline(in, line)) {
        if (line.rfind("# source:", 0) == 0 || line.empty())
            continue;
        const auto colon = line.find(':');
        ASSERT_NE(colon, std::string::npos) << line;
        writeFile(root / "class" / "infiniband" / line.substr(0, colon), line.substr(colon + 1));
        ++files;
    }
    ASSERT_GT(files, 100);
}

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

/// One sample of a Prometheus text exposition.
struct Sample {
    std::string name;
    std::map<std::string, std::string> labels; ///< values unescaped
    double value = 0;
};

/// The families and samples of a text exposition (format 0.0.4), or the first thing wrong with it.
struct Exposition {
    std::map<std::string, std::string> types; ///< family -> "counter" / "gauge"
    std::map<std::string, std::string> helps;
    std::vector<Sample> samples;
    std::string error; ///< empty when the whole text parsed

    /// The value of `name` with exactly these labels (a subset match on the given labels).
    std::optional<double> value(const std::string& name, const std::map<std::string, std::string>& labels) const
    {
        std::optional<double> found;
        for (const Sample& s : samples) {
            if (s.name != name)
                continue;
            bool all = true;
            for (const auto& [k, v] : labels) {
                const auto it = s.labels.find(k);
                all = all && it != s.labels.end() && it->second == v;
            }
            if (all) {
                if (found)
                    return std::nullopt; // ambiguous: the test asked too loosely
                found = s.value;
            }
        }
        return found;
    }
};

inline bool validMetricName(const std::string& n, bool labelName)
{
    if (n.empty())
        return false;
    for (std::size_t i = 0; i < n.size(); ++i) {
        const char c = n[i];
        const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!labelName && c == ':');
        if (!(alpha || (i > 0 && c >= '0' && c <= '9')))
            return false;
    }
    return true;
}

inline Exposition parseExposition(const std::string& text)
{
    Exposition e;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    std::string current;             // family of the last sample/comment
    std::set<std::string> closed;    // families whose block has ended
    std::set<std::string> seenSeries; // name + labels
    const auto fail = [&](const std::string& what) {
        if (e.error.empty())
            e.error = "line " + std::to_string(lineNo) + ": " + what + ": " + line;
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty()) {
            fail("empty line");
            continue;
        }
        if (line[0] == '#') {
            std::istringstream c(line);
            std::string hash, kind, name;
            c >> hash >> kind >> name;
            if (kind != "HELP" && kind != "TYPE")
                continue;
            if (!validMetricName(name, false)) {
                fail("bad metric name in " + kind);
                continue;
            }
            if (name != current) {
                if (closed.count(name))
                    fail("family " + name + " appears twice");
                if (!current.empty())
                    closed.insert(current);
                current = name;
            }
            std::string rest;
            std::getline(c, rest);
            if (!rest.empty() && rest[0] == ' ')
                rest.erase(0, 1);
            auto& slot = kind == "HELP" ? e.helps : e.types;
            if (slot.count(name))
                fail("second " + kind + " for " + name);
            slot[name] = rest;
            if (kind == "TYPE" && rest != "counter" && rest != "gauge" && rest != "untyped" && rest != "summary"
                && rest != "histogram")
                fail("unknown type");
            continue;
        }
        Sample s;
        std::size_t i = 0;
        while (i < line.size() && line[i] != '{' && line[i] != ' ')
            ++i;
        s.name = line.substr(0, i);
        if (!validMetricName(s.name, false)) {
            fail("bad metric name");
            continue;
        }
        std::string series = s.name;
        if (i < line.size() && line[i] == '{') {
            ++i;
            bool ok = true;
            while (ok && i < line.size() && line[i] != '}') {
                std::size_t eq = line.find('=', i);
                if (eq == std::string::npos || eq + 1 >= line.size() || line[eq + 1] != '"') {
                    ok = false;
                    break;
                }
                const std::string label = line.substr(i, eq - i);
                if (!validMetricName(label, true) || s.labels.count(label)) {
                    ok = false;
                    break;
                }
                std::string value;
                std::size_t j = eq + 2;
                for (; j < line.size() && line[j] != '"'; ++j) {
                    if (line[j] == '\\') {
                        if (j + 1 >= line.size()) {
                            ok = false;
                            break;
                        }
                        const char n = line[++j];
                        if (n == 'n')
                            value += '\n';
                        else if (n == '\\' || n == '"')
                            value += n;
                        else {
                            ok = false;
                            break;
                        }
                    } else {
                        value += line[j];
                    }
                }
                if (!ok || j >= line.size()) {
                    ok = false;
                    break;
                }
                s.labels[label] = value;
                i = j + 1;
                if (i < line.size() && line[i] == ',')
                    ++i;
            }
            if (!ok || i >= line.size() || line[i] != '}') {
                fail("bad labels");
                continue;
            }
            ++i;
        }
        if (i >= line.size() || line[i] != ' ') {
            fail("no value");
            continue;
        }
        const std::string valueText = line.substr(i + 1);
        char* end = nullptr;
        s.value = std::strtod(valueText.c_str(), &end);
        if (valueText.empty() || end == nullptr || *end != '\0') {
            fail("value is not a number (or has a timestamp)");
            continue;
        }
        if (s.name != current) {
            if (closed.count(s.name))
                fail("samples of " + s.name + " are not together");
            if (!current.empty())
                closed.insert(current);
            current = s.name;
        }
        if (!e.types.count(s.name))
            fail("sample before its TYPE line");
        for (const auto& [k, v] : s.labels)
            series += "|" + k + "=" + v;
        if (!seenSeries.insert(series).second)
            fail("the same name and labels twice");
        e.samples.push_back(std::move(s));
    }
    return e;
}

} // namespace railyard::live::test
