// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/main_window.h"

#include "app/models/plan_controller.h"
#include "app/models/plan_table_model.h"
#include "app/widgets/advisor_dialog.h"
#include "app/widgets/intent_view.h"
#include "app/widgets/compare_view.h"
#include "app/widgets/export_jobs.h"
#include "app/widgets/live_workspace.h"
#include "app/widgets/project_session.h"
#include "app/widgets/report_pdf.h"
#include "app/widgets/spec_form.h"
#include "app/widgets/summary_view.h"
#include "app/widgets/table_page.h"
#include "app/widgets/topology_view.h"
#include "app/widgets/what_if_panel.h"
#include "core/examples.h"
#include "core/plan_spec.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSettings>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace railyard::app {

MainWindow::MainWindow(std::shared_ptr<const core::Catalog> catalog, QWidget* parent)
    : QMainWindow(parent)
    , m_controller(std::make_unique<PlanController>(std::move(catalog)))
{
    setWindowTitle(tr("Railyard"));
    buildPages();
    m_project = new ProjectSession(*this);
    // The Live workspace stores its checks and tests in the open project; without one it offers to save.
    connect(&m_project->controller(), &ProjectController::stateChanged, m_live,
        [this] { m_live->setProjectPath(m_project->controller().projectPath()); });
    connect(m_live, &LiveWorkspace::saveProjectRequested, this, [this] { m_project->saveAction()->trigger(); }); // made by buildMenus()
    buildMenus();
    buildStatusBar();
    connect(m_controller.get(), &PlanController::planningStarted, this, &MainWindow::planStarted);
    connect(m_controller.get(), &PlanController::planReady, this, &MainWindow::planReady);
    connect(m_controller.get(), &PlanController::planFailed, this, &MainWindow::planFailed);
    connect(m_controller.get(), &PlanController::planningCancelled, this, [this] {
        m_showProgress->stop();
        m_progress->hide();
        m_cancel->hide();
        m_status->setText(tr("Planning cancelled; showing the previous plan."));
    });
    connect(m_controller.get(), &PlanController::planningProgress, this, [this](double fraction, const QString& phase) {
        m_progress->setValue(static_cast<int>(fraction * 100));
        m_status->setText(tr("Planning: %1").arg(phase));
    });
    resize(1280, 800);
}

MainWindow::~MainWindow()
{
    m_controller->cancel();
    m_controller->waitForIdle();
}

