// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/store/telemetry_store.h"

#include <sqlite3.h>

#include <cstring>
#include <system_error>

namespace railyard::core::store {

namespace fs = std::filesystem;

namespace {

    constexpr const char* kSchema = R"sql(
        CREATE TABLE IF NOT EXISTS series (
            id     INTEGER PRIMARY KEY,
            name   TEXT NOT NULL,
            metric TEXT NOT NULL,
            UNIQUE (name, metric)
        );
        CREATE TABLE IF NOT EXISTS samples (
            series_id INTEGER NOT NULL,
            ms        INTEGER NOT NULL,
            value     REAL NOT NULL,
            PRIMARY KEY (series_id, ms)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS samples_10s (
            series_id INTEGER NOT NULL,
            ms        INTEGER NOT NULL,
            mean      REAL NOT NULL,
            max       REAL NOT NULL,
            n         INTEGER NOT NULL,
            PRIMARY KEY (series_id, ms)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS samples_60s (
            series_id INTEGER NOT NULL,
            ms        INTEGER NOT NULL,
            mean      REAL NOT NULL,
            max       REAL NOT NULL,
            n         INTEGER NOT NULL,
            PRIMARY KEY (series_id, ms)
        ) WITHOUT ROWID;
    )sql";

    std::string quoted(const fs::path& p)
    {
        return "\"" + p.string() + "\"";
    }

    Error foreign(const fs::path& path, const std::string& why)
    {
        return Error { "TELEMETRY_FOREIGN", "Telemetry database " + quoted(path) + " " + why, path.string(),
            "Give another file (a Railyard telemetry database, or a new name); this one has not been changed." };
    }

    /// Reads application_id and user_version without writing anything (the file may be someone else's).
    Status inspect(const fs::path& path)
    {
        SqliteConnection db;
        std::error_code ec;
        if (db.open(sqliteFileUri(fs::absolute(path, ec).string(), "mode=ro"), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI)
            != SQLITE_OK)
            return foreign(path, "cannot be read as SQLite: " + db.errorMessage());
        std::int64_t app = 0, version = 0, tables = 0;
        if (db.queryInt("PRAGMA application_id", app) != SQLITE_OK || db.queryInt("PRAGMA user_version", version) != SQLITE_OK
            || db.queryInt("SELECT count(*) FROM sqlite_schema", tables) != SQLITE_OK)
            return foreign(path, "is not an SQLite database (" + db.errorMessage() + ")");
        if (app == 0 && version == 0 && tables == 0)
            return {}; // an empty database: ours to set up
        if (static_cast<std::uint32_t>(app) != kTelemetryApplicationId)
            return foreign(path, "is not a Railyard telemetry database (application_id " + std::to_string(app) + ")");
        if (version > kTelemetrySchemaVersion)
            return foreign(path, "was written by a newer Railyard (schema " + std::to_string(version) + ")");
        return {};
    }

} // namespace

TelemetryStore::TelemetryStore(fs::path path, SqliteConnection db, Retention retention)
    : m_path(std::move(path))
    , m_db(std::move(db))
    , m_retention(retention)
{
}

Result<TelemetryStore> TelemetryStore::open(const fs::path& path, Retention retention)
{
    std::error_code ec;
    const bool exists = fs::exists(path, ec);
    if (exists) {
        if (!fs::is_regular_file(path, ec))
            return foreign(path, "is not a file");
        if (fs::file_size(path, ec) > 0)
            if (Status ok = inspect(path); !ok)
                return ok.errors();
    } else if (!path.parent_path().empty() && !fs::is_directory(path.parent_path(), ec)) {
        return Error { "TELEMETRY_IO", "Telemetry database " + quoted(path) + " cannot be created: its folder does not exist",
            path.string(), "Create the folder, or give another path." };
    }
    SqliteConnection db;
    if (db.open(sqliteFileUri(fs::absolute(path, ec).string(), "mode=rwc"),
            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI)
        != SQLITE_OK)
        return Error { "TELEMETRY_IO", "Telemetry database " + quoted(path) + " cannot be opened: " + db.errorMessage(),
            path.string(), "Check that the folder is writable and the disk is not full." };
    TelemetryStore store(path, std::move(db), retention);
    const std::string setup = "PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; "
                              "PRAGMA application_id = "
        + std::to_string(kTelemetryApplicationId) + "; PRAGMA user_version = " + std::to_string(kTelemetrySchemaVersion) + ";";
    if (store.m_db.exec(setup) != SQLITE_OK || store.m_db.exec(kSchema) != SQLITE_OK)
        return store.sqlError("set up");
    return store;
}

Error TelemetryStore::sqlError(std::string_view action) const
{
    return Error { "TELEMETRY_IO",
        "Telemetry database " + quoted(m_path) + ": could not " + std::string(action) + ": " + m_db.errorMessage(),
        m_path.string(), "Check that the disk is not full and that no other program holds the file." };
}

Result<std::int64_t> TelemetryStore::seriesId(const std::string& series, const std::string& metric)
{
    const auto key = std::make_pair(series, metric);
    if (const auto it = m_ids.find(key); it != m_ids.end())
        return it->second;
    SqliteStatement insert;
    if (m_db.prepare("INSERT INTO series (name, metric) VALUES (?1, ?2) ON CONFLICT (name, metric) DO NOTHING", insert)
            != SQLITE_OK
        || insert.bind(1, series) != SQLITE_OK || insert.bind(2, metric) != SQLITE_OK || insert.step() != SQLITE_DONE)
        return sqlError("add a series");
    SqliteStatement find;
    if (m_db.prepare("SELECT id FROM series WHERE name = ?1 AND metric = ?2", find) != SQLITE_OK
        || find.bind(1, series) != SQLITE_OK || find.bind(2, metric) != SQLITE_OK || find.step() != SQLITE_ROW)
        return sqlError("find a series");
    const std::int64_t id = find.columnInt(0);
    m_ids.emplace(key, id);
    return id;
}

Status TelemetryStore::append(std::int64_t timestampMs, const std::vector<TelemetrySample>& samples)
{
    {
        SqliteTransaction tx(m_db);
        if (tx.begin() != SQLITE_OK)
            return sqlError("store a sweep");
        SqliteStatement insert;
        if (m_db.prepare("INSERT OR REPLACE INTO samples (series_id, ms, value) VALUES (?1, ?2, ?3)", insert) != SQLITE_OK)
            return sqlError("store a sweep");
        for (const TelemetrySample& s : samples) {
            Result<std::int64_t> id = seriesId(s.series, s.metric);
            if (!id)
                return id.errors();
            if (insert.bind(1, *id) != SQLITE_OK || insert.bind(2, timestampMs) != SQLITE_OK || insert.bind(3, s.value) != SQLITE_OK
                || insert.step() != SQLITE_DONE || insert.reset() != SQLITE_OK)
                return sqlError("store a sweep");
        }
        insert = SqliteStatement();
        if (tx.commit() != SQLITE_OK)
            return sqlError("store a sweep");
    }
    if (m_lastCompactMs == 0)
        m_lastCompactMs = timestampMs;
    if (timestampMs - m_lastCompactMs >= 60000) {
        m_lastCompactMs = timestampMs;
        return compact(timestampMs);
    }
    return {};
}

Status TelemetryStore::compact(std::int64_t nowMs)
{
    // Cuts on bucket boundaries, so no bucket is split between two tiers.
    const std::int64_t rawCut = (nowMs - m_retention.rawMs) / 10000 * 10000;
    const std::int64_t tenCut = (nowMs - m_retention.tenSecondMs) / 60000 * 60000;
    const std::int64_t minuteCut = nowMs - m_retention.minuteMs;
    SqliteTransaction tx(m_db);
    if (tx.begin() != SQLITE_OK)
        return sqlError("downsample");
    const struct {
        const char* sql;
        std::int64_t cut;
    } steps[] = {
        { "INSERT INTO samples_10s (series_id, ms, mean, max, n) "
          "SELECT series_id, ms / 10000 * 10000, avg(value), max(value), count(*) FROM samples WHERE ms < ?1 "
          "GROUP BY series_id, ms / 10000 "
          "ON CONFLICT (series_id, ms) DO UPDATE SET mean = (mean * n + excluded.mean * excluded.n) / (n + excluded.n), "
          "max = max(max, excluded.max), n = n + excluded.n",
            rawCut },
        { "DELETE FROM samples WHERE ms < ?1", rawCut },
        { "INSERT INTO samples_60s (series_id, ms, mean, max, n) "
          "SELECT series_id, ms / 60000 * 60000, sum(mean * n) / sum(n), max(max), sum(n) FROM samples_10s WHERE ms < ?1 "
          "GROUP BY series_id, ms / 60000 "
          "ON CONFLICT (series_id, ms) DO UPDATE SET mean = (mean * n + excluded.mean * excluded.n) / (n + excluded.n), "
          "max = max(max, excluded.max), n = n + excluded.n",
            tenCut },
        { "DELETE FROM samples_10s WHERE ms < ?1", tenCut },
        { "DELETE FROM samples_60s WHERE ms < ?1", minuteCut },
    };
    for (const auto& step : steps) {
        SqliteStatement stmt;
        if (m_db.prepare(step.sql, stmt) != SQLITE_OK || stmt.bind(1, step.cut) != SQLITE_OK || stmt.step() != SQLITE_DONE)
            return sqlError("downsample");
    }
    if (tx.commit() != SQLITE_OK)
        return sqlError("downsample");
    return {};
}

Result<std::vector<TelemetryPoint>> TelemetryStore::query(std::string_view series, std::string_view metric, std::int64_t fromMs,
    std::int64_t toMs) const
{
    SqliteStatement stmt;
    // The tiers never overlap in time: compact() moves data down whole buckets.
    const char* sql = R"sql(
        WITH s AS (SELECT id FROM series WHERE name = ?1 AND metric = ?2)
        SELECT ms, mean, max, n, 60000 FROM samples_60s WHERE series_id = (SELECT id FROM s) AND ms BETWEEN ?3 AND ?4
        UNION ALL
        SELECT ms, mean, max, n, 10000 FROM samples_10s WHERE series_id = (SELECT id FROM s) AND ms BETWEEN ?3 AND ?4
        UNION ALL
        SELECT ms, value, value, 1, 0 FROM samples WHERE series_id = (SELECT id FROM s) AND ms BETWEEN ?3 AND ?4
        ORDER BY 1)sql";
    if (m_db.prepare(sql, stmt) != SQLITE_OK || stmt.bind(1, series) != SQLITE_OK || stmt.bind(2, metric) != SQLITE_OK
        || stmt.bind(3, fromMs) != SQLITE_OK || stmt.bind(4, toMs) != SQLITE_OK)
        return sqlError("read a series");
    std::vector<TelemetryPoint> out;
    int rc;
    while ((rc = stmt.step()) == SQLITE_ROW)
        out.push_back({ stmt.columnInt(0), stmt.columnDouble(1), stmt.columnDouble(2), stmt.columnInt(3),
            static_cast<int>(stmt.columnInt(4)) });
    if (rc != SQLITE_DONE)
        return sqlError("read a series");
    return out;
}

Result<std::vector<std::string>> TelemetryStore::seriesNames() const
{
    SqliteStatement stmt;
    if (m_db.prepare("SELECT DISTINCT name FROM series ORDER BY name", stmt) != SQLITE_OK)
        return sqlError("list the series");
    std::vector<std::string> out;
    int rc;
    while ((rc = stmt.step()) == SQLITE_ROW)
        out.push_back(stmt.columnText(0));
    if (rc != SQLITE_DONE)
        return sqlError("list the series");
    return out;
}

Result<std::vector<std::int64_t>> TelemetryStore::rowCounts() const
{
    std::vector<std::int64_t> out;
    for (const char* table : { "samples", "samples_10s", "samples_60s" }) {
        std::int64_t n = 0;
        if (m_db.queryInt(std::string("SELECT count(*) FROM ") + table, n) != SQLITE_OK)
            return sqlError("count the samples");
        out.push_back(n);
    }
    return out;
}

} // namespace railyard::core::store
