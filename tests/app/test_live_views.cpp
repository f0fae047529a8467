// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's leaf/spine view and its connect paths, offscreen: a `congested` fault in the
// demo fabric turns that leaf's uplinks to the congestion colour (and only that leaf's); hover and
// click give the switch and its ports in the side panel; a hostfile with one host that has no
// agent shows that host as lost while the others fill in; the connect dialogs' fields; the time
// charts zoom with the wheel and scroll back together.
#include "app/models/live_session.h"
#include "app/widgets/live_connect_dialog.h"
#include "app/widgets/live_fabric_view.h"
#include "app/widgets/live_grid.h"
#include "app/widgets/live_node_panel.h"
#include "app/widgets/live_rail_chart.h"
#include "app/widgets/live_workspace.h"
#include "core/plan_spec.h"
#include "live/sim/agent_farm.h"
#include "live/sim/emulator.h"
#include "planner/planner.h"
#include "signal_wait.h"
#include "test_plans.h"

#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>

#include <gtest/gtest.h>

using namespace railyard;

namespace {

std::shared_ptr<const core::Catalog> catalog()
{
    return test::builtinCatalog();
}

/// The Live workspace tests' fabric (test_plans.h).
std::shared_ptr<const core::Plan> plan()
{
    static auto p = test::planOfSpec(test::liveTestSpec("live views test"));
    return p;
}

/// Shows the workspace's page titled `title` (the bottom tab bar).
bool showPage(app::LiveWorkspace& ws, const QString& title)
{
    for (QTabBar* bar : ws.findChildren<QTabBar*>())
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i).startsWith(title)) {
                bar->setCurrentIndex(i);
                return true;
            }
    return false;
}

} // namespace

TEST(LiveViews, LeafSpineViewShowsTheSwitchesOfThePlan)
{
    app::LiveFabricView view;
    view.resize(1000, 420);
    view.setPlan(plan());
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    int leaves = 0, spines = 0;
    for (const core::Device& d : plan()->devices)
        if (d.kind == core::DeviceKind::Switch)
            (d.tier == core::SwitchTier::Leaf ? leaves : spines) += 1;
    ASSERT_EQ(view.switchCount(), leaves + spines);
    ASSERT_EQ(leaves, 16); // 2 SUs x 8 rails
    for (int i = 0; i < view.switchCount(); ++i) {
        const QRect r = view.switchRect(i);
        ASSERT_FALSE(r.isEmpty()) << view.switchName(i);
        EXPECT_TRUE(view.rect().contains(r)) << view.switchName(i);
        EXPECT_EQ(view.switchAt(r.center()), i) << view.switchName(i);
    }
    // Before any sweep every leaf is "no rates", and every leaf-spine pair is drawn.
    view.repaint();
    EXPECT_GT(view.linesPainted(), 0u);
    const int leaf = view.switchIndex("su1-rail0-leaf");
    ASSERT_GE(leaf, 0);
    EXPECT_TRUE(view.switchText(leaf).contains(QStringLiteral("No rates yet"))) << view.switchText(leaf).toStdString();
    // A 1,000-node plan's 640 switches still get a box each in a window-sized view.
    auto spec = core::parsePlanSpecText(R"({ "name": "k", "fabric": "infiniband", "nodes": 1000, "node_type": "dgx-h100",
        "link": { "generation": "NDR", "width": 4 }, "oversubscription": { "leaf": "1:1", "spine": "1:1" } })",
        "k.plan.json");
    ASSERT_TRUE(spec);
    auto big = planner::makePlan(*spec, *catalog());
    ASSERT_TRUE(big);
    view.setPlan(std::make_shared<const core::Plan>(std::move(big).value()));
    ASSERT_EQ(view.switchCount(), 640);
    for (int i = 0; i < view.switchCount(); ++i)
        ASSERT_TRUE(view.rect().contains(view.switchRect(i))) << view.switchName(i) << " at " << view.switchRect(i).x() << "," << view.switchRect(i).y();
}

