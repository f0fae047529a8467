// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <optional>
#include <string_view>

namespace railyard::core {

/// The two RDMA fabric technologies Railyard plans.
enum class Fabric { InfiniBand, RoCEv2 };

/// "infiniband" or "rocev2", as in the plan spec.
std::string_view toString(Fabric fabric);
/// Accepts "infiniband"/"ib" and "rocev2"/"roce" (case-insensitive).
std::optional<Fabric> parseFabric(std::string_view text);

} // namespace railyard::core
