// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "app/models/project_controller.h"
#include "app/models/recent_projects.h"

#include <QObject>
#include <QPointer>

#include <functional>

class QAction;
class QLabel;
class QMenu;
class QToolBar;

namespace railyard::app {

class MainWindow;

/// The project side of the main window: the File menu's project actions, recent
/// projects, the "Plans and revisions" dialog, the window title, asking to save
/// before the work is lost, and the crash-recovery message bar.
class ProjectSession : public QObject {
    Q_OBJECT
public:
    explicit ProjectSession(MainWindow& window, ProjectControllerOptions options = {}, RecentProjects recent = RecentProjects());
    /// A clean exit: deletes this session's autosave.
    ~ProjectSession() override;

    ProjectController& controller() { return *m_controller; }
    const RecentProjects& recent() const { return m_recent; }
    /// The recovery message bar (hidden unless a crashed session's work can be restored).
    QToolBar* recoveryBar() const { return m_recoveryBar; }
    QAction* saveAction() const { return m_save; }

    /// Adds New project, Open project..., Recent projects, Save, Save project as... and
    /// Plans and revisions... at the top of `file`.
    void addFileActions(QMenu* file);
    /// Opens a project (asking first to save unsaved edits) and loads its newest plan.
    void openProject(const QString& path);
    /// The spec in the window was replaced from outside the project (an example, a spec
    /// file): it is clean and belongs to no plan yet. `source` names it in the title.
    void specReplaced(const core::PlanSpec& spec, const QString& source = {});
    /// Names the spec's source in the title (example name, spec file).
    void setSpecSource(const QString& source);
    /// Saves as a new revision of the current plan; asks for a file and plan name when
    /// there are none yet. False when the user cancelled.
    bool save();
    bool saveAs();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void newProject();
    void chooseProject();
    void showPlansDialog();
    void fillRecentMenu();
    void updateTitle();
    void planLoaded(const QString& planName, int revision, const core::PlanSpec& spec);
    void showSpec(const core::PlanSpec& spec);
    void showRecovery(const RecoveryInfo& info);
    void failed(const QString& message);
    /// The name the plan is saved under: its own, else the one the user gives. Empty when the
    /// user cancelled; what was to follow the save (m_afterSave) is then dropped.
    QString planNameToSave();
    /// Runs `then` when nothing unsaved would be lost: at once when clean, after the
    /// user chose Discard, or after the save the user chose has finished.
    void whenSaved(std::function<void()> then);

    MainWindow& m_window;
    ProjectController* m_controller = nullptr;
    RecentProjects m_recent;
    QMenu* m_recentMenu = nullptr;
    QAction* m_save = nullptr;
    QAction* m_plans = nullptr;
    QToolBar* m_recoveryBar = nullptr;
    QLabel* m_recoveryText = nullptr;
    QString m_specSource;
    std::function<void()> m_afterSave;
    bool m_showing = false;
    bool m_closing = false;
};

} // namespace railyard::app
