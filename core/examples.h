// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::core {

/// A plan spec compiled into the program (resources/examples/<name>.plan.json).
struct Example {
    std::string name;   ///< file name without ".plan.json", e.g. "dgx-h100-superpod-4su"
    std::string path;   ///< "examples/dgx-h100-superpod-4su.plan.json"
    std::string_view content;
    std::string title;  ///< the spec's `name`: the design it reproduces
};

/// The example shown in the README and used when nothing else is given.
inline constexpr std::string_view kDefaultExample = "dgx-h100-superpod-4su";

/// Every built-in example, sorted by name.
std::vector<Example> builtinExamples();
/// The example called `name`, or nullopt.
std::optional<Example> findExample(std::string_view name);

} // namespace railyard::core
