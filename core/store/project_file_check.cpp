// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/store/project_file_check.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <system_error>
#include <utility>

#include <sqlite3.h>

#include "core/store/project_store.h"
#include "core/store/sqlite_connection.h"

namespace railyard::core::store {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kHeaderBytes = 100;
constexpr char kSqliteMagic[] = "SQLite format 3"; // followed by a NUL: 16 bytes

const char* const kNotAProjectHint
    = "Choose a Railyard project file (they end in .railyard), or create a new project; Railyard has not changed "
      "this file.";
const char* const kDamagedHint
    = "Restore the project from a backup; Railyard has not changed this file, so a copy of it can still be "
      "examined with the sqlite3 tool.";

using Header = std::array<unsigned char, kHeaderBytes>;

std::uint32_t bigEndian32(const Header& h, std::size_t at)
{
    return (std::uint32_t(h[at]) << 24) | (std::uint32_t(h[at + 1]) << 16) | (std::uint32_t(h[at + 2]) << 8)
        | std::uint32_t(h[at + 3]);
}

std::string hex32(std::uint32_t value)
{
    char text[16];
    std::snprintf(text, sizeof text, "0x%08X", static_cast<unsigned>(value));
    return text;
}

fs::path sidecar(const fs::path& path, const char* suffix)
{
    fs::path result = path;
    result += suffix;
    return result;
}

// Turns an SQLite failure during the read-only inspection into an error.
Error inspectionError(const fs::path& path, const SqliteConnection& db, int rc)
{
    const int primary = rc & 0xFF;
    const std::string detail = db.errorMessage();
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_FORMAT)
        return projectFileError("STORE_DAMAGED", path, "is damaged: SQLite reports \"" + detail + "\"", kDamagedHint);
    if (rc == SQLITE_READONLY_ROLLBACK)
        return projectFileError("STORE_DAMAGED", path,
            "has an unfinished transaction (a hot -journal file lies beside it) that only its writer can roll back",
            "Open it once in the program that wrote it; Railyard has not changed this file.");
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        return projectFileError("STORE_BUSY", path, "is locked by another program: \"" + detail + "\"",
            "Try again in a moment, or close the other program using it.");
    return projectFileError("STORE_IO", path, "could not be read: \"" + detail + "\"",
        "Check that the file and its folder are readable.");
}

// Size and the 100-byte header, before SQLite touches the file.
Status checkBytes(const fs::path& path, Header& header)
{
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st))
        return projectFileError("STORE_MISSING", path, "does not exist",
            "Check the path, or create a new project there.");
    if (fs::is_directory(st))
        return projectFileError("STORE_NOT_SQLITE", path, "is a folder, not a Railyard project file", kNotAProjectHint);
    if (!fs::is_regular_file(st))
        return projectFileError("STORE_NOT_SQLITE", path, "is not a regular file, so not a Railyard project",
            kNotAProjectHint);
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec)
        return projectFileError("STORE_IO", path, "could not be read: " + ec.message(),
            "Check that the file and its folder are readable.");
    if (size == 0)
        return projectFileError("STORE_NOT_SQLITE", path, "is empty (0 bytes), so it holds no Railyard project",
            "Delete it and create a new project, or choose another file; Railyard has not changed it.");

    std::ifstream in(path, std::ios::binary);
    if (!in)
        return projectFileError("STORE_IO", path, "could not be opened for reading",
            "Check that the file and its folder are readable.");
    header.fill(0);
    in.read(reinterpret_cast<char*>(header.data()), static_cast<std::streamsize>(header.size()));
    const auto got = static_cast<std::size_t>(in.gcount());

    if (got < sizeof kSqliteMagic || std::memcmp(header.data(), kSqliteMagic, sizeof kSqliteMagic) != 0)
        return projectFileError("STORE_NOT_SQLITE", path,
            "is not a Railyard project: it is not an SQLite database (it lacks the \"SQLite format 3\" header)",
            kNotAProjectHint);
    if (got < kHeaderBytes)
        return projectFileError("STORE_DAMAGED", path,
            "is truncated: " + std::to_string(size) + " bytes, shorter than the 100-byte SQLite header", kDamagedHint);

    const unsigned rawPageSize = (unsigned(header[16]) << 8) | header[17];
    const std::uintmax_t pageSize = rawPageSize == 1 ? 65536 : rawPageSize;
    const bool powerOfTwo = pageSize >= 512 && pageSize <= 65536 && (pageSize & (pageSize - 1)) == 0;
    // Bytes 21..23 are fixed by the file format (payload fractions 64/32/32).
    if (!powerOfTwo || header[21] != 64 || header[22] != 32 || header[23] != 32)
        return projectFileError("STORE_DAMAGED", path, "has a damaged SQLite header", kDamagedHint);
    if (size < pageSize || size % pageSize != 0)
        return projectFileError("STORE_DAMAGED", path,
            "is truncated or damaged: its size (" + std::to_string(size) + " bytes) is not a whole number of "
                + std::to_string(pageSize) + "-byte pages",
            kDamagedHint);

    // The in-header page count is valid when "version-valid-for" (92) equals
    // the change counter (24). With a -wal beside the file, pages may still
    // live in the WAL, so only the WAL-free case is judged here.
    const std::uint32_t headerPages = bigEndian32(header, 28);
    const bool countValid = headerPages != 0 && bigEndian32(header, 92) == bigEndian32(header, 24);
    if (countValid && std::uintmax_t(headerPages) * pageSize > size && !fs::exists(sidecar(path, "-wal"), ec))
        return projectFileError("STORE_DAMAGED", path,
            "is truncated: its header says " + std::to_string(headerPages) + " pages ("
                + std::to_string(std::uintmax_t(headerPages) * pageSize) + " bytes) but the file holds "
                + std::to_string(size) + " bytes",
            kDamagedHint);
    return {};
}

