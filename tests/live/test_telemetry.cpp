// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Telemetry: counter arithmetic (units, reset, saturation, wrap), rates, per-rail and per-leaf
// aggregates and verdicts; and end to end on the emulator: a congested uplink shows on its leaf.
#include "live/client/telemetry.h"

#include "core/plan_spec.h"
#include "live/client/agent_client.h"
#include "live/common/inventory_json.h"
#include "live/sim/agent_farm.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "planner/planner.h"
#include "tests/live/temp_dir.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <thread>

namespace railyard::live {
namespace {

    Counter plain(std::uint64_t v) { return { v, CounterKind::Plain, 64, false }; }
    Counter words(std::uint64_t v) { return { v, CounterKind::Words4, 64, false }; }
    Counter pma(std::uint64_t v, int bits)
    {
        return { v, CounterKind::Saturating, bits, v >= (std::uint64_t { 1 } << bits) - 1 };
    }
    Counter hw32(std::uint64_t v) { return { v, CounterKind::Wrapping32, 32, false }; }

    PortCounters port(const std::string& device, int rail, std::uint64_t xmitWords, std::uint64_t wait)
    {
        PortCounters p;
        p.device = device;
        p.rail = rail;
        p.counters["port_xmit_data"] = words(xmitWords);
        p.counters["port_rcv_data"] = words(xmitWords / 2);
        p.counters["port_xmit_wait"] = pma(wait, 32);
        p.counters["symbol_error"] = pma(0, 16);
        return p;
    }

