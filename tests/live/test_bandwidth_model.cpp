// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The bandwidth model: factors, header efficiency, bounds and verdicts, checked by hand.
#include "core/catalog.h"
#include "core/examples.h"
#include "core/plan_spec.h"
#include "live/client/bandwidth_model.h"
#include "planner/planner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace railyard::live {
namespace {

    core::Plan examplePlan(const std::string& name)
    {
        auto catalog = core::Catalog::builtin();
        EXPECT_TRUE(catalog.ok());
        const auto example = core::findExample(name);
        EXPECT_TRUE(example.has_value()) << name;
        auto spec = core::parsePlanSpecText(example->content, example->path);
        EXPECT_TRUE(spec.ok()) << spec.error().toString();
        auto plan = planner::makePlan(*spec, *catalog);
        EXPECT_TRUE(plan.ok());
        return *plan;
    }

    std::vector<std::string> hosts(const std::vector<std::string>& nodes, int ranksPerNode)
    {
        std::vector<std::string> out;
        for (const auto& n : nodes)
            for (int r = 0; r < ranksPerNode; ++r)
                out.push_back(n);
        return out;
    }

} // namespace

TEST(BandwidthModel, ToolNamesAndAlgorithms)
{
    EXPECT_EQ(collectiveOfTool("all_reduce_perf"), Collective::AllReduce);
    EXPECT_EQ(collectiveOfTool("reduce_scatter_perf"), Collective::ReduceScatter);
    EXPECT_EQ(collectiveOfTool("AllGather"), Collective::AllGather);
    EXPECT_EQ(collectiveOfTool("alltoall_perf"), Collective::AllToAll);
    EXPECT_EQ(collectiveOfTool("sendrecv_perf"), Collective::Unknown);
    EXPECT_EQ(ncclAlgorithmOf("NVLSTree"), NcclAlgorithm::NvlsTree);
    EXPECT_EQ(ncclAlgorithmOf("CollNetDirect"), NcclAlgorithm::CollNet);
    EXPECT_EQ(ncclAlgorithmOf("Ring"), NcclAlgorithm::Ring);
    EXPECT_EQ(ncclAlgorithmOf("bogus"), NcclAlgorithm::Unknown);
}

TEST(BandwidthModel, Factors)
{
    // 4 nodes x 8 GPUs.
    EXPECT_DOUBLE_EQ(busbwFactor(Collective::AllReduce, 32), 2.0 * 31 / 32);
    EXPECT_DOUBLE_EQ(busbwFactor(Collective::AllGather, 32), 31.0 / 32);
    EXPECT_DOUBLE_EQ(busbwFactor(Collective::Broadcast, 32), 1.0);
    EXPECT_DOUBLE_EQ(networkFactor(Collective::AllReduce, NcclAlgorithm::Unknown, 4, 32), 1.5);
    EXPECT_DOUBLE_EQ(networkFactor(Collective::AllReduce, NcclAlgorithm::Tree, 4, 32), 1.5);
    EXPECT_DOUBLE_EQ(networkFactor(Collective::AllReduce, NcclAlgorithm::Ring, 4, 32), 2.0 * 31 / 32);
    EXPECT_DOUBLE_EQ(networkFactor(Collective::AllReduce, NcclAlgorithm::CollNet, 4, 32), 0.75);
    EXPECT_DOUBLE_EQ(networkFactor(Collective::ReduceScatter, NcclAlgorithm::Unknown, 4, 32), 0.75);
    EXPECT_DOUBLE_EQ(networkFactor(Collective::AllGather, NcclAlgorithm::Ring, 4, 32), 31.0 / 32);
    EXPECT_DOUBLE_EQ(networkFactor(Collective::AllToAll, NcclAlgorithm::Unknown, 4, 32), 8 * 0.75);
    EXPECT_DOUBLE_EQ(networkFactor(Collective::AllReduce, NcclAlgorithm::Unknown, 1, 8), 0.0);
}

TEST(BandwidthModel, HeaderEfficiencyAndMtu)
{
    EXPECT_NEAR(headerEfficiency(core::Fabric::InfiniBand, 4096), 4096.0 / 4122, 1e-12);
    EXPECT_NEAR(headerEfficiency(core::Fabric::RoCEv2, 4096), 4096.0 / 4178, 1e-12);
    EXPECT_NEAR(headerEfficiency(core::Fabric::RoCEv2, 1024), 1024.0 / 1106, 1e-12);
    core::Plan plan = examplePlan("roce-lossless-demo");
    plan.spec.lossless.mtu = 9000;
    EXPECT_EQ(rdmaMtuOf(plan), 4096);
    plan.spec.lossless.mtu = 1500;
    EXPECT_EQ(rdmaMtuOf(plan), 1024);
    plan.spec.lossless.mtu = 2048;
    EXPECT_EQ(rdmaMtuOf(plan), 2048);
    EXPECT_EQ(rdmaMtuOf(examplePlan("dgx-h100-superpod-1su")), 4096);
}

