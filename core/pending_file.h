// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Replacing a file so that a crash or a failed write never leaves it half-written: the new
// content goes to a temp file beside the target, which is synced and renamed over it.
#pragma once

#include "core/result.h"

#include <string>
#include <string_view>

namespace railyard::core {

/// A new file that takes `target`'s place only on commit(). The temp file is made at once,
/// uniquely named in the target's folder (".NAME.tmp-XXXXXX", so the rename is atomic), with
/// the permissions a newly created file would get. Dropped without commit(), it is removed and
/// the target is left as it was. Every failure is an Error with `code`, naming the target.
class PendingFile {
public:
    PendingFile(std::string target, std::string code);
    ~PendingFile();
    PendingFile(const PendingFile&) = delete;
    PendingFile& operator=(const PendingFile&) = delete;

    /// Whether the temp file could be made (the folder exists and is writable); why not otherwise.
    const Status& status() const { return m_status; }
    /// The temp file, for writers that open a file by name (an ofstream, libxlsxwriter).
    const std::string& path() const { return m_temp; }
    const std::string& target() const { return m_target; }

    /// Writes `text` as the whole content of the temp file.
    Status write(std::string_view text);
    /// Syncs the temp file to disk and renames it over the target, then syncs the folder (best
    /// effort: that makes the rename itself durable).
    Status commit();

private:
    Error error(const std::string& what, int err) const;

    std::string m_target;
    std::string m_code;
    std::string m_folder;
    std::string m_temp;
    Status m_status;
    bool m_committed = false;
};

} // namespace railyard::core
