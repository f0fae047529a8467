// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The planner's Network intent page: the address plan and the generated switch and host
// configurations of a routed RoCEv2 plan, the same text as railyard-cli's exports.
#include "app/models/plan_controller.h"
#include "app/models/plan_table_model.h"
#include "app/widgets/export_jobs.h"
#include "app/widgets/intent_view.h"
#include "app/widgets/main_window.h"
#include "core/examples.h"
#include "core/plan_spec.h"
#include "planner/host_config.h"
#include "planner/switch_config.h"
#include "signal_wait.h"
#include "test_plans.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace railyard;

namespace {

std::shared_ptr<const core::Catalog> catalog()
{
    return test::builtinCatalog();
}

core::PlanSpec routedSpec()
{
    const std::string path = RAILYARD_TEST_DATA_DIR "/intent/roce-2su.plan.json";
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return core::parsePlanSpecText(text.str(), path).value();
}

/// Plans `spec` in a main window and waits for its Network intent page to show the addresses.
bool planAndWait(app::MainWindow& window, const core::PlanSpec& spec)
{
    QSignalSpy ready(&window.controller(), &app::PlanController::planReady);
    QSignalSpy addresses(window.intentView(), &app::IntentView::addressesReady);
    window.controller().setSpec(spec);
    if (!test::waitForSignals(ready, 1))
        return false;
    return !planner::isRouted(*window.controller().plan()) || test::waitForSignals(addresses, 1);
}

} // namespace

TEST(IntentView, ShowsTheAddressPlanAndEachDevicesGeneratedText)
{
    app::MainWindow window(catalog());
    ASSERT_TRUE(planAndWait(window, routedSpec()));
    const auto plan = window.controller().plan();
    app::IntentView* view = window.intentView();
    EXPECT_TRUE(view->message().isEmpty()) << qPrintable(view->message());

    const planner::AddressPlan addresses = planner::planAddresses(*plan).value();
    ASSERT_EQ(view->addressesModel()->rowCount(), static_cast<int>(planner::addressRowCount(addresses)));
    // A link row: the NIC end and the leaf end with their /31 addresses, as the CSV has them.
    const int linkRow = static_cast<int>(addresses.switches.size() + addresses.subnets.size());
    const planner::AddressRow expected = planner::addressRow(*plan, addresses, static_cast<std::size_t>(linkRow));
    EXPECT_EQ(view->addressesModel()->index(linkRow, app::AddressesModel::Name).data().toString().toStdString(), expected.name);
    EXPECT_EQ(view->addressesModel()->index(linkRow, app::AddressesModel::PeerAddress).data().toString().toStdString(),
        expected.peerAddress);
    EXPECT_EQ(view->addressesModel()->index(linkRow, app::AddressesModel::Prefix).data().toString(), QStringLiteral("/31"));

    // A leaf, in both switch OSes, and a node: the planner's text, unchanged.
    ASSERT_TRUE(view->select(QStringLiteral("su1-rail0-leaf")));
    EXPECT_EQ(view->shownText().toStdString(),
        planner::switchConfigs(*plan, addresses, planner::SwitchOs::Nvue, "su1-rail0-leaf").value().front().text);
    EXPECT_TRUE(view->shownText().contains(QStringLiteral("nv set qos roce")));
    view->setSwitchOs(planner::SwitchOs::Sonic);
    EXPECT_EQ(view->shownText().toStdString(),
        planner::switchConfigs(*plan, addresses, planner::SwitchOs::Sonic, "su1-rail0-leaf").value().front().text);
    EXPECT_TRUE(view->shownText().contains(QStringLiteral("PORT_QOS_MAP")));
    ASSERT_TRUE(view->select(QStringLiteral("node001")));
    const core::NodeType* type = catalog()->findNodeType(plan->spec.nodeType);
    ASSERT_NE(type, nullptr);
    EXPECT_EQ(view->shownText().toStdString(), planner::hostConfigs(*plan, addresses, type->railMap, "node001").value().front().text);
    EXPECT_TRUE(view->shownText().contains(QStringLiteral("rp_filter")));
    EXPECT_FALSE(view->select(QStringLiteral("node999")));
    ASSERT_TRUE(view->select(QString()));
    EXPECT_TRUE(view->shownText().isEmpty());

    // The window shows the page by name (railyard --tab intent).
    ASSERT_TRUE(window.showPage(QStringLiteral("intent")));
    EXPECT_EQ(window.findChild<QTabWidget*>()->currentWidget(), view);
}

