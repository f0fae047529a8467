// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// CountersPoller (counters_poll.h), the one polling round of `live watch` and the Live workspace,
// against scripted agents on loopback: a current agent answers the compact text, an older one
// refuses ?format=compact with 404 and is asked for the JSON (in the same round, and only the
// JSON from then on), one that ignores the parameter answers JSON, an agent listed by address
// names its node in the text, an unreachable one fails alone, and a cut compact text is refused;
// a stop flag (Ctrl+C on `live watch`) ends a round or the last wait at once, whatever the deadline.
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

    /// node001 answers at once, node002 `lateBy` after it is asked (then sets `lateAnswered`),
    /// node003 accepts the connection and never answers.
    struct PromptLateHung {
        PromptLateHung(const Fleet& fleet, std::chrono::milliseconds lateBy)
            : prompt([&fleet](const std::string&) -> std::pair<int, std::string> {
                return { 200, toCompactText(fleet.now("node001")).value() };
            })
            , late([this, &fleet, lateBy](const std::string&) -> std::pair<int, std::string> {
                std::this_thread::sleep_for(lateBy);
                lateAnswered = true;
                return { 200, toCompactText(fleet.now("node002")).value() };
            })
        {
        }
        std::vector<AgentEndpoint> agents() const { return { { "node001", prompt.url() }, { "node002", late.url() }, { "node003", hung.url() } }; }

        std::atomic<bool> lateAnswered { false };
        ScriptedAgent prompt;
        ScriptedAgent late;
        test::NeverAnswers hung;
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
    CountersPoller poller(fetch);

    for (int round = 0; round < 2; ++round) {
        fleet.round = round;
        const std::vector<CountersOutcome> out = poller.poll(agents, aggregator);
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
        for (const CountersOutcome& o : out)
            EXPECT_FALSE(o.waiting) << o.agent.node; // a round without an end waits for every answer
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
    FetchOptions fetch;
    fetch.deadline = std::chrono::milliseconds(5000);
    CountersPoller poller(fetch);
    const std::vector<CountersOutcome> out = poller.poll({ { "node001", cut.url() } }, aggregator);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_FALSE(out[0].error.empty());
    EXPECT_TRUE(out[0].node.empty());
}

TEST(CountersPoll, ARoundEndsAtItsTimeAndALateAnswerIsTakenInALaterRound)
{
    const simtest::PlannedFabric fabric = simtest::planOf(kSpec);
    Fleet fleet;
    PromptLateHung three(fleet, std::chrono::milliseconds(700));
    ASSERT_TRUE(three.hung.ok());
    const std::vector<AgentEndpoint> agents = three.agents();
    std::atomic<bool>& lateAnswered = three.lateAnswered;
    const ScriptedAgent& prompt = three.prompt;
    const ScriptedAgent& late = three.late;
    FetchOptions fetch;
    fetch.deadline = std::chrono::milliseconds(1500);
    TelemetryAggregator aggregator(fabric.plan);
    CountersPoller poller(fetch);
    using Clock = CountersPoller::Clock;

    // Round 0 waits for everyone (a baseline for the rates): the hung agent times out.
    std::vector<CountersOutcome> out = poller.poll(agents, aggregator);
    EXPECT_TRUE(out[0].error.empty()) << out[0].error;
    EXPECT_TRUE(out[1].error.empty()) << out[1].error;
    EXPECT_NE(out[2].error.find("timed out"), std::string::npos) << out[2].error;
    (void)aggregator.sweep();

    // Round 1 ends at its own time: the prompt agent is in, the late one and the hung one are
    // waiting (not failed), and the round did not wait for the late answer.
    fleet.round = 1;
    lateAnswered = false;
    out = poller.poll(agents, aggregator, Clock::now() + std::chrono::milliseconds(200));
    EXPECT_FALSE(lateAnswered);
    EXPECT_FALSE(out[0].waiting);
    EXPECT_TRUE(out[0].error.empty()) << out[0].error;
    EXPECT_EQ(out[0].node, "node001");
    for (std::size_t i : { 1u, 2u }) {
        EXPECT_TRUE(out[i].waiting) << agents[i].node;
        EXPECT_TRUE(out[i].error.empty()) << out[i].error;
        EXPECT_TRUE(out[i].node.empty());
        EXPECT_GE(out[i].elapsed, std::chrono::milliseconds(150)) << agents[i].node;
    }
    Sweep sweep = aggregator.sweep();
    ASSERT_NE(portOf(sweep, "node001"), nullptr);
    EXPECT_EQ(portOf(sweep, "node002"), nullptr);

    // Round 2: the late answer to round 1's request is taken, its rate against round 0; the hung
    // agent's request of round 1 reaches its deadline. Neither was asked again meanwhile.
    fleet.round = 2;
    out = poller.poll(agents, aggregator);
    EXPECT_TRUE(lateAnswered);
    EXPECT_FALSE(out[1].waiting);
    EXPECT_TRUE(out[1].error.empty()) << out[1].error;
    EXPECT_EQ(out[1].node, "node002");
    EXPECT_FALSE(out[2].waiting);
    EXPECT_NE(out[2].error.find("timed out"), std::string::npos) << out[2].error;
    sweep = aggregator.sweep();
    const PortRates* p = portOf(sweep, "node002");
    ASSERT_NE(p, nullptr);
    ASSERT_TRUE(p->txGbps);
    EXPECT_DOUBLE_EQ(*p->txGbps, 400.0); // against round 0's counters: the fleet's 400 Gb/s
    EXPECT_EQ(late.targets().size(), 2u); // rounds 0 and 1: round 2 had its answer still to come
    EXPECT_EQ(prompt.targets().size(), 3u);

    // Round 3 ends once the agents that answered round 2 have answered: the hung agent, which
    // failed, is asked again but not waited for (the round would otherwise have seen it time out).
    fleet.round = 3;
    out = poller.poll(agents, aggregator, Clock::now() + std::chrono::seconds(30));
    EXPECT_TRUE(out[0].error.empty()) << out[0].error;
    EXPECT_FALSE(out[1].waiting); // it answered round 2: waited for
    EXPECT_TRUE(out[1].error.empty()) << out[1].error;
    EXPECT_TRUE(out[2].waiting);
    EXPECT_TRUE(out[2].error.empty()) << out[2].error;

    // A new list of agents starts afresh: nothing of the old rounds is left open or taken.
    fleet.round = 4;
    out = poller.poll({ { "node001", prompt.url() } }, aggregator);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_TRUE(out[0].error.empty()) << out[0].error;
}

TEST(CountersPoll, SettleWaitsForTheOpenRequestsOnlyAndSaysHowEachEnded)
{
    const simtest::PlannedFabric fabric = simtest::planOf(kSpec);
    Fleet fleet;
    PromptLateHung three(fleet, std::chrono::milliseconds(600));
    ASSERT_TRUE(three.hung.ok());
    const std::vector<AgentEndpoint> agents = three.agents();
    const ScriptedAgent& prompt = three.prompt;
    const ScriptedAgent& late = three.late;
    FetchOptions fetch;
    fetch.deadline = std::chrono::milliseconds(1200);
    TelemetryAggregator aggregator(fabric.plan);
    CountersPoller poller(fetch);
    using Clock = CountersPoller::Clock;

    EXPECT_EQ(poller.open(), 0u);
    std::vector<CountersOutcome> out = poller.poll(agents, aggregator, Clock::now() + std::chrono::milliseconds(100));
    ASSERT_EQ(out.size(), 3u);
    EXPECT_FALSE(out[0].waiting);
    EXPECT_TRUE(out[1].waiting);
    EXPECT_TRUE(out[2].waiting);
    EXPECT_EQ(poller.open(), 2u);

    // The prompt agent, with nothing open, is not asked again; the late answer and the hung
    // agent's timeout both end the wait, each within the deadline.
    const auto before = Clock::now();
    out = poller.settle(aggregator);
    const auto took = Clock::now() - before;
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].agent.node, "node002");
    EXPECT_FALSE(out[0].waiting);
    EXPECT_TRUE(out[0].error.empty()) << out[0].error;
    EXPECT_EQ(out[0].node, "node002");
    EXPECT_GE(out[0].elapsed, std::chrono::milliseconds(500));
    EXPECT_EQ(out[1].agent.node, "node003");
    EXPECT_FALSE(out[1].waiting);
    EXPECT_NE(out[1].error.find("timed out"), std::string::npos) << out[1].error;
    EXPECT_GE(took, std::chrono::milliseconds(900)); // the hung agent's deadline, less the round
    EXPECT_EQ(prompt.targets().size(), 1u);
    EXPECT_EQ(late.targets().size(), 1u);
    EXPECT_EQ(poller.open(), 0u);
    EXPECT_TRUE(poller.settle(aggregator).empty()); // nothing open: at once, no outcome
}

