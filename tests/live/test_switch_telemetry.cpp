// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Switch-side telemetry: the emulator's switch port counters (what ibsim's PMAs report under
// railyard-sim --ibsim), and their rates and verdicts per switch (live/client/switch_telemetry.h).
#include "live/client/switch_telemetry.h"
#include "live/common/sysfs_counters.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "live/sim/ibsim_runner.h"
#include "planner/exporters.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>

namespace railyard::live {
namespace {

    using simtest::kIbSpec;
    using simtest::planOf;

    std::vector<SwitchRates> worstOf(const std::vector<SwitchRates>& sweep)
    {
        std::vector<SwitchRates> worst;
        keepWorstSwitches(worst, sweep);
        return worst;
    }

    SwitchRates switchAt(const std::string& name, Health health, const std::string& reason)
    {
        SwitchRates s;
        s.name = name;
        s.health = health;
        s.reason = reason;
        return s;
    }

    std::uint32_t deviceNamed(const core::Plan& plan, const std::string& name)
    {
        for (std::uint32_t d = 0; d < plan.devices.size(); ++d)
            if (plan.devices[d].name == name)
                return d;
        ADD_FAILURE() << "no device " << name;
        return 0;
    }

    /// A switch's PMA snapshot as ib_perf.cpp builds it.
    CounterSnapshot pmaSnapshot(const std::string& name, std::int64_t ms, const std::map<int, std::array<std::uint64_t, 3>>& ports)
    {
        CounterSnapshot s;
        s.node = name;
        s.timestampMs = ms;
        for (const auto& [port, v] : ports) {
            PortCounters pc;
            pc.device = name;
            pc.port = port;
            pc.counters["port_xmit_data"] = sysfs::portCounter("port_xmit_data", v[0]);
            pc.counters["port_rcv_data"] = sysfs::portCounter("port_rcv_data", v[1]);
            pc.counters["port_xmit_wait"] = sysfs::portCounter("port_xmit_wait", v[2]);
            pc.counters["symbol_error"] = sysfs::portCounter("symbol_error", 0);
            s.ports.push_back(std::move(pc));
        }
        return s;
    }

    TEST(SwitchTelemetry, AStalledUplinkMakesItsLeafCongestedAndNamesThePortAndItsSpine)
    {
        const auto fabric = planOf(kIbSpec);
        const core::Plan& plan = fabric.plan;
        const auto leaf = deviceNamed(plan, "su1-rail2-leaf");
        const auto ups = uplinksOf(plan, leaf);
        ASSERT_GE(ups.size(), 2u);
        const int stalled = plan.links[ups[0]].a.port;
        const std::string spineEnd = plan.portName(plan.links[ups[0]].b);

        SwitchTelemetry t(plan);
        // 1 s apart: 50 Gb/s = 6.25e9 bytes = 1.5625e9 words on every port; XmitWait 4e5 ticks on
        // the first uplink of su1-rail2-leaf only.
        const std::uint64_t words = 1562500000;
        for (const std::string& name : { std::string("su1-rail2-leaf"), std::string("su2-rail2-leaf") }) {
            std::map<int, std::array<std::uint64_t, 3>> before, after;
            const auto d = deviceNamed(plan, name);
            for (const auto& l : plan.links)
                for (const auto* end : { &l.a, &l.b })
                    if (end->device == d) {
                        before[end->port] = { 1000, 1000, 10 };
                        const bool slow = name == "su1-rail2-leaf" && end->port == stalled;
                        after[end->port] = { 1000 + words, 1000 + words, slow ? 400010u : 10u };
                    }
            t.add(pmaSnapshot(name, 1000, before));
            t.add(pmaSnapshot(name, 2000, after));
        }
        const auto sweep = t.sweep();
        ASSERT_EQ(sweep.size(), 2u);
        EXPECT_EQ(sweep[0].name, "su1-rail2-leaf"); // plan order
        EXPECT_EQ(sweep[0].tier, "leaf");
        EXPECT_EQ(sweep[0].rail, 2);
        EXPECT_EQ(sweep[0].health, Health::Congested) << sweep[0].reason;
        EXPECT_NE(sweep[0].reason.find("su1-rail2-leaf/" + std::to_string(stalled) + " (uplink to " + spineEnd + ")"),
            std::string::npos)
            << sweep[0].reason;
        EXPECT_EQ(sweep[0].uplinks, static_cast<int>(ups.size()));
        EXPECT_NEAR(sweep[0].uplinkTxGbps, 50.0 * static_cast<double>(ups.size()), 0.01);
        EXPECT_NEAR(sweep[0].busiestUplinkPercent, 12.5, 0.01); // 50 of 400 Gb/s
        EXPECT_EQ(sweep[1].health, Health::Healthy) << sweep[1].reason;

        const auto findings = switchFindings(worstOf(sweep));
        ASSERT_EQ(findings.size(), 1u);
        EXPECT_EQ(findings[0].code, "SWITCH_CONGESTED");
        EXPECT_EQ(findings[0].where, "su1-rail2-leaf");
        const auto j = toJson(sweep[0]);
        EXPECT_EQ(j["health"], "congested");
        EXPECT_EQ(j["ports"].size(), sweep[0].ports.size());
    }