TEST(IntentView, ExplainsPlansWithoutAddressesAndMakesThemRouted)
{
    app::MainWindow window(catalog());
    core::PlanSpec spec = routedSpec();
    spec.addressingGiven = false;
    ASSERT_TRUE(planAndWait(window, spec));
    app::IntentView* view = window.intentView();
    EXPECT_TRUE(view->message().contains(QStringLiteral("not routed"))) << qPrintable(view->message());
    EXPECT_EQ(view->addressesModel()->rowCount(), 0);

    // The button gives the spec the default addressing and the window re-plans it.
    auto* button = view->findChild<QPushButton*>(QStringLiteral("intentMakeRouted"));
    ASSERT_NE(button, nullptr);
    EXPECT_TRUE(button->isVisibleTo(view));
    QSignalSpy ready(&window.controller(), &app::PlanController::planReady);
    QSignalSpy addresses(view, &app::IntentView::addressesReady);
    button->click();
    ASSERT_TRUE(test::waitForSignals(ready, 1));
    ASSERT_TRUE(test::waitForSignals(addresses, 1));
    EXPECT_TRUE(window.controller().spec().addressingGiven);
    EXPECT_TRUE(view->message().isEmpty()) << qPrintable(view->message());
    EXPECT_GT(view->addressesModel()->rowCount(), 0);

    // InfiniBand: nothing to generate, and no button.
    const auto example = core::findExample("dgx-h100-superpod-1su");
    ASSERT_TRUE(example.has_value());
    ASSERT_TRUE(planAndWait(window, core::parsePlanSpecText(example->content, example->path).value()));
    EXPECT_TRUE(view->message().contains(QStringLiteral("InfiniBand"))) << qPrintable(view->message());
    EXPECT_FALSE(button->isVisibleTo(view));
}

TEST(IntentView, RangeTooSmallSaysWhichRange)
{
    app::MainWindow window(catalog());
    core::PlanSpec spec = routedSpec();
    std::string problem;
    const auto tiny = core::parseIpv4Prefix("10.0.0.0/30", problem);
    ASSERT_TRUE(tiny.has_value()) << problem;
    spec.addressing.fabric = *tiny;
    // The plan is made (the range is a finding of the plan); its address plan is not.
    ASSERT_TRUE(planAndWait(window, spec));
    // Which range, what it holds, what the plan needs and what to give.
    const QString message = window.intentView()->message();
    EXPECT_TRUE(message.contains(QStringLiteral("addressing.fabric 10.0.0.0/30"))) << qPrintable(message);
    EXPECT_TRUE(message.contains(QStringLiteral("/27"))) << qPrintable(message);
}

TEST(IntentView, ExportsWriteWhatTheCliWrites)
{
    app::MainWindow window(catalog());
    ASSERT_TRUE(planAndWait(window, routedSpec()));
    const auto plan = window.controller().plan();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());

    const QString csv = dir.filePath(QStringLiteral("addresses.csv"));
    ASSERT_EQ(app::writeExport(*plan, catalog().get(), QStringLiteral("addresses-csv"), csv), QString());
    QFile file(csv);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    std::ostringstream expected;
    planner::writeAddressesCsv(*plan, planner::planAddresses(*plan).value(), expected);
    EXPECT_EQ(file.readAll().toStdString(), expected.str());

    const QString switches = dir.filePath(QStringLiteral("switches"));
    ASSERT_EQ(app::writeExport(*plan, catalog().get(), QStringLiteral("switch-config-sonic"), switches), QString());
    EXPECT_TRUE(QFile::exists(switches + QStringLiteral("/su1-rail0-leaf.config_db.json")));
    const QString hosts = dir.filePath(QStringLiteral("hosts"));
    ASSERT_EQ(app::writeExport(*plan, catalog().get(), QStringLiteral("host-config"), hosts), QString());
    EXPECT_EQ(QDir(hosts).entryList(QDir::Files).size(), plan->summary.nodes);
}