TEST(LiveViews, CongestedLeafTurnsItsUplinksAndClickOpensTheSwitch)
{
    QTemporaryDir dir(test::scratchPattern("live-views"));
    app::LiveWorkspace ws;
    ws.resize(1280, 800);
    ws.show();
    ws.setPlan(plan(), catalog());
    QStringList failures;
    QObject::connect(&ws.session(), &app::LiveSession::failed, &ws, [&](const QString& m) { failures << m; });
    ws.session().connectDemo(dir.path());
    ASSERT_TRUE(QTest::qWaitFor([&] { return ws.session().framesReceived() >= 3 && ws.session().checkReport() && !ws.session().isChecking(); }, 60'000))
        << failures.join(QLatin1Char('\n')).toStdString();
    ASSERT_TRUE(showPage(ws, QStringLiteral("Leaf/spine")));
    app::LiveFabricView* view = ws.fabricView();
    ASSERT_TRUE(view->isVisible());
    const int leaf = view->switchIndex("su2-rail5-leaf");
    ASSERT_GE(leaf, 0);
    // A clean demo: no leaf in the congestion colour, and the leaves carry their hosts' traffic.
    for (int i = 0; i < view->switchCount(); ++i)
        EXPECT_NE(view->uplinkColour(i), app::LiveFabricView::congestionColour()) << view->switchName(i);
    EXPECT_TRUE(view->switchText(leaf).contains(QStringLiteral("healthy"))) << view->switchText(leaf).toStdString();

    // The congested fault at node005 rail 5 (SU 2): its leaf's uplinks at a quarter of their rate.
    const int node = ws.grid()->nodeIndex("node005");
    ASSERT_GE(node, 0);
    ws.grid()->select(node, 5);
    QSignalSpy injected(&ws.session(), &app::LiveSession::faultInjected);
    ASSERT_TRUE(ws.injectAtSelection(QStringLiteral("congested")));
    ASSERT_TRUE(test::waitForSignals(injected, 1, 10'000)) << failures.join(QLatin1Char('\n')).toStdString();
    ASSERT_TRUE(QTest::qWaitFor([&] { return view->uplinkColour(leaf) == app::LiveFabricView::congestionColour(); }, 30'000))
        << view->switchText(leaf).toStdString();
    EXPECT_EQ(view->switchColour(leaf), app::LiveFabricView::congestionColour());
    EXPECT_TRUE(view->switchText(leaf).contains(QStringLiteral("congested"))) << view->switchText(leaf).toStdString();
    // Only that leaf: the same rail in the other SU, and the other rails, stay out of it.
    for (const char* other : { "su1-rail5-leaf", "su2-rail4-leaf", "su1-rail0-leaf" })
        EXPECT_NE(view->uplinkColour(view->switchIndex(other)), app::LiveFabricView::congestionColour()) << other;
    view->repaint();
    EXPECT_GT(view->linesPainted(), 0u);

    // Click: the switch is selected and the side panel shows its ports and its findings.
    QTest::mouseClick(view, Qt::LeftButton, {}, view->switchRect(leaf).center());
    EXPECT_EQ(view->selectedSwitch(), leaf);
    EXPECT_EQ(ws.grid()->selectedNode(), -1);
    const QString panel = ws.nodePanel()->toPlainText();
    EXPECT_TRUE(panel.contains(QStringLiteral("su2-rail5-leaf"))) << panel.toStdString();
    EXPECT_TRUE(panel.contains(QStringLiteral("node005/nic5"))) << panel.toStdString();
    EXPECT_TRUE(panel.contains(QStringLiteral("Above"))) << panel.toStdString();
    EXPECT_TRUE(panel.contains(QStringLiteral("spine"))) << panel.toStdString();
    // A spine's tooltip names the unhealthy leaf below it.
    bool named = false;
    for (int i = 0; i < view->switchCount(); ++i)
        named = named || view->switchText(i).contains(QStringLiteral("Unhealthy leaves below: su2-rail5-leaf"));
    EXPECT_TRUE(named);
    // Clicking a grid cell gives the panel back to the node.
    QTest::mouseClick(ws.grid(), Qt::LeftButton, {}, ws.grid()->cellRect(node, 5).center());
    EXPECT_EQ(view->selectedSwitch(), -1);
    EXPECT_TRUE(ws.nodePanel()->toPlainText().contains(QStringLiteral("node005")));
    ws.session().disconnectFabric();
}

TEST(LiveViews, HostfileWithAnUnreachableHostShowsItLostWhileTheOthersFillIn)
{
    // Seven emulated nodes served on 127.0.0.1..7 at one port (as a cluster's agents all listen on
    // 9473); the hostfile's eighth host, 127.0.0.8, has no agent.
    QTemporaryDir dir(test::scratchPattern("live-hostfile"));
    ASSERT_TRUE(dir.isValid());
    live::EmulatorOptions options;
    options.root = dir.path().toStdString();
    auto emulator = live::FabricEmulator::create(*plan(), *catalog(), {}, options);
    ASSERT_TRUE(emulator) << emulator.error().toString();
    ASSERT_TRUE((*emulator)->writeTree());
    std::vector<std::unique_ptr<live::AgentFarm>> farms;
    int port = 0;
    QString hostfile = QStringLiteral("# test cluster\n");
    for (std::size_t i = 0; i < 7; ++i) {
        live::FarmOptions farm;
        farm.token = "hostfile-test-token";
        farm.listenAddress = "127.0.0." + std::to_string(i + 1);
        farm.basePort = port;
        farms.push_back(std::make_unique<live::AgentFarm>());
        const core::Status started = farms.back()->start({ (*emulator)->nodes()[i] }, farm);
        ASSERT_TRUE(started) << started.error().toString();
        port = farms.back()->ports().front();
        hostfile += QString::fromStdString(farm.listenAddress) + QStringLiteral(" slots=8\n");
    }
    hostfile += QStringLiteral("127.0.0.8 slots=8\n");
    const QString path = dir.filePath(QStringLiteral("hosts")), token = dir.filePath(QStringLiteral("token"));
    for (const auto& [file, text] : { std::pair { path, hostfile }, std::pair { token, QStringLiteral("hostfile-test-token\n") } }) {
        QFile f(file);
        ASSERT_TRUE(f.open(QIODevice::WriteOnly));
        f.write(text.toUtf8());
    }
    QTimer traffic;
    QObject::connect(&traffic, &QTimer::timeout, [&] { (void)(*emulator)->update(0.5); });
    traffic.start(500);

    app::LiveWorkspace ws;
    ws.resize(1280, 800);
    ws.show();
    ws.setPlan(plan(), catalog());
    QStringList failures;
    QObject::connect(&ws.session(), &app::LiveSession::failed, &ws, [&](const QString& m) { failures << m; });
    // A bad port is refused before anything is started.
    EXPECT_FALSE(ws.session().connectHostfile(path, 0, token));
    ASSERT_EQ(failures.size(), 1);
    EXPECT_TRUE(failures.front().contains(QStringLiteral("not a TCP port"))) << failures.front().toStdString();
    failures.clear();
    ASSERT_TRUE(ws.session().connectHostfile(path, port, token));
    ASSERT_TRUE(QTest::qWaitFor([&] { return ws.session().framesReceived() >= 3; }, 30'000)) << failures.join(QLatin1Char('\n')).toStdString();
    const app::LiveFrame& f = *ws.session().frame();
    ASSERT_EQ(f.nodes.size(), 8u);
    for (std::size_t n = 0; n < 7; ++n) {
        // The agent named its node: the row is the plan's node, its cells filled.
        EXPECT_EQ(f.nodes[n].node, (*emulator)->nodes()[n].name);
        EXPECT_EQ(f.nodes[n].link, app::NodeLink::Connected) << f.nodes[n].node << ": " << f.nodes[n].lastError;
        for (int r = 0; r < f.rails; ++r)
            EXPECT_TRUE(f.cell(n, r).present) << f.nodes[n].node << " rail " << r;
    }
    EXPECT_EQ(f.nodes[7].node, "127.0.0.8");
    EXPECT_EQ(f.nodes[7].link, app::NodeLink::Lost);
    EXPECT_FALSE(f.nodes[7].lastError.empty());
    EXPECT_EQ(ws.grid()->cellColour(7, 0), ws.grid()->cellColour(7, 1)); // the lost colour, every rail
    EXPECT_NE(ws.grid()->cellColour(7, 0), ws.grid()->cellColour(0, 0));
    bool finding = false;
    for (const auto& lf : ws.session().findings())
        finding = finding || (lf.finding.code == "NODE_UNREACHABLE" && lf.finding.where == "127.0.0.8");
    EXPECT_TRUE(finding);
    // The leaves of the seven answering nodes have rates in the leaf/spine view.
    const int leaf = ws.fabricView()->switchIndex("su1-rail0-leaf");
    ASSERT_GE(leaf, 0);
    EXPECT_FALSE(ws.fabricView()->switchText(leaf).contains(QStringLiteral("No rates yet")));
    ws.session().disconnectFabric();
}

TEST(LiveViews, ConnectDialogsCollectTheirFields)
{
    app::LiveConnectDialog hosts(app::LiveConnectDialog::Kind::Hostfile);
    EXPECT_EQ(hosts.port(), 9473);
    hosts.targetEdit()->setText(QStringLiteral("  /some/hosts "));
    hosts.portBox()->setValue(19473);
    EXPECT_EQ(hosts.target(), QStringLiteral("/some/hosts"));
    EXPECT_EQ(hosts.port(), 19473);
    EXPECT_FALSE(hosts.nodeExporter());

    app::LiveConnectDialog prom(app::LiveConnectDialog::Kind::Prometheus);
    prom.targetEdit()->setText(QStringLiteral("http://prometheus:9090"));
    EXPECT_FALSE(prom.nodeExporter());
    prom.metricsBox()->setCurrentIndex(1);
    EXPECT_TRUE(prom.nodeExporter());

    // A URL Prometheus cannot be: refused with the reason, nothing started.
    app::LiveSession session;
    session.setPlan(plan(), catalog());
    QSignalSpy failed(&session, &app::LiveSession::failed);
    EXPECT_FALSE(session.connectPrometheus(QStringLiteral("prometheus:9090"), false));
    ASSERT_EQ(failed.size(), 1);
    EXPECT_EQ(session.state(), app::LiveSession::State::Disconnected);
}

TEST(LiveViews, TimeChartsZoomAndScrollBackTogether)
{
    app::LiveWorkspace ws;
    ws.resize(1280, 800);
    ws.show();
    ws.setPlan(plan(), catalog());
    app::LiveRailChart* throughput = ws.throughputChart();
    app::LiveRailChart* congestion = ws.congestionChart();
    throughput->configure(2, false, 400);
    congestion->configure(2, false, 0);
    // Ten minutes of samples, one a second.
    std::vector<std::deque<app::RailSample>> series(2);
    for (int t = 0; t < 600; ++t)
        for (auto& rail : series)
            rail.push_back({ static_cast<double>(t), 100.0 + t % 50, 90.0, 0, 0, 0, 0 });
    throughput->setSeries(series, 599);
    congestion->setSeries(series, 599);
    EXPECT_EQ(throughput->visibleRange(), std::make_pair(299.0, 599.0)); // the default 5 minutes, newest at the right
    EXPECT_FALSE(throughput->viewEnd());

    // The wheel zooms in (1.5 times shorter), and the other chart follows.
    auto* view = throughput->findChild<QChartView*>();
    ASSERT_NE(view, nullptr);
    const QPointF at(view->width() / 2.0, view->height() / 2.0);
    QWheelEvent up(at, view->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view->viewport(), &up);
    EXPECT_DOUBLE_EQ(throughput->windowSeconds(), 200.0);
    EXPECT_EQ(throughput->visibleRange(), std::make_pair(399.0, 599.0));
    EXPECT_EQ(congestion->visibleRange(), std::make_pair(399.0, 599.0));

    // Scrolled back to the start: the oldest 200 s, in both; new samples do not move the view.
    throughput->scrollBar()->setValue(0);
    EXPECT_EQ(throughput->visibleRange(), std::make_pair(0.0, 200.0));
    EXPECT_EQ(congestion->visibleRange(), std::make_pair(0.0, 200.0));
    ASSERT_TRUE(throughput->viewEnd());
    EXPECT_GT(throughput->pointCount(0), 190);
    for (auto& rail : series)
        rail.push_back({ 600.0, 100.0, 90.0, 0, 0, 0, 0 });
    throughput->setSeries(series, 600);
    EXPECT_EQ(throughput->visibleRange(), std::make_pair(0.0, 200.0));

    // At the bar's right end it follows the newest sample again.
    throughput->scrollBar()->setValue(throughput->scrollBar()->maximum());
    EXPECT_FALSE(throughput->viewEnd());
    EXPECT_EQ(throughput->visibleRange(), std::make_pair(400.0, 600.0));
    EXPECT_FALSE(congestion->viewEnd());

    // Zoomed out past what is kept: at most the session's hour.
    QWheelEvent down(at, view->mapToGlobal(at), QPoint(), QPoint(0, -120 * 12), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view->viewport(), &down);
    EXPECT_DOUBLE_EQ(throughput->windowSeconds(), static_cast<double>(app::LiveSession::kSeriesCapacity));
}
