// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/live_workspace.h"

#include "app/models/live_findings_model.h"
#include "app/models/live_session.h"
#include "app/widgets/live_connect_dialog.h"
#include "app/widgets/live_fabric_view.h"
#include "app/widgets/live_grid.h"
#include "app/widgets/live_history_view.h"
#include "app/widgets/live_node_panel.h"
#include "app/widgets/live_rail_chart.h"
#include "app/widgets/live_test_view.h"
#include "live/sim/faults.h"

#include <QAction>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <tuple>

namespace railyard::app {

namespace {

    QToolButton* toolButton(QAction* action, QWidget* parent)
    {
        auto* b = new QToolButton(parent);
        b->setDefaultAction(action);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        b->setAutoRaise(true);
        return b;
    }

    /// "node007" -> (node007, -1); "node007/nic3" -> (node007, 3); other places -> ("", -1).
    std::pair<std::string, int> nodePlace(const QString& where)
    {
        static const QRegularExpression nic(QStringLiteral("^([^/ ]+)/nic(\\d+)$"));
        const auto m = nic.match(where);
        if (m.hasMatch())
            return { m.captured(1).toStdString(), m.captured(2).toInt() };
        if (!where.contains(QLatin1Char('/')) && !where.contains(QLatin1Char(' ')))
            return { where.toStdString(), -1 };
        return { {}, -1 };
    }

} // namespace

LiveWorkspace::LiveWorkspace(QWidget* parent)
    : QWidget(parent)
    , m_session(new LiveSession(this))
{
    buildActions();
    m_grid = new LiveGrid(this);
    m_panel = new LiveNodePanel(this);
    auto* top = new QSplitter(Qt::Horizontal, this);
    top->setObjectName(QStringLiteral("liveTopSplit"));
    top->addWidget(m_grid);
    top->addWidget(m_panel);
    top->setStretchFactor(0, 3);
    top->setStretchFactor(1, 1);
    top->setSizes({ 880, 380 });

    m_throughput = new LiveRailChart(LiveRailChart::Kind::Throughput, this);
    m_congestion = new LiveRailChart(LiveRailChart::Kind::Congestion, this);
    // The two time charts zoom and scroll together.
    connect(m_throughput, &LiveRailChart::viewChanged, m_congestion, &LiveRailChart::setView);
    connect(m_congestion, &LiveRailChart::viewChanged, m_throughput, &LiveRailChart::setView);
    m_nodes = new LiveNodesModel(this);
    m_fabric = new LiveFabricView(this);
    auto* nodesView = new QTableView(this);
    nodesView->setModel(m_nodes);
    nodesView->horizontalHeader()->setStretchLastSection(true);
    nodesView->verticalHeader()->hide();
    // A tab bar over a stack rather than a QTabWidget: the planner's pages stay the main window's
    // one tab widget (what its tests and findChild<QTabWidget*>() find).
    auto* pages = new QWidget(this);
    m_tabs = new QTabBar(pages);
    m_tabs->setExpanding(false);
    auto* stack = new QStackedWidget(pages);
    for (const auto& [widget, title] : { std::pair<QWidget*, QString> { m_throughput, tr("Throughput") }, { m_congestion, tr("Congestion") },
             { buildFindingsPage(), tr("Findings") }, { nodesView, tr("Nodes") }, { m_fabric, tr("Leaf/spine") } }) {
        m_tabs->addTab(title);
        stack->addWidget(widget);
    }
    // Tests and History, found by name (showTab) whatever tabs come before them.
    m_testPage = new LiveTestPage(*m_session, this);
    m_history = new LiveHistoryPage(*m_session, this);
    connect(m_history, &LiveHistoryPage::saveProjectRequested, this, &LiveWorkspace::saveProjectRequested);
    for (const auto& [widget, title, name] : { std::tuple<QWidget*, QString, QString> { m_testPage, tr("Tests"), QStringLiteral("tests") },
             { m_history, tr("History"), QStringLiteral("history") } }) {
        m_tabs->setTabData(m_tabs->addTab(title), name);
        stack->addWidget(widget);
    }
    connect(m_tabs, &QTabBar::currentChanged, stack, &QStackedWidget::setCurrentIndex);
    // Charts hidden behind another page skip their updates: bring them up to date when shown.
    connect(m_tabs, &QTabBar::currentChanged, this, [this] { frameArrived(); });
    auto* pagesLayout = new QVBoxLayout(pages);
    pagesLayout->setContentsMargins(0, 0, 0, 0);
    pagesLayout->setSpacing(0);
    pagesLayout->addWidget(m_tabs);
    pagesLayout->addWidget(stack, 1);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("liveSplit"));
    split->addWidget(top);
    split->addWidget(pages);
    // About half each: the bottom pages (a test's result, the history) need the room as much as the grid.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({ 460, 440 });

