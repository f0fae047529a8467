// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/project_session.h"

#include "app/models/plan_controller.h"
#include "app/widgets/main_window.h"
#include "app/widgets/project_dialog.h"
#include "app/widgets/spec_form.h"
#include "core/examples.h"

#include <QAction>
#include <QCloseEvent>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QKeySequence>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>

#include <utility>

namespace railyard::app {

namespace {

    QString localTime(const QString& isoUtc)
    {
        const QDateTime t = QDateTime::fromString(isoUtc, Qt::ISODateWithMs);
        return t.isValid() ? QLocale().toString(t.toLocalTime(), QLocale::ShortFormat) : isoUtc;
    }

    QString fileName(const QString& path)
    {
        return QFileInfo(path).fileName();
    }

} // namespace

ProjectSession::ProjectSession(MainWindow& window, ProjectControllerOptions options, RecentProjects recent)
    : QObject(&window)
    , m_window(window)
    , m_controller(new ProjectController(std::move(options), this))
    , m_recent(std::move(recent))
{
    ProjectController* c = m_controller;
    connect(window.specForm(), &SpecForm::specEdited, c, &ProjectController::specEdited);
    connect(c, &ProjectController::stateChanged, this, &ProjectSession::updateTitle);
    connect(c, &ProjectController::planLoaded, this, &ProjectSession::planLoaded);
    connect(c, &ProjectController::failed, this, &ProjectSession::failed);
    connect(c, &ProjectController::recoveryAvailable, this, &ProjectSession::showRecovery);
    connect(c, &ProjectController::specRestored, this, [this](const core::PlanSpec& spec) {
        showSpec(spec);
        m_specSource.clear();
        updateTitle();
    });
    connect(c, &ProjectController::opened, this, [this](const QString& path) {
        m_recent.add(path);
        updateTitle();
    });
    connect(c, &ProjectController::saved, this, [this](const QString& plan, int revision) {
        m_window.statusBar()->showMessage(
            tr("Saved plan \"%1\" as revision %2 in %3").arg(plan).arg(revision).arg(fileName(m_controller->projectPath())), 5000);
        if (auto then = std::exchange(m_afterSave, nullptr))
            then();
    });
    connect(c, &ProjectController::autosaveFailed, this, [this](const QString& message) {
        m_window.statusBar()->showMessage(tr("Autosave failed: %1").arg(message.section(QLatin1Char('\n'), 0, 0)), 10000);
    });

    m_recoveryBar = new QToolBar(tr("Recovery"), &m_window);
    m_recoveryBar->setObjectName(QStringLiteral("recoveryBar"));
    m_recoveryBar->setMovable(false);
    m_recoveryBar->setFloatable(false);
    m_recoveryBar->toggleViewAction()->setVisible(false);
    m_recoveryText = new QLabel(m_recoveryBar);
    m_recoveryText->setWordWrap(true);
    m_recoveryBar->addWidget(m_recoveryText);
    QAction* restore = m_recoveryBar->addAction(tr("&Restore"));
    restore->setObjectName(QStringLiteral("restoreRecovery"));
    QAction* discard = m_recoveryBar->addAction(tr("&Discard"));
    discard->setObjectName(QStringLiteral("discardRecovery"));
    connect(restore, &QAction::triggered, this, [this] {
        m_recoveryBar->hide();
        m_controller->restoreRecovery();
    });
    connect(discard, &QAction::triggered, this, [this] {
        m_recoveryBar->hide();
        m_controller->discardRecovery();
    });
    m_window.addToolBar(Qt::TopToolBarArea, m_recoveryBar);
    m_recoveryBar->hide();

    m_window.installEventFilter(this);
}

ProjectSession::~ProjectSession()
{
    m_controller->shutdown();
}

void ProjectSession::addFileActions(QMenu* file)
{
    QAction* create = file->addAction(tr("&New project"), this, &ProjectSession::newProject);
    create->setShortcut(QKeySequence::New);
    QAction* open = file->addAction(tr("&Open project..."), this, &ProjectSession::chooseProject);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &recent project"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &ProjectSession::fillRecentMenu);
    fillRecentMenu();
    m_save = file->addAction(tr("&Save"), this, &ProjectSession::save);
    m_save->setShortcut(QKeySequence::Save);
    m_save->setToolTip(tr("Save the spec as a new revision of its plan in the project"));
    QAction* saveAsAction = file->addAction(tr("Save project &as..."), this, &ProjectSession::saveAs);
    saveAsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_plans = file->addAction(tr("&Plans and revisions..."), this, &ProjectSession::showPlansDialog);
    file->addSeparator();
    updateTitle();
}

void ProjectSession::fillRecentMenu()
{
    m_recentMenu->clear();
    const QStringList paths = m_recent.paths();
    for (qsizetype i = 0; i < paths.size(); ++i) {
        const QString path = paths[i];
        QAction* a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(fileName(path)), this,
            [this, path] { openProject(path); });
        a->setToolTip(path);
        a->setStatusTip(path);
    }
    if (paths.isEmpty())
        m_recentMenu->addAction(tr("No recent projects"))->setEnabled(false);
    m_recentMenu->addSeparator();
    QAction* clear = m_recentMenu->addAction(tr("&Clear list"), this, [this] { m_recent.clear(); });
    clear->setEnabled(!paths.isEmpty());
}

