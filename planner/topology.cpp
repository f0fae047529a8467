// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/topology.h"

#include <boost/graph/connected_components.hpp>
#include <boost/pending/disjoint_sets.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>

namespace railyard::planner {

using core::DeviceKind;
using core::LinkTier;
using core::Plan;
using core::SwitchTier;

Topology::Topology(const Plan& plan)
{
    const int rails = std::max(1, plan.summary.rails);
    m_deviceVertex.assign(plan.devices.size(), -1);
    std::size_t nodeCount = 0;
    while (nodeCount < plan.devices.size() && plan.devices[nodeCount].kind == DeviceKind::Node)
        ++nodeCount;
    std::vector<std::int64_t> nicVertex(nodeCount * static_cast<std::size_t>(rails), -1);

    for (std::size_t d = 0; d < plan.devices.size(); ++d) {
        const auto& dev = plan.devices[d];
        if (!dev.installed)
            continue;
        VertexKind kind = dev.kind == DeviceKind::Node ? VertexKind::Node
            : dev.kind == DeviceKind::Management        ? VertexKind::Management
                                                        : VertexKind::Switch;
        const auto v = boost::add_vertex(VertexProps { static_cast<std::uint32_t>(d), -1, kind }, m_graph);
        m_deviceVertex[d] = static_cast<std::int64_t>(v);
        if (dev.kind == DeviceKind::Node) {
            for (int r = 0; r < rails; ++r) {
                const auto nic = boost::add_vertex(VertexProps { static_cast<std::uint32_t>(d), static_cast<std::int16_t>(r), VertexKind::Nic }, m_graph);
                nicVertex[d * static_cast<std::size_t>(rails) + static_cast<std::size_t>(r)] = static_cast<std::int64_t>(nic);
                boost::add_edge(v, nic, EdgeProps { -1 }, m_graph);
            }
        }
    }
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        const auto& l = plan.links[i];
        if (!l.installed)
            continue;
        const std::int64_t a = plan.devices[l.a.device].kind == DeviceKind::Node
            ? nicVertex[l.a.device * static_cast<std::size_t>(rails) + l.a.port]
            : m_deviceVertex[l.a.device];
        const std::int64_t b = m_deviceVertex[l.b.device];
        if (a < 0 || b < 0)
            continue;
        boost::add_edge(static_cast<Vertex>(a), static_cast<Vertex>(b), EdgeProps { static_cast<std::int64_t>(i) }, m_graph);
    }
}

std::optional<Topology::Vertex> Topology::deviceVertex(std::uint32_t device) const
{
    if (device >= m_deviceVertex.size() || m_deviceVertex[device] < 0)
        return std::nullopt;
    return static_cast<Vertex>(m_deviceVertex[device]);
}

namespace {

    /// Shortest-path counts between two switches over switch-to-switch edges.
    struct PathCount {
        int hops = -1;
        long long switchPaths = 0;
        long long linkPaths = 0;
    };

    PathCount countPaths(const Topology& topo, Topology::Vertex from, Topology::Vertex to)
    {
        const auto& g = topo.graph();
        const auto n = boost::num_vertices(g);
        std::vector<int> dist(n, -1);
        std::vector<long long> viaSwitch(n, 0);
        std::vector<long long> viaLink(n, 0);
        std::deque<Topology::Vertex> queue { from };
        dist[from] = 0;
        viaSwitch[from] = 1;
        viaLink[from] = 1;
        while (!queue.empty()) {
            const auto u = queue.front();
            queue.pop_front();
            if (u == to)
                continue;
            std::map<Topology::Vertex, int> multiplicity;
            for (auto [e, end] = boost::out_edges(u, g); e != end; ++e) {
                const auto v = boost::target(*e, g);
                if (g[v].kind == Topology::VertexKind::Switch)
                    ++multiplicity[v];
            }
            for (const auto& [v, parallel] : multiplicity) {
                if (dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    queue.push_back(v);
                }
                if (dist[v] == dist[u] + 1) {
                    viaSwitch[v] += viaSwitch[u];
                    viaLink[v] += viaLink[u] * parallel;
                }
            }
        }
        return { dist[to], viaSwitch[to], viaLink[to] };
    }

    /// Leaves by (plane, SU, rail), first leaf of each.
    std::map<std::tuple<int, int, int>, std::uint32_t> leafIndex(const Plan& plan)
    {
        std::map<std::tuple<int, int, int>, std::uint32_t> out;
        for (std::size_t d = 0; d < plan.devices.size(); ++d) {
            const auto& dev = plan.devices[d];
            if (dev.kind == DeviceKind::Switch && dev.tier == SwitchTier::Leaf && dev.installed)
                out.emplace(std::make_tuple(dev.plane, dev.su, dev.rail), static_cast<std::uint32_t>(d));
        }
        return out;
    }