    m_summary = new QLabel(this);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(220);
    m_progress->hide();
    auto* bottom = new QHBoxLayout();
    bottom->addWidget(m_status, 1);
    bottom->addWidget(m_progress);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(buildToolbar());
    layout->addWidget(m_summary);
    layout->addWidget(split, 1);
    layout->addLayout(bottom);

    connect(m_grid, &LiveGrid::cellSelected, this, &LiveWorkspace::cellSelected);
    connect(m_fabric, &LiveFabricView::switchSelected, this, &LiveWorkspace::switchSelected);
    connect(m_session, &LiveSession::stateChanged, this, &LiveWorkspace::stateChanged);
    connect(m_session, &LiveSession::frameReady, this, &LiveWorkspace::frameArrived);
    connect(m_session, &LiveSession::findingsChanged, this, &LiveWorkspace::findingsChanged);
    connect(m_session, &LiveSession::failed, this, [this](const QString& message) { setStatus(message); });
    connect(m_session, &LiveSession::checkStarted, this, [this] {
        m_progress->setValue(0);
        m_progress->show();
        m_cancelCheck->setEnabled(true);
        m_check->setEnabled(false);
        setStatus(tr("Live check: reading every node's inventory..."));
    });
    connect(m_session, &LiveSession::checkProgress, this, [this](double fraction, const QString& text) {
        m_progress->setValue(static_cast<int>(fraction * 100));
        setStatus(text);
    });
    auto checkEnded = [this] {
        m_progress->hide();
        m_cancelCheck->setEnabled(false);
        m_check->setEnabled(m_session->state() == LiveSession::State::Connected);
    };
    connect(m_session, &LiveSession::checkFinished, this, [this, checkEnded] {
        checkEnded();
        const auto& r = *m_session->checkReport();
        const auto noted = std::count_if(r.nodes.begin(), r.nodes.end(), [](const live::NodeStatus& s) { return !s.warnings.empty(); });
        setStatus(tr("Live check: %1 error(s), %2 warning(s) over %3 node(s)%4%5")
                      .arg(r.count(core::Severity::Error))
                      .arg(r.count(core::Severity::Warning))
                      .arg(r.nodes.size())
                      .arg(r.complete ? QString() : tr("; some nodes could not be read"))
                      .arg(noted == 0 ? QString() : tr("; %1 node(s) with reading notes (click one to see them)").arg(noted)));
        // The panel shows the new report when findingsChanged() follows.
    });
    connect(m_session, &LiveSession::checkCancelled, this, [this, checkEnded] {
        checkEnded();
        setStatus(tr("Live check cancelled."));
    });
    connect(m_session, &LiveSession::testStarted, this, [this] { showTab(QStringLiteral("tests")); });
    connect(m_session, &LiveSession::runNotStored, this, [this](const QString& message) { setStatus(message); });
    connect(m_session, &LiveSession::faultInjected, this, [this](const QString& description) {
        setStatus(tr("Injected %1; checking the fabric again...").arg(description));
        m_session->runCheck();
    });
    stateChanged();
}

LiveWorkspace::~LiveWorkspace() = default;

