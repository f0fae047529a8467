// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/plan_table_model.h"

#include <QLocale>

namespace railyard::app {

namespace {

    QString qs(const std::string& s)
    {
        return QString::fromStdString(s);
    }

    QString qs(std::string_view s)
    {
        return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
    }

    QString cageText(const core::Plan& plan, const core::PortRef& port)
    {
        const auto [cage, pos] = plan.cageOf(port);
        return cage == 0 ? QString() : QStringLiteral("%1/%2").arg(cage).arg(pos);
    }

    std::size_t firstSwitch(const core::Plan& plan)
    {
        std::size_t i = 0;
        while (i < plan.devices.size() && plan.devices[i].kind != core::DeviceKind::Switch)
            ++i;
        return i;
    }

} // namespace

void PlanTableModel::setPlan(std::shared_ptr<const core::Plan> plan)
{
    beginResetModel();
    m_plan = std::move(plan);
    endResetModel();
}

int PlanTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_plan ? 0 : rows(*m_plan);
}

int PlanTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(headers().size());
}

QVariant PlanTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    const QStringList h = headers();
    return section >= 0 && section < h.size() ? QVariant(h[section]) : QVariant();
}

QVariant PlanTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_plan || !index.isValid() || index.row() >= rows(*m_plan))
        return {};
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole && role != Qt::TextAlignmentRole)
        return {};
    return cell(*m_plan, index.row(), index.column(), role);
}

int FindingsModel::rows(const core::Plan& plan) const
{
    return static_cast<int>(plan.findings.size());
}

QStringList FindingsModel::headers() const
{
    return { tr("Severity"), tr("Code"), tr("Where"), tr("Finding") };
}

QVariant FindingsModel::cell(const core::Plan& plan, int row, int column, int role) const
{
    const auto& f = plan.findings[static_cast<std::size_t>(row)];
    if (role == Qt::TextAlignmentRole)
        return {};
    if (role == SortRole && column == Severity)
        return static_cast<int>(f.severity);
    if (role == Qt::ToolTipRole)
        return qs(f.message);
    switch (column) {
    case Severity:
        return f.severity == core::Severity::Error ? tr("error") : f.severity == core::Severity::Warning ? tr("warning") : tr("info");
    case Code:
        return qs(f.code);
    case Where:
        return qs(f.where);
    case Message:
        return qs(f.message);
    }
    return {};
}

int BomModel::rows(const core::Plan& plan) const
{
    return static_cast<int>(plan.bom.size());
}

QStringList BomModel::headers() const
{
    return { tr("Category"), tr("Quantity"), tr("Part"), tr("Item"), tr("Length (m)"), tr("Unit price (USD)") };
}

QVariant BomModel::cell(const core::Plan& plan, int row, int column, int role) const
{
    const auto& l = plan.bom[static_cast<std::size_t>(row)];
    if (role == Qt::TextAlignmentRole)
        return column == Quantity || column == Length || column == UnitPrice ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    if (role == Qt::ToolTipRole)
        return qs(l.catalogId);
    const bool sort = role == SortRole;
    switch (column) {
    case Category:
        return qs(l.category);
    case Quantity:
        return sort ? QVariant(l.quantity) : QVariant(QLocale().toString(l.quantity));
    case Part:
        return qs(l.part);
    case Item:
        return qs(l.item);
    case Length:
        return l.lengthM > 0 ? QVariant(l.lengthM) : QVariant();
    case UnitPrice:
        return l.unitPriceUsd ? QVariant(*l.unitPriceUsd) : QVariant();
    }
    return {};
}

int CableMapModel::rows(const core::Plan& plan) const
{
    return static_cast<int>(plan.links.size());
}

QStringList CableMapModel::headers() const
{
    return { tr("End A"), tr("Cage A"), tr("End B"), tr("Cage B"), tr("Tier"), tr("Medium"), tr("Length (m)"), tr("Part"),
        tr("Installed") };
}

