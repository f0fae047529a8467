// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/plan_controller.h"
#include "app/widgets/main_window.h"
#include "app/widgets/spec_form.h"
#include "signal_wait.h"
#include "test_plans.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QLineEdit>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <QUndoStack>

#include <gtest/gtest.h>

using namespace railyard;

namespace {

std::shared_ptr<const core::Catalog> catalog()
{
    return test::builtinCatalog();
}

/// Waits until the controller has delivered a plan or an error for the spec it holds.
bool waitForResult(app::PlanController& controller)
{
    if (!controller.isPlanning())
        return true;
    QSignalSpy ready(&controller, &app::PlanController::planReady);
    QSignalSpy failed(&controller, &app::PlanController::planFailed);
    for (int i = 0; i < 300 && ready.isEmpty() && failed.isEmpty(); ++i)
        QTest::qWait(100);
    return !ready.isEmpty() || !failed.isEmpty();
}

struct Window {
    app::MainWindow window { catalog() };
    app::SpecForm& form = *window.specForm();
    app::PlanController& controller = window.controller();

    explicit Window(const char* example = "dgx-h100-superpod-4su")
    {
        EXPECT_TRUE(window.loadExample(QString::fromLatin1(example)));
        EXPECT_TRUE(waitForResult(controller));
    }
    template <class T>
    T* field(const char* path)
    {
        return qobject_cast<T*>(form.fieldWidget(QString::fromLatin1(path)));
    }
    QString mark(const char* path) { return form.fieldWidget(QString::fromLatin1(path))->property("specMark").toString(); }
};

/// RAILYARD_SCREENSHOT_DIR=/tmp keeps images of the form for a look.
void keepScreenshot(QWidget& widget, const QString& name)
{
    if (const QString dir = qEnvironmentVariable("RAILYARD_SCREENSHOT_DIR"); !dir.isEmpty()) {
        QTest::qWait(50); // let the layouts settle
        EXPECT_TRUE(widget.grab().save(QStringLiteral("%1/%2.png").arg(dir, name)));
    }
}

void selectData(QComboBox* box, const QVariant& value)
{
    const int i = box->findData(value);
    ASSERT_GE(i, 0) << value.toString().toStdString();
    box->setCurrentIndex(i);
}

} // namespace

TEST(SpecForm, EveryFieldOfTheSpecHasAWidget)
{
    Window w;
    for (const char* path : { "name", "fabric", "node_type", "nodes", "gpus", "gpus_per_node", "rails", "nic", "link.generation",
             "link.width", "link.speed_gbps", "link.lanes", "leaf_switch", "spine_switch", "core_switch", "su_size",
             "oversubscription.leaf", "oversubscription.spine", "tiers", "reserved_leaf_ports", "management_ports", "planes",
             "grow_to", "grow_to.nodes", "node_names", "racks.nodes_per_rack", "racks.leaf_placement", "racks.rack_width_m",
             "racks.in_rack_m", "racks.slack_m", "racks.su_pitch_m", "racks.spine_distance_m", "racks.core_distance_m",
             "lossless.mode", "lossless.pfc_priority", "lossless.pfc_priority[1]", "lossless.ecn", "lossless.dcqcn",
             "lossless.trust", "lossless.roce_dscp", "lossless.cnp_dscp", "lossless.mtu", "link", "oversubscription" }) {
        EXPECT_NE(w.form.fieldWidget(QString::fromLatin1(path)), nullptr) << path;
    }
    EXPECT_EQ(w.form.fieldWidget(QStringLiteral("su1-rail3-leaf/17")), nullptr);
    EXPECT_FALSE(w.form.fieldWidget(QStringLiteral("nodes"))->toolTip().isEmpty());
}

TEST(SpecForm, EditingNodesReplansAndUndoRedoRestoreIt)
{
    Window w;
    ASSERT_EQ(w.controller.plan()->summary.switches.spine, 16);
    QSignalSpy ready(&w.controller, &app::PlanController::planReady);
    w.field<QSpinBox>("nodes")->setValue(63);
    ASSERT_TRUE(test::waitForSignals(ready, 1));
    EXPECT_EQ(w.controller.spec().nodes, 63);
    EXPECT_EQ(w.controller.plan()->summary.switches.spine, 8);
    ASSERT_EQ(w.form.undoStack()->count(), 1);

    w.form.undoAction()->trigger();
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(w.controller.spec().nodes, 127);
    EXPECT_EQ(w.field<QSpinBox>("nodes")->value(), 127);
    EXPECT_EQ(w.controller.plan()->summary.switches.spine, 16);

    w.form.redoAction()->trigger();
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(w.controller.spec().nodes, 63);
    EXPECT_EQ(w.field<QSpinBox>("nodes")->value(), 63);
    EXPECT_EQ(w.controller.plan()->summary.switches.spine, 8);
    EXPECT_EQ(w.form.undoAction()->shortcut(), QKeySequence(QKeySequence::Undo));
}

