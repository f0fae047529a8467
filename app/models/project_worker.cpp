// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/project_worker.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

namespace railyard::app {

namespace {

    namespace fs = std::filesystem;
    using core::store::ProjectStore;

    fs::path fsPath(const QString& path)
    {
        return fs::path(path.toStdU16String());
    }

    /// Writes a new project at `to` holding every plan and revision of `from` (when
    /// given) plus `specJson` as the next revision of `name`; returns that revision.
    core::Result<int> writeProjectCopy(const ProjectStore* from, const fs::path& to, const std::string& name,
        const std::string& specJson, const std::string& comment)
    {
        auto created = ProjectStore::create(to);
        if (!created)
            return created.error();
        ProjectStore& copy = *created;
        if (from) {
            auto plans = from->listPlans();
            if (!plans)
                return plans.error();
            for (const auto& plan : *plans) {
                auto revisions = from->revisions(plan.name);
                if (!revisions)
                    return revisions.error();
                for (const auto& info : *revisions) {
                    auto stored = from->loadPlan(plan.name, info.revision);
                    if (!stored)
                        return stored.error();
                    if (auto saved = copy.savePlan(plan.name, stored->specJson, stored->comment); !saved)
                        return saved.error();
                }
            }
        }
        return copy.savePlan(name, specJson, comment);
    }

    void removeSqliteFiles(const fs::path& file, bool keepFile = false)
    {
        std::error_code ignored;
        for (const char* suffix : { "", "-wal", "-shm", "-journal" }) {
            if (!keepFile || *suffix != '\0')
                fs::remove(fs::path(file.native() + suffix), ignored);
        }
    }

    bool sameFile(const fs::path& a, const fs::path& b)
    {
        std::error_code ec;
        return fs::equivalent(a, b, ec) && !ec;
    }

} // namespace

ProjectWorker::ProjectWorker(QString autosaveDir)
    : autosave(std::move(autosaveDir))
{
}

core::Result<core::PlanSpec> ProjectWorker::parse(const core::store::PlanRevision& stored, const fs::path& file)
{
    const std::string source = file.string() + ": plan \"" + stored.name + "\" revision " + std::to_string(stored.revision);
    return core::parsePlanSpecText(stored.specJson, source);
}

core::Result<ProjectWorker::Opened> ProjectWorker::open(const QString& path, bool loadLatest)
{
    auto project = ProjectStore::open(fsPath(path));
    if (!project)
        return project.error();
    store.emplace(std::move(project).value());
    Opened opened;
    if (!loadLatest)
        return opened;
    auto plans = store->listPlans();
    if (!plans) {
        opened.problem = plans.error();
        return opened;
    }
    if (plans->empty())
        return opened;
    const auto newest = std::max_element(plans->begin(), plans->end(),
        [](const auto& a, const auto& b) { return a.updatedAt < b.updatedAt; });
    auto stored = store->loadPlan(newest->name);
    if (!stored) {
        opened.problem = stored.error();
        return opened;
    }
    auto spec = parse(*stored, store->path());
    if (!spec) {
        opened.problem = spec.error();
        return opened;
    }
    opened.latest = std::move(stored).value();
    opened.spec = std::move(spec).value();
    return opened;
}

core::Result<int> ProjectWorker::saveAs(const QString& path, const std::string& name, const std::string& specJson,
    const std::string& comment)
{
    const fs::path target = fsPath(path);
    if (store && sameFile(store->path(), target))
        return store->savePlan(name, specJson, comment);
    // Written beside the target and renamed over it, so a failure leaves the target as it was.
    const fs::path temporary(target.native() + ".saving");
    removeSqliteFiles(temporary);
    auto revision = writeProjectCopy(store ? &*store : nullptr, temporary, name, specJson, comment);
    if (!revision) {
        removeSqliteFiles(temporary);
        return revision;
    }
    // A stale journal of the replaced file must not be applied to the new one.
    removeSqliteFiles(target, true);
    std::error_code ec;
    fs::rename(temporary, target, ec);
    if (ec) {
        removeSqliteFiles(temporary);
        return core::Error { "STORE_IO", "File \"" + target.string() + "\" could not be written: " + ec.message(),
            target.string(), "Choose another folder or file name." };
    }
    auto reopened = ProjectStore::open(target);
    if (!reopened)
        return reopened.error();
    store.emplace(std::move(reopened).value());
    return revision;
}

} // namespace railyard::app
