// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/live_findings_model.h"

#include <QColor>

namespace railyard::app {

namespace {
    QString qs(const std::string& s)
    {
        return QString::fromStdString(s);
    }
} // namespace

void LiveFindingsModel::setFindings(std::vector<LiveFinding> findings)
{
    beginResetModel();
    m_findings = std::move(findings);
    endResetModel();
}

int LiveFindingsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_findings.size());
}

int LiveFindingsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LiveFindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Severity: return tr("Severity");
    case Source: return tr("Source");
    case Code: return tr("Code");
    case Where: return tr("Where");
    case Message: return tr("Finding");
    default: return {};
    }
}

QVariant LiveFindingsModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const LiveFinding& lf = m_findings[static_cast<std::size_t>(index.row())];
    const core::Finding& f = lf.finding;
    if (role == SeverityRole)
        return static_cast<int>(f.severity);
    if (role == SourceRole)
        return static_cast<int>(lf.source);
    if (role == Qt::ForegroundRole && index.column() == Severity)
        return f.severity == core::Severity::Error ? QColor(0xb0, 0x20, 0x20) : f.severity == core::Severity::Warning ? QColor(0xa0, 0x60, 0x00) : QVariant();
    if (role == Qt::ToolTipRole && index.column() == Message)
        return qs(f.message);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Severity:
        return f.severity == core::Severity::Error ? tr("error") : f.severity == core::Severity::Warning ? tr("warning") : tr("info");
    case Source:
        switch (lf.source) {
        case LiveFinding::Source::Check: return tr("check");
        case LiveFinding::Source::Congestion: return tr("congestion");
        case LiveFinding::Source::Connection: return tr("connection");
        case LiveFinding::Source::Test: return tr("test");
        }
        return {};
    case Code: return qs(f.code);
    case Where: return qs(f.where);
    case Message: return qs(f.message);
    default: return {};
    }
}

LiveFindingsFilter::LiveFindingsFilter(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setFilterKeyColumn(-1);
    setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void LiveFindingsFilter::setMaxSeverity(int severity)
{
    m_maxSeverity = severity;
    invalidateFilter();
}

void LiveFindingsFilter::setSource(int source)
{
    m_source = source;
    invalidateFilter();
}

bool LiveFindingsFilter::filterAcceptsRow(int row, const QModelIndex& parent) const
{
    const QModelIndex first = sourceModel()->index(row, 0, parent);
    if (sourceModel()->data(first, LiveFindingsModel::SeverityRole).toInt() > m_maxSeverity)
        return false;
    if (m_source >= 0 && sourceModel()->data(first, LiveFindingsModel::SourceRole).toInt() != m_source)
        return false;
    return QSortFilterProxyModel::filterAcceptsRow(row, parent);
}

void LiveNodesModel::setFrame(std::shared_ptr<const LiveFrame> frame)
{
    const bool sameRows = m_frame && frame && m_frame->nodes.size() == frame->nodes.size();
    if (!sameRows) {
        beginResetModel();
        m_frame = std::move(frame);
        endResetModel();
        return;
    }
    m_frame = std::move(frame);
    // One batched change per sweep, never one per node (STYLE §6.3).
    if (rowCount() > 0)
        emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int LiveNodesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_frame ? 0 : static_cast<int>(m_frame->nodes.size());
}

int LiveNodesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LiveNodesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Node: return tr("Node");
    case State: return tr("Agent");
    case Latency: return tr("Answer (ms)");
    case LastError: return tr("Last error");
    default: return {};
    }
}

QString LiveNodesModel::linkText(NodeLink link)
{
    switch (link) {
    case NodeLink::Waiting: return tr("waiting");
    case NodeLink::Connected: return tr("connected");
    case NodeLink::Slow: return tr("slow");
    case NodeLink::Lost: return tr("lost");
    }
    return {};
}

QVariant LiveNodesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const NodeConnection& n = m_frame->nodes[static_cast<std::size_t>(index.row())];
    if (role == Qt::ForegroundRole && index.column() == State)
        return n.link == NodeLink::Lost ? QColor(0xb0, 0x20, 0x20) : n.link == NodeLink::Slow ? QColor(0xa0, 0x60, 0x00) : QVariant();
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Node: return qs(n.node);
    case State: return linkText(n.link);
    case Latency: return n.link == NodeLink::Waiting ? QVariant() : QVariant(n.latencyMs);
    case LastError: return qs(n.lastError);
    default: return {};
    }
}

} // namespace railyard::app