// Opens the file read-only such that no -wal/-shm is created beside it.
int openReadOnly(const fs::path& path, const Header& header, SqliteConnection& db)
{
    std::error_code ec;
    const fs::path absolute = fs::absolute(path, ec);
    const std::string file = (ec ? path : absolute).string();
    // A read-only connection to a WAL database creates -wal and -shm when
    // they are missing. Without a -wal there is nothing beyond the main file
    // to read, so `immutable=1` reads just that file and creates nothing.
    const bool walMode = header[18] == 2 || header[19] == 2;
    const bool walPresent = fs::exists(sidecar(path, "-wal"), ec);
    const char* query = walMode && !walPresent ? "immutable=1" : "mode=ro";
    const int rc = db.open(sqliteFileUri(file, query), SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
    if (rc == SQLITE_OK)
        db.setBusyTimeout(kBusyTimeoutMs);
    return rc;
}

std::string tableList(SqliteConnection& db)
{
    std::string tables;
    db.queryText("SELECT group_concat(name, ', ') FROM (SELECT name FROM sqlite_schema WHERE type = 'table' "
                 "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name LIMIT 6)",
        tables);
    return tables;
}

// application_id, user_version, the tables schema 1 needs, quick_check.
Status checkContents(const fs::path& path, SqliteConnection& db)
{
    std::int64_t applicationId = 0;
    std::int64_t userVersion = 0;
    if (const int rc = db.queryInt("PRAGMA application_id", applicationId); rc != SQLITE_OK)
        return inspectionError(path, db, rc);
    if (const int rc = db.queryInt("PRAGMA user_version", userVersion); rc != SQLITE_OK)
        return inspectionError(path, db, rc);

    if (static_cast<std::uint32_t>(applicationId) != kApplicationId) {
        const std::string tables = tableList(db);
        const std::string what = tables.empty()
            ? "is not a Railyard project: it is an empty SQLite database (application_id "
                + hex32(static_cast<std::uint32_t>(applicationId)) + ")"
            : "is not a Railyard project: it is another application's SQLite database (application_id "
                + hex32(static_cast<std::uint32_t>(applicationId)) + "; tables: " + tables + ")";
        return projectFileError("STORE_FOREIGN", path, what, kNotAProjectHint);
    }
    if (userVersion > kSchemaVersion)
        return projectFileError("STORE_NEWER_SCHEMA", path,
            "was written by a newer Railyard (schema " + std::to_string(userVersion) + "; this one reads up to "
                + std::to_string(kSchemaVersion) + ")",
            "Open it with a newer Railyard; this one has not changed the file.");
    if (userVersion < 1)
        return projectFileError("STORE_DAMAGED", path,
            "is marked as a Railyard project but has no schema (user_version " + std::to_string(userVersion)
                + "); its creation was probably interrupted",
            "Create the project again; Railyard has not changed this file.");

    std::int64_t tables = 0;
    if (const int rc = db.queryInt("SELECT count(*) FROM sqlite_schema WHERE type = 'table' "
                                   "AND name IN ('plans', 'plan_revisions')",
            tables);
        rc != SQLITE_OK)
        return inspectionError(path, db, rc);
    if (tables != 2)
        return projectFileError("STORE_DAMAGED", path,
            "is damaged: the tables of Railyard schema " + std::to_string(userVersion) + " are missing",
            kDamagedHint);

    std::string verdict;
    if (const int rc = db.queryText("PRAGMA quick_check(1)", verdict); rc != SQLITE_OK)
        return inspectionError(path, db, rc);
    if (verdict != "ok")
        return projectFileError("STORE_DAMAGED", path, "is damaged: SQLite's integrity check reports \"" + verdict + "\"",
            kDamagedHint);
    return {};
}

} // namespace

std::string quotedPath(const fs::path& path)
{
    return '"' + path.string() + '"';
}

Error projectFileError(std::string code, const fs::path& path, const std::string& what, std::string hint)
{
    return Error { std::move(code), "File " + quotedPath(path) + " " + what, path.string(), std::move(hint) };
}

Status inspectProjectFile(const fs::path& path)
{
    Header header {};
    if (Status bytes = checkBytes(path, header); !bytes)
        return bytes;
    SqliteConnection db;
    if (const int rc = openReadOnly(path, header, db); rc != SQLITE_OK)
        return inspectionError(path, db, rc);
    return checkContents(path, db);
}

} // namespace railyard::core::store
