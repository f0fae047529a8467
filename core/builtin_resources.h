// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace railyard::core {

/// A data file compiled into the program from resources/ (catalog, example plans).
struct BuiltinFile {
    std::string_view path;    ///< relative to resources/, e.g. "catalog/switches.json"
    std::string_view content;
};

/// Every embedded file, in the order CMake listed them (sorted by path).
std::span<const BuiltinFile> builtinFiles();

/// The embedded files under `folder` ("catalog", "examples"), sorted by path.
std::vector<BuiltinFile> builtinFilesIn(std::string_view folder);

} // namespace railyard::core
