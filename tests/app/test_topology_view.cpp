// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/widgets/topology_items.h"
#include "app/widgets/topology_view.h"
#include "app/widgets/what_if_panel.h"
#include "core/catalog.h"
#include "core/examples.h"
#include "core/plan_spec.h"
#include "planner/planner.h"
#include "signal_wait.h"

#include <chrono>
#include <map>

#include <QDir>
#include <QElapsedTimer>
#include <QPixmap>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

using namespace railyard;

namespace {

const core::Catalog& catalog()
{
    static const core::Catalog c = core::Catalog::builtin().value();
    return c;
}

std::shared_ptr<const core::Plan> planFromText(const std::string& json)
{
    auto spec = core::parsePlanSpecText(json, "test.plan.json");
    EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().toString());
    if (!spec.ok())
        return nullptr;
    auto plan = planner::makePlan(*spec, catalog());
    EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().toString());
    return plan.ok() ? std::make_shared<const core::Plan>(std::move(plan).value()) : nullptr;
}

/// Built-in examples, planned once per test program.
std::shared_ptr<const core::Plan> example(const std::string& name)
{
    static std::map<std::string, std::shared_ptr<const core::Plan>> cache;
    auto& plan = cache[name];
    if (!plan) {
        const auto ex = core::findExample(name);
        EXPECT_TRUE(ex.has_value()) << name;
        if (ex)
            plan = planFromText(std::string(ex->content));
    }
    return plan;
}

std::uint32_t deviceNamed(const core::Plan& plan, const std::string& name)
{
    for (std::uint32_t i = 0; i < plan.devices.size(); ++i) {
        if (plan.devices[i].name == name)
            return i;
    }
    ADD_FAILURE() << "no device " << name;
    return 0;
}

/// Writes the view to $RAILYARD_TOPOLOGY_PNG_DIR/<name>.png when that is set (to look at it).
void maybeSave(QWidget& w, const QString& name)
{
    const QString dir = qEnvironmentVariable("RAILYARD_TOPOLOGY_PNG_DIR");
    const QPixmap pixmap = w.grab();
    EXPECT_FALSE(pixmap.isNull());
    if (!dir.isEmpty()) {
        EXPECT_TRUE(pixmap.save(QDir(dir).filePath(name + QStringLiteral(".png"))));
    }
}

} // namespace

TEST(TopologyView, SmallPlanHasAnItemPerDeviceAndBatchedLinks)
{
    const auto plan = planFromText(R"({"name": "four nodes", "fabric": "infiniband", "nodes": 4, "node_type": "dgx-h100",
        "link": {"generation": "NDR", "width": 4}, "leaf_switch": "qm9700", "spine_switch": "qm9700", "su_size": 32})");
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->summary.rails, 8);
    ASSERT_EQ(plan->summary.switches.leaf, 8);
    app::TopologyView view;
    view.setPlan(plan);
    EXPECT_FALSE(view.isCollapsed());
    // One box per device; the links in one wire item per tier and SU; frames for the SU and the spines.
    const int devices = static_cast<int>(plan->devices.size());
    const int wires = plan->summary.switches.spine > 0 ? 2 : 1;
    const int frames = plan->summary.switches.spine > 0 ? 2 : 1;
    EXPECT_EQ(view.itemCount(), devices + wires + frames)
        << plan->devices.size() << " devices, " << plan->links.size() << " links";
    EXPECT_LT(view.itemCount(), devices + static_cast<int>(plan->links.size()));

    view.setCollapsed(true);
    EXPECT_TRUE(view.isCollapsed());
    EXPECT_LT(view.itemCount(), devices);
}

TEST(TopologyView, LargestExampleStaysSmallCollapsed)
{
    const auto plan = example("roce-128k-gpu-400g");
    ASSERT_TRUE(plan);
    ASSERT_EQ(plan->summary.nodes, 16384);
    app::TopologyView view;
    view.resize(1400, 900);
    QElapsedTimer timer;
    timer.start();
    view.setPlan(plan);
    const auto buildMs = timer.elapsed();
    EXPECT_TRUE(view.isCollapsed());
    EXPECT_LT(view.itemCount(), 5000);
    timer.restart();
    maybeSave(view, QStringLiteral("topology-128k"));
    std::printf("[ info ] 128K collapsed: %d items, built in %lld ms, drawn in %lld ms\n", view.itemCount(),
        static_cast<long long>(buildMs), static_cast<long long>(timer.elapsed()));
}

TEST(TopologyView, HighlightFindsSwitchesPortsAndFields)
{
    const auto plan = example("dgx-h100-superpod-4su");
    ASSERT_TRUE(plan);
    app::TopologyView view;
    view.setPlan(plan);
    view.highlight(QStringLiteral("su1-rail0-leaf"));
    EXPECT_EQ(view.highlightedCount(), 1);
    view.highlight(QStringLiteral("su1-rail0-leaf/17"));
    EXPECT_EQ(view.highlightedCount(), 1);
    view.highlight(QStringLiteral("node007/nic3"));
    EXPECT_EQ(view.highlightedCount(), 1);
    view.highlight(QStringLiteral("nodes"));
    EXPECT_EQ(view.highlightedCount(), plan->summary.nodes);
    view.highlight(QStringLiteral("oversubscription.leaf"));
    EXPECT_EQ(view.highlightedCount(), plan->summary.switches.leaf);
    view.highlight(QStringLiteral("no such thing"));
    EXPECT_EQ(view.highlightedCount(), 0);
}

