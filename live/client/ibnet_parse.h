// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A discovered InfiniBand fabric (nodes and links), and the reader of `ibnetdiscover` output:
// the full topology format (what `ibnetdiscover` prints by default, what ibsim reads and what
// planner::writeIbnetdiscover writes) and the ports report (`ibnetdiscover -p`).
#pragma once

#include "core/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace railyard::live {

enum class IbNodeType { CA, Switch, Router };
std::string_view toString(IbNodeType type); ///< "CA", "Switch", "Router"

/// One node of the subnet.
struct IbNode {
    /// Node GUID. In the `-p` ports report a channel adapter's node GUID is not printed: there
    /// it is the port GUID of the adapter's port (a switch's port GUID is its node GUID).
    std::uint64_t guid = 0;
    IbNodeType type = IbNodeType::CA;
    std::string description; ///< NodeDescription as printed (not trimmed: "' 5FB0406-spine-IB02 '" keeps its spaces)
    int ports = 0;           ///< port count; 0 when the source does not say (`-p`)
    int lid = 0;             ///< switches: port 0's LID; adapters: the lowest LID seen on a port; 0 unknown
    std::unordered_map<int, std::uint64_t> portGuids; ///< adapters: port -> port GUID, when printed
};

/// One end of a link.
struct IbLinkEnd {
    std::uint64_t guid = 0; ///< the node's IbNode::guid
    int port = 0;
    bool operator==(const IbLinkEnd&) const = default;
};

/// One link (connected port pair), listed once whatever how many times the source shows it.
struct IbLink {
    IbLinkEnd a; ///< the end with the lower (guid, port)
    IbLinkEnd b;
    std::string width; ///< "4x"; empty when not printed
    std::string speed; ///< "HDR", "NDR", "FDR10"...; empty when not printed
};

/// A discovered fabric: nodes in the order first seen, links sorted by their `a` end.
struct IbFabric {
    std::vector<IbNode> nodes;
    std::vector<IbLink> links;
    /// Ports that are up but unconnected, or whose peer is unknown (`-p`: "4x ???" lines).
    std::vector<IbLinkEnd> unconnectedPorts;

    /// The node with this GUID, or nullptr.
    const IbNode* find(std::uint64_t guid) const;
    /// Index of the node with this GUID.
    std::optional<std::size_t> indexOf(std::uint64_t guid) const;
    /// Adds or merges a node by GUID (fills what the existing entry lacks); returns its index.
    std::size_t addNode(const IbNode& node);
    /// Adds a link unless the same port pair is already there; sorts nothing.
    void addLink(IbLink link);
    /// Sorts links by (a.guid, a.port) and unconnected ports likewise; rebuilds the index.
    void finish();

private:
    std::unordered_map<std::uint64_t, std::size_t> m_index;
    std::unordered_map<std::string, std::size_t> m_links; ///< "a-b" port pair -> index in links
};

/// Reads `ibnetdiscover` output in either format (detected from the text). `source` names the
/// input in errors, which also give the line number: "fabric.txt:12: ...".
core::Result<IbFabric> parseIbnetdiscover(std::string_view text, std::string_view source);

/// Reads a file through parseIbnetdiscover().
core::Result<IbFabric> readIbnetdiscoverFile(const std::string& path);

/// "0x0002c9020040f160" (16 hex digits).
std::string formatGuid(std::uint64_t guid);
/// Reads "0x...", "...", "0002:c902:0040:f160" (sysfs form); nullopt when it is not a GUID.
std::optional<std::uint64_t> parseGuid(std::string_view text);

} // namespace railyard::live
