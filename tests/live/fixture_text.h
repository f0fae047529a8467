// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Reading the real tool outputs in ../shared/fixtures (RAILYARD_SHARED_FIXTURES_DIR) for the
// parser and reader tests, and a check on the warnings the parsers return.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace railyard::live::test {

/// The whole text of the shared fixture `name`, as stored (with its `# source:` line). A
/// missing fixture fails the test and reads as empty.
inline std::string sharedFixture(const std::string& name)
{
    const std::filesystem::path path = std::filesystem::path(RAILYARD_SHARED_FIXTURES_DIR) / name;
    std::ifstream in(path, std::ios::binary);
    EXPECT_TRUE(in) << "missing fixture " << path;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

/// Whether any of `lines` contains `part`.
inline bool anyContains(const std::vector<std::string>& lines, const std::string& part)
{
    for (const auto& line : lines)
        if (line.find(part) != std::string::npos)
            return true;
    return false;
}

} // namespace railyard::live::test
