// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Test helpers for the agent tests: a sysfs tree written from a real fixture, the HTTP client of
// loopback_http.h, a Prometheus text parser, and Prometheus' own (promtool).
#pragma once

#include "tests/live/loopback_http.h"
#include "tests/live/temp_dir.h"

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
#include <sys/wait.h>
#include <unistd.h>

namespace railyard::live::test {

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

/// What Prometheus' own parser and linter say of an exposition: `promtool check metrics` (Debian's
/// prometheus package, which .ci/run installs). status: 0 clean, 3 lint problems, 1 the text does
/// not parse; out: what it printed. nullopt when promtool is not installed.
struct PromtoolVerdict {
    int status = -1;
    std::string out;
};

inline std::optional<PromtoolVerdict> promtoolCheck(const std::string& text)
{
    const char* promtool = "/usr/bin/promtool";
    if (::access(promtool, X_OK) != 0)
        return std::nullopt;
    TempDir dir("promtool");
    const std::filesystem::path file = dir.write("metrics.txt", text);
    const std::string command = std::string(promtool) + " check metrics < '" + file.string() + "' 2>&1";
    PromtoolVerdict verdict;
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return verdict;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        verdict.out.append(buffer, n);
    const int status = ::pclose(pipe);
    verdict.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return verdict;
}

} // namespace railyard::live::test
