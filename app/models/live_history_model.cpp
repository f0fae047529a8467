// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/live_history_model.h"

#include "app/models/run_results.h"

#include <QDateTime>
#include <QFileInfo>
#include <QLocale>

#include <algorithm>

namespace railyard::app {

QString runVerdictText(int exitStatus, bool complete)
{
    if (!complete || exitStatus == live::kRunIncomplete)
        return LiveHistoryModel::tr("incomplete");
    if (exitStatus == live::kRunOk)
        return LiveHistoryModel::tr("ok");
    if (exitStatus == live::kRunFindings)
        return LiveHistoryModel::tr("errors found");
    return LiveHistoryModel::tr("failed (%1)").arg(exitStatus);
}

LiveHistoryModel::LiveHistoryModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

core::Result<std::vector<core::store::RunInfo>> LiveHistoryModel::readRuns(const QString& path)
{
    if (path.isEmpty())
        return std::vector<core::store::RunInfo> {};
    // A read of one small table: the documents stay in the file until a run is opened.
    auto store = core::store::ProjectStore::open(path.toStdString());
    if (!store)
        return store.errors();
    return store->listRuns();
}

void LiveHistoryModel::setRuns(std::vector<core::store::RunInfo> stored, const std::vector<core::store::RunRecord>& unsaved)
{
    beginResetModel();
    m_entries.clear();
    for (core::store::RunInfo& r : stored)
        m_entries.push_back({ std::move(r), -1 });
    for (std::size_t i = 0; i < unsaved.size(); ++i) {
        const core::store::RunRecord& r = unsaved[i];
        m_entries.push_back({ { 0, r.plan, r.kind, r.startedAt, r.finishedAt, r.exitStatus, r.complete, r.summary,
                                  static_cast<std::int64_t>(r.resultJson.size()) },
            static_cast<int>(i) });
    }
    // Newest first (ISO 8601 UTC times sort as text).
    std::stable_sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) { return a.info.startedAt > b.info.startedAt; });
    endResetModel();
}

int LiveHistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_entries.size());
}

int LiveHistoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LiveHistoryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const Entry& e = entry(index.row());
    if (role == Qt::ToolTipRole && e.info.id == 0)
        return tr("Not stored yet: open or save a project to keep it");
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Time: {
        const QDateTime t = QDateTime::fromString(QString::fromStdString(e.info.startedAt), Qt::ISODateWithMs).toLocalTime();
        return QString(QLocale().toString(t, QLocale::ShortFormat) + (e.info.id == 0 ? tr(" (not stored)") : QString()));
    }
    case Kind: return QString::fromStdString(e.info.kind);
    case Verdict: return runVerdictText(e.info.exitStatus, e.info.complete);
    case Summary: return QString::fromStdString(e.info.summary);
    default: return {};
    }
}

QVariant LiveHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time: return tr("Time");
    case Kind: return tr("Kind");
    case Verdict: return tr("Verdict");
    case Summary: return tr("Summary");
    default: return {};
    }
}

} // namespace railyard::app
