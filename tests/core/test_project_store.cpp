// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/store/project_store.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include <sqlite3.h>

#include <gtest/gtest.h>

#include "core/store/sqlite_connection.h"
#include "tests/live/temp_dir.h"

using namespace railyard::core;
using namespace railyard::core::store;
namespace fs = std::filesystem;

namespace {

using railyard::live::test::TempDir;

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeBytes(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

fs::path withSuffix(const fs::path& path, const char* suffix)
{
    fs::path result = path;
    result += suffix;
    return result;
}

// Runs SQL on a file with a plain SQLite connection (to build test files).
void rawExec(const fs::path& path, const std::string& sql)
{
    SqliteConnection db;
    ASSERT_EQ(db.open(path.string(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE), SQLITE_OK);
    ASSERT_EQ(db.exec(sql), SQLITE_OK) << db.errorMessage();
}

std::int64_t rawInt(const fs::path& path, const std::string& sql)
{
    SqliteConnection db;
    std::int64_t value = -1;
    // Read-write: a read-only open of a WAL file would leave -wal/-shm behind.
    EXPECT_EQ(db.open(path.string(), SQLITE_OPEN_READWRITE), SQLITE_OK);
    EXPECT_EQ(db.queryInt(sql, value), SQLITE_OK) << db.errorMessage();
    return value;
}

std::string specJson(int nodes)
{
    return R"({"name":"demo","fabric":"infiniband","nodes":)" + std::to_string(nodes) + R"(,"note":"µ – ✓"})";
}

// A project with a few plans, large enough to span several pages.
void makeProject(const fs::path& path)
{
    Result<ProjectStore> store = ProjectStore::create(path);
    ASSERT_TRUE(store) << store.error().toString();
    const std::string big(6000, 'x');
    for (int i = 0; i < 8; ++i)
        ASSERT_TRUE(store->savePlan("plan " + std::to_string(i), specJson(i) + big, "seed"));
}

// Open must refuse `path` with `code`, name the file, and change nothing.
void expectRefused(const fs::path& path, const std::string& code, const std::string& because = {})
{
    const bool existed = fs::is_regular_file(path);
    const std::string before = existed ? readBytes(path) : std::string();
    const auto mtime = existed ? fs::last_write_time(path) : fs::file_time_type {};

    Result<ProjectStore> store = ProjectStore::open(path);
    ASSERT_FALSE(store) << "opened " << path;
    EXPECT_EQ(store.error().code, code) << store.error().toString();
    EXPECT_NE(store.error().message.find(path.string()), std::string::npos) << store.error().message;
    EXPECT_FALSE(store.error().hint.empty());
    if (!because.empty()) {
        EXPECT_NE(store.error().message.find(because), std::string::npos) << store.error().message;
    }

    EXPECT_EQ(fs::is_regular_file(path), existed);
    if (existed) {
        EXPECT_EQ(readBytes(path), before) << "refused file was modified";
        EXPECT_EQ(fs::last_write_time(path), mtime) << "refused file's mtime changed";
    }
    EXPECT_FALSE(fs::exists(withSuffix(path, "-wal"))) << "left a -wal file";
    EXPECT_FALSE(fs::exists(withSuffix(path, "-shm"))) << "left a -shm file";
    EXPECT_FALSE(fs::exists(withSuffix(path, "-journal"))) << "left a -journal file";
}

} // namespace

// --- round trips ---------------------------------------------------------------

TEST(ProjectStore, CreateSetsIdentityAndRefusesExistingFile)
{
    TempDir dir;
    const fs::path path = dir.file("p.railyard");
    {
        Result<ProjectStore> store = ProjectStore::create(path);
        ASSERT_TRUE(store) << store.error().toString();
        EXPECT_EQ(store->path(), path);
        Result<std::vector<PlanSummary>> plans = store->listPlans();
        ASSERT_TRUE(plans);
        EXPECT_TRUE(plans->empty());
    }
    EXPECT_FALSE(fs::exists(withSuffix(path, "-wal"))) << "WAL not cleaned up on close";
    EXPECT_FALSE(fs::exists(withSuffix(path, "-shm")));
    EXPECT_EQ(rawInt(path, "PRAGMA application_id"), 0x52594452);
    EXPECT_EQ(rawInt(path, "PRAGMA user_version"), kSchemaVersion);

    const std::string before = readBytes(path);
    Result<ProjectStore> again = ProjectStore::create(path);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().code, "STORE_EXISTS");
    EXPECT_NE(again.error().message.find(path.string()), std::string::npos);
    EXPECT_EQ(readBytes(path), before);

    Result<ProjectStore> noFolder = ProjectStore::create(dir.file("missing-folder") / "p.railyard");
    ASSERT_FALSE(noFolder);
    EXPECT_EQ(noFolder.error().code, "STORE_IO");
    EXPECT_FALSE(fs::exists(dir.file("missing-folder")));
}

TEST(ProjectStore, RoundTripOfPlansAndRevisionsSurvivesReopen)
{
    TempDir dir;
    const fs::path path = dir.file("round trip #1?.railyard"); // URI-reserved characters in the name
    const std::string exotic = std::string("{\"text\":\"tab\\t, NUL-free, ünïcødé ✓\"}\n  ") + std::string(100000, 'y');
    {
        Result<ProjectStore> store = ProjectStore::create(path);
        ASSERT_TRUE(store) << store.error().toString();
        for (int i = 1; i <= 3; ++i) {
            Result<int> rev = store->savePlan("alpha", specJson(i), "alpha v" + std::to_string(i));
            ASSERT_TRUE(rev) << rev.error().toString();
            EXPECT_EQ(*rev, i);
        }
        Result<int> beta = store->savePlan("beta", exotic);
        ASSERT_TRUE(beta);
        EXPECT_EQ(*beta, 1);
        ASSERT_TRUE(store->savePlan("Gamma", specJson(7), "upper case sorts first"));
    }

    Result<ProjectStore> store = ProjectStore::open(path);
    ASSERT_TRUE(store) << store.error().toString();

    Result<std::vector<PlanSummary>> plans = store->listPlans();
    ASSERT_TRUE(plans);
    ASSERT_EQ(plans->size(), 3u);
    EXPECT_EQ((*plans)[0].name, "Gamma");
    EXPECT_EQ((*plans)[1].name, "alpha");
    EXPECT_EQ((*plans)[1].latestRevision, 3);
    EXPECT_EQ((*plans)[1].revisionCount, 3);
    EXPECT_LE((*plans)[1].createdAt, (*plans)[1].updatedAt);
    EXPECT_EQ((*plans)[2].name, "beta");

    Result<PlanRevision> latest = store->loadPlan("alpha");
    ASSERT_TRUE(latest);
    EXPECT_EQ(latest->name, "alpha");
    EXPECT_EQ(latest->revision, 3);
    EXPECT_EQ(latest->specJson, specJson(3));
    EXPECT_EQ(latest->comment, "alpha v3");
    EXPECT_TRUE(std::regex_match(latest->savedAt, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)")))
        << latest->savedAt;

    Result<PlanRevision> first = store->loadPlan("alpha", 1);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->specJson, specJson(1));
    EXPECT_EQ(first->comment, "alpha v1");

    Result<PlanRevision> beta = store->loadPlan("beta");
    ASSERT_TRUE(beta);
    EXPECT_EQ(beta->specJson, exotic) << "spec text must come back byte for byte";
    EXPECT_EQ(beta->comment, "");

    Result<std::vector<RevisionInfo>> revs = store->revisions("alpha");
    ASSERT_TRUE(revs);
    ASSERT_EQ(revs->size(), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ((*revs)[i].revision, i + 1);
        EXPECT_EQ((*revs)[i].comment, "alpha v" + std::to_string(i + 1));
        EXPECT_EQ((*revs)[i].specBytes, static_cast<std::int64_t>(specJson(i + 1).size()));
    }

    // Saving after a reopen continues the numbering.
    Result<int> fourth = store->savePlan("alpha", specJson(4));
    ASSERT_TRUE(fourth);
    EXPECT_EQ(*fourth, 4);
}

TEST(ProjectStore, MissingPlansAndRevisionsAreNamed)
{
    TempDir dir;
    Result<ProjectStore> store = ProjectStore::create(dir.file("p.railyard"));
    ASSERT_TRUE(store);
    ASSERT_TRUE(store->savePlan("alpha", specJson(1)));
    ASSERT_TRUE(store->savePlan("alpha", specJson(2)));

    Result<PlanRevision> none = store->loadPlan("nope");
    ASSERT_FALSE(none);
    EXPECT_EQ(none.error().code, "STORE_PLAN_MISSING");
    EXPECT_NE(none.error().message.find("\"nope\""), std::string::npos);

    Result<PlanRevision> rev9 = store->loadPlan("alpha", 9);
    ASSERT_FALSE(rev9);
    EXPECT_EQ(rev9.error().code, "STORE_REVISION_MISSING");
    EXPECT_NE(rev9.error().message.find("revision 9"), std::string::npos) << rev9.error().message;
    EXPECT_NE(rev9.error().message.find("1 to 2"), std::string::npos) << rev9.error().message;

    EXPECT_EQ(store->revisions("nope").error().code, "STORE_PLAN_MISSING");
    EXPECT_EQ(store->deletePlan("nope").error().code, "STORE_PLAN_MISSING");
    EXPECT_EQ(store->renamePlan("nope", "x").error().code, "STORE_PLAN_MISSING");
}

TEST(ProjectStore, PlanNamesAreValidated)
{
    TempDir dir;
    Result<ProjectStore> store = ProjectStore::create(dir.file("p.railyard"));
    ASSERT_TRUE(store);
    for (const std::string& bad : { std::string(), std::string(" lead"), std::string("trail "),
             std::string("new\nline"), std::string(kMaxPlanNameBytes + 1, 'n') }) {
        Result<int> rev = store->savePlan(bad, specJson(1));
        ASSERT_FALSE(rev) << "accepted \"" << bad << "\"";
        EXPECT_EQ(rev.error().code, "STORE_PLAN_NAME");
    }
    EXPECT_TRUE(store->savePlan("4 SU, NDR – ünïcødé", specJson(1)));
    ASSERT_TRUE(store->savePlan("ok", specJson(1)));
    EXPECT_EQ(store->renamePlan("ok", "").error().code, "STORE_PLAN_NAME");
    EXPECT_EQ(store->listPlans()->size(), 2u);
}

TEST(ProjectStore, RenameAndDelete)
{
    TempDir dir;
    const fs::path path = dir.file("p.railyard");
    {
        Result<ProjectStore> store = ProjectStore::create(path);
        ASSERT_TRUE(store);
        ASSERT_TRUE(store->savePlan("draft", specJson(1), "first"));
        ASSERT_TRUE(store->savePlan("draft", specJson(2), "second"));
        ASSERT_TRUE(store->savePlan("other", specJson(3)));

        Status taken = store->renamePlan("draft", "other");
        ASSERT_FALSE(taken);
        EXPECT_EQ(taken.error().code, "STORE_PLAN_EXISTS");
        EXPECT_NE(taken.error().message.find("\"other\""), std::string::npos);

        EXPECT_TRUE(store->renamePlan("draft", "draft")) << "renaming to its own name is a no-op";
        Status renamed = store->renamePlan("draft", "final");
        ASSERT_TRUE(renamed) << renamed.error().toString();
        EXPECT_EQ(store->loadPlan("draft").error().code, "STORE_PLAN_MISSING");
    }
    Result<ProjectStore> store = ProjectStore::open(path);
    ASSERT_TRUE(store);
    Result<std::vector<RevisionInfo>> revs = store->revisions("final");
    ASSERT_TRUE(revs);
    ASSERT_EQ(revs->size(), 2u) << "rename keeps the revisions";
    EXPECT_EQ(store->loadPlan("final", 1)->comment, "first");

    ASSERT_TRUE(store->deletePlan("final"));
    EXPECT_EQ(store->loadPlan("final").error().code, "STORE_PLAN_MISSING");
    ASSERT_EQ(store->listPlans()->size(), 1u);
    EXPECT_EQ(store->listPlans()->front().name, "other");
    EXPECT_EQ(rawInt(path, "SELECT count(*) FROM plan_revisions"), 1) << "delete removes the revisions";

    // A deleted name can be used again and starts over at revision 1.
    Result<int> reborn = store->savePlan("final", specJson(9));
    ASSERT_TRUE(reborn);
    EXPECT_EQ(*reborn, 1);
}

// --- concurrency ---------------------------------------------------------------

TEST(ProjectStore, TwoObjectsOnOneFileInterleaveSaves)
{
    TempDir dir;
    const fs::path path = dir.file("shared.railyard");
    Result<ProjectStore> a = ProjectStore::create(path);
    ASSERT_TRUE(a);
    Result<ProjectStore> b = ProjectStore::open(path);
    ASSERT_TRUE(b) << b.error().toString();

    for (int i = 0; i < 10; ++i) {
        Result<int> ra = a->savePlan("shared", specJson(i), "a");
        Result<int> rb = b->savePlan("shared", specJson(i), "b");
        ASSERT_TRUE(ra && rb);
        EXPECT_EQ(*ra, 2 * i + 1);
        EXPECT_EQ(*rb, 2 * i + 2);
    }
    // Each sees what the other saved.
    EXPECT_EQ(a->loadPlan("shared")->comment, "b");
    EXPECT_EQ(b->revisions("shared")->size(), 20u);
    ASSERT_TRUE(b->renamePlan("shared", "renamed"));
    EXPECT_EQ(a->loadPlan("renamed")->revision, 20);
}

TEST(ProjectStore, ThreadsWithTheirOwnObjectsLoseNoRevision)
{
    TempDir dir;
    const fs::path path = dir.file("threads.railyard");
    ASSERT_TRUE(ProjectStore::create(path));

    constexpr int kThreads = 4;
    constexpr int kSaves = 25;
    std::atomic<int> failures { 0 };
    std::vector<std::string> firstError(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            Result<ProjectStore> store = ProjectStore::open(path); // opened inside its thread
            if (!store) {
                firstError[t] = store.error().toString();
                ++failures;
                return;
            }
            for (int i = 0; i < kSaves; ++i) {
                Result<int> shared = store->savePlan("shared", specJson(i), "thread " + std::to_string(t));
                Result<int> own = store->savePlan("thread " + std::to_string(t), specJson(i));
                if (!shared || !own) {
                    firstError[t] = (!shared ? shared.error() : own.error()).toString();
                    ++failures;
                    return;
                }
                if (*own != i + 1)
                    ++failures;
            }
        });
    }
    for (std::thread& thread : threads)
        thread.join();
    for (const std::string& error : firstError)
        EXPECT_TRUE(error.empty()) << error;
    ASSERT_EQ(failures.load(), 0);

    Result<ProjectStore> store = ProjectStore::open(path);
    ASSERT_TRUE(store);
    Result<std::vector<RevisionInfo>> revs = store->revisions("shared");
    ASSERT_TRUE(revs);
    ASSERT_EQ(revs->size(), static_cast<std::size_t>(kThreads * kSaves));
    for (std::size_t i = 0; i < revs->size(); ++i)
        EXPECT_EQ((*revs)[i].revision, static_cast<int>(i + 1)) << "revisions are gapless";
    EXPECT_EQ(store->listPlans()->size(), static_cast<std::size_t>(kThreads + 1));
}