TEST(SpecForm, TypingIntoOneFieldMergesIntoOneUndoStep)
{
    Window w;
    auto* nodes = w.field<QSpinBox>("nodes");
    nodes->setValue(6);
    nodes->setValue(63);
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(w.form.undoStack()->count(), 1);
    w.field<QSpinBox>("reserved_leaf_ports")->setValue(2);
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(w.form.undoStack()->count(), 2);
    w.form.undoStack()->undo();
    w.form.undoStack()->undo();
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(w.controller.spec().nodes, 127);
    EXPECT_EQ(w.controller.spec().reservedLeafPorts, 0);
}

TEST(SpecForm, SwitchingToRoceShowsTheLosslessProfileAndReplans)
{
    Window w;
    QGroupBox* group = nullptr;
    for (auto* box : w.form.findChildren<QGroupBox*>()) {
        if (box->title() == app::SpecForm::tr("Lossless profile"))
            group = box;
    }
    ASSERT_NE(group, nullptr);
    EXPECT_TRUE(group->isHidden());
    QSignalSpy ready(&w.controller, &app::PlanController::planReady);
    selectData(w.field<QComboBox>("fabric"), QStringLiteral("rocev2"));
    ASSERT_TRUE(test::waitForSignals(ready, 1));
    EXPECT_FALSE(group->isHidden());
    const auto plan = w.controller.plan();
    EXPECT_EQ(plan->spec.fabric, core::Fabric::RoCEv2);
    EXPECT_EQ(plan->summary.port.fabric, core::Fabric::RoCEv2);
    EXPECT_TRUE(w.field<QWidget>("link.width")->isHidden() || !w.field<QWidget>("link.width")->isVisibleTo(&w.form));
    // The switch lists now offer Ethernet switches only.
    auto* leaf = w.field<QComboBox>("leaf_switch");
    EXPECT_GE(leaf->findData(QStringLiteral("sn5600")), 0);
    EXPECT_LT(leaf->findData(QStringLiteral("qm9700")), 0);
    // Back again.
    w.form.undoStack()->undo();
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_TRUE(group->isHidden());
    EXPECT_EQ(w.controller.spec().leafSwitch, "qm9700");
}

TEST(SpecForm, AnIncompatibleSwitchIsMarkedWithTheFinding)
{
    Window w;
    QSignalSpy ready(&w.controller, &app::PlanController::planReady);
    selectData(w.field<QComboBox>("leaf_switch"), QStringLiteral("qm8700")); // HDR only; the plan runs NDR
    ASSERT_TRUE(test::waitForSignals(ready, 1));
    EXPECT_EQ(w.mark("leaf_switch"), QStringLiteral("finding"));
    EXPECT_TRUE(w.form.fieldProblem(QStringLiteral("leaf_switch")).contains(QStringLiteral("qm8700"))) << w.form.fieldProblem(QStringLiteral("leaf_switch")).toStdString();
    EXPECT_TRUE(w.mark("nodes").isEmpty());
    w.window.resize(1280, 800);
    w.window.show();
    w.form.focusField(QStringLiteral("leaf_switch"));
    keepScreenshot(w.window, QStringLiteral("spec-form-finding"));
    w.form.undoStack()->undo();
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_TRUE(w.mark("leaf_switch").isEmpty());
}

