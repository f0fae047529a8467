// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/fabric_builder.h"

#include <algorithm>
#include <string>

namespace railyard::planner {

using core::Device;
using core::DeviceKind;
using core::Link;
using core::LinkTier;
using core::PortRef;
using core::SwitchTier;

namespace {

    std::string planePrefix(const Shape& s, int plane)
    {
        return s.planes > 1 ? "p" + std::to_string(plane + 1) + "-" : std::string();
    }

    Device makeSwitch(std::string name, SwitchTier tier, const core::SwitchModel& model, const TierPorts& ports, int plane)
    {
        Device d;
        d.name = std::move(name);
        d.kind = DeviceKind::Switch;
        d.tier = tier;
        d.model = model.id;
        d.ports = ports.ports;
        d.portsPerCage = ports.portsPerCage;
        d.plane = plane;
        return d;
    }

    void addNodes(const core::PlanSpec& spec, const Parts& parts, const Shape& s, std::vector<Device>& devices)
    {
        for (int i = 0; i < s.finalNodes; ++i) {
            Device d;
            d.name = core::nodeName(spec, i);
            d.kind = DeviceKind::Node;
            d.model = parts.nodeType->id;
            d.su = i / s.suSize + 1;
            d.ports = s.rails * s.planes;
            d.installed = i < s.nodes;
            devices.push_back(std::move(d));
        }
    }

    void addSwitches(const Parts& parts, const Shape& s, std::vector<Device>& devices, DeviceLayout& layout)
    {
        const bool suPods = s.tiers == 3 && s.susPerPod == 1;
        layout.firstLeaf = static_cast<std::uint32_t>(devices.size());
        for (int p = 0; p < s.planes; ++p) {
            for (int su = 0; su < s.suCount; ++su) {
                for (int r = 0; r < s.rails; ++r) {
                    for (int l = 0; l < s.leavesPerRail; ++l) {
                        std::string name = planePrefix(s, p) + "su" + std::to_string(su + 1) + "-rail" + std::to_string(r) + "-leaf";
                        if (s.leavesPerRail > 1)
                            name += std::to_string(l + 1);
                        Device d = makeSwitch(std::move(name), SwitchTier::Leaf, *parts.leaf, s.leafPorts, s.planes > 1 ? p + 1 : 0);
                        d.su = su + 1;
                        d.rail = r;
                        d.pod = s.tiers == 3 ? su / s.susPerPod + 1 : 0;
                        d.portsReserved = s.leafReserved;
                        d.installed = su < s.suInstalled;
                        devices.push_back(std::move(d));
                    }
                }
            }
        }
        layout.firstSpine = static_cast<std::uint32_t>(devices.size());
        for (int p = 0; p < s.planes; ++p) {
            for (int g = 0; g < s.groupsPerPlane(); ++g) {
                for (int j = 0; j < s.spinesPerGroup; ++j) {
                    std::string name = planePrefix(s, p);
                    if (s.tiers == 2)
                        name += "spine" + std::to_string(j + 1);
                    else
                        name += (suPods ? "su" : "pod") + std::to_string(g + 1) + "-spine" + std::to_string(j + 1);
                    Device d = makeSwitch(std::move(name), SwitchTier::Spine, *parts.spine, s.spinePorts, s.planes > 1 ? p + 1 : 0);
                    if (s.tiers == 3) {
                        d.pod = g + 1;
                        d.su = suPods ? g + 1 : 0;
                        d.installed = g * s.susPerPod < s.suInstalled;
                    }
                    devices.push_back(std::move(d));
                }
            }
        }
        layout.firstCore = static_cast<std::uint32_t>(devices.size());
        for (int p = 0; p < s.planes; ++p) {
            for (int c = 0; c < s.coresPerPlane; ++c) {
                devices.push_back(makeSwitch(planePrefix(s, p) + "core" + std::to_string(c + 1), SwitchTier::Core, *parts.core,
                    s.corePorts, s.planes > 1 ? p + 1 : 0));
            }
        }
        layout.end = static_cast<std::uint32_t>(devices.size());
    }

    Link makeLink(PortRef a, PortRef b, LinkTier tier, bool installed)
    {
        Link l;
        l.a = a;
        l.b = b;
        l.tier = tier;
        l.installed = installed;
        return l;
    }

    PortRef switchPort(std::uint32_t device, int port)
    {
        return PortRef { device, static_cast<std::uint16_t>(port), 0 };
    }

