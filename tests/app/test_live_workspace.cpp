// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace on a demo fabric (the emulator and its agents in this process), offscreen:
// the grid fills in; a degraded link turns its cell and the check names it; a node whose agent
// stops shows as lost and comes back; the live check runs from the window with progress; what it
// could not read on a node shows in the node's panel, the run's page and the report; the demo's folder is gone after disconnecting; and the poller keeps its rounds while an agent hangs.
#include "app/models/live_findings_model.h"
#include "app/models/live_history_model.h"
#include "app/models/live_poller.h"
#include "app/models/live_session.h"
#include "app/widgets/live_grid.h"
#include "app/widgets/live_history_view.h"
#include "app/widgets/live_node_panel.h"
#include "app/widgets/live_report.h"
#include "app/widgets/live_test_view.h"
#include "app/widgets/live_test_result.h"
#include "app/widgets/live_rail_chart.h"
#include "app/widgets/live_workspace.h"
#include "core/plan_spec.h"
#include "live/common/counters_compact.h"
#include "planner/planner.h"
#include "signal_wait.h"
#include "test_plans.h"
#include "tests/live/loopback_http.h"
#include "tests/live/scripted_agent.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

using namespace railyard;

namespace {

std::shared_ptr<const core::Catalog> catalog()
{
    return test::builtinCatalog();
}

/// The Live workspace tests' fabric (test_plans.h).
std::shared_ptr<const core::Plan> plan()
{
    static auto p = test::planOfSpec(test::liveTestSpec("live workspace test"));
    return p;
}

/// A workspace connected to a demo fabric in `dir`, with some sweeps and its first check in.
struct Connected {
    /// On a RAM file system where there is one: the emulated trees are thousands of small files.
    QTemporaryDir dir { test::scratchPattern("live-test") };
    app::LiveWorkspace ws;
    QStringList failures;

