// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/store/project_store.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/store/project_file_check.h"

namespace railyard::core::store {

namespace fs = std::filesystem;

namespace {

/// One schema step: brings user_version from `version - 1` to `version`.
/// Steps are applied in order, each in its own transaction; never edit a
/// released step, add a new one (and raise kSchemaVersion) instead.
struct Migration {
    int version;
    const char* sql;
};

constexpr Migration kMigrations[] = {
    { 1, R"sql(
        CREATE TABLE plans (
            id         INTEGER PRIMARY KEY,
            name       TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
            created_at TEXT NOT NULL
        );
        CREATE TABLE plan_revisions (
            id        INTEGER PRIMARY KEY,
            plan_id   INTEGER NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
            revision  INTEGER NOT NULL CHECK (revision >= 1),
            spec_json TEXT NOT NULL,
            comment   TEXT NOT NULL DEFAULT '',
            saved_at  TEXT NOT NULL,
            UNIQUE (plan_id, revision)
        );
    )sql" },
    { 2, R"sql(
        CREATE TABLE live_runs (
            id          INTEGER PRIMARY KEY,
            plan        TEXT NOT NULL,
            kind        TEXT NOT NULL CHECK (length(kind) > 0),
            started_at  TEXT NOT NULL,
            finished_at TEXT NOT NULL DEFAULT '',
            exit_status INTEGER NOT NULL,
            complete    INTEGER NOT NULL CHECK (complete IN (0, 1)),
            summary     TEXT NOT NULL DEFAULT '',
            result_json TEXT NOT NULL,
            saved_at    TEXT NOT NULL
        );
        CREATE INDEX live_runs_plan ON live_runs (plan, id);
    )sql" },
};

static_assert(std::size(kMigrations) == kSchemaVersion, "one migration per schema version");

// UTC with milliseconds, evaluated by SQLite once per statement.
constexpr const char* kNowSql = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

int primaryCode(int rc)
{
    return rc & 0xFF;
}

void removeProjectFiles(const fs::path& path)
{
    std::error_code ec;
    for (const char* suffix : { "", "-wal", "-shm", "-journal" }) {
        fs::path file = path;
        file += suffix;
        fs::remove(file, ec);
    }
}

Error planError(std::string code, const fs::path& path, const std::string& what, std::string hint = {})
{
    return Error { std::move(code), what + " in project " + quotedPath(path), path.string(), std::move(hint) };
}

Error planMissing(const fs::path& path, std::string_view name)
{
    return planError("STORE_PLAN_MISSING", path, "No plan named \"" + std::string(name) + "\"",
        "Check the name; listPlans() shows the plans in the project.");
}

} // namespace

ProjectStore::ProjectStore(fs::path path, SqliteConnection db)
    : m_path(std::move(path))
    , m_db(std::move(db))
{
}

// --- opening -----------------------------------------------------------------

Result<ProjectStore> ProjectStore::create(const fs::path& path)
{
    std::error_code ec;
    if (fs::exists(fs::symlink_status(path, ec)))
        return projectFileError("STORE_EXISTS", path, "already exists",
            "Choose another file name, or open the existing project instead.");
    const fs::path folder = path.parent_path();
    if (!folder.empty() && !fs::is_directory(folder, ec))
        return projectFileError("STORE_IO", path, "cannot be created: its folder does not exist",
            "Create the folder first, or choose another location.");

    // The schema is built in a hidden file beside `path` and moved into place
    // only when complete: a creator killed half-way (SIGKILL, power loss)
    // never leaves an empty or schema-less file at `path` that every later
    // open() would refuse as damaged.
    fs::path building = folder / ("." + path.filename().string() + ".creating-" + std::to_string(::getpid()));
    std::FILE* file = std::fopen(building.string().c_str(), "wbx");
    if (!file && errno == EEXIST) {
        removeProjectFiles(building); // left by a killed creator that had our pid
        file = std::fopen(building.string().c_str(), "wbx");
    }
    if (!file) {
        const int err = errno;
        return projectFileError("STORE_IO", path, std::string("cannot be created: ") + std::strerror(err),
            "Check that the folder is writable and the disk is not full.");
    }
    std::fclose(file);

    Status built = buildSchema(building);
    if (built)
        built = moveIntoPlace(building, path);
    if (!built) {
        removeProjectFiles(building);
        return built.errors();
    }

    SqliteConnection db;
    const int rc = db.open(sqliteFileUri(fs::absolute(path, ec).string(), "mode=rw"),
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI);
    ProjectStore store(path, std::move(db));
    if (rc != SQLITE_OK)
        return store.sqlError("open the new file");
    if (Status ready = store.configureConnection(); !ready)
        return ready.errors();
    return store;
}

Status ProjectStore::buildSchema(const fs::path& building)
{
    std::error_code ec;
    SqliteConnection db;
    const int rc = db.open(sqliteFileUri(fs::absolute(building, ec).string(), "mode=rw"),
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI);
    ProjectStore store(building, std::move(db));
    Status ready = rc == SQLITE_OK ? store.configureConnection() : Status(store.sqlError("set up the new file"));
    if (ready)
        ready = store.migrate();
    // Closing the only connection checkpoints the WAL into the file (synced:
    // synchronous=FULL) and removes -wal and -shm, so the file alone is the
    // whole project when it is moved.
    store.m_db.close();
    return ready;
}

Status ProjectStore::moveIntoPlace(const fs::path& building, const fs::path& path)
{
    // RENAME_NOREPLACE keeps create()'s promise never to overwrite: two
    // creators racing for one name cannot both succeed.
    if (::renameat2(AT_FDCWD, building.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) != 0) {
        int err = errno;
        if (err == EINVAL || err == ENOSYS) {
            // A file system without renameat2 flags: a hard link also fails
            // when `path` exists.
            err = ::link(building.c_str(), path.c_str()) == 0 ? 0 : errno;
            if (err == 0)
                ::unlink(building.c_str());
        }
        if (err == EEXIST)
            return projectFileError("STORE_EXISTS", path, "already exists",
                "Choose another file name, or open the existing project instead.");
        if (err != 0)
            return projectFileError("STORE_IO", path, std::string("cannot be created: ") + std::strerror(err),
                "Check that the folder is writable and the disk is not full.");
    }
    // The rename is durable only once the folder's entry is on disk.
    const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    if (const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return {};
}

Result<ProjectStore> ProjectStore::open(const fs::path& path)
{
    // Everything that could refuse the file is decided read-only first.
    if (Status check = inspectProjectFile(path); !check)
        return check.errors();

    std::error_code ec;
    SqliteConnection db;
    // No SQLITE_OPEN_CREATE: if the file vanished since the check, fail.
    const int rc = db.open(sqliteFileUri(fs::absolute(path, ec).string(), "mode=rw"),
        SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI);
    ProjectStore store(path, std::move(db));
    if (rc != SQLITE_OK)
        return store.sqlError("open the file");
    if (Status ready = store.configureConnection(); !ready)
        return ready.errors();
    if (Status migrated = store.migrate(); !migrated)
        return migrated.errors();
    return store;
}

Status ProjectStore::configureConnection()
{
    m_db.setBusyTimeout(kBusyTimeoutMs);
    std::string mode;
    if (const int rc = m_db.queryText("PRAGMA journal_mode = WAL", mode); rc != SQLITE_OK)
        return sqlError("switch to WAL journaling");
    if (mode != "wal")
        return projectFileError("STORE_IO", m_path,
            "cannot use SQLite's WAL journal here (journal mode stays \"" + mode + "\")",
            "Keep projects on a local disk; network file systems often lack the shared memory WAL needs.");
    // FULL: a committed save survives power loss, not just a crash.
    if (m_db.exec("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON") != SQLITE_OK)
        return sqlError("configure the connection");
    return {};
}

Status ProjectStore::migrate()
{
    std::int64_t version = 0;
    if (m_db.queryInt("PRAGMA user_version", version) != SQLITE_OK)
        return sqlError("read the schema version");
    if (version == kSchemaVersion)
        return {}; // the usual case: no write lock taken on open

    for (const Migration& step : kMigrations) {
        SqliteTransaction tx(m_db);
        if (tx.begin() != SQLITE_OK)
            return sqlError("upgrade the schema");
        // Re-read under the write lock: another process may have migrated.
        if (m_db.queryInt("PRAGMA user_version", version) != SQLITE_OK)
            return sqlError("read the schema version");
        if (version > kSchemaVersion)
            return projectFileError("STORE_NEWER_SCHEMA", m_path,
                "was written by a newer Railyard (schema " + std::to_string(version) + "; this one reads up to "
                    + std::to_string(kSchemaVersion) + ")",
                "Open it with a newer Railyard.");
        if (version >= step.version)
            continue;
        if (m_db.exec(step.sql) != SQLITE_OK)
            return sqlError("upgrade the schema to version " + std::to_string(step.version));
        std::string pragmas = "PRAGMA user_version = " + std::to_string(step.version) + ";";
        if (step.version == 1)
            pragmas += "PRAGMA application_id = " + std::to_string(kApplicationId) + ";";
        if (m_db.exec(pragmas) != SQLITE_OK || tx.commit() != SQLITE_OK)
            return sqlError("upgrade the schema to version " + std::to_string(step.version));
    }
    return {};
}

Error ProjectStore::sqlError(std::string_view action) const
{
    const int rc = m_db.extendedErrorCode();
    const std::string detail = m_db.errorMessage();
    const auto error = [&](const char* code, const std::string& why, const char* hint) {
        return Error { code, "Could not " + std::string(action) + " in project " + quotedPath(m_path) + ": " + why,
            m_path.string(), hint };
    };
    switch (primaryCode(rc)) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return error("STORE_BUSY",
            "another program kept the file locked for more than " + std::to_string(kBusyTimeoutMs / 1000) + " s",
            "Try again; if it persists, close other programs using this project.");
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return error("STORE_DAMAGED", "the file is damaged (SQLite: \"" + detail + "\")",
            "Restore the project from a backup.");
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
        return error("STORE_IO", detail,
            "Check that the disk is not full and that the file and its folder are writable.");
    default:
        return error("STORE_INTERNAL", "SQLite error " + std::to_string(rc) + " (\"" + detail + "\")",
            "Please report this as a Railyard bug.");
    }
}

// --- plans -------------------------------------------------------------------

Status ProjectStore::validatePlanName(std::string_view name)
{
    const auto bad = [&](const std::string& why) {
        return Error { "STORE_PLAN_NAME", "Plan name \"" + std::string(name) + "\" " + why, std::string(name),
            "Use a short name without leading or trailing spaces, e.g. \"4 SU, NDR\"." };
    };
    if (name.empty())
        return Error { "STORE_PLAN_NAME", "A plan name must not be empty", {}, "Give the plan a name." };
    if (name.size() > kMaxPlanNameBytes)
        return bad("is too long (" + std::to_string(name.size()) + " bytes; at most "
            + std::to_string(kMaxPlanNameBytes) + ")");
    for (const char c : name) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F)
            return bad("contains a control character");
    }
    if (name.front() == ' ' || name.back() == ' ')
        return bad("starts or ends with a space");
    return {};
}

