// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The program the app crash-safety test kills (tests/app/test_project_kill.cpp): the desktop app's
// project layer as the main window drives it (ProjectController, its worker thread and SQLite
// connections, its autosave), with no window. It opens PROJECT and saves plan "cluster" revision
// after revision up to LAST, each one edited (and autosaved) first; every third revision is a
// Save As to the other file (PROJECT <-> OTHER), which writes the whole history beside that file
// and renames it over it, as the app's Save As does.
//
//   test_app_project_saver PROJECT OTHER AUTOSAVE_DIR LAST
//
// Prints to stdout, flushed, one line per thing done: "saved FILE REVISION" when the controller
// reports a save, "autosaved FILE", then "done". Exit 0 when done; 3 when the controller reports
// a failure (the message on stderr), 2 for bad arguments.
#include "app/models/project_controller.h"
#include "saved_revisions.h"

#include <QCoreApplication>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

using namespace railyard;
using app::ProjectController;

namespace {

void say(const QString& line)
{
    std::fputs(qUtf8Printable(line + QLatin1Char('\n')), stdout);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication application(argc, argv);
    const QStringList args = QCoreApplication::arguments();
    bool numeric = false;
    const int last = args.size() == 5 ? args[4].toInt(&numeric) : 0;
    if (!numeric || last < 1) {
        std::fputs("usage: test_app_project_saver PROJECT OTHER AUTOSAVE_DIR LAST\n", stderr);
        return 2;
    }
    const QString project = args[1];
    const QString other = args[2];
    app::ProjectControllerOptions options;
    options.autosaveDir = args[3];
    // Autosaves come from autosaveNow() below, not from the timers.
    options.autosaveIntervalMs = 3'600'000;
    options.autosaveIdleMs = 3'600'000;
    ProjectController controller(options);
    const QString plan = QString::fromLatin1(test::saver::kPlan);

    int next = 0;
    const auto step = [&] {
        if (next > last) {
            say(QStringLiteral("done"));
            controller.shutdown();
            QCoreApplication::quit();
            return;
        }
        const core::PlanSpec spec = test::saver::specOf(next);
        const QString comment = QString::fromStdString(test::saver::commentOf(next));
        controller.specEdited(spec);
        controller.autosaveNow();
        if (next % 3 == 0)
            controller.saveAs(controller.projectPath() == project ? other : project, plan, spec, comment);
        else
            controller.save(plan, spec, comment);
    };
    QObject::connect(&controller, &ProjectController::failed, [](const QString& message) {
        std::fprintf(stderr, "test_app_project_saver: %s\n", qUtf8Printable(message));
        std::exit(3);
    });
    QObject::connect(&controller, &ProjectController::autosaveFailed, [](const QString& message) {
        std::fprintf(stderr, "test_app_project_saver: autosave: %s\n", qUtf8Printable(message));
        std::exit(3);
    });
    QObject::connect(&controller, &ProjectController::autosaved,
        [](const QString& file) { say(QStringLiteral("autosaved ") + file); });
    QObject::connect(&controller, &ProjectController::saved, [&](const QString&, int revision) {
        say(QStringLiteral("saved %1 %2").arg(controller.projectPath()).arg(revision));
        next = revision + 1;
        step();
    });
    // Opening loads the newest revision; saving goes on from there.
    QObject::connect(&controller, &ProjectController::planLoaded, [&](const QString&, int revision) {
        next = revision + 1;
        step();
    });
    controller.open(project);
    return QCoreApplication::exec();
}
