// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Prometheus source without a server: the API's answers (vector, matrix, scalar, errors, NaN
// and Inf, malformed), PromQL durations, the queries sent, the merge into PortRates (leaf from the
// plan, hw counters, PFC, link errors, stale and foreign series) and the transport errors of a
// server that is not there or does not answer. test_prometheus_e2e.cpp runs a real server.
#include "live/client/prometheus_source.h"

#include "tests/live/loopback_http.h"
#include "tests/live/scripted_agent.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>

#include <cmath>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace railyard::live {
namespace {

    const simtest::PlannedFabric& ibFabric()
    {
        static const simtest::PlannedFabric f = simtest::planOf(simtest::kIbSpec);
        return f;
    }

    /// An answer of `resultType` "vector" with one series per (labels, value).
    std::string vectorAnswer(const std::vector<std::pair<std::string, std::string>>& series, double at = 1700000000.5)
    {
        std::string out = R"({"status":"success","data":{"resultType":"vector","result":[)";
        for (std::size_t i = 0; i < series.size(); ++i)
            out += (i ? "," : "") + std::string(R"({"metric":)") + series[i].first + R"(,"value":[)" + std::to_string(at) + R"(,")"
                + series[i].second + R"("]})";
        return out + "]}}";
    }

    PromAnswer parsed(const std::string& body)
    {
        core::Result<PromAnswer> a = parsePrometheusAnswer(body, "test");
        EXPECT_TRUE(a) << (a ? "" : a.error().toString());
        return a ? *a : PromAnswer {};
    }

    PromAnswer empty() { return parsed(vectorAnswer({})); }

    const PortRates* findPort(const PrometheusReading& r, const std::string& node, const std::string& device)
    {
        for (const PortRates& p : r.ports)
            if (p.node == node && p.device == device)
                return &p;
        return nullptr;
    }

} // namespace

TEST(PrometheusAnswer, VectorWithLabelsAndValues)
{
    const PromAnswer a = parsed(vectorAnswer({ { R"({"node":"node001","device":"mlx5_0","port":"1","rail":"0"})", "46000000000" },
        { R"({"node":"node002","device":"mlx5_0","port":"1","rail":"0"})", "1.5e3" } }));
    EXPECT_EQ(a.resultType, "vector");
    ASSERT_EQ(a.series.size(), 2u);
    EXPECT_EQ(a.series[0].labels.at("node"), "node001");
    EXPECT_EQ(a.series[0].labels.at("rail"), "0");
    ASSERT_EQ(a.series[0].samples.size(), 1u);
    EXPECT_DOUBLE_EQ(a.series[0].samples[0].first, 1700000000.5);
    EXPECT_DOUBLE_EQ(a.series[0].samples[0].second, 46e9);
    EXPECT_DOUBLE_EQ(a.series[1].samples[0].second, 1500);
}

TEST(PrometheusAnswer, MatrixScalarNanAndInf)
{
    const PromAnswer m = parsed(R"({"status":"success","data":{"resultType":"matrix","result":[
        {"metric":{"__name__":"up","instance":"a:1"},"values":[[10,"1"],[11,"NaN"],[12,"+Inf"],[13,"-Inf"]]}]},
        "warnings":["some series were dropped"]})");
    EXPECT_EQ(m.resultType, "matrix");
    ASSERT_EQ(m.series.size(), 1u);
    ASSERT_EQ(m.series[0].samples.size(), 4u);
    EXPECT_EQ(m.series[0].samples[0].second, 1);
    EXPECT_TRUE(std::isnan(m.series[0].samples[1].second));
    EXPECT_TRUE(std::isinf(m.series[0].samples[2].second) && m.series[0].samples[2].second > 0);
    EXPECT_TRUE(std::isinf(m.series[0].samples[3].second) && m.series[0].samples[3].second < 0);
    ASSERT_EQ(m.warnings.size(), 1u);

    const PromAnswer s = parsed(R"({"status":"success","data":{"resultType":"scalar","result":[1700000000,"42"]}})");
    ASSERT_EQ(s.series.size(), 1u);
    EXPECT_TRUE(s.series[0].labels.empty());
    EXPECT_EQ(s.series[0].samples[0].second, 42);
}

