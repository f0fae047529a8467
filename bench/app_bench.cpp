// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
//
// Desktop responsiveness, offscreen:
//  - re-plan latency after an edit (the spec reaches the controller -> the new plan is on
//    the GUI thread), for the 4-SU DGX H100 example and for 128K GPUs;
//  - the longest GUI-thread stall while the 128K plan is made (event-loop latency);
//  - frame time of the topology view panning the 128K plan in the collapsed view.
// Targets (issue #3): 4-SU under 16 ms; 128K under 1 s with the UI responsive throughout.
//
//   railyard-bench-app [--repeat N]

#include "app/models/plan_controller.h"
#include "app/widgets/topology_view.h"
#include "core/examples.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QScrollBar>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace railyard;

namespace {

core::PlanSpec example(const char* name)
{
    const auto e = core::findExample(name);
    auto spec = core::parsePlanSpecText(e->content, e->path);
    return spec.value();
}

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

struct ReplanResult {
    double latencyMs = 0;
    double worstStallMs = 0;
};

/// Sets the spec, runs the event loop until the plan arrives; a 5 ms timer measures how late
/// the GUI thread gets to it (its stall).
ReplanResult replan(app::PlanController& controller, const core::PlanSpec& spec)
{
    ReplanResult r;
    QEventLoop loop;
    QObject::connect(&controller, &app::PlanController::planReady, &loop, &QEventLoop::quit);
    QObject::connect(&controller, &app::PlanController::planFailed, &loop, [&loop](const QStringList& errors) {
        std::fprintf(stderr, "plan failed: %s\n", qPrintable(errors.join(QLatin1Char('\n'))));
        loop.quit();
    });
    QElapsedTimer tick;
    QTimer probe;
    probe.setInterval(5);
    QObject::connect(&probe, &QTimer::timeout, &loop, [&] {
        r.worstStallMs = std::max(r.worstStallMs, static_cast<double>(tick.nsecsElapsed()) / 1e6 - 5.0);
        tick.restart();
    });
    QElapsedTimer clock;
    clock.start();
    tick.start();
    probe.start();
    controller.setSpec(spec);
    loop.exec();
    r.latencyMs = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    if (std::getenv("QT_QPA_PLATFORM") == nullptr)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    int repeat = 5;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--repeat") == 0)
            repeat = std::max(1, std::atoi(argv[i + 1]));
    }
    auto catalog = std::make_shared<const core::Catalog>(core::Catalog::builtin().value());
    app::PlanController controller(catalog);

    std::printf("%-28s %12s %12s %14s\n", "re-plan after an edit", "median ms", "worst ms", "GUI stall ms");
    for (const char* name : { "dgx-h100-superpod-4su", "roce-128k-gpu-400g" }) {
        core::PlanSpec spec = example(name);
        std::vector<double> latency, stall;
        for (int i = 0; i < repeat; ++i) {
            // An edit: one node less, then back.
            if (spec.gpus)
                *spec.gpus += (i % 2 == 0) ? -8 : 8;
            else
                spec.nodes += (i % 2 == 0) ? -1 : 1;
            const auto r = replan(controller, spec);
            latency.push_back(r.latencyMs);
            stall.push_back(r.worstStallMs);
        }
        std::printf("%-28s %12.1f %12.1f %14.1f\n", name, percentile(latency, 0.5), percentile(latency, 1.0), percentile(stall, 1.0));
    }

    // Panning the 128K plan, collapsed: render the viewport after each step.
    app::TopologyView view;
    view.resize(1600, 1000);
    view.setPlan(controller.plan());
    view.show();
    QApplication::processEvents();
    view.zoomIn();
    view.zoomIn();
    std::vector<double> frames;
    QElapsedTimer clock;
    for (int i = 0; i < 60; ++i) {
        clock.start();
        // As a drag does: move the scene under the viewport, then paint what changed.
        view.horizontalScrollBar()->setValue(view.horizontalScrollBar()->value() + 40);
        view.verticalScrollBar()->setValue(view.verticalScrollBar()->value() + 10);
        view.viewport()->repaint();
        frames.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
    }
    std::printf("\ntopology pan, 128K GPUs collapsed (%d items): frame p50 %.1f ms, p99 %.1f ms\n", view.itemCount(),
        percentile(frames, 0.5), percentile(frames, 0.99));
    return 0;
}
