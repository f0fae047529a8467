// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What the app's tests plan with: the built-in catalog (made once), a plan from spec text, the
// Live workspace tests' small fabric, and a scratch folder pattern on a RAM file system.
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/plan_spec.h"
#include "planner/planner.h"

#include <QDir>
#include <QFileInfo>
#include <QString>

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace railyard::test {

/// The built-in catalog, made once per test program.
inline std::shared_ptr<const core::Catalog> builtinCatalog()
{
    static auto c = std::make_shared<const core::Catalog>(core::Catalog::builtin().value());
    return c;
}

/// The plan of `specText` against the built-in catalog; a test failure (and an empty plan) when it
/// does not parse or plan.
inline std::shared_ptr<const core::Plan> planOfSpec(const std::string& specText)
{
    auto spec = core::parsePlanSpecText(specText, "test.plan.json");
    EXPECT_TRUE(spec) << (spec ? "" : spec.error().toString());
    if (!spec)
        return std::make_shared<const core::Plan>();
    auto made = planner::makePlan(*spec, *builtinCatalog());
    EXPECT_TRUE(made) << (made ? "" : made.error().toString());
    return made ? std::make_shared<const core::Plan>(std::move(made).value()) : std::make_shared<const core::Plan>();
}

/// The Live workspace tests' fabric, named `name`: 8 DGX H100 nodes in 2 SUs of 4 (two leaves per
/// rail, each with uplinks to the spines), NDR, full bisection; small enough to start in a second.
inline std::string liveTestSpec(const std::string& name)
{
    return R"({ "name": ")" + name + R"(", "fabric": "infiniband", "nodes": 8, "node_type": "dgx-h100",
  "link": { "generation": "NDR", "width": 4 }, "su_size": 4, "oversubscription": { "leaf": "1:1", "spine": "1:1" } })";
}

/// A QTemporaryDir pattern for `tag`: on /dev/shm where it is writable (an emulated fabric is
/// thousands of small files), else in the temp folder.
inline QString scratchPattern(const char* tag)
{
    const bool ram = QFileInfo(QStringLiteral("/dev/shm")).isWritable();
    return (ram ? QStringLiteral("/dev/shm") : QDir::tempPath()) + QStringLiteral("/railyard-%1-XXXXXX").arg(QLatin1String(tag));
}

} // namespace railyard::test
