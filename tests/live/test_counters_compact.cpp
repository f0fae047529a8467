// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The compact counter text (/v1/counters?format=compact): written and read back, the same
// PortRates as the JSON path on the same snapshots (resets, saturated PMA counters, 32-bit wraps,
// missing counters, RoCE hw_counters, ethtool PFC statistics), malformed texts refused with the
// line named (truncated and mutated texts never read out of range), and the agent serving both.
#include "live/common/counters_compact.h"

#include "live/client/telemetry.h"
#include "live/common/inventory_json.h"
#include "live/node/agent_server.h"
#include "test_agent_server_support.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <memory>
#include <random>

namespace railyard::live {
namespace {

    Counter plain(std::uint64_t v) { return { v, CounterKind::Plain, 64, false }; }
    Counter words(std::uint64_t v) { return { v, CounterKind::Words4, 64, false }; }
    Counter pma(std::uint64_t v, int bits) { return { v, CounterKind::Saturating, bits, v >= (std::uint64_t { 1 } << bits) - 1 }; }
    Counter hw32(std::uint64_t v) { return { v, CounterKind::Wrapping32, 32, false }; }

    /// An InfiniBand port: data, packets, wait, link errors.
    PortCounters ibPort(const std::string& device, int rail, std::uint64_t step)
    {
        PortCounters p;
        p.device = device;
        p.rail = rail;
        p.netdev = "ibp" + std::to_string(rail) + "s0";
        p.counters["port_xmit_data"] = words(1'000'000 + step * 25'000'000'000ull);
        p.counters["port_rcv_data"] = words(2'000'000 + step * 12'500'000'000ull);
        p.counters["port_xmit_packets"] = plain(step * 1000);
        p.counters["port_xmit_wait"] = pma(100 + step * 400'000, 32);
        p.counters["symbol_error"] = pma(step, 16);
        p.counters["link_downed"] = pma(0, 8);
        p.counters["port_rcv_errors"] = pma(2 * step, 16);
        return p;
    }

    /// A RoCE port: hw_counters (64-bit and 32-bit wrapping) and ethtool PFC statistics.
    PortCounters rocePort(const std::string& device, int rail, std::uint64_t step)
    {
        PortCounters p;
        p.device = device;
        p.rail = rail;
        p.netdev = "eth" + std::to_string(rail);
        p.counters["port_xmit_data"] = words(step * 25'000'000'000ull);
        p.counters["port_rcv_data"] = words(step * 20'000'000'000ull);
        p.hwCounters["np_ecn_marked_roce_packets"] = plain(step * 5000);
        p.hwCounters["np_cnp_sent"] = plain(step * 4000);
        p.hwCounters["rp_cnp_handled"] = plain(step * 3000);
        p.hwCounters["out_of_sequence"] = hw32(0xffffff00u + step * 0x80); // wraps between step 1 and 2
        p.hwCounters["packet_seq_err"] = hw32(step * 3);
        p.hwCounters["roce_adp_retrans"] = hw32(step * 7);
        p.hwCounters["duplicate_request"] = hw32(step); // no rate is made of it
        p.ethtool["rx_prio3_pause"] = step * 150;
        p.ethtool["rx_prio3_pause_duration"] = step * 20000;
        p.ethtool["rx_prio4_pause"] = step * 2;
        p.ethtool["tx_prio3_pause"] = step * 99; // sent, not received: not counted
        p.ethtool["rx_bytes"] = step * 1'000'000;
        return p;
    }

    /// Two reads of one node with every rule of counterDelta in them.
    std::pair<CounterSnapshot, CounterSnapshot> trickyPair()
    {
        CounterSnapshot a { "node001", 1'000'000, {} }, b { "node001", 1'002'500, {} };
        a.ports = { ibPort("mlx5_0", 0, 1), ibPort("mlx5_1", 1, 1), rocePort("mlx5_2", 2, 1), rocePort("mlx5_3", 3, 1),
            ibPort("mlx5_4", 4, 1) };
        b.ports = { ibPort("mlx5_0", 0, 2), ibPort("mlx5_1", 1, 2), rocePort("mlx5_2", 2, 2), rocePort("mlx5_3", 3, 2),
            ibPort("mlx5_5", 5, 2) }; // mlx5_4 gone, mlx5_5 new: no rate for either
        // mlx5_1: data counter reset, a PMA error counter saturated, xmit_wait only in the later read.
        b.ports[1].counters["port_xmit_data"] = words(10);
        b.ports[1].counters["symbol_error"] = pma(65535, 16);
        a.ports[1].counters.erase("port_xmit_wait");
        // mlx5_3: an ethtool statistic reset, a 64-bit hw_counter reset, an hw_counter missing later.
        b.ports[3].ethtool["rx_prio3_pause"] = 1;
        b.ports[3].hwCounters["np_cnp_sent"] = plain(3);
        b.ports[3].hwCounters.erase("rp_cnp_handled");
        // mlx5_0: port 2 of the same device as well (a two-plane NIC).
        PortCounters second = ibPort("mlx5_0", 0, 1);
        second.port = 2;
        a.ports.push_back(second);
        second = ibPort("mlx5_0", 0, 3);
        second.port = 2;
        b.ports.push_back(second);
        return { a, b };
    }

    std::string compactOf(const CounterSnapshot& s)
    {
        auto text = toCompactText(s);
        EXPECT_TRUE(text) << text.error().toString();
        return text ? *text : std::string();
    }

    CounterSnapshot viaJson(const CounterSnapshot& s)
    {
        auto back = countersFromJson(nlohmann::json::parse(toJson(s).dump()), "test");
        EXPECT_TRUE(back) << back.error().toString();
        return back ? *back : CounterSnapshot {};
    }

    void expectSame(const PortRates& j, const PortRates& c)
    {
        SCOPED_TRACE(j.node + " " + j.device + " port " + std::to_string(j.port));
        EXPECT_EQ(j.node, c.node);
        EXPECT_EQ(j.device, c.device);
        EXPECT_EQ(j.port, c.port);
        EXPECT_EQ(j.rail, c.rail);
        EXPECT_EQ(j.leaf, c.leaf);
        EXPECT_EQ(j.seconds, c.seconds);
        EXPECT_EQ(j.txGbps, c.txGbps);
        EXPECT_EQ(j.rxGbps, c.rxGbps);
        EXPECT_EQ(j.xmitWaitPerS, c.xmitWaitPerS);
        EXPECT_EQ(j.ecnMarkedPerS, c.ecnMarkedPerS);
        EXPECT_EQ(j.cnpSentPerS, c.cnpSentPerS);
        EXPECT_EQ(j.cnpHandledPerS, c.cnpHandledPerS);
        EXPECT_EQ(j.pfcPausePerS, c.pfcPausePerS);
        EXPECT_EQ(j.pfcPauseUsPerS, c.pfcPauseUsPerS);
        EXPECT_EQ(j.outOfSequencePerS, c.outOfSequencePerS);
        EXPECT_EQ(j.retransmitsPerS, c.retransmitsPerS);
        EXPECT_EQ(j.linkErrors, c.linkErrors);
        EXPECT_EQ(j.notes, c.notes);
    }

    const PortRates* portOf(const std::vector<PortRates>& ports, const std::string& device, int port = 1)
    {
        for (const PortRates& p : ports)
            if (p.device == device && p.port == port)
                return &p;
        return nullptr;
    }

    /// The 8-node InfiniBand test fabric (test_sim_support.h), for the leaves.
    const core::Plan& smallPlan()
    {
        static const simtest::PlannedFabric fabric = simtest::planOf(simtest::kIbSpec);
        return fabric.plan;
    }

    /// The error of reading `text`, or "" when it was read.
    core::Error errorOf(std::string_view text)
    {
        auto r = countersFromCompact(text, "http://10.0.0.7:9473/v1/counters?format=compact");
        if (r)
            return {};
        return r.error();
    }

} // namespace

TEST(CountersCompact, WrittenAndReadBackAsTheJsonSays)
{
    const auto [a, b] = trickyPair();
    for (const CounterSnapshot& s : { a, b }) {
        const std::string text = compactOf(s);
        auto back = countersFromCompact(text, "test");
        ASSERT_TRUE(back) << back.error().toString() << "\n" << text;
        // Every counter, kind, width, saturation and statistic; netdevs and rails as well.
        EXPECT_EQ(toJson(*back), toJson(s));
        EXPECT_EQ(toJson(*back), toJson(viaJson(s)));
    }
    const std::string text = compactOf(b);
    EXPECT_EQ(text.rfind("railyard-counters 1 node001 1002500\nport mlx5_0 1 0 ibp0s0\n", 0), 0u) << text;
    EXPECT_NE(text.find("\nc symbol_error saturating 16 65535 saturated\n"), std::string::npos) << text;
    EXPECT_NE(text.find("\nh out_of_sequence wrapping32 32 "), std::string::npos) << text;
    EXPECT_NE(text.find("\ne rx_prio3_pause 1\n"), std::string::npos) << text;
    EXPECT_TRUE(text.ends_with("\nend 6 55\n")) << text; // 7 + 7 + 14 + 13 (rp_cnp_handled gone) + 7 + 7
    // An empty node and netdev travel as "-".
    CounterSnapshot anon { "", 5, { ibPort("mlx5_0", 0, 1) } };
    anon.ports[0].netdev.clear();
    auto back = countersFromCompact(compactOf(anon), "test");
    ASSERT_TRUE(back) << back.error().toString();
    EXPECT_EQ(toJson(*back), toJson(anon));
}

TEST(CountersCompact, NamesThatAreNotOneWordAreRefusedWhenWriting)
{
    CounterSnapshot s { "node 1", 5, {} };
    auto text = toCompactText(s);
    ASSERT_FALSE(text);
    EXPECT_EQ(text.error().code, "AGENT_COMPACT");
    EXPECT_NE(text.error().message.find("'node 1'"), std::string::npos) << text.error().message;
    s.node = "node1";
    s.ports = { ibPort("mlx5_0", 0, 1) };
    s.ports[0].ethtool["rx prio"] = 1;
    EXPECT_FALSE(toCompactText(s));
}

TEST(CountersCompact, SamePortRatesAsTheJsonPath)
{
    const auto [a, b] = trickyPair();
    const std::vector<PortRates> direct = portRates(a, b);
    const core::Plan& plan = smallPlan();

    TelemetryAggregator json(plan), compact(plan);
    json.add(viaJson(a));
    json.add(viaJson(b));
    ASSERT_TRUE(compact.addCompact(compactOf(a), "test"));
    ASSERT_TRUE(compact.addCompact(compactOf(b), "test"));
    const Sweep js = json.sweep(), cs = compact.sweep();

    ASSERT_EQ(direct.size(), 5u); // mlx5_0 ports 1 and 2, mlx5_1, mlx5_2, mlx5_3; not mlx5_4 nor mlx5_5
    ASSERT_EQ(js.ports.size(), direct.size());
    ASSERT_EQ(cs.ports.size(), direct.size());
    for (std::size_t i = 0; i < direct.size(); ++i) {
        PortRates withLeaf = direct[i];
        withLeaf.leaf = js.ports[i].leaf;
        expectSame(withLeaf, js.ports[i]);
        expectSame(js.ports[i], cs.ports[i]);
    }
    EXPECT_EQ(js.notes, cs.notes);
    EXPECT_EQ(toJson(js).dump(), toJson(cs).dump());

    // And the figures are the rules' (both paths wrong the same way would pass the comparison).
    const PortRates* ib = portOf(cs.ports, "mlx5_0");
    ASSERT_NE(ib, nullptr);
    EXPECT_DOUBLE_EQ(*ib->txGbps, 25e9 * 32 / 2.5 / 1e9);
    EXPECT_DOUBLE_EQ(*ib->xmitWaitPerS, 400'000 / 2.5);
    EXPECT_EQ(ib->linkErrors, 3u); // symbol_error +1, port_rcv_errors +2
    EXPECT_TRUE(ib->notes.empty());
    const PortRates* twoPlane = portOf(cs.ports, "mlx5_0", 2);
    ASSERT_NE(twoPlane, nullptr);
    EXPECT_DOUBLE_EQ(*twoPlane->txGbps, 2 * 25e9 * 32 / 2.5 / 1e9);
    const PortRates* reset = portOf(cs.ports, "mlx5_1");
    ASSERT_NE(reset, nullptr);
    EXPECT_FALSE(reset->txGbps);
    EXPECT_FALSE(reset->xmitWaitPerS); // not in the earlier read
    EXPECT_EQ(reset->linkErrors, 2u);  // symbol_error saturated: unknown, not counted
    ASSERT_EQ(reset->notes.size(), 2u);
    EXPECT_NE(reset->notes[0].find("port_xmit_data went down"), std::string::npos) << reset->notes[0];
    EXPECT_NE(reset->notes[1].find("symbol_error at its maximum"), std::string::npos) << reset->notes[1];
    const PortRates* roce = portOf(cs.ports, "mlx5_2");
    ASSERT_NE(roce, nullptr);
    EXPECT_DOUBLE_EQ(roce->ecnMarkedPerS, 5000 / 2.5);
    EXPECT_DOUBLE_EQ(roce->cnpHandledPerS, 3000 / 2.5);
    EXPECT_DOUBLE_EQ(roce->outOfSequencePerS, (0x80 + 3) / 2.5); // out_of_sequence wrapped
    EXPECT_DOUBLE_EQ(roce->retransmitsPerS, 7 / 2.5);
    EXPECT_DOUBLE_EQ(roce->pfcPausePerS, (150 + 2) / 2.5); // rx prio 3 and 4, not tx
    EXPECT_DOUBLE_EQ(roce->pfcPauseUsPerS, 20000 / 2.5);
    const PortRates* roceReset = portOf(cs.ports, "mlx5_3");
    ASSERT_NE(roceReset, nullptr);
    EXPECT_DOUBLE_EQ(roceReset->pfcPausePerS, 2 / 2.5); // prio 3 reset, prio 4 counted
    EXPECT_EQ(roceReset->cnpSentPerS, 0);
    EXPECT_EQ(roceReset->cnpHandledPerS, 0);
    ASSERT_EQ(roceReset->notes.size(), 2u);
    EXPECT_NE(roceReset->notes[0].find("np_cnp_sent went down"), std::string::npos) << roceReset->notes[0];
    EXPECT_NE(roceReset->notes[1].find("rx_prio3_pause went down"), std::string::npos) << roceReset->notes[1];
}

TEST(CountersCompact, ManyNodesAndSweepsAgreeWithJson)
{
    const core::Plan& plan = smallPlan();
    TelemetryAggregator json(plan), compact(plan);
    std::vector<std::string> nodes;
    for (const core::Device& d : plan.devices)
        if (d.kind == core::DeviceKind::Node)
            nodes.push_back(d.name);
    ASSERT_EQ(nodes.size(), 8u);
    for (std::uint64_t step = 1; step <= 4; ++step) {
        for (const std::string& n : nodes) {
            CounterSnapshot s { n, static_cast<std::int64_t>(step * 1000), {} };
            for (int r = 0; r < 8; ++r)
                s.ports.push_back(r % 2 ? rocePort("mlx5_" + std::to_string(r), r, step * (r + 1)) : ibPort("mlx5_" + std::to_string(r), r, step));
            if (step == 3)
                s.ports[0].counters["port_xmit_data"] = words(5); // a reset in the middle
            json.add(viaJson(s));
            // The node's name from the caller, as live watch gives it for an agent that sends none.
            s.node.clear();
            ASSERT_TRUE(compact.addCompact(compactOf(s), "test", n));
        }
        const Sweep js = json.sweep(), cs = compact.sweep();
        EXPECT_EQ(js.ports.size(), step == 1 ? 0u : 64u);
        ASSERT_EQ(js.ports.size(), cs.ports.size());
        for (std::size_t i = 0; i < js.ports.size(); ++i)
            expectSame(js.ports[i], cs.ports[i]);
        EXPECT_FALSE(js.leaves.empty() && step > 1);
        EXPECT_EQ(toJson(js).dump(), toJson(cs).dump());
    }
}

TEST(CountersCompact, MalformedTextIsRefusedNamingTheLine)
{
    const std::string good = "railyard-counters 1 node001 1000\n"
                             "port mlx5_0 1 0 ibp0\n"
                             "c port_xmit_data words4 64 100\n"
                             "e rx_prio3_pause 5\n"
                             "end 1 2\n";
    ASSERT_EQ(errorOf(good).code, "");
    struct Case {
        std::string text;
        std::string expected; ///< in the message
    };
    const std::vector<Case> cases = {
        { "", "empty" },
        { "{\"api_version\": 1}\n", "line 1: the first line" },
        { "railyard-counters one node001 1000\nend 0 0\n", "line 1:" },
        { "railyard-counters 1 node001\nend 0 0\n", "line 1:" },
        { "railyard-counters 1 node001 1000\nc port_xmit_data words4 64 100\nend 0 1\n", "line 2: a \"port\" line before" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 x 0 ibp0\nend 1 0\n", "line 2:" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc port_xmit_data bytes 64 100\nend 1 1\n", "line 3: a kind" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc port_xmit_data words4 0 100\nend 1 1\n", "line 3: a width" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc port_xmit_data words4 65 100\nend 1 1\n", "line 3: a width" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc port_xmit_data words4 64 18446744073709551616\nend 1 1\n",
            "line 3: a value" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc port_xmit_data words4 64 -1\nend 1 1\n", "line 3: a value" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc port_xmit_data words4 64 12x\nend 1 1\n", "line 3: a value" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc symbol_error saturating 16 65535 full\nend 1 1\n",
            "line 3: \"saturated\"" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc a plain 64 1 saturated extra\nend 1 1\n", "line 3:" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\ne rx_prio3_pause\nend 1 1\n", "line 3:" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\n\nend 1 0\n", "line 3: an empty line" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nx y\nend 1 0\n", "line 3:" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc port_xmit_data words4 64 100\n", "cut short after line 3" },
        { "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nend 1 1\n", "line 3: the counts" },
        { "railyard-counters 1 node001 1000\nend 0 0\nport mlx5_0 1 0 ibp0\n", "line 3: nothing after" },
    };
    for (const Case& c : cases) {
        const core::Error e = errorOf(c.text);
        EXPECT_EQ(e.code, "AGENT_COMPACT") << c.text;
        EXPECT_NE(e.message.find(c.expected), std::string::npos) << e.message << "\nfor:\n" << c.text;
        EXPECT_EQ(e.where, "http://10.0.0.7:9473/v1/counters?format=compact");
        EXPECT_FALSE(e.hint.empty());
    }
    // A newer agent is refused as the JSON readers refuse it.
    const core::Error newer = errorOf("railyard-counters 2 node001 1000\nend 0 0\n");
    EXPECT_EQ(newer.code, "AGENT_API_VERSION");
    EXPECT_NE(newer.message.find("API version 2"), std::string::npos) << newer.message;
    // An older one (0) is read.
    EXPECT_EQ(errorOf("railyard-counters 0 node001 1000\nend 0 0\n").code, "");
    // More blanks than the writer puts are read too (the word-by-word path), with the same result.
    auto spaced = countersFromCompact("railyard-counters 1 node001 1000\nport  mlx5_0 1 0\tibp0\n"
                                      "c   port_xmit_data words4  64 100 \ne\trx_prio3_pause 5\nend 1 2\n",
        "test");
    auto tight = countersFromCompact(good, "test");
    ASSERT_TRUE(spaced) << spaced.error().toString();
    ASSERT_TRUE(tight) << tight.error().toString();
    EXPECT_EQ(toJson(*spaced), toJson(*tight));
    // CRLF line ends are read.
    std::string crlf;
    for (char ch : good)
        crlf += ch == '\n' ? std::string("\r\n") : std::string(1, ch);
    EXPECT_EQ(errorOf(crlf).code, "");
}

TEST(CountersCompact, CutAndMutatedTextsNeverReadOutOfRange)
{
    const auto [a, b] = trickyPair();
    const std::string text = compactOf(b);
    // Every prefix: refused (only the whole text is read), from a buffer exactly that long so
    // that a read past the end would be a read past the allocation.
    for (std::size_t n = 0; n < text.size(); ++n) {
        const std::unique_ptr<char[]> copy(new char[n ? n : 1]);
        std::memcpy(copy.get(), text.data(), n);
        // A prefix that ends right after "end ...\n" minus its newline is still whole.
        const bool whole = n + 1 == text.size();
        EXPECT_EQ(errorOf(std::string_view(copy.get(), n)).code.empty(), whole) << n;
    }
    // Random mutations: read or refused, never a crash; the aggregator keeps the node's baseline.
    const core::Plan& plan = smallPlan();
    TelemetryAggregator agg(plan);
    ASSERT_TRUE(agg.addCompact(compactOf(a), "test"));
    std::mt19937 rng(5);
    const std::string alphabet = "0123456789 -\n\rsaturatedwordsplainxcehport\t\xff";
    int refused = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string m = text;
        const int edits = 1 + static_cast<int>(rng() % 4);
        for (int k = 0; k < edits; ++k) {
            const std::size_t at = rng() % m.size();
            switch (rng() % 3) {
            case 0: m[at] = alphabet[rng() % alphabet.size()]; break;
            case 1: m.erase(at, 1 + rng() % 8); break;
            default: m.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
            }
            if (m.empty())
                m = "x";
        }
        const core::Status s = agg.addCompact(m, "test");
        if (!s) {
            ++refused;
            EXPECT_TRUE(s.errors().front().message.find("line ") != std::string::npos
                || s.errors().front().message.find("empty") != std::string::npos
                || s.errors().front().message.find("node") != std::string::npos)
                << s.errors().front().message;
        }
    }
    EXPECT_GT(refused, 2000);
}

TEST(CountersCompact, NamesAreInternedOncePerSection)
{
    CounterNames names;
    const auto a = names.intern(CounterSection::Counters, "port_xmit_data", 0);
    EXPECT_EQ(names.intern(CounterSection::Counters, "port_xmit_data", 0), a); // the memo
    EXPECT_EQ(names.intern(CounterSection::Counters, "port_xmit_data", 7), a); // the hash
    const auto h = names.intern(CounterSection::HwCounters, "port_xmit_data", 0);
    EXPECT_NE(h, a);
    EXPECT_EQ(names.section(h), CounterSection::HwCounters);
    EXPECT_EQ(names.name(h), "port_xmit_data");
    EXPECT_EQ(names.size(), 2u);
    // A text with more distinct names than the table takes is refused, not grown without bound.
    std::string text = "railyard-counters 1 n 1\nport d 1 0 -\n";
    for (std::size_t i = 0; i <= CounterNames::kMaxNames; ++i)
        text += "e s" + std::to_string(i) + " 1\n";
    text += "end 1 " + std::to_string(CounterNames::kMaxNames + 1) + "\n";
    const core::Error e = errorOf(text);
    EXPECT_EQ(e.code, "AGENT_COMPACT");
    EXPECT_NE(e.message.find("distinct counter names"), std::string::npos) << e.message;
}

TEST(CountersCompact, AgentServesBothFormats)
{
    test::TempDir dir;
    test::writeGpudTree(dir.path());
    NodeOptions options;
    options.sysfsRoot = dir.path();
    options.node = "node007";
    options.railMap = { "mlx5_0", "mlx5_1", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_9" };
    const auto reader = std::make_shared<const NodeReader>(options, NodeSources {});
    AgentConfig config;
    config.listenAddress = "127.0.0.1";
    config.port = 0;
    config.token = "compact-token";
    AgentServer server(config, reader);
    ASSERT_TRUE(server.start());
    const std::string auth = test::bearer("compact-token");

    const auto j = test::httpRequest(server.port(), "GET", "/v1/counters", auth);
    const auto c = test::httpRequest(server.port(), "GET", "/v1/counters?format=compact", auth);
    const auto explicitJson = test::httpRequest(server.port(), "GET", "/v1/counters?format=json", auth);
    ASSERT_TRUE(j && c && explicitJson);
    ASSERT_EQ(j->status, 200) << j->body;
    ASSERT_EQ(c->status, 200) << c->body;
    ASSERT_EQ(explicitJson->status, 200) << explicitJson->body;
    EXPECT_EQ(j->header("content-type"), "application/json");
    EXPECT_EQ(c->header("content-type"), kCompactCountersType);
    auto fromJson = countersFromJson(nlohmann::json::parse(j->body), "json");
    auto fromCompact = countersFromCompact(c->body, "compact");
    ASSERT_TRUE(fromJson) << fromJson.error().toString();
    ASSERT_TRUE(fromCompact) << fromCompact.error().toString() << "\n" << c->body;
    ASSERT_FALSE(fromCompact->ports.empty());
    // The same snapshot but for the time it was read.
    fromCompact->timestampMs = fromJson->timestampMs;
    EXPECT_EQ(toJson(*fromCompact), toJson(*fromJson));
    EXPECT_LT(c->body.size(), j->body.size());

    const auto bad = test::httpRequest(server.port(), "GET", "/v1/counters?format=xml", auth);
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->status, 400) << bad->body;
    EXPECT_NE(bad->body.find("format"), std::string::npos) << bad->body;
    const auto noToken = test::httpRequest(server.port(), "GET", "/v1/counters?format=compact");
    ASSERT_TRUE(noToken);
    EXPECT_EQ(noToken->status, 401);
    server.stop();
}

// Found by fuzz/fuzz_agent_answers (fuzz/regressions/fuzz_agent_answers/): the fast sample reader
// took a name with a '\r' in it whole, and both readers one with '\f' or '\v', which
// toCompactText() then refused to write. Whatever is read must write back: such names are refused.
TEST(CountersCompact, NamesWithOtherBlanksAreRefusedWhenReading)
{
    for (const std::string blank : { "\r", "\f", "\v" }) {
        const std::string text = "railyard-counters 1 node001 1000\nport mlx5_0 1 0 ibp0\nc multicast" + blank
            + "xmit_packets plain 64 0\nend 1 1\n";
        auto r = countersFromCompact(text, "test");
        EXPECT_FALSE(r) << "accepted a name with a blank in it";
    }
}

} // namespace railyard::live
