// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The agent's JSON documents (`/v1/inventory`, `/v1/counters`, `/v1/health`), both ways.
// Every document carries `api_version`; readers accept older versions and refuse newer ones
// with an error that names both.
#pragma once

#include "core/result.h"
#include "live/common/inventory.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace railyard::live {

std::string_view toString(Tri value);          ///< "unknown", "off", "on"
std::string_view toString(LinkLayer value);    ///< "unknown", "InfiniBand", "Ethernet"
std::string_view toString(CounterKind value);  ///< "plain", "words4", "saturating", "wrapping32"

nlohmann::json toJson(const Inventory& inventory);     ///< with "api_version"
nlohmann::json toJson(const CounterSnapshot& counters); ///< with "api_version"

/// `where` names the source in errors ("http://127.0.0.1:9473/v1/inventory").
core::Result<Inventory> inventoryFromJson(const nlohmann::json& doc, std::string_view where);
core::Result<CounterSnapshot> countersFromJson(const nlohmann::json& doc, std::string_view where);

/// What `/v1/health` answers (no token needed): `{"api_version", "status", "node", "uptime_s"}`.
struct AgentHealth {
    std::string status = "ok";
    std::string node;
    std::int64_t uptimeSeconds = 0;
};

nlohmann::json toJson(const AgentHealth& health); ///< with "api_version"
core::Result<AgentHealth> healthFromJson(const nlohmann::json& doc, std::string_view where);

/// Accepts a document whose `api_version` is at most kApiVersion; refuses a missing, mistyped or
/// newer one with an error (code AGENT_API_VERSION) that names both versions and `where`.
core::Status checkApiVersion(const nlohmann::json& doc, std::string_view where);
/// The same for a version already read (the compact counters' header line): newer than
/// kApiVersion is refused with an error that names both versions and what to do.
core::Status checkApiVersion(std::uint64_t version, std::string_view where);

} // namespace railyard::live
