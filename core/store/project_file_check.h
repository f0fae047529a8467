// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

// Private to core/store: the read-only checks ProjectStore::open() runs
// before it opens a file for writing, and the error texts they share.

#include <filesystem>
#include <string>

#include "core/result.h"

namespace railyard::core::store {

/// `"path"` as it appears in messages.
std::string quotedPath(const std::filesystem::path& path);

/// An error about the project file itself: `where` is the path, the message
/// starts with the quoted path and says `what`, `hint` says what to do.
Error projectFileError(std::string code, const std::filesystem::path& path, const std::string& what,
    std::string hint);

/// Decides whether `path` is a Railyard project this build can open, without
/// changing it in any way: the file's first 100 bytes and size are checked
/// before SQLite sees it, then SQLite opens it read-only (immutable when it
/// is a WAL database with no -wal file, so no -wal/-shm is created) to read
/// application_id and user_version and to run `PRAGMA quick_check`.
///
/// Returns success, or one of STORE_MISSING, STORE_NOT_SQLITE, STORE_FOREIGN,
/// STORE_NEWER_SCHEMA, STORE_DAMAGED, STORE_BUSY, STORE_IO.
Status inspectProjectFile(const std::filesystem::path& path);

} // namespace railyard::core::store
