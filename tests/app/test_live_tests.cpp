// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Tests from the Live workspace's window on a demo fabric (the emulator, its agents and its
// perftest and nccl-tests stand-ins, with Open MPI's mpirun started by the first node's agent),
// offscreen: an all-reduce with a degraded rail shows the low rail on its result page and in the
// findings list; the bandwidth test fills its per-rail table; a stopped test leaves nothing running;
// the history keeps the runs after the project is closed and opened again, compares two of them,
// and the bring-up report is a PDF.
#include "app/models/live_findings_model.h"
#include "app/models/live_history_model.h"
#include "app/models/live_session.h"
#include "app/widgets/live_history_view.h"
#include "app/widgets/live_test_result.h"
#include "app/widgets/live_test_view.h"
#include "app/widgets/live_workspace.h"
#include "core/plan_spec.h"
#include "core/store/project_store.h"
#include "live/common/subprocess.h"
#include "planner/planner.h"
#include "signal_wait.h"
#include "test_plans.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

using namespace railyard;

namespace {

std::shared_ptr<const core::Catalog> catalog()
{
    return test::builtinCatalog();
}

/// The Live workspace tests' fabric (test_plans.h).
std::shared_ptr<const core::Plan> plan()
{
    static auto p = test::planOfSpec(test::liveTestSpec("live tests"));
    return p;
}

/// The stand-ins sit next to this program in the build's bin folder; mpirun comes from openmpi-bin.
std::string missingTools()
{
    std::error_code ec;
    const auto bin = std::filesystem::read_symlink("/proc/self/exe", ec).parent_path();
    for (const char* name : { "railyard-perftest-emu", "railyard-nccl-tests-emu" })
        if (ec || !std::filesystem::exists(bin / name))
            return std::string(name) + " is not built next to test_app";
    if (live::findProgram("mpirun").empty())
        return "Open MPI's mpirun (openmpi-bin) is not installed";
    return {};
}

/// Processes whose environment names `root` (mpirun, its daemons and the ranks on the emulated
/// nodes get the demo's folder in their environment from the emulator's ssh and the agents).
std::vector<int> processesUnder(const std::string& root)
{
    std::vector<int> pids;
    std::error_code ec;
    for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos || std::stoi(name) == ::getpid())
            continue;
        std::ifstream in(it->path() / "environ", std::ios::binary);
        std::stringstream text;
        text << in.rdbuf();
        if (text.str().find(root) != std::string::npos)
            pids.push_back(std::stoi(name));
    }
    return pids;
}

struct Connected {
    QTemporaryDir dir { test::scratchPattern("live-tests") };
    app::LiveWorkspace ws;
    QStringList failures;

    Connected()
    {
        ws.resize(1280, 800);
        ws.show();
        ws.setPlan(plan(), catalog());
        QObject::connect(&ws.session(), &app::LiveSession::failed, &ws, [this](const QString& m) { failures << m; });
        ws.session().connectDemo(dir.path());
    }
    bool waitForCheck(int timeoutMs = 60'000)
    {
        return QTest::qWaitFor([&] { return ws.session().framesReceived() >= 2 && !ws.session().isChecking() && ws.session().checkReport(); },
            timeoutMs);
    }
    bool inject(const std::string& fault)
    {
        QSignalSpy injected(&ws.session(), &app::LiveSession::faultInjected);
        ws.session().injectFault(fault);
        return test::waitForSignals(injected, 1, 20'000) && waitForCheck();
    }
    /// Runs `request` and waits for its end; the run.
    std::optional<core::store::RunRecord> run(const app::LiveTestRequest& request, int timeoutMs = 240'000)
    {
        QSignalSpy finished(&ws.session(), &app::LiveSession::testFinished);
        ws.session().runTest(request);
        if (!test::waitForSignals(finished, 1, timeoutMs))
            return std::nullopt;
        return ws.session().lastTest();
    }
    std::string failureText() const { return failures.join(QLatin1Char('\n')).toStdString(); }
};

app::LiveTestRequest allReduce(std::vector<std::string> nodes)
{
    app::LiveTestRequest r;
    r.kind = "allreduce";
    r.nodes = std::move(nodes);
    r.minBytes = "1M";
    r.maxBytes = "256M";
    r.iters = 1;
    r.timeout = std::chrono::seconds(120);
    return r;
}

int rowWith(QTableWidget* table, int column, const QString& text)
{
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, column) && table->item(r, column)->text() == text)
            return r;
    return -1;
}

} // namespace