void MainWindow::buildPages()
{
    m_form = new SpecForm(*m_controller, this);
    auto* formScroll = new QScrollArea(this);
    formScroll->setWidget(m_form);
    formScroll->setWidgetResizable(true);
    formScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    formScroll->setMinimumWidth(320);

    m_summary = new SummaryView(this);
    m_topology = new TopologyView(this);
    m_findings = new FindingsModel(this);
    m_switches = new SwitchesModel(this);
    m_cables = new CableMapModel(this);
    m_bom = new BomModel(this);
    m_findingsPage = new TablePage(m_findings, this);
    m_switchesPage = new TablePage(m_switches, this);
    m_cablesPage = new TablePage(m_cables, this);
    m_bomPage = new TablePage(m_bom, this);

    m_pages = new QTabWidget(this);
    m_pages->addTab(m_summary, tr("Summary"));
    m_whatIf = new WhatIfPanel(this);
    auto* topologySplit = new QSplitter(this);
    topologySplit->setObjectName(QStringLiteral("topologySplit"));
    topologySplit->addWidget(m_topology);
    topologySplit->addWidget(m_whatIf);
    topologySplit->setStretchFactor(0, 1);
    m_topologySplit = topologySplit;
    connect(m_topology, &TopologyView::failuresChanged, m_whatIf, &WhatIfPanel::setFailures);
    connect(m_whatIf, &WhatIfPanel::restoreAllRequested, m_topology, &TopologyView::clearFailures);
    m_pages->addTab(topologySplit, tr("Topology"));
    m_pages->addTab(m_findingsPage, tr("Findings"));
    m_pages->addTab(m_switchesPage, tr("Switches"));
    m_pages->addTab(m_cablesPage, tr("Cable map"));
    m_pages->addTab(m_bomPage, tr("Bill of materials"));
    m_compare = new CompareView(*m_controller, this);
    m_pages->addTab(m_compare, tr("Compare"));
    m_intent = new IntentView(this);
    m_pages->addTab(m_intent, tr("Network intent"));
    connect(m_intent, &IntentView::exportRequested, this, &MainWindow::exportFile);
    connect(m_intent, &IntentView::specChosen, this, &MainWindow::loadSpec);

    auto* split = new QSplitter(this);
    split->setObjectName(QStringLiteral("mainSplit"));
    split->addWidget(formScroll);
    split->addWidget(m_pages);
    split->setStretchFactor(1, 1);
    split->setSizes({ 340, 940 });
    m_split = split;

    // Two workspaces: planning the fabric, and watching the one that was built. A tab bar over a
    // stack (not a second QTabWidget), so the planner's pages stay the window's first tab widget.
    m_live = new LiveWorkspace(this);
    auto* central = new QWidget(this);
    m_workspaceTabs = new QTabBar(central);
    m_workspaceTabs->setObjectName(QStringLiteral("workspaces"));
    m_workspaceTabs->setDocumentMode(true);
    m_workspaceTabs->setExpanding(false);
    m_workspaceTabs->addTab(tr("Planner"));
    m_workspaceTabs->addTab(tr("Live"));
    m_workspaces = new QStackedWidget(central);
    m_workspaces->addWidget(split);
    m_workspaces->addWidget(m_live);
    connect(m_workspaceTabs, &QTabBar::currentChanged, m_workspaces, &QStackedWidget::setCurrentIndex);
    connect(m_workspaces, &QStackedWidget::currentChanged, m_workspaceTabs, &QTabBar::setCurrentIndex);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_workspaceTabs);
    column->addWidget(m_workspaces, 1);
    setCentralWidget(central);

    connect(m_findingsPage->view(), &QTableView::activated, this, &MainWindow::findingActivated);
    connect(m_findingsPage->view(), &QTableView::clicked, this, &MainWindow::findingActivated);
}

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_project->addFileActions(file);
    // Ctrl+O and Ctrl+Shift+S belong to projects.
    file->addAction(tr("Open spe&c..."), this, &MainWindow::openSpecFile);
    file->addAction(tr("Sa&ve spec as..."), this, &MainWindow::saveSpecFile);
    QMenu* examples = file->addMenu(tr("Open &example"));
    for (const auto& example : core::builtinExamples()) {
        const QString name = QString::fromStdString(example.name);
        QAction* a = examples->addAction(name, this, [this, name] { loadExample(name); });
        a->setToolTip(QString::fromStdString(example.title));
    }
    QMenu* exportMenu = file->addMenu(tr("&Export"));
    const QList<QPair<QString, QString>> exports {
        { tr("Bill of materials (CSV)..."), QStringLiteral("bom-csv") },
        { tr("Bill of materials (XLSX)..."), QStringLiteral("bom-xlsx") },
        { tr("Bill of materials (JSON)..."), QStringLiteral("bom-json") },
        { tr("Cable map (CSV)..."), QStringLiteral("cables-csv") },
        { tr("Cable map (XLSX)..."), QStringLiteral("cables-xlsx") },
        { tr("Topology (ibnetdiscover)..."), QStringLiteral("ibnetdiscover") },
        { tr("Topology (ibdiagnet .topo)..."), QStringLiteral("topo") },
        { tr("NetBox import files..."), QStringLiteral("netbox") },
        { tr("Plan (JSON)..."), QStringLiteral("plan-json") },
        { tr("Report (PDF)..."), QStringLiteral("report-pdf") },
    };
    for (const auto& [label, kind] : exports)
        exportMenu->addAction(label, this, [this, kind = kind] { exportFile(kind); });
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    // Undo and redo of spec edits; the form's actions carry the platform shortcuts.
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_form->undoAction());
    edit->addAction(m_form->redoAction());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    const QStringList names { tr("Summary"), tr("Topology"), tr("Findings"), tr("Switches"), tr("Cable map"), tr("Bill of materials"), tr("Compare"), tr("Network intent") };
    for (int i = 0; i < names.size(); ++i) {
        QAction* a = view->addAction(names[i], this, [this, i] {
            m_workspaces->setCurrentIndex(0);
            m_pages->setCurrentIndex(i);
        });
        a->setShortcut(QKeySequence(Qt::ALT | static_cast<Qt::Key>(Qt::Key_1 + i)));
    }
    view->addSeparator();
    QAction* planner = view->addAction(tr("&Planner workspace"), this, [this] { m_workspaces->setCurrentIndex(0); });
    planner->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    QAction* live = view->addAction(tr("&Live workspace"), this, [this] { m_workspaces->setCurrentIndex(1); });
    live->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    buildLanguageMenu(view);
    m_live->fillMenu(menuBar()->addMenu(tr("&Live")));
    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    QAction* advisor = tools->addAction(tr("Which &fabric? (advisor)..."), this, &MainWindow::showAdvisor);
    advisor->setObjectName(QStringLiteral("actionAdvisor"));
    advisor->setToolTip(tr("Ask the advisor whether InfiniBand or RoCEv2 suits this cluster and team"));
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&About Railyard"), this, &MainWindow::showAbout);
}

