// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Small plans and helpers for the emulator tests.
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/plan_spec.h"
#include "planner/planner.h"
#include "tests/live/temp_dir.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace railyard::simtest {

namespace fs = std::filesystem;

/// 8 DGX H100 nodes in 2 SUs of 4 (two leaves per rail, so leaves have uplinks), NDR.
inline constexpr const char* kIbSpec = R"({ "name": "sim test IB", "fabric": "infiniband", "nodes": 8,
  "node_type": "dgx-h100", "link": { "generation": "NDR", "width": 4 }, "su_size": 4,
  "oversubscription": { "leaf": "1:1", "spine": "1:1" } })";

/// The same shape on RoCEv2 at 400G with the lossless profile (PFC on priority 3, ECN, DCQCN).
inline constexpr const char* kRoceSpec = R"({ "name": "sim test RoCE", "fabric": "rocev2", "nodes": 8,
  "node_type": "hgx-8gpu-400g", "link": { "speed_gbps": 400, "lanes": 4 }, "su_size": 4,
  "oversubscription": { "leaf": "1:1", "spine": "1:1" },
  "lossless": { "mode": "lossless", "pfc_priority": 3, "ecn": true, "dcqcn": true, "trust": "dscp" } })";

struct PlannedFabric {
    core::Catalog catalog;
    core::Plan plan;
};

inline PlannedFabric planOf(const char* specText)
{
    auto catalog = core::Catalog::builtin();
    EXPECT_TRUE(catalog);
    auto spec = core::parsePlanSpecText(specText, "test.plan.json");
    EXPECT_TRUE(spec) << (spec ? "" : spec.error().toString());
    auto plan = planner::makePlan(*spec, *catalog);
    EXPECT_TRUE(plan) << (plan ? "" : plan.error().toString());
    return { std::move(*catalog), std::move(*plan) };
}

inline std::string readText(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// The first line of a file, without its newline.
inline std::string firstLine(const fs::path& path)
{
    std::string text = readText(path);
    return text.substr(0, text.find('\n'));
}

inline std::uint64_t number(const fs::path& path)
{
    return std::strtoull(firstLine(path).c_str(), nullptr, 10);
}

using live::test::TempDir;

} // namespace railyard::simtest
