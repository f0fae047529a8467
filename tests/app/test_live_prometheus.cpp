// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace reading a fabric through a real Prometheus server (Debian's `prometheus`),
// offscreen: the emulator serves an 8-node plan from agents in this process (a degraded link on
// node006 rail 3 from the start), Prometheus scrapes them from the file_sd targets the plan makes
// (`railyard-cli export file-sd`), and the workspace connected to the server's URL fills its grid:
// every node connected, every cell with rates, the degraded cell below its neighbours, the
// per-rail charts fed. Skipped, with the reason, only when the prometheus binary is not installed.
#include "app/models/live_session.h"
#include "app/widgets/live_grid.h"
#include "app/widgets/live_workspace.h"
#include "core/plan_spec.h"
#include "live/client/prometheus_file_sd.h"
#include "live/common/subprocess.h"
#include "live/sim/agent_farm.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "planner/planner.h"
#include "test_plans.h"
#include "tests/live/loopback_http.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <gtest/gtest.h>

#include <fstream>

using namespace railyard;

namespace {

std::shared_ptr<const core::Catalog> catalog()
{
    return test::builtinCatalog();
}

/// The Live workspace tests' fabric (test_plans.h).
std::shared_ptr<const core::Plan> plan()
{
    static auto p = test::planOfSpec(test::liveTestSpec("live prometheus test"));
    return p;
}

QString readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

TEST(LivePrometheus, WorkspaceConnectedToARealPrometheusFillsItsGrid)
{
    const std::string prometheus = live::findProgram("prometheus");
    if (prometheus.empty())
        GTEST_SKIP() << "the prometheus binary is not installed (Debian package prometheus; installer/install-deps.sh installs it)";

    QTemporaryDir dir(test::scratchPattern("live-prometheus"));
    ASSERT_TRUE(dir.isValid());
    auto faults = live::parseFaults(R"([ { "kind": "degraded", "node": "node006", "rail": 3, "width": 1 } ])", "faults.json", *plan());
    ASSERT_TRUE(faults) << faults.error().toString();
    live::EmulatorOptions options;
    options.root = dir.path().toStdString();
    auto emulator = live::FabricEmulator::create(*plan(), *catalog(), *faults, options);
    ASSERT_TRUE(emulator) << emulator.error().toString();
    ASSERT_TRUE((*emulator)->writeTree());
    live::AgentFarm farm;
    live::FarmOptions farmOptions;
    farmOptions.token = "prometheus-test-token";
    const core::Status started = farm.start((*emulator)->nodes(), farmOptions);
    ASSERT_TRUE(started) << started.error().toString();

    // The scrape targets as `railyard-cli export file-sd` writes them: one per node and rail.
    std::vector<live::AgentEndpoint> agents;
    for (const live::AgentListing& l : farm.listings())
        agents.push_back({ l.node, l.url });
    auto targets = live::prometheusFileSd(*plan(), &agents, 0);
    ASSERT_TRUE(targets) << targets.error().toString();
    const std::string root = dir.path().toStdString();
    std::ofstream(root + "/targets.json") << targets->dump(2);
    // (/metrics needs no token.)
    std::ofstream(root + "/prometheus.yml") << "global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n"
                                               "scrape_configs:\n  - job_name: railyard\n    honor_labels: true\n"
                                               "    file_sd_configs:\n      - files: [ \"" + root + "/targets.json\" ]\n        refresh_interval: 1s\n";
    const int port = live::test::unusedLoopbackPort();
    live::SpawnOptions spawn;
    spawn.log = root + "/prometheus.log";
    live::ChildProcess server({ prometheus, "--config.file=" + root + "/prometheus.yml", "--storage.tsdb.path=" + root + "/tsdb",
                                  "--web.listen-address=127.0.0.1:" + std::to_string(port), "--log.level=warn" },
        spawn);
    ASSERT_TRUE(server.started()) << server.error();

    // The emulator's all-reduce traffic moves the counters between scrapes.
    QTimer traffic;
    QObject::connect(&traffic, &QTimer::timeout, [&] { (void)(*emulator)->update(0.25); });
    traffic.start(250);

    app::LiveWorkspace ws;
    ws.resize(1280, 800);
    ws.show();
    ws.setPlan(plan(), catalog());
    QStringList failures;
    QObject::connect(&ws.session(), &app::LiveSession::failed, &ws, [&](const QString& m) { failures << m; });
    const QString url = QStringLiteral("http://127.0.0.1:%1").arg(port);
    ASSERT_TRUE(ws.session().connectPrometheus(url, false, QStringLiteral(R"(job="railyard")")))
        << failures.join(QLatin1Char('\n')).toStdString();
    EXPECT_TRUE(ws.session().sourceName().contains(url)) << ws.session().sourceName().toStdString();

    // Filled in: every node connected with every rail's rates (Prometheus needs two scrapes of a
    // target within the rate window before it has a rate of it).
    auto filled = [&] {
        const auto f = ws.session().frame();
        if (!f || f->nodes.size() != 8)
            return false;
        for (std::size_t n = 0; n < f->nodes.size(); ++n) {
            if (f->nodes[n].link != app::NodeLink::Connected)
                return false;
            for (int r = 0; r < f->rails; ++r)
                if (!f->cell(n, r).present || f->cell(n, r).txGbps <= 0)
                    return false;
        }
        return true;
    };
    ASSERT_TRUE(QTest::qWaitFor(filled, 90'000)) << "the grid did not fill in from Prometheus: " << failures.join(QLatin1Char('\n')).toStdString()
                                                 << "\nits log: " << readAll(QString::fromStdString(root + "/prometheus.log")).toStdString();
    EXPECT_TRUE(failures.isEmpty()) << failures.join(QLatin1Char('\n')).toStdString();
    const app::LiveFrame& f = *ws.session().frame();
    EXPECT_EQ(f.rails, 8);
    for (std::size_t n = 0; n < f.nodes.size(); ++n)
        EXPECT_EQ(f.nodes[n].node, "node00" + std::to_string(n + 1)); // plan order
    // node006 rail 3 runs at 1x of 4x: below the same rail of its SU neighbour and its own rail 2.
    const std::size_t degraded = 5, neighbour = 4;
    EXPECT_LT(f.cell(degraded, 3).txGbps, 0.5F * f.cell(neighbour, 3).txGbps);
    EXPECT_LT(f.cell(degraded, 3).txGbps, 0.5F * f.cell(degraded, 2).txGbps);
    EXPECT_NE(ws.grid()->cellColour(static_cast<int>(degraded), 3), ws.grid()->cellColour(static_cast<int>(neighbour), 3));
    // The per-rail charts' series are fed from the same frames.
    ASSERT_EQ(ws.session().series().size(), 8u);
    for (const auto& rail : ws.session().series())
        EXPECT_FALSE(rail.empty());
    ws.session().disconnectFabric();
}