TEST(LiveTests, AllReduceWithADegradedRailShowsTheLowRail)
{
    if (const std::string missing = missingTools(); !missing.empty())
        GTEST_SKIP() << missing;
    Connected c;
    ASSERT_TRUE(c.waitForCheck()) << c.failureText();
    ASSERT_TRUE(c.inject(R"({ "kind": "degraded", "node": "node005", "rail": 3, "width": 2 })")) << c.failureText();

    app::LiveTestPage* page = c.ws.testPage();
    QSignalSpy measured(&c.ws.session(), &app::LiveSession::testMeasured);
    QElapsedTimer clock;
    clock.start();
    const auto run = c.run(allReduce({ "node001", "node005" })); // one node in each SU
    ASSERT_TRUE(run) << c.failureText();
    std::cout << "[ figures  ] emulated all-reduce from the window (2 nodes x 8 GPUs, 5 sizes): " << clock.elapsed() << " ms\n";
    EXPECT_TRUE(c.failures.isEmpty()) << c.failureText();
    EXPECT_EQ(run->kind, "allreduce");
    EXPECT_TRUE(run->complete) << run->resultJson;
    EXPECT_EQ(run->exitStatus, 1) << run->summary; // error findings
    EXPECT_EQ(run->summary.rfind("all_reduce_perf: 1 runs; ", 0), 0u) << run->summary;

    // The sizes came in one by one while it ran, and the chart has them with the plan's bound.
    EXPECT_GE(measured.size(), 5);
    EXPECT_EQ(page->chart()->pointCount(), 5);
    EXPECT_GT(page->chart()->boundGBs(), 0);

    // The result page: measured next to expected, low, and the finding naming the node and rail.
    EXPECT_FALSE(page->showingLive());
    app::LiveTestResultView* result = page->resultView();
    QTableWidget* table = result->resultTable();
    ASSERT_EQ(table->rowCount(), 5);
    const int largest = rowWith(table, 0, QStringLiteral("all rails: 256 MiB"));
    ASSERT_GE(largest, 0);
    const double busbw = table->item(largest, 2)->text().toDouble(), bound = table->item(largest, 3)->text().toDouble();
    EXPECT_GT(bound, 0);
    EXPECT_LT(busbw, bound * 0.6) << busbw << " of " << bound;
    EXPECT_EQ(table->item(largest, 5)->text(), QStringLiteral("low"));
    const int low = rowWith(result->findingsTable(), 1, QStringLiteral("ALLREDUCE_LOW"));
    ASSERT_GE(low, 0) << run->resultJson;
    EXPECT_EQ(result->findingsTable()->item(low, 2)->text(), QStringLiteral("node005/nic3"));
    EXPECT_TRUE(result->findingsTable()->item(low, 3)->text().contains(QStringLiteral("200 Gb/s")));
    EXPECT_EQ(result->chart()->pointCount(), 5);

    // And in the workspace's one findings list, as a test finding.
    bool listed = false;
    for (const app::LiveFinding& f : c.ws.findingsModel()->findings())
        listed = listed || (f.source == app::LiveFinding::Source::Test && f.finding.code == "ALLREDUCE_LOW" && f.finding.where == "node005/nic3");
    EXPECT_TRUE(listed);
    // No project open: the run is kept in the session and listed as not stored.
    EXPECT_EQ(c.ws.session().unsavedRuns().size(), 3u); // two checks (connect, after the fault) and the test
    EXPECT_TRUE(QTest::qWaitFor([&] { return c.ws.historyPage()->model()->rowCount() == 3; }, 10'000)); // listed off the GUI thread
    EXPECT_EQ(c.ws.historyPage()->model()->rowCount(), 3);
    EXPECT_TRUE(c.ws.historyPage()->banner()->text().contains(QStringLiteral("No project")));
}

TEST(LiveTests, BandwidthTestFillsThePerRailTable)
{
    if (const std::string missing = missingTools(); !missing.empty())
        GTEST_SKIP() << missing;
    Connected c;
    ASSERT_TRUE(c.waitForCheck()) << c.failureText();
    app::LiveTestPage* page = c.ws.testPage();
    page->kindBox()->setCurrentIndex(page->kindBox()->findData(QStringLiteral("write_bw")));
    page->nodesEdit()->setText(QStringLiteral("node001, node002"));
    QSignalSpy finished(&c.ws.session(), &app::LiveSession::testFinished);
    ASSERT_TRUE(page->runAction()->isEnabled());
    page->runAction()->trigger();
    EXPECT_TRUE(c.ws.session().isTesting());
    EXPECT_TRUE(page->stopAction()->isEnabled());
    ASSERT_TRUE(test::waitForSignals(finished, 1, 180'000)) << c.failureText();
    EXPECT_TRUE(c.failures.isEmpty()) << c.failureText();
    // One round: node001 and node002 on each of the 8 rails, at the plan's rate.
    EXPECT_EQ(page->liveTable()->rowCount(), 8);
    const auto& run = c.ws.session().lastTest();
    ASSERT_TRUE(run);
    EXPECT_EQ(run->kind, "write_bw");
    EXPECT_EQ(run->exitStatus, 0) << run->resultJson;
    EXPECT_EQ(run->summary, "ib_write_bw: 8 tests, 0 low; 0 errors, 0 warnings");
    QTableWidget* table = page->resultView()->resultTable();
    ASSERT_EQ(table->rowCount(), 8);
    for (int r = 0; r < 8; ++r) {
        EXPECT_EQ(table->item(r, 5)->text(), QStringLiteral("ok")) << table->item(r, 0)->text().toStdString();
        EXPECT_GT(table->item(r, 2)->text().toDouble(), 0.75 * table->item(r, 3)->text().toDouble());
    }
}

TEST(LiveTests, ThePagesParametersRunAnAllGatherAtTheChosenSizes)
{
    if (const std::string missing = missingTools(); !missing.empty())
        GTEST_SKIP() << missing;
    Connected c;
    ASSERT_TRUE(c.waitForCheck()) << c.failureText();
    app::LiveTestPage* page = c.ws.testPage();
    page->kindBox()->setCurrentIndex(page->kindBox()->findData(QStringLiteral("allgather")));
    EXPECT_TRUE(page->minBytesEdit()->isVisibleTo(page));
    EXPECT_FALSE(page->messageBytesEdit()->isVisibleTo(page)); // perftest's size: not for a collective
    page->nodesEdit()->setText(QStringLiteral("node001,node002"));
    page->itersBox()->setValue(1);

    // A range that ends below its start is refused before anything starts, with the reason.
    page->minBytesEdit()->setText(QStringLiteral("64M"));
    page->maxBytesEdit()->setText(QStringLiteral("1M"));
    page->runAction()->trigger();
    EXPECT_FALSE(c.ws.session().isTesting());
    ASSERT_EQ(c.failures.size(), 1);
    EXPECT_TRUE(c.failures.front().startsWith(QStringLiteral("Sizes: from 64M to 1M"))) << c.failureText();
    c.failures.clear();

    page->minBytesEdit()->setText(QStringLiteral("1M"));
    page->maxBytesEdit()->setText(QStringLiteral("16M"));
    QSignalSpy finished(&c.ws.session(), &app::LiveSession::testFinished);
    page->runAction()->trigger();
    ASSERT_TRUE(c.ws.session().isTesting()) << c.failureText();
    ASSERT_TRUE(test::waitForSignals(finished, 1, 180'000)) << c.failureText();
    const auto& run = c.ws.session().lastTest();
    ASSERT_TRUE(run);
    EXPECT_EQ(run->kind, "allgather");
    EXPECT_EQ(run->summary.rfind("all_gather_perf: 1 runs; ", 0), 0u) << run->summary;
    // 1M, 4M, 16M: three sizes, each measured against the plan's bound.
    QTableWidget* table = page->resultView()->resultTable();
    ASSERT_EQ(table->rowCount(), 3) << run->resultJson;
    EXPECT_GE(rowWith(table, 0, QStringLiteral("all rails: 1 MiB")), 0);
    EXPECT_GE(rowWith(table, 0, QStringLiteral("all rails: 16 MiB")), 0);
    for (int r = 0; r < table->rowCount(); ++r)
        EXPECT_GT(table->item(r, 3)->text().toDouble(), 0) << table->item(r, 0)->text().toStdString();

    // The bandwidth tests take perftest's message size instead; a size perftest refuses is refused here.
    page->kindBox()->setCurrentIndex(page->kindBox()->findData(QStringLiteral("read_bw")));
    EXPECT_FALSE(page->minBytesEdit()->isVisibleTo(page));
    EXPECT_TRUE(page->messageBytesEdit()->isVisibleTo(page));
    page->messageBytesEdit()->setText(QStringLiteral("4G"));
    page->runAction()->trigger();
    EXPECT_FALSE(c.ws.session().isTesting());
    ASSERT_EQ(c.failures.size(), 1);
    EXPECT_TRUE(c.failures.front().startsWith(QStringLiteral("Message size: 4G"))) << c.failureText();
}

TEST(LiveTests, StoppingATestLeavesNothingRunning)
{
    if (const std::string missing = missingTools(); !missing.empty())
        GTEST_SKIP() << missing;
    Connected c;
    ASSERT_TRUE(c.waitForCheck()) << c.failureText();
    app::LiveTestRequest request = allReduce({ "node001", "node002", "node005", "node006" });
    request.maxBytes = "8G";
    request.iters = 50;
    QSignalSpy measured(&c.ws.session(), &app::LiveSession::testMeasured);
    QSignalSpy finished(&c.ws.session(), &app::LiveSession::testFinished);
    c.ws.session().runTest(request);
    ASSERT_TRUE(c.ws.session().isTesting()) << c.failureText();
    ASSERT_TRUE(test::waitForSignals(measured, 1, 120'000)) << c.failureText();
    EXPECT_FALSE(processesUnder(c.dir.path().toStdString()).empty()); // the ranks run
    c.ws.testPage()->stopAction()->trigger();
    ASSERT_TRUE(test::waitForSignals(finished, 1, 60'000)) << c.failureText();
    EXPECT_FALSE(c.ws.session().isTesting());
    const auto& run = c.ws.session().lastTest();
    ASSERT_TRUE(run);
    EXPECT_FALSE(run->complete);
    EXPECT_EQ(run->exitStatus, 3);
    EXPECT_NE(run->resultJson.find("ALLREDUCE_CANCELLED"), std::string::npos) << run->resultJson;
    // What was measured before the stop is kept.
    EXPECT_GE(c.ws.testPage()->resultView()->resultTable()->rowCount(), 1);
    // mpirun, its daemons and every rank are gone.
    EXPECT_TRUE(QTest::qWaitFor([&] { return processesUnder(c.dir.path().toStdString()).empty(); }, 10'000))
        << processesUnder(c.dir.path().toStdString()).size() << " processes left";
    EXPECT_TRUE(c.ws.testPage()->runAction()->isEnabled());
}

TEST(LiveTests, HistoryKeepsTheRunsComparesThemAndExportsTheReport)
{
    if (const std::string missing = missingTools(); !missing.empty())
        GTEST_SKIP() << missing;
    Connected c;
    const QString project = c.dir.filePath(QStringLiteral("bring-up.railyard"));
    ASSERT_TRUE(core::store::ProjectStore::create(project.toStdString()));
    ASSERT_TRUE(c.waitForCheck()) << c.failureText();
    // The first check ran before the project was set: it is stored once there is one.
    QSignalSpy stored(&c.ws.session(), &app::LiveSession::runStored);
    c.ws.setProjectPath(project);
    ASSERT_TRUE(test::waitForSignals(stored, 1, 20'000)) << c.failureText();

    ASSERT_TRUE(c.run(allReduce({ "node002", "node006" }))) << c.failureText(); // before
    ASSERT_TRUE(c.inject(R"({ "kind": "degraded", "node": "node006", "rail": 1, "width": 1 })")) << c.failureText();
    ASSERT_TRUE(c.run(allReduce({ "node002", "node006" }))) << c.failureText(); // after
    ASSERT_TRUE(test::waitForSignals(stored, 4, 20'000)) << c.failureText(); // check, test, check, test
    EXPECT_TRUE(c.ws.session().unsavedRuns().empty());

    // The same rows railyard-cli's --project writes: `results list` shows them.
    {
        auto store = core::store::ProjectStore::open(project.toStdString());
        ASSERT_TRUE(store);
        auto runs = store->listRuns();
        ASSERT_TRUE(runs);
        ASSERT_EQ(runs->size(), 4u);
        EXPECT_EQ((*runs)[0].kind, "check");
        EXPECT_EQ((*runs)[0].plan, "live tests");
        EXPECT_EQ((*runs)[1].kind, "allreduce");
        EXPECT_EQ((*runs)[1].exitStatus, 0) << (*runs)[1].summary;
        EXPECT_EQ((*runs)[3].exitStatus, 1) << (*runs)[3].summary;
    }

    // Closed and opened again: the runs are still there.
    // (The list is read off the GUI thread: reloaded() says it is in.)
    app::LiveHistoryPage* history = c.ws.historyPage();
    QSignalSpy reloaded(history, &app::LiveHistoryPage::reloaded);
    c.ws.setProjectPath({});
    ASSERT_TRUE(test::waitForSignals(reloaded, 1, 10'000));
    EXPECT_EQ(history->model()->rowCount(), 0);
    EXPECT_TRUE(history->banner()->text().contains(QStringLiteral("No project")));
    c.ws.setProjectPath(project);
    ASSERT_TRUE(test::waitForSignals(reloaded, 2, 10'000));
    ASSERT_EQ(history->model()->rowCount(), 4);
    // Newest first: the two all-reduce runs are rows 0 (after) and 2 (before).
    EXPECT_EQ(history->model()->data(history->model()->index(0, app::LiveHistoryModel::Kind), Qt::DisplayRole).toString(), QStringLiteral("allreduce"));
    EXPECT_EQ(history->model()->data(history->model()->index(0, app::LiveHistoryModel::Verdict), Qt::DisplayRole).toString(),
        QStringLiteral("errors found"));
    QSignalSpy shown(history, &app::LiveHistoryPage::detailShown);
    history->openRow(0);
    ASSERT_TRUE(test::waitForSignals(shown, 1, 10'000));
    ASSERT_TRUE(shown.back().at(0).toBool());
    EXPECT_GE(rowWith(history->resultView()->findingsTable(), 1, QStringLiteral("ALLREDUCE_LOW")), 0);

    // Before and after, side by side: every size lower after, the low finding only in B.
    history->compareRows(0, 2);
    ASSERT_TRUE(test::waitForSignals(shown, 2, 10'000));
    ASSERT_TRUE(shown.back().at(0).toBool());
    QTableWidget* compare = history->compareTable();
    ASSERT_EQ(compare->rowCount(), 5);
    for (int r = 0; r < compare->rowCount(); ++r)
        EXPECT_NE(compare->item(r, 4)->text(), QStringLiteral("-")) << compare->item(r, 0)->text().toStdString(); // measured in both
    const int largest = rowWith(compare, 0, QStringLiteral("all rails: 256 MiB"));
    ASSERT_GE(largest, 0);
    EXPECT_GT(compare->item(largest, 2)->text().toDouble(), compare->item(largest, 3)->text().toDouble());
    EXPECT_TRUE(compare->item(largest, 4)->text().startsWith(QLatin1Char('-'))) << compare->item(largest, 4)->text().toStdString();
    // (A clean run on a loaded machine may end "below" the bound, a warning without a place: that one is only in A.)
    for (int r = 0; r < history->onlyATable()->rowCount(); ++r)
        EXPECT_NE(history->onlyATable()->item(r, 1)->text(), QStringLiteral("node006/nic1")) << history->onlyATable()->item(r, 2)->text().toStdString();
    const int lowInB = rowWith(history->onlyBTable(), 0, QStringLiteral("ALLREDUCE_LOW"));
    ASSERT_GE(lowInB, 0);
    EXPECT_EQ(history->onlyBTable()->item(lowInB, 1)->text(), QStringLiteral("node006/nic1"));
    // A check and a test are not compared.
    history->compareRows(0, 1);
    ASSERT_TRUE(test::waitForSignals(shown, 3, 10'000));
    EXPECT_FALSE(shown.back().at(0).toBool());

    // The bring-up report: a PDF with pages.
    const QString pdf = c.dir.filePath(QStringLiteral("bring-up.pdf"));
    QSignalSpy exported(history, &app::LiveHistoryPage::exportFinished);
    history->exportReport(pdf);
    ASSERT_TRUE(test::waitForSignals(exported, 1, 30'000));
    EXPECT_TRUE(exported.front().at(1).toString().isEmpty()) << exported.front().at(1).toString().toStdString();
    QFile file(pdf);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    EXPECT_TRUE(bytes.startsWith("%PDF-"));
    EXPECT_TRUE(bytes.contains("/Type /Page") || bytes.contains("/Type/Page")) << "no page in the PDF";
}
