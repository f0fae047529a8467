// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "planner/sizing.h"

#include <cstdint>
#include <stop_token>
#include <vector>

namespace railyard::planner {

/// Where each kind of device starts in Plan::devices, and the index arithmetic of the layout:
/// nodes, management ports, leaves (plane, SU, rail, leaf), spines (plane, group, j), cores (plane, c).
struct DeviceLayout {
    std::uint32_t firstMgmt = 0;
    std::uint32_t firstLeaf = 0;
    std::uint32_t firstSpine = 0;
    std::uint32_t firstCore = 0;
    std::uint32_t end = 0;

    std::uint32_t leaf(const Shape& s, int plane, int su, int rail, int l) const
    {
        return firstLeaf + static_cast<std::uint32_t>(((plane * s.suCount + su) * s.rails + rail) * s.leavesPerRail + l);
    }
    std::uint32_t spine(const Shape& s, int plane, int group, int j) const
    {
        return firstSpine + static_cast<std::uint32_t>((plane * s.groupsPerPlane() + group) * s.spinesPerGroup + j);
    }
    std::uint32_t core(const Shape& s, int plane, int c) const
    {
        return firstCore + static_cast<std::uint32_t>(plane * s.coresPerPlane + c);
    }
};

/// Creates every device and link of the fabric: the port-to-port cable map. Node n of SU s
/// plugs NIC k into port (n mod SU size)+1 of the rail-k leaf of SU s; leaf uplinks take the
/// ports after the node ports, a block of consecutive ports per spine; management ports take
/// the highest free node port of the leaves of SU 1 on (round robin over the leaves).
/// Media and lengths are filled in later (media.h). Returns false when stopped.
bool buildFabric(const core::PlanSpec& spec, const Parts& parts, const Shape& shape, core::Plan& plan, DeviceLayout& layout,
    std::vector<core::Finding>& findings, std::stop_token stop);

} // namespace railyard::planner