void LiveWorkspace::buildActions()
{
    m_demo = new QAction(tr("&Demo fabric"), this);
    m_demo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    m_demo->setToolTip(tr("Emulate the current plan on this machine and connect to its agents (Ctrl+Shift+D)"));
    connect(m_demo, &QAction::triggered, this, [this] { m_session->connectDemo(); });
    m_open = new QAction(tr("&Agents file..."), this);
    m_open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_open->setToolTip(tr("Connect to the agents listed in an agents.json (Ctrl+Shift+A)"));
    connect(m_open, &QAction::triggered, this, &LiveWorkspace::openAgentsFile);
    m_hostfile = new QAction(tr("&Hostfile..."), this);
    m_hostfile->setToolTip(tr("Connect to the agents of the hosts in a hostfile (one per line, Open MPI's host slots=N too)"));
    connect(m_hostfile, &QAction::triggered, this, &LiveWorkspace::openHostfile);
    m_prometheus = new QAction(tr("P&rometheus..."), this);
    m_prometheus->setToolTip(tr("Read the fabric's rates from a Prometheus server that scrapes the agents or the node exporter"));
    connect(m_prometheus, &QAction::triggered, this, &LiveWorkspace::openPrometheus);
    m_disconnect = new QAction(tr("Dis&connect"), this);
    m_disconnect->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X));
    connect(m_disconnect, &QAction::triggered, this, [this] { m_session->disconnectFabric(); });
    m_pause = new QAction(tr("&Pause charts"), this);
    m_pause->setCheckable(true);
    m_pause->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    m_pause->setToolTip(tr("Freeze the charts; sampling goes on (Ctrl+Shift+P)"));
    connect(m_pause, &QAction::toggled, this, [this](bool paused) {
        m_throughput->setPaused(paused);
        m_congestion->setPaused(paused);
        if (!paused)
            frameArrived();
    });
    m_check = new QAction(tr("Run live &check"), this);
    m_check->setShortcut(QKeySequence(Qt::Key_F5));
    m_check->setToolTip(tr("Compare every node's inventory with the plan (F5)"));
    connect(m_check, &QAction::triggered, this, [this] { m_session->runCheck(); });
    m_cancelCheck = new QAction(tr("Cancel check"), this);
    m_cancelCheck->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    connect(m_cancelCheck, &QAction::triggered, this, [this] { m_session->cancelCheck(); });

    m_faults = new QMenu(tr("Inject &fault"), this);
    m_faults->setToolTip(tr("Into the demo fabric, at the selected cell"));
    const QList<QPair<QString, QString>> faults {
        { tr("Link down"), QStringLiteral("link_down") },
        { tr("Degraded link (half width)"), QStringLiteral("degraded") },
        { tr("Cable unplugged"), QStringLiteral("unplugged") },
        { tr("Congested leaf uplinks"), QStringLiteral("congested") },
        { tr("PFC off on the node"), QStringLiteral("no_pfc") },
        { tr("ECN off on the node"), QStringLiteral("no_ecn") },
        { tr("No GPUDirect on the node"), QStringLiteral("no_gpudirect") },
    };
    for (const auto& [label, kind] : faults)
        m_faults->addAction(label, this, [this, kind = kind] { injectAtSelection(kind); })->setObjectName(QStringLiteral("fault_") + kind);
    // The host settings of a RoCEv2 NIC against the plan's intent (live check's host findings).
    m_faults->addSection(tr("RoCEv2 host settings (the selected NIC)"));
    const QList<QPair<QString, QString>> roceFaults {
        { tr("Trust mode PCP instead of DSCP"), QStringLiteral("wrong_trust") },
        { tr("PFC on the wrong priority"), QStringLiteral("pfc_wrong_priority") },
        { tr("MTU 1500"), QStringLiteral("mtu_mismatch") },
        { tr("rp_filter strict (routed plans)"), QStringLiteral("rp_filter_strict") },
        { tr("RoCE v2 GID at another index"), QStringLiteral("wrong_gid_index") },
    };
    for (const auto& [label, kind] : roceFaults) {
        QAction* a = m_faults->addAction(label, this, [this, kind = kind] { injectAtSelection(kind); });
        a->setObjectName(QStringLiteral("fault_") + kind);
        a->setProperty("roceOnly", true);
    }
    m_faults->addSeparator();
    for (const bool running : { false, true })
        m_faults->addAction(running ? tr("Start the node's agent again") : tr("Stop the node's agent"), this, [this, running] {
            const auto frame = m_session->frame();
            const int node = m_grid->selectedNode();
            if (!frame || node < 0)
                return setStatus(tr("Click a node in the grid first."));
            m_session->setAgentRunning(frame->nodes[static_cast<std::size_t>(node)].node, running);
        });
    for (QAction* a : { m_demo, m_open, m_disconnect, m_pause, m_check, m_cancelCheck })
        addAction(a);
    for (QAction* a : { m_hostfile, m_prometheus })
        addAction(a);
}

bool LiveWorkspace::showTab(const QString& name)
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->tabData(i).toString() == name) {
            m_tabs->setCurrentIndex(i);
            return true;
        }
    return false;
}

void LiveWorkspace::setProjectPath(const QString& path)
{
    m_session->setProjectPath(path);
    m_history->reload();
}

