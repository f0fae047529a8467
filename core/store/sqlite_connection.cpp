// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/store/sqlite_connection.h"

#include <climits>
#include <utility>

#include <sqlite3.h>

namespace railyard::core::store {

// --- SqliteStatement ---------------------------------------------------------

SqliteStatement::SqliteStatement(SqliteStatement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr))
{
}

SqliteStatement& SqliteStatement::operator=(SqliteStatement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
    }
    return *this;
}

SqliteStatement::~SqliteStatement()
{
    sqlite3_finalize(m_stmt);
}

int SqliteStatement::bind(int index, std::string_view text)
{
    if (text.size() > static_cast<std::size_t>(INT_MAX))
        return SQLITE_TOOBIG;
    // A default string_view has a null data(), which SQLite would bind as NULL.
    const char* data = text.data() ? text.data() : "";
    return sqlite3_bind_text(m_stmt, index, data, static_cast<int>(text.size()), SQLITE_TRANSIENT);
}

int SqliteStatement::bind(int index, std::int64_t value)
{
    return sqlite3_bind_int64(m_stmt, index, static_cast<sqlite3_int64>(value));
}

int SqliteStatement::bind(int index, double value)
{
    return sqlite3_bind_double(m_stmt, index, value);
}

int SqliteStatement::step()
{
    return sqlite3_step(m_stmt);
}

int SqliteStatement::reset()
{
    return sqlite3_reset(m_stmt);
}

std::string SqliteStatement::columnText(int column) const
{
    const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(m_stmt, column));
    if (!text)
        return {};
    // Call column_bytes after column_text: the text conversion may change it.
    return std::string(text, static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column)));
}

std::int64_t SqliteStatement::columnInt(int column) const
{
    return sqlite3_column_int64(m_stmt, column);
}

double SqliteStatement::columnDouble(int column) const
{
    return sqlite3_column_double(m_stmt, column);
}

std::int64_t SqliteStatement::columnBytes(int column) const
{
    return sqlite3_column_bytes(m_stmt, column);
}

// --- SqliteConnection --------------------------------------------------------

SqliteConnection::SqliteConnection(SqliteConnection&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr))
{
}

SqliteConnection& SqliteConnection::operator=(SqliteConnection&& other) noexcept
{
    if (this != &other) {
        close();
        m_db = std::exchange(other.m_db, nullptr);
    }
    return *this;
}

SqliteConnection::~SqliteConnection()
{
    close();
}

int SqliteConnection::open(const std::string& filename, int flags)
{
    close();
    const int rc = sqlite3_open_v2(filename.c_str(), &m_db, flags, nullptr);
    if (m_db)
        sqlite3_extended_result_codes(m_db, 1);
    return rc;
}

void SqliteConnection::close()
{
    // Statements are RAII-owned and normally finalized first; close_v2 defers
    // the close instead of failing if one is still alive.
    if (m_db) {
        sqlite3_close_v2(m_db);
        m_db = nullptr;
    }
}

int SqliteConnection::setBusyTimeout(int milliseconds)
{
    return sqlite3_busy_timeout(m_db, milliseconds);
}

int SqliteConnection::exec(std::string_view sql)
{
    const std::string text(sql);
    return sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, nullptr);
}

int SqliteConnection::prepare(std::string_view sql, SqliteStatement& out)
{
    sqlite3_stmt* stmt = nullptr;
    const int rc = sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    out = SqliteStatement(stmt);
    return rc;
}

int SqliteConnection::queryInt(std::string_view sql, std::int64_t& out)
{
    SqliteStatement stmt;
    if (const int rc = prepare(sql, stmt); rc != SQLITE_OK)
        return rc;
    const int rc = stmt.step();
    if (rc == SQLITE_ROW) {
        out = stmt.columnInt(0);
        return SQLITE_OK;
    }
    if (rc == SQLITE_DONE) {
        out = 0;
        return SQLITE_OK;
    }
    return rc;
}

int SqliteConnection::queryText(std::string_view sql, std::string& out)
{
    SqliteStatement stmt;
    if (const int rc = prepare(sql, stmt); rc != SQLITE_OK)
        return rc;
    const int rc = stmt.step();
    if (rc == SQLITE_ROW) {
        out = stmt.columnText(0);
        return SQLITE_OK;
    }
    if (rc == SQLITE_DONE) {
        out.clear();
        return SQLITE_OK;
    }
    return rc;
}

std::int64_t SqliteConnection::lastInsertRowId() const
{
    return sqlite3_last_insert_rowid(m_db);
}

int SqliteConnection::changes() const
{
    return m_db ? sqlite3_changes(m_db) : 0;
}

std::string SqliteConnection::errorMessage() const
{
    return m_db ? sqlite3_errmsg(m_db) : "out of memory";
}

int SqliteConnection::extendedErrorCode() const
{
    return m_db ? sqlite3_extended_errcode(m_db) : SQLITE_NOMEM;
}

// --- SqliteTransaction -------------------------------------------------------

SqliteTransaction::~SqliteTransaction()
{
    if (m_active)
        m_db.exec("ROLLBACK");
}

int SqliteTransaction::begin()
{
    const int rc = m_db.exec("BEGIN IMMEDIATE");
    m_active = rc == SQLITE_OK;
    return rc;
}

int SqliteTransaction::commit()
{
    const int rc = m_db.exec("COMMIT");
    // A failed COMMIT (e.g. SQLITE_BUSY) leaves the transaction open; the
    // destructor rolls it back.
    if (rc == SQLITE_OK)
        m_active = false;
    return rc;
}

// --- helpers -----------------------------------------------------------------

std::string sqliteFileUri(const std::string& path, std::string_view query)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string uri = "file:";
    for (const unsigned char c : path) {
        const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
            || c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
        if (plain) {
            uri += static_cast<char>(c);
        } else {
            uri += '%';
            uri += kHex[c >> 4];
            uri += kHex[c & 0xF];
        }
    }
    if (!query.empty()) {
        uri += '?';
        uri += query;
    }
    return uri;
}

} // namespace railyard::core::store
