// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/store/sqlite_connection.h"

namespace railyard::core::store {

/// `PRAGMA application_id` of every Railyard project file: 'RYDR'.
inline constexpr std::uint32_t kApplicationId = 0x52594452;
/// Newest schema (`PRAGMA user_version`) this build reads and writes.
inline constexpr int kSchemaVersion = 2;
/// How long a save or read waits for another writer before failing with STORE_BUSY.
inline constexpr int kBusyTimeoutMs = 5000;
/// Longest plan name accepted, in bytes of UTF-8.
inline constexpr std::size_t kMaxPlanNameBytes = 200;

/// One saved revision of a plan, as loadPlan() returns it.
struct PlanRevision {
    std::string name;     ///< plan name
    int revision = 0;     ///< 1, 2, ... in save order
    std::string specJson; ///< the PlanSpec JSON text, exactly as saved
    std::string comment;  ///< free text given at save time; may be empty
    std::string savedAt;  ///< UTC, ISO 8601 with milliseconds: "2026-03-01T12:34:56.789Z"
};

/// A revision without its spec text, as revisions() lists it.
struct RevisionInfo {
    int revision = 0;
    std::string comment;
    std::string savedAt;       ///< as in PlanRevision::savedAt
    std::int64_t specBytes = 0; ///< size of the stored spec text
};

/// One plan in the project, as listPlans() lists it.
struct PlanSummary {
    std::string name;
    int latestRevision = 0; ///< highest revision number
    int revisionCount = 0;  ///< number of stored revisions
    std::string createdAt;  ///< when revision 1 was saved (UTC, ISO 8601)
    std::string updatedAt;  ///< when the latest revision was saved (UTC, ISO 8601)
};

/// One stored bring-up run: a check, cabling check, watch or test against a
/// fabric, or a run imported from elsewhere, with its result document.
struct RunRecord {
    std::int64_t id = 0;      ///< set by saveRun(); 1, 2, ... in save order
    std::string plan;         ///< name of the plan it ran against (need not be stored in this project)
    std::string kind;         ///< "check", "cabling", "watch", "write_bw", "allreduce", "import:nccl-tests", ...
    std::string startedAt;    ///< UTC, ISO 8601 with milliseconds
    std::string finishedAt;   ///< likewise; empty when it did not finish
    int exitStatus = 0;       ///< the command's exit status (interfaces.md §4)
    bool complete = true;     ///< every node answered, nothing was cut short
    std::string summary;      ///< one line for lists: "rail 3 low: 61 % of the bound"
    std::string resultJson;   ///< the command's JSON document, exactly as saved
};

/// A run without its document, as listRuns() lists it.
struct RunInfo {
    std::int64_t id = 0;
    std::string plan, kind, startedAt, finishedAt;
    int exitStatus = 0;
    bool complete = true;
    std::string summary;
    std::int64_t resultBytes = 0;
};

/// A Railyard project: one SQLite file holding named plans and their
/// revisions (schema 1) and the bring-up runs made against them (schema 2).
///
/// Files: the project is one file; while it is open SQLite keeps `-wal` and
/// `-shm` files beside it (WAL journal), and removes them when the last
/// connection closes. Every save is one transaction (BEGIN IMMEDIATE ...
/// COMMIT) with synchronous=FULL: a crash loses nothing that was saved.
///
/// Refusal: open() refuses a missing, empty, non-SQLite, foreign, newer or
/// damaged file with a core::Error (codes below) whose message names the file
/// and says why, and whose hint says what to do. Such a file is inspected
/// read-only and is never modified: its bytes and mtime stay the same and no
/// `-wal`/`-shm` files are created beside it.
///
/// Error codes: STORE_MISSING, STORE_EXISTS, STORE_NOT_SQLITE (includes an
/// empty file), STORE_FOREIGN, STORE_NEWER_SCHEMA, STORE_DAMAGED, STORE_BUSY
/// (another writer held the file longer than kBusyTimeoutMs), STORE_IO (disk
/// full, permission, read-only medium), STORE_PLAN_NAME (invalid name),
/// STORE_PLAN_MISSING, STORE_PLAN_EXISTS, STORE_REVISION_MISSING,
/// STORE_RUN_INVALID, STORE_RUN_MISSING,
/// STORE_INTERNAL (anything else SQLite reports).
///
/// Concurrency: several ProjectStore objects, in one process or several, may
/// have the same file open; saves are serialized by SQLite's write lock and
/// no revision is lost. One object is not thread-safe: give each thread its
/// own (it owns exactly one SQLite connection, never shared).
class ProjectStore {
public:
    /// Creates a new, empty project at `path` (conventionally `*.railyard`).
    /// Fails with STORE_EXISTS if anything is already at `path` (never
    /// overwrites), or STORE_IO if the folder is missing or not writable. A
    /// failed create leaves nothing behind. The schema is built in a hidden
    /// `.NAME.creating-PID` file beside `path` and renamed into place when
    /// complete, so a creator killed half-way leaves no file at `path` (only
    /// that hidden file, removed by the next create() with the same pid).
    static Result<ProjectStore> create(const std::filesystem::path& path);

