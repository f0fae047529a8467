// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/plan_controller.h"
#include "app/widgets/advisor_dialog.h"
#include "app/widgets/chart_adapter.h"
#include "app/widgets/compare_view.h"
#include "app/widgets/export_jobs.h"
#include "app/widgets/main_window.h"
#include "app/widgets/report_pdf.h"
#include "app/widgets/topology_view.h"
#include "core/examples.h"
#include "signal_wait.h"
#include "test_plans.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace railyard;

namespace {

std::shared_ptr<const core::Catalog> catalog()
{
    return test::builtinCatalog();
}

core::PlanSpec exampleSpec(const char* name)
{
    const auto example = core::findExample(name);
    EXPECT_TRUE(example.has_value()) << name;
    return example ? core::parsePlanSpecText(example->content, example->path).value() : core::PlanSpec {};
}

/// Sets `spec` on `controller` and waits (bounded) for its plan.
bool planSpec(app::PlanController& controller, const core::PlanSpec& spec)
{
    QSignalSpy ready(&controller, &app::PlanController::planReady);
    controller.setSpec(spec);
    return test::waitForSignals(ready, 1);
}

int rowOf(const QTableWidget& table, const QString& label)
{
    for (int r = 0; r < table.rowCount(); ++r) {
        if (table.verticalHeaderItem(r) && table.verticalHeaderItem(r)->text() == label)
            return r;
    }
    return -1;
}

/// Where a developer asked for the report and screenshots to be kept (RAILYARD_TEST_ARTIFACTS).
QString artifactPath(const QString& name)
{
    const QString dir = qEnvironmentVariable("RAILYARD_TEST_ARTIFACTS");
    return dir.isEmpty() ? QString() : QDir(dir).filePath(name);
}

} // namespace

TEST(ReportPdf, HasTheSummaryTopologyBomAndFindingsOnSeveralPages)
{
    app::MainWindow w(catalog());
    ASSERT_TRUE(planSpec(w.controller(), exampleSpec("dgx-h100-superpod-2su")));
    const QImage topology = app::topologyPicture(*w.topologyView());
    EXPECT_FALSE(topology.isNull());
    EXPECT_EQ(app::exportFormat(QStringLiteral("report-pdf")).suggestedName, QStringLiteral("report.pdf"));

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    const QString error = app::writeExport(*w.controller().plan(), catalog().get(), QStringLiteral("report-pdf"), path, topology);
    ASSERT_TRUE(error.isEmpty()) << error.toStdString();
    QFile file(path);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    const QByteArray pdf = file.readAll();
    EXPECT_TRUE(pdf.startsWith("%PDF"));
    const auto pages = QString::fromLatin1(pdf).count(QRegularExpression(QStringLiteral("/Type\\s*/Page(?!s)")));
    EXPECT_GT(pages, 1);
    EXPECT_FALSE(QFile::exists(path + QStringLiteral(".part")));
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files), QStringList { QStringLiteral("report.pdf") }); // no temp file left
    if (const QString keep = artifactPath(QStringLiteral("report.pdf")); !keep.isEmpty()) {
        QFile::remove(keep);
        QFile::copy(path, keep);
    }
}

// libxlsxwriter writes the file by name: into a temp file beside the target, renamed over it, so
// an old workbook is replaced whole and a failed export leaves nothing behind.
TEST(Export, XlsxReplacesTheOldFileWholeAndLeavesNoTempFile)
{
    app::MainWindow w(catalog());
    ASSERT_TRUE(planSpec(w.controller(), exampleSpec("dgx-h100-superpod-1su")));
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("fabric.xlsx"));
    {
        QFile old(path);
        ASSERT_TRUE(old.open(QIODevice::WriteOnly));
        old.write("an old workbook");
    }
    for (const QString& kind : { QStringLiteral("bom-xlsx"), QStringLiteral("cables-xlsx") }) {
        const QString error = app::writeExport(*w.controller().plan(), catalog().get(), kind, path);
        ASSERT_TRUE(error.isEmpty()) << kind.toStdString() << ": " << error.toStdString();
        QFile file(path);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        EXPECT_TRUE(file.readAll().startsWith("PK\x03\x04")) << kind.toStdString(); // a zip: the workbook
        EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden), QStringList { QStringLiteral("fabric.xlsx") });
    }
    const QString absent = dir.filePath(QStringLiteral("absent/fabric.xlsx"));
    const QString error = app::writeExport(*w.controller().plan(), catalog().get(), QStringLiteral("bom-xlsx"), absent);
    EXPECT_TRUE(error.contains(absent)) << error.toStdString();
    EXPECT_EQ(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot), QStringList { QStringLiteral("fabric.xlsx") });
}

