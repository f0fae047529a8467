// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/autosave_store.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUuid>

#include <algorithm>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace railyard::app {

/// An exclusive flock(2) on a lock file. The kernel releases it when the descriptor is
/// closed or its process dies, SIGKILL included, so no lock outlives its holder and
/// nothing has to guess whether one is stale. (QLockFile, used before, writes its
/// holder's pid into the file after creating it; a session killed between the two left
/// an empty file that, with no stale time, counted as held for ever and hid the
/// session's autosave from every later recovery.)
class AutosaveStore::Lock {
public:
    /// The lock on `path` (created when missing), or null when another holder has it.
    static std::unique_ptr<Lock> tryTake(const QString& path)
    {
        const QByteArray name = QFile::encodeName(path);
        // A few tries: a holder that removes the file between our open() and our
        // flock() leaves us holding a file nobody else will open.
        for (int attempt = 0; attempt < 4; ++attempt) {
            const int fd = ::open(name.constData(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
            if (fd < 0)
                return nullptr;
            if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
                ::close(fd);
                return nullptr;
            }
            struct stat held {};
            struct stat now {};
            if (::fstat(fd, &held) == 0 && ::stat(name.constData(), &now) == 0 && held.st_dev == now.st_dev
                && held.st_ino == now.st_ino)
                return std::unique_ptr<Lock>(new Lock(fd, name));
            ::close(fd);
        }
        return nullptr;
    }

    ~Lock() { ::close(m_fd); }
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;

    /// Deletes the lock file while still holding it.
    void removeFile() const { ::unlink(m_name.constData()); }

private:
    Lock(int fd, QByteArray name)
        : m_fd(fd)
        , m_name(std::move(name))
    {
    }

    int m_fd;
    QByteArray m_name;
};

namespace {

    constexpr std::string_view kPlan = "autosave";
    constexpr std::string_view kOldPlan = "autosave-old";
    /// Revisions kept before the autosave plan is started afresh.
    constexpr int kKeepRevisions = 20;
    /// ProjectStore's code for a plan the project does not have.
    constexpr std::string_view kPlanMissing = "STORE_PLAN_MISSING";
    const QLatin1String kSuffix(".railyard");

    std::filesystem::path fsPath(const QString& path)
    {
        return std::filesystem::path(path.toStdU16String());
    }

    QString lockPath(const QString& file)
    {
        return file + QStringLiteral(".lock");
    }

    /// The session file a name in the autosave folder belongs to: `session-ID.railyard`
    /// for itself, its -wal, -shm and -journal, its `.lock`, and the hidden
    /// `.session-ID.railyard.creating-PID` (with its own -wal and -shm) that
    /// ProjectStore::create builds it in. Empty for a name that is none of these.
    QString sessionFileOf(const QString& name)
    {
        const QString bare = name.startsWith(QLatin1Char('.')) ? name.mid(1) : name;
        const qsizetype at = bare.indexOf(kSuffix);
        if (!bare.startsWith(QLatin1String("session-")) || at < 0)
            return {};
        return bare.left(at + kSuffix.size());
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
        m_lock = Lock::tryTake(lockPath(file));
        if (!m_lock)
            return core::Error { "AUTOSAVE_IO", "Cannot lock the autosave file \"" + file.toStdString() + "\"",
                file.toStdString(), "Check that the autosave folder is writable." };
        auto created = core::store::ProjectStore::create(fsPath(file));
        if (!created) {
            m_lock->removeFile();
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
    removeSessionFiles(m_file, *m_lock);
    m_lock.reset();
    m_file.clear();
}

void AutosaveStore::removeSessionFiles(const QString& file, Lock& lock) const
{
    const QString session = QFileInfo(file).fileName();
    const QDir dir(m_dir);
    for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden)) {
        if (sessionFileOf(name) == session && name != lockPath(session))
            QFile::remove(dir.filePath(name));
    }
    lock.removeFile();
}

std::vector<AutosaveSnapshot> AutosaveStore::takeOrphans()
{
    std::vector<AutosaveSnapshot> found;
    const QDir dir(m_dir);
    QStringList sessions;
    for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden, QDir::Name)) {
        const QString session = sessionFileOf(name);
        if (!session.isEmpty() && !sessions.contains(session))
            sessions.push_back(session);
    }
    for (const QString& session : sessions) {
        const QString file = dir.filePath(session);
        if (file == m_file || std::any_of(m_orphans.begin(), m_orphans.end(), [&](const auto& o) { return o.first == file; }))
            continue;
        auto lock = Lock::tryTake(lockPath(file));
        if (!lock)
            continue; // a running session's
        if (!QFileInfo::exists(file)) {
            // Killed before its file was in place: a lock, a half-built .creating file.
            removeSessionFiles(file, *lock);
            continue;
        }
        auto snapshot = readOrphan(file);
        if (snapshot) {
            m_orphans.emplace_back(file, std::move(lock));
            found.push_back(std::move(snapshot).value());
        } else if (snapshot.error().code == kPlanMissing) {
            // Killed before its first autosave was written: it holds nothing.
            removeSessionFiles(file, *lock);
        } else {
            // Damaged, or written by a newer Railyard: not ours to delete.
            qWarning("Keeping an autosave file that does not open: %s", snapshot.error().toString().c_str());
            lock->removeFile();
        }
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.savedAt > b.savedAt; });
    return found;
}

core::Result<AutosaveSnapshot> AutosaveStore::readOrphan(const QString& file) const
{
    auto store = core::store::ProjectStore::open(fsPath(file));
    if (!store)
        return store.error();
    // While write() starts the plan afresh, only the old one is there.
    auto plan = store->loadPlan(kPlan);
    if (!plan && plan.error().code == kPlanMissing)
        plan = store->loadPlan(kOldPlan);
    if (!plan)
        return plan.error();
    const QJsonObject meta = QJsonDocument::fromJson(QByteArray::fromStdString(plan->comment)).object();
    return AutosaveSnapshot { file, std::move(plan->specJson), meta.value(QStringLiteral("project")).toString(),
        meta.value(QStringLiteral("plan")).toString(), QString::fromStdString(plan->savedAt) };
}

void AutosaveStore::removeOrphans()
{
    for (auto& [file, lock] : m_orphans)
        removeSessionFiles(file, *lock);
    m_orphans.clear();
}

} // namespace railyard::app