void LiveWorkspace::fillMenu(QMenu* menu)
{
    menu->addAction(m_demo);
    menu->addAction(m_open);
    menu->addAction(m_hostfile);
    menu->addAction(m_prometheus);
    menu->addAction(m_disconnect);
    menu->addSeparator();
    menu->addAction(m_pause);
    menu->addAction(m_check);
    menu->addAction(m_cancelCheck);
    menu->addAction(m_testPage->runAction());
    menu->addAction(m_testPage->stopAction());
    menu->addSeparator();
    menu->addMenu(m_faults);
}

QWidget* LiveWorkspace::buildToolbar()
{
    auto* bar = new QWidget(this);
    auto* row = new QHBoxLayout(bar);
    row->setContentsMargins(0, 0, 0, 0);
    for (QAction* a : { m_demo, m_open, m_hostfile, m_prometheus, m_disconnect })
        row->addWidget(toolButton(a, bar));
    row->addSpacing(12);
    row->addWidget(new QLabel(tr("Colour by:"), bar));
    m_colour = new QComboBox(bar);
    m_colour->addItems({ tr("Throughput"), tr("Congestion"), tr("Health") });
    connect(m_colour, &QComboBox::currentIndexChanged, this, [this](int i) { m_grid->setColour(static_cast<LiveGrid::Colour>(i)); });
    row->addWidget(m_colour);
    row->addSpacing(12);
    for (QAction* a : { m_pause, m_check, m_cancelCheck })
        row->addWidget(toolButton(a, bar));
    auto* faults = new QToolButton(bar);
    faults->setText(tr("Inject fault"));
    faults->setMenu(m_faults);
    faults->setPopupMode(QToolButton::InstantPopup);
    faults->setAutoRaise(true);
    row->addWidget(faults);
    row->addStretch(1);
    return bar;
}

QWidget* LiveWorkspace::buildFindingsPage()
{
    auto* page = new QWidget(this);
    m_findings = new LiveFindingsModel(this);
    m_filter = new LiveFindingsFilter(this);
    m_filter->setSourceModel(m_findings);
    auto* severity = new QComboBox(page);
    severity->addItems({ tr("Errors"), tr("Errors and warnings"), tr("Everything") });
    severity->setCurrentIndex(2);
    connect(severity, &QComboBox::currentIndexChanged, m_filter, &LiveFindingsFilter::setMaxSeverity);
    auto* source = new QComboBox(page);
    source->addItems({ tr("All sources"), tr("Check"), tr("Congestion"), tr("Connection"), tr("Test") });
    connect(source, &QComboBox::currentIndexChanged, this, [this](int i) { m_filter->setSource(i - 1); });
    auto* text = new QLineEdit(page);
    text->setPlaceholderText(tr("Filter: code, node, words..."));
    text->setClearButtonEnabled(true);
    connect(text, &QLineEdit::textChanged, m_filter, &QSortFilterProxyModel::setFilterFixedString);
    auto* row = new QHBoxLayout();
    row->addWidget(severity);
    row->addWidget(source);
    row->addWidget(text, 1);
    m_findingsView = new QTableView(page);
    m_findingsView->setModel(m_filter);
    m_findingsView->setSortingEnabled(true);
    m_findingsView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findingsView->verticalHeader()->hide();
    m_findingsView->horizontalHeader()->setStretchLastSection(true);
    m_findingsView->setWordWrap(false);
    connect(m_findingsView, &QTableView::clicked, this, &LiveWorkspace::findingClicked);
    connect(m_findingsView, &QTableView::activated, this, &LiveWorkspace::findingClicked);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 2, 0, 0);
    layout->addLayout(row);
    layout->addWidget(m_findingsView, 1);
    return page;
}

void LiveWorkspace::setPlan(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog)
{
    m_plan = plan;
    const bool roce = plan && plan->spec.fabric == core::Fabric::RoCEv2;
    for (QAction* a : m_faults->actions()) {
        if (a->property("roceOnly").toBool())
            a->setEnabled(roce && (a->objectName() != QStringLiteral("fault_rp_filter_strict") || plan->spec.addressingGiven));
    }
    m_fabric->setPlan(plan);
    m_session->setPlan(std::move(plan), std::move(catalog));
    if (m_session->state() == LiveSession::State::Disconnected)
        setStatus(tr("Plan ready: press Demo fabric (Ctrl+Shift+D) to emulate it, or open the fabric's agents.json."));
}

void LiveWorkspace::setStatus(const QString& text)
{
    m_status->setText(text);
}

