// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/field_reader.h"
#include "core/plan.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

// Internal to railyard_core: the small parts of the plan document (summary, analysis,
// findings) in both directions, shared by plan_json.cpp (writer) and plan_json_read.cpp.
namespace railyard::core::detail {

/// "dac", "acc", "aoc", "mmf", "smf" (interfaces.md §3 `cables[].type`).
std::string_view mediumName(Medium medium);
std::optional<Medium> mediumFromName(std::string_view name);
std::optional<Severity> severityFromName(std::string_view name);
std::optional<SwitchTier> switchTierFromName(std::string_view name);
std::optional<LinkTier> linkTierFromName(std::string_view name);

nlohmann::json analysisJson(const Analysis& analysis);

/// Readers: report problems to `r` with paths under `path` ("summary", "findings[3]").
Summary readSummary(FieldReader& r, const nlohmann::json& v, Fabric fabric);
Analysis readAnalysis(FieldReader& r, const nlohmann::json& v);
Finding readFinding(FieldReader& r, const nlohmann::json& v, const std::string& path);

/// Members of one row: a missing member is reported as required; absent optional members give nullopt.
std::optional<long long> memberInt(FieldReader& r, const nlohmann::json& obj, const std::string& path,
    const char* key, bool required = true);
std::optional<double> memberNumber(FieldReader& r, const nlohmann::json& obj, const std::string& path,
    const char* key, bool required = true);
std::optional<std::string> memberString(FieldReader& r, const nlohmann::json& obj, const std::string& path,
    const char* key, bool required = true);
std::optional<bool> memberBool(FieldReader& r, const nlohmann::json& obj, const std::string& path,
    const char* key, bool required = true);

} // namespace railyard::core::detail
