// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/examples.h"

#include "core/builtin_resources.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

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

    // "…-2su" before "…-16su": digit runs compare as numbers.
    bool naturalLess(std::string_view a, std::string_view b)
    {
        std::size_t i = 0, j = 0;
        while (i < a.size() && j < b.size()) {
            if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
                const std::size_t ei = a.find_first_not_of("0123456789", i);
                const std::size_t ej = b.find_first_not_of("0123456789", j);
                const std::string_view na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
                if (na.size() != nb.size())
                    return na.size() < nb.size();
                if (na != nb)
                    return na < nb;
                i += na.size();
                j += nb.size();
                continue;
            }
            if (a[i] != b[j])
                return a[i] < b[j];
            ++i;
            ++j;
        }
        return a.size() - i < b.size() - j;
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
