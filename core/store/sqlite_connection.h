// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

// Small RAII wrappers over the SQLite C API, private to core/store.
// They return SQLite result codes (SQLITE_OK, SQLITE_ROW, ...) rather than
// core::Error: only the caller knows which file and which action a failure
// belongs to, so it turns codes into errors that reach a person.

#include <cstdint>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace railyard::core::store {

/// A prepared statement; finalized on destruction. Move-only.
/// Bind indices are 1-based, column indices 0-based, as in SQLite.
class SqliteStatement {
public:
    SqliteStatement() = default;
    SqliteStatement(const SqliteStatement&) = delete;
    SqliteStatement& operator=(const SqliteStatement&) = delete;
    SqliteStatement(SqliteStatement&& other) noexcept;
    SqliteStatement& operator=(SqliteStatement&& other) noexcept;
    ~SqliteStatement();

    /// Binds UTF-8 text (copied by SQLite). Returns an SQLite result code.
    int bind(int index, std::string_view text);
    /// Binds a 64-bit integer. Returns an SQLite result code.
    int bind(int index, std::int64_t value);
    /// Binds a double. Returns an SQLite result code.
    int bind(int index, double value);

    /// SQLITE_ROW when a row is ready, SQLITE_DONE at the end, else an error code.
    int step();
    /// Makes the statement ready to step again (bindings are kept).
    int reset();

    /// Column text of the current row; "" for NULL.
    std::string columnText(int column) const;
    /// Column integer of the current row; 0 for NULL.
    std::int64_t columnInt(int column) const;
    /// Column as a double of the current row; 0 for NULL.
    double columnDouble(int column) const;
    /// Column size in bytes of the current row.
    std::int64_t columnBytes(int column) const;

    bool valid() const { return m_stmt != nullptr; }

private:
    friend class SqliteConnection;
    explicit SqliteStatement(sqlite3_stmt* stmt)
        : m_stmt(stmt)
    {
    }

    sqlite3_stmt* m_stmt = nullptr;
};

/// One SQLite connection; closed on destruction. Move-only.
/// Not thread-safe: use one connection per thread, never share one.
class SqliteConnection {
public:
    SqliteConnection() = default;
    SqliteConnection(const SqliteConnection&) = delete;
    SqliteConnection& operator=(const SqliteConnection&) = delete;
    SqliteConnection(SqliteConnection&& other) noexcept;
    SqliteConnection& operator=(SqliteConnection&& other) noexcept;
    ~SqliteConnection();

    /// Opens `filename` with sqlite3_open_v2 `flags` (SQLITE_OPEN_*); extended
    /// result codes are enabled. On failure the connection stays usable for
    /// errorMessage() until closed. Returns an SQLite result code.
    int open(const std::string& filename, int flags);
    /// Closes now (also done by the destructor). Safe to call twice.
    void close();
    bool isOpen() const { return m_db != nullptr; }

    /// Sets how long a locked database is retried before SQLITE_BUSY.
    int setBusyTimeout(int milliseconds);
    /// Runs one or more statements that return no rows the caller needs.
    int exec(std::string_view sql);
    /// Prepares one statement into `out`. Returns an SQLite result code.
    int prepare(std::string_view sql, SqliteStatement& out);
    /// Runs a single-row, single-column query (e.g. "PRAGMA user_version")
    /// and stores its integer in `out`. Returns SQLITE_OK or an error code.
    int queryInt(std::string_view sql, std::int64_t& out);
    /// Same for a text result ("" when there is no row).
    int queryText(std::string_view sql, std::string& out);

    /// Rowid of the last INSERT on this connection.
    std::int64_t lastInsertRowId() const;
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    int changes() const;
    /// English message of the last failed call on this connection.
    std::string errorMessage() const;
    /// Extended result code of the last failed call on this connection.
    int extendedErrorCode() const;

private:
    sqlite3* m_db = nullptr;
};

/// A write transaction (BEGIN IMMEDIATE) that rolls back unless committed.
class SqliteTransaction {
public:
    explicit SqliteTransaction(SqliteConnection& db)
        : m_db(db)
    {
    }
    SqliteTransaction(const SqliteTransaction&) = delete;
    SqliteTransaction& operator=(const SqliteTransaction&) = delete;
    ~SqliteTransaction();

    /// BEGIN IMMEDIATE: takes the write lock now (waiting up to the busy
    /// timeout), so the reads that follow see what this write builds on.
    int begin();
    /// COMMIT. Returns an SQLite result code.
    int commit();

private:
    SqliteConnection& m_db;
    bool m_active = false;
};

/// "file:" URI for `path` with `query` ("immutable=1"), percent-encoding
/// the characters SQLite URIs reserve.
std::string sqliteFileUri(const std::string& path, std::string_view query);

} // namespace railyard::core::store
