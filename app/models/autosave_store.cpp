// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/autosave_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLockFile>
#include <QUuid>

#include <algorithm>

namespace railyard::app {

namespace {

    constexpr std::string_view kPlan = "autosave";
    constexpr std::string_view kOldPlan = "autosave-old";
    /// Revisions kept before the autosave plan is started afresh.
    constexpr int kKeepRevisions = 20;

    std::filesystem::path fsPath(const QString& path)
    {
        return std::filesystem::path(path.toStdU16String());
    }

    /// The project file and what SQLite may keep beside it.
    void removeProjectFile(const QString& file)
    {
        for (const char* suffix : { "", "-wal", "-shm", "-journal" })
            QFile::remove(file + QLatin1String(suffix));
    }

    std::unique_ptr<QLockFile> lockFor(const QString& file)
    {
        auto lock = std::make_unique<QLockFile>(file + QStringLiteral(".lock"));
        // A live session's lock is never stale however old; a dead one's is (by its pid).
        lock->setStaleLockTime(0);
        if (!lock->tryLock(0))
            return nullptr;
        return lock;
    }

    std::string metaJson(const QString& projectPath, const QString& planName)
    {
        const QJsonObject meta { { QStringLiteral("project"), projectPath }, { QStringLiteral("plan"), planName } };
        return QJsonDocument(meta).toJson(QJsonDocument::Compact).toStdString();
    }

} // namespace

AutosaveStore::AutosaveStore(QString dir)
    : m_dir(std::move(dir))
{
}

AutosaveStore::~AutosaveStore()
{
    // Close the connection before the lock goes: the file stays for recovery.
    m_store.reset();
}

core::Status AutosaveStore::write(std::string_view specJson, const QString& projectPath, const QString& planName)
{
    if (!m_store) {
        if (!QDir().mkpath(m_dir))
            return core::Error { "AUTOSAVE_IO", "Cannot create the autosave folder \"" + m_dir.toStdString() + "\"",
                m_dir.toStdString(), "Check that the folder is writable." };
        const QString file = QDir(m_dir).filePath(
            QStringLiteral("session-%1.railyard").arg(QUuid::createUuid().toString(QUuid::WithoutBraces)));
        m_lock = lockFor(file);
        if (!m_lock)
            return core::Error { "AUTOSAVE_IO", "Cannot lock the autosave file \"" + file.toStdString() + "\"",
                file.toStdString(), "Check that the autosave folder is writable." };
        auto created = core::store::ProjectStore::create(fsPath(file));
        if (!created) {
            m_lock.reset();
            return created.error();
        }
        m_store.emplace(std::move(created).value());
        m_file = file;
    }
    const std::string meta = metaJson(projectPath, planName);
    auto revision = m_store->savePlan(kPlan, specJson, meta);
    if (!revision)
        return revision.error();
    if (*revision < kKeepRevisions)
        return {};
    // Start afresh, so that at every moment one complete autosave is readable.
    (void)m_store->deletePlan(kOldPlan);
    if (auto renamed = m_store->renamePlan(kPlan, kOldPlan); !renamed)
        return renamed;
    if (auto again = m_store->savePlan(kPlan, specJson, meta); !again)
        return again.error();
    return m_store->deletePlan(kOldPlan);
}

void AutosaveStore::removeOwn()
{
    if (m_file.isEmpty())
        return;
    m_store.reset();
    removeProjectFile(m_file);
    m_lock.reset();
    m_file.clear();
}

std::vector<AutosaveSnapshot> AutosaveStore::takeOrphans()
{
    std::vector<AutosaveSnapshot> found;
    const QDir dir(m_dir);
    const QStringList files = dir.entryList({ QStringLiteral("*.railyard") }, QDir::Files, QDir::Name);
    for (const QString& name : files) {
        const QString file = dir.filePath(name);
        if (file == m_file || std::any_of(m_orphans.begin(), m_orphans.end(), [&](const auto& o) { return o.first == file; }))
            continue;
        auto lock = lockFor(file);
        if (!lock)
            continue; // a running session's
        auto snapshot = readOrphan(file);
        if (!snapshot) {
            qWarning("Deleting an unreadable autosave file: %s", qUtf8Printable(file));
            removeProjectFile(file);
            continue;
        }
        m_orphans.emplace_back(file, std::move(lock));
        found.push_back(std::move(*snapshot));
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.savedAt > b.savedAt; });
    return found;
}

std::optional<AutosaveSnapshot> AutosaveStore::readOrphan(const QString& file) const
{
    auto store = core::store::ProjectStore::open(fsPath(file));
    if (!store)
        return std::nullopt;
    auto plan = store->loadPlan(kPlan);
    if (!plan)
        plan = store->loadPlan(kOldPlan);
    if (!plan)
        return std::nullopt;
    const QJsonObject meta = QJsonDocument::fromJson(QByteArray::fromStdString(plan->comment)).object();
    return AutosaveSnapshot { file, std::move(plan->specJson), meta.value(QStringLiteral("project")).toString(),
        meta.value(QStringLiteral("plan")).toString(), QString::fromStdString(plan->savedAt) };
}

void AutosaveStore::removeOrphans()
{
    for (auto& [file, lock] : m_orphans) {
        removeProjectFile(file);
        lock.reset();
    }
    m_orphans.clear();
}

} // namespace railyard::app
