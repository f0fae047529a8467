// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/plan_controller.h"
#include "app/widgets/main_window.h"
#include "app/widgets/spec_form.h"
#include "app/widgets/summary_view.h"
#include "app/widgets/table_page.h"
#include "signal_wait.h"
#include "test_plans.h"

#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace railyard;

namespace {

std::shared_ptr<const core::Catalog> catalog()
{
    return test::builtinCatalog();
}

/// Waits for the plan that is being made to arrive.
void waitForPlan(app::MainWindow& w)
{
    QSignalSpy ready(&w.controller(), &app::PlanController::planReady);
    if (w.controller().isPlanning()) {
        ASSERT_TRUE(test::waitForSignals(ready, 1));
    }
}

} // namespace

TEST(MainWindow, OpensOnAnExampleWithItsSummary)
{
    app::MainWindow w(catalog());
    ASSERT_TRUE(w.loadExample(QStringLiteral("dgx-h100-superpod-4su")));
    waitForPlan(w);
    ASSERT_TRUE(w.controller().plan());
    const QString text = w.summaryView()->text();
    EXPECT_TRUE(text.contains(QStringLiteral("1,016"))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("203.2 Tb/s"))) << text.toStdString();
    EXPECT_EQ(w.bomPage()->view()->model()->rowCount(), static_cast<int>(w.controller().plan()->bom.size()));
    EXPECT_EQ(w.cablesPage()->view()->model()->rowCount(), 2044);
}

TEST(MainWindow, EditingAFieldReplans)
{
    app::MainWindow w(catalog());
    ASSERT_TRUE(w.loadExample(QStringLiteral("dgx-h100-superpod-4su")));
    waitForPlan(w);
    auto* nodes = qobject_cast<QSpinBox*>(w.specForm()->fieldWidget(QStringLiteral("nodes")));
    ASSERT_NE(nodes, nullptr);
    QSignalSpy ready(&w.controller(), &app::PlanController::planReady);
    nodes->setValue(63);
    ASSERT_TRUE(test::waitForSignals(ready, 1));
    EXPECT_EQ(w.controller().plan()->summary.switches.spine, 8);
    EXPECT_TRUE(w.summaryView()->text().contains(QStringLiteral("504")));
}

TEST(MainWindow, SearchFiltersTheCableMap)
{
    app::MainWindow w(catalog());
    ASSERT_TRUE(w.loadExample(QStringLiteral("dgx-h100-superpod-1su")));
    waitForPlan(w);
    w.cablesPage()->setSearch(QStringLiteral("node007/"));
    EXPECT_EQ(w.cablesPage()->view()->model()->rowCount(), 8);
}

TEST(MainWindow, ScreenshotOfEveryPage)
{
    app::MainWindow w(catalog());
    ASSERT_TRUE(w.loadExample(QStringLiteral("dgx-h100-superpod-4su")));
    waitForPlan(w);
    for (const char* page : { "summary", "topology", "findings", "switches", "cables", "bom" }) {
        ASSERT_TRUE(w.showPage(QString::fromLatin1(page)));
        const QImage image = w.grab().toImage();
        EXPECT_EQ(image.size(), w.size());
    }
    EXPECT_FALSE(w.showPage(QStringLiteral("nonsense")));
}

TEST(MainWindow, UiStateIsRestoredAndAnotherVersionIsIgnored)
{
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString file = dir.filePath(QStringLiteral("ui-state.ini"));
    QList<int> sizes;
    {
        app::MainWindow w(catalog());
        w.resize(1200, 800);
        w.show();
        ASSERT_TRUE(w.showPage(QStringLiteral("cables")));
        auto* split = w.findChild<QSplitter*>(QStringLiteral("mainSplit"));
        ASSERT_NE(split, nullptr);
        split->setSizes({ 500, 700 });
        sizes = split->sizes();
        QSettings state(file, QSettings::IniFormat);
        w.saveUiState(state);
    }
    {
        app::MainWindow w(catalog());
        QSettings state(file, QSettings::IniFormat);
        ASSERT_TRUE(w.restoreUiState(state));
        w.show();
        EXPECT_EQ(w.cablesPage()->isVisibleTo(&w), true);
        EXPECT_EQ(w.findChild<QSplitter*>(QStringLiteral("mainSplit"))->sizes(), sizes);
        EXPECT_EQ(w.size(), QSize(1200, 800));
    }
    {
        QSettings state(file, QSettings::IniFormat);
        state.setValue(QStringLiteral("mainWindow/version"), app::MainWindow::kUiStateVersion + 1);
    }
    app::MainWindow w(catalog());
    QSettings state(file, QSettings::IniFormat);
    EXPECT_FALSE(w.restoreUiState(state));
    EXPECT_FALSE(w.cablesPage()->isVisibleTo(&w));
}