TEST(SpecForm, AnUnknownSwitchIsMarkedWithTheError)
{
    Window w;
    core::PlanSpec spec = w.controller.spec();
    spec.leafSwitch = "qm9999";
    QSignalSpy failed(&w.controller, &app::PlanController::planFailed);
    w.window.loadSpec(spec);
    ASSERT_TRUE(test::waitForSignals(failed, 1));
    EXPECT_EQ(w.mark("leaf_switch"), QStringLiteral("error"));
    EXPECT_TRUE(w.form.fieldProblem(QStringLiteral("leaf_switch")).contains(QStringLiteral("unknown switch")));
    EXPECT_EQ(w.field<QComboBox>("leaf_switch")->currentData().toString(), QStringLiteral("qm9999"));
    w.window.resize(1280, 800);
    w.window.show();
    keepScreenshot(w.window, QStringLiteral("spec-form-error"));
    // Fixing it clears the mark.
    QSignalSpy ready(&w.controller, &app::PlanController::planReady);
    selectData(w.field<QComboBox>("leaf_switch"), QStringLiteral("qm9700"));
    ASSERT_TRUE(test::waitForSignals(ready, 1));
    EXPECT_TRUE(w.mark("leaf_switch").isEmpty());
}

TEST(SpecForm, AMalformedRatioIsMarkedWithoutReplanning)
{
    Window w;
    QSignalSpy started(&w.controller, &app::PlanController::planningStarted);
    auto* ratio = w.field<QComboBox>("oversubscription.leaf");
    ratio->setCurrentText(QStringLiteral("2-1"));
    EXPECT_EQ(started.count(), 0);
    EXPECT_EQ(w.mark("oversubscription.leaf"), QStringLiteral("error"));
    EXPECT_TRUE(w.form.fieldProblem(QStringLiteral("oversubscription.leaf")).contains(QStringLiteral("down:up")));
    EXPECT_EQ(w.form.undoStack()->count(), 0);
    ratio->setCurrentText(QStringLiteral("2:1"));
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(started.count(), 1);
    EXPECT_TRUE(w.mark("oversubscription.leaf").isEmpty());
    EXPECT_EQ(w.controller.spec().leafOversubscription.value(), 2.0);
}

TEST(SpecForm, GrowToAtOrBelowNodesIsMarkedWithoutReplanning)
{
    Window w;
    QSignalSpy started(&w.controller, &app::PlanController::planningStarted);
    w.field<QSpinBox>("grow_to")->setValue(100);
    EXPECT_EQ(started.count(), 0);
    EXPECT_EQ(w.mark("grow_to"), QStringLiteral("error"));
    EXPECT_TRUE(w.form.fieldProblem(QStringLiteral("grow_to")).contains(QStringLiteral("127"))) << w.form.fieldProblem(QStringLiteral("grow_to")).toStdString();
    w.field<QSpinBox>("grow_to")->setValue(255);
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(started.count(), 1);
    EXPECT_TRUE(w.mark("grow_to").isEmpty());
    EXPECT_EQ(w.controller.spec().growToNodes, 255);
    EXPECT_EQ(w.controller.plan()->summary.finalNodes, 255);
}

TEST(SpecForm, ABadNodeNamePatternIsMarked)
{
    Window w;
    QSignalSpy started(&w.controller, &app::PlanController::planningStarted);
    w.field<QLineEdit>("node_names")->setText(QStringLiteral("gpu-node"));
    EXPECT_EQ(started.count(), 0);
    EXPECT_EQ(w.mark("node_names"), QStringLiteral("error"));
    w.field<QLineEdit>("node_names")->setText(QStringLiteral("gpu%04d"));
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_TRUE(w.mark("node_names").isEmpty());
    EXPECT_EQ(w.controller.plan()->devices.front().name, "gpu0001");
}

TEST(SpecForm, GpusModeComputesNodes)
{
    Window w;
    auto* mode = w.form.findChildren<QComboBox*>().front();
    for (auto* box : w.form.findChildren<QComboBox*>()) {
        if (box->findData(QStringLiteral("gpus")) >= 0)
            mode = box;
    }
    selectData(mode, QStringLiteral("gpus"));
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(w.field<QSpinBox>("gpus")->value(), 1016); // 127 nodes x 8 GPUs
    EXPECT_EQ(w.controller.spec().gpus, 1016);
    EXPECT_EQ(w.controller.spec().nodes, 127);
    w.field<QSpinBox>("gpus")->setValue(1000);
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(w.controller.spec().gpus, 1000);
    EXPECT_EQ(w.controller.spec().nodes, 125);
    EXPECT_EQ(w.controller.plan()->summary.nodes, 125);
}

TEST(SpecForm, FocusFieldExpandsTheRackLayout)
{
    Window w;
    w.window.show();
    auto* perRack = w.field<QSpinBox>("racks.nodes_per_rack");
    EXPECT_FALSE(perRack->isVisible());
    w.form.focusField(QStringLiteral("racks.nodes_per_rack"));
    EXPECT_TRUE(perRack->isVisible());
}