TEST(CompareView, HighlightsCellsThatDifferFromTheFirstPin)
{
    app::PlanController controller(catalog());
    app::CompareView view(controller);
    EXPECT_FALSE(view.pinCurrent()); // nothing planned yet
    ASSERT_TRUE(planSpec(controller, exampleSpec("dgx-h100-superpod-2su")));
    ASSERT_TRUE(view.pinCurrent());
    EXPECT_FALSE(view.pinCurrent()); // the same plan twice
    ASSERT_TRUE(planSpec(controller, exampleSpec("dgx-h100-superpod-4su")));
    ASSERT_TRUE(view.pinCurrent());
    ASSERT_EQ(view.pinCount(), 2);

    const QTableWidget& table = *view.table();
    ASSERT_EQ(table.columnCount(), 2);
    const int nodes = rowOf(table, app::CompareView::tr("Nodes"));
    const int fabric = rowOf(table, app::CompareView::tr("Fabric"));
    const int tiers = rowOf(table, app::CompareView::tr("Tiers"));
    ASSERT_GE(nodes, 0);
    ASSERT_GE(fabric, 0);
    ASSERT_GE(tiers, 0);
    EXPECT_NE(table.item(nodes, 0)->text(), table.item(nodes, 1)->text());
    EXPECT_TRUE(view.differs(nodes, 1));
    EXPECT_FALSE(view.differs(nodes, 0)); // the first pin is the reference
    EXPECT_FALSE(view.differs(fabric, 1)); // both NDR InfiniBand
    EXPECT_FALSE(view.differs(tiers, 1));
    EXPECT_NE(table.item(nodes, 1)->background(), table.item(fabric, 1)->background());

    view.removePin(0);
    EXPECT_EQ(view.pinCount(), 1);
    EXPECT_FALSE(view.differs(nodes, 0));
}

TEST(CompareView, SweepSizesEndAtTheClusterSize)
{
    EXPECT_EQ(app::CompareView::sweepSizes(127, 32), (std::vector<int> { 32, 64, 96, 127 }));
    EXPECT_EQ(app::CompareView::sweepSizes(2048, 32), (std::vector<int> { 32, 64, 96, 192, 352, 640, 1120, 2048 }));
    EXPECT_EQ(app::CompareView::sweepSizes(16, 32), (std::vector<int> { 2, 4, 6, 8, 10, 12, 14, 16 }));
    EXPECT_TRUE(app::CompareView::sweepSizes(0, 32).empty());
    core::PlanSpec spec = exampleSpec("dgx-h100-superpod-4su");
    spec.gpus = 1016;
    spec.growToNodes = 255;
    const core::PlanSpec small = app::CompareView::resizedSpec(spec, 32);
    EXPECT_EQ(small.nodes, 32);
    EXPECT_FALSE(small.gpus.has_value());
    EXPECT_FALSE(small.growToNodes.has_value());
    EXPECT_EQ(small.leafSwitch, spec.leafSwitch);
}