// The 2-node 16 x H100 InfiniBand run of the fixtures (8 GiB: algbw 249.85 GB/s in place) against
// a DGX H100 SuperPOD: 8 x NDR 400 = 397.5 GB/s per node after headers; all_reduce moves
// algbw * 2(N-1)/N = algbw over each node's NICs, so the network bound is 397.5 GB/s algbw.
TEST(BandwidthModel, TwoNodeAllReduceAgainstTheNetworkBound)
{
    const core::Plan plan = examplePlan("dgx-h100-superpod-4su");
    CollectiveRun run { Collective::AllReduce, NcclAlgorithm::Unknown, 16, 0, hosts({ "node001", "node002" }, 8) };
    const std::vector<MeasuredCollectiveRow> rows { { 1u << 20, 40.0, 75.0 }, { 8589934592ull, 249.85, 468.46 } };
    const CollectiveModel m = modelCollective(plan, run, rows);
    EXPECT_EQ(m.nodes, 2);
    EXPECT_EQ(m.ranksPerNode, 8);
    EXPECT_FALSE(m.spansSus);
    EXPECT_TRUE(m.unmatchedHosts.empty());
    const double capacity = 8 * 400 * (4096.0 / 4122) / 8;
    EXPECT_NEAR(m.capacity.nodeGBs, capacity, 1e-9);
    EXPECT_DOUBLE_EQ(m.networkFactor, 1.0);
    ASSERT_TRUE(m.boundAlgbwGBs && m.boundBusbwGBs);
    EXPECT_NEAR(*m.boundAlgbwGBs, capacity, 1e-9);
    EXPECT_NEAR(*m.boundBusbwGBs, capacity * 2 * 15 / 16, 1e-9);
    ASSERT_EQ(m.rows.size(), 2u);
    EXPECT_NEAR(m.rows[1].netGBs, 249.85, 1e-9);
    EXPECT_NEAR(m.rows[1].percentOfBound, 249.85 / capacity * 100, 1e-9);
    EXPECT_EQ(m.verdict.status, "low"); // 62.9 %
    EXPECT_EQ(m.verdict.bytes, 8589934592ull);
    EXPECT_NE(m.verdict.message.find("NVLink"), std::string::npos) << m.verdict.message;
    ASSERT_EQ(m.findings.size(), 1u);
    EXPECT_EQ(m.findings[0].code, "BANDWIDTH_BELOW_BOUND");
    EXPECT_EQ(m.findings[0].severity, core::Severity::Error);

    const nlohmann::json doc = toJson(m);
    EXPECT_EQ(doc["verdict"]["status"], "low");
    EXPECT_EQ(doc["rows"].size(), 2u);
    EXPECT_DOUBLE_EQ(doc["rows"][1]["net_bw_gbs"].get<double>(), 249.85);
    EXPECT_NEAR(doc["bound_busbw_gbs"].get<double>(), capacity * 2 * 15 / 16, 0.01);
}

TEST(BandwidthModel, VerdictThresholdsAndRing)
{
    const core::Plan plan = examplePlan("dgx-h100-superpod-4su");
    const double capacity = 8 * 400 * (4096.0 / 4122) / 8;
    // Ring on 2 nodes: the NICs carry 2(n-1)/n of algbw, so the bound is lower.
    CollectiveRun run { Collective::AllReduce, NcclAlgorithm::Ring, 16, 2, {} };
    const double ringBound = capacity / (2.0 * 15 / 16);
    const CollectiveModel m = modelCollective(plan, run, { { 1ull << 30, 0.95 * ringBound, 0 } });
    ASSERT_TRUE(m.boundAlgbwGBs);
    EXPECT_NEAR(*m.boundAlgbwGBs, ringBound, 1e-9);
    EXPECT_EQ(m.verdict.status, "meets");
    EXPECT_TRUE(m.findings.empty());
    const CollectiveModel below = modelCollective(plan, run, { { 1ull << 30, 0.8 * ringBound, 0 } });
    EXPECT_EQ(below.verdict.status, "below");
    ASSERT_EQ(below.findings.size(), 1u);
    EXPECT_EQ(below.findings[0].severity, core::Severity::Warning);
    VerdictThresholds strict { 99, 95 };
    EXPECT_EQ(modelCollective(plan, run, { { 1ull << 30, 0.97 * ringBound, 0 } }, strict).verdict.status, "below");
}

