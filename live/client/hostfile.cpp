// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/hostfile.h"

#include "live/common/text_scan.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <unordered_set>

namespace railyard::live {

using namespace text;

namespace {

    /// Letters, digits, '-', '.', '_' (host names and IPv4 addresses); ':' only for IPv6.
    bool validHost(std::string_view host)
    {
        if (host.empty() || host.size() > 253)
            return false;
        for (char c : host) {
            const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '-' || c == '.' || c == '_';
            if (!ok)
                return false;
        }
        return host.front() != '-' && host.front() != '.';
    }

    bool validIpv6(std::string_view host)
    {
        if (host.find(':') == std::string_view::npos)
            return false;
        for (char c : host)
            if (!(isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ':' || c == '.'))
                return false;
        return true;
    }

} // namespace

core::Result<std::vector<AgentEndpoint>> parseHostfile(std::string_view text, const std::string& where, int port, const core::Plan* plan)
{
    if (port < 1 || port > 65535)
        return core::Error { "HOSTFILE_PORT", "the agent port " + std::to_string(port) + " is not a TCP port", where,
            "give a port from 1 to 65535 (the agents listen on 9473 unless started with --listen)" };
    std::unordered_set<std::string> planNodes;
    if (plan)
        for (const core::Device& d : plan->devices)
            if (d.kind == core::DeviceKind::Node)
                planNodes.insert(d.name);
    core::Errors errors;
    std::vector<AgentEndpoint> agents;
    std::set<std::string> seen;
    std::size_t lineNo = 0;
    for (std::string_view raw : split(text, '\n')) {
        ++lineNo;
        const std::string at = where + ":" + std::to_string(lineNo);
        std::string_view line = raw.substr(0, raw.find('#'));
        line = trim(line);
        if (line.empty())
            continue;
        const std::vector<std::string_view> words = splitWs(line);
        std::string_view host = words.front();
        bool bad = false;
        for (std::size_t i = 1; i < words.size(); ++i) {
            const std::string_view w = words[i];
            const auto eq = w.find('=');
            const std::string_view key = w.substr(0, eq);
            const bool known = key == "slots" || key == "max_slots" || key == "max-slots";
            if (eq == std::string_view::npos || !known || !allDigits(w.substr(eq + 1)) || eq + 1 == w.size()) {
                errors.push_back({ "HOSTFILE_SYNTAX", "unexpected \"" + std::string(w) + "\" after the host in " + quoteLine(line), at,
                    "write one host per line, optionally followed by slots=N or max_slots=N (Open MPI's hostfile)" });
                bad = true;
            }
        }
        // MPICH's host:N; a bracketed or bare IPv6 address keeps its colons.
        std::string name;
        if (host.size() > 2 && host.front() == '[' && host.back() == ']' && validIpv6(host.substr(1, host.size() - 2))) {
            name = std::string(host.substr(1, host.size() - 2));
        } else if (validIpv6(host) && host.find(':') != host.rfind(':')) {
            name = std::string(host);
        } else {
            if (const auto colon = host.find(':'); colon != std::string_view::npos) {
                if (!allDigits(host.substr(colon + 1)) || colon + 1 == host.size()) {
                    errors.push_back({ "HOSTFILE_SYNTAX", "\"" + std::string(host) + "\" is not a host, nor host:processes", at,
                        "write the host name (node007) or host:N; the agent port is one for all hosts, given separately" });
                    continue;
                }
                host = host.substr(0, colon);
            }
            if (!validHost(host)) {
                errors.push_back({ "HOSTFILE_SYNTAX", "\"" + std::string(host) + "\" is not a host name or address", at,
                    "use letters, digits, '-', '.' and '_' (a host name or an IPv4 address), or [IPv6]" });
                continue;
            }
            name = std::string(host);
        }
        if (bad)
            continue;
        std::string node = name;
        if (!planNodes.empty() && !planNodes.count(node)) {
            const std::string first = node.substr(0, node.find('.'));
            if (planNodes.count(first))
                node = first;
        }
        if (!seen.insert(node).second) {
            errors.push_back({ "HOSTFILE_DUPLICATE", node + " is listed twice", at, "list each host once" });
            continue;
        }
        const std::string urlHost = name.find(':') != std::string::npos ? "[" + name + "]" : name;
        agents.push_back({ node, "http://" + urlHost + ":" + std::to_string(port) });
    }
    if (!errors.empty())
        return errors;
    if (agents.empty())
        return core::Error { "HOSTFILE_EMPTY", "the hostfile lists no host", where, "write one host per line (node001, or node001 slots=8)" };
    return agents;
}

core::Result<std::vector<AgentEndpoint>> readHostfile(const std::filesystem::path& path, int port, const core::Plan* plan)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return core::Error { "FILE_UNREADABLE", "cannot read the hostfile: it is a folder", path.string(), "give the path of the file" };
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return core::Error { "FILE_UNREADABLE", std::string("cannot read the hostfile: ") + std::strerror(errno), path.string(),
            "check the path and its permissions" };
    std::ostringstream text;
    text << in.rdbuf();
    return parseHostfile(text.str(), path.string(), port, plan);
}

} // namespace railyard::live