    void hopCounts(const Plan& plan, const Topology& topo, core::Analysis& a)
    {
        const auto leaves = leafIndex(plan);
        if (leaves.empty())
            return;
        const auto& [firstKey, first] = *leaves.begin();
        const int plane = std::get<0>(firstKey);
        const auto from = *topo.deviceVertex(first);
        a.hopsSameLeaf = 1;
        auto hopsTo = [&](int su, int rail) -> std::optional<PathCount> {
            const auto it = leaves.find({ plane, su, rail });
            if (it == leaves.end())
                return std::nullopt;
            return countPaths(topo, from, *topo.deviceVertex(it->second));
        };
        if (auto p = hopsTo(2, 0); p && p->hops > 0) {
            a.hopsSameRailAcrossSu = p->hops + 1;
            a.leafPathsSwitch = p->switchPaths;
            a.leafPathsLink = p->linkPaths;
        }
        if (auto p = hopsTo(1, 1); p && p->hops > 0) {
            a.hopsAcrossRails = p->hops + 1;
            if (a.leafPathsSwitch == 0) {
                a.leafPathsSwitch = p->switchPaths;
                a.leafPathsLink = p->linkPaths;
            }
        }
        // Across pods: the first leaf of another pod on the same rail.
        for (const auto& [key, d] : leaves) {
            if (std::get<0>(key) == plane && std::get<2>(key) == 0 && plan.devices[d].pod > 1) {
                const auto p = countPaths(topo, from, *topo.deviceVertex(d));
                if (p.hops > 0)
                    a.hopsAcrossPods = p.hops + 1;
                break;
            }
        }
    }

    void freePorts(const Plan& plan, core::Analysis& a)
    {
        std::vector<int> nodePorts(plan.devices.size(), 0);
        for (const auto& l : plan.links) {
            if (l.tier == LinkTier::NodeLeaf)
                ++nodePorts[l.b.device];
        }
        for (std::size_t d = 0; d < plan.devices.size(); ++d) {
            const auto& dev = plan.devices[d];
            if (dev.kind != DeviceKind::Switch || !dev.installed)
                continue;
            const long long free = std::max(0, dev.portsFree());
            if (dev.tier == SwitchTier::Leaf) {
                a.freeLeafPorts += free;
                a.freeLeafDownlinks += std::max(0, plan.summary.leafDownlinks - nodePorts[d]);
            } else if (dev.tier == SwitchTier::Spine) {
                a.freeSpinePorts += free;
            } else {
                a.freeCorePorts += free;
            }
        }
    }

    std::string linkName(const Plan& plan, std::size_t i)
    {
        return plan.portName(plan.links[i].a) + " <-> " + plan.portName(plan.links[i].b);
    }

    void worstFailures(const Plan& plan, core::Analysis& a)
    {
        for (SwitchTier tier : { SwitchTier::Leaf, SwitchTier::Spine, SwitchTier::Core }) {
            std::int64_t worst = -1;
            int worstUsed = -1;
            for (std::size_t d = 0; d < plan.devices.size(); ++d) {
                const auto& dev = plan.devices[d];
                if (dev.kind == DeviceKind::Switch && dev.installed && dev.tier == tier && dev.portsUsed > worstUsed) {
                    worst = static_cast<std::int64_t>(d);
                    worstUsed = dev.portsUsed;
                }
            }
            if (worst < 0)
                continue;
            const std::uint32_t failed[] = { static_cast<std::uint32_t>(worst) };
            auto impact = failureImpact(plan, failed, {});
            impact.element = plan.devices[static_cast<std::size_t>(worst)].name;
            a.worstSwitch.push_back(std::move(impact));
        }
        for (LinkTier tier : { LinkTier::NodeLeaf, LinkTier::LeafSpine, LinkTier::SpineCore }) {
            for (std::size_t i = 0; i < plan.links.size(); ++i) {
                const auto& l = plan.links[i];
                if (l.tier != tier || !l.installed || plan.devices[l.a.device].kind == DeviceKind::Management)
                    continue;
                const std::size_t failed[] = { i };
                auto impact = failureImpact(plan, {}, failed);
                impact.element = linkName(plan, i);
                a.worstCable.push_back(std::move(impact));
                break;
            }
        }
    }

} // namespace

double bisectionGbps(const Plan& plan)
{
    const double rate = plan.summary.port.dataGbps;
    std::vector<long long> down(plan.devices.size(), 0);
    std::vector<long long> up(plan.devices.size(), 0);
    long long endpoints = 0;
    for (const auto& l : plan.links) {
        if (!l.installed)
            continue;
        if (l.tier == LinkTier::NodeLeaf) {
            if (plan.devices[l.a.device].kind == DeviceKind::Node) {
                ++endpoints;
                ++down[l.b.device];
            }
        } else {
            ++up[l.a.device];
        }
    }
    // What each leaf can pass upward, spread evenly over its uplinks.
    std::vector<double> inflow(plan.devices.size(), 0);
    double leafTotal = 0;
    for (std::size_t d = 0; d < plan.devices.size(); ++d) {
        const auto& dev = plan.devices[d];
        if (dev.kind == DeviceKind::Switch && dev.tier == SwitchTier::Leaf)
            leafTotal += static_cast<double>(std::min(down[d], up[d]));
    }
    double spineTotal = leafTotal;
    if (plan.summary.tiers == 3) {
        for (const auto& l : plan.links) {
            if (l.installed && l.tier == LinkTier::LeafSpine && up[l.a.device] > 0)
                inflow[l.b.device] += static_cast<double>(std::min(down[l.a.device], up[l.a.device])) / static_cast<double>(up[l.a.device]);
        }
        spineTotal = 0;
        for (std::size_t d = 0; d < plan.devices.size(); ++d) {
            const auto& dev = plan.devices[d];
            if (dev.kind == DeviceKind::Switch && dev.tier == SwitchTier::Spine)
                spineTotal += std::min(inflow[d], static_cast<double>(up[d]));
        }
    }
    return 0.5 * rate * std::min({ static_cast<double>(endpoints), leafTotal, spineTotal });
}