    bool addNodeLinks(const Shape& s, const DeviceLayout& layout, std::vector<Link>& links, std::stop_token stop)
    {
        for (int i = 0; i < s.finalNodes; ++i) {
            if (i % 1024 == 0 && stop.stop_requested())
                return false;
            const int su = i / s.suSize;
            const int slot = i % s.suSize;
            const int l = slot / s.leafDown;
            const int port = slot % s.leafDown + 1;
            for (int r = 0; r < s.rails; ++r) {
                for (int p = 0; p < s.planes; ++p) {
                    const PortRef nic { static_cast<std::uint32_t>(i), static_cast<std::uint16_t>(r), static_cast<std::uint8_t>(p) };
                    links.push_back(makeLink(nic, switchPort(layout.leaf(s, p, su, r, l), port), LinkTier::NodeLeaf, i < s.nodes));
                }
            }
        }
        return true;
    }

    /// Management ports on the highest free node ports of SU 1's leaves, round robin; then SU 2, ...
    /// Returns the (leaf, port) of each placed management port.
    std::vector<std::pair<std::uint32_t, int>> placeManagement(const core::PlanSpec& spec, const Shape& s, const DeviceLayout& layout,
        std::vector<core::Finding>& findings)
    {
        std::vector<std::pair<std::uint32_t, int>> placed;
        const auto wanted = static_cast<std::size_t>(spec.managementPorts);
        for (int su = 0; su < s.suInstalled && placed.size() < wanted; ++su) {
            const int nodesInSu = std::min(s.suSize, s.finalNodes - su * s.suSize);
            std::vector<std::uint32_t> leaves;
            std::vector<int> top;    // next port to hand out, counting down
            std::vector<int> lowest; // node ports at or below this are taken by nodes
            for (int p = 0; p < s.planes; ++p) {
                for (int r = 0; r < s.rails; ++r) {
                    for (int l = 0; l < s.leavesPerRail; ++l) {
                        leaves.push_back(layout.leaf(s, p, su, r, l));
                        top.push_back(s.leafDown);
                        lowest.push_back(std::clamp(nodesInSu - l * s.leafDown, 0, s.leafDown));
                    }
                }
            }
            for (bool any = true; any && placed.size() < wanted;) {
                any = false;
                for (std::size_t k = 0; k < leaves.size() && placed.size() < wanted; ++k) {
                    if (top[k] <= lowest[k])
                        continue;
                    placed.emplace_back(leaves[k], top[k]--);
                    any = true;
                }
            }
        }
        // No free node port left: the reserved ports are kept for exactly this (highest first).
        const int firstReserved = s.leafDown + s.leafUp + 1;
        for (int su = 0; su < s.suInstalled && placed.size() < wanted; ++su) {
            for (int port = s.leafPorts.ports; port >= firstReserved && placed.size() < wanted; --port) {
                for (int p = 0; p < s.planes && placed.size() < wanted; ++p) {
                    for (int r = 0; r < s.rails && placed.size() < wanted; ++r) {
                        for (int l = 0; l < s.leavesPerRail && placed.size() < wanted; ++l)
                            placed.emplace_back(layout.leaf(s, p, su, r, l), port);
                    }
                }
            }
        }
        if (placed.size() < wanted) {
            findings.push_back({ core::Severity::Error, "RADIX_EXCEEDED",
                "Only " + std::to_string(placed.size()) + " of " + std::to_string(spec.managementPorts)
                    + " management ports found a free node port or reserved port on the installed leaves; reduce management_ports, "
                      "use a smaller SU, or reserve leaf ports.",
                "management_ports" });
        }
        return placed;
    }

    void addLeafSpineLinks(const Shape& s, const std::vector<Device>& devices, const DeviceLayout& layout, std::vector<Link>& links)
    {
        const int lps = s.linksPerLeafSpine;
        for (int p = 0; p < s.planes; ++p) {
            for (int su = 0; su < s.suCount; ++su) {
                const int group = s.tiers == 2 ? 0 : su / s.susPerPod;
                const int suInGroup = s.tiers == 2 ? su : su % s.susPerPod;
                for (int r = 0; r < s.rails; ++r) {
                    for (int l = 0; l < s.leavesPerRail; ++l) {
                        const int leafInGroup = (suInGroup * s.rails + r) * s.leavesPerRail + l;
                        const std::uint32_t leaf = layout.leaf(s, p, su, r, l);
                        for (int q = 0; q < s.leafUp; ++q) {
                            const std::uint32_t spine = layout.spine(s, p, group, q / lps);
                            const bool installed = devices[leaf].installed && devices[spine].installed;
                            links.push_back(makeLink(switchPort(leaf, s.leafDown + q + 1),
                                switchPort(spine, leafInGroup * lps + q % lps + 1), LinkTier::LeafSpine, installed));
                        }
                    }
                }
            }
        }
    }

