// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <QWidget>

class QLineEdit;
class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace railyard::app {

class PlanTableModel;

/// A sortable, searchable table over one of the plan's table models: a search field
/// (matches any column, case-insensitive) above the table, and a row count.
class TablePage : public QWidget {
    Q_OBJECT
public:
    TablePage(PlanTableModel* model, QWidget* parent = nullptr);

    QTableView* view() const { return m_view; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    QLineEdit* searchField() const { return m_search; }
    /// Shows only rows whose text contains `text` (any column).
    void setSearch(const QString& text);

private:
    void updateCount();

    PlanTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLineEdit* m_search;
    QLabel* m_count;
};

} // namespace railyard::app