    const GroupRates* group(const std::vector<GroupRates>& groups, const std::string& name)
    {
        for (const GroupRates& g : groups)
            if (g.name == name)
                return &g;
        return nullptr;
    }

} // namespace

TEST(Telemetry, CounterDeltaRules)
{
    std::string note;
    EXPECT_EQ(counterDelta(plain(100), plain(350)), 250u);
    EXPECT_FALSE(counterDelta(plain(500), plain(20), &note));
    EXPECT_NE(note.find("reset"), std::string::npos) << note;
    EXPECT_EQ(counterDelta(words(10), words(30)), 20u); // words, the caller multiplies by 4
    EXPECT_EQ(counterDelta(pma(3, 16), pma(7, 16)), 4u);
    note.clear();
    EXPECT_FALSE(counterDelta(pma(65000, 16), pma(65535, 16), &note)); // reached its maximum: never a wrap
    EXPECT_NE(note.find("reset needed"), std::string::npos) << note;
    EXPECT_FALSE(counterDelta(pma(65535, 16), pma(65535, 16)));
    EXPECT_EQ(counterDelta(hw32(0xfffffff0u), hw32(0x10)), 0x20u); // 32-bit hw_counters wrap
}

TEST(Telemetry, PortRatesInGbpsAndPerSecond)
{
    CounterSnapshot a { "node001", 1'000'000, { port("mlx5_0", 0, 0, 1000) } };
    CounterSnapshot b { "node001", 1'002'000, { port("mlx5_0", 0, 25'000'000'000ull, 5000) } };
    a.ports[0].hwCounters["np_ecn_marked_roce_packets"] = plain(10);
    b.ports[0].hwCounters["np_ecn_marked_roce_packets"] = plain(4010);
    a.ports[0].ethtool["rx_prio3_pause"] = 100;
    b.ports[0].ethtool["rx_prio3_pause"] = 700;
    a.ports[0].ethtool["rx_prio3_pause_duration"] = 0;
    b.ports[0].ethtool["rx_prio3_pause_duration"] = 20000;
    b.ports[0].counters["symbol_error"] = pma(3, 16);
    const auto rates = portRates(a, b);
    ASSERT_EQ(rates.size(), 1u);
    const PortRates& r = rates[0];
    EXPECT_DOUBLE_EQ(r.seconds, 2.0);
    ASSERT_TRUE(r.txGbps && r.rxGbps && r.xmitWaitPerS);
    EXPECT_DOUBLE_EQ(*r.txGbps, 25e9 * 4 * 8 / 2 / 1e9); // 400 Gb/s
    EXPECT_DOUBLE_EQ(*r.rxGbps, 200.0);
    EXPECT_DOUBLE_EQ(*r.xmitWaitPerS, 2000.0);
    EXPECT_DOUBLE_EQ(r.ecnMarkedPerS, 2000.0);
    EXPECT_DOUBLE_EQ(r.pfcPausePerS, 300.0);
    EXPECT_DOUBLE_EQ(r.pfcPauseUsPerS, 10000.0);
    EXPECT_EQ(r.linkErrors, 3u);
    EXPECT_TRUE(r.notes.empty());

    // A reset data counter gives no rate, and says so.
    CounterSnapshot c { "node001", 1'003'000, { port("mlx5_0", 0, 5, 6000) } };
    const auto reset = portRates(b, c);
    ASSERT_EQ(reset.size(), 1u);
    EXPECT_FALSE(reset[0].txGbps);
    ASSERT_FALSE(reset[0].notes.empty());
    EXPECT_NE(reset[0].notes[0].find("port_xmit_data went down"), std::string::npos) << reset[0].notes[0];
    EXPECT_TRUE(portRates(c, b).empty()); // time went backwards: no interval
}

TEST(Telemetry, XmitWaitAgainstTheRailBaselineFlagsTheLeaf)
{
    // Two SUs of 4 nodes, rail 2 of SU 1 waits 50 times more than the others.
    const auto fabric = simtest::planOf(simtest::kIbSpec);
    TelemetryAggregator agg(fabric.plan);
    for (int step = 0; step < 3; ++step) {
        for (int n = 1; n <= 8; ++n) {
            const std::string node = "node00" + std::to_string(n);
            CounterSnapshot s { node, 1000 * step, {} };
            for (int rail = 0; rail < 8; ++rail) {
                const bool su1rail2 = n <= 4 && rail == 2;
                const std::uint64_t wait = static_cast<std::uint64_t>(step) * (su1rail2 ? 5'000'000 : 100'000);
                s.ports.push_back(port("mlx5_" + std::to_string(rail), rail, static_cast<std::uint64_t>(step) * 10'000'000'000ull, wait));
            }
            agg.add(s);
        }
        const Sweep sweep = agg.sweep();
        if (step == 0) {
            EXPECT_TRUE(sweep.ports.empty()); // first snapshots only set the baseline
            continue;
        }
        EXPECT_EQ(sweep.ports.size(), 64u);
        ASSERT_EQ(sweep.rails.size(), 8u);
        const GroupRates* congested = group(sweep.leaves, "su1-rail2-leaf");
        ASSERT_TRUE(congested);
        EXPECT_EQ(congested->health, Health::Congested) << congested->reason;
        EXPECT_NE(congested->reason.find("XmitWait"), std::string::npos);
        EXPECT_EQ(congested->ports, 4);
        EXPECT_NEAR(congested->txGbps, 4 * 320.0, 1e-6);
        const GroupRates* other = group(sweep.leaves, "su2-rail2-leaf");
        ASSERT_TRUE(other);
        EXPECT_EQ(other->health, Health::Healthy) << other->reason;
        EXPECT_EQ(group(sweep.rails, "rail 2")->health, Health::Congested);
        EXPECT_EQ(group(sweep.rails, "rail 5")->health, Health::Healthy);
        EXPECT_EQ(sweep.leaves.size(), 16u);
        EXPECT_EQ(toJson(sweep)["leaves"].size(), 16u);
    }
}

TEST(Telemetry, ErrorsThenPausesThenEcnThresholds)
{
    const auto fabric = simtest::planOf(simtest::kRoceSpec);
    CongestionThresholds t;
    t.pausePerS = 50;
    TelemetryAggregator agg(fabric.plan, t);
    for (int step = 0; step < 2; ++step) {
        for (int n = 1; n <= 8; ++n) {
            const std::string node = "node00" + std::to_string(n);
            CounterSnapshot s { node, 1000 * step, {} };
            for (int rail = 0; rail < 8; ++rail) {
                PortCounters p = port("mlx5_" + std::to_string(rail), rail, static_cast<std::uint64_t>(step) * 1000, 0);
                p.counters.erase("port_xmit_wait"); // RoCE
                p.ethtool["rx_prio3_pause"] = (n == 3 && rail == 1) ? step * 60u : 0;
                p.hwCounters["np_ecn_marked_roce_packets"] = plain((n == 6 && rail == 4) ? step * 5000u : 0);
                p.counters["symbol_error"] = pma((n == 8 && rail == 7) ? step * 2u : 0, 16);
                s.ports.push_back(p);
            }
            agg.add(s);
        }
    }
    const Sweep sweep = agg.sweep();
    EXPECT_EQ(group(sweep.rails, "rail 1")->health, Health::Pausing) << group(sweep.rails, "rail 1")->reason;
    EXPECT_NE(group(sweep.rails, "rail 1")->reason.find("node003"), std::string::npos);
    EXPECT_EQ(group(sweep.rails, "rail 4")->health, Health::Congested);
    EXPECT_NE(group(sweep.rails, "rail 4")->reason.find("ECN"), std::string::npos);
    EXPECT_EQ(group(sweep.rails, "rail 7")->health, Health::Erroring);
    EXPECT_EQ(group(sweep.rails, "rail 0")->health, Health::Healthy);
    EXPECT_EQ(group(sweep.leaves, "su2-rail7-leaf")->health, Health::Erroring);
    EXPECT_EQ(group(sweep.leaves, "su1-rail7-leaf")->health, Health::Healthy);
}

// The emulator with a congested uplink on su1-rail2-leaf under all-reduce traffic: the agents'
// counters, read twice over HTTP, show su1-rail2-leaf congested and its peers healthy.
TEST(Telemetry, WatchSummaryKeepsEachGroupAtItsWorstAndFullestSweep)
{
    // A loaded machine: the first sweep has rates for 16 of a leaf's ports (the other agents'
    // answers came in the next round), the second for 29. Of equal verdicts the summary keeps the
    // sweep that covered more; a worse verdict wins whatever it covered.
    auto sweepOf = [](Health health, int ports, double tx) {
        Sweep s;
        GroupRates leaf;
        leaf.name = "su1-rail0-leaf";
        leaf.rail = 0;
        leaf.ports = ports;
        leaf.txGbps = tx;
        leaf.health = health;
        leaf.reason = std::to_string(ports) + " ports";
        s.leaves.push_back(leaf);
        return s;
    };
    SweepSummarizer summarizer;
    summarizer.add(sweepOf(Health::Healthy, 16, 10));
    summarizer.add(sweepOf(Health::Healthy, 29, 20));
    summarizer.add(sweepOf(Health::Unknown, 0, 0)); // no rates at all: not in the mean
    WatchSummary calm = summarizer.summary();
    ASSERT_EQ(calm.leaves.size(), 1u);
    EXPECT_EQ(calm.leaves[0].health, Health::Healthy);
    EXPECT_EQ(calm.leaves[0].ports, 29);
    EXPECT_EQ(calm.leaves[0].reason, "29 ports");
    EXPECT_DOUBLE_EQ(calm.leaves[0].txGbps, 15);
    EXPECT_TRUE(calm.findings.empty());

    summarizer.add(sweepOf(Health::Congested, 20, 30));
    summarizer.add(sweepOf(Health::Healthy, 31, 20));
    WatchSummary busy = summarizer.summary();
    ASSERT_EQ(busy.leaves.size(), 1u);
    EXPECT_EQ(busy.leaves[0].health, Health::Congested);
    EXPECT_EQ(busy.leaves[0].ports, 20);
    EXPECT_DOUBLE_EQ(busy.leaves[0].txGbps, 20);
    ASSERT_EQ(busy.findings.size(), 1u);
    EXPECT_EQ(busy.findings[0].code, "CONGESTION_CONGESTED");
    EXPECT_EQ(busy.findings[0].where, "su1-rail0-leaf");
}

TEST(Telemetry, EmulatedCongestedUplinkShowsOnItsLeaf)
{
    for (const char* spec : { simtest::kIbSpec, simtest::kRoceSpec }) {
        const auto fabric = simtest::planOf(spec);
        test::TempDir root("telemetry");
        auto faults = parseFaults(R"([{ "kind": "congested", "switch": "su1-rail2-leaf", "uplinks": 4, "factor": 0.5 }])",
            "faults.json", fabric.plan);
        ASSERT_TRUE(faults) << faults.error().toString();
        EmulatorOptions options;
        options.root = root.path();
        options.traffic = TrafficKind::AllReduce;
        auto emulator = FabricEmulator::create(fabric.plan, fabric.catalog, *faults, options);
        ASSERT_TRUE(emulator) << emulator.error().toString();
        ASSERT_TRUE((*emulator)->writeTree());
        AgentFarm farm;
        FarmOptions farmOptions;
        farmOptions.token = "telemetry-token";
        ASSERT_TRUE(farm.start((*emulator)->nodes(), farmOptions));
        std::vector<AgentEndpoint> agents;
        for (const AgentListing& l : farm.listings())
            agents.push_back({ l.node, l.url });
        FetchOptions fetch;
        fetch.token = "telemetry-token";
        fetch.deadline = std::chrono::milliseconds(10000);

        TelemetryAggregator agg(fabric.plan);
        for (int sweepNo = 0; sweepNo < 2; ++sweepNo) {
            if (sweepNo > 0) {
                std::this_thread::sleep_for(std::chrono::milliseconds(1000));
                ASSERT_TRUE((*emulator)->update(1.0));
            }
            for (const AgentReply& reply : fetchAll(agents, "/v1/counters", fetch)) {
                ASSERT_FALSE(reply.error) << reply.error->toString();
                auto snapshot = countersFromJson(nlohmann::json::parse(reply.body), reply.agent.url);
                ASSERT_TRUE(snapshot) << snapshot.error().toString();
                agg.add(*snapshot);
            }
        }
        const Sweep sweep = agg.sweep();
        const GroupRates* hot = group(sweep.leaves, "su1-rail2-leaf");
        ASSERT_TRUE(hot) << spec;
        EXPECT_NE(hot->health, Health::Healthy) << spec << ": " << hot->reason;
        EXPECT_NE(hot->health, Health::Erroring) << spec << ": " << hot->reason;
        for (const GroupRates& leaf : sweep.leaves) {
            if (leaf.name != "su1-rail2-leaf") {
                EXPECT_EQ(leaf.health, Health::Healthy) << spec << " " << leaf.name << ": " << leaf.reason;
            }
        }
        // Traffic flows: every leaf's ports carry data.
        for (const GroupRates& leaf : sweep.leaves)
            EXPECT_GT(leaf.txGbps, 1.0) << leaf.name;
    }
}

} // namespace railyard::live