TEST(PrometheusAnswer, ErrorPayloadsAndMalformedAnswers)
{
    const auto bad = parsePrometheusAnswer(
        R"({"status":"error","errorType":"bad_data","error":"invalid parameter \"query\": 1:6: parse error: unexpected \"}\""})", "rate(x[5m])");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().code, "PROMETHEUS_QUERY");
    EXPECT_EQ(bad.error().where, "rate(x[5m])");
    EXPECT_NE(bad.error().message.find("bad_data: invalid parameter"), std::string::npos) << bad.error().message;
    EXPECT_NE(bad.error().hint.find("--selector"), std::string::npos);

    const auto oddError = parsePrometheusAnswer(R"({"status":"error","errorType":["bad_data"],"error":{"text":"x"}})", "q");
    ASSERT_FALSE(oddError);
    EXPECT_EQ(oddError.error().code, "PROMETHEUS_QUERY");

    const auto timeout = parsePrometheusAnswer(R"({"status":"error","errorType":"timeout","error":"query timed out in expression evaluation"})", "q");
    ASSERT_FALSE(timeout);
    EXPECT_NE(timeout.error().hint.find("--query.timeout"), std::string::npos);

    for (const char* body : { "<html>Grafana</html>", R"({"status":"success"})", R"({"status":"success","data":{"resultType":"string","result":[1,"x"]}})",
             R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1,"twelve"]}]}})",
             R"({"status":"success","data":{"resultType":"vector","result":[{"value":[1,"1"]}]}})", R"({"data":{}})",
             // Fields of another type than the API's (found by fuzz_agent_answers: they threw nlohmann's type_error).
             R"({"status":{"resultType":"scalar","result":[1700000000,"3.5"]}})", R"({"status":"success","data":{"resultType":7,"result":[]}})" }) {
        const auto r = parsePrometheusAnswer(body, "q");
        ASSERT_FALSE(r) << body;
        EXPECT_EQ(r.error().code, "PROMETHEUS_MALFORMED") << body;
    }
}

TEST(PrometheusAnswer, Durations)
{
    EXPECT_EQ(promDurationSeconds("30s"), 30);
    EXPECT_EQ(promDurationSeconds("1m30s"), 90);
    EXPECT_EQ(promDurationSeconds("2h"), 7200);
    EXPECT_DOUBLE_EQ(*promDurationSeconds("1500ms"), 1.5);
    EXPECT_DOUBLE_EQ(*promDurationSeconds("1m500ms"), 60.5);
    for (const char* bad : { "", "30", "s", "1.5m", "-5s", "5 s", "0s", "5x" })
        EXPECT_FALSE(promDurationSeconds(bad)) << bad;
}

TEST(PrometheusSource, QueriesCarryWindowAndSelector)
{
    PrometheusOptions o;
    o.url = "http://127.0.0.1:9090";
    o.window = "20s";
    o.selector = R"(job="railyard")";
    const PrometheusSource source(ibFabric().plan, o);
    EXPECT_TRUE(source.validate());
    const std::vector<std::string> q = source.queries();
    ASSERT_EQ(q.size(), 14u);
    EXPECT_EQ(q[0], R"(rate(railyard_infiniband_port_data_transmitted_bytes_total{job="railyard"}[20s]))");
    EXPECT_EQ(q[3], R"(timestamp(railyard_infiniband_port_data_transmitted_bytes_total{job="railyard"}))");
    EXPECT_EQ(q[5], R"(sum without (priority) (rate(railyard_pfc_pause_frames_total{direction="rx",job="railyard"}[20s])))");
    EXPECT_EQ(q[13], R"(increase(railyard_infiniband_excessive_buffer_overrun_errors_total{job="railyard"}[20s]))");

    o.metrics = PrometheusMetrics::NodeExporter;
    o.selector.clear();
    const std::vector<std::string> ne = PrometheusSource(ibFabric().plan, o).queries();
    ASSERT_EQ(ne.size(), 11u); // no hw_counters or PFC in the node exporter
    EXPECT_EQ(ne[0], "rate(node_infiniband_port_data_transmitted_bytes_total[20s])");
}

