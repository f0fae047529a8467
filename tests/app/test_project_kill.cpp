// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Crash safety of the desktop app's saves: the app's project layer (ProjectController with its
// worker thread and autosave, in tests/app/saver/project_saver.cpp) is killed with SIGKILL at
// random points while it saves revision after revision, into the open project and by Save As over
// the other file. After each kill both files and every autosave left behind are opened: each opens,
// the last revision the app reported saved is there, every revision found is byte for byte what
// was saved (nothing half-written shows), and the next session offers the autosave and saves on
// top of what the kill left. tests/integration/test_crash_safety.cpp does the same to the CLI.
#include "app/models/project_controller.h"
#include "core/store/project_store.h"
#include "live/common/subprocess.h"
#include "saver/saved_revisions.h"
#include "signal_wait.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <signal.h>

using namespace railyard;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kWaitMs = 30'000;

/// One run of the saver: started, killed after `delay` (or left to finish when none), reaped.
struct SaverRun {
    bool killed = false;
    int exitStatus = -1;
    std::string out; ///< what it printed
};

SaverRun runSaver(const std::vector<std::string>& args, std::optional<std::chrono::microseconds> delay)
{
    SaverRun run;
    std::vector<std::string> argv { RAILYARD_PROJECT_SAVER };
    argv.insert(argv.end(), args.begin(), args.end());
    live::SpawnOptions options;
    options.capture = true; // stdout and stderr: its reports, and what went wrong
    live::ChildProcess saver(argv, options);
    if (!saver.started()) {
        run.out = saver.error();
        return run;
    }
    if (delay) {
        std::this_thread::sleep_for(*delay);
        saver.signal(SIGKILL);
    }
    // Read to the end: every line it printed before it died or exited.
    while (saver.outputFd() >= 0) {
        pollfd ready { saver.outputFd(), POLLIN, 0 };
        ::poll(&ready, 1, 100);
        saver.readOutput(run.out);
    }
    if (!saver.waitFor(std::chrono::milliseconds(kWaitMs)))
        saver.stop();
    run.killed = saver.termSignal() == SIGKILL;
    run.exitStatus = saver.exitCode().value_or(-1);
    return run;
}

/// The last "saved FILE REVISION" line of a run: the newest save the app reported.
std::optional<std::pair<std::string, int>> lastReportedSave(const std::string& out)
{
    std::optional<std::pair<std::string, int>> last;
    std::size_t pos = 0;
    while (pos < out.size()) {
        std::size_t end = out.find('\n', pos);
        if (end == std::string::npos)
            break; // a line cut by the kill is not a report
        const std::string line = out.substr(pos, end - pos);
        pos = end + 1;
        if (line.rfind("saved ", 0) != 0)
            continue;
        const std::size_t space = line.rfind(' ');
        last = std::make_pair(line.substr(6, space - 6), std::stoi(line.substr(space + 1)));
    }
    return last;
}

/// Checks a project file the app saved into: it opens, plan "cluster" has revisions 1..n with no
/// gap, each exactly what the saver saved as that revision. Returns n (0: the file is not there).
int checkProject(const fs::path& file, const std::string& context)
{
    if (!fs::exists(file))
        return 0;
    auto store = core::store::ProjectStore::open(file);
    EXPECT_TRUE(store) << context << ": " << file.filename() << " does not open: " << store.error().message;
    if (!store)
        return -1;
    auto revisions = store->revisions(test::saver::kPlan);
    EXPECT_TRUE(revisions) << context << ": " << file.filename() << ": " << revisions.error().message;
    if (!revisions)
        return -1;
    int expected = 1;
    for (const auto& info : *revisions) {
        EXPECT_EQ(info.revision, expected) << context << ": " << file.filename() << ": a revision is missing";
        auto stored = store->loadPlan(test::saver::kPlan, info.revision);
        EXPECT_TRUE(stored) << context << ": " << file.filename() << " revision " << info.revision;
        if (!stored)
            return -1;
        const bool commentWhole = stored->comment == test::saver::commentOf(info.revision);
        EXPECT_TRUE(commentWhole) << context << ": " << file.filename() << " revision " << info.revision
                                  << ": a half-written or wrong comment (" << stored->comment.size() << " bytes)";
        auto spec = core::parsePlanSpecText(stored->specJson, file.string());
        EXPECT_TRUE(spec) << context << ": " << file.filename() << " revision " << info.revision << ": "
                          << spec.error().message;
        if (spec) {
            EXPECT_EQ(core::toJson(*spec), core::toJson(test::saver::specOf(info.revision)))
                << context << ": " << file.filename() << " revision " << info.revision;
        }
        ++expected;
    }
    return expected - 1;
}

