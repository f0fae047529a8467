// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
//
// Telemetry ingest: the agents' counter answers of a large fabric parsed and aggregated per
// sweep (live/client/telemetry.h), as `live watch` and the Live workspace do, both ways an agent
// answers: the JSON `/v1/counters` (nlohmann-json DOM, countersFromJson, TelemetryAggregator::add)
// and the compact text `/v1/counters?format=compact` (counters_compact.h, addCompact). Prints the
// CPU time of one sweep, split into reading and aggregation, the samples per second one core takes
// in and the core-seconds a sweep costs, and checks that both paths give the same sweep.
//
//   railyard-bench-telemetry [--nodes 16384] [--sweeps 3]   (the roce-128k-gpu-400g example at that size)
//
// Target (issue #5): 16K nodes x 8 rails, about 2M samples per sweep, parsed and aggregated each
// second using under a quarter of one core. Exit status 0 when the compact path meets it, 3 when
// not, 1 when the two paths disagree or something failed.

#include "core/examples.h"
#include "core/plan_spec.h"
#include "live/client/telemetry.h"
#include "live/common/counters_compact.h"
#include "live/common/inventory_json.h"
#include "planner/planner.h"

#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <algorithm>
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

    live::TelemetryAggregator jsonAggregator(*plan);
    live::TelemetryAggregator compactAggregator(*plan);
    const std::size_t samplesPerPort = 16;
    const double samples = static_cast<double>(names.size()) * rails * samplesPerPort;
    constexpr double kTargetCore = 0.25;
    std::printf("telemetry ingest: %zu nodes x %d rails, %.0f samples per sweep\n", names.size(), rails, samples);
    std::printf("%-8s %6s %10s %10s %10s %10s %14s %10s\n", "path", "sweep", "read s", "rates s", "aggr s", "total s",
        "samples/s/core", "core@1Hz");
    // Sweep 1 also fills the aggregator's tables (each node's buffers, the ports' XmitWait
    // floors); from sweep 2 on, ingest runs at its steady cost, which is what a 1 s interval pays.
    double worstJson = 0, worstCompact = 0, firstJson = 0, firstCompact = 0;
    for (int sweep = 0; sweep <= sweeps; ++sweep) {
        // What the agents send: one text per node in each format (made outside the measured time).
        std::vector<std::string> json, compact;
        json.reserve(names.size());
        compact.reserve(names.size());
        for (const std::string& n : names) {
            const live::CounterSnapshot snap = snapshotOf(n, rails, 1000 * sweep, static_cast<std::uint64_t>(sweep));
            json.push_back(live::toJson(snap).dump());
            auto text = live::toCompactText(snap);
            if (!text) {
                std::fprintf(stderr, "%s\n", text.error().toString().c_str());
                return 1;
            }
            compact.push_back(std::move(*text));
        }

        // JSON: DOM parse, the counter model (CounterSnapshot), rates, then the sweep.
        double jsonS = 0, modelS = 0, ratesS = 0;
        for (const std::string& body : json) {
            const double t0 = cpuSeconds();
            const nlohmann::json doc = nlohmann::json::parse(body);
            const double t1 = cpuSeconds();
            auto snapshot = live::countersFromJson(doc, "bench");
            const double t2 = cpuSeconds();
            if (!snapshot) {
                std::fprintf(stderr, "%s\n", snapshot.error().toString().c_str());
                return 1;
            }
            jsonAggregator.add(*snapshot);
            const double t3 = cpuSeconds();
            jsonS += t1 - t0;
            modelS += t2 - t1;
            ratesS += t3 - t2;
        }
        double t4 = cpuSeconds();
        const live::Sweep js = jsonAggregator.sweep();
        const double jsonAggrS = cpuSeconds() - t4;

        // Compact: read and rates in one pass per node (no per-sample clock: it would cost more
        // than the sample), then the same sweep.
        t4 = cpuSeconds();
        for (std::size_t i = 0; i < compact.size(); ++i)
            if (core::Status ok = compactAggregator.addCompact(compact[i], "bench", names[i]); !ok) {
                std::fprintf(stderr, "%s\n", ok.errors().front().toString().c_str());
                return 1;
            }
        const double compactReadS = cpuSeconds() - t4;
        t4 = cpuSeconds();
        const live::Sweep cs = compactAggregator.sweep();
        const double compactAggrS = cpuSeconds() - t4;
        if (sweep == 0)
            continue; // the first snapshots only set the baseline

        // Both paths must see the same fabric, or the comparison means nothing.
        if (js.ports.size() != cs.ports.size() || js.rails.size() != cs.rails.size() || js.leaves.size() != cs.leaves.size()) {
            std::fprintf(stderr, "the JSON and compact paths disagree: %zu/%zu ports, %zu/%zu rails, %zu/%zu leaves\n", js.ports.size(),
                cs.ports.size(), js.rails.size(), cs.rails.size(), js.leaves.size(), cs.leaves.size());
            return 1;
        }
        for (std::size_t r = 0; r < js.rails.size(); ++r)
            if (js.rails[r].txGbps != cs.rails[r].txGbps || js.rails[r].health != cs.rails[r].health) {
                std::fprintf(stderr, "the JSON and compact paths disagree on %s\n", js.rails[r].name.c_str());
                return 1;
            }
        const double jsonTotal = jsonS + modelS + ratesS + jsonAggrS;
        const double compactTotal = compactReadS + compactAggrS;
        if (sweep == 1) {
            firstJson = jsonTotal;
            firstCompact = compactTotal;
        } else {
            worstJson = std::max(worstJson, jsonTotal);
            worstCompact = std::max(worstCompact, compactTotal);
        }
        std::printf("%-8s %6d %10.3f %10.3f %10.3f %10.3f %14.0f %10.3f   (JSON parse %.3f s, model %.3f s)\n", "json", sweep,
            jsonS + modelS, ratesS, jsonAggrS, jsonTotal, samples / jsonTotal, jsonTotal, jsonS, modelS);
        std::printf("%-8s %6d %10.3f %10s %10.3f %10.3f %14.0f %10.3f   (%zu ports, %zu leaves)\n", "compact", sweep, compactReadS,
            "(in read)", compactAggrS, compactTotal, samples / compactTotal, compactTotal, cs.ports.size(), cs.leaves.size());
    }
    if (sweeps == 1) {
        worstJson = firstJson;
        worstCompact = firstCompact;
    }
    const char* which = sweeps == 1 ? "sweep 1" : "worst of sweeps 2..";
    const bool met = worstCompact < kTargetCore;
    std::printf("target: under %.2f core at one sweep per second (%.0f samples/s/core)\n", kTargetCore, samples / kTargetCore);
    std::printf("json:    %.3f core-s per sweep (%s), %.0f samples/s/core: %s; first sweep %.3f core-s\n", worstJson, which,
        samples / worstJson, worstJson < kTargetCore ? "met" : "not met", firstJson);
    std::printf("compact: %.3f core-s per sweep (%s), %.0f samples/s/core: %s (%.1f times the JSON path); first sweep %.3f core-s\n",
        worstCompact, which, samples / worstCompact, met ? "met" : "not met", worstJson / worstCompact, firstCompact);
    return met ? 0 : 3;
}
