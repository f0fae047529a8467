// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
//
// railyard [PROJECT.railyard]
// railyard --screenshot FILE.png [--example NAME | --spec FILE] [--tab planner|live|PAGE] [--demo [--show STATE]] [--size WxH] [--lang en|ko]

#include "app/models/live_session.h"
#include "app/models/plan_controller.h"
#include "app/models/project_controller.h"
#include "app/models/live_history_model.h"
#include "app/widgets/live_history_view.h"
#include "app/widgets/live_test_view.h"
#include "app/widgets/live_workspace.h"
#include "app/widgets/main_window.h"
#include "app/widgets/project_session.h"
#include "core/examples.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QLibraryInfo>
#include <QLocale>
#include <QScreen>
#include <QSettings>
#include <QTimer>
#include <QTranslator>

#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <utility>

using namespace railyard;

namespace {

bool wantsScreenshot(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--screenshot") == 0)
            return true;
    }
    return false;
}

void fail(const QString& message)
{
    std::fprintf(stderr, "railyard: %s\n", qPrintable(message));
}

/// Installs Railyard's and Qt's translations for `language` ("en", "ko"; "system" or empty: the
/// system's UI languages). English is the source language: it needs no catalog but loads one anyway.
void installTranslations(QApplication& application, const QString& language)
{
    const bool system = language.isEmpty() || language == QStringLiteral("system");
    const QLocale locale = system ? QLocale::system() : QLocale(language);
    if (!system)
        QLocale::setDefault(locale);
    // The translations embedded by qt_add_translations (app/widgets/CMakeLists.txt) live under :/i18n/.
    auto* railyard = new QTranslator(&application);
    if (railyard->load(locale, QStringLiteral("railyard"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(railyard);
    auto* qt = new QTranslator(&application);
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
}

/// Waits (with the event loop running) until the current plan has arrived.
void waitForPlan(app::MainWindow& window)
{
    QEventLoop loop;
    QTimer guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(&window.controller(), &app::PlanController::planReady, &loop, &QEventLoop::quit);
    QObject::connect(&window.controller(), &app::PlanController::planFailed, &loop, &QEventLoop::quit);
    guard.start(120'000);
    if (window.controller().isPlanning())
        loop.exec();
    // Let the views lay themselves out.
    QCoreApplication::processEvents();
}

/// Opens the project at `path` and waits (bounded) until its newest plan is in the window; false,
/// with the reason printed, when the project could not be opened.
bool openProjectAndWait(app::MainWindow& window, const QString& path)
{
    app::ProjectController& projects = window.projectSession()->controller();
    QEventLoop loop;
    QTimer guard;
    guard.setSingleShot(true);
    bool loaded = false;
    QString error = QStringLiteral("%1: the project did not open within two minutes").arg(path);
    QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(&projects, &app::ProjectController::planLoaded, &loop, [&] {
        loaded = true;
        loop.quit();
    });
    QObject::connect(&projects, &app::ProjectController::failed, &loop, [&](const QString& message) {
        error = message;
        loop.quit();
    });
    guard.start(120'000);
    window.projectSession()->openProject(path);
    loop.exec();
    if (!loaded)
        fail(error);
    return loaded;
}

/// --demo: connects the Live workspace to a demo fabric of the plan and waits (bounded) for a few
/// sweeps and the first live check, so that the picture shows rates and findings.
bool connectDemoAndWait(app::MainWindow& window)
{
    app::LiveSession& session = window.liveWorkspace()->session();
    QString error;
    QObject::connect(&session, &app::LiveSession::failed, &session, [&](const QString& message) { error = message; });
    session.connectDemo();
    QEventLoop loop;
    QTimer poll, guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        constexpr std::size_t kSweeps = 6; // the first frame sets baselines; then a few seconds of series
        if (!error.isEmpty() || session.state() == app::LiveSession::State::Disconnected
            || (session.framesReceived() >= kSweeps && !session.isChecking() && session.checkReport()))
            loop.quit();
    });
    poll.start(100);
    guard.start(120'000);
    loop.exec();
    if (!error.isEmpty() || session.framesReceived() == 0) {
        fail(error.isEmpty() ? QStringLiteral("--demo: the demo fabric sent no counters within two minutes") : error);
        return false;
    }
    // The side panel filled in, as after a click on the first node.
    window.liveWorkspace()->showPlace(QString::fromStdString(session.frame()->nodes.front().node + "/nic0"));
    return true;
}

/// Runs the event loop until `done()` or `timeoutMs`; false on the timeout.
bool waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    QEventLoop loop;
    QTimer poll, guard;
    guard.setSingleShot(true);
    QObject::connect(&guard, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    poll.start(100);
    guard.start(timeoutMs);
    loop.exec();
    return done();
}

/// --show (with --demo): a Live workspace state for the picture. "test-running": an all-reduce
/// half way (its chart filling in); "test-result": the result page of an all-reduce with a degraded
/// rail; "bandwidth-result": the per-rail bandwidth test's; "history": two all-reduce runs (before
/// and after the fault) compared.
bool showLiveState(app::MainWindow& window, const QString& state)
{
    app::LiveWorkspace& live = *window.liveWorkspace();
    app::LiveSession& session = live.session();
    app::LiveTestPage& page = *live.testPage();
    QString error;
    QObject::connect(&session, &app::LiveSession::failed, &session, [&](const QString& message) { error = message; });
    auto runTest = [&](const QString& kind) {
        const std::size_t before = session.sessionTests().size();
        page.kindBox()->setCurrentIndex(page.kindBox()->findData(kind));
        page.start();
        return waitUntil([&] { return !error.isEmpty() || session.sessionTests().size() > before; }, 300'000) && error.isEmpty();
    };
    auto degrade = [&] {
        const std::string node = session.frame()->nodes[std::min<std::size_t>(1, session.frame()->nodes.size() - 1)].node;
        bool injected = false;
        QObject::connect(&session, &app::LiveSession::faultInjected, &session, [&] { injected = true; });
        session.injectFault(R"({ "kind": "degraded", "node": ")" + node + R"(", "rail": 3, "width": 1 })");
        return waitUntil([&] { return !error.isEmpty() || (injected && !session.isChecking()); }, 60'000) && error.isEmpty();
    };
    bool ok = true;
    if (state == QStringLiteral("test-running")) {
        page.kindBox()->setCurrentIndex(page.kindBox()->findData(QStringLiteral("allreduce")));
        page.start();
        ok = waitUntil([&] { return !error.isEmpty() || (session.testPartial().busbw.count(-1) && session.testPartial().busbw.at(-1).size() >= 4); }, 120'000) && error.isEmpty();
    } else if (state == QStringLiteral("test-result")) {
        ok = degrade() && runTest(QStringLiteral("allreduce"));
    } else if (state == QStringLiteral("bandwidth-result")) {
        ok = degrade() && runTest(QStringLiteral("write_bw"));
    } else if (state == QStringLiteral("history")) {
        ok = runTest(QStringLiteral("allreduce")) && degrade() && runTest(QStringLiteral("allreduce"));
        live.showTab(QStringLiteral("history"));
        std::optional<bool> compared;
        QObject::connect(live.historyPage(), &app::LiveHistoryPage::detailShown, live.historyPage(), [&](bool shown) { compared = shown; });
        // The list is read off the GUI thread: compared once it is in.
        bool listed = false;
        QObject::connect(live.historyPage(), &app::LiveHistoryPage::reloaded, live.historyPage(), [&] {
            if (!listed && live.historyPage()->model()->rowCount() >= 3) {
                listed = true;
                live.historyPage()->compareRows(0, 2);
            }
        });
        live.historyPage()->reload();
        ok = ok && waitUntil([&] { return compared.has_value(); }, 30'000) && *compared;
    } else {
        fail(QStringLiteral("--show: unknown state %1 (test-running, test-result, bandwidth-result, history)").arg(state));
        return false;
    }
    if (!ok)
        fail(error.isEmpty() ? QStringLiteral("--show %1: the test did not finish in time").arg(state) : error);
    return ok;
}

int screenshot(app::MainWindow& window, const QCommandLineParser& args)
{
    QSize size(1280, 800);
    if (args.isSet(QStringLiteral("size"))) {
        const QStringList wh = args.value(QStringLiteral("size")).split(QLatin1Char('x'));
        bool okW = false, okH = false;
        if (wh.size() == 2)
            size = QSize(wh[0].toInt(&okW), wh[1].toInt(&okH));
        if (!okW || !okH || size.width() < 200 || size.height() < 200) {
            fail(QStringLiteral("--size: expected WIDTHxHEIGHT like 1920x1080, got %1").arg(args.value(QStringLiteral("size"))));
            return 2;
        }
    }
    const QString tab = args.value(QStringLiteral("tab"));
    if (!tab.isEmpty() && tab != QStringLiteral("planner") && !window.showPage(tab)) {
        fail(QStringLiteral("--tab: unknown page %1 (planner, live, summary, topology, findings, switches, cables, bom, compare, intent)").arg(tab));
        return 2;
    }
    window.resize(size);
    window.show();
    // With a project, the picture shows its newest plan, not the example it replaces. Opened once the
    // window is visible, as in normal use, so that its status message replaces the plan summary.
    if (const QStringList projects = args.positionalArguments(); !projects.isEmpty() && !openProjectAndWait(window, projects.front()))
        return 2;
    waitForPlan(window);
    if (args.isSet(QStringLiteral("demo")) && !connectDemoAndWait(window))
        return 1;
    if (args.isSet(QStringLiteral("show")) && !showLiveState(window, args.value(QStringLiteral("show"))))
        return 1;
    QCoreApplication::processEvents();
    const QString file = args.value(QStringLiteral("screenshot"));
    if (!window.grab().save(file)) {
        fail(QStringLiteral("cannot write %1").arg(file));
        return 1;
    }
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    // A screenshot needs no display.
    if (wantsScreenshot(argc, argv) && std::getenv("QT_QPA_PLATFORM") == nullptr)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    // QApplication set the C locale from the environment; numbers the engine and the libraries
    // write or read with printf and strtod (exports, PromQL, SQLite, tool output) keep a decimal
    // point, as Qt's documentation advises. The interface's own numbers follow QLocale.
    std::setlocale(LC_NUMERIC, "C");
    QApplication::setOrganizationName(QStringLiteral("Railyard"));
    QApplication::setOrganizationDomain(QStringLiteral("railyard.invalid"));
    QApplication::setApplicationName(QStringLiteral("railyard"));
    QApplication::setApplicationVersion(QStringLiteral(RAILYARD_VERSION));

    QCommandLineParser args;
    args.setApplicationDescription(QStringLiteral("Plan and bring up rail-optimized GPU fabrics."));
    args.addHelpOption();
    args.addVersionOption();
    args.addPositionalArgument(QStringLiteral("project"), QStringLiteral("A Railyard project (*.railyard) to open; its most recently saved plan is shown."),
        QStringLiteral("[PROJECT.railyard]"));
    args.addOption({ QStringLiteral("screenshot"), QStringLiteral("Render the main window to FILE.png and exit."), QStringLiteral("FILE") });
    args.addOption({ QStringLiteral("example"), QStringLiteral("Open the built-in example NAME."), QStringLiteral("NAME") });
    args.addOption({ QStringLiteral("spec"), QStringLiteral("Open the plan spec FILE (*.plan.json) instead of an example."), QStringLiteral("FILE") });
    args.addOption({ QStringLiteral("tab"), QStringLiteral("Page to show: planner, live, summary, topology, findings, switches, cables, bom, compare, intent."),
        QStringLiteral("NAME") });
    args.addOption({ QStringLiteral("demo"), QStringLiteral("With --screenshot: connect the Live workspace to a demo fabric of the plan first.") });
    args.addOption({ QStringLiteral("show"),
        QStringLiteral("With --demo: a Live state for the picture: test-running, test-result, bandwidth-result or history."), QStringLiteral("STATE") });
    args.addOption({ QStringLiteral("size"), QStringLiteral("Window size for --screenshot, e.g. 1920x1080."), QStringLiteral("WxH") });
    args.addOption({ QStringLiteral("lang"), QStringLiteral("User interface language for this run: en or ko (default: View > Language)."),
        QStringLiteral("LANG") });
    args.process(application);

    // View > Language stores the choice; it takes effect here, at the next start.
    QString language = app::MainWindow::storedLanguage();
    if (args.isSet(QStringLiteral("lang"))) {
        language = args.value(QStringLiteral("lang"));
        if (language != QStringLiteral("en") && language != QStringLiteral("ko")) {
            fail(QStringLiteral("--lang: expected en or ko, got %1").arg(language));
            return 2;
        }
    }
    installTranslations(application, language);

    auto catalog = core::Catalog::builtin();
    if (!catalog) {
        fail(QString::fromStdString(catalog.error().toString()));
        return 2;
    }
    app::MainWindow window(std::make_shared<const core::Catalog>(std::move(catalog).value()));
    const QString example = args.isSet(QStringLiteral("example")) ? args.value(QStringLiteral("example"))
                                                                  : QString::fromUtf8(core::kDefaultExample.data(),
                                                                      static_cast<qsizetype>(core::kDefaultExample.size()));
    if (!window.loadExample(example)) {
        fail(QStringLiteral("--example: no built-in example called %1 (see railyard-cli plan --list-examples)").arg(example));
        return 2;
    }
    if (args.isSet(QStringLiteral("spec"))) {
        if (const QString error = window.openSpec(args.value(QStringLiteral("spec"))); !error.isEmpty()) {
            fail(QStringLiteral("--spec: %1").arg(error));
            return 2;
        }
    }
    if (args.isSet(QStringLiteral("screenshot")))
        return screenshot(window, args);
    QSettings uiState(app::MainWindow::uiStateFile(), QSettings::IniFormat);
    window.restoreUiState(uiState);
    window.show();
    // Opened after the example, which it replaces once its newest plan has loaded.
    if (const QStringList projects = args.positionalArguments(); !projects.isEmpty())
        window.projectSession()->openProject(projects.front());
    const int status = QApplication::exec();
    window.saveUiState(uiState);
    return status;
}
