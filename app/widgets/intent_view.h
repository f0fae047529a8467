// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "planner/addressing.h"
#include "planner/switch_config.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTreeWidget;
class QTreeWidgetItem;

namespace railyard::app {

class AddressesModel;
class TablePage;

/// The planner's "Network intent" page for a routed RoCEv2 plan: the address plan (loopbacks,
/// subnets, every link's two addresses), each switch's generated configuration (NVUE or SONiC)
/// and each node's host script, as `railyard-cli export addresses|switch-config|host-config`
/// write them (the planner makes the text; this page only shows it). Copy puts the shown text on
/// the clipboard; Export writes files through the main window's exports.
///
/// The address plan is made off the GUI thread (a 128K-GPU plan takes about 0.1 s); a switch's or
/// a node's text is made when it is selected. An InfiniBand plan, or a RoCEv2 plan without
/// `addressing`, shows why there is nothing to show and, for the latter, offers to add the
/// default addressing to the spec.
class IntentView : public QWidget {
    Q_OBJECT
public:
    explicit IntentView(QWidget* parent = nullptr);

    void setPlan(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog);

    AddressesModel* addressesModel() const { return m_model; }
    /// Selects the address table, or a switch or node by name; false when the plan has no such device.
    bool select(const QString& name);
    /// The text of the selected switch or node (empty on the address table).
    QString shownText() const;
    void setSwitchOs(planner::SwitchOs os);
    /// The page's explanation when there is nothing to show (IB, not routed, address errors).
    QString message() const;

signals:
    /// Export `kind` (export_jobs.h: addresses-csv, switch-config-nvue, ...) was asked for.
    void exportRequested(const QString& kind);
    /// The user asked to make the plan routed: the spec with the default `addressing`.
    void specChosen(const core::PlanSpec& spec);
    /// The address plan of the current plan is shown (or its errors are).
    void addressesReady();

private:
    void showMessage(const QString& text, bool offerRouting);
    void addressesMade(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const planner::AddressPlan> addresses, const QString& errors);
    void fillDevices();
    void filterDevices(const QString& text);
    void showCurrent();
    void copyShown();

    std::shared_ptr<const core::Plan> m_plan;
    std::shared_ptr<const core::Catalog> m_catalog;
    std::shared_ptr<const planner::AddressPlan> m_addresses;
    int m_generation = 0; ///< plans handed in so far: a late address plan of an older plan is dropped
    planner::SwitchOs m_os = planner::SwitchOs::Nvue;

    QStackedWidget* m_stack = nullptr;
    QLabel* m_message = nullptr;
    QPushButton* m_makeRouted = nullptr;
    QLabel* m_summary = nullptr;
    QComboBox* m_osChoice = nullptr;
    QPushButton* m_copy = nullptr;
    QLineEdit* m_filter = nullptr;
    QTreeWidget* m_devices = nullptr;
    QTreeWidgetItem* m_addressItem = nullptr;
    QTreeWidgetItem* m_switchesItem = nullptr;
    QTreeWidgetItem* m_hostsItem = nullptr;
    QStackedWidget* m_content = nullptr;
    AddressesModel* m_model = nullptr;
    TablePage* m_table = nullptr;
    QPlainTextEdit* m_text = nullptr;
};

} // namespace railyard::app