void ProjectSession::updateTitle()
{
    QString name = m_controller->planName();
    if (name.isEmpty())
        name = m_specSource;
    if (name.isEmpty())
        name = QString::fromStdString(m_window.controller().spec().name);
    if (name.isEmpty())
        name = tr("untitled plan");
    const QString path = m_controller->projectPath();
    const QString project = path.isEmpty() ? tr("untitled project") : fileName(path);
    //: Window title: plan name, then the project file; [*] shows * while there are unsaved edits
    m_window.setWindowTitle(tr("%1[*] — %2 — Railyard").arg(name, project));
    m_window.setWindowModified(m_controller->isDirty());
    if (m_plans)
        m_plans->setEnabled(!path.isEmpty());
}

void ProjectSession::showSpec(const core::PlanSpec& spec)
{
    m_showing = true;
    m_window.loadSpec(spec);
    m_showing = false;
}

void ProjectSession::specReplaced(const core::PlanSpec& spec, const QString& source)
{
    if (m_showing)
        return;
    m_specSource = source;
    m_controller->setSpec(spec);
    updateTitle();
}

void ProjectSession::setSpecSource(const QString& source)
{
    m_specSource = source;
    updateTitle();
}

void ProjectSession::planLoaded(const QString& planName, int revision, const core::PlanSpec& spec)
{
    showSpec(spec);
    m_specSource.clear();
    updateTitle();
    m_window.statusBar()->showMessage(tr("Opened plan \"%1\", revision %2").arg(planName).arg(revision), 5000);
}

void ProjectSession::failed(const QString& message)
{
    m_afterSave = nullptr;
    // Window-modal but not blocking: the worker's other results keep arriving.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Railyard project"), message, QMessageBox::Ok, &m_window);
    box->setObjectName(QStringLiteral("projectError"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void ProjectSession::showRecovery(const RecoveryInfo& info)
{
    const QString when = localTime(info.savedAt);
    QString text;
    if (!info.planName.isEmpty() && !info.projectPath.isEmpty())
        text = tr("Railyard did not exit cleanly. Unsaved changes to plan \"%1\" in %2 (autosaved %3) can be restored.")
                   .arg(info.planName, fileName(info.projectPath), when);
    else
        text = tr("Railyard did not exit cleanly. An unsaved plan (autosaved %1) can be restored.").arg(when);
    m_recoveryText->setText(text);
    m_recoveryBar->show();
}

QString ProjectSession::planNameToSave()
{
    if (QString name = m_controller->planName(); !name.isEmpty())
        return name;
    QString suggestion = m_specSource;
    if (suggestion.isEmpty())
        suggestion = QString::fromStdString(m_window.controller().spec().name);
    if (suggestion.isEmpty())
        suggestion = tr("plan");
    bool ok = false;
    const QString name = QInputDialog::getText(&m_window, tr("Save plan"), tr("Name of this plan in the project:"),
        QLineEdit::Normal, suggestion, &ok);
    if (!ok || name.trimmed().isEmpty()) {
        m_afterSave = nullptr;
        return QString();
    }
    return name.trimmed();
}

bool ProjectSession::save()
{
    if (m_controller->projectPath().isEmpty())
        return saveAs();
    const QString name = planNameToSave();
    if (name.isEmpty())
        return false;
    m_controller->save(name, m_window.controller().spec());
    return true;
}

bool ProjectSession::saveAs()
{
    const QString current = m_controller->projectPath();
    const QString suggested = current.isEmpty() ? QDir::home().filePath(tr("project") + QStringLiteral(".railyard")) : current;
    QString path = QFileDialog::getSaveFileName(&m_window, tr("Save project as"), suggested, tr("Railyard projects (*.railyard)"));
    if (path.isEmpty()) {
        m_afterSave = nullptr;
        return false;
    }
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".railyard");
    const QString name = planNameToSave();
    if (name.isEmpty())
        return false;
    m_controller->saveAs(path, name, m_window.controller().spec());
    return true;
}

void ProjectSession::whenSaved(std::function<void()> then)
{
    if (!m_controller->isDirty()) {
        then();
        return;
    }
    const auto answer = QMessageBox::question(&m_window, tr("Unsaved changes"),
        tr("The plan has changes that are not saved in a project. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Discard) {
        then();
    } else if (answer == QMessageBox::Save) {
        m_afterSave = std::move(then);
        save();
    }
}

void ProjectSession::newProject()
{
    whenSaved([this] {
        m_controller->newProject();
        m_window.loadExample(QString::fromUtf8(core::kDefaultExample.data(), static_cast<qsizetype>(core::kDefaultExample.size())));
    });
}

void ProjectSession::chooseProject()
{
    const QString current = m_controller->projectPath();
    const QString path = QFileDialog::getOpenFileName(&m_window, tr("Open project"),
        current.isEmpty() ? QString() : QFileInfo(current).absolutePath(), tr("Railyard projects (*.railyard);;All files (*)"));
    if (!path.isEmpty())
        openProject(path);
}

void ProjectSession::openProject(const QString& path)
{
    whenSaved([this, path] { m_controller->open(path); });
}

void ProjectSession::showPlansDialog()
{
    auto* dialog = new ProjectDialog(*m_controller, &m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ProjectDialog::openRequested, this, [this](const QString& plan, int revision) {
        whenSaved([this, plan, revision] { m_controller->loadPlan(plan, revision); });
    });
    dialog->open();
}

bool ProjectSession::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == &m_window && event->type() == QEvent::Close && !m_closing && m_controller->isDirty()) {
        event->ignore();
        whenSaved([this] {
            m_closing = true;
            m_window.close();
        });
        return true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace railyard::app
