// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Files of the emulated trees: every file is replaced atomically (a temp file in a folder of the
// same file system, then rename), so a reader never sees a half-written value, and no temp file
// ever appears in a folder that a reader lists.
#pragma once

#include "core/result.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace railyard::live {

class AtomicWriter {
public:
    /// `tempDir` is created; it must be on the same file system as the files written.
    explicit AtomicWriter(std::filesystem::path tempDir);
    AtomicWriter(const AtomicWriter&) = delete;
    AtomicWriter& operator=(const AtomicWriter&) = delete;

    /// Replaces `path` with `content`; an error names the path and the system's reason.
    core::Status write(const std::string& path, std::string_view content);
    /// The same without building an error: false (errno set) on failure. For the update loop.
    bool writeFast(const char* path, std::string_view content) noexcept;

    const std::filesystem::path& tempDir() const { return m_tempDir; }

private:
    std::filesystem::path m_tempDir;
    std::string m_tempFile;
};

/// Creates `dir` and its parents; an error names the folder.
core::Status makeDirs(const std::filesystem::path& dir);
/// Creates (or replaces) the symbolic link `link` pointing at `target` (kept as given, e.g. relative).
core::Status makeSymlink(const std::string& target, const std::filesystem::path& link);

} // namespace railyard::live
