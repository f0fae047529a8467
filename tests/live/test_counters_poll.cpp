// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// CountersPoller (counters_poll.h), the one polling round of `live watch` and the Live workspace,
// against scripted agents on loopback: a current agent answers the compact text, an older one
// refuses ?format=compact with 404 and is asked for the JSON (in the same round, and only the
// JSON from then on), one that ignores the parameter answers JSON, an agent listed by address
// names its node in the text, an unreachable one fails alone, and a cut compact text is refused.
#include "live/client/counters_poll.h"

#include "live/common/counters_compact.h"
#include "live/common/inventory_json.h"
#include "tests/live/loopback_http.h"
#include "tests/live/scripted_agent.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

namespace railyard::live {
namespace {

    using test::ScriptedAgent;

    constexpr const char* kSpec = R"({ "name": "poll", "fabric": "infiniband", "nodes": 4, "node_type": "dgx-h100",
  "link": { "generation": "NDR", "width": 4 } })";

    /// Node `node`'s rail-0 port, `words` 4-byte words sent so far, at `ms`.
    CounterSnapshot snapshot(const std::string& node, std::uint64_t words, std::int64_t ms)
    {
        PortCounters p;
        p.device = "mlx5_0";
        p.rail = 0;
        p.counters["port_xmit_data"] = { words, CounterKind::Words4, 64, false };
        p.counters["port_rcv_data"] = { words, CounterKind::Words4, 64, false };
        return { node, ms, { p } };
    }

    /// An agent of `node` whose counters advance 12.5 G words (400 Gb/s) per second of requests.
    struct Fleet {
        std::atomic<int> round { 0 };
        CounterSnapshot now(const std::string& node) const
        {
            const int r = round.load();
            return snapshot(node, static_cast<std::uint64_t>(r) * 12'500'000'000ull, 1'000'000 + r * 1000);
        }
    };

    const PortRates* portOf(const Sweep& sweep, const std::string& node)
    {
        for (const PortRates& p : sweep.ports)
            if (p.node == node)
                return &p;
        return nullptr;
    }

} // namespace

TEST(CountersPoll, CompactFirstJsonForOlderAgentsAndEveryOutcomeInOrder)
{
    const simtest::PlannedFabric fabric = simtest::planOf(kSpec);
    Fleet fleet;
    auto compactOr404 = [&](const std::string& node, bool offersCompact, bool ignoresParameter) {
        return [&fleet, node, offersCompact, ignoresParameter](const std::string& target) -> std::pair<int, std::string> {
            const bool wantsCompact = target.find("format=compact") != std::string::npos;
            if (wantsCompact && !offersCompact && !ignoresParameter)
                return { 404, "{\"error\":\"not found\"}" };
            if (wantsCompact && offersCompact)
                return { 200, toCompactText(fleet.now(node)).value() };
            return { 200, toJson(fleet.now(node)).dump() };
        };
    };
    ScriptedAgent current(compactOr404("node001", true, false));
    ScriptedAgent older(compactOr404("node002", false, false));
    ScriptedAgent ignores(compactOr404("node003", false, true));
    ScriptedAgent aliased(compactOr404("node004", true, false)); // listed by its address
    const int nobody = test::unusedLoopbackPort();
    const std::vector<AgentEndpoint> agents { { "node001", current.url() }, { "node002", older.url() }, { "node003", ignores.url() },
        { "10.0.0.4", aliased.url() }, { "node009", "http://127.0.0.1:" + std::to_string(nobody) } };
    FetchOptions fetch;
    fetch.deadline = std::chrono::milliseconds(5000);
    TelemetryAggregator aggregator(fabric.plan);
    CountersPoller poller;

    for (int round = 0; round < 2; ++round) {
        fleet.round = round;
        const std::vector<CountersOutcome> out = poller.poll(agents, fetch, aggregator);
        ASSERT_EQ(out.size(), agents.size());
        for (std::size_t i = 0; i < agents.size(); ++i)
            EXPECT_EQ(out[i].agent.url, agents[i].url);
        for (std::size_t i = 0; i < 4; ++i)
            EXPECT_TRUE(out[i].error.empty()) << agents[i].node << ": " << out[i].error;
        EXPECT_EQ(out[0].node, "node001");
        EXPECT_EQ(out[1].node, "node002"); // from its JSON
        EXPECT_EQ(out[2].node, "node003");
        EXPECT_EQ(out[3].node, "node004"); // the agent names its node
        EXPECT_FALSE(out[4].error.empty()); // refused connection, alone
        EXPECT_TRUE(out[4].node.empty());
    }
    // The older agent was asked for the compact text once, then only for the JSON.
    const std::vector<std::string> asked = older.targets();
    ASSERT_EQ(asked.size(), 3u);
    EXPECT_EQ(asked[0], "/v1/counters?format=compact");
    EXPECT_EQ(asked[1], "/v1/counters");
    EXPECT_EQ(asked[2], "/v1/counters");
    EXPECT_EQ(current.targets(), (std::vector<std::string> { "/v1/counters?format=compact", "/v1/counters?format=compact" }));

    // Every answering node's port at 400 Gb/s, whichever form it answered in.
    const Sweep sweep = aggregator.sweep();
    for (const char* node : { "node001", "node002", "node003", "node004" }) {
        const PortRates* p = portOf(sweep, node);
        ASSERT_NE(p, nullptr) << node;
        ASSERT_TRUE(p->txGbps) << node;
        EXPECT_DOUBLE_EQ(*p->txGbps, 400.0) << node;
    }
}

TEST(CountersPoll, ACutCompactTextIsRefusedWithTheReason)
{
    const simtest::PlannedFabric fabric = simtest::planOf(kSpec);
    ScriptedAgent cut([](const std::string&) -> std::pair<int, std::string> {
        const std::string text = toCompactText(snapshot("node001", 5, 1000)).value();
        return { 200, text.substr(0, text.rfind("end ")) }; // the last line lost
    });
    TelemetryAggregator aggregator(fabric.plan);
    CountersPoller poller;
    FetchOptions fetch;
    fetch.deadline = std::chrono::milliseconds(5000);
    const std::vector<CountersOutcome> out = poller.poll({ { "node001", cut.url() } }, fetch, aggregator);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_FALSE(out[0].error.empty());
    EXPECT_TRUE(out[0].node.empty());
}

} // namespace railyard::live