void LiveWorkspace::openAgentsFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Connect to agents"), QString(), tr("Agent lists (agents.json *.json)"));
    if (!path.isEmpty())
        m_session->connectAgentsFile(path);
}

void LiveWorkspace::openHostfile()
{
    LiveConnectDialog dialog(LiveConnectDialog::Kind::Hostfile, this);
    if (dialog.exec() == QDialog::Accepted)
        m_session->connectHostfile(dialog.target(), dialog.port(), dialog.tokenFile());
}

void LiveWorkspace::openPrometheus()
{
    LiveConnectDialog dialog(LiveConnectDialog::Kind::Prometheus, this);
    if (dialog.exec() == QDialog::Accepted)
        m_session->connectPrometheus(dialog.target(), dialog.nodeExporter(), dialog.selector(), dialog.tokenFile());
}

void LiveWorkspace::switchSelected(int)
{
    m_grid->select(-1, -1);
    refreshPanel();
}

void LiveWorkspace::stateChanged()
{
    const LiveSession::State state = m_session->state();
    const bool connected = state == LiveSession::State::Connected;
    m_disconnect->setEnabled(state != LiveSession::State::Disconnected);
    m_check->setEnabled(connected && !m_session->isChecking());
    m_cancelCheck->setEnabled(m_session->isChecking());
    m_faults->setEnabled(connected && m_session->isDemo());
    if (state == LiveSession::State::Starting)
        setStatus(m_session->isDemo() ? tr("Starting the demo fabric: writing the emulated nodes and starting their agents...")
                                      : tr("Connecting to the agents of %1...").arg(m_session->sourceName()));
    if (state == LiveSession::State::Disconnected) {
        m_configured = false;
        m_grid->setFrame(nullptr);
        m_grid->select(-1, -1);
        m_fabric->setFrame(nullptr);
        m_fabric->select(-1);
        m_nodes->setFrame(nullptr);
        m_summary->setText(tr("Not connected."));
        refreshPanel();
    }
}

void LiveWorkspace::frameArrived()
{
    const auto frame = m_session->frame();
    if (!frame)
        return;
    if (!m_configured) {
        const bool roce = m_plan && m_plan->spec.fabric == core::Fabric::RoCEv2;
        m_throughput->configure(frame->rails, roce, frame->lineRateGbps);
        m_congestion->configure(frame->rails, roce, 0);
        m_configured = true;
        setStatus(tr("Connected to the %1.").arg(m_session->sourceName()));
        // A demo's first check shows its findings without a key press.
        if (m_session->isDemo())
            m_session->runCheck();
    }
    m_grid->setFrame(frame);
    m_fabric->setFrame(frame);
    m_nodes->setFrame(frame);
    // Charts only while they can be seen (STYLE §6.4); the series keep growing meanwhile.
    if (m_throughput->isVisible())
        m_throughput->setSeries(m_session->series(), frame->seconds);
    if (m_congestion->isVisible())
        m_congestion->setSeries(m_session->series(), frame->seconds);
    int connected = 0, slow = 0, lost = 0;
    for (const NodeConnection& n : frame->nodes) {
        connected += n.link == NodeLink::Connected;
        slow += n.link == NodeLink::Slow;
        lost += n.link == NodeLink::Lost;
    }
    m_summary->setText(tr("%1: %2 node(s): %3 connected, %4 slow, %5 lost; sweep %6 ms; %7 s")
                           .arg(m_session->sourceName())
                           .arg(frame->nodes.size())
                           .arg(connected)
                           .arg(slow)
                           .arg(lost)
                           .arg(frame->pollMs)
                           .arg(static_cast<int>(frame->seconds)));
    m_check->setEnabled(!m_session->isChecking());
    m_faults->setEnabled(m_session->isDemo());
    if (m_grid->selectedNode() >= 0 || m_fabric->selectedSwitch() >= 0)
        refreshPanel();
}

void LiveWorkspace::findingsChanged()
{
    std::vector<LiveFinding> findings = m_session->findings();
    std::map<std::string, core::Severity> marks;
    for (const LiveFinding& f : findings) {
        if (f.source != LiveFinding::Source::Check || f.finding.severity == core::Severity::Info)
            continue;
        const auto [node, rail] = nodePlace(QString::fromStdString(f.finding.where));
        if (node.empty())
            continue;
        const std::string key = rail < 0 ? node : node + "/" + std::to_string(rail);
        const auto it = marks.find(key);
        if (it == marks.end() || f.finding.severity < it->second)
            marks[key] = f.finding.severity;
    }
    int serious = 0;
    for (const LiveFinding& f : findings)
        serious += f.finding.severity != core::Severity::Info;
    m_grid->setMarks(std::move(marks));
    m_findings->setFindings(std::move(findings));
    m_findingsView->resizeColumnsToContents();
    m_tabs->setTabText(2, serious > 0 ? tr("Findings (%1)").arg(serious) : tr("Findings"));
    refreshPanel();
}