TEST(PrometheusSource, ValidateNamesTheOption)
{
    PrometheusOptions o;
    o.url = "https://prom:9090";
    o.window = "5";
    o.selector = R"(job="x"}) or vector(1) or foo{a="b")";
    const core::Status s = PrometheusSource(ibFabric().plan, o).validate();
    ASSERT_FALSE(s);
    ASSERT_EQ(s.errors().size(), 3u);
    EXPECT_EQ(s.errors()[0].where, "--prometheus");
    EXPECT_EQ(s.errors()[1].where, "--window");
    EXPECT_EQ(s.errors()[2].where, "--selector");
}

TEST(PrometheusSource, MergeGivesPortRatesWithThePlansLeaves)
{
    PrometheusOptions o;
    o.url = "http://127.0.0.1:9090";
    o.window = "10s";
    const PrometheusSource source(ibFabric().plan, o);
    const double now = 1700000100;
    const std::string n1 = R"({"node":"node001","device":"mlx5_0","port":"1","rail":"0")";
    const std::string n5 = R"({"node":"node005","device":"mlx5_3","port":"1","rail":"1")";
    std::vector<PromAnswer> answers(source.queries().size(), empty());
    answers[0] = parsed(vectorAnswer({ { n1 + "}", "46000000000" }, { n5 + "}", "25000000000" },
                                       { R"({"node":"other-cluster-7","device":"mlx5_0","port":"1","rail":"0"})", "1" } },
        now));
    answers[1] = parsed(vectorAnswer({ { n1 + "}", "45000000000" }, { n5 + "}", "NaN" } }, now));
    answers[2] = parsed(vectorAnswer({ { n1 + "}", "123456" } }, now));
    answers[3] = parsed(vectorAnswer({ { n1 + "}", std::to_string(now - 1) }, { n5 + "}", std::to_string(now - 2) } }, now));
    answers[4] = parsed(vectorAnswer({ { n1 + R"(,"counter":"np_ecn_marked_roce_packets"})", "2000" }, { n1 + R"(,"counter":"np_cnp_sent"})", "1500" },
                                       { n1 + R"(,"counter":"out_of_sequence"})", "3" }, { n1 + R"(,"counter":"packet_seq_err"})", "4" } },
        now));
    answers[5] = parsed(vectorAnswer({ { n1 + R"(,"direction":"rx","netdev":"ibp19s0"})", "250" } }, now));
    answers[6] = parsed(vectorAnswer({ { n1 + R"(,"direction":"rx","netdev":"ibp19s0"})", "0.25" } }, now));
    answers[7] = parsed(vectorAnswer({ { n1 + "}", "2.4" } }, now));  // symbol errors over the window
    answers[9] = parsed(vectorAnswer({ { n1 + "}", "1" } }, now));    // link downed
    const core::Result<PrometheusReading> r = source.merge(answers);
    ASSERT_TRUE(r) << r.error().toString();
    EXPECT_EQ(r->timestampMs, 1700000100000);
    ASSERT_EQ(r->ports.size(), 2u);
    const PortRates* p = findPort(*r, "node001", "mlx5_0");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->rail, 0);
    EXPECT_EQ(p->leaf, "su1-rail0-leaf");
    EXPECT_EQ(p->seconds, 10);
    EXPECT_DOUBLE_EQ(*p->txGbps, 368);
    EXPECT_DOUBLE_EQ(*p->rxGbps, 360);
    EXPECT_DOUBLE_EQ(*p->xmitWaitPerS, 123456);
    EXPECT_EQ(p->ecnMarkedPerS, 2000);
    EXPECT_EQ(p->cnpSentPerS, 1500);
    EXPECT_EQ(p->outOfSequencePerS, 7);
    EXPECT_EQ(p->pfcPausePerS, 250);
    EXPECT_DOUBLE_EQ(p->pfcPauseUsPerS, 250000);
    EXPECT_EQ(p->linkErrors, 3u); // round(2.4) + 1
    const PortRates* q = findPort(*r, "node005", "mlx5_3");
    ASSERT_NE(q, nullptr);
    EXPECT_EQ(q->leaf, "su2-rail1-leaf");
    EXPECT_DOUBLE_EQ(*q->txGbps, 200);
    EXPECT_FALSE(q->rxGbps); // NaN: left out, with a note
    ASSERT_EQ(q->notes.size(), 1u);
    EXPECT_EQ(q->notes[0], "receive rate is NaN in Prometheus' answer: left out");
    ASSERT_EQ(r->notes.size(), 1u);
    EXPECT_NE(r->notes[0].find("1 node(s) not in the plan left out"), std::string::npos) << r->notes[0];
    EXPECT_NE(r->notes[0].find("other-cluster-7"), std::string::npos);

    // The same rates through the one aggregation: rail 0 and its SU 1 leaf.
    std::map<std::string, double> floor;
    const Sweep s = aggregateSweep(r->ports, ibFabric().plan, {}, floor, r->timestampMs);
    ASSERT_EQ(s.rails.size(), 2u);
    EXPECT_EQ(s.rails[0].name, "rail 0");
    EXPECT_EQ(s.rails[0].health, Health::Erroring);
    ASSERT_EQ(s.leaves.size(), 2u);
    EXPECT_EQ(s.leaves[0].name, "su1-rail0-leaf");
    EXPECT_DOUBLE_EQ(s.leaves[0].txGbps, 368);
}

