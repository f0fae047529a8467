// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/project_controller.h"

#include "app/models/project_worker.h"

#include <QDir>
#include <QStandardPaths>
#include <QThread>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <exception>
#include <string>
#include <utility>

namespace railyard::app {

namespace {

    QString qs(const std::string& text)
    {
        return QString::fromStdString(text);
    }

    std::string specText(const core::PlanSpec& spec)
    {
        return core::toJson(spec).dump(2) + "\n";
    }

    core::Error noProject()
    {
        return core::Error { "PROJECT_NONE", "No project file is open", {},
            "Use Save project as... to choose where the project is kept." };
    }

} // namespace

ProjectController::ProjectController(QObject* parent)
    : ProjectController(ProjectControllerOptions {}, parent)
{
}

ProjectController::ProjectController(ProjectControllerOptions options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    if (m_options.autosaveDir.isEmpty())
        m_options.autosaveDir = defaultAutosaveDir();
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("railyard-project"));
    m_worker = new ProjectWorker(m_options.autosaveDir);
    m_worker->moveToThread(m_thread);
    connect(m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread->start();

    m_autosaveTimer = new QTimer(this);
    m_autosaveTimer->setInterval(m_options.autosaveIntervalMs);
    connect(m_autosaveTimer, &QTimer::timeout, this, &ProjectController::autosaveNow);
    m_autosaveTimer->start();
    m_idleTimer = new QTimer(this);
    m_idleTimer->setSingleShot(true);
    m_idleTimer->setInterval(m_options.autosaveIdleMs);
    connect(m_idleTimer, &QTimer::timeout, this, &ProjectController::autosaveNow);

    startRecoveryCheck();
}

ProjectController::~ProjectController()
{
    // Without shutdown() the autosave stays behind, exactly as after a crash.
    stopWorker();
}

QString ProjectController::defaultAutosaveDir()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("autosave"));
}

QString ProjectController::errorText(const core::Error& error)
{
    QString text = qs(error.message);
    if (!error.hint.empty())
        text += QLatin1Char('\n') + qs(error.hint);
    return text;
}