void LiveWorkspace::cellSelected(int, int)
{
    m_fabric->select(-1);
    refreshPanel();
}

void LiveWorkspace::refreshPanel()
{
    if (m_fabric->selectedSwitch() >= 0) {
        m_panel->setHtml(m_fabric->switchHtml(m_fabric->selectedSwitch(), m_findings ? m_findings->findings() : std::vector<LiveFinding> {}));
        return;
    }
    m_panel->showNode(m_session->frame(), m_grid->selectedNode(), m_grid->selectedRail(), m_findings ? m_findings->findings() : std::vector<LiveFinding> {},
        m_session->checkReport() ? &*m_session->checkReport() : nullptr);
}

void LiveWorkspace::findingClicked(const QModelIndex& index)
{
    const QModelIndex source = m_filter->mapToSource(index);
    showPlace(m_findings->data(m_findings->index(source.row(), LiveFindingsModel::Where)).toString());
}

bool LiveWorkspace::showPlace(const QString& where)
{
    const auto frame = m_session->frame();
    if (!frame)
        return false;
    auto [node, rail] = nodePlace(where);
    int row = node.empty() ? -1 : m_grid->nodeIndex(node);
    if (row < 0) {
        // A leaf: its first node's port on it.
        for (const live::PortRates& p : frame->sweep.ports)
            if (p.leaf == where.toStdString()) {
                row = m_grid->nodeIndex(p.node);
                rail = p.rail;
                break;
            }
    }
    if (row < 0) {
        setStatus(tr("%1 is not a node or leaf of the grid.").arg(where));
        return false;
    }
    m_grid->select(row, rail);
    refreshPanel();
    return true;
}

bool LiveWorkspace::injectAtSelection(const QString& kind)
{
    const auto frame = m_session->frame();
    const int node = m_grid->selectedNode();
    if (!m_session->isDemo() || !frame || !m_plan) {
        setStatus(tr("Faults go into a demo fabric: connect to one first (Ctrl+Shift+D)."));
        return false;
    }
    if (node < 0) {
        setStatus(tr("Click the cell (node and rail) to inject the fault into first."));
        return false;
    }
    const int rail = std::max(0, m_grid->selectedRail());
    const std::string name = frame->nodes[static_cast<std::size_t>(node)].node;
    nlohmann::json fault { { "kind", kind.toStdString() } };
    if (kind == QStringLiteral("congested")) {
        const LiveCell& cell = frame->cell(static_cast<std::size_t>(node), rail);
        const std::string leaf = cell.port >= 0 ? frame->sweep.ports[static_cast<std::size_t>(cell.port)].leaf : std::string();
        std::size_t uplinks = 0;
        for (std::uint32_t d = 0; d < m_plan->devices.size(); ++d)
            if (m_plan->devices[d].name == leaf)
                uplinks = live::uplinksOf(*m_plan, d).size();
        if (leaf.empty() || uplinks == 0) {
            setStatus(tr("The leaf of %1 rail %2 has no uplinks to congest (one leaf per rail, or no rates yet).").arg(QString::fromStdString(name)).arg(rail));
            return false;
        }
        // Every uplink at a quarter of its line rate: the leaf's nodes wait.
        fault["switch"] = leaf;
        fault["uplinks"] = uplinks;
        fault["factor"] = 0.25;
    } else {
        fault["node"] = name;
        static const QStringList kNicFaults { QStringLiteral("link_down"), QStringLiteral("unplugged"), QStringLiteral("degraded"),
            QStringLiteral("wrong_trust"), QStringLiteral("pfc_wrong_priority"), QStringLiteral("mtu_mismatch"),
            QStringLiteral("rp_filter_strict"), QStringLiteral("wrong_gid_index") };
        if (kNicFaults.contains(kind))
            fault["rail"] = rail;
        if (kind == QStringLiteral("degraded"))
            fault["width"] = std::max(1, m_plan->summary.port.lanes / 2);
    }
    m_session->injectFault(fault.dump());
    return true;
}

} // namespace railyard::app