Result<std::int64_t> ProjectStore::findPlanId(std::string_view name) const
{
    SqliteStatement stmt;
    if (m_db.prepare("SELECT id FROM plans WHERE name = ?1", stmt) != SQLITE_OK || stmt.bind(1, name) != SQLITE_OK)
        return sqlError("look up a plan");
    const int rc = stmt.step();
    if (rc == SQLITE_ROW)
        return stmt.columnInt(0);
    if (rc == SQLITE_DONE)
        return planMissing(m_path, name);
    return sqlError("look up a plan");
}

Result<std::vector<PlanSummary>> ProjectStore::listPlans() const
{
    SqliteStatement stmt;
    const char* sql = R"sql(
        SELECT p.name, max(r.revision), count(*), p.created_at,
               (SELECT saved_at FROM plan_revisions WHERE plan_id = p.id ORDER BY revision DESC LIMIT 1)
        FROM plans p JOIN plan_revisions r ON r.plan_id = p.id
        GROUP BY p.id
        ORDER BY p.name
    )sql";
    if (m_db.prepare(sql, stmt) != SQLITE_OK)
        return sqlError("list the plans");
    std::vector<PlanSummary> plans;
    int rc = SQLITE_OK;
    while ((rc = stmt.step()) == SQLITE_ROW) {
        plans.push_back(PlanSummary { stmt.columnText(0), static_cast<int>(stmt.columnInt(1)),
            static_cast<int>(stmt.columnInt(2)), stmt.columnText(3), stmt.columnText(4) });
    }
    if (rc != SQLITE_DONE)
        return sqlError("list the plans");
    return plans;
}