    TEST(SwitchTelemetry, EachSwitchIsKeptAtItsWorstSweepInTheOrderFirstSeen)
    {
        std::vector<SwitchRates> worst;
        keepWorstSwitches(worst, { switchAt("leaf1", Health::Congested, "first"), switchAt("spine1", Health::Healthy, "first") });
        keepWorstSwitches(worst, { switchAt("spine1", Health::Erroring, "second"), switchAt("leaf1", Health::Healthy, "second") });
        keepWorstSwitches(worst, { switchAt("leaf1", Health::Congested, "third"), switchAt("leaf2", Health::Unknown, "third"),
                                     switchAt("spine1", Health::Erroring, "third") });
        ASSERT_EQ(worst.size(), 3u);
        EXPECT_EQ(worst[0].name, "leaf1");
        EXPECT_EQ(worst[0].reason, "first"); // congested again later: the first such sweep stays
        EXPECT_EQ(worst[1].name, "spine1");
        EXPECT_EQ(worst[1].health, Health::Erroring);
        EXPECT_EQ(worst[1].reason, "second");
        EXPECT_EQ(worst[2].name, "leaf2");
        EXPECT_EQ(worst[2].health, Health::Unknown);
    }

    TEST(SwitchTelemetry, LinkErrorsOnAPortMakeTheSwitchErroring)
    {
        const auto fabric = planOf(kIbSpec);
        SwitchTelemetry t(fabric.plan);
        auto a = pmaSnapshot("spine1", 0, { { 1, { 0, 0, 0 } }, { 2, { 0, 0, 0 } } });
        auto b = pmaSnapshot("spine1", 1000, { { 1, { 100, 100, 0 } }, { 2, { 100, 100, 0 } } });
        b.ports[1].counters["symbol_error"] = sysfs::portCounter("symbol_error", 7);
        t.add(a);
        t.add(b);
        const auto sweep = t.sweep();
        ASSERT_EQ(sweep.size(), 1u);
        EXPECT_EQ(sweep[0].health, Health::Erroring);
        EXPECT_NE(sweep[0].reason.find("spine1/2"), std::string::npos) << sweep[0].reason;
        EXPECT_EQ(switchFindings(worstOf(sweep)).at(0).severity, core::Severity::Error);
    }

    TEST(SwitchTelemetry, TheFirstSnapshotOnlySetsTheBaseline)
    {
        const auto fabric = planOf(kIbSpec);
        SwitchTelemetry t(fabric.plan);
        t.add(pmaSnapshot("spine1", 0, { { 1, { 0, 0, 0 } } }));
        EXPECT_TRUE(t.sweep().empty());
    }

    TEST(EmulatorSwitchPorts, ACongestedLeafsFirstUplinksCarryLessAndStall)
    {
        const auto fabric = planOf(kIbSpec);
        auto faults = parseFaults(R"([{ "kind": "congested", "switch": "su1-rail2-leaf", "uplinks": 2, "factor": 0.25 }])",
            "faults.json", fabric.plan);
        ASSERT_TRUE(faults) << faults.error().toString();
        const test::TempDir dir("switch-ports", test::TempDir::Place::PreferRam);
        EmulatorOptions options;
        options.root = dir.path() / "fabric";
        auto emulator = FabricEmulator::create(fabric.plan, fabric.catalog, *faults, options);
        ASSERT_TRUE(emulator) << emulator.error().toString();
        ASSERT_TRUE((*emulator)->writeTree());
        ASSERT_TRUE((*emulator)->update(1.0));
        const core::Plan& plan = (*emulator)->cabledPlan();
        const auto counters = (*emulator)->switchPortCounters();
        auto at = [&](std::uint32_t device, int port) -> const SwitchPortCounters* {
            for (const auto& c : counters)
                if (c.device == device && c.port == port)
                    return &c;
            return nullptr;
        };
        const auto leaf = deviceNamed(plan, "su1-rail2-leaf");
        const auto ups = uplinksOf(plan, leaf);
        ASSERT_GE(ups.size(), 3u);
        const auto* slow = at(leaf, plan.links[ups[0]].a.port);
        const auto* fast = at(leaf, plan.links[ups[2]].a.port);
        ASSERT_TRUE(slow && fast);
        EXPECT_GT(slow->xmitWait, 0u);
        EXPECT_EQ(fast->xmitWait, 0u);
        EXPECT_NEAR(static_cast<double>(slow->xmitBytes) / static_cast<double>(fast->xmitBytes), 0.25, 0.01);
        // The spine's end of the stalled uplink receives what the leaf sends.
        const auto* spine = at(plan.links[ups[0]].b.device, plan.links[ups[0]].b.port);
        ASSERT_TRUE(spine);
        EXPECT_EQ(spine->rcvBytes, slow->xmitBytes);
        // A healthy leaf's uplinks do not stall, and its downlinks carry the hosts' traffic.
        const auto other = deviceNamed(plan, "su2-rail2-leaf");
        for (const auto i : uplinksOf(plan, other)) {
            const auto* c = at(other, plan.links[i].a.port);
            ASSERT_TRUE(c);
            EXPECT_EQ(c->xmitWait, 0u);
            EXPECT_GT(c->xmitBytes, 0u);
        }

        // What railyard-sim hands ibsim: its node ids, words.
        const auto ibsim = ibsimPortCounters(plan, counters);
        ASSERT_EQ(ibsim.size(), counters.size());
        char id[24];
        std::snprintf(id, sizeof id, "S-%016llx",
            static_cast<unsigned long long>(planner::ibnetdiscoverGuid(plan, { counters[0].device, 0, 0 }, 1)));
        EXPECT_EQ(ibsim[0].node, id);
        EXPECT_EQ(ibsim[0].xmitDataWords, counters[0].xmitBytes / 4);
        EXPECT_EQ(ibsim[0].port, counters[0].port);
    }

} // namespace
} // namespace railyard::live
