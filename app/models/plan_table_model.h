// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "planner/addressing.h"

#include <QAbstractTableModel>

#include <memory>

namespace railyard::app {

/// Base of the read-only tables over one plan snapshot. A new plan replaces the snapshot
/// as a whole (one model reset), on the GUI thread.
class PlanTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setPlan(std::shared_ptr<const core::Plan> plan);
    const core::Plan* plan() const { return m_plan.get(); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    /// Role that returns a value to sort by (numbers as numbers).
    static constexpr int SortRole = Qt::UserRole + 1;

protected:
    virtual int rows(const core::Plan& plan) const = 0;
    virtual QStringList headers() const = 0;
    /// Display text of a cell, and its sort value.
    virtual QVariant cell(const core::Plan& plan, int row, int column, int role) const = 0;

private:
    std::shared_ptr<const core::Plan> m_plan;
};

/// Findings: severity, code, where, message.
class FindingsModel final : public PlanTableModel {
    Q_OBJECT
public:
    using PlanTableModel::PlanTableModel;
    enum Column { Severity, Code, Where, Message };

protected:
    int rows(const core::Plan& plan) const override;
    QStringList headers() const override;
    QVariant cell(const core::Plan& plan, int row, int column, int role) const override;
};

/// Bill of materials lines.
class BomModel final : public PlanTableModel {
    Q_OBJECT
public:
    using PlanTableModel::PlanTableModel;
    enum Column { Category, Quantity, Part, Item, Length, UnitPrice };

protected:
    int rows(const core::Plan& plan) const override;
    QStringList headers() const override;
    QVariant cell(const core::Plan& plan, int row, int column, int role) const override;
};

/// The cable map: one row per link (393,000 rows for 128K GPUs; names are made on demand).
class CableMapModel final : public PlanTableModel {
    Q_OBJECT
public:
    using PlanTableModel::PlanTableModel;
    enum Column { A, ACage, B, BCage, Tier, Medium, Length, Part, Installed };

protected:
    int rows(const core::Plan& plan) const override;
    QStringList headers() const override;
    QVariant cell(const core::Plan& plan, int row, int column, int role) const override;
};

/// Switches: name, tier, model, SU, rail, ports used and free.
class SwitchesModel final : public PlanTableModel {
    Q_OBJECT
public:
    using PlanTableModel::PlanTableModel;
    enum Column { Name, Tier, Model, Su, Rail, Ports, Used, Free, Installed };

protected:
    int rows(const core::Plan& plan) const override;
    QStringList headers() const override;
    QVariant cell(const core::Plan& plan, int row, int column, int role) const override;

private:
    /// Plan::devices index of switch row `row` (switches follow nodes and management ports).
    std::size_t deviceIndex(const core::Plan& plan, int row) const;
};

/// The address plan of a routed RoCEv2 plan (planner::addressRow): loopbacks, leaf subnets and
/// every link's two addresses, rows made on demand (about 400,000 for 128K GPUs). Empty until
/// setAddresses() gives the address plan of the current plan snapshot.
class AddressesModel final : public PlanTableModel {
    Q_OBJECT
public:
    using PlanTableModel::PlanTableModel;
    enum Column { Kind, Name, Address, Prefix, Peer, PeerAddress, Asn, Rail, Plane, Tier };

    /// The plan and its address plan together (one model reset); `addresses` null clears them.
    void setAddresses(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const planner::AddressPlan> addresses);
    const planner::AddressPlan* addresses() const { return m_addresses.get(); }

protected:
    int rows(const core::Plan& plan) const override;
    QStringList headers() const override;
    QVariant cell(const core::Plan& plan, int row, int column, int role) const override;

private:
    std::shared_ptr<const planner::AddressPlan> m_addresses;
    /// The last row made: a view asks for every column of a row in turn.
    mutable int m_cachedRow = -1;
    mutable planner::AddressRow m_cached;
};

} // namespace railyard::app