core::FailureImpact failureImpact(const Plan& plan, std::span<const std::uint32_t> failedDevices,
    std::span<const std::size_t> failedLinks)
{
    const double rate = plan.summary.port.dataGbps;
    std::vector<bool> deadDevice(plan.devices.size(), false);
    for (auto d : failedDevices)
        deadDevice[d] = true;
    std::vector<bool> deadLink(plan.links.size(), false);
    for (auto i : failedLinks)
        deadLink[i] = true;
    auto alive = [&](std::size_t i) {
        const auto& l = plan.links[i];
        return l.installed && !deadLink[i] && !deadDevice[l.a.device] && !deadDevice[l.b.device];
    };

    core::FailureImpact impact;
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        if (plan.links[i].installed && !alive(i))
            impact.bandwidthLostGbps += rate;
    }

    // Switch islands that survive (union-find over the live switch-to-switch links); per plane,
    // the island holding the most leaves is the fabric.
    boost::disjoint_sets_with_storage<> islands(plan.devices.size());
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        const auto& l = plan.links[i];
        if (l.tier != LinkTier::NodeLeaf && alive(i))
            islands.union_set(l.a.device, l.b.device);
    }
    std::map<std::pair<int, std::size_t>, int> leavesIn; // (plane, island) -> leaves
    for (std::size_t d = 0; d < plan.devices.size(); ++d) {
        const auto& dev = plan.devices[d];
        if (dev.kind == DeviceKind::Switch && dev.tier == SwitchTier::Leaf && dev.installed && !deadDevice[d])
            ++leavesIn[{ dev.plane, islands.find_set(d) }];
    }
    std::map<int, std::pair<std::size_t, int>> mainOf; // plane -> (island, leaves)
    for (const auto& [key, n] : leavesIn) {
        auto& best = mainOf[key.first];
        if (n > best.second)
            best = { key.second, n };
    }
    auto inFabric = [&](std::uint32_t d) {
        return !deadDevice[d] && plan.devices[d].installed && islands.find_set(d) == mainOf[plan.devices[d].plane].first;
    };

    std::vector<long long> downAlive(plan.devices.size(), 0);
    std::vector<long long> upAlive(plan.devices.size(), 0);
    std::vector<int> portsLost(plan.devices.size(), 0);
    std::vector<int> portsTotal(plan.devices.size(), 0);
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        const auto& l = plan.links[i];
        if (!l.installed)
            continue;
        const bool ok = alive(i);
        if (l.tier == LinkTier::NodeLeaf && plan.devices[l.a.device].kind == DeviceKind::Node) {
            ++portsTotal[l.a.device];
            if (!ok || !inFabric(l.b.device)) {
                ++portsLost[l.a.device];
                ++impact.nodeRailsLost;
            } else {
                ++downAlive[l.b.device];
            }
        } else if (l.tier == LinkTier::LeafSpine && ok) {
            ++upAlive[l.a.device];
        }
    }
    for (std::size_t d = 0; d < plan.devices.size(); ++d) {
        if (portsTotal[d] > 0 && portsLost[d] == portsTotal[d])
            ++impact.nodesCutOff;
    }
    impact.railGbpsLeft.assign(static_cast<std::size_t>(std::max(0, plan.summary.rails)), 0.0);
    for (std::size_t d = 0; d < plan.devices.size(); ++d) {
        const auto& dev = plan.devices[d];
        if (dev.kind == DeviceKind::Switch && dev.tier == SwitchTier::Leaf && dev.rail >= 0
            && static_cast<std::size_t>(dev.rail) < impact.railGbpsLeft.size())
            impact.railGbpsLeft[static_cast<std::size_t>(dev.rail)] += rate * static_cast<double>(std::min(downAlive[d], upAlive[d]));
    }
    return impact;
}

core::Analysis analyzeTopology(const Plan& plan, const Topology& topology)
{
    core::Analysis a;
    const auto& g = topology.graph();
    std::vector<int> component(boost::num_vertices(g), 0);
    a.components = boost::num_vertices(g) == 0 ? 0 : static_cast<int>(boost::connected_components(g, component.data()));
    a.connected = a.components <= 1;
    hopCounts(plan, topology, a);
    freePorts(plan, a);
    worstFailures(plan, a);
    return a;
}

} // namespace railyard::planner