TEST(TopologyView, FailedLeafReachesTheWhatIfPanel)
{
    const auto plan = example("dgx-h100-superpod-4su");
    ASSERT_TRUE(plan);
    app::TopologyView view;
    app::WhatIfPanel panel;
    view.setPlan(plan);
    panel.setPlan(plan);
    QObject::connect(&view, &app::TopologyView::failuresChanged, &panel, &app::WhatIfPanel::setFailures);
    QObject::connect(&panel, &app::WhatIfPanel::restoreAllRequested, &view, &app::TopologyView::clearFailures);
    QSignalSpy changed(&view, &app::TopologyView::failuresChanged);
    EXPECT_EQ(panel.impact(), nullptr);

    const auto leaf = deviceNamed(*plan, "su1-rail0-leaf");
    view.setDeviceFailed(leaf, true);
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(view.failedDevices(), std::vector<std::uint32_t> { leaf });
    view.setDeviceFailed(leaf, true); // no change, no signal
    EXPECT_EQ(changed.count(), 1);
    ASSERT_NE(panel.impact(), nullptr);
    EXPECT_EQ(panel.impact()->nodeRailsLost, 32);
    EXPECT_EQ(panel.impact()->nodesCutOff, 0);
    ASSERT_EQ(panel.impact()->railGbpsLeft.size(), 8u);
    EXPECT_LT(panel.impact()->railGbpsLeft[0], panel.impact()->railGbpsLeft[1]);
    EXPECT_GT(panel.impact()->bandwidthLostGbps, 0);

    panel.resize(360, 420);
    maybeSave(panel, QStringLiteral("what-if-panel"));

    // A cable too, then "Restore all".
    view.setLinkFailed(0, true);
    EXPECT_EQ(changed.count(), 2);
    EXPECT_EQ(view.failedLinks(), std::vector<std::size_t> { 0 });
    emit panel.restoreAllRequested();
    EXPECT_EQ(changed.count(), 3);
    EXPECT_TRUE(view.failedDevices().empty());
    EXPECT_TRUE(view.failedLinks().empty());
    EXPECT_EQ(panel.impact(), nullptr);
    maybeSave(view, QStringLiteral("topology-4su-plain"));
}

TEST(TopologyView, LargePlanWhatIfRunsOffTheGuiThread)
{
    const auto plan = example("roce-128k-gpu-400g");
    ASSERT_TRUE(plan);
    app::WhatIfPanel panel;
    panel.setPlan(plan);
    QSignalSpy ready(&panel, &app::WhatIfPanel::impactChanged);
    const auto leaf = deviceNamed(*plan, "su1-rail0-leaf");
    panel.setFailures({ leaf }, {});
    EXPECT_TRUE(panel.isComputing());
    ASSERT_TRUE(test::waitForSignals(ready, 1));
    ASSERT_NE(panel.impact(), nullptr);
    EXPECT_EQ(panel.impact()->nodeRailsLost, plan->summary.suSize);
}

TEST(TopologyView, RendersTheDefaultExample)
{
    const auto plan = example("dgx-h100-superpod-4su");
    ASSERT_TRUE(plan);
    app::TopologyView view;
    view.resize(1400, 900);
    view.setPlan(plan);
    view.show();
    EXPECT_FALSE(view.isCollapsed());
    view.setDeviceFailed(deviceNamed(*plan, "su2-rail3-leaf"), true);
    view.setLinkFailed(plan->links.size() - 1, true);
    view.highlight(QStringLiteral("spine3"));
    maybeSave(view, QStringLiteral("topology-4su"));
    view.setCollapsed(true);
    maybeSave(view, QStringLiteral("topology-4su-collapsed"));
}

TEST(TopologyView, ClickingASwitchSelectsAndReportsIt)
{
    const auto plan = example("dgx-h100-superpod-4su");
    ASSERT_TRUE(plan);
    app::TopologyView view;
    view.resize(1400, 900);
    view.setPlan(plan);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    const auto leaf = deviceNamed(*plan, "su2-rail5-leaf");
    QGraphicsItem* box = nullptr;
    for (QGraphicsItem* item : view.scene()->items()) {
        if (item->type() == app::topo::BoxType && static_cast<app::topo::BoxItem*>(item)->devices() == std::vector<std::uint32_t> { leaf })
            box = item;
    }
    ASSERT_NE(box, nullptr);
    QSignalSpy activated(&view, &app::TopologyView::switchActivated);
    QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, view.mapFromScene(box->sceneBoundingRect().center()));
    ASSERT_EQ(activated.count(), 1);
    EXPECT_EQ(activated.at(0).at(0).value<std::uint32_t>(), leaf);
    EXPECT_TRUE(box->isSelected());

    const double before = view.transform().m11();
    view.zoomIn();
    EXPECT_GT(view.transform().m11(), before);
    view.fitToView();
    EXPECT_DOUBLE_EQ(view.transform().m11(), before);
}
