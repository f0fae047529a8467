// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// prometheusText(): the exposition parses (with these tests' parser and with Prometheus' own,
// promtool), names and units mirror the node exporter's.
#include "live/node/agent_server.h"

#include "test_agent_server_support.h"

#include <gtest/gtest.h>

#include <limits>

using namespace railyard::live;
using railyard::live::test::parseExposition;
using railyard::live::test::promtoolCheck;

namespace {

Inventory sampleInventory()
{
    Inventory inv;
    inv.node = "node007";
    RdmaDevice ib;
    ib.name = "mlx5_3";
    ib.rail = 1;
    ib.hcaType = "MT4129";
    ib.fwVersion = "28.39.1002";
    ib.boardId = "MT_0000000838";
    RdmaPort p;
    p.linkLayer = LinkLayer::InfiniBand;
    p.state = 4;
    p.physState = 5;
    p.rateText = "400 Gb/sec (4X NDR)";
    p.rateGbps = 400;
    p.width = 4;
    ib.ports.push_back(p);
    inv.devices.push_back(ib);
    RdmaDevice odd; // a value that needs escaping, and a device that serves no rail
    odd.name = "mlx5_bond_0";
    odd.boardId = "board \"7\"\\x\nnext";
    RdmaPort op;
    op.linkLayer = LinkLayer::Ethernet;
    op.state = 1;
    op.physState = 3;
    op.rateText = "200 Gb/sec (2X NDR)";
    op.rateGbps = 200;
    odd.ports.push_back(op);
    inv.devices.push_back(odd);
    return inv;
}

CounterSnapshot sampleCounters()
{
    CounterSnapshot s;
    s.node = "node007";
    PortCounters pc;
    pc.device = "mlx5_3";
    pc.port = 1;
    pc.rail = 1;
    pc.netdev = "ibp24s0";
    pc.counters["port_xmit_data"] = { 230442669431839ULL, CounterKind::Words4, 64, false };
    pc.counters["port_rcv_data"] = { 100, CounterKind::Words4, 64, false };
    pc.counters["port_xmit_packets"] = { 315487941081ULL, CounterKind::Plain, 64, false };
    pc.counters["port_xmit_wait"] = { 2489603687ULL, CounterKind::Plain, 32, false };
    pc.counters["symbol_error"] = { 65535, CounterKind::Saturating, 16, true };
    pc.counters["port_rcv_errors"] = { 14, CounterKind::Saturating, 16, false };
    pc.counters["VL15_dropped"] = { 2, CounterKind::Saturating, 16, false };
    pc.counters["some_future_counter"] = { 9, CounterKind::Plain, 64, false };
    pc.hwCounters["np_ecn_marked_roce_packets"] = { 1000, CounterKind::Plain, 64, false };
    pc.hwCounters["np_cnp_sent"] = { 900, CounterKind::Plain, 64, false };
    pc.hwCounters["rp_cnp_handled"] = { 800, CounterKind::Plain, 64, false };
    pc.hwCounters["out_of_buffer"] = { 4294967295ULL, CounterKind::Wrapping32, 32, false };
    pc.hwCounters["lifespan"] = { 12, CounterKind::Plain, 64, false };
    pc.ethtool["rx_prio3_pause"] = 42;
    pc.ethtool["tx_prio3_pause"] = 7;
    pc.ethtool["rx_prio3_pause_duration"] = 1500000;
    pc.ethtool["rx_prio3_pause_transition"] = 21;
    pc.ethtool["rx_prio3_marked"] = 5;
    pc.ethtool["rx_prio3_discards"] = 3;
    pc.ethtool["rx_discards_phy"] = 11;
    pc.ethtool["rx_vport_unicast_bytes"] = 123; // not exported: ethtool -S has hundreds of these
    s.ports.push_back(pc);
    PortCounters big;
    big.device = "mlx5_bond_0";
    big.port = 1;
    big.counters["port_xmit_data"] = { std::numeric_limits<std::uint64_t>::max(), CounterKind::Words4, 64, false };
    s.ports.push_back(big);
    return s;
}

} // namespace

