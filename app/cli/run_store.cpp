// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/run_store.h"

#include "app/cli/inputs.h"

#include <nlohmann/json.hpp>

#include <ctime>
#include <filesystem>
#include <iostream>

namespace railyard::app::cli {

std::string utcNow()
{
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm {};
    ::gmtime_r(&t, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
        tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    return buf;
}

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