Result<int> ProjectStore::savePlan(std::string_view name, std::string_view specJson, std::string_view comment)
{
    if (Status valid = validatePlanName(name); !valid)
        return valid.errors();
    const std::string action = "save plan \"" + std::string(name) + "\"";

    SqliteTransaction tx(m_db);
    if (tx.begin() != SQLITE_OK)
        return sqlError(action);

    std::int64_t planId = 0;
    if (Result<std::int64_t> found = findPlanId(name); found) {
        planId = *found;
    } else if (found.error().code != "STORE_PLAN_MISSING") {
        return found.errors();
    } else {
        SqliteStatement insert;
        const std::string sql = std::string("INSERT INTO plans (name, created_at) VALUES (?1, ") + kNowSql + ")";
        if (m_db.prepare(sql, insert) != SQLITE_OK || insert.bind(1, name) != SQLITE_OK
            || insert.step() != SQLITE_DONE)
            return sqlError(action);
        planId = m_db.lastInsertRowId();
    }

    // The write lock is held since BEGIN IMMEDIATE, so max() + 1 cannot race.
    SqliteStatement next;
    if (m_db.prepare("SELECT coalesce(max(revision), 0) + 1 FROM plan_revisions WHERE plan_id = ?1", next) != SQLITE_OK
        || next.bind(1, planId) != SQLITE_OK || next.step() != SQLITE_ROW)
        return sqlError(action);
    const int revision = static_cast<int>(next.columnInt(0));
    next = SqliteStatement();

    SqliteStatement insert;
    const std::string sql = std::string("INSERT INTO plan_revisions (plan_id, revision, spec_json, comment, saved_at) "
                                        "VALUES (?1, ?2, ?3, ?4, ")
        + kNowSql + ")";
    if (m_db.prepare(sql, insert) != SQLITE_OK || insert.bind(1, planId) != SQLITE_OK
        || insert.bind(2, std::int64_t { revision }) != SQLITE_OK || insert.bind(3, specJson) != SQLITE_OK
        || insert.bind(4, comment) != SQLITE_OK || insert.step() != SQLITE_DONE)
        return sqlError(action);
    insert = SqliteStatement(); // a pending statement would block COMMIT
    if (tx.commit() != SQLITE_OK)
        return sqlError(action);
    return revision;
}