// --- refused files -------------------------------------------------------------

TEST(ProjectStoreRefuses, MissingFile)
{
    TempDir dir;
    const fs::path path = dir.file("absent.railyard");
    expectRefused(path, "STORE_MISSING", "does not exist");
    EXPECT_FALSE(fs::exists(path)) << "open must not create the file";
}

TEST(ProjectStoreRefuses, EmptyFile)
{
    TempDir dir;
    const fs::path path = dir.file("empty.railyard");
    writeBytes(path, "");
    expectRefused(path, "STORE_NOT_SQLITE", "empty (0 bytes)");
    EXPECT_EQ(fs::file_size(path), 0u);
}

TEST(ProjectStoreRefuses, RandomBytesAndText)
{
    TempDir dir;
    std::mt19937 rng(42);
    std::string noise(8192, '\0');
    for (char& c : noise)
        c = static_cast<char>(rng() & 0xFF);
    writeBytes(dir.file("noise.railyard"), noise);
    expectRefused(dir.file("noise.railyard"), "STORE_NOT_SQLITE", "not an SQLite database");

    writeBytes(dir.file("plan.json"), specJson(4));
    expectRefused(dir.file("plan.json"), "STORE_NOT_SQLITE");

    fs::create_directory(dir.file("folder.railyard"));
    expectRefused(dir.file("folder.railyard"), "STORE_NOT_SQLITE", "folder");
}

