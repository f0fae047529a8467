// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace: connect (demo fabric, agents.json, a hostfile or a Prometheus server), the
// node x rail grid and the leaf/spine view with the selected node's or switch's panel, per-rail throughput and congestion charts, every finding in one
// filterable list, the nodes' connection states, `live check` with progress and cancel, and
// fault injection into the demo fabric; bandwidth and all-reduce tests with their result pages,
// the history of runs stored in the project with compare and the bring-up report. The work is
// LiveSession's and the live library's.
#pragma once

#include "core/catalog.h"
#include "core/plan.h"

#include <QWidget>

#include <memory>

class QAction;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QTabBar;
class QTableView;

namespace railyard::app {

class LiveFabricView;
class LiveFindingsFilter;
class LiveFindingsModel;
class LiveGrid;
class LiveHistoryPage;
class LiveTestPage;
class LiveNodePanel;
class LiveNodesModel;
class LiveRailChart;
class LiveSession;

class LiveWorkspace : public QWidget {
    Q_OBJECT
public:
    explicit LiveWorkspace(QWidget* parent = nullptr);
    ~LiveWorkspace() override;

    void setPlan(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog);
    /// The Live menu: connect, disconnect, pause, check, faults (with their shortcuts).
    void fillMenu(QMenu* menu);

    LiveSession& session() { return *m_session; }
    LiveGrid* grid() const { return m_grid; }
    LiveFabricView* fabricView() const { return m_fabric; }
    LiveRailChart* throughputChart() const { return m_throughput; }
    LiveRailChart* congestionChart() const { return m_congestion; }
    LiveFindingsModel* findingsModel() const { return m_findings; }
    LiveFindingsFilter* findingsFilter() const { return m_filter; }
    QTableView* findingsView() const { return m_findingsView; }
    LiveNodePanel* nodePanel() const { return m_panel; }
    QLabel* statusLabel() const { return m_status; }
    QProgressBar* checkProgress() const { return m_progress; }
    QAction* pauseAction() const { return m_pause; }
    LiveTestPage* testPage() const { return m_testPage; }
    LiveHistoryPage* historyPage() const { return m_history; }
    /// Shows the lower tab bar's page `name`: "tests" or "history"; false when there is none.
    bool showTab(const QString& name);

    /// The project file the workspace stores its runs in (empty: none is open).
    void setProjectPath(const QString& path);

signals:
    /// The History page's "Save project...": no project is open and runs are not stored.
    void saveProjectRequested();

public:
    /// Injects fault `kind` (interfaces.md §4 name) at the selected cell (node, rail, or its leaf);
    /// false with a status message when nothing fitting is selected.
    bool injectAtSelection(const QString& kind);
    /// Selects the grid cell a finding's `where` names ("node007", "node007/nic3"); false when none.
    bool showPlace(const QString& where);

private:
    void buildActions();
    QWidget* buildToolbar();
    QWidget* buildFindingsPage();
    void stateChanged();
    void frameArrived();
    void findingsChanged();
    void cellSelected(int node, int rail);
    void findingClicked(const QModelIndex& index);
    void openAgentsFile();
    /// The hostfile and Prometheus connect dialogs (LiveConnectDialog), then the session's connect.
    void openHostfile();
    void openPrometheus();
    void switchSelected(int index);
    void refreshPanel();
    void setStatus(const QString& text);

    LiveSession* m_session = nullptr;
    std::shared_ptr<const core::Plan> m_plan;
    LiveGrid* m_grid = nullptr;
    LiveFabricView* m_fabric = nullptr;
    LiveNodePanel* m_panel = nullptr;
    LiveRailChart* m_throughput = nullptr;
    LiveRailChart* m_congestion = nullptr;
    LiveFindingsModel* m_findings = nullptr;
    LiveFindingsFilter* m_filter = nullptr;
    QTableView* m_findingsView = nullptr;
    LiveNodesModel* m_nodes = nullptr;
    QTabBar* m_tabs = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_status = nullptr;
    QComboBox* m_colour = nullptr;
    QProgressBar* m_progress = nullptr;
    QAction* m_demo = nullptr;
    QAction* m_open = nullptr;
    QAction* m_hostfile = nullptr;
    QAction* m_prometheus = nullptr;
    QAction* m_disconnect = nullptr;
    QAction* m_pause = nullptr;
    QAction* m_check = nullptr;
    QAction* m_cancelCheck = nullptr;
    QMenu* m_faults = nullptr;
    LiveTestPage* m_testPage = nullptr;
    LiveHistoryPage* m_history = nullptr;
    bool m_configured = false;
};

} // namespace railyard::app
