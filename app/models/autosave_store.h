// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/result.h"
#include "core/store/project_store.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace railyard::app {

/// What an autosave left by an earlier session holds.
struct AutosaveSnapshot {
    QString file;        ///< the autosave project file
    std::string specJson; ///< the spec text as it was autosaved
    QString projectPath; ///< the project the spec belonged to; empty when untitled
    QString planName;    ///< the plan in that project; empty when not saved yet
    QString savedAt;     ///< UTC, ISO 8601
};

/// The autosave files of this program: one Railyard project per running session in
/// a folder of its own (normally AppDataLocation/autosave), never the user's file.
///
/// Each session writes `session-<uuid>.railyard` and holds an flock(2) on `<file>.lock`
/// while it runs. The kernel drops that lock when its holder dies, however it dies, so
/// a file whose lock nobody holds was left by a session that ended without a clean
/// exit, which is what recovery offers. Two instances of the program thus never write,
/// recover or delete each other's autosave.
///
/// Thread: not thread-safe; the project worker thread owns it and makes every call
/// (it owns SQLite connections). The destructor keeps the file, as a crash would.
class AutosaveStore {
public:
    explicit AutosaveStore(QString dir);
    ~AutosaveStore();
    AutosaveStore(const AutosaveStore&) = delete;
    AutosaveStore& operator=(const AutosaveStore&) = delete;

    const QString& dir() const { return m_dir; }
    /// This session's autosave file; empty until the first write().
    const QString& file() const { return m_file; }

    /// Stores `specJson` as the newest autosave of this session, creating the file on
    /// first use. Old autosaves are pruned so the file stays small.
    core::Status write(std::string_view specJson, const QString& projectPath, const QString& planName);
    /// Deletes this session's autosave (clean exit, or everything is saved).
    void removeOwn();

    /// Finds autosaves of sessions that ended without a clean exit and locks them
    /// (so no other instance offers them too). Returns the readable ones, newest first.
    /// What a dead session left that holds no autosave (killed before its first one
    /// was written: an empty file, a lone lock, a half-built file) is deleted; a file
    /// that does not open is kept, and a warning says why.
    std::vector<AutosaveSnapshot> takeOrphans();
    /// Deletes the autosaves takeOrphans() found (after a restore or a discard).
    void removeOrphans();

private:
    class Lock;

    core::Result<AutosaveSnapshot> readOrphan(const QString& file) const;
    /// Deletes `file` and everything of its session beside it, the lock file last.
    void removeSessionFiles(const QString& file, Lock& lock) const;

    QString m_dir;
    QString m_file;
    std::unique_ptr<Lock> m_lock;
    std::optional<core::store::ProjectStore> m_store;
    std::vector<std::pair<QString, std::unique_ptr<Lock>>> m_orphans;
};

} // namespace railyard::app