TEST(ProjectStoreRefuses, ForeignSqliteDatabases)
{
    TempDir dir;
    // Another application's database in WAL mode: the hardest case, since a
    // plain read-only open of a WAL file would create -wal and -shm.
    const fs::path wal = dir.file("other-wal.db");
    rawExec(wal, "PRAGMA journal_mode = WAL; CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT);"
                 "CREATE TABLE orders (id INTEGER, customer INTEGER); INSERT INTO customers VALUES (1, 'x');");
    ASSERT_FALSE(fs::exists(withSuffix(wal, "-wal")));
    expectRefused(wal, "STORE_FOREIGN", "customers, orders");

    const fs::path rollback = dir.file("other-rollback.db");
    rawExec(rollback, "PRAGMA application_id = 1234; CREATE TABLE notes (body TEXT);");
    expectRefused(rollback, "STORE_FOREIGN", "0x000004D2");

    const fs::path blank = dir.file("blank.db");
    rawExec(blank, "PRAGMA user_version = 3; CREATE TABLE t (x); DROP TABLE t;");
    expectRefused(blank, "STORE_FOREIGN", "empty SQLite database");
}

TEST(ProjectStoreRefuses, NewerSchema)
{
    TempDir dir;
    const fs::path path = dir.file("future.railyard");
    makeProject(path);
    rawExec(path, "PRAGMA user_version = 7");
    ASSERT_FALSE(fs::exists(withSuffix(path, "-wal")));
    expectRefused(path, "STORE_NEWER_SCHEMA", "newer Railyard (schema 7; this one reads up to " + std::to_string(kSchemaVersion) + ")");
}

