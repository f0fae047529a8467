// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "app/models/autosave_store.h"
#include "core/plan_spec.h"
#include "core/result.h"
#include "core/store/project_store.h"

#include <QObject>
#include <QString>

#include <optional>
#include <string>

namespace railyard::app {

/// Private to ProjectController: lives on the project thread and owns every SQLite
/// connection the controller uses (the open project's and the autosave's). It has no
/// signals or slots; the controller queues functors to it, and only that thread calls it.
class ProjectWorker : public QObject {
public:
    explicit ProjectWorker(QString autosaveDir);

    /// What open() found.
    struct Opened {
        std::optional<core::store::PlanRevision> latest; ///< the most recently saved plan, if any
        std::optional<core::PlanSpec> spec;              ///< `latest` parsed
        std::optional<core::Error> problem;              ///< the project opened, but its plan did not load
    };

    /// Makes `path` the open project; with `loadLatest`, loads its most recently saved
    /// plan too. On failure the project open before stays open.
    core::Result<Opened> open(const QString& path, bool loadLatest);
    /// Writes the open project (if any) with `specJson` as the next revision of `name`
    /// to `path` (see ProjectController::saveAs) and makes it the open project.
    core::Result<int> saveAs(const QString& path, const std::string& name, const std::string& specJson,
        const std::string& comment);
    /// Parses a stored spec; errors name the file, plan and revision.
    static core::Result<core::PlanSpec> parse(const core::store::PlanRevision& stored, const std::filesystem::path& file);

    std::optional<core::store::ProjectStore> store;
    AutosaveStore autosave;
};

} // namespace railyard::app