TEST(AgentMetrics, ExpositionParsesAndFamiliesAreWellFormed)
{
    const std::string text = prometheusText(sampleInventory(), sampleCounters());
    const auto e = parseExposition(text);
    ASSERT_TRUE(e.error.empty()) << e.error << "\n" << text;
    ASSERT_FALSE(e.samples.empty());
    for (const auto& [name, type] : e.types) {
        EXPECT_EQ(name.rfind("railyard_", 0), 0u) << name;
        EXPECT_TRUE(e.helps.count(name)) << name << " has no HELP";
        const bool total = name.size() > 6 && name.compare(name.size() - 6, 6, "_total") == 0;
        EXPECT_EQ(type == "counter", total) << name << " is a " << type;
    }
    for (const auto& s : e.samples) {
        if (s.name == "railyard_infiniband_info")
            continue;
        EXPECT_TRUE(s.labels.count("node") && s.labels.count("device") && s.labels.count("port")) << s.name;
    }
}

// Prometheus' own parser and linter (promtool): the text parses as Prometheus reads it, and the
// linter finds nothing (HELP on every family, counters named _total, base units, no type or
// reserved suffix in a name).
TEST(AgentMetrics, PromtoolParsesAndLintsTheExposition)
{
    // A broken text must fail, or a pass proves nothing.
    const auto broken = promtoolCheck("# TYPE railyard_x gauge\nrailyard_x{a=\"b} 1\n");
    if (!broken)
        GTEST_SKIP() << "promtool is not installed (Debian: prometheus)";
    EXPECT_EQ(broken->status, 1) << broken->out;
    EXPECT_NE(broken->out.find("parsing error"), std::string::npos) << broken->out;
    const auto lint = promtoolCheck("# HELP railyard_x_counter x\n# TYPE railyard_x_counter gauge\nrailyard_x_counter 1\n");
    EXPECT_EQ(lint->status, 3) << lint->out;

    const std::string text = prometheusText(sampleInventory(), sampleCounters());
    const auto verdict = promtoolCheck(text);
    EXPECT_EQ(verdict->status, 0) << verdict->out << "\n" << text;
    EXPECT_TRUE(verdict->out.empty()) << verdict->out;
}

TEST(AgentMetrics, UnitsAndNamesMirrorTheNodeExporter)
{
    const auto e = parseExposition(prometheusText(sampleInventory(), sampleCounters()));
    ASSERT_TRUE(e.error.empty()) << e.error;
    const std::map<std::string, std::string> port { { "device", "mlx5_3" }, { "port", "1" } };
    // port_xmit_data counts 4-byte words; the node exporter exports bytes (x4), and so do we.
    EXPECT_EQ(e.value("railyard_infiniband_port_data_transmitted_bytes_total", port), 921770677727356.0);
    EXPECT_EQ(e.value("railyard_infiniband_port_data_received_bytes_total", port), 400.0);
    EXPECT_EQ(e.value("railyard_infiniband_port_packets_transmitted_total", port), 315487941081.0);
    EXPECT_EQ(e.value("railyard_infiniband_port_transmit_wait_total", port), 2489603687.0);
    EXPECT_EQ(e.value("railyard_infiniband_port_errors_received_total", port), 14.0);
    EXPECT_EQ(e.value("railyard_infiniband_symbol_error_total", port), 65535.0);
    EXPECT_EQ(e.value("railyard_infiniband_vl15_dropped_total", port), 2.0);
    EXPECT_EQ(e.value("railyard_infiniband_state_id", port), 4.0);
    EXPECT_EQ(e.value("railyard_infiniband_physical_state_id", port), 5.0);
    EXPECT_EQ(e.value("railyard_infiniband_rate_bytes_per_second", port), 5e10);
    EXPECT_EQ(e.value("railyard_infiniband_link_width_lanes", port), 4.0);
    // Saturation is said, per saturating counter.
    EXPECT_EQ(e.value("railyard_infiniband_port_counters_saturated", { { "device", "mlx5_3" }, { "counter", "symbol_error" } }), 1.0);
    EXPECT_FALSE(e.value("railyard_infiniband_port_counters_saturated", { { "device", "mlx5_3" }, { "counter", "port_rcv_errors" } }));
    EXPECT_EQ(e.value("railyard_infiniband_saturated_counters", port), 1.0);
    EXPECT_EQ(e.value("railyard_infiniband_saturated_counters", { { "device", "mlx5_bond_0" } }), 0.0);
    // A counter file without a metric of its own is still exported.
    EXPECT_EQ(e.value("railyard_infiniband_port_counters_total", { { "counter", "some_future_counter" } }), 9.0);
    // Rails label the samples of rail NICs only.
    for (const auto& s : e.samples) {
        if (s.labels.count("device") && s.labels.at("device") == "mlx5_3") {
            EXPECT_EQ(s.labels.count("rail") ? s.labels.at("rail") : "", "1") << s.name;
        }
        if (s.labels.count("device") && s.labels.at("device") == "mlx5_bond_0") {
            EXPECT_FALSE(s.labels.count("rail")) << s.name;
        }
    }
    // Words beyond 2^64/4 bytes: exported as a float, never wrapped.
    const auto big = e.value("railyard_infiniband_port_data_transmitted_bytes_total", { { "device", "mlx5_bond_0" } });
    ASSERT_TRUE(big.has_value());
    EXPECT_GT(*big, 7e19);
}