Result<PlanRevision> ProjectStore::loadPlan(std::string_view name, std::optional<int> revision) const
{
    const std::string action = "load plan \"" + std::string(name) + "\"";
    SqliteStatement stmt;
    const char* sql = revision ? R"sql(
            SELECT r.revision, r.spec_json, r.comment, r.saved_at
            FROM plan_revisions r JOIN plans p ON p.id = r.plan_id
            WHERE p.name = ?1 AND r.revision = ?2)sql"
                               : R"sql(
            SELECT r.revision, r.spec_json, r.comment, r.saved_at
            FROM plan_revisions r JOIN plans p ON p.id = r.plan_id
            WHERE p.name = ?1 ORDER BY r.revision DESC LIMIT 1)sql";
    if (m_db.prepare(sql, stmt) != SQLITE_OK || stmt.bind(1, name) != SQLITE_OK
        || (revision && stmt.bind(2, std::int64_t { *revision }) != SQLITE_OK))
        return sqlError(action);
    const int rc = stmt.step();
    if (rc == SQLITE_ROW)
        return PlanRevision { std::string(name), static_cast<int>(stmt.columnInt(0)), stmt.columnText(1),
            stmt.columnText(2), stmt.columnText(3) };
    if (rc != SQLITE_DONE)
        return sqlError(action);

    // No row: say whether the plan or just that revision is missing.
    Result<std::vector<RevisionInfo>> existing = revisions(name);
    if (!existing)
        return existing.errors();
    const std::string have = existing->empty()
        ? std::string("none")
        : std::to_string(existing->front().revision) + " to " + std::to_string(existing->back().revision);
    return planError("STORE_REVISION_MISSING", m_path,
        "Plan \"" + std::string(name) + "\" has no revision " + std::to_string(revision.value_or(0))
            + " (it has revisions " + have + ")",
        "Load one of the revisions that exist, or omit the revision to load the latest.");
}

