// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A small reader of ibnetdiscover topology text for the tests: nodes, descriptions, and the
// link on every port line. Enough to compare the export with what `ibnetdiscover` finds.
#pragma once

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace railyard::testing {

struct IbnetPortLine {
    std::string peerId; ///< "S-..." or "H-..."
    int peerPort = 0;
    std::string speed;  ///< "4xHDR": the last token of the line
};

struct IbnetNode {
    bool isSwitch = false;
    int ports = 0;
    std::string description;
    int lid = 0; ///< switches: port 0; adapters: port 1
    std::map<int, IbnetPortLine> links; ///< by local port
};

struct IbnetTopology {
    std::map<std::string, IbnetNode> nodes; ///< by id ("S-<guid>", "H-<guid>")
    int switches = 0;
    int adapters = 0;

    /// Every link as "description/port <-> description/port" (ends sorted), seen from its
    /// lower end, so two topologies with the same names compare equal whatever the GUIDs.
    std::multiset<std::string> linksByName() const
    {
        std::multiset<std::string> out;
        for (const auto& [id, node] : nodes)
            for (const auto& [port, line] : node.links) {
                const auto peer = nodes.find(line.peerId);
                const std::string self = node.description + "[" + std::to_string(port) + "]";
                const std::string other
                    = (peer == nodes.end() ? line.peerId : peer->second.description) + "[" + std::to_string(line.peerPort) + "]";
                if (self < other)
                    out.insert(self + " <-> " + other);
            }
        return out;
    }
};

namespace detail {

    inline std::string quoted(const std::string& line, std::size_t from, std::size_t* end = nullptr)
    {
        const auto a = line.find('"', from);
        const auto b = a == std::string::npos ? a : line.find('"', a + 1);
        if (b == std::string::npos)
            return {};
        if (end)
            *end = b + 1;
        return line.substr(a + 1, b - a - 1);
    }

    inline void parsePortLine(const std::string& line, IbnetNode& node)
    {
        IbnetPortLine port;
        const int local = std::stoi(line.substr(1));
        std::size_t end = 0;
        port.peerId = quoted(line, 0, &end);
        if (end < line.size() && line[end] == '[')
            port.peerPort = std::stoi(line.substr(end + 1));
        const auto space = line.find_last_of(" \t");
        port.speed = line.substr(space + 1);
        node.links[local] = port;
        const auto lid = line.find("# lid ");
        if (!node.isSwitch && lid != std::string::npos)
            node.lid = std::stoi(line.substr(lid + 6));
    }

} // namespace detail

inline IbnetTopology parseIbnet(const std::string& text)
{
    IbnetTopology topo;
    IbnetNode* current = nullptr;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const bool sw = line.rfind("Switch", 0) == 0;
        if (sw || line.rfind("Ca", 0) == 0) {
            std::size_t end = 0;
            const auto id = detail::quoted(line, 0, &end);
            auto& node = topo.nodes[id];
            node.isSwitch = sw;
            node.ports = std::stoi(line.substr(sw ? 6 : 2));
            std::size_t descEnd = 0;
            node.description = detail::quoted(line, line.find('#', end), &descEnd);
            const auto lid = line.find(" lid ", descEnd);
            if (sw && lid != std::string::npos)
                node.lid = std::stoi(line.substr(lid + 5));
            ++(sw ? topo.switches : topo.adapters);
            current = &node;
        } else if (!line.empty() && line[0] == '[' && current) {
            detail::parsePortLine(line, *current);
        } else if (line.empty()) {
            current = nullptr;
        }
    }
    return topo;
}

} // namespace railyard::testing
