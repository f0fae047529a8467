// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/intent_view.h"

#include "app/models/plan_table_model.h"
#include "app/widgets/table_page.h"
#include "planner/host_config.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableView>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <sstream>

namespace railyard::app {

namespace {

    enum ItemRole { NameRole = Qt::UserRole, KindRole };
    enum ItemKind { AddressKind, SwitchKind, HostKind };

    QString qs(const std::string& s) { return QString::fromStdString(s); }

    QString errorsText(const core::Errors& errors)
    {
        QStringList lines;
        for (const core::Error& e : errors)
            lines << qs(e.toString());
        return lines.join(QLatin1Char('\n'));
    }

} // namespace

IntentView::IntentView(QWidget* parent)
    : QWidget(parent)
{
    m_stack = new QStackedWidget(this);

    // Page 0: why there is nothing to show.
    auto* messagePage = new QWidget(m_stack);
    m_message = new QLabel(messagePage);
    m_message->setObjectName(QStringLiteral("intentMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setMaximumWidth(720);
    m_makeRouted = new QPushButton(tr("Make it &routed (default ranges)"), messagePage);
    m_makeRouted->setObjectName(QStringLiteral("intentMakeRouted"));
    m_makeRouted->setToolTip(tr("Adds `addressing` to the spec: a /31 per link from 10.0.0.0/10, loopbacks from 10.255.0.0/16, "
                                "a private AS number per leaf (eBGP)"));
    auto* messageColumn = new QVBoxLayout(messagePage);
    messageColumn->setContentsMargins(24, 24, 24, 24);
    messageColumn->addWidget(m_message);
    messageColumn->addWidget(m_makeRouted, 0, Qt::AlignLeft);
    messageColumn->addStretch(1);
    m_stack->addWidget(messagePage);

    // Page 1: devices on the left, the address table or the selected device's text on the right.
    auto* content = new QWidget(m_stack);
    m_summary = new QLabel(content);
    m_summary->setObjectName(QStringLiteral("intentSummary"));
    m_summary->setWordWrap(true);
    m_osChoice = new QComboBox(content);
    m_osChoice->setObjectName(QStringLiteral("intentSwitchOs"));
    m_osChoice->addItem(tr("NVIDIA Cumulus (NVUE)"), static_cast<int>(planner::SwitchOs::Nvue));
    m_osChoice->addItem(tr("SONiC (config_db.json)"), static_cast<int>(planner::SwitchOs::Sonic));
    m_osChoice->setToolTip(tr("The switch operating system the configurations are written for"));
    m_copy = new QPushButton(tr("&Copy"), content);
    m_copy->setObjectName(QStringLiteral("intentCopy"));
    m_copy->setToolTip(tr("Copy the shown configuration (or the address plan as CSV) to the clipboard"));
    auto* exportButton = new QToolButton(content);
    exportButton->setText(tr("&Export"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto* exportMenu = new QMenu(exportButton);
    const QList<QPair<QString, QString>> exports {
        { tr("Address plan (CSV)..."), QStringLiteral("addresses-csv") },
        { tr("Address plan (JSON)..."), QStringLiteral("addresses-json") },
        { tr("Switch configurations (NVUE) to a folder..."), QStringLiteral("switch-config-nvue") },
        { tr("Switch configurations (SONiC) to a folder..."), QStringLiteral("switch-config-sonic") },
        { tr("Host scripts to a folder..."), QStringLiteral("host-config") },
    };
    for (const auto& [label, kind] : exports)
        exportMenu->addAction(label, this, [this, kind = kind] { emit exportRequested(kind); });
    exportButton->setMenu(exportMenu);

    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(new QLabel(tr("Switch OS:"), content));
    top->addWidget(m_osChoice);
    top->addWidget(m_copy);
    top->addWidget(exportButton);

    auto* left = new QWidget(content);
    m_filter = new QLineEdit(left);
    m_filter->setObjectName(QStringLiteral("intentFilter"));
    m_filter->setPlaceholderText(tr("Find a switch, node or address"));
    m_filter->setClearButtonEnabled(true);
    m_devices = new QTreeWidget(left);
    m_devices->setObjectName(QStringLiteral("intentDevices"));
    m_devices->setHeaderHidden(true);
    m_devices->setUniformRowHeights(true);
    auto* leftColumn = new QVBoxLayout(left);
    leftColumn->setContentsMargins(0, 0, 0, 0);
    leftColumn->addWidget(m_filter);
    leftColumn->addWidget(m_devices, 1);

    m_content = new QStackedWidget(content);
    m_model = new AddressesModel(this);
    m_table = new TablePage(m_model, m_content);
    // Plan order is the useful order (rail by rail); sorting 400,000 made-on-demand rows is not.
    m_table->view()->setSortingEnabled(false);
    m_table->proxy()->sort(-1);
    // One search for the page: the device filter on the left also filters the table.
    m_table->searchField()->hide();
    m_text = new QPlainTextEdit(m_content);
    m_text->setObjectName(QStringLiteral("intentText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_content->addWidget(m_table);
    m_content->addWidget(m_text);

    auto* split = new QSplitter(content);
    split->addWidget(left);
    split->addWidget(m_content);
    split->setStretchFactor(1, 1);
    split->setSizes({ 240, 760 });

    auto* column = new QVBoxLayout(content);
    column->setContentsMargins(6, 6, 6, 6);
    column->addLayout(top);
    column->addWidget(split, 1);
    m_stack->addWidget(content);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_makeRouted, &QPushButton::clicked, this, [this] {
        if (!m_plan)
            return;
        core::PlanSpec spec = m_plan->spec;
        spec.addressingGiven = true;
        emit specChosen(spec);
    });
    connect(m_osChoice, &QComboBox::currentIndexChanged, this, [this] {
        m_os = static_cast<planner::SwitchOs>(m_osChoice->currentData().toInt());
        showCurrent();
    });
    connect(m_copy, &QPushButton::clicked, this, &IntentView::copyShown);
    connect(m_filter, &QLineEdit::textChanged, this, &IntentView::filterDevices);
    connect(m_devices, &QTreeWidget::currentItemChanged, this, &IntentView::showCurrent);

    showMessage(tr("No plan yet."), false);
}

void IntentView::setPlan(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog)
{
    m_plan = std::move(plan);
    m_catalog = std::move(catalog);
    m_addresses.reset();
    const int generation = ++m_generation;
    if (!m_plan) {
        showMessage(tr("No plan yet."), false);
        return;
    }
    if (m_plan->spec.fabric != core::Fabric::RoCEv2) {
        showMessage(tr("InfiniBand needs no address plan or switch configuration from here: the Subnet Manager assigns the LIDs "
                       "and computes the routes. The network intent (addresses, BGP, lossless QoS, host routing) is for "
                       "RoCEv2 plans."),
            false);
        return;
    }
    if (!planner::isRouted(*m_plan)) {
        showMessage(tr("This RoCEv2 plan is not routed: its spec has no `addressing`. A routed (L3) fabric gives every link a /31 "
                       "(or every leaf a subnet for its NICs), every switch a loopback and an AS number for eBGP, and from them "
                       "Railyard generates each switch's configuration (addresses, BGP, the lossless QoS of the plan) and each "
                       "node's host script (addresses, source routing per NIC, ARP and rp_filter, mlnx_qos, ECN/DCQCN, NCCL "
                       "environment)."),
            true);
        return;
    }
    showMessage(tr("Assigning addresses..."), false);
    QPointer<IntentView> self(this);
    const std::shared_ptr<const core::Plan> snapshot = m_plan;
    auto future = QtConcurrent::run([snapshot] { return planner::planAddresses(*snapshot); });
    future.then(this, [self, generation, snapshot](const core::Result<planner::AddressPlan>& made) {
        if (!self || generation != self->m_generation)
            return;
        if (!made)
            self->addressesMade(snapshot, nullptr, errorsText(made.errors()));
        else
            self->addressesMade(snapshot, std::make_shared<const planner::AddressPlan>(*made), {});
    });
}

void IntentView::addressesMade(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const planner::AddressPlan> addresses,
    const QString& errors)
{
    if (!addresses) {
        showMessage(tr("The address plan cannot be made:\n%1\n\nWiden the range in the spec's `addressing`.").arg(errors), false);
        emit addressesReady();
        return;
    }
    m_addresses = addresses;
    m_model->setAddresses(plan, addresses);
    const QLocale locale;
    const auto& spec = plan->spec.addressing;
    m_summary->setText(tr("Routed RoCEv2, %1: %2 links from %3, %4 loopbacks from %5, AS numbers %6 from %7; %8 NIC ports.")
                           .arg(qs(addresses->scheme), locale.toString(static_cast<qulonglong>(addresses->links.size())),
                               qs(spec.fabric.toString()), locale.toString(static_cast<qulonglong>(addresses->switches.size())),
                               qs(spec.loopbacks.toString()), qs(spec.asn.scheme), QString::number(spec.asn.base),
                               locale.toString(static_cast<qulonglong>(addresses->nics.size()))));
    fillDevices();
    m_stack->setCurrentIndex(1);
    emit addressesReady();
}

void IntentView::showMessage(const QString& text, bool offerRouting)
{
    m_model->setAddresses(nullptr, nullptr);
    m_devices->clear();
    m_addressItem = m_switchesItem = m_hostsItem = nullptr;
    m_message->setText(text);
    m_makeRouted->setVisible(offerRouting);
    m_stack->setCurrentIndex(0);
}

QString IntentView::message() const
{
    return m_stack->currentIndex() == 0 ? m_message->text() : QString();
}

void IntentView::fillDevices()
{
    const QSignalBlocker block(m_devices);
    m_devices->clear();
    m_addressItem = new QTreeWidgetItem(m_devices, { tr("Address plan") });
    m_addressItem->setData(0, KindRole, AddressKind);
    m_switchesItem = new QTreeWidgetItem(m_devices);
    m_hostsItem = new QTreeWidgetItem(m_devices);
    int switches = 0, hosts = 0;
    QList<QTreeWidgetItem*> switchItems, hostItems;
    for (const core::Device& d : m_plan->devices) {
        if (d.kind == core::DeviceKind::Management)
            continue;
        const bool isSwitch = d.kind == core::DeviceKind::Switch;
        auto* item = new QTreeWidgetItem({ qs(d.name) });
        item->setData(0, NameRole, qs(d.name));
        item->setData(0, KindRole, isSwitch ? SwitchKind : HostKind);
        (isSwitch ? switchItems : hostItems) << item;
        ++(isSwitch ? switches : hosts);
    }
    m_switchesItem->addChildren(switchItems);
    m_hostsItem->addChildren(hostItems);
    m_switchesItem->setText(0, tr("Switches (%1)").arg(QLocale().toString(switches)));
    m_hostsItem->setText(0, tr("Hosts (%1)").arg(QLocale().toString(hosts)));
    m_switchesItem->setFlags(Qt::ItemIsEnabled);
    m_hostsItem->setFlags(Qt::ItemIsEnabled);
    m_switchesItem->setExpanded(true);
    m_hostsItem->setExpanded(switches + hosts <= 2000);
    m_devices->setCurrentItem(m_addressItem);
    filterDevices(m_filter->text());
    showCurrent();
}

void IntentView::filterDevices(const QString& text)
{
    for (QTreeWidgetItem* group : { m_switchesItem, m_hostsItem }) {
        if (!group)
            continue;
        int shown = 0;
        for (int i = 0; i < group->childCount(); ++i) {
            QTreeWidgetItem* item = group->child(i);
            const bool match = text.isEmpty() || item->text(0).contains(text, Qt::CaseInsensitive);
            item->setHidden(!match);
            shown += match;
        }
        if (!text.isEmpty() && shown > 0)
            group->setExpanded(true);
    }
    m_table->setSearch(text);
}

bool IntentView::select(const QString& name)
{
    if (!m_addressItem)
        return false;
    if (name.isEmpty()) {
        m_devices->setCurrentItem(m_addressItem);
        return true;
    }
    for (QTreeWidgetItem* group : { m_switchesItem, m_hostsItem }) {
        for (int i = 0; i < group->childCount(); ++i) {
            if (group->child(i)->data(0, NameRole).toString() == name) {
                m_devices->setCurrentItem(group->child(i));
                return true;
            }
        }
    }
    return false;
}

void IntentView::setSwitchOs(planner::SwitchOs os)
{
    m_osChoice->setCurrentIndex(m_osChoice->findData(static_cast<int>(os)));
}

QString IntentView::shownText() const
{
    return m_content->currentWidget() == m_text ? m_text->toPlainText() : QString();
}

void IntentView::showCurrent()
{
    QTreeWidgetItem* item = m_devices->currentItem();
    if (!m_addresses || !m_plan || !item || !item->data(0, KindRole).isValid() || item->data(0, KindRole).toInt() == AddressKind) {
        m_content->setCurrentWidget(m_table);
        return;
    }
    const std::string name = item->data(0, NameRole).toString().toStdString();
    core::Result<std::vector<planner::ConfigFile>> files = [&] {
        if (item->data(0, KindRole).toInt() == SwitchKind)
            return planner::switchConfigs(*m_plan, *m_addresses, m_os, name);
        const core::NodeType* type = m_catalog ? m_catalog->findNodeType(m_plan->spec.nodeType) : nullptr;
        return planner::hostConfigs(*m_plan, *m_addresses, type ? type->railMap : std::vector<std::string> {}, name);
    }();
    if (!files)
        m_text->setPlainText(errorsText(files.errors()));
    else
        m_text->setPlainText(files->empty() ? QString() : QString::fromStdString(files->front().text));
    m_content->setCurrentWidget(m_text);
}

void IntentView::copyShown()
{
    if (m_content->currentWidget() == m_text) {
        QApplication::clipboard()->setText(m_text->toPlainText());
        return;
    }
    if (!m_addresses || !m_plan)
        return;
    std::ostringstream out;
    planner::writeAddressesCsv(*m_plan, *m_addresses, out);
    QApplication::clipboard()->setText(QString::fromStdString(out.str()));
}

} // namespace railyard::app
