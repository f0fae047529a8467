// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What revision r of plan "cluster" holds in the app crash-safety test (test_project_kill.cpp) and
// in the program it kills (project_saver.cpp): both sides compute it, so any revision found in a
// file can be checked byte for byte without the killed program having reported it.
#pragma once

#include "core/examples.h"
#include "core/plan_spec.h"

#include <string>

namespace railyard::test::saver {

inline constexpr const char* kPlan = "cluster";

/// The spec of revision r: the default example with 32 * r nodes.
inline core::PlanSpec specOf(int revision)
{
    const auto example = core::findExample(core::kDefaultExample);
    auto spec = core::parsePlanSpecText(example->content, example->path).value();
    spec.nodes = 32 * revision;
    return spec;
}

/// The comment of revision r: 256 KiB that differ from revision to revision and from byte to
/// byte, so that a save writes many pages (the kills land in it) and a torn one cannot match.
inline std::string commentOf(int revision)
{
    std::string text = "revision " + std::to_string(revision) + ":";
    text.reserve(256 * 1024);
    unsigned state = 2166136261u ^ static_cast<unsigned>(revision);
    while (text.size() < 256 * 1024) {
        state = state * 16777619u + 12345u;
        text += static_cast<char>('a' + (state >> 24) % 26);
    }
    return text;
}

} // namespace railyard::test::saver