QString MainWindow::storedLanguage()
{
    return QSettings().value(QStringLiteral("ui/language"), QStringLiteral("system")).toString();
}

void MainWindow::buildLanguageMenu(QMenu* view)
{
    // Translators are installed once, in main(); the new language shows after a restart
    // (rebuilding every widget, model header and open dialog in place is not worth its risk).
    view->addSeparator();
    QMenu* menu = view->addMenu(tr("&Language"));
    menu->setObjectName(QStringLiteral("menuLanguage"));
    auto* group = new QActionGroup(menu);
    const QString current = storedLanguage();
    // Language names stay in their own language.
    const QList<QPair<QString, QString>> languages { //: View > Language: follow the system's language
        { tr("&System"), QStringLiteral("system") },
        { QStringLiteral("&English"), QStringLiteral("en") }, { QStringLiteral("한국어(&K)"), QStringLiteral("ko") } };
    for (const auto& [label, code] : languages) {
        QAction* a = menu->addAction(label);
        a->setObjectName(QStringLiteral("actionLanguage_") + code);
        a->setCheckable(true);
        a->setChecked(code == current);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, language = code] {
            if (language == storedLanguage())
                return;
            QSettings().setValue(QStringLiteral("ui/language"), language);
            statusBar()->showMessage(tr("The language changes when Railyard is started again."), 10'000);
        });
    }
}

void MainWindow::buildStatusBar()
{
    m_status = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 100);
    m_progress->setMaximumWidth(200);
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Stop planning and keep the previous plan (Esc)"));
    m_cancel->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, m_controller.get(), &PlanController::cancel);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    // Progress shows only for plans that take a while.
    m_showProgress = new QTimer(this);
    m_showProgress->setSingleShot(true);
    m_showProgress->setInterval(500);
    connect(m_showProgress, &QTimer::timeout, this, [this] {
        m_progress->show();
        m_cancel->show();
    });
}

bool MainWindow::loadExample(const QString& name)
{
    const auto example = core::findExample(name.toStdString());
    if (!example)
        return false;
    auto spec = core::parsePlanSpecText(example->content, example->path);
    if (!spec)
        return false;
    loadSpec(*spec);
    m_project->setSpecSource(name);
    return true;
}

void MainWindow::loadSpec(const core::PlanSpec& spec)
{
    m_form->showSpec(spec);
    m_controller->setSpec(spec);
    m_project->specReplaced(spec);
}

bool MainWindow::showPage(const QString& name)
{
    static const QStringList kPages { QStringLiteral("summary"), QStringLiteral("topology"), QStringLiteral("findings"),
        QStringLiteral("switches"), QStringLiteral("cables"), QStringLiteral("bom"), QStringLiteral("compare"), QStringLiteral("intent") };
    if (name.toLower() == QStringLiteral("live")) {
        m_workspaces->setCurrentWidget(m_live);
        return true;
    }
    const auto i = kPages.indexOf(name.toLower());
    if (i < 0)
        return false;
    m_workspaces->setCurrentIndex(0);
    m_pages->setCurrentIndex(static_cast<int>(i));
    return true;
}

void MainWindow::saveUiState(QSettings& state) const
{
    state.beginGroup(QStringLiteral("mainWindow"));
    state.setValue(QStringLiteral("version"), kUiStateVersion);
    state.setValue(QStringLiteral("geometry"), saveGeometry());
    state.setValue(QStringLiteral("state"), saveState(kUiStateVersion));
    state.setValue(QStringLiteral("mainSplit"), m_split->saveState());
    state.setValue(QStringLiteral("topologySplit"), m_topologySplit->saveState());
    state.setValue(QStringLiteral("page"), m_pages->currentIndex());
    state.endGroup();
}

bool MainWindow::restoreUiState(const QSettings& state)
{
    const QString group = QStringLiteral("mainWindow/");
    if (state.value(group + QStringLiteral("version")).toInt() != kUiStateVersion)
        return false;
    restoreGeometry(state.value(group + QStringLiteral("geometry")).toByteArray());
    restoreState(state.value(group + QStringLiteral("state")).toByteArray(), kUiStateVersion);
    m_split->restoreState(state.value(group + QStringLiteral("mainSplit")).toByteArray());
    m_topologySplit->restoreState(state.value(group + QStringLiteral("topologySplit")).toByteArray());
    const int page = state.value(group + QStringLiteral("page"), 0).toInt();
    if (page >= 0 && page < m_pages->count())
        m_pages->setCurrentIndex(page);
    return true;
}

QString MainWindow::uiStateFile()
{
    return QSettings(QSettings::IniFormat, QSettings::UserScope, QCoreApplication::organizationName(),
        QStringLiteral("railyard-ui-state"))
        .fileName();
}

