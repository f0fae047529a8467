// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
//
// Telemetry ingest: the agents' /v1/counters documents of a large fabric parsed and aggregated
// per sweep (live/client/telemetry.h), as `live watch` and the Live workspace do. Prints the CPU
// time of one sweep, split into JSON parsing, the counter model and the aggregation, and the
// samples per second one core takes in.
//
//   railyard-bench-telemetry [--nodes 16384] [--sweeps 3]   (the roce-128k-gpu-400g example at that size)
//
// Target (issue #5): 16K nodes x 8 rails, about 2M samples per sweep, parsed and aggregated each
// second using under a quarter of one core.

#include "core/examples.h"
#include "core/plan_spec.h"
#include "live/client/telemetry.h"
#include "live/common/inventory_json.h"
#include "planner/planner.h"

#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace railyard;

namespace {

double cpuSeconds()
{
    rusage u {};
    ::getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

/// One node's counters as its agent reports them: per rail port the data, packet, wait and
/// error counters, the RoCE congestion hw_counters and the PFC pause statistics of the
/// lossless priority (16 samples a port).
live::CounterSnapshot snapshotOf(const std::string& node, int rails, std::int64_t ms, std::uint64_t step)
{
    live::CounterSnapshot s;
    s.node = node;
    s.timestampMs = ms;
    for (int r = 0; r < rails; ++r) {
        live::PortCounters p;
        p.device = "mlx5_" + std::to_string(r);
        p.rail = r;
        p.netdev = "ibp" + std::to_string(r);
        const std::uint64_t words = step * 12'500'000'000ull;
        p.counters["port_xmit_data"] = { words, live::CounterKind::Words4, 64, false };
        p.counters["port_rcv_data"] = { words, live::CounterKind::Words4, 64, false };
        p.counters["port_xmit_packets"] = { step * 12'000'000, live::CounterKind::Plain, 64, false };
        p.counters["port_rcv_packets"] = { step * 12'000'000, live::CounterKind::Plain, 64, false };
        p.counters["port_xmit_wait"] = { step * 1000, live::CounterKind::Saturating, 32, false };
        for (const char* e : { "symbol_error", "link_error_recovery", "link_downed", "port_rcv_errors", "port_xmit_discards" })
            p.counters[e] = { 0, live::CounterKind::Saturating, 16, false };
        for (const char* h : { "np_ecn_marked_roce_packets", "np_cnp_sent", "rp_cnp_handled", "out_of_sequence" })
            p.hwCounters[h] = { step * 10, live::CounterKind::Plain, 64, false };
        p.ethtool["rx_prio3_pause"] = step;
        p.ethtool["rx_prio3_pause_duration"] = step * 20;
        s.ports.push_back(std::move(p));
    }
    return s;
}

} // namespace

int main(int argc, char** argv)
{
    int nodes = 16384;
    int sweeps = 3;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--nodes" && i + 1 < argc)
            nodes = std::atoi(argv[++i]);
        else if (a == "--sweeps" && i + 1 < argc)
            sweeps = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: %s [--nodes N] [--sweeps N]\n", argv[0]);
            return 2;
        }
    }
    if (nodes < 2 || sweeps < 1) {
        std::fprintf(stderr, "--nodes must be at least 2 and --sweeps at least 1\n");
        return 2;
    }

    // The built-in 128K-GPU RoCEv2 example (16,384 nodes of 8 GPUs, 3 tiers), resized.
    const auto example = core::findExample("roce-128k-gpu-400g");
    auto catalog = core::Catalog::builtin();
    if (!catalog || !example)
        return 1;
    auto spec = core::parsePlanSpecText(example->content, example->path);
    if (!spec) {
        std::fprintf(stderr, "%s\n", spec.error().toString().c_str());
        return 1;
    }
    spec->gpus.reset();
    spec->nodes = nodes;
    auto plan = planner::makePlan(*spec, *catalog);
    if (!plan) {
        std::fprintf(stderr, "%s\n", plan.error().toString().c_str());
        return 1;
    }
    const int rails = plan->summary.rails;
    std::vector<std::string> names;
    for (const auto& d : plan->devices)
        if (d.kind == core::DeviceKind::Node)
            names.push_back(d.name);

    live::TelemetryAggregator aggregator(*plan);
    const std::size_t samplesPerPort = 16;
    const double samples = static_cast<double>(names.size()) * rails * samplesPerPort;
    std::printf("telemetry ingest: %zu nodes x %d rails, %.0f samples per sweep\n", names.size(), rails, samples);
    std::printf("%6s %10s %10s %10s %10s %14s %10s\n", "sweep", "json s", "model s", "aggr s", "total s", "samples/s/core",
        "core@1Hz");
    for (int sweep = 0; sweep <= sweeps; ++sweep) {
        // What the agents send: one JSON text per node (made outside the measured time).
        std::vector<std::string> bodies;
        bodies.reserve(names.size());
        for (const std::string& n : names)
            bodies.push_back(live::toJson(snapshotOf(n, rails, 1000 * sweep, static_cast<std::uint64_t>(sweep))).dump());
        double jsonS = 0, modelS = 0, aggrS = 0;
        for (const std::string& body : bodies) {
            const double t0 = cpuSeconds();
            const nlohmann::json doc = nlohmann::json::parse(body);
            const double t1 = cpuSeconds();
            auto snapshot = live::countersFromJson(doc, "bench");
            const double t2 = cpuSeconds();
            if (!snapshot) {
                std::fprintf(stderr, "%s\n", snapshot.error().toString().c_str());
                return 1;
            }
            aggregator.add(*snapshot);
            const double t3 = cpuSeconds();
            jsonS += t1 - t0;
            modelS += t2 - t1;
            aggrS += t3 - t2;
        }
        const double t4 = cpuSeconds();
        const live::Sweep s = aggregator.sweep();
        aggrS += cpuSeconds() - t4;
        if (sweep == 0)
            continue; // the first snapshots only set the baseline
        const double total = jsonS + modelS + aggrS;
        std::printf("%6d %10.3f %10.3f %10.3f %10.3f %14.0f %10.2f   (%zu ports, %zu leaves)\n", sweep, jsonS, modelS, aggrS, total,
            samples / total, total, s.ports.size(), s.leaves.size());
    }
    std::printf("target: under 0.25 core at one sweep per second\n");
    return 0;
}