/// Every autosave a killed session left opens, and what it holds is the spec of one revision.
/// Returns how many hold a spec.
int checkAutosaves(const QString& dir, int lastRevision, const std::string& context)
{
    int holding = 0;
    for (const QString& name : QDir(dir).entryList({ QStringLiteral("*.railyard") }, QDir::Files)) {
        const fs::path file = fs::path(QDir(dir).filePath(name).toStdString());
        auto store = core::store::ProjectStore::open(file);
        EXPECT_TRUE(store) << context << ": the autosave " << name.toStdString() << " does not open: " << store.error().message;
        if (!store)
            continue;
        for (const char* plan : { "autosave", "autosave-old" }) {
            auto stored = store->loadPlan(plan);
            if (!stored)
                continue;
            auto spec = core::parsePlanSpecText(stored->specJson, file.string());
            EXPECT_TRUE(spec) << context << ": autosave " << plan << ": " << spec.error().message;
            if (!spec)
                continue;
            const int revision = spec->nodes / 32;
            EXPECT_TRUE(spec->nodes % 32 == 0 && revision >= 1 && revision <= lastRevision) << context << ": " << spec->nodes;
            EXPECT_EQ(core::toJson(*spec), core::toJson(test::saver::specOf(revision))) << context;
            ++holding;
            break;
        }
    }
    return holding;
}

/// The folder's files with their sizes: for a failure's message.
std::string listing(const QString& dir)
{
    std::string out;
    for (const QFileInfo& info : QDir(dir).entryInfoList(QDir::Files | QDir::Hidden, QDir::Name))
        out += info.fileName().toStdString() + " (" + std::to_string(info.size()) + " bytes)\n";
    return out;
}

void removeAll(const QString& dir)
{
    QDir(dir).removeRecursively();
}

} // namespace