void MainWindow::planStarted()
{
    m_progress->setValue(0);
    m_showProgress->start();
}

void MainWindow::planReady(std::shared_ptr<const core::Plan> plan)
{
    m_showProgress->stop();
    m_progress->hide();
    m_cancel->hide();
    m_summary->setPlan(plan);
    m_topology->setPlan(plan);
    m_whatIf->setPlan(plan);
    m_findings->setPlan(plan);
    m_switches->setPlan(plan);
    m_cables->setPlan(plan);
    m_bom->setPlan(plan);
    m_live->setPlan(plan, m_controller->sharedCatalog());
    m_intent->setPlan(plan, m_controller->sharedCatalog());
    int errors = 0, warnings = 0;
    for (const auto& f : plan->findings) {
        errors += f.severity == core::Severity::Error;
        warnings += f.severity == core::Severity::Warning;
    }
    m_pages->setTabText(2, errors + warnings > 0 ? tr("Findings (%1)").arg(errors + warnings) : tr("Findings"));
    m_status->setText(tr("%1 nodes, %2 switches, %3 links; %4 error(s), %5 warning(s)")
                          .arg(plan->summary.nodes)
                          .arg(plan->summary.switches.total())
                          .arg(plan->summary.cables.total())
                          .arg(errors)
                          .arg(warnings));
}

void MainWindow::planFailed(const QStringList& errors)
{
    m_showProgress->stop();
    m_progress->hide();
    m_cancel->hide();
    m_summary->setErrors(errors);
    m_status->setText(tr("The spec cannot be planned: %1").arg(errors.value(0)));
}

void MainWindow::findingActivated(const QModelIndex& index)
{
    const auto* proxy = m_findingsPage->proxy();
    const QModelIndex source = proxy->mapToSource(index);
    const QString where = m_findings->data(m_findings->index(source.row(), FindingsModel::Where)).toString();
    m_topology->highlight(where);
    m_form->focusField(where);
}

void MainWindow::exportFile(const QString& kind)
{
    const auto plan = m_controller->plan();
    if (!plan) {
        m_status->setText(tr("Nothing to export yet."));
        return;
    }
    const ExportFormat format = exportFormat(kind);
    QString target = format.folder ? QFileDialog::getExistingDirectory(this, format.title)
                                   : QFileDialog::getSaveFileName(this, format.title, format.suggestedName, format.filter);
    if (target.isEmpty())
        return;
    m_status->setText(tr("Exporting %1...").arg(target));
    // The report's topology picture is drawn here: widgets and their scenes belong to the GUI thread.
    const QImage topology = kind == QStringLiteral("report-pdf") ? topologyPicture(*m_topology) : QImage();
    runExport(plan, m_controller->sharedCatalog(), kind, target, this, [this, target](const QString& error) {
        if (error.isEmpty())
            m_status->setText(tr("Exported %1").arg(target));
        else
            QMessageBox::warning(this, tr("Export failed"), error);
    }, topology);
}

void MainWindow::showAdvisor()
{
    const auto plan = m_controller->plan();
    auto* dialog = new AdvisorDialog(m_controller->spec(), plan ? plan->summary.gpus : 0, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &AdvisorDialog::specChosen, this, &MainWindow::loadSpec);
    dialog->show();
}

void MainWindow::openSpecFile()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open plan spec"), QString(), tr("Plan specs (*.plan.json *.json)"));
    if (path.isEmpty())
        return;
    if (const QString error = openSpec(path); !error.isEmpty())
        QMessageBox::warning(this, tr("Open plan spec"), error);
}

QString MainWindow::openSpec(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return tr("Cannot read %1: %2").arg(path, file.errorString());
    const QByteArray text = file.readAll();
    auto spec = core::parsePlanSpecText(std::string_view(text.constData(), static_cast<std::size_t>(text.size())), path.toStdString());
    if (!spec) {
        QStringList lines;
        for (const auto& e : spec.errors())
            lines << QString::fromStdString(e.toString());
        return lines.join(QLatin1Char('\n'));
    }
    loadSpec(*spec);
    m_project->setSpecSource(QFileInfo(path).fileName());
    return {};
}

void MainWindow::saveSpecFile()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Save plan spec"), QStringLiteral("plan.plan.json"), tr("Plan specs (*.plan.json)"));
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    const std::string text = core::toJson(m_controller->spec()).dump(2) + "\n";
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 || !file.commit())
        QMessageBox::warning(this, tr("Save plan spec"), tr("Cannot write %1: %2").arg(path, file.errorString()));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Railyard"),
        tr("<p><b>Railyard %1</b></p><p>Plans and brings up rail-optimized GPU fabrics, InfiniBand or RoCEv2.</p>")
            .arg(QApplication::applicationVersion()));
}

} // namespace railyard::app