Result<std::vector<RevisionInfo>> ProjectStore::revisions(std::string_view name) const
{
    Result<std::int64_t> planId = findPlanId(name);
    if (!planId)
        return planId.errors();
    SqliteStatement stmt;
    const char* sql = "SELECT revision, comment, saved_at, length(CAST(spec_json AS BLOB)) "
                      "FROM plan_revisions WHERE plan_id = ?1 ORDER BY revision";
    if (m_db.prepare(sql, stmt) != SQLITE_OK || stmt.bind(1, *planId) != SQLITE_OK)
        return sqlError("list the revisions of plan \"" + std::string(name) + "\"");
    std::vector<RevisionInfo> result;
    int rc = SQLITE_OK;
    while ((rc = stmt.step()) == SQLITE_ROW)
        result.push_back(
            RevisionInfo { static_cast<int>(stmt.columnInt(0)), stmt.columnText(1), stmt.columnText(2), stmt.columnInt(3) });
    if (rc != SQLITE_DONE)
        return sqlError("list the revisions of plan \"" + std::string(name) + "\"");
    return result;
}

Status ProjectStore::renamePlan(std::string_view from, std::string_view to)
{
    if (Status valid = validatePlanName(to); !valid)
        return valid;
    const std::string action = "rename plan \"" + std::string(from) + "\"";
    SqliteTransaction tx(m_db);
    if (tx.begin() != SQLITE_OK)
        return sqlError(action);
    Result<std::int64_t> planId = findPlanId(from);
    if (!planId)
        return planId.errors();
    if (from == to)
        return {};
    if (Result<std::int64_t> taken = findPlanId(to); taken)
        return planError("STORE_PLAN_EXISTS", m_path, "A plan named \"" + std::string(to) + "\" already exists",
            "Choose another name, or delete that plan first.");
    else if (taken.error().code != "STORE_PLAN_MISSING")
        return taken.errors();

    SqliteStatement stmt;
    if (m_db.prepare("UPDATE plans SET name = ?1 WHERE id = ?2", stmt) != SQLITE_OK || stmt.bind(1, to) != SQLITE_OK
        || stmt.bind(2, *planId) != SQLITE_OK || stmt.step() != SQLITE_DONE)
        return sqlError(action);
    stmt = SqliteStatement();
    if (tx.commit() != SQLITE_OK)
        return sqlError(action);
    return {};
}

Status ProjectStore::deletePlan(std::string_view name)
{
    const std::string action = "delete plan \"" + std::string(name) + "\"";
    SqliteTransaction tx(m_db);
    if (tx.begin() != SQLITE_OK)
        return sqlError(action);
    Result<std::int64_t> planId = findPlanId(name);
    if (!planId)
        return planId.errors();
    // Revisions first, explicitly: correct even without foreign_keys = ON.
    for (const char* sql : { "DELETE FROM plan_revisions WHERE plan_id = ?1", "DELETE FROM plans WHERE id = ?1" }) {
        SqliteStatement stmt;
        if (m_db.prepare(sql, stmt) != SQLITE_OK || stmt.bind(1, *planId) != SQLITE_OK
            || stmt.step() != SQLITE_DONE)
            return sqlError(action);
    }
    if (tx.commit() != SQLITE_OK)
        return sqlError(action);
    return {};
}