TEST(PrometheusSource, StalePortsAreLeftOut)
{
    PrometheusOptions o;
    o.url = "http://127.0.0.1:9090";
    o.window = "30s";
    o.staleAfter = std::chrono::milliseconds(5000);
    const PrometheusSource source(ibFabric().plan, o);
    const double now = 1700000100;
    std::vector<PromAnswer> answers(source.queries().size(), empty());
    answers[0] = parsed(vectorAnswer({ { R"({"node":"node001","device":"mlx5_0","port":"1","rail":"0"})", "1e9" },
                                       { R"({"node":"node002","device":"mlx5_0","port":"1","rail":"0"})", "1e9" } },
        now));
    // node002's target stopped answering 20 s ago: rate() still finds its older samples in the window.
    answers[3] = parsed(vectorAnswer({ { R"({"node":"node001","device":"mlx5_0","port":"1","rail":"0"})", std::to_string(now - 1) },
                                       { R"({"node":"node002","device":"mlx5_0","port":"1","rail":"0"})", std::to_string(now - 20) } },
        now));
    const auto r = source.merge(answers);
    ASSERT_TRUE(r) << r.error().toString();
    ASSERT_EQ(r->ports.size(), 1u);
    EXPECT_EQ(r->ports[0].node, "node001");
    ASSERT_EQ(r->notes.size(), 1u);
    EXPECT_NE(r->notes[0].find("1 stale port(s) left out"), std::string::npos) << r->notes[0];
    EXPECT_NE(r->notes[0].find("node002 mlx5_0 (last sample 20 s ago)"), std::string::npos) << r->notes[0];
}

TEST(PrometheusSource, NoDataSaysWhatToCheck)
{
    PrometheusOptions o;
    o.url = "http://127.0.0.1:9090";
    const PrometheusSource source(ibFabric().plan, o);
    const auto r = source.merge(std::vector<PromAnswer>(source.queries().size(), empty()));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "PROMETHEUS_NO_DATA");
    EXPECT_NE(r.error().hint.find("export file-sd"), std::string::npos) << r.error().hint;
}