TEST(AgentMetrics, CongestionAndPfcCounters)
{
    const auto e = parseExposition(prometheusText(sampleInventory(), sampleCounters()));
    ASSERT_TRUE(e.error.empty()) << e.error;
    EXPECT_EQ(e.value("railyard_rdma_hw_counters_total", { { "counter", "np_ecn_marked_roce_packets" } }), 1000.0);
    EXPECT_EQ(e.value("railyard_rdma_hw_counters_total", { { "counter", "np_cnp_sent" } }), 900.0);
    EXPECT_EQ(e.value("railyard_rdma_hw_counters_total", { { "counter", "rp_cnp_handled" } }), 800.0);
    EXPECT_EQ(e.value("railyard_rdma_hw_counters_total", { { "counter", "out_of_buffer" } }), 4294967295.0);
    EXPECT_FALSE(e.value("railyard_rdma_hw_counters_total", { { "counter", "lifespan" } }));
    EXPECT_EQ(e.value("railyard_rdma_hw_counters_lifespan_seconds", { { "device", "mlx5_3" } }), 0.012);
    const std::map<std::string, std::string> rx3 { { "netdev", "ibp24s0" }, { "direction", "rx" }, { "priority", "3" } };
    EXPECT_EQ(e.value("railyard_pfc_pause_frames_total", rx3), 42.0);
    EXPECT_EQ(e.value("railyard_pfc_pause_frames_total", { { "direction", "tx" }, { "priority", "3" } }), 7.0);
    EXPECT_EQ(e.value("railyard_pfc_pause_duration_seconds_total", rx3), 1.5); // microseconds in ethtool
    EXPECT_EQ(e.value("railyard_pfc_pause_transitions_total", rx3), 21.0);
    EXPECT_EQ(e.value("railyard_prio_ecn_marked_packets_total", rx3), 5.0);
    EXPECT_EQ(e.value("railyard_prio_discards_total", { { "priority", "3" }, { "reason", "discards" } }), 3.0);
    EXPECT_EQ(e.value("railyard_ethtool_rx_discards_phy_total", { { "netdev", "ibp24s0" } }), 11.0);
    for (const auto& s : e.samples)
        EXPECT_EQ(s.name.find("vport"), std::string::npos) << s.name;
}

TEST(AgentMetrics, LabelValuesAreEscaped)
{
    const std::string text = prometheusText(sampleInventory(), sampleCounters());
    EXPECT_NE(text.find(R"(board_id="board \"7\"\\x\nnext")"), std::string::npos) << text;
    const auto e = parseExposition(text);
    ASSERT_TRUE(e.error.empty()) << e.error;
    EXPECT_EQ(e.value("railyard_infiniband_info", { { "board_id", "board \"7\"\\x\nnext" } }), 1.0);
    EXPECT_EQ(e.value("railyard_infiniband_info", { { "device", "mlx5_3" }, { "firmware_version", "28.39.1002" },
                                                      { "hca_type", "MT4129" }, { "rail", "1" } }),
        1.0);
}

TEST(AgentMetrics, ParserCatchesBrokenText)
{
    // The parser of these tests must be able to fail, or the tests above prove nothing.
    EXPECT_FALSE(parseExposition("railyard_x_total 1\n").error.empty()); // no TYPE
    EXPECT_FALSE(parseExposition("# TYPE a gauge\na{b=\"c} 1\n").error.empty());
    EXPECT_FALSE(parseExposition("# TYPE a gauge\na{b=\"c\"} 1\na{b=\"c\"} 2\n").error.empty());
    EXPECT_FALSE(parseExposition("# TYPE a gauge\na one\n").error.empty());
    EXPECT_FALSE(parseExposition("# TYPE a gauge\na 1\n# TYPE b gauge\nb 1\na 2\n").error.empty());
    EXPECT_TRUE(parseExposition("# HELP a x\n# TYPE a gauge\na{b=\"\\\"\"} 1\n").error.empty());
}