TEST(ProjectCrashSafety, KilledAppSavesNeverDamageTheProjects)
{
    constexpr int kRounds = 100;
    constexpr int kLast = 9; // each session saves up to this revision: 3, 6 and 9 by Save As
    QTemporaryDir temp;
    ASSERT_TRUE(temp.isValid());
    const fs::path dir(temp.path().toStdString());
    const fs::path project = dir / "fabric.railyard";
    const fs::path other = dir / "fabric-copy.railyard";
    const QString autosaveDir = temp.filePath(QStringLiteral("autosave"));
    const std::vector<std::string> args { project.string(), other.string(), autosaveDir.toStdString(), std::to_string(kLast) };

    // Revisions 1 and 2 saved by a session that exits cleanly: the baseline every round starts from.
    {
        app::ProjectControllerOptions options;
        options.autosaveDir = autosaveDir;
        app::ProjectController c(options);
        QSignalSpy saved(&c, &app::ProjectController::saved);
        c.saveAs(QString::fromStdString(project.string()), QString::fromLatin1(test::saver::kPlan), test::saver::specOf(1),
            QString::fromStdString(test::saver::commentOf(1)));
        ASSERT_TRUE(test::waitForSignals(saved, 1, kWaitMs));
        c.save(QString::fromLatin1(test::saver::kPlan), test::saver::specOf(2), QString::fromStdString(test::saver::commentOf(2)));
        ASSERT_TRUE(test::waitForSignals(saved, 2, kWaitMs));
        c.shutdown();
    }
    const std::string baseline = [&] {
        QFile file(QString::fromStdString(project.string()));
        return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
    }();
    ASSERT_FALSE(baseline.empty());
    // Every file in the folder goes (the projects, their -wal and -shm, a stale .saving, a killed
    // creator's .creating-PID), and so do the autosaves; then the baseline project is written back.
    const auto leftovers = [&] {
        int count = 0;
        for (const auto& entry : fs::directory_iterator(dir))
            count += entry.is_regular_file() && entry.path() != project && entry.path() != other ? 1 : 0;
        return count;
    };
    const auto restore = [&] {
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.is_regular_file())
                fs::remove(entry.path());
        removeAll(autosaveDir);
        std::FILE* out = std::fopen(project.c_str(), "wb");
        ASSERT_NE(out, nullptr);
        ASSERT_EQ(std::fwrite(baseline.data(), 1, baseline.size(), out), baseline.size());
        std::fclose(out);
    };

    // Whole sessions: what a round must reach when not killed, and how long one takes. The kills
    // are spread over the fastest session seen (these three, then every round from the baseline
    // that ran to its end): one session's time varies by 2x from run to run, and spread over a
    // slow one, most kills would land after the end.
    std::chrono::microseconds runTime = std::chrono::microseconds::max();
    for (int session = 0; session < 3; ++session) {
        restore();
        const auto started = Clock::now();
        const SaverRun whole = runSaver(args, std::nullopt);
        runTime = std::min(runTime, std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started));
        ASSERT_EQ(whole.exitStatus, 0) << whole.out;
        ASSERT_NE(whole.out.find("done\n"), std::string::npos) << whole.out;
        // Revision 3 went by Save As to the other file, 6 back to the project, 9 to the other file again.
        EXPECT_EQ(lastReportedSave(whole.out), std::make_pair(other.string(), kLast));
        EXPECT_EQ(checkProject(project, "the whole session"), kLast - 1);
        EXPECT_EQ(checkProject(other, "the whole session"), kLast);
        EXPECT_EQ(QDir(autosaveDir).entryList(QDir::Files | QDir::Hidden).join(QLatin1Char(' ')).toStdString(), "")
            << "a clean exit leaves no autosave and no lock";
    }

    std::mt19937 random(20261203);
    int killed = 0, filesLeft = 0, autosavesHolding = 0, killedAfterSave = 0, offered = 0;
    const auto killStart = Clock::now();
    for (int round = 0; round < kRounds; ++round) {
        // Every fifth round starts from what the kill before left (a stale .saving, a -wal, an
        // autosave of the killed session); the others from the baseline.
        const bool fromBaseline = round % 5 != 4;
        if (fromBaseline)
            restore();
        const auto delay = std::chrono::microseconds(
            std::uniform_int_distribution<long long>(0, runTime.count() * 11 / 10)(random));
        const std::string context = "round " + std::to_string(round) + " (kill after " + std::to_string(delay.count()) + " us)";
        const auto started = Clock::now();
        const SaverRun run = runSaver(args, delay);
        ASSERT_TRUE(run.killed || run.exitStatus == 0) << context << ": exit " << run.exitStatus << "\n" << run.out;
        killed += run.killed ? 1 : 0;
        if (!run.killed && fromBaseline) // a whole session's work
            runTime = std::min(runTime, std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - started));
        filesLeft += leftovers() > 0 ? 1 : 0;

        const int inProject = checkProject(project, context);
        const int inOther = checkProject(other, context);
        ASSERT_GE(inProject, 2) << context << ": the project lost its committed revisions";
        ASSERT_GE(inOther, 0) << context;
        if (const auto reported = lastReportedSave(run.out)) {
            killedAfterSave += run.killed ? 1 : 0;
            const int there = reported->first == project.string() ? inProject : inOther;
            ASSERT_GE(there, reported->second) << context << ": revision " << reported->second << " was reported saved in "
                                               << reported->first << ", which has " << there;
        }
        const int holding = checkAutosaves(autosaveDir, kLast, context);
        autosavesHolding += holding;

        // The next session offers a killed session's autosave when one holds a spec (and saves
        // on top of what the kill left: the rounds that continue, and the session after the loop).
        if (round % 10 == 9) {
            app::ProjectControllerOptions options;
            options.autosaveDir = autosaveDir;
            app::ProjectController c(options);
            QSignalSpy checked(&c, &app::ProjectController::recoveryChecked);
            QSignalSpy available(&c, &app::ProjectController::recoveryAvailable);
            ASSERT_TRUE(test::waitForSignals(checked, 1, kWaitMs)) << context;
            EXPECT_EQ(checked.at(0).at(0).toBool(), holding > 0) << context << "\n" << listing(autosaveDir);
            if (holding > 0) {
                ++offered;
                ASSERT_EQ(available.size(), 1) << context;
                const auto info = available.at(0).at(0).value<app::RecoveryInfo>();
                EXPECT_EQ(info.spec.nodes % 32, 0) << context;
                c.discardRecovery();
            }
            c.shutdown();
        }
    }
    const double killSeconds = std::chrono::duration<double>(Clock::now() - killStart).count();

    // After the last kill, without cleaning up: a session opens the project and saves to the end.
    const SaverRun after = runSaver(args, std::nullopt);
    ASSERT_EQ(after.exitStatus, 0) << after.out;
    EXPECT_GE(checkProject(project, "after the kills") + checkProject(other, "after the kills"), kLast);

    std::printf("[ figures  ] app session %.0f ms (the fastest; %d revisions of 256 KiB, %d by Save As); %d rounds, %d killed, %d of "
                "them after a reported save; files beside the projects (-wal, .saving, .creating-PID) left after %d; %d autosaves holding a spec checked; "
                "recovery offered in %d of %d checks; %.1f s\n",
        runTime.count() / 1000.0, kLast - 2, kLast / 3, kRounds, killed, killedAfterSave, filesLeft, autosavesHolding, offered,
        kRounds / 10, killSeconds);
    EXPECT_GT(killed, kRounds / 2) << "most kills should land while the app saves";
}
