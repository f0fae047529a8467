// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's history: the bring-up runs stored in the project file (live_runs, the
// rows railyard-cli's --project writes and `results list` shows) and the runs of this session not
// stored yet (no project open), newest first: time, kind, verdict, summary.
#pragma once

#include "core/store/project_store.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace railyard::app {

/// "ok", "errors found", "incomplete" for a stored run's exit status (interfaces.md §4).
QString runVerdictText(int exitStatus, bool complete);

class LiveHistoryModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Time, Kind, Verdict, Summary, ColumnCount };
    struct Entry {
        core::store::RunInfo info; ///< id 0: not stored (this session's, no project open)
        int unsavedIndex = -1;     ///< its index among the session's unsaved runs
    };

    explicit LiveHistoryModel(QObject* parent = nullptr);

    /// The runs stored in project `path` (a read of the runs table, without their documents; none
    /// for an empty path). Opens its own connection: called off the GUI thread.
    static core::Result<std::vector<core::store::RunInfo>> readRuns(const QString& path);
    /// Lists `stored` (what readRuns() gave) and the session's `unsaved` runs, newest first.
    void setRuns(std::vector<core::store::RunInfo> stored, const std::vector<core::store::RunRecord>& unsaved);
    const Entry& entry(int row) const { return m_entries[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<Entry> m_entries;
};

} // namespace railyard::app
