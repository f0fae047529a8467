// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/run_store.h"

#include "app/cli/inputs.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>

namespace railyard::app::cli {

std::optional<RunStore> RunStore::open(const std::string& path)
{
    RunStore out;
    out.m_startedAt = utcNow();
    if (path.empty())
        return out;
    std::error_code ec;
    auto store = std::filesystem::exists(path, ec) ? core::store::ProjectStore::open(path) : core::store::ProjectStore::create(path);
    if (!store) {
        printErrors(store.errors());
        return std::nullopt;
    }
    out.m_store = std::move(store).value();
    return out;
}

bool RunStore::save(const std::string& plan, const std::string& kind, int exitStatus, bool complete, const std::string& summary,
    const nlohmann::json& document)
{
    if (!m_store)
        return true;
    core::store::RunRecord run { 0, plan, kind, m_startedAt, utcNow(), exitStatus, complete, summary, document.dump() };
    const auto id = m_store->saveRun(run);
    if (!id) {
        printErrors(id.errors());
        return false;
    }
    std::cerr << "stored as run " << *id << " in " << m_store->path().string() << '\n';
    return true;
}

} // namespace railyard::app::cli
