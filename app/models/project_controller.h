// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan_spec.h"
#include "core/result.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QThread;
class QTimer;

namespace railyard::app {

class ProjectWorker;

/// A plan in the open project.
struct ProjectPlanInfo {
    QString name;
    int latestRevision = 0;
    int revisionCount = 0;
    QString createdAt; ///< UTC, ISO 8601
    QString updatedAt; ///< UTC, ISO 8601
};

/// A saved revision of a plan.
struct ProjectRevisionInfo {
    int revision = 0;
    QString comment;
    QString savedAt; ///< UTC, ISO 8601
    qint64 specBytes = 0;
};

/// Unsaved work found in an autosave left by a session that did not exit cleanly.
struct RecoveryInfo {
    core::PlanSpec spec;
    QString projectPath; ///< empty: the work was in no project yet
    QString planName;    ///< empty: not saved as a plan yet
    QString savedAt;     ///< when it was autosaved (UTC, ISO 8601)
    int sessions = 1;    ///< how many crashed sessions left autosaves (the newest is offered)
};

struct ProjectControllerOptions {
    QString autosaveDir;             ///< empty: defaultAutosaveDir()
    int autosaveIntervalMs = 60'000; ///< autosave at least this often while there are unsaved edits
    int autosaveIdleMs = 5'000;      ///< and this long after the last edit
};

/// The open project (a Railyard SQLite file) and the state of the spec being edited in it.
///
/// Every ProjectStore operation runs on one dedicated worker thread that owns the
/// project's SQLite connection (and the autosave's); results come back as queued calls
/// and are announced by the signals below, so the GUI thread never touches SQLite.
/// Requests run in the order they were made. A failed request changes nothing and emits
/// failed() with a text that names the file and the reason.
///
/// Autosave: while there are unsaved edits, the current spec is written to an autosave
/// project (see AutosaveStore) every autosaveIntervalMs and autosaveIdleMs after the last
/// edit. shutdown() (clean exit) deletes it; destroying the controller without shutdown()
/// leaves it, as a crash does, and the next controller offers it (recoveryAvailable).
class ProjectController : public QObject {
    Q_OBJECT
public:
    explicit ProjectController(QObject* parent = nullptr);
    explicit ProjectController(ProjectControllerOptions options, QObject* parent = nullptr);
    ~ProjectController() override;

    /// AppDataLocation/autosave.
    static QString defaultAutosaveDir();
    /// A core::Error as a person reads it: the message, then the hint on its own line.
    static QString errorText(const core::Error& error);

    /// The open project file; empty when the project is untitled (never saved).
    const QString& projectPath() const { return m_projectPath; }
    /// The plan the spec was loaded from or last saved as; empty for a new spec.
    const QString& planName() const { return m_planName; }
    /// The revision of planName() loaded or last saved; 0 when none.
    int revision() const { return m_revision; }
    /// True when the spec was edited since it was last loaded or saved.
    bool isDirty() const { return m_editGeneration != m_savedGeneration; }
    /// True while requests are still running on the worker.
    bool isBusy() const { return m_pending > 0; }
    const core::PlanSpec& spec() const { return m_spec; }
    const QString& autosaveDir() const { return m_options.autosaveDir; }
    /// This session's autosave file; empty when none is written.
    const QString& autosaveFile() const { return m_autosaveFile; }

    /// The user edited the spec: it becomes dirty and an autosave is scheduled.
    void specEdited(const core::PlanSpec& spec);
    /// The spec was replaced from outside the project (an example, a spec file): it is
    /// clean, and belongs to no plan until it is saved.
    void setSpec(const core::PlanSpec& spec);

    /// Closes the project; the next save needs saveAs().
    void newProject();
    /// Opens a project and loads its most recently saved plan. A file that cannot be
    /// opened (damaged, foreign, newer) is left untouched and the current project stays.
    void open(const QString& path);
    /// Saves `spec` as the next revision of plan `planName` in the open project.
    void save(const QString& planName, const core::PlanSpec& spec, const QString& comment = {});
    /// Writes the whole project (every plan and revision) to `path`, replacing what is
    /// there, adds `spec` as the next revision of `planName`, and continues in the new file.
    /// Copied revisions keep their numbers and comments; their save time is the copy's.
    void saveAs(const QString& path, const QString& planName, const core::PlanSpec& spec, const QString& comment = {});
    void listPlans();
    void listRevisions(const QString& planName);
    /// Loads a revision (0: the latest) as the current, clean spec.
    void loadPlan(const QString& planName, int revision = 0);
    void renamePlan(const QString& from, const QString& to);
    void deletePlan(const QString& planName);

    /// Writes the autosave now if there are edits it does not hold yet.
    void autosaveNow();
    /// Takes the offered recovery: its spec becomes the current, dirty spec (specRestored),
    /// its project is reopened, and the crashed sessions' autosaves are deleted.
    void restoreRecovery();
    /// Deletes the crashed sessions' autosaves.
    void discardRecovery();
    /// Clean exit: finishes pending requests, deletes this session's autosave and stops
    /// the worker. The controller does nothing afterwards.
    void shutdown();

signals:
    void opened(const QString& path);
    void saved(const QString& planName, int revision);
    /// A request failed; `message` names the file and says why and what to do.
    void failed(const QString& message);
    void plansListed(const QList<railyard::app::ProjectPlanInfo>& plans);
    void revisionsListed(const QString& planName, const QList<railyard::app::ProjectRevisionInfo>& revisions);
    void planLoaded(const QString& planName, int revision, const railyard::core::PlanSpec& spec);
    void planRenamed(const QString& from, const QString& to);
    void planDeleted(const QString& planName);
    /// The project, plan, revision or dirty flag changed (window title).
    void stateChanged();
    /// Emitted once after start-up, when the autosave folder has been looked at.
    void recoveryChecked(bool available);
    void recoveryAvailable(const railyard::app::RecoveryInfo& info);
    void specRestored(const railyard::core::PlanSpec& spec);
    void autosaved(const QString& file);
    /// Autosave could not write; shown quietly (it is retried).
    void autosaveFailed(const QString& message);

private:
    using Reply = std::function<void()>;
    /// Runs `job` on the worker; the Reply it returns runs on this thread afterwards.
    void run(std::function<Reply(ProjectWorker&)> job);
    void startRecoveryCheck();
    void openProject(const QString& path, bool loadLatest);
    void finishSave(const QString& planName, int revision, const core::PlanSpec& spec, quint64 generation);
    void markClean(const core::PlanSpec& spec);
    void setPlan(const QString& planName, int revision);
    void stopWorker();

    ProjectControllerOptions m_options;
    QThread* m_thread = nullptr;
    ProjectWorker* m_worker = nullptr;
    QTimer* m_autosaveTimer = nullptr;
    QTimer* m_idleTimer = nullptr;
    QString m_projectPath;
    QString m_planName;
    int m_revision = 0;
    core::PlanSpec m_spec;
    quint64 m_editGeneration = 0;
    quint64 m_savedGeneration = 0;
    quint64 m_autosavedGeneration = 0;
    QString m_autosaveFile;
    std::optional<RecoveryInfo> m_recovery;
    int m_pending = 0;
    bool m_stopped = false;
};

} // namespace railyard::app
