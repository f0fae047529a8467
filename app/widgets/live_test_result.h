// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A test's pictures in the Live workspace: the busbw-by-message-size chart of an all-reduce (one
// line per launch, the plan's bound as a reference line; it fills in while the test runs), and the
// result page of a stored or just finished run (check or test): its summary, measured next to
// expected (live::runTableOf, the same reading as railyard-cli's and the bring-up report's) and its
// findings with what to do (a check's reading notes after them, as "note" rows). Like LiveRailChart, Qt Charts stays inside these live chart files.
#pragma once

#include "core/store/project_store.h"

#include <QWidget>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QLabel;
class QSplitter;
class QTableWidget;

namespace railyard::live {
struct ReadingNote;
}

namespace railyard::app {

/// Writes `note` into row `row` of `table`, greyed: "note" in `labelColumn`, its nodes in
/// `whereColumn` (the first 3 and how many in all; every one in the tooltip) and its text in the
/// column after. The run page and the history's compare show a check's notes this way.
void setReadingNoteRow(QTableWidget* table, int row, int labelColumn, int whereColumn, const live::ReadingNote& note);

class LiveBusbwChart : public QWidget {
    Q_OBJECT
public:
    explicit LiveBusbwChart(QWidget* parent = nullptr);
    ~LiveBusbwChart() override;

    /// busbw (GB/s) by size (B) per launch (-1: every rail, else the isolated rail), and the bound.
    void setData(const std::map<int, std::vector<std::pair<std::uint64_t, double>>>& busbw, std::optional<double> boundGBs);
    /// Points of the launch's line (-1: every rail), for the tests.
    int pointCount(int launch = -1) const;
    /// The reference line's value; 0 when there is none.
    double boundGBs() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

class LiveTestResultView : public QWidget {
    Q_OBJECT
public:
    explicit LiveTestResultView(QWidget* parent = nullptr);

    /// Shows `run` (its document parsed here); an unreadable document says so on the page.
    void showRun(const core::store::RunRecord& run);
    void clear();

    QTableWidget* resultTable() const { return m_table; }
    QTableWidget* findingsTable() const { return m_findings; }
    LiveBusbwChart* chart() const { return m_chart; }
    QLabel* header() const { return m_header; }

private:
    QLabel* m_header = nullptr;
    LiveBusbwChart* m_chart = nullptr;
    QTableWidget* m_table = nullptr;
    QTableWidget* m_findings = nullptr;
    QSplitter* m_top = nullptr; ///< the table and the chart side by side
};

} // namespace railyard::app