TEST(ProjectStoreRefuses, TruncatedProject)
{
    TempDir dir;
    const fs::path original = dir.file("original.railyard");
    makeProject(original);
    const std::string bytes = readBytes(original);
    ASSERT_GE(bytes.size(), 8u * 4096u);

    // Cut mid-page, and cut on a page boundary (only the header knows).
    const fs::path ragged = dir.file("ragged.railyard");
    writeBytes(ragged, bytes.substr(0, bytes.size() / 2 + 100));
    expectRefused(ragged, "STORE_DAMAGED", "truncated");

    const fs::path aligned = dir.file("aligned.railyard");
    writeBytes(aligned, bytes.substr(0, (bytes.size() / 2 / 4096) * 4096));
    expectRefused(aligned, "STORE_DAMAGED", "truncated");

    const fs::path stub = dir.file("stub.railyard");
    writeBytes(stub, bytes.substr(0, 60));
    expectRefused(stub, "STORE_DAMAGED", "100-byte SQLite header");
}

TEST(ProjectStoreRefuses, ScribbledPages)
{
    TempDir dir;
    const fs::path path = dir.file("scribbled.railyard");
    makeProject(path);
    std::string bytes = readBytes(path);
    // Overwrite pages 2.. (the schema and table b-trees) with a pattern.
    for (std::size_t i = 4096; i < bytes.size(); ++i)
        bytes[i] = static_cast<char>(0xA5 ^ (i & 0xFF));
    writeBytes(path, bytes);
    expectRefused(path, "STORE_DAMAGED");
}