void ProjectController::run(std::function<Reply(ProjectWorker&)> job)
{
    if (m_stopped)
        return;
    ++m_pending;
    ProjectWorker* worker = m_worker;
    QMetaObject::invokeMethod(
        worker,
        [this, worker, job = std::move(job)] {
            Reply reply;
            try {
                reply = job(*worker);
            } catch (const std::exception& e) {
                // No exception crosses the thread boundary.
                reply = [this, what = QString::fromUtf8(e.what())] { emit failed(tr("Project operation failed: %1").arg(what)); };
            }
            QMetaObject::invokeMethod(
                this,
                [this, reply = std::move(reply)] {
                    --m_pending;
                    if (reply)
                        reply();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
}

void ProjectController::stopWorker()
{
    if (!m_thread)
        return;
    // Queued behind every request made so far, so they all finish first.
    QThread* thread = m_thread;
    QMetaObject::invokeMethod(m_worker, [thread] { thread->quit(); }, Qt::QueuedConnection);
    thread->wait();
    delete thread;
    m_thread = nullptr;
    m_worker = nullptr; // deleted on its own thread (finished -> deleteLater)
    m_stopped = true;
}

void ProjectController::setPlan(const QString& planName, int revision)
{
    m_planName = planName;
    m_revision = revision;
}

void ProjectController::markClean(const core::PlanSpec& spec)
{
    m_spec = spec;
    m_savedGeneration = m_autosavedGeneration = m_editGeneration;
    m_idleTimer->stop();
    // Nothing is unsaved, so there is nothing to recover.
    run([this](ProjectWorker& w) -> Reply {
        w.autosave.removeOwn();
        return [this] { m_autosaveFile.clear(); };
    });
}

void ProjectController::specEdited(const core::PlanSpec& spec)
{
    if (m_stopped)
        return;
    m_spec = spec;
    ++m_editGeneration;
    m_idleTimer->start();
    emit stateChanged();
}

void ProjectController::setSpec(const core::PlanSpec& spec)
{
    setPlan({}, 0);
    markClean(spec);
    emit stateChanged();
}

void ProjectController::newProject()
{
    run([this](ProjectWorker& w) -> Reply {
        w.store.reset();
        return [this] {
            m_projectPath.clear();
            setPlan({}, 0);
            emit stateChanged();
        };
    });
}

void ProjectController::open(const QString& path)
{
    openProject(path, true);
}

void ProjectController::openProject(const QString& path, bool loadLatest)
{
    run([this, path, loadLatest](ProjectWorker& w) -> Reply {
        auto result = w.open(path, loadLatest);
        if (!result)
            return [this, e = result.error()] { emit failed(errorText(e)); };
        return [this, path, loadLatest, found = std::move(result).value()] {
            m_projectPath = path;
            if (found.latest && found.spec) {
                setPlan(qs(found.latest->name), found.latest->revision);
                markClean(*found.spec);
            } else if (loadLatest) {
                setPlan({}, 0);
            }
            emit opened(path);
            emit stateChanged();
            if (found.latest && found.spec)
                emit planLoaded(m_planName, m_revision, *found.spec);
            if (found.problem)
                emit failed(errorText(*found.problem));
        };
    });
}

void ProjectController::save(const QString& planName, const core::PlanSpec& spec, const QString& comment)
{
    const quint64 generation = m_editGeneration;
    run([this, planName, spec, comment, generation](ProjectWorker& w) -> Reply {
        if (!w.store)
            return [this] { emit failed(errorText(noProject())); };
        auto revision = w.store->savePlan(planName.toStdString(), specText(spec), comment.toStdString());
        if (!revision)
            return [this, e = revision.error()] { emit failed(errorText(e)); };
        return [this, planName, spec, generation, r = *revision] { finishSave(planName, r, spec, generation); };
    });
}

void ProjectController::finishSave(const QString& planName, int revision, const core::PlanSpec& spec, quint64 generation)
{
    setPlan(planName, revision);
    // Edits made while the save ran stay unsaved.
    if (generation == m_editGeneration)
        markClean(spec);
    emit saved(planName, revision);
    emit stateChanged();
}

void ProjectController::saveAs(const QString& path, const QString& planName, const core::PlanSpec& spec, const QString& comment)
{
    const quint64 generation = m_editGeneration;
    run([this, path, planName, spec, comment, generation](ProjectWorker& w) -> Reply {
        auto revision = w.saveAs(path, planName.toStdString(), specText(spec), comment.toStdString());
        if (!revision)
            return [this, e = revision.error()] { emit failed(errorText(e)); };
        return [this, path, planName, spec, generation, r = *revision] {
            const bool moved = path != m_projectPath;
            m_projectPath = path;
            if (moved)
                emit opened(path);
            finishSave(planName, r, spec, generation);
        };
    });
}

void ProjectController::listPlans()
{
    run([this](ProjectWorker& w) -> Reply {
        if (!w.store)
            return [this] { emit plansListed({}); };
        auto plans = w.store->listPlans();
        if (!plans)
            return [this, e = plans.error()] { emit failed(errorText(e)); };
        QList<ProjectPlanInfo> list;
        for (const auto& p : *plans)
            list.append({ qs(p.name), p.latestRevision, p.revisionCount, qs(p.createdAt), qs(p.updatedAt) });
        return [this, list] { emit plansListed(list); };
    });
}

void ProjectController::listRevisions(const QString& planName)
{
    run([this, planName](ProjectWorker& w) -> Reply {
        if (!w.store)
            return [this] { emit failed(errorText(noProject())); };
        auto revisions = w.store->revisions(planName.toStdString());
        if (!revisions)
            return [this, e = revisions.error()] { emit failed(errorText(e)); };
        QList<ProjectRevisionInfo> list;
        for (const auto& r : *revisions)
            list.append({ r.revision, qs(r.comment), qs(r.savedAt), static_cast<qint64>(r.specBytes) });
        return [this, planName, list] { emit revisionsListed(planName, list); };
    });
}

void ProjectController::loadPlan(const QString& planName, int revision)
{
    run([this, planName, revision](ProjectWorker& w) -> Reply {
        if (!w.store)
            return [this] { emit failed(errorText(noProject())); };
        auto stored = w.store->loadPlan(planName.toStdString(), revision > 0 ? std::optional<int>(revision) : std::nullopt);
        if (!stored)
            return [this, e = stored.error()] { emit failed(errorText(e)); };
        auto spec = ProjectWorker::parse(*stored, w.store->path());
        if (!spec)
            return [this, e = spec.error()] { emit failed(errorText(e)); };
        return [this, planName, r = stored->revision, s = std::move(spec).value()] {
            setPlan(planName, r);
            markClean(s);
            emit stateChanged();
            emit planLoaded(planName, r, s);
        };
    });
}

void ProjectController::renamePlan(const QString& from, const QString& to)
{
    run([this, from, to](ProjectWorker& w) -> Reply {
        if (!w.store)
            return [this] { emit failed(errorText(noProject())); };
        if (auto renamed = w.store->renamePlan(from.toStdString(), to.toStdString()); !renamed)
            return [this, e = renamed.error()] { emit failed(errorText(e)); };
        return [this, from, to] {
            if (m_planName == from) {
                m_planName = to;
                emit stateChanged();
            }
            emit planRenamed(from, to);
        };
    });
}

void ProjectController::deletePlan(const QString& planName)
{
    run([this, planName](ProjectWorker& w) -> Reply {
        if (!w.store)
            return [this] { emit failed(errorText(noProject())); };
        if (auto deleted = w.store->deletePlan(planName.toStdString()); !deleted)
            return [this, e = deleted.error()] { emit failed(errorText(e)); };
        return [this, planName] {
            if (m_planName == planName) {
                setPlan({}, 0);
                emit stateChanged();
            }
            emit planDeleted(planName);
        };
    });
}

void ProjectController::autosaveNow()
{
    if (m_stopped || !isDirty() || m_autosavedGeneration == m_editGeneration)
        return;
    const quint64 generation = m_editGeneration;
    run([this, text = specText(m_spec), project = m_projectPath, plan = m_planName, generation](ProjectWorker& w) -> Reply {
        auto written = w.autosave.write(text, project, plan);
        if (!written)
            return [this, e = written.error()] { emit autosaveFailed(errorText(e)); };
        return [this, file = w.autosave.file(), generation] {
            m_autosavedGeneration = std::max(m_autosavedGeneration, generation);
            m_autosaveFile = file;
            emit autosaved(file);
        };
    });
}

void ProjectController::startRecoveryCheck()
{
    run([this](ProjectWorker& w) -> Reply {
        const auto orphans = w.autosave.takeOrphans();
        for (const auto& orphan : orphans) {
            auto spec = core::parsePlanSpecText(orphan.specJson, orphan.file.toStdString());
            if (!spec)
                continue;
            RecoveryInfo info { std::move(spec).value(), orphan.projectPath, orphan.planName, orphan.savedAt,
                static_cast<int>(orphans.size()) };
            return [this, info] {
                m_recovery = info;
                emit recoveryAvailable(info);
                emit recoveryChecked(true);
            };
        }
        if (!orphans.empty())
            w.autosave.removeOrphans(); // none of them holds a readable spec
        return [this] { emit recoveryChecked(false); };
    });
}

void ProjectController::restoreRecovery()
{
    if (!m_recovery || m_stopped)
        return;
    const RecoveryInfo info = *std::exchange(m_recovery, std::nullopt);
    if (!info.projectPath.isEmpty())
        openProject(info.projectPath, false);
    setPlan(info.planName, 0);
    m_spec = info.spec;
    ++m_editGeneration;
    emit specRestored(info.spec);
    emit stateChanged();
    // Our own autosave holds the work before the crashed session's copy goes.
    autosaveNow();
    run([](ProjectWorker& w) -> Reply {
        w.autosave.removeOrphans();
        return {};
    });
}

void ProjectController::discardRecovery()
{
    m_recovery.reset();
    run([](ProjectWorker& w) -> Reply {
        w.autosave.removeOrphans();
        return {};
    });
}

void ProjectController::shutdown()
{
    if (m_stopped)
        return;
    m_autosaveTimer->stop();
    m_idleTimer->stop();
    run([](ProjectWorker& w) -> Reply {
        w.autosave.removeOwn();
        return {};
    });
    stopWorker();
}

} // namespace railyard::app
