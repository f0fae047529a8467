// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Shared by the network intent tests (addressing, switch and host configuration): the RoCEv2
// 2-SU fixture, fixture files and golden files.
#pragma once

#include "planner/addressing.h"
#include "planner_test_util.h"

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace railyard::test {

inline std::string fixturePath(const std::string& name)
{
    return std::string(RAILYARD_TEST_DATA_DIR) + "/" + name;
}

inline std::string readFixture(const std::string& name)
{
    std::ifstream in(fixturePath(name), std::ios::binary);
    EXPECT_TRUE(in) << "missing fixture " << name;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// tests/fixtures/intent/roce-2su.plan.json: 4 nodes of 2 rails, 2 SUs, p2p31 in 10.0.0.0/24.
inline core::PlanSpec intentSpec()
{
    auto r = core::parsePlanSpecText(readFixture("intent/roce-2su.plan.json"), "roce-2su.plan.json");
    if (!r) {
        ADD_FAILURE() << r.error().toString();
        return {};
    }
    return std::move(r).value();
}

/// The lines of a text (LF), without the line ends.
inline std::vector<std::string> csvRows(const std::string& text)
{
    std::vector<std::string> rows;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        rows.push_back(line);
    return rows;
}

/// Compares `text` with the golden file tests/fixtures/intent/<name>. A golden file is updated by
/// hand (RAILYARD_WRITE_GOLDEN=1 writes <name>.new beside it to diff and copy), never by the test.
inline void expectGolden(const std::string& text, const std::string& name)
{
    const std::string golden = readFixture("intent/" + name);
    EXPECT_EQ(text, golden) << "differs from tests/fixtures/intent/" << name;
    if (text != golden && std::getenv("RAILYARD_WRITE_GOLDEN")) {
        std::ofstream out(fixturePath("intent/" + name + ".new"), std::ios::binary);
        out << text;
    }
}

} // namespace railyard::test