TEST(CompareView, ChartGetsAPointPerClusterSizeOffTheGuiThread)
{
    app::PlanController controller(catalog());
    app::CompareView view(controller);
    view.resize(900, 700);
    view.show();
    QSignalSpy finished(&view, &app::CompareView::sweepFinished);
    ASSERT_TRUE(planSpec(controller, exampleSpec("dgx-h100-superpod-4su")));
    ASSERT_TRUE(test::waitForSignals(finished, 1, 60'000));
    const auto plan = controller.plan();
    const auto sizes = app::CompareView::sweepSizes(plan->summary.nodes, plan->summary.suSize);
    const QList<QPointF> switches = view.chart()->points(app::ChartAdapter::Left);
    const QList<QPointF> second = view.chart()->points(app::ChartAdapter::Right);
    ASSERT_EQ(switches.size(), static_cast<qsizetype>(sizes.size()));
    EXPECT_EQ(second.size(), switches.size());
    EXPECT_EQ(switches.back().x(), static_cast<double>(plan->summary.gpus));
    EXPECT_EQ(switches.back().y(), static_cast<double>(plan->summary.switches.total()));
    for (qsizetype i = 1; i < switches.size(); ++i) {
        EXPECT_GT(switches[i].x(), switches[i - 1].x());
        EXPECT_GE(switches[i].y(), switches[i - 1].y());
    }

    // A new spec cancels the sweep and the chart follows the new spec.
    finished.clear();
    ASSERT_TRUE(planSpec(controller, exampleSpec("dgx-h100-superpod-2su")));
    ASSERT_TRUE(test::waitForSignals(finished, 1, 60'000));
    EXPECT_EQ(view.chart()->points(app::ChartAdapter::Left).size(), 2);
}

TEST(CompareView, IsATabOfTheMainWindow)
{
    app::MainWindow w(catalog());
    w.resize(1400, 900);
    w.show();
    ASSERT_TRUE(w.showPage(QStringLiteral("compare")));
    auto* tabs = w.findChild<QTabWidget*>();
    ASSERT_NE(tabs, nullptr);
    const int compare = tabs->indexOf(w.compareView());
    ASSERT_GE(compare, 1);
    EXPECT_EQ(tabs->tabText(compare - 1), app::MainWindow::tr("Bill of materials"));
    ASSERT_TRUE(planSpec(w.controller(), exampleSpec("dgx-h100-superpod-4su")));
    ASSERT_TRUE(w.compareView()->pinCurrent());
    ASSERT_TRUE(planSpec(w.controller(), exampleSpec("dgx-b200-superpod-4su")));
    ASSERT_TRUE(w.compareView()->pinCurrent());
    ASSERT_TRUE(planSpec(w.controller(), exampleSpec("roce-lossless-demo")));
    ASSERT_TRUE(w.compareView()->pinCurrent());
    // The sweep of the last spec pinned ends with a point per cluster size (4 for this plan).
    EXPECT_TRUE(QTest::qWaitFor([&] { return w.compareView()->chart()->points(app::ChartAdapter::Left).size() >= 4; }, 60'000));
    EXPECT_EQ(w.compareView()->pinCount(), 3);
    if (const QString keep = artifactPath(QStringLiteral("compare.png")); !keep.isEmpty())
        w.grab().save(keep);
}

TEST(AdvisorDialog, RecommendsInfiniBandForALargeClusterAndApplies)
{
    app::MainWindow w(catalog());
    ASSERT_TRUE(planSpec(w.controller(), exampleSpec("roce-lossless-demo")));
    ASSERT_EQ(w.controller().spec().fabric, core::Fabric::RoCEv2);
    QAction* action = w.findChild<QAction*>(QStringLiteral("actionAdvisor"));
    ASSERT_NE(action, nullptr);
    action->trigger();
    auto* dialog = w.findChild<app::AdvisorDialog*>();
    ASSERT_NE(dialog, nullptr);
    EXPECT_EQ(dialog->gpuField()->value(), static_cast<int>(w.controller().plan()->summary.gpus));
    EXPECT_FALSE(dialog->ethernetOperations()->toolTip().isEmpty());

    dialog->gpuField()->setValue(16'384);
    dialog->ethernetOperations()->setChecked(false);
    dialog->losslessSkills()->setChecked(false);
    ASSERT_TRUE(dialog->advice().has_value());
    EXPECT_EQ(dialog->advice()->recommendation, core::Fabric::InfiniBand);
    EXPECT_TRUE(dialog->resultText().contains(QStringLiteral("InfiniBand"))) << dialog->resultText().toStdString();
    EXPECT_TRUE(dialog->resultText().contains(QStringLiteral("%"))); // the confidence
    if (const QString keep = artifactPath(QStringLiteral("advisor.png")); !keep.isEmpty()) {
        dialog->resize(720, 640);
        dialog->grab().save(keep);
    }

    // Live: an Ethernet team with lossless skills, sharing and budget pressure turns it around.
    dialog->ethernetOperations()->setChecked(true);
    dialog->losslessSkills()->setChecked(true);
    dialog->sharedWithEthernet()->setChecked(true);
    dialog->budgetPressure()->setChecked(true);
    dialog->vendorLockIn()->setChecked(true);
    EXPECT_EQ(dialog->advice()->recommendation, core::Fabric::RoCEv2);
    EXPECT_FALSE(dialog->applyButton()->isEnabled()); // already RoCEv2
    dialog->ethernetOperations()->setChecked(false);
    dialog->losslessSkills()->setChecked(false);
    dialog->sharedWithEthernet()->setChecked(false);
    dialog->budgetPressure()->setChecked(false);
    dialog->vendorLockIn()->setChecked(false);
    ASSERT_TRUE(dialog->applyButton()->isEnabled());

    QSignalSpy ready(&w.controller(), &app::PlanController::planReady);
    dialog->applyButton()->click();
    ASSERT_TRUE(test::waitForSignals(ready, 1));
    EXPECT_EQ(w.controller().spec().fabric, core::Fabric::InfiniBand);
    EXPECT_EQ(w.controller().spec().link.generation, core::IbGeneration::NDR);
    const auto plan = w.controller().plan();
    EXPECT_EQ(plan->spec.fabric, core::Fabric::InfiniBand);
    EXPECT_FALSE(plan->hasErrors());
}
