// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace railyard::planner {

/// The installed fabric as a Boost.Graph graph: a vertex per node, per node NIC, per
/// management port and per switch; an edge per installed link (carrying its index in
/// Plan::links and its port numbers through it) plus an internal edge from each node to
/// each of its NICs. Built once per plan; read-only afterwards, so threads may share it.
class Topology {
public:
    enum class VertexKind : std::uint8_t { Node, Nic, Management, Switch };
    struct VertexProps {
        std::uint32_t device = 0; ///< index in Plan::devices
        std::int16_t rail = -1;   ///< NIC vertices: the rail
        VertexKind kind = VertexKind::Node;
    };
    struct EdgeProps {
        std::int64_t link = -1; ///< index in Plan::links; -1 for node-to-NIC edges
    };
    using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, VertexProps, EdgeProps>;
    using Vertex = Graph::vertex_descriptor;

    explicit Topology(const core::Plan& plan);

    const Graph& graph() const { return m_graph; }
    /// Vertex of an installed device (node, management port or switch).
    std::optional<Vertex> deviceVertex(std::uint32_t device) const;

private:
    Graph m_graph;
    std::vector<std::int64_t> m_deviceVertex; ///< -1 when not installed
};

/// Connectivity, hop counts, equal-cost paths, bisection, free ports and the worst single
/// failure per tier, read off the graph. `plan.summary.port` must be set.
core::Analysis analyzeTopology(const core::Plan& plan, const Topology& topology);

/// Bisection bandwidth (Gb/s, one direction) of the installed fabric: half the least of the
/// endpoint capacity and, tier by tier, what each switch can pass upward (min of what comes
/// up into it and its uplink capacity).
double bisectionGbps(const core::Plan& plan);

/// What failing these switches and links costs: capacity lost, NIC ports that lose their
/// path into the fabric, nodes cut off, and per rail the off-leaf bandwidth left. The
/// what-if behind the topology view, and the worst-case analysis.
core::FailureImpact failureImpact(const core::Plan& plan, std::span<const std::uint32_t> failedDevices,
    std::span<const std::size_t> failedLinks);

} // namespace railyard::planner