TEST(ProjectStoreRefuses, GoodProjectOpensAfterRefusals)
{
    // The inspection must not leave anything behind that breaks a later open.
    TempDir dir;
    const fs::path path = dir.file("good.railyard");
    makeProject(path);
    for (int i = 0; i < 2; ++i) {
        Result<ProjectStore> store = ProjectStore::open(path);
        ASSERT_TRUE(store) << store.error().toString();
        EXPECT_EQ(store->listPlans()->size(), 8u);
    }
    EXPECT_FALSE(fs::exists(withSuffix(path, "-wal")));
    EXPECT_FALSE(fs::exists(withSuffix(path, "-shm")));
}

// --- live runs (schema 2) --------------------------------------------------------------------

TEST(ProjectStoreRuns, RunsRoundTripByPlanAndSurviveReopen)
{
    TempDir dir;
    const fs::path path = dir.file("runs.railyard");
    {
        Result<ProjectStore> store = ProjectStore::create(path);
        ASSERT_TRUE(store) << store.error().toString();
        RunRecord a { 0, "pod A", "write_bw", "2026-12-01T10:00:00.000Z", "2026-12-01T10:00:05.000Z", 1, true,
            "rail 3 low: 61 % of the bound", R"({"tool":"ib_write_bw","rails":[]})" };
        RunRecord b { 0, "pod B", "watch", "2026-12-01T11:00:00.000Z", "", 3, false, "2 nodes unreachable", "{ }" };
        Result<std::int64_t> ia = store->saveRun(a);
        Result<std::int64_t> ib = store->saveRun(b);
        ASSERT_TRUE(ia && ib);
        EXPECT_EQ(*ib, *ia + 1);
    }
    Result<ProjectStore> store = ProjectStore::open(path);
    ASSERT_TRUE(store) << store.error().toString();
    Result<std::vector<RunInfo>> all = store->listRuns();
    ASSERT_TRUE(all);
    ASSERT_EQ(all->size(), 2u);
    EXPECT_EQ((*all)[0].kind, "write_bw");
    EXPECT_EQ((*all)[0].summary, "rail 3 low: 61 % of the bound");
    EXPECT_EQ((*all)[0].exitStatus, 1);
    EXPECT_EQ((*all)[1].complete, false);
    EXPECT_EQ((*all)[1].resultBytes, 3);
    Result<std::vector<RunInfo>> onlyA = store->listRuns("pod A");
    ASSERT_TRUE(onlyA);
    ASSERT_EQ(onlyA->size(), 1u);
    Result<RunRecord> loaded = store->loadRun((*onlyA)[0].id);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(loaded->resultJson, R"({"tool":"ib_write_bw","rails":[]})");
    EXPECT_EQ(loaded->finishedAt, "2026-12-01T10:00:05.000Z");

    ASSERT_TRUE(store->deleteRun((*onlyA)[0].id));
    EXPECT_EQ(store->loadRun((*onlyA)[0].id).error().code, "STORE_RUN_MISSING");
    EXPECT_EQ(store->deleteRun(999).error().code, "STORE_RUN_MISSING");
}