QVariant CableMapModel::cell(const core::Plan& plan, int row, int column, int role) const
{
    const auto& l = plan.links[static_cast<std::size_t>(row)];
    if (role == Qt::TextAlignmentRole)
        return column == Length ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    if (role == Qt::ToolTipRole)
        return {};
    switch (column) {
    case A:
        return qs(plan.portName(l.a));
    case ACage:
        return cageText(plan, l.a);
    case B:
        return qs(plan.portName(l.b));
    case BCage:
        return cageText(plan, l.b);
    case Tier:
        return qs(core::toString(l.tier));
    case Medium:
        return qs(core::toString(l.medium));
    case Length:
        return static_cast<double>(l.lengthM);
    case Part:
        return qs(plan.assemblies[l.assembly].cable);
    case Installed:
        return l.installed ? tr("yes") : tr("planned");
    }
    return {};
}

std::size_t SwitchesModel::deviceIndex(const core::Plan& plan, int row) const
{
    return firstSwitch(plan) + static_cast<std::size_t>(row);
}

int SwitchesModel::rows(const core::Plan& plan) const
{
    return static_cast<int>(plan.devices.size() - firstSwitch(plan));
}

QStringList SwitchesModel::headers() const
{
    return { tr("Switch"), tr("Tier"), tr("Model"), tr("SU"), tr("Rail"), tr("Ports"), tr("Used"), tr("Free"), tr("Installed") };
}

QVariant SwitchesModel::cell(const core::Plan& plan, int row, int column, int role) const
{
    const auto& d = plan.devices[deviceIndex(plan, row)];
    if (role == Qt::TextAlignmentRole)
        return column >= Su && column <= Free ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    if (role == Qt::ToolTipRole)
        return {};
    switch (column) {
    case Name:
        return qs(d.name);
    case Tier:
        return qs(core::toString(d.tier));
    case Model:
        return qs(d.model);
    case Su:
        return d.su > 0 ? QVariant(d.su) : QVariant();
    case Rail:
        return d.rail >= 0 ? QVariant(d.rail) : QVariant();
    case Ports:
        return d.ports;
    case Used:
        return d.portsUsed;
    case Free:
        return d.portsFree();
    case Installed:
        return d.installed ? tr("yes") : tr("planned");
    }
    return {};
}

void AddressesModel::setAddresses(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const planner::AddressPlan> addresses)
{
    // The plan first (its own reset), then the rows that belong to it.
    m_addresses.reset();
    m_cachedRow = -1;
    setPlan(std::move(plan));
    beginResetModel();
    m_addresses = std::move(addresses);
    endResetModel();
}

int AddressesModel::rows(const core::Plan&) const
{
    return m_addresses ? static_cast<int>(planner::addressRowCount(*m_addresses)) : 0;
}

QStringList AddressesModel::headers() const
{
    return { tr("Kind"), tr("Name"), tr("Address"), tr("Prefix"), tr("Peer"), tr("Peer address"), tr("ASN"), tr("Rail"), tr("Plane"),
        tr("Tier") };
}

QVariant AddressesModel::cell(const core::Plan& plan, int row, int column, int role) const
{
    if (role == Qt::TextAlignmentRole)
        return column == Prefix || column == Asn || column == Rail || column == Plane ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                                                                      : QVariant();
    if (role == Qt::ToolTipRole)
        return {};
    if (row != m_cachedRow) {
        m_cached = planner::addressRow(plan, *m_addresses, static_cast<std::size_t>(row));
        m_cachedRow = row;
    }
    const planner::AddressRow& r = m_cached;
    switch (column) {
    case Kind:
        return qs(r.kind);
    case Name:
        return qs(r.name);
    case Address:
        return qs(r.address);
    case Prefix:
        return QStringLiteral("/%1").arg(r.prefixLength);
    case Peer:
        return qs(r.peer);
    case PeerAddress:
        return qs(r.peerAddress);
    case Asn:
        return qs(r.asn);
    case Rail:
        return qs(r.rail);
    case Plane:
        return qs(r.plane);
    case Tier:
        return qs(r.tier);
    }
    return {};
}

} // namespace railyard::app