TEST(CountersPoll, AStopFlagEndsARoundAndASettleAtOnceWhateverTheDeadline)
{
    const simtest::PlannedFabric fabric = simtest::planOf(kSpec);
    Fleet fleet;
    PromptLateHung three(fleet, std::chrono::milliseconds(100));
    ASSERT_TRUE(three.hung.ok());
    FetchOptions fetch;
    fetch.deadline = std::chrono::seconds(30);
    TelemetryAggregator aggregator(fabric.plan);
    CountersPoller poller(fetch);
    std::atomic<bool> stop { false };
    poller.stopOn(&stop);
    using Clock = CountersPoller::Clock;
    const auto stopAfter = [&stop](std::chrono::milliseconds after) {
        return std::thread([&stop, after] {
            std::this_thread::sleep_for(after);
            stop = true;
        });
    };
    // Far below the hung agent's 30 s deadline, however loaded the machine.
    constexpr auto kPrompt = std::chrono::seconds(10);

    // A round that waits for every answer (the baselines of `live watch`) ends at the stop.
    std::thread stopper = stopAfter(std::chrono::milliseconds(400));
    auto before = Clock::now();
    std::vector<CountersOutcome> out = poller.poll(three.agents(), aggregator);
    auto took = Clock::now() - before;
    stopper.join();
    ASSERT_EQ(out.size(), 3u);
    EXPECT_FALSE(out[0].waiting);
    EXPECT_TRUE(out[0].error.empty()) << out[0].error;
    EXPECT_FALSE(out[1].waiting); // 100 ms late: before the stop
    EXPECT_TRUE(out[1].error.empty()) << out[1].error;
    EXPECT_TRUE(out[2].waiting);
    EXPECT_GE(out[2].elapsed, std::chrono::milliseconds(400));
    EXPECT_GE(took, std::chrono::milliseconds(400));
    EXPECT_LT(took, kPrompt);
    EXPECT_EQ(poller.open(), 1u); // the request stays open within its deadline

    // So does the wait at the end of the rounds, its open request reported waiting.
    stop = false;
    stopper = stopAfter(std::chrono::milliseconds(300));
    before = Clock::now();
    out = poller.settle(aggregator);
    took = Clock::now() - before;
    stopper.join();
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].agent.node, "node003");
    EXPECT_TRUE(out[0].waiting);
    EXPECT_TRUE(out[0].error.empty()) << out[0].error;
    EXPECT_GE(out[0].elapsed, std::chrono::milliseconds(700));
    EXPECT_GE(took, std::chrono::milliseconds(300));
    EXPECT_LT(took, kPrompt);
    EXPECT_EQ(poller.open(), 1u);

    // A flag already set: nothing is waited for.
    before = Clock::now();
    EXPECT_TRUE(poller.settle(aggregator).at(0).waiting);
    EXPECT_LT(Clock::now() - before, kPrompt);
}

} // namespace railyard::live
