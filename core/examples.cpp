// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/examples.h"

#include "core/builtin_resources.h"
#include "core/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace railyard::core {

namespace {

    constexpr std::string_view kFolder = "examples";
    constexpr std::string_view kSuffix = ".plan.json";

    // The spec's free-text `name`, for the listing only; the spec itself is read by the engine.
    std::string titleOf(std::string_view content)
    {
        const nlohmann::json doc = nlohmann::json::parse(content, nullptr, false);
        if (doc.is_object() && doc.contains("name") && doc["name"].is_string())
            return doc["name"].get<std::string>();
        return {};
    }

} // namespace

std::vector<Example> builtinExamples()
{
    std::vector<Example> out;
    for (const core::BuiltinFile& file : core::builtinFilesIn(kFolder)) {
        std::string_view name = file.path.substr(kFolder.size() + 1);
        if (name.size() <= kSuffix.size() || name.substr(name.size() - kSuffix.size()) != kSuffix)
            continue;
        name.remove_suffix(kSuffix.size());
        out.push_back({ std::string(name), std::string(file.path), file.content, titleOf(file.content) });
    }
    // "…-2su" before "…-16su".
    std::sort(out.begin(), out.end(), [](const Example& a, const Example& b) { return naturalLess(a.name, b.name); });
    return out;
}

std::optional<Example> findExample(std::string_view name)
{
    for (Example& example : builtinExamples()) {
        if (example.name == name)
            return std::move(example);
    }
    return std::nullopt;
}

} // namespace railyard::core
