// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `--project FILE` of the live and results commands: the run and its JSON document are stored in
// the project file (core/store/project_store.h, table live_runs), so that the desktop app's
// history and `results list|show` see them.
#pragma once

#include "core/store/project_store.h"
#include "live/client/run_results.h"

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <optional>
#include <string>

namespace railyard::app::cli {

/// Where a command stores its run; opened (or created) before the command runs, so that a wrong
/// path is bad input before any work is done.
class RunStore {
public:
    /// Nothing to store when `path` is empty. Prints the error and returns nullopt when the project
    /// cannot be opened or created.
    static std::optional<RunStore> open(const std::string& path);
    bool active() const { return m_store.has_value(); }
    /// Stores the run that started at construction and ends now. Prints "stored as run N in FILE"
    /// (or the error) on stderr; false when it could not.
    bool save(const std::string& plan, const std::string& kind, int exitStatus, bool complete, const std::string& summary,
        const nlohmann::json& document);

private:
    std::optional<core::store::ProjectStore> m_store;
    std::string m_startedAt;
};

/// UTC now, ISO 8601 with milliseconds: the live library's, which the desktop app's runs use too.
using live::utcNow;

} // namespace railyard::app::cli