TEST(BandwidthModel, SingleNodeHasNoNetworkBound)
{
    const core::Plan plan = examplePlan("dgx-h100-superpod-1su");
    CollectiveRun run { Collective::AllReduce, NcclAlgorithm::Unknown, 8, 0, hosts({ "node001" }, 8) };
    const CollectiveModel m = modelCollective(plan, run, { { 1ull << 30, 230, 400 } });
    EXPECT_EQ(m.nodes, 1);
    EXPECT_FALSE(m.boundAlgbwGBs);
    EXPECT_EQ(m.verdict.status, "no-network");
    EXPECT_TRUE(toJson(m)["bound_algbw_gbs"].is_null());
}

TEST(BandwidthModel, RunAcrossSusOfAnOversubscribedPlanSharesTheUplinks)
{
    const core::Plan plan = examplePlan("ib-ndr-2to1");
    ASSERT_GT(plan.summary.leafOversubscription, 1.0);
    ASSERT_GT(plan.summary.suCount, 1);
    // The first node of SU 1 and of SU 2.
    std::vector<std::string> names;
    for (const auto& d : plan.devices)
        if (d.kind == core::DeviceKind::Node && (names.empty() || d.su != 1) && names.size() < 2)
            names.push_back(d.name);
    ASSERT_EQ(names.size(), 2u);
    const int g = static_cast<int>(plan.summary.gpus / plan.summary.nodes);
    CollectiveRun across { Collective::AllReduce, NcclAlgorithm::Unknown, 2 * g, 0, hosts(names, g) };
    const CollectiveModel m = modelCollective(plan, across, { { 1ull << 30, 100, 0 } });
    EXPECT_TRUE(m.spansSus);
    EXPECT_DOUBLE_EQ(m.capacity.oversubscription, plan.summary.leafOversubscription);
    CollectiveRun within { Collective::AllReduce, NcclAlgorithm::Unknown, 2 * g, 0, hosts({ names[0], names[0] + "x" }, g) };
    const CollectiveModel w = modelCollective(plan, within, { { 1ull << 30, 100, 0 } });
    EXPECT_EQ(w.unmatchedHosts.size(), 1u);
    EXPECT_FALSE(w.spansSus); // 2 nodes are fewer than an SU
    EXPECT_DOUBLE_EQ(w.capacity.oversubscription, 1.0);
    ASSERT_FALSE(w.findings.empty());
    EXPECT_EQ(w.findings[0].code, "HOSTS_NOT_IN_PLAN");
}

TEST(BandwidthModel, PerftestAgainstOneRail)
{
    const core::Plan plan = examplePlan("dgx-h100-superpod-1su");
    const std::vector<std::string> railMap { "mlx5_0", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_9", "mlx5_10", "mlx5_11" };
    const double bound = 400 * 4096.0 / 4122;
    const std::vector<MeasuredPerftestRow> rows { { 65536, 300 }, { 1u << 20, 380 }, { 8u << 20, 379 } };
    const PerftestModel m = modelPerftest(plan, railMap, "mlx5_9", false, rows);
    EXPECT_EQ(m.rail, 5);
    EXPECT_NEAR(m.boundGbps, bound, 1e-9);
    EXPECT_EQ(m.verdict.status, "meets");
    EXPECT_EQ(m.verdict.bytes, 1u << 20);
    ASSERT_EQ(m.percentOfBound.size(), 3u);
    EXPECT_NEAR(m.percentOfBound[0], 300 / bound * 100, 1e-9);

    const PerftestModel bidir = modelPerftest(plan, railMap, "mlx5_2", true, rows);
    EXPECT_EQ(bidir.rail, -1);
    EXPECT_NEAR(bidir.boundGbps, 2 * bound, 1e-9);
    EXPECT_EQ(bidir.verdict.status, "low");
    ASSERT_EQ(bidir.findings.size(), 1u);
    EXPECT_EQ(bidir.findings[0].where, "mlx5_2");
    EXPECT_TRUE(toJson(bidir)["rail"].is_null());
}

} // namespace railyard::live