    explicit Connected(std::shared_ptr<const core::Plan> shown = plan())
    {
        ws.resize(1280, 800);
        ws.show();
        ws.setPlan(std::move(shown), catalog());
        QObject::connect(&ws.session(), &app::LiveSession::failed, &ws, [this](const QString& m) { failures << m; });
        ws.session().connectDemo(dir.path());
    }
    bool waitForSweeps(std::size_t frames, int timeoutMs = 30'000)
    {
        return QTest::qWaitFor([&] { return ws.session().framesReceived() >= frames && !ws.session().isChecking() && ws.session().checkReport(); },
            timeoutMs);
    }
    const app::LiveFrame& frame() { return *ws.session().frame(); }
    std::string failureText() const { return failures.join(QLatin1Char('\n')).toStdString(); }
};

bool hasFinding(app::LiveSession& s, const std::string& code, const std::string& where)
{
    for (const auto& f : s.findings())
        if (f.finding.code == code && f.finding.where == where)
            return true;
    return false;
}

} // namespace

TEST(LiveWorkspace, DemoFabricFillsTheGrid)
{
    Connected c;
    ASSERT_TRUE(c.waitForSweeps(3)) << c.failureText();
    EXPECT_TRUE(c.failures.isEmpty()) << c.failureText();
    EXPECT_EQ(c.ws.session().state(), app::LiveSession::State::Connected);
    const app::LiveFrame& f = c.frame();
    ASSERT_EQ(f.nodes.size(), 8u);
    ASSERT_EQ(f.rails, 8);
    const QColor noData = c.ws.grid()->cellColour(-1, -1);
    for (std::size_t n = 0; n < f.nodes.size(); ++n) {
        EXPECT_NE(f.nodes[n].link, app::NodeLink::Lost) << f.nodes[n].node << ": " << f.nodes[n].lastError;
        for (int r = 0; r < f.rails; ++r) {
            const app::LiveCell& cell = f.cell(n, r);
            EXPECT_TRUE(cell.present) << f.nodes[n].node << " rail " << r;
            // All-reduce traffic at 92 % of 400 Gb/s; the demo's timing on a busy machine varies it.
            EXPECT_GT(cell.txGbps, 200) << f.nodes[n].node << " rail " << r;
            EXPECT_NE(c.ws.grid()->cellColour(static_cast<int>(n), r), noData);
        }
    }
    EXPECT_TRUE(c.ws.grid()->cellText(0, 3).contains(QStringLiteral("Gb/s"))) << c.ws.grid()->cellText(0, 3).toStdString();
    EXPECT_FALSE(c.ws.grid()->cellRect(7, 7).isEmpty());
    EXPECT_GT(c.ws.throughputChart()->pointCount(0), 0);
    // A clean fabric: the check finds no errors.
    EXPECT_EQ(c.ws.session().checkReport()->count(core::Severity::Error), 0) << c.failureText();

    // Clicking a cell selects its node and shows it in the side panel.
    const QRect cell = c.ws.grid()->cellRect(2, 5);
    QTest::mouseClick(c.ws.grid(), Qt::LeftButton, {}, cell.center());
    EXPECT_EQ(c.ws.grid()->selectedNode(), 2);
    EXPECT_EQ(c.ws.grid()->selectedRail(), 5);
}

TEST(LiveWorkspace, DegradedLinkTurnsItsCellAndIsFound)
{
    Connected c;
    ASSERT_TRUE(c.waitForSweeps(2)) << c.failureText();
    const int node = c.ws.grid()->nodeIndex("node003");
    ASSERT_GE(node, 0);
    const QColor before = c.ws.grid()->cellColour(node, 2);
    c.ws.grid()->select(node, 2);
    QSignalSpy injected(&c.ws.session(), &app::LiveSession::faultInjected);
    ASSERT_TRUE(c.ws.injectAtSelection(QStringLiteral("degraded")));
    ASSERT_TRUE(test::waitForSignals(injected, 1, 10'000)) << c.failureText();
    // The workspace checks again after a fault: the check reads the port's new rate.
    ASSERT_TRUE(QTest::qWaitFor([&] { return hasFinding(c.ws.session(), "LINK_DEGRADED", "node003/nic2"); }, 20'000)) << c.failureText();
    // Two sweeps later the cell carries at most the degraded link's 200 Gb/s, well under its rail's others.
    const std::size_t seen = c.ws.session().framesReceived();
    ASSERT_TRUE(c.waitForSweeps(seen + 2));
    const app::LiveFrame& f = c.frame();
    std::vector<float> others;
    for (std::size_t n = 0; n < f.nodes.size(); ++n)
        if (static_cast<int>(n) != node)
            others.push_back(f.cell(n, 2).txGbps);
    std::sort(others.begin(), others.end());
    const float degraded = f.cell(static_cast<std::size_t>(node), 2).txGbps;
    EXPECT_LT(degraded, 0.75f * others[others.size() / 2]) << degraded << " vs " << others[others.size() / 2];
    EXPECT_NE(c.ws.grid()->cellColour(node, 2), before);

    // In the health view the cell is an error; the finding is in the list and leads to the cell.
    c.ws.grid()->setColour(app::LiveGrid::Colour::Health);
    EXPECT_EQ(c.ws.grid()->cellColour(node, 2), QColor(0xc8, 0x2a, 0x2a));
    EXPECT_NE(c.ws.grid()->cellColour(node, 1), QColor(0xc8, 0x2a, 0x2a));
    int row = -1;
    for (int i = 0; i < c.ws.findingsModel()->rowCount(); ++i)
        if (c.ws.findingsModel()->data(c.ws.findingsModel()->index(i, app::LiveFindingsModel::Code)).toString() == QStringLiteral("LINK_DEGRADED"))
            row = i;
    ASSERT_GE(row, 0);
    c.ws.grid()->select(-1, -1);
    ASSERT_TRUE(c.ws.showPlace(c.ws.findingsModel()->data(c.ws.findingsModel()->index(row, app::LiveFindingsModel::Where)).toString()));
    EXPECT_EQ(c.ws.grid()->selectedNode(), node);
    EXPECT_EQ(c.ws.grid()->selectedRail(), 2);
    // The filter keeps it for its code and drops it for another.
    c.ws.findingsFilter()->setFilterFixedString(QStringLiteral("LINK_DEGRADED"));
    EXPECT_GE(c.ws.findingsFilter()->rowCount(), 1);
    c.ws.findingsFilter()->setFilterFixedString(QStringLiteral("NO_SUCH_CODE"));
    EXPECT_EQ(c.ws.findingsFilter()->rowCount(), 0);
}

TEST(LiveWorkspace, StoppedAgentShowsLostAndComesBack)
{
    Connected c;
    ASSERT_TRUE(c.waitForSweeps(2)) << c.failureText();
    const int node = c.ws.grid()->nodeIndex("node002");
    ASSERT_GE(node, 0);
    c.ws.session().setAgentRunning("node002", false);
    ASSERT_TRUE(QTest::qWaitFor([&] { return c.frame().nodes[static_cast<std::size_t>(node)].link == app::NodeLink::Lost; }, 10'000));
    const app::NodeConnection lost = c.frame().nodes[static_cast<std::size_t>(node)];
    EXPECT_FALSE(lost.lastError.empty());
    EXPECT_EQ(c.frame().nodes[0].link == app::NodeLink::Lost, false) << "the other nodes are still polled";
    EXPECT_EQ(c.ws.grid()->cellColour(node, 0), QColor(0x55, 0x55, 0x55));
    EXPECT_TRUE(c.ws.grid()->cellText(node, 0).contains(QStringLiteral("lost"))) << c.ws.grid()->cellText(node, 0).toStdString();
    ASSERT_TRUE(QTest::qWaitFor([&] { return hasFinding(c.ws.session(), "NODE_UNREACHABLE", "node002"); }, 5'000));

    c.ws.session().setAgentRunning("node002", true);
    ASSERT_TRUE(QTest::qWaitFor([&] {
        const auto& n = c.frame().nodes[static_cast<std::size_t>(node)];
        return n.link == app::NodeLink::Connected || n.link == app::NodeLink::Slow;
    }, 10'000));
    // Rates again once two snapshots after its return are in; the last error is kept for the operator.
    ASSERT_TRUE(QTest::qWaitFor([&] { return c.frame().cell(static_cast<std::size_t>(node), 0).present; }, 10'000));
    EXPECT_EQ(c.frame().nodes[static_cast<std::size_t>(node)].lastError, lost.lastError);
    EXPECT_TRUE(QTest::qWaitFor([&] { return !hasFinding(c.ws.session(), "NODE_UNREACHABLE", "node002"); }, 5'000));
}

TEST(LiveWorkspace, LiveCheckRunsFromTheWindowWithProgress)
{
    Connected c;
    ASSERT_TRUE(c.waitForSweeps(2)) << c.failureText();
    c.ws.session().setAgentRunning("node008", false);
    ASSERT_TRUE(QTest::qWaitFor([&] { return c.frame().nodes.back().link == app::NodeLink::Lost; }, 10'000));
    QSignalSpy progress(&c.ws.session(), &app::LiveSession::checkProgress);
    QSignalSpy finished(&c.ws.session(), &app::LiveSession::checkFinished);
    QAction* run = nullptr;
    for (QAction* a : c.ws.actions())
        if (a->shortcut() == QKeySequence(Qt::Key_F5))
            run = a;
    ASSERT_NE(run, nullptr) << "Run live check has the F5 shortcut";
    ASSERT_TRUE(run->isEnabled());
    run->trigger();
    EXPECT_TRUE(c.ws.session().isChecking());
    EXPECT_TRUE(c.ws.checkProgress()->isVisible());
    ASSERT_TRUE(test::waitForSignals(finished, 1, 20'000)) << c.failureText();
    EXPECT_GE(progress.size(), 1);
    EXPECT_DOUBLE_EQ(progress.last().at(0).toDouble(), 1.0);
    EXPECT_FALSE(c.ws.checkProgress()->isVisible());
    // The stopped node is named by the check; the others are read.
    EXPECT_TRUE(hasFinding(c.ws.session(), "NODE_UNREACHABLE", "node008")) << c.ws.statusLabel()->text().toStdString();
    EXPECT_FALSE(c.ws.session().checkReport()->complete);
    EXPECT_EQ(c.ws.session().checkReport()->nodes.size(), 8u);

    // Cancel: the result of a cancelled check never arrives.
    QSignalSpy cancelled(&c.ws.session(), &app::LiveSession::checkCancelled);
    c.ws.session().runCheck();
    c.ws.session().cancelCheck();
    EXPECT_EQ(cancelled.size(), 1);
    EXPECT_FALSE(c.ws.session().isChecking());
    QTest::qWait(500);
    EXPECT_EQ(finished.size(), 1);
}

// What a check could not read on a node (its inventory's warnings) is shown where the node is:
// the status line counts the nodes with notes, and the node's side panel lists them.
TEST(LiveWorkspace, ReadingNotesOfTheCheckShowInTheNodesPanel)
{
    Connected c;
    ASSERT_TRUE(c.waitForSweeps(2)) << c.failureText();
    const QStringList demos = QDir(c.dir.path()).entryList({ QStringLiteral("railyard-demo-*") }, QDir::Dirs);
    ASSERT_EQ(demos.size(), 1);
    const QString routes = c.dir.path() + QLatin1Char('/') + demos.front() + QStringLiteral("/node003/sim/ip/route.json");
    ASSERT_TRUE(QFile::copy(routes, routes + QStringLiteral(".kept")));
    ASSERT_TRUE(QFile::remove(routes)) << routes.toStdString();
    QSignalSpy finished(&c.ws.session(), &app::LiveSession::checkFinished);
    c.ws.session().runCheck();
    ASSERT_TRUE(test::waitForSignals(finished, 1, 20'000)) << c.failureText();
    const auto& report = *c.ws.session().checkReport();
    for (const live::NodeStatus& s : report.nodes) {
        if (s.node == "node003") {
            ASSERT_EQ(s.warnings.size(), 1u);
            EXPECT_NE(s.warnings.front().find("routes not readable"), std::string::npos) << s.warnings.front();
        } else {
            EXPECT_TRUE(s.warnings.empty()) << s.node << ": " << s.warnings.front();
        }
    }
    EXPECT_TRUE(c.ws.statusLabel()->text().contains(QStringLiteral("1 node(s) with reading notes"))) << c.ws.statusLabel()->text().toStdString();

    const int node = c.ws.grid()->nodeIndex("node003");
    ASSERT_GE(node, 0);
    QTest::mouseClick(c.ws.grid(), Qt::LeftButton, {}, c.ws.grid()->cellRect(node, 0).center());
    const QString panel = c.ws.nodePanel()->toPlainText();
    EXPECT_TRUE(panel.contains(QStringLiteral("Reading notes"))) << panel.toStdString();
    EXPECT_TRUE(panel.contains(QStringLiteral("routes not readable"))) << panel.toStdString();
    // Another node's panel has none.
    QTest::mouseClick(c.ws.grid(), Qt::LeftButton, {}, c.ws.grid()->cellRect(node + 1, 0).center());
    EXPECT_FALSE(c.ws.nodePanel()->toPlainText().contains(QStringLiteral("Reading notes"))) << c.ws.nodePanel()->toPlainText().toStdString();

    // The bring-up report's last check lists the note with its node.
    app::BringUpReport bringUp;
    bringUp.check = c.ws.session().lastCheckRun();
    ASSERT_TRUE(bringUp.check);
    const QString html = app::bringUpReportHtml(bringUp);
    EXPECT_TRUE(html.contains(QStringLiteral("routes not readable"))) << html.toStdString();
    EXPECT_TRUE(html.contains(QStringLiteral("<i>(node003)</i>"))) << html.toStdString();

    // The run's page (History opens it there): the note after the findings, at its node.
    app::LiveTestResultView* result = c.ws.testPage()->resultView();
    result->showRun(*bringUp.check);
    QTableWidget* rows = result->findingsTable();
    ASSERT_GE(rows->rowCount(), 1);
    const int last = rows->rowCount() - 1;
    EXPECT_EQ(rows->item(last, 0)->text(), QStringLiteral("note"));
    EXPECT_EQ(rows->item(last, 2)->text(), QStringLiteral("node003"));
    EXPECT_TRUE(rows->item(last, 3)->text().startsWith(QStringLiteral("routes not readable"))) << rows->item(last, 3)->text().toStdString();

    // The routes back, checked again, the two checks compared in History: the note is only in A
    // (the older check), greyed after A's findings.
    ASSERT_TRUE(QFile::rename(routes + QStringLiteral(".kept"), routes));
    app::LiveHistoryPage* history = c.ws.historyPage();
    c.ws.session().runCheck();
    ASSERT_TRUE(test::waitForSignals(finished, 2, 20'000)) << c.failureText();
    // (The list is read again off the GUI thread after each check.)
    const int runs = static_cast<int>(c.ws.session().unsavedRuns().size());
    ASSERT_GE(runs, 2);
    ASSERT_TRUE(QTest::qWaitFor([&] { return history->model()->rowCount() == runs; }, 10'000)) << history->model()->rowCount();
    QSignalSpy shown(history, &app::LiveHistoryPage::detailShown);
    history->compareRows(0, 1);
    ASSERT_TRUE(test::waitForSignals(shown, 1, 10'000));
    ASSERT_TRUE(shown.back().at(0).toBool());
    // A check's per-node counts are whole numbers.
    ASSERT_GE(history->compareTable()->rowCount(), 1);
    EXPECT_EQ(history->compareTable()->item(0, 2)->text(), QStringLiteral("0"));
    QTableWidget* onlyA = history->onlyATable();
    ASSERT_GE(onlyA->rowCount(), 1);
    const int noteRow = onlyA->rowCount() - 1;
    EXPECT_EQ(onlyA->item(noteRow, 0)->text(), QStringLiteral("note"));
    EXPECT_EQ(onlyA->item(noteRow, 1)->text(), QStringLiteral("node003"));
    EXPECT_TRUE(onlyA->item(noteRow, 2)->text().startsWith(QStringLiteral("routes not readable"))) << onlyA->item(noteRow, 2)->text().toStdString();
    for (int r = 0; r < history->onlyBTable()->rowCount(); ++r)
        EXPECT_NE(history->onlyBTable()->item(r, 0)->text(), QStringLiteral("note")) << history->onlyBTable()->item(r, 2)->text().toStdString();
}

TEST(LiveWorkspace, DisconnectStopsTheDemoAndRemovesItsFolder)
{
    Connected c;
    ASSERT_TRUE(c.waitForSweeps(2)) << c.failureText();
    const QStringList demos = QDir(c.dir.path()).entryList({ QStringLiteral("railyard-demo-*") }, QDir::Dirs);
    ASSERT_EQ(demos.size(), 1);
    EXPECT_TRUE(QFileInfo::exists(c.dir.path() + QLatin1Char('/') + demos.front() + QStringLiteral("/agents.json")));
    c.ws.session().disconnectFabric();
    EXPECT_EQ(c.ws.session().state(), app::LiveSession::State::Disconnected);
    EXPECT_FALSE(c.ws.session().frame());
    EXPECT_TRUE(QDir(c.dir.path()).entryList({ QStringLiteral("railyard-demo-*") }, QDir::Dirs).isEmpty());
    // A fault needs a running demo; the workspace says so instead of failing.
    EXPECT_FALSE(c.ws.injectAtSelection(QStringLiteral("link_down")));
    EXPECT_FALSE(c.ws.statusLabel()->text().isEmpty());
}

// The RoCEv2 host-setting faults from the menu: a routed plan's demo fabric, rp_filter made strict
// on one NIC and its GID moved: live check names both at that NIC with the host script's fix.
TEST(LiveWorkspace, RoceHostFaultsFromTheMenuAreFound)
{
    const std::string path = RAILYARD_TEST_DATA_DIR "/intent/roce-2su.plan.json";
    QFile file(QString::fromStdString(path));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    auto spec = core::parsePlanSpecText(text.toStdString(), path);
    ASSERT_TRUE(spec);
    auto made = planner::makePlan(*spec, *catalog());
    ASSERT_TRUE(made);
    Connected c(std::make_shared<const core::Plan>(std::move(made).value()));
    ASSERT_TRUE(c.waitForSweeps(2)) << c.failureText();
    EXPECT_EQ(c.ws.session().checkReport()->count(core::Severity::Error), 0) << c.failureText();
    const int node = c.ws.grid()->nodeIndex("node002");
    ASSERT_GE(node, 0);
    for (const char* kind : { "rp_filter_strict", "wrong_gid_index" }) {
        auto* action = c.ws.findChild<QAction*>(QStringLiteral("fault_") + QLatin1String(kind));
        ASSERT_NE(action, nullptr) << kind;
        EXPECT_TRUE(action->isEnabled()) << kind;
    }
    c.ws.grid()->select(node, 1);
    QSignalSpy injected(&c.ws.session(), &app::LiveSession::faultInjected);
    c.ws.findChild<QAction*>(QStringLiteral("fault_rp_filter_strict"))->trigger();
    ASSERT_TRUE(test::waitForSignals(injected, 1, 10'000)) << c.failureText();
    ASSERT_TRUE(QTest::qWaitFor([&] { return hasFinding(c.ws.session(), "RP_FILTER_STRICT", "node002/nic1"); }, 20'000)) << c.failureText();
    c.ws.findChild<QAction*>(QStringLiteral("fault_wrong_gid_index"))->trigger();
    ASSERT_TRUE(test::waitForSignals(injected, 2, 10'000)) << c.failureText();
    ASSERT_TRUE(QTest::qWaitFor([&] { return hasFinding(c.ws.session(), "GID_INDEX_MISMATCH", "node002/nic1"); }, 20'000)) << c.failureText();
    for (const auto& f : c.ws.session().findings()) {
        if (f.finding.code == "RP_FILTER_STRICT") {
            EXPECT_NE(f.finding.message.find("rp_filter"), std::string::npos) << f.finding.message;
        }
    }
}


// The workspace's poller with one agent that answers and one that never does (it listens and
// never accepts): the rounds keep their interval while the hung agent's request waits for its
// deadline, the answering node stays connected with its figures, and the hung one turns lost
// only at its deadline, with the reason.
TEST(LiveWorkspacePoller, AHungAgentDoesNotHoldTheOthersRounds)
{
    std::atomic<int> asked { 0 };
    live::test::ScriptedAgent prompt([&asked](const std::string&) -> std::pair<int, std::string> {
        const int n = asked++;
        live::PortCounters p;
        p.device = "mlx5_0";
        p.rail = 0;
        const auto words = static_cast<std::uint64_t>(n) * 2'500'000'000ull; // 400 Gb/s at 200 ms a round
        p.counters["port_xmit_data"] = { words, live::CounterKind::Words4, 64, false };
        p.counters["port_rcv_data"] = { words, live::CounterKind::Words4, 64, false };
        return { 200, live::toCompactText(live::CounterSnapshot { "node001", 1'000'000 + n * 200, { p } }).value() };
    });
    live::test::NeverAnswers hung;
    ASSERT_TRUE(hung.ok());

    live::FetchOptions fetch;
    fetch.deadline = std::chrono::milliseconds(4000);
    std::vector<std::shared_ptr<const app::LiveFrame>> frames;
    app::LivePoller poller(plan(), { { "node001", prompt.url() }, { "node002", hung.url() } },
        fetch, std::chrono::milliseconds(200), [&frames](std::shared_ptr<const app::LiveFrame> f) { frames.push_back(std::move(f)); });
    poller.start();
    // Six rounds take about 1.2 s, well inside the hung agent's deadline of 4 s.
    ASSERT_TRUE(QTest::qWaitFor([&] { return frames.size() >= 6; }, 3500)) << frames.size() << " rounds";
    for (std::size_t i = 0; i < 6; ++i) {
        const app::LiveFrame& f = *frames[i];
        ASSERT_EQ(f.nodes.size(), 2u);
        EXPECT_NE(f.nodes[1].link, app::NodeLink::Lost) << "round " << i << ": " << f.nodes[1].lastError;
        if (i > 0) {
            EXPECT_EQ(f.nodes[0].link, app::NodeLink::Connected) << "round " << i << ": " << f.nodes[0].lastError;
            EXPECT_NEAR(f.cells[0].txGbps, 400.0F, 1.0F) << "round " << i;
        }
    }
    EXPECT_GE(frames[5]->nodes[1].latencyMs, 600) << "how long the open request has waited";
    ASSERT_TRUE(QTest::qWaitFor([&] { return frames.back()->nodes[1].link == app::NodeLink::Lost; }, 10'000));
    EXPECT_NE(frames.back()->nodes[1].lastError.find("timed out"), std::string::npos) << frames.back()->nodes[1].lastError;
    poller.stop();
}