Result<std::int64_t> ProjectStore::saveRun(const RunRecord& run)
{
    const std::string action = "save the " + (run.kind.empty() ? std::string("run") : run.kind + " run");
    const std::string_view json = run.resultJson;
    const auto first = json.find_first_not_of(" \t\r\n");
    const auto last = json.find_last_not_of(" \t\r\n");
    if (run.kind.empty() || first == std::string_view::npos || json[first] != '{' || json[last] != '}')
        return Error { "STORE_RUN_INVALID",
            "Could not " + action + " in project " + quotedPath(m_path) + ": "
                + (run.kind.empty() ? "the run has no kind" : "its result is not a JSON object"),
            m_path.string(), "" };
    SqliteTransaction tx(m_db);
    if (tx.begin() != SQLITE_OK)
        return sqlError(action);
    SqliteStatement insert;
    const std::string sql = std::string("INSERT INTO live_runs (plan, kind, started_at, finished_at, exit_status, complete, "
                                        "summary, result_json, saved_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ")
        + kNowSql + ")";
    if (m_db.prepare(sql, insert) != SQLITE_OK || insert.bind(1, run.plan) != SQLITE_OK || insert.bind(2, run.kind) != SQLITE_OK
        || insert.bind(3, run.startedAt) != SQLITE_OK || insert.bind(4, run.finishedAt) != SQLITE_OK
        || insert.bind(5, std::int64_t { run.exitStatus }) != SQLITE_OK
        || insert.bind(6, std::int64_t { run.complete ? 1 : 0 }) != SQLITE_OK || insert.bind(7, run.summary) != SQLITE_OK
        || insert.bind(8, run.resultJson) != SQLITE_OK || insert.step() != SQLITE_DONE)
        return sqlError(action);
    const std::int64_t id = m_db.lastInsertRowId();
    insert = SqliteStatement();
    if (tx.commit() != SQLITE_OK)
        return sqlError(action);
    return id;
}

Result<std::vector<RunInfo>> ProjectStore::listRuns(std::optional<std::string_view> plan) const
{
    SqliteStatement stmt;
    const char* sql = plan ? "SELECT id, plan, kind, started_at, finished_at, exit_status, complete, summary, length(result_json) "
                             "FROM live_runs WHERE plan = ?1 ORDER BY id"
                           : "SELECT id, plan, kind, started_at, finished_at, exit_status, complete, summary, length(result_json) "
                             "FROM live_runs ORDER BY id";
    if (m_db.prepare(sql, stmt) != SQLITE_OK || (plan && stmt.bind(1, *plan) != SQLITE_OK))
        return sqlError("list the runs");
    std::vector<RunInfo> out;
    int rc;
    while ((rc = stmt.step()) == SQLITE_ROW)
        out.push_back(RunInfo { stmt.columnInt(0), stmt.columnText(1), stmt.columnText(2), stmt.columnText(3),
            stmt.columnText(4), static_cast<int>(stmt.columnInt(5)), stmt.columnInt(6) != 0, stmt.columnText(7),
            stmt.columnInt(8) });
    if (rc != SQLITE_DONE)
        return sqlError("list the runs");
    return out;
}

Result<RunRecord> ProjectStore::loadRun(std::int64_t id) const
{
    const std::string action = "load run " + std::to_string(id);
    SqliteStatement stmt;
    if (m_db.prepare("SELECT id, plan, kind, started_at, finished_at, exit_status, complete, summary, result_json "
                     "FROM live_runs WHERE id = ?1",
            stmt)
            != SQLITE_OK
        || stmt.bind(1, id) != SQLITE_OK)
        return sqlError(action);
    const int rc = stmt.step();
    if (rc == SQLITE_DONE)
        return Error { "STORE_RUN_MISSING", "Project " + quotedPath(m_path) + " has no run " + std::to_string(id),
            m_path.string(), "List the runs to see their numbers." };
    if (rc != SQLITE_ROW)
        return sqlError(action);
    return RunRecord { stmt.columnInt(0), stmt.columnText(1), stmt.columnText(2), stmt.columnText(3), stmt.columnText(4),
        static_cast<int>(stmt.columnInt(5)), stmt.columnInt(6) != 0, stmt.columnText(7), stmt.columnText(8) };
}

Status ProjectStore::deleteRun(std::int64_t id)
{
    const std::string action = "delete run " + std::to_string(id);
    SqliteTransaction tx(m_db);
    if (tx.begin() != SQLITE_OK)
        return sqlError(action);
    SqliteStatement stmt;
    if (m_db.prepare("DELETE FROM live_runs WHERE id = ?1", stmt) != SQLITE_OK || stmt.bind(1, id) != SQLITE_OK
        || stmt.step() != SQLITE_DONE)
        return sqlError(action);
    const bool gone = m_db.changes() > 0;
    stmt = SqliteStatement();
    if (!gone)
        return Error { "STORE_RUN_MISSING", "Project " + quotedPath(m_path) + " has no run " + std::to_string(id),
            m_path.string(), "List the runs to see their numbers." };
    if (tx.commit() != SQLITE_OK)
        return sqlError(action);
    return {};
}

} // namespace railyard::core::store