    void addSpineCoreLinks(const Shape& s, const std::vector<Device>& devices, const DeviceLayout& layout, std::vector<Link>& links)
    {
        const int m = s.linksPerSpineCore;
        const int coresPerGroup = s.spineUp / m;
        for (int p = 0; p < s.planes; ++p) {
            for (int g = 0; g < s.pods; ++g) {
                for (int j = 0; j < s.spinesPerGroup; ++j) {
                    const std::uint32_t spine = layout.spine(s, p, g, j);
                    for (int q = 0; q < s.spineUp; ++q) {
                        const std::uint32_t core = layout.core(s, p, j * coresPerGroup + q / m);
                        links.push_back(makeLink(switchPort(spine, s.spineDown + q + 1), switchPort(core, g * m + q % m + 1),
                            LinkTier::SpineCore, devices[spine].installed));
                    }
                }
            }
        }
    }

} // namespace

bool buildFabric(const core::PlanSpec& spec, const Parts& parts, const Shape& shape, core::Plan& plan, DeviceLayout& layout,
    std::vector<core::Finding>& findings, std::stop_token stop)
{
    auto& devices = plan.devices;
    auto& links = plan.links;
    devices.reserve(static_cast<std::size_t>(shape.finalNodes) + static_cast<std::size_t>(spec.managementPorts)
        + static_cast<std::size_t>(shape.planes) * (shape.leavesPerPlane() + shape.groupsPerPlane() * shape.spinesPerGroup + shape.coresPerPlane));
    addNodes(spec, parts, shape, devices);
    layout.firstMgmt = static_cast<std::uint32_t>(devices.size());
    addSwitches(parts, shape, devices, layout);

    const long long nodeLinks = 1LL * shape.finalNodes * shape.rails * shape.planes;
    const long long leafLinks = 1LL * shape.planes * shape.leavesPerPlane() * shape.leafUp;
    const long long coreLinks = 1LL * shape.planes * shape.pods * shape.spinesPerGroup * shape.spineUp;
    links.reserve(static_cast<std::size_t>(nodeLinks + spec.managementPorts + leafLinks + coreLinks));
    if (!addNodeLinks(shape, layout, links, stop))
        return false;
    if (spec.managementPorts > 0) {
        // Management ports sit between nodes and switches in the device list: shift the switches.
        const auto placed = placeManagement(spec, shape, layout, findings);
        const auto shift = static_cast<std::uint32_t>(placed.size());
        std::vector<Device> mgmt;
        for (std::size_t k = 0; k < placed.size(); ++k) {
            Device d;
            d.name = "mgmt" + std::to_string(k + 1);
            d.kind = DeviceKind::Management;
            d.ports = 1;
            mgmt.push_back(std::move(d));
        }
        devices.insert(devices.begin() + layout.firstMgmt, mgmt.begin(), mgmt.end());
        for (auto& l : links)
            l.b.device += shift;
        layout.firstLeaf += shift;
        layout.firstSpine += shift;
        layout.firstCore += shift;
        layout.end += shift;
        for (std::size_t k = 0; k < placed.size(); ++k) {
            devices[layout.firstMgmt + k].su = devices[placed[k].first + shift].su;
            links.push_back(makeLink(PortRef { layout.firstMgmt + static_cast<std::uint32_t>(k), 1, 0 },
                switchPort(placed[k].first + shift, placed[k].second), LinkTier::NodeLeaf, true));
            if (placed[k].second > shape.leafDown + shape.leafUp)
                --devices[placed[k].first + shift].portsReserved; // a reserved port put to use
        }
    }
    if (stop.stop_requested())
        return false;
    addLeafSpineLinks(shape, devices, layout, links);
    if (shape.tiers == 3)
        addSpineCoreLinks(shape, devices, layout, links);

    for (const auto& l : links) {
        if (!l.installed)
            continue;
        for (const PortRef* end : { &l.a, &l.b }) {
            if (devices[end->device].kind == DeviceKind::Switch)
                ++devices[end->device].portsUsed;
        }
    }
    return !stop.stop_requested();
}

} // namespace railyard::planner
