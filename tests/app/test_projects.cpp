// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Projects in the desktop app: the controller's worker thread, revisions, refusal of
// files that are not ours, autosave and crash recovery, recent files.
#include "app/models/project_controller.h"
#include "app/models/plan_controller.h"
#include "app/models/recent_projects.h"
#include "app/widgets/main_window.h"
#include "app/widgets/project_session.h"
#include "app/widgets/spec_form.h"
#include "core/examples.h"
#include "core/plan_spec.h"
#include "core/store/project_store.h"
#include "core/store/sqlite_connection.h"
#include "signal_wait.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QInputDialog>
#include <QMessageBox>
#include <QPointer>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolBar>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>

using namespace railyard;
using app::ProjectController;

namespace {

constexpr int kWaitMs = 10'000;

core::PlanSpec exampleSpec(int nodes)
{
    const auto example = core::findExample(core::kDefaultExample);
    auto spec = core::parsePlanSpecText(example->content, example->path).value();
    spec.nodes = nodes;
    return spec;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// While alive, answers the modal dialogs that open, in order, each with the next of its answers.
/// One more is rejected and counted as unexpected, and so is one still open 5 s after its answer
/// (an answer that failed), so that a test fails rather than hangs in the dialog's exec().
class ModalAnswers {
public:
    explicit ModalAnswers(std::vector<std::function<void(QWidget*)>> answers)
        : m_answers(std::move(answers))
    {
        QObject::connect(&m_timer, &QTimer::timeout, [this] { look(); });
        m_timer.start(20);
    }
    std::size_t answered() const { return m_answered; }
    std::size_t unexpected() const { return m_unexpected; }

private:
    void look()
    {
        QWidget* modal = QApplication::activeModalWidget();
        if (!modal)
            return;
        if (modal == m_last) {
            if (m_since.elapsed() > 5'000)
                reject(modal);
            return;
        }
        m_last = modal;
        m_since.start();
        if (m_answered < m_answers.size())
            m_answers[m_answered++](modal);
        else
            reject(modal);
    }
    void reject(QWidget* modal)
    {
        ++m_unexpected;
        if (auto* dialog = qobject_cast<QDialog*>(modal))
            dialog->reject();
    }

    std::vector<std::function<void(QWidget*)>> m_answers;
    std::size_t m_answered = 0;
    std::size_t m_unexpected = 0;
    QPointer<QWidget> m_last;
    QElapsedTimer m_since;
    QTimer m_timer;
};

QStringList autosaves(const QString& dir)
{
    return QDir(dir).entryList({ QStringLiteral("*.railyard") }, QDir::Files);
}

class ProjectTest : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(m_dir.isValid()); }

    QString file(const QString& name) const { return m_dir.filePath(name); }
    QString autosaveDir() const { return m_dir.filePath(QStringLiteral("autosave")); }

    /// A controller with its autosave in the temp dir; the autosave fires `idleMs` after an edit.
    std::unique_ptr<ProjectController> makeController(int idleMs = 60'000)
    {
        app::ProjectControllerOptions options;
        options.autosaveDir = autosaveDir();
        options.autosaveIdleMs = idleMs;
        return std::make_unique<ProjectController>(options);
    }

    /// The recovery check a controller just made runs: what it offered, or nothing.
    std::optional<app::RecoveryInfo> checkRecovery(ProjectController& c)
    {
        QSignalSpy available(&c, &ProjectController::recoveryAvailable);
        QSignalSpy checked(&c, &ProjectController::recoveryChecked);
        EXPECT_TRUE(test::waitForSignals(checked, 1, kWaitMs));
        if (checked.isEmpty() || !checked.at(0).at(0).toBool()) {
            EXPECT_TRUE(available.isEmpty());
            return std::nullopt;
        }
        EXPECT_EQ(available.size(), 1);
        if (available.isEmpty())
            return std::nullopt;
        return available.at(0).at(0).value<app::RecoveryInfo>();
    }

    /// Saves a project with plan "cluster" at revisions 1 (64 nodes) and 2 (128 nodes).
    void makeProject(const QString& path)
    {
        auto c = makeController();
        QSignalSpy saved(c.get(), &ProjectController::saved);
        QSignalSpy failed(c.get(), &ProjectController::failed);
        c->saveAs(path, QStringLiteral("cluster"), exampleSpec(64), QStringLiteral("first"));
        ASSERT_TRUE(test::waitForSignals(saved, 1, kWaitMs)) << failed.value(0).value(0).toString().toStdString();
        c->save(QStringLiteral("cluster"), exampleSpec(128), QStringLiteral("second"));
        ASSERT_TRUE(test::waitForSignals(saved, 2, kWaitMs));
        EXPECT_EQ(saved.at(1).at(1).toInt(), 2);
        EXPECT_FALSE(c->isDirty());
        c->shutdown();
    }

    QTemporaryDir m_dir;
};

} // namespace

TEST_F(ProjectTest, SaveOpenAndLoadRevisions)
{
    const QString path = file(QStringLiteral("fabric.railyard"));
    makeProject(path);

    auto c = makeController();
    QSignalSpy loaded(c.get(), &ProjectController::planLoaded);
    QSignalSpy opened(c.get(), &ProjectController::opened);
    c->open(path);
    ASSERT_TRUE(test::waitForSignals(loaded, 1, kWaitMs));
    EXPECT_EQ(opened.size(), 1);
    EXPECT_EQ(c->projectPath(), path);
    // Opening loads the most recently saved plan, at its latest revision.
    EXPECT_EQ(loaded.at(0).at(0).toString(), QStringLiteral("cluster"));
    EXPECT_EQ(loaded.at(0).at(1).toInt(), 2);
    EXPECT_EQ(loaded.at(0).at(2).value<core::PlanSpec>().nodes, 128);
    EXPECT_FALSE(c->isDirty());

    c->loadPlan(QStringLiteral("cluster"), 1);
    ASSERT_TRUE(test::waitForSignals(loaded, 2, kWaitMs));
    // toJson() fills in defaults, so the saved text is what must round-trip.
    EXPECT_EQ(core::toJson(loaded.at(1).at(2).value<core::PlanSpec>()), core::toJson(exampleSpec(64)));
    EXPECT_EQ(loaded.at(1).at(2).value<core::PlanSpec>().nodes, 64);
    EXPECT_EQ(c->revision(), 1);

    QSignalSpy revisions(c.get(), &ProjectController::revisionsListed);
    c->listRevisions(QStringLiteral("cluster"));
    ASSERT_TRUE(test::waitForSignals(revisions, 1, kWaitMs));
    const auto list = revisions.at(0).at(1).value<QList<app::ProjectRevisionInfo>>();
    ASSERT_EQ(list.size(), 2);
    EXPECT_EQ(list[0].comment, QStringLiteral("first"));
    EXPECT_EQ(list[1].comment, QStringLiteral("second"));

    // Editing makes the spec dirty; saving adds revision 3 and makes it clean.
    c->specEdited(exampleSpec(96));
    EXPECT_TRUE(c->isDirty());
    QSignalSpy saved(c.get(), &ProjectController::saved);
    c->save(c->planName(), c->spec());
    ASSERT_TRUE(test::waitForSignals(saved, 1, kWaitMs));
    EXPECT_EQ(saved.at(0).at(1).toInt(), 3);
    EXPECT_FALSE(c->isDirty());
    c->shutdown();
}

TEST_F(ProjectTest, KeepsSeveralPlansRenamesAndDeletes)
{
    const QString path = file(QStringLiteral("several.railyard"));
    makeProject(path);
    auto c = makeController();
    QSignalSpy opened(c.get(), &ProjectController::opened);
    QSignalSpy saved(c.get(), &ProjectController::saved);
    QSignalSpy listed(c.get(), &ProjectController::plansListed);
    c->open(path);
    c->save(QStringLiteral("expansion"), exampleSpec(256));
    ASSERT_TRUE(test::waitForSignals(saved, 1, kWaitMs));
    c->renamePlan(QStringLiteral("cluster"), QStringLiteral("phase 1"));
    c->deletePlan(QStringLiteral("expansion"));
    c->listPlans();
    ASSERT_TRUE(test::waitForSignals(listed, 1, kWaitMs));
    const auto plans = listed.at(0).at(0).value<QList<app::ProjectPlanInfo>>();
    ASSERT_EQ(plans.size(), 1);
    EXPECT_EQ(plans[0].name, QStringLiteral("phase 1"));
    EXPECT_EQ(plans[0].revisionCount, 2);

    // Save as copies every plan and revision into the new file and continues there.
    const QString copy = file(QStringLiteral("copy.railyard"));
    c->saveAs(copy, QStringLiteral("phase 2"), exampleSpec(512));
    ASSERT_TRUE(test::waitForSignals(saved, 2, kWaitMs));
    EXPECT_EQ(c->projectPath(), copy);
    c->listPlans();
    ASSERT_TRUE(test::waitForSignals(listed, 2, kWaitMs));
    const auto copied = listed.at(1).at(0).value<QList<app::ProjectPlanInfo>>();
    ASSERT_EQ(copied.size(), 2);
    EXPECT_EQ(copied[0].name, QStringLiteral("phase 1"));
    EXPECT_EQ(copied[0].latestRevision, 2);
    EXPECT_EQ(copied[1].name, QStringLiteral("phase 2"));
    c->shutdown();
}

TEST_F(ProjectTest, RefusesDamagedAndForeignFilesAndChangesNothing)
{
    const QString good = file(QStringLiteral("good.railyard"));
    makeProject(good);

    const auto writeNoise = [this](const QString& name, bool sqliteHeader) {
        QByteArray bytes(8192, '\0');
        for (auto& b : bytes)
            b = static_cast<char>(QRandomGenerator::global()->bounded(256));
        if (sqliteHeader)
            bytes.replace(0, 16, QByteArray("SQLite format 3", 16)); // looks like SQLite, is not
        QFile out(file(name));
        EXPECT_TRUE(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        return file(name);
    };
    const QString noise = writeNoise(QStringLiteral("noise.railyard"), false);
    const QString fake = writeNoise(QStringLiteral("fake.railyard"), true);
    const QString foreign = file(QStringLiteral("customers.railyard"));
    {
        core::store::SqliteConnection db;
        ASSERT_EQ(db.open(foreign.toStdString(), SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE), SQLITE_OK);
        ASSERT_EQ(db.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'x');"),
            SQLITE_OK);
    }

    auto c = makeController();
    QSignalSpy loaded(c.get(), &ProjectController::planLoaded);
    c->open(good);
    ASSERT_TRUE(test::waitForSignals(loaded, 1, kWaitMs));

    for (const QString& bad : { noise, fake, foreign }) {
        const QByteArray before = readAll(bad);
        QSignalSpy failed(c.get(), &ProjectController::failed);
        QSignalSpy opened(c.get(), &ProjectController::opened);
        c->open(bad);
        ASSERT_TRUE(test::waitForSignals(failed, 1, kWaitMs)) << bad.toStdString();
        const QString message = failed.at(0).at(0).toString();
        EXPECT_TRUE(message.contains(bad)) << message.toStdString();
        if (bad == foreign) {
            EXPECT_TRUE(message.contains(QStringLiteral("customers"))) << message.toStdString();
        }
        EXPECT_EQ(opened.size(), 0);
        EXPECT_EQ(readAll(bad), before);
        EXPECT_FALSE(QFile::exists(bad + QStringLiteral("-wal")));
        // The project that was open stays open.
        EXPECT_EQ(c->projectPath(), good);
    }
    QSignalSpy saved(c.get(), &ProjectController::saved);
    c->save(QStringLiteral("cluster"), exampleSpec(32));
    ASSERT_TRUE(test::waitForSignals(saved, 1, kWaitMs));
    EXPECT_EQ(saved.at(0).at(1).toInt(), 3);
    c->shutdown();
}

TEST_F(ProjectTest, SaveWithoutAProjectFails)
{
    auto c = makeController();
    QSignalSpy failed(c.get(), &ProjectController::failed);
    c->save(QStringLiteral("x"), exampleSpec(8));
    ASSERT_TRUE(test::waitForSignals(failed, 1, kWaitMs));
    EXPECT_TRUE(failed.at(0).at(0).toString().contains(QStringLiteral("Save project as")));
    c->shutdown();
}

TEST_F(ProjectTest, AutosaveIsRecoveredAfterACrash)
{
    const QString path = file(QStringLiteral("work.railyard"));
    makeProject(path);
    {
        auto c = makeController(50);
        QSignalSpy loaded(c.get(), &ProjectController::planLoaded);
        c->open(path);
        ASSERT_TRUE(test::waitForSignals(loaded, 1, kWaitMs));
        QSignalSpy autosaved(c.get(), &ProjectController::autosaved);
        c->specEdited(exampleSpec(200));
        ASSERT_TRUE(test::waitForSignals(autosaved, 1, kWaitMs));
        const QString written = autosaved.at(0).at(0).toString();
        EXPECT_TRUE(written.startsWith(autosaveDir())) << written.toStdString();
        EXPECT_TRUE(QFile::exists(written));
        // The user's file is never the autosave.
        EXPECT_NE(written, path);
        // A crash: the controller goes without shutdown().
    }
    ASSERT_EQ(autosaves(autosaveDir()).size(), 1);

    auto c = makeController();
    const auto offered = checkRecovery(*c);
    ASSERT_TRUE(offered);
    const app::RecoveryInfo info = *offered;
    EXPECT_EQ(info.spec.nodes, 200);
    EXPECT_EQ(info.projectPath, path);
    EXPECT_EQ(info.planName, QStringLiteral("cluster"));

    QSignalSpy restored(c.get(), &ProjectController::specRestored);
    QSignalSpy opened(c.get(), &ProjectController::opened);
    c->restoreRecovery();
    ASSERT_EQ(restored.size(), 1);
    EXPECT_EQ(restored.at(0).at(0).value<core::PlanSpec>().nodes, 200);
    EXPECT_TRUE(c->isDirty());
    ASSERT_TRUE(test::waitForSignals(opened, 1, kWaitMs));
    EXPECT_EQ(c->projectPath(), path);
    EXPECT_EQ(c->planName(), QStringLiteral("cluster"));

    // Saving the restored work makes revision 3 and removes every autosave.
    QSignalSpy saved(c.get(), &ProjectController::saved);
    c->save(c->planName(), c->spec());
    ASSERT_TRUE(test::waitForSignals(saved, 1, kWaitMs));
    EXPECT_EQ(saved.at(0).at(1).toInt(), 3);
    c->shutdown();
    EXPECT_TRUE(autosaves(autosaveDir()).isEmpty()) << autosaves(autosaveDir()).join(QLatin1Char(' ')).toStdString();
}

TEST_F(ProjectTest, AutosaveIsDiscardedAfterACleanExit)
{
    {
        auto c = makeController(50);
        QSignalSpy autosaved(c.get(), &ProjectController::autosaved);
        c->specEdited(exampleSpec(300));
        ASSERT_TRUE(test::waitForSignals(autosaved, 1, kWaitMs));
        EXPECT_EQ(autosaves(autosaveDir()).size(), 1);
        c->shutdown();
    }
    EXPECT_TRUE(autosaves(autosaveDir()).isEmpty());
    auto c = makeController();
    QSignalSpy checked(c.get(), &ProjectController::recoveryChecked);
    ASSERT_TRUE(test::waitForSignals(checked, 1, kWaitMs));
    EXPECT_FALSE(checked.at(0).at(0).toBool());
    c->shutdown();
}

TEST_F(ProjectTest, RecoveryCanBeDiscardedAndIgnoresLiveSessions)
{
    auto running = makeController(50);
    QSignalSpy autosaved(running.get(), &ProjectController::autosaved);
    running->specEdited(exampleSpec(16));
    ASSERT_TRUE(test::waitForSignals(autosaved, 1, kWaitMs));
    {
        // Another instance sees the running session's autosave and leaves it alone.
        auto other = makeController();
        QSignalSpy checked(other.get(), &ProjectController::recoveryChecked);
        ASSERT_TRUE(test::waitForSignals(checked, 1, kWaitMs));
        EXPECT_FALSE(checked.at(0).at(0).toBool());
        other->shutdown();
    }
    running.reset(); // crash
    auto c = makeController();
    QSignalSpy checked(c.get(), &ProjectController::recoveryChecked);
    ASSERT_TRUE(test::waitForSignals(checked, 1, kWaitMs));
    EXPECT_TRUE(checked.at(0).at(0).toBool());
    c->discardRecovery();
    c->shutdown();
    EXPECT_TRUE(autosaves(autosaveDir()).isEmpty());
}

TEST_F(ProjectTest, AnEmptyLockFileLeftByAKilledSessionDoesNotHideItsAutosave)
{
    QString written;
    {
        auto c = makeController(50);
        QSignalSpy autosaved(c.get(), &ProjectController::autosaved);
        c->specEdited(exampleSpec(48));
        ASSERT_TRUE(test::waitForSignals(autosaved, 1, kWaitMs));
        written = autosaved.at(0).at(0).toString();
    } // a crash
    // What a session killed while it created its lock file leaves: the file, empty. (With
    // QLockFile, which writes its pid after creating the file, such a lock counted as held for
    // ever, and the autosave was never offered again.)
    QFile lock(written + QStringLiteral(".lock"));
    ASSERT_TRUE(lock.open(QIODevice::WriteOnly | QIODevice::Truncate));
    lock.close();

    auto c = makeController();
    const auto offered = checkRecovery(*c);
    ASSERT_TRUE(offered);
    EXPECT_EQ(offered->spec.nodes, 48);
    c->discardRecovery();
    c->shutdown();
    EXPECT_EQ(QDir(autosaveDir()).entryList(QDir::Files | QDir::Hidden).join(QLatin1Char(' ')).toStdString(), "");
}

TEST_F(ProjectTest, RecoveryClearsWhatKilledSessionsLeftAndKeepsWhatDoesNotOpen)
{
    // A running session: its autosave and lock are not touched.
    auto running = makeController(50);
    QSignalSpy autosaved(running.get(), &ProjectController::autosaved);
    running->specEdited(exampleSpec(16));
    ASSERT_TRUE(test::waitForSignals(autosaved, 1, kWaitMs));
    const QDir dir(autosaveDir());
    // Its file, its lock, and its -wal and -shm while its connection is open.
    QStringList expected = dir.entryList(QDir::Files | QDir::Hidden);
    ASSERT_GE(expected.size(), 2) << expected.join(QLatin1Char(' ')).toStdString();
    const auto write = [&](const QString& name, const QByteArray& bytes) {
        QFile out(dir.filePath(name));
        ASSERT_TRUE(out.open(QIODevice::WriteOnly));
        ASSERT_EQ(out.write(bytes), bytes.size());
    };
    // Killed sessions: one before its file existed (a lone lock), one while ProjectStore built
    // the file (the hidden .creating file), one before its first autosave (a file with no plan).
    write(QStringLiteral("session-1.railyard.lock"), {});
    write(QStringLiteral("session-2.railyard.lock"), "4242\n");
    write(QStringLiteral(".session-2.railyard.creating-4242"), QByteArray(4096, 'x'));
    write(QStringLiteral(".session-2.railyard.creating-4242-wal"), QByteArray(100, 'y'));
    ASSERT_TRUE(core::store::ProjectStore::create(dir.filePath(QStringLiteral("session-3.railyard")).toStdString()));
    // One that does not open (damaged, or from a newer Railyard) is kept as it is; so is what is not ours.
    QByteArray garbage(8192, '\0');
    for (char& byte : garbage)
        byte = static_cast<char>(QRandomGenerator::global()->bounded(256));
    write(QStringLiteral("session-4.railyard"), garbage);
    write(QStringLiteral("notes.txt"), "mine");

    auto c = makeController();
    EXPECT_FALSE(checkRecovery(*c));
    c->shutdown();

    QStringList left = dir.entryList(QDir::Files | QDir::Hidden);
    left.sort();
    expected << QStringLiteral("notes.txt") << QStringLiteral("session-4.railyard");
    expected.sort();
    EXPECT_EQ(left.join(QLatin1Char(' ')).toStdString(), expected.join(QLatin1Char(' ')).toStdString());
    EXPECT_EQ(readAll(dir.filePath(QStringLiteral("session-4.railyard"))), garbage);
    running->shutdown();
}

TEST_F(ProjectTest, RecentProjectsNewestFirstAtMostEightMissingPruned)
{
    app::RecentProjects recent(file(QStringLiteral("recent.ini")));
    QStringList made;
    for (int i = 0; i < 10; ++i) {
        const QString path = file(QStringLiteral("p%1.railyard").arg(i));
        QFile f(path);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        made << path;
        recent.add(path);
    }
    QStringList paths = recent.paths();
    ASSERT_EQ(paths.size(), app::RecentProjects::kMaxEntries);
    EXPECT_EQ(paths.front(), made[9]);
    EXPECT_EQ(paths.back(), made[2]);

    recent.add(made[5]);
    EXPECT_EQ(recent.paths().front(), made[5]);
    EXPECT_EQ(recent.paths().size(), app::RecentProjects::kMaxEntries);

    QFile::remove(made[9]);
    paths = recent.paths();
    EXPECT_FALSE(paths.contains(made[9]));
    EXPECT_EQ(paths.size(), app::RecentProjects::kMaxEntries - 1);
    // Another reader of the same file sees the pruned list.
    EXPECT_EQ(app::RecentProjects(file(QStringLiteral("recent.ini"))).paths(), paths);
}

namespace {

std::shared_ptr<const core::Catalog> builtinCatalog()
{
    static auto c = std::make_shared<const core::Catalog>(core::Catalog::builtin().value());
    return c;
}

} // namespace

TEST_F(ProjectTest, MainWindowSavesRevisionsTitlesAndRefusesDamagedFiles)
{
    app::MainWindow w(builtinCatalog());
    app::ProjectSession* session = w.projectSession();
    ASSERT_NE(session, nullptr);
    app::ProjectController& c = session->controller();
    ASSERT_TRUE(w.loadExample(QStringLiteral("dgx-h100-superpod-4su")));
    EXPECT_TRUE(w.windowTitle().contains(QStringLiteral("dgx-h100-superpod-4su"))) << w.windowTitle().toStdString();
    EXPECT_FALSE(w.isWindowModified());

    const QString path = file(QStringLiteral("window.railyard"));
    QSignalSpy saved(&c, &ProjectController::saved);
    c.saveAs(path, QStringLiteral("cluster"), w.controller().spec());
    ASSERT_TRUE(test::waitForSignals(saved, 1, kWaitMs));
    EXPECT_EQ(w.windowTitle(), QStringLiteral("cluster[*] — window.railyard — Railyard"));

    // An edit in the form makes the window modified; Save (no questions now) adds revision 2.
    auto* nodes = qobject_cast<QSpinBox*>(w.specForm()->fieldWidget(QStringLiteral("nodes")));
    ASSERT_NE(nodes, nullptr);
    nodes->setValue(nodes->value() - 1);
    EXPECT_TRUE(c.isDirty());
    EXPECT_TRUE(w.isWindowModified());
    ASSERT_TRUE(session->save());
    ASSERT_TRUE(test::waitForSignals(saved, 2, kWaitMs));
    EXPECT_EQ(saved.at(1).at(1).toInt(), 2);
    EXPECT_FALSE(w.isWindowModified());

    // A damaged file: the store's message in a message box, nothing changed.
    const QString bad = file(QStringLiteral("damaged.railyard"));
    {
        QFile out(bad);
        ASSERT_TRUE(out.open(QIODevice::WriteOnly));
        out.write(QByteArray(4096, 'x'));
    }
    const QByteArray before = readAll(bad);
    QSignalSpy failed(&c, &ProjectController::failed);
    session->openProject(bad);
    ASSERT_TRUE(test::waitForSignals(failed, 1, kWaitMs));
    auto* box = w.findChild<QMessageBox*>(QStringLiteral("projectError"));
    ASSERT_NE(box, nullptr);
    EXPECT_TRUE(box->text().contains(bad)) << box->text().toStdString();
    box->close();
    EXPECT_EQ(readAll(bad), before);
    EXPECT_EQ(c.projectPath(), path);
    EXPECT_EQ(w.windowTitle(), QStringLiteral("cluster[*] — window.railyard — Railyard"));
    EXPECT_TRUE(session->recent().paths().contains(path));
}

TEST_F(ProjectTest, SaveAsksForTheNameOfANewPlanAndACancelSavesNothing)
{
    const QString path = file(QStringLiteral("named.railyard"));
    makeProject(path);
    auto window = std::make_unique<app::MainWindow>(builtinCatalog());
    app::MainWindow& w = *window;
    app::ProjectSession* session = w.projectSession();
    ASSERT_NE(session, nullptr);
    app::ProjectController& c = session->controller();
    QSignalSpy opened(&c, &ProjectController::opened);
    session->openProject(path);
    ASSERT_TRUE(test::waitForSignals(opened, 1, kWaitMs));
    // An example loaded into the open project is a new plan there: it has no name yet.
    ASSERT_TRUE(w.loadExample(QStringLiteral("dgx-h100-superpod-1su")));
    EXPECT_TRUE(c.planName().isEmpty()) << c.planName().toStdString();
    EXPECT_EQ(c.projectPath(), path);
    const auto inputDialog = [](QWidget* modal) {
        auto* dialog = qobject_cast<QInputDialog*>(modal);
        EXPECT_NE(dialog, nullptr) << modal->metaObject()->className();
        return dialog;
    };

    // The name cancelled: nothing is saved.
    QSignalSpy saved(&c, &ProjectController::saved);
    {
        ModalAnswers answers({ [&](QWidget* modal) {
            if (QInputDialog* dialog = inputDialog(modal))
                dialog->reject();
        } });
        EXPECT_FALSE(session->save());
        EXPECT_EQ(answers.answered(), 1u);
        EXPECT_EQ(answers.unexpected(), 0u);
    }

    // The name given (the blanks around it dropped): the plan is saved under it, as revision 1.
    QString suggested;
    {
        ModalAnswers answers({ [&](QWidget* modal) {
            if (QInputDialog* dialog = inputDialog(modal)) {
                suggested = dialog->textValue();
                dialog->setTextValue(QStringLiteral("  trial  "));
                dialog->accept();
            }
        } });
        ASSERT_TRUE(session->save());
        EXPECT_EQ(answers.answered(), 1u);
        EXPECT_EQ(answers.unexpected(), 0u);
    }
    EXPECT_EQ(suggested, QStringLiteral("dgx-h100-superpod-1su"));
    ASSERT_TRUE(test::waitForSignals(saved, 1, kWaitMs));
    EXPECT_EQ(saved.at(0).at(0).toString(), QStringLiteral("trial"));
    EXPECT_EQ(saved.at(0).at(1).toInt(), 1);

    // Once named, Save asks nothing: revision 2.
    auto* nodes = qobject_cast<QSpinBox*>(w.specForm()->fieldWidget(QStringLiteral("nodes")));
    ASSERT_NE(nodes, nullptr);
    nodes->setValue(nodes->value() - 1);
    {
        ModalAnswers none({});
        ASSERT_TRUE(session->save());
        EXPECT_EQ(none.unexpected(), 0u);
    }
    ASSERT_TRUE(test::waitForSignals(saved, 2, kWaitMs));
    EXPECT_EQ(saved.at(1).at(0).toString(), QStringLiteral("trial"));
    EXPECT_EQ(saved.at(1).at(1).toInt(), 2);

    // The project holds both plans: the first untouched, the new one at its two revisions.
    window.reset();
    auto store = core::store::ProjectStore::open(path.toStdString());
    ASSERT_TRUE(store) << store.error().toString();
    auto plans = store->listPlans();
    ASSERT_TRUE(plans) << plans.error().toString();
    std::map<std::string, int> latest;
    for (const core::store::PlanSummary& p : *plans)
        latest[p.name] = p.latestRevision;
    EXPECT_EQ(latest, (std::map<std::string, int> { { "cluster", 2 }, { "trial", 2 } }));
}

TEST_F(ProjectTest, MainWindowOffersRecoveryInAMessageBar)
{
    {
        auto crashed = makeController(50);
        QSignalSpy autosaved(crashed.get(), &ProjectController::autosaved);
        crashed->specEdited(exampleSpec(200));
        ASSERT_TRUE(test::waitForSignals(autosaved, 1, kWaitMs));
    }
    app::MainWindow w(builtinCatalog());
    app::ProjectControllerOptions options;
    options.autosaveDir = autosaveDir();
    auto session = std::make_unique<app::ProjectSession>(w, options, app::RecentProjects(file(QStringLiteral("recent.ini"))));
    QSignalSpy checked(&session->controller(), &ProjectController::recoveryChecked);
    ASSERT_TRUE(test::waitForSignals(checked, 1, kWaitMs));
    ASSERT_TRUE(checked.at(0).at(0).toBool());
    EXPECT_TRUE(session->recoveryBar()->isVisibleTo(&w));
    auto* restore = session->recoveryBar()->findChild<QAction*>(QStringLiteral("restoreRecovery"));
    ASSERT_NE(restore, nullptr);
    restore->trigger();
    EXPECT_FALSE(session->recoveryBar()->isVisibleTo(&w));
    EXPECT_EQ(w.controller().spec().nodes, 200);
    EXPECT_TRUE(session->controller().isDirty());
    session.reset(); // clean exit
    EXPECT_TRUE(autosaves(autosaveDir()).isEmpty());
}
