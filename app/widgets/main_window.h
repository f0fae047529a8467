// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QMenu;
class QProgressBar;
class QSettings;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTabBar;
class QTabWidget;
class QTimer;

namespace railyard::app {

class BomModel;
class CableMapModel;
class CompareView;
class IntentView;
class FindingsModel;
class LiveWorkspace;
class PlanController;
class ProjectSession;
class SpecForm;
class SummaryView;
class SwitchesModel;
class TablePage;
class TopologyView;
class WhatIfPanel;

/// The Planner workspace: the spec form on the left; summary, topology, findings,
/// switches, cable map and bill of materials on the right; planning status below.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(std::shared_ptr<const core::Catalog> catalog, QWidget* parent = nullptr);
    ~MainWindow() override;

    PlanController& controller() { return *m_controller; }
    SpecForm* specForm() const { return m_form; }
    SummaryView* summaryView() const { return m_summary; }
    TopologyView* topologyView() const { return m_topology; }
    TablePage* findingsPage() const { return m_findingsPage; }
    TablePage* cablesPage() const { return m_cablesPage; }
    TablePage* bomPage() const { return m_bomPage; }
    CompareView* compareView() const { return m_compare; }
    IntentView* intentView() const { return m_intent; }
    /// The Live workspace (the second top-level tab).
    LiveWorkspace* liveWorkspace() const { return m_live; }
    /// Projects: File menu actions, title, autosave and recovery.
    ProjectSession* projectSession() const { return m_project; }

    /// Plans a built-in example; false when there is no such example.
    bool loadExample(const QString& name);
    /// Opens a plan spec file (File > Open spec); returns why not, or an empty string.
    QString openSpec(const QString& path);
    /// Plans `spec` and shows it in the form.
    void loadSpec(const core::PlanSpec& spec);
    /// Brings a page to the front: summary, topology, findings, switches, cables, bom, compare,
    /// intent (in the Planner workspace), or live (the Live workspace).
    bool showPage(const QString& name);

    /// View > Language: "system" (the default), "en" or "ko", stored in QSettings under "ui/language".
    /// main() installs the translators for it at start-up; a change applies at the next start.
    static QString storedLanguage();

    /// Layout version of the UI state; a state saved by another version is ignored, not misapplied.
    static constexpr int kUiStateVersion = 1;
    /// UI state (geometry, window state, splitter positions, the page in front), kept apart from
    /// preferences: main() keeps it in its own settings file (uiStateFile()).
    void saveUiState(QSettings& state) const;
    /// Restores what saveUiState() wrote; false (and nothing changed) when `state` holds none of this version.
    bool restoreUiState(const QSettings& state);
    /// ~/.config/Railyard/railyard-ui-state.ini (the preferences are in railyard.conf beside it).
    static QString uiStateFile();

private:
    void buildPages();
    void buildMenus();
    void buildLanguageMenu(QMenu* view);
    void buildStatusBar();
    void planStarted();
    void planReady(std::shared_ptr<const core::Plan> plan);
    void planFailed(const QStringList& errors);
    void findingActivated(const QModelIndex& index);
    void exportFile(const QString& kind);
    void showAdvisor();
    void openSpecFile();
    void saveSpecFile();
    void showAbout();

    std::unique_ptr<PlanController> m_controller;
    SpecForm* m_form = nullptr;
    QTabWidget* m_pages = nullptr;
    SummaryView* m_summary = nullptr;
    TopologyView* m_topology = nullptr;
    WhatIfPanel* m_whatIf = nullptr;
    FindingsModel* m_findings = nullptr;
    SwitchesModel* m_switches = nullptr;
    CableMapModel* m_cables = nullptr;
    BomModel* m_bom = nullptr;
    TablePage* m_findingsPage = nullptr;
    TablePage* m_switchesPage = nullptr;
    TablePage* m_cablesPage = nullptr;
    TablePage* m_bomPage = nullptr;
    CompareView* m_compare = nullptr;
    IntentView* m_intent = nullptr;
    QSplitter* m_split = nullptr;
    QTabBar* m_workspaceTabs = nullptr; ///< Planner | Live
    QStackedWidget* m_workspaces = nullptr;
    LiveWorkspace* m_live = nullptr;
    QSplitter* m_topologySplit = nullptr;
    QLabel* m_status = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QTimer* m_showProgress = nullptr;
    ProjectSession* m_project = nullptr;
};

} // namespace railyard::app
