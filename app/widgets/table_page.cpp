// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/table_page.h"

#include "app/models/plan_table_model.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace railyard::app {

TablePage::TablePage(PlanTableModel* model, QWidget* parent)
    : QWidget(parent)
    , m_model(model)
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTableView(this))
    , m_search(new QLineEdit(this))
    , m_count(new QLabel(this))
{
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(PlanTableModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_search->setPlaceholderText(tr("Search (any column)"));
    m_search->setClearButtonEnabled(true);

    auto* top = new QHBoxLayout;
    top->addWidget(m_search, 1);
    top->addWidget(m_count);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);

    connect(m_search, &QLineEdit::textChanged, this, &TablePage::setSearch);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] {
        updateCount();
        // Size columns to their contents on small tables only: it reads every row.
        if (m_proxy->rowCount() <= 2000)
            m_view->resizeColumnsToContents();
    });
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &TablePage::updateCount);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &TablePage::updateCount);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &TablePage::updateCount);
    updateCount();
}

void TablePage::setSearch(const QString& text)
{
    if (m_search->text() != text)
        m_search->setText(text);
    m_proxy->setFilterFixedString(text);
    updateCount();
}

void TablePage::updateCount()
{
    const int shown = m_proxy->rowCount();
    const int total = m_model->rowCount();
    m_count->setText(shown == total ? tr("%1 rows").arg(QLocale().toString(total))
                                    : tr("%1 of %2 rows").arg(QLocale().toString(shown), QLocale().toString(total)));
}

} // namespace railyard::app