    /// Opens an existing project, upgrading an older schema in place (each
    /// migration in its own transaction). Fails with STORE_MISSING when there
    /// is no file, and with the refusal codes above, changing nothing.
    static Result<ProjectStore> open(const std::filesystem::path& path);

    ProjectStore(ProjectStore&&) noexcept = default;
    ProjectStore& operator=(ProjectStore&&) noexcept = default;
    ProjectStore(const ProjectStore&) = delete;
    ProjectStore& operator=(const ProjectStore&) = delete;
    ~ProjectStore() = default;

    /// The project file, as given to create() or open().
    const std::filesystem::path& path() const { return m_path; }

    /// All plans, sorted by name (byte order).
    Result<std::vector<PlanSummary>> listPlans() const;

    /// Stores `specJson` (text, kept byte for byte) as the next revision of
    /// plan `name`, creating the plan if needed, in one transaction. Returns
    /// the new revision number: 1 for a new plan, then 2, 3, ... Saving the
    /// same text twice makes two revisions. Name rules: see validatePlanName().
    Result<int> savePlan(std::string_view name, std::string_view specJson, std::string_view comment = {});

    /// Loads `revision` of plan `name`, or its latest revision when none is
    /// given. STORE_PLAN_MISSING or STORE_REVISION_MISSING when absent.
    Result<PlanRevision> loadPlan(std::string_view name, std::optional<int> revision = std::nullopt) const;

    /// The revisions of plan `name`, oldest first. STORE_PLAN_MISSING if none.
    Result<std::vector<RevisionInfo>> revisions(std::string_view name) const;

    /// Renames plan `from` to `to`, keeping its revisions. STORE_PLAN_MISSING
    /// if `from` is absent, STORE_PLAN_EXISTS if `to` is taken, STORE_PLAN_NAME
    /// if `to` is invalid. Renaming a plan to its own name succeeds.
    Status renamePlan(std::string_view from, std::string_view to);

    /// Deletes plan `name` and all its revisions. STORE_PLAN_MISSING if absent.
    Status deletePlan(std::string_view name);

    /// Stores a run (its id is ignored) in one transaction; returns its id.
    /// STORE_RUN_INVALID when `kind` is empty or `resultJson` is not a JSON
    /// object's text (checked cheaply: it must start with '{' and end with '}').
    Result<std::int64_t> saveRun(const RunRecord& run);
    /// The runs, oldest first; only those of plan `plan` when it is given.
    Result<std::vector<RunInfo>> listRuns(std::optional<std::string_view> plan = std::nullopt) const;
    /// One run with its document. STORE_RUN_MISSING when there is none.
    Result<RunRecord> loadRun(std::int64_t id) const;
    /// Deletes one run. STORE_RUN_MISSING when there is none.
    Status deleteRun(std::int64_t id);

    /// Checks a plan name: non-empty, at most kMaxPlanNameBytes, no control
    /// characters, no leading or trailing whitespace. Returns STORE_PLAN_NAME.
    static Status validatePlanName(std::string_view name);

private:
    ProjectStore(std::filesystem::path path, SqliteConnection db);

    static Status buildSchema(const std::filesystem::path& building);
    static Status moveIntoPlace(const std::filesystem::path& building, const std::filesystem::path& path);
    Status migrate();
    Status configureConnection();
    Error sqlError(std::string_view action) const;
    Result<std::int64_t> findPlanId(std::string_view name) const;

    std::filesystem::path m_path;
    // mutable: SQLite reads prepare statements on the connection; const
    // methods change no project data.
    mutable SqliteConnection m_db;
};

} // namespace railyard::core::store