TEST(ProjectStoreRuns, ARunNeedsAKindAndAJsonObject)
{
    TempDir dir;
    Result<ProjectStore> store = ProjectStore::create(dir.file("bad-runs.railyard"));
    ASSERT_TRUE(store);
    EXPECT_EQ(store->saveRun(RunRecord { 0, "p", "", "", "", 0, true, "", "{}" }).error().code, "STORE_RUN_INVALID");
    EXPECT_EQ(store->saveRun(RunRecord { 0, "p", "check", "", "", 0, true, "", "not json" }).error().code, "STORE_RUN_INVALID");
    EXPECT_TRUE(store->listRuns()->empty());
}

TEST(ProjectStoreRuns, ASchemaOneProjectIsUpgradedAndKeepsItsPlans)
{
    TempDir dir;
    const fs::path path = dir.file("old.railyard");
    makeProject(path);
    // What a schema 1 file looks like: no live_runs table.
    rawExec(path, "DROP TABLE live_runs; PRAGMA user_version = 1;");
    ASSERT_EQ(rawInt(path, "PRAGMA user_version"), 1);
    Result<ProjectStore> store = ProjectStore::open(path);
    ASSERT_TRUE(store) << store.error().toString();
    EXPECT_EQ(rawInt(path, "PRAGMA user_version"), 2);
    EXPECT_EQ(store->listPlans()->size(), 8u);
    EXPECT_TRUE(store->saveRun(RunRecord { 0, "plan 1", "check", "t", "t", 0, true, "", "{}" }));
}

