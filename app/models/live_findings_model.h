// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's tables: every finding (check, congestion, connection) in one list with a
// filter by severity, source and text; and each node's connection state.
#pragma once

#include "app/models/live_frame.h"
#include "app/models/live_session.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <memory>
#include <vector>

namespace railyard::app {

class LiveFindingsModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Severity, Source, Code, Where, Message, ColumnCount };
    static constexpr int SeverityRole = Qt::UserRole + 1; ///< core::Severity as int (0 error)
    static constexpr int SourceRole = Qt::UserRole + 2;   ///< LiveFinding::Source as int

    using QAbstractTableModel::QAbstractTableModel;
    void setFindings(std::vector<LiveFinding> findings);
    const std::vector<LiveFinding>& findings() const { return m_findings; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<LiveFinding> m_findings;
};

/// Findings at `maxSeverity` or worse, of one source (or all: -1), whose text contains the filter.
class LiveFindingsFilter final : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LiveFindingsFilter(QObject* parent = nullptr);
    void setMaxSeverity(int severity);
    void setSource(int source);

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override;

private:
    int m_maxSeverity = 2;
    int m_source = -1;
};

/// One row per node: name, connection state, answer time, last error.
class LiveNodesModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Node, State, Latency, LastError, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setFrame(std::shared_ptr<const LiveFrame> frame);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QString linkText(NodeLink link);

private:
    std::shared_ptr<const LiveFrame> m_frame;
};

} // namespace railyard::app
