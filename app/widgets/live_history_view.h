// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's History page: every check and test run from the window or stored by
// railyard-cli --project in the open project file (time, kind, verdict, summary); open one to see
// its result page; select two and compare them side by side (before and after recabling: per rail
// or per size, measured A against B and the change, the findings and the checks' reading notes
// only in A and only in B); export the bring-up report (PDF) and a run's results (CSV, JSON).
// Without a project it says so and offers to save one (the session's runs are stored then).
#pragma once

#include "core/result.h"
#include "core/store/project_store.h"

#include <QWidget>

#include <cstdint>
#include <optional>

class QLabel;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTableWidget;

namespace railyard::app {

class JobRunner;
class LiveHistoryModel;
class LiveSession;
class LiveTestResultView;

class LiveHistoryPage : public QWidget {
    Q_OBJECT
public:
    /// Where a listed run's document is: stored in the project (`id`), or this session's (`unsaved`).
    struct RunSource {
        std::int64_t id = 0;
        std::optional<core::store::RunRecord> unsaved;
    };
    struct Comparison;

    LiveHistoryPage(LiveSession& session, QWidget* parent = nullptr);

    /// Lists the project's runs (read off the GUI thread) and the session's unsaved ones again;
    /// reloaded() follows.
    void reload();
    LiveHistoryModel* model() const { return m_model; }
    QTableView* view() const { return m_view; }
    QLabel* banner() const { return m_banner; }
    LiveTestResultView* resultView() const { return m_result; }
    QTableWidget* compareTable() const { return m_compare; }
    QTableWidget* onlyATable() const { return m_onlyA; }
    QTableWidget* onlyBTable() const { return m_onlyB; }
    QLabel* compareHeader() const { return m_compareHeader; }

    /// Reads row `row`'s run off the GUI thread and shows its result page; detailShown() follows
    /// (false, and the reason under the list, when it cannot be read).
    void openRow(int row);
    /// Compares rows `a` and `b` (the older one is A, before), read and compared off the GUI
    /// thread; detailShown() follows (false when they cannot be compared).
    void compareRows(int a, int b);
    /// Writes the bring-up report off the GUI thread; exportFinished() follows.
    void exportReport(const QString& path);

signals:
    /// The user asked to save the project (no project is open, runs are not stored).
    void saveProjectRequested();
    /// `error` empty: `path` was written.
    void exportFinished(const QString& path, const QString& error);
    /// The list shows what the project holds now.
    void reloaded();
    /// openRow() or compareRows() ended: the result or the comparison is shown (`ok`), or why not.
    void detailShown(bool ok);

private:
    void openSelected();
    void compareSelected();
    void exportSelected(bool csv);
    void chooseReport();
    QList<int> selectedRows() const;
    void setMessage(const QString& text);
    /// Where row `row`'s document is: the project's run id, or a copy of the session's unsaved run.
    core::Result<RunSource> sourceOf(int row) const;
    void showComparison(const Comparison& c);

    LiveSession& m_session;
    JobRunner* m_listJob = nullptr;   ///< the list's read
    JobRunner* m_runJob = nullptr;    ///< a run opened or two compared
    JobRunner* m_exportJob = nullptr; ///< a run's results written to a file
    LiveHistoryModel* m_model = nullptr;
    QTableView* m_view = nullptr;
    QLabel* m_banner = nullptr;
    QPushButton* m_save = nullptr;
    QLabel* m_message = nullptr;
    QStackedWidget* m_detail = nullptr;
    LiveTestResultView* m_result = nullptr;
    QLabel* m_compareHeader = nullptr;
    QTableWidget* m_compare = nullptr;
    QTableWidget* m_onlyA = nullptr;
    QTableWidget* m_onlyB = nullptr;
};

} // namespace railyard::app