TEST(PrometheusSource, NodeExporterSeriesGetNodeFromInstanceAndRailFromTheRailMap)
{
    PrometheusOptions o;
    o.url = "http://127.0.0.1:9090";
    o.metrics = PrometheusMetrics::NodeExporter;
    const PrometheusSource source(ibFabric().plan, o, { { "mlx5_0", 0 }, { "mlx5_3", 1 } });
    std::vector<PromAnswer> answers(source.queries().size(), empty());
    answers[0] = parsed(vectorAnswer({ { R"({"instance":"node003:9100","device":"mlx5_3","port":"1","job":"node"})", "5e9" },
        { R"({"instance":"node003:9100","device":"mlx5_bond_0","port":"1","job":"node"})", "1" } }));
    const auto r = source.merge(answers);
    ASSERT_TRUE(r) << r.error().toString();
    const PortRates* p = findPort(*r, "node003", "mlx5_3");
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->rail, 1);
    EXPECT_EQ(p->leaf, "su1-rail1-leaf");
    EXPECT_DOUBLE_EQ(*p->txGbps, 40);
    const PortRates* bond = findPort(*r, "node003", "mlx5_bond_0");
    ASSERT_NE(bond, nullptr);
    EXPECT_EQ(bond->rail, -1);
    ASSERT_EQ(r->notes.size(), 1u);
    EXPECT_NE(r->notes[0].find("node003 mlx5_bond_0"), std::string::npos) << r->notes[0];
}

TEST(PrometheusSource, EveryQueryOfARoundIsReadAtTheFirstOnesInstant)
{
    // The server evaluates the first query at its now (1733580000.125 here); the other queries of
    // the round ask for that instant, so a scrape between them cannot mix two moments.
    test::ScriptedAgent server([](const std::string&) -> std::pair<int, std::string> {
        return { 200, R"({"status":"success","data":{"resultType":"vector","result":[
            {"metric":{"node":"node001","device":"mlx5_0","port":"1","rail":"0"},"value":[1733580000.125,"1733580000"]}]}})" };
    });
    ASSERT_TRUE(server.ok());
    PrometheusOptions o;
    o.url = server.url();
    const PrometheusSource source(ibFabric().plan, o);
    const auto reading = source.read();
    ASSERT_TRUE(reading) << reading.error().toString();
    EXPECT_EQ(reading->timestampMs, 1733580000125);
    const std::vector<std::string> asked = server.targets();
    ASSERT_EQ(asked.size(), source.queries().size());
    EXPECT_EQ(asked[0].find("time="), std::string::npos) << asked[0]; // sent alone, first
    for (std::size_t i = 1; i < asked.size(); ++i)
        EXPECT_TRUE(asked[i].ends_with("&time=1733580000.125")) << asked[i];
}

TEST(PrometheusSource, ServerNotThereOrSilent)
{
    PrometheusOptions o;
    o.url = "http://127.0.0.1:" + std::to_string(test::unusedLoopbackPort());
    o.deadline = std::chrono::milliseconds(3000);
    const auto down = PrometheusSource(ibFabric().plan, o).read();
    ASSERT_FALSE(down);
    EXPECT_EQ(down.error().code, "PROMETHEUS_UNREACHABLE");
    EXPECT_NE(down.error().message.find("connection refused"), std::string::npos) << down.error().message;
    EXPECT_NE(down.error().hint.find("/-/ready"), std::string::npos);

    // A server that accepts connections (the kernel's backlog) and never answers: the deadline holds.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(fd, 64), 0);
    socklen_t len = sizeof addr;
    ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
    o.url = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
    o.deadline = std::chrono::milliseconds(300);
    const auto started = std::chrono::steady_clock::now();
    const auto silent = PrometheusSource(ibFabric().plan, o).read();
    const auto took = std::chrono::steady_clock::now() - started;
    ::close(fd);
    ASSERT_FALSE(silent);
    EXPECT_EQ(silent.error().code, "PROMETHEUS_TIMEOUT");
    EXPECT_LT(took, std::chrono::seconds(5)); // the queries run in parallel, each with its deadline
}

} // namespace railyard::live
