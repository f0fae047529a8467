// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/plan.h"

#include <algorithm>

namespace railyard::core {

std::string_view toString(Severity severity)
{
    switch (severity) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: break;
    }
    return "info";
}

std::string_view toString(SwitchTier tier)
{
    switch (tier) {
    case SwitchTier::Leaf: return "leaf";
    case SwitchTier::Spine: return "spine";
    case SwitchTier::Core: break;
    }
    return "core";
}

std::string_view toString(LinkTier tier)
{
    switch (tier) {
    case LinkTier::NodeLeaf: return "node_leaf";
    case LinkTier::LeafSpine: return "leaf_spine";
    case LinkTier::SpineCore: break;
    }
    return "spine_core";
}

bool Plan::hasErrors() const
{
    return std::any_of(findings.begin(), findings.end(),
        [](const Finding& f) { return f.severity == Severity::Error; });
}

std::string Plan::portName(const PortRef& port) const
{
    if (port.device >= devices.size())
        return "?/" + std::to_string(port.port);
    const Device& device = devices[port.device];
    std::string out = device.name;
    out += '/';
    if (device.kind != DeviceKind::Node) {
        out += std::to_string(port.port);
        return out;
    }
    out += "nic";
    out += std::to_string(port.port);
    if (std::max(spec.planes, summary.planes) > 1) {
        out += "-p";
        out += std::to_string(port.plane + 1);
    }
    return out;
}

std::pair<int, int> Plan::cageOf(const PortRef& port) const
{
    if (port.device >= devices.size() || port.port == 0)
        return { 0, 0 };
    const Device& device = devices[port.device];
    if (device.kind != DeviceKind::Switch)
        return { 0, 0 };
    const int perCage = std::max(device.portsPerCage, 1);
    const int p = port.port;
    return { (p - 1) / perCage + 1, (p - 1) % perCage + 1 };
}

} // namespace railyard::core