TEST(SpecForm, MainWindowHasAnEditMenuWithUndo)
{
    Window w;
    QMenu* edit = nullptr;
    for (QAction* a : w.window.menuBar()->actions()) {
        if (a->text() == app::MainWindow::tr("&Edit"))
            edit = a->menu();
    }
    ASSERT_NE(edit, nullptr);
    EXPECT_TRUE(edit->actions().contains(w.form.undoAction()));
    EXPECT_TRUE(edit->actions().contains(w.form.redoAction()));
}

TEST(SpecForm, FitsItsColumnWithoutHorizontalScrolling)
{
    for (const QSize size : { QSize(1280, 800), QSize(1920, 1080) }) {
        Window w("roce-lossless-demo");
        w.window.resize(size);
        w.window.show();
        // The widest state: the rack layout expanded and a field marked with its reason.
        w.field<QComboBox>("oversubscription.spine")->setCurrentText(QStringLiteral("2-1"));
        w.form.focusField(QStringLiteral("racks.slack_m"));
        QTest::qWait(50);
        EXPECT_FALSE(w.field<QWidget>("racks.slack_m")->visibleRegion().isEmpty());
        QScrollArea* area = nullptr;
        for (QWidget* p = w.form.parentWidget(); p && !area; p = p->parentWidget())
            area = qobject_cast<QScrollArea*>(p);
        ASSERT_NE(area, nullptr);
        EXPECT_LE(w.form.minimumSizeHint().width(), area->viewport()->width()) << size.width();
        EXPECT_EQ(area->horizontalScrollBar()->maximum(), 0) << size.width();
        const QImage image = w.window.grab().toImage();
        EXPECT_EQ(image.size(), w.window.size());
        keepScreenshot(w.window, QStringLiteral("spec-form-%1x%2").arg(size.width()).arg(size.height()));
    }
}

TEST(SpecForm, RoutedAddressingIsEditedInTheForm)
{
    Window w("dgx-b300-spectrum4-2su");
    ASSERT_EQ(w.controller.spec().fabric, core::Fabric::RoCEv2);
    auto* routed = w.field<QCheckBox>("addressing");
    auto* range = w.field<QLineEdit>("addressing.fabric");
    ASSERT_NE(routed, nullptr);
    ASSERT_NE(range, nullptr);
    EXPECT_FALSE(routed->isChecked());
    EXPECT_FALSE(range->isEnabled());

    // Routed: the plan gets addresses from the default ranges.
    QSignalSpy ready(&w.controller, &app::PlanController::planReady);
    routed->setChecked(true);
    ASSERT_TRUE(test::waitForSignals(ready, 1));
    EXPECT_TRUE(w.controller.spec().addressingGiven);
    EXPECT_TRUE(range->isEnabled());
    EXPECT_EQ(w.controller.spec().addressing.fabric.toString(), "10.0.0.0/10");

    // A malformed range is marked on its field and not planned.
    QSignalSpy started(&w.controller, &app::PlanController::planningStarted);
    range->setText(QStringLiteral("10.0.0.0/33"));
    EXPECT_EQ(started.count(), 0);
    EXPECT_EQ(w.mark("addressing.fabric"), QStringLiteral("error"));
    EXPECT_FALSE(w.form.fieldProblem(QStringLiteral("addressing.fabric")).isEmpty());
    range->setText(QStringLiteral("100.64.0.0/12"));
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_EQ(w.controller.spec().addressing.fabric.toString(), "100.64.0.0/12");
    EXPECT_TRUE(w.mark("addressing.fabric").isEmpty());

    // A public AS number is refused by the spec's own rule, on the field.
    w.field<QLineEdit>("addressing.asn.base")->setText(QStringLiteral("3356"));
    EXPECT_EQ(w.mark("addressing.asn.base"), QStringLiteral("error"));
    EXPECT_NE(w.controller.spec().addressing.asn.base, 3356U);

    // Undo back to the unrouted plan.
    while (w.form.undoStack()->canUndo())
        w.form.undoStack()->undo();
    ASSERT_TRUE(waitForResult(w.controller));
    EXPECT_FALSE(w.controller.spec().addressingGiven);
    EXPECT_FALSE(routed->isChecked());
}
