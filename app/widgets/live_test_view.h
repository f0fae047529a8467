// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's Tests page: run per-rail GPUDirect bandwidth (perftest pairs through the
// agents) or an all-reduce (nccl-tests) from the window, watch it fill in (busbw by size against
// the plan's bound; the per-rail results table), stop it (its processes on the nodes are ended,
// what was measured is kept), and read its result page. The work is LiveSession's.
#pragma once

#include "core/store/project_store.h"

#include <QWidget>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QProgressBar;
class QStackedWidget;
class QTableWidget;

namespace railyard::app {

class LiveBusbwChart;
class LiveSession;
class LiveTestResultView;

class LiveTestPage : public QWidget {
    Q_OBJECT
public:
    LiveTestPage(LiveSession& session, QWidget* parent = nullptr);

    /// Run (F6) and Stop (Shift+F6), for the workspace's menu.
    QAction* runAction() const { return m_run; }
    QAction* stopAction() const { return m_stop; }
    QComboBox* kindBox() const { return m_kind; }
    QLineEdit* nodesEdit() const { return m_nodes; }
    QCheckBox* perRailBox() const { return m_perRail; }
    QLineEdit* minBytesEdit() const { return m_minBytes; }
    QLineEdit* maxBytesEdit() const { return m_maxBytes; }
    QLineEdit* messageBytesEdit() const { return m_messageBytes; }
    QSpinBox* itersBox() const { return m_iters; }
    QProgressBar* progress() const { return m_progress; }
    QLabel* statusLabel() const { return m_status; }
    LiveBusbwChart* chart() const { return m_chart; }
    QTableWidget* liveTable() const { return m_table; }
    LiveTestResultView* resultView() const { return m_result; }
    /// True while the live page (chart and table) is shown, false on the result page.
    bool showingLive() const;

    /// Starts the test the fields describe.
    void start();
    /// The kind chosen: "allreduce" or "write_bw".
    QString kind() const;
    /// Shows a run's result page (from History too).
    void showRun(const core::store::RunRecord& run);
    /// The connection changed: enables the actions, and for a large demo fabric names a few nodes.
    void connectionChanged();

private:
    void started();
    void measured();
    void finished();
    void progressed(double fraction, const QString& text);

    LiveSession& m_session;
    QAction* m_run = nullptr;
    QAction* m_stop = nullptr;
    QComboBox* m_kind = nullptr;
    QLineEdit* m_nodes = nullptr;
    QCheckBox* m_perRail = nullptr;
    QLineEdit* m_minBytes = nullptr;
    QLineEdit* m_maxBytes = nullptr;
    QLineEdit* m_messageBytes = nullptr;
    QSpinBox* m_iters = nullptr;
    QWidget* m_collectiveParams = nullptr; ///< sizes, iterations, one run per rail
    QWidget* m_bandwidthParams = nullptr;  ///< the message size
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QStackedWidget* m_pages = nullptr;
    LiveBusbwChart* m_chart = nullptr;
    QTableWidget* m_table = nullptr;
    LiveTestResultView* m_result = nullptr;
};

} // namespace railyard::app
