// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"

#include <cstdint>
#include <vector>

class QGraphicsScene;

namespace railyard::app::topo {

class BoxItem;
class WireItem;

/// What buildScene() put in the scene, and where each device and link of the plan went.
struct SceneMap {
    struct LinkRef {
        std::int32_t wire = -1;
        std::int32_t segment = -1;
    };
    std::vector<BoxItem*> boxes;
    std::vector<WireItem*> wires;
    std::vector<std::int32_t> boxOfDevice; ///< index in `boxes`, or -1
    std::vector<LinkRef> linkRef;          ///< per Plan::links entry
};

/// Draws `plan` into `scene` in layers (cores, spines, leaves, nodes), grouped by pod and
/// SU, leaves ordered by plane and rail. Expanded: an item per device and a segment per
/// connected device pair. Collapsed: a box per SU/plane/rail leaf group, per SU of nodes,
/// per spine group and per core group, with one bundle per group pair; pods wrap into a
/// grid so a 128K-GPU plan stays a few thousand items.
SceneMap buildScene(QGraphicsScene& scene, const core::Plan& plan, bool collapsed);

} // namespace railyard::app::topo
