// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// parseIbdev2netdev and parseNvidiaSmiTopo against the real outputs in ../shared/fixtures.
#include "live/common/tool_parsers.h"
#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>


using namespace railyard::live;
using namespace railyard::live::test;

namespace {

std::vector<std::string> closestNames(const GpuTopology& t)
{
    std::vector<std::string> out;
    for (std::size_t g = 0; g < t.gpus.size(); ++g) {
        const auto n = closestNic(t, g);
        out.push_back(n ? t.nics[*n] + "/" + t.gpuToNic[g][*n] : "-");
    }
    return out;
}

} // namespace

TEST(ParseIbdev2netdev, RoceNodeAfterIpBrief)
{
    std::vector<std::string> warnings;
    const auto r = parseIbdev2netdev(sharedFixture("ibdev2netdev-and-ip-br-a-8rail-roce-h100-class-node.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 12u);
    // The `ip -br -c a` output before it belongs to another command: skipped without a word.
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    EXPECT_EQ((*r)[0].device, "mlx5_0");
    EXPECT_EQ((*r)[0].port, 1);
    EXPECT_EQ((*r)[0].netdev, "enp25s0np0");
    EXPECT_TRUE((*r)[0].up);
    EXPECT_EQ((*r)[2].device, "mlx5_10");
    EXPECT_EQ((*r)[2].netdev, "enp210s0f1np1");
    EXPECT_FALSE((*r)[2].up);
    EXPECT_EQ((*r)[5].device, "mlx5_3");
    EXPECT_EQ((*r)[5].netdev, "bond0");
    EXPECT_EQ((*r)[11].device, "mlx5_9");
    EXPECT_EQ((*r)[11].netdev, "bond0");
}

TEST(ParseIbdev2netdev, ColumnAlignedWithComments)
{
    const auto r = parseIbdev2netdev(sharedFixture("ibdev2netdev-h100-node-8x-cx7-ib-plus-cx6-eth-annotated.txt"));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->size(), 12u);
    EXPECT_EQ((*r)[0].netdev, "ibp26s0");
    EXPECT_FALSE((*r)[0].up);
    EXPECT_EQ((*r)[1].netdev, "enp27s0f0np0");
    EXPECT_TRUE((*r)[1].up);
    EXPECT_EQ((*r)[9].device, "mlx5_7");
    EXPECT_EQ((*r)[9].netdev, "enp157s0f0np0");
    EXPECT_TRUE((*r)[9].up);
}

TEST(ParseNvidiaSmiTopo, B200SixteenNicsTwoNuma)
{
    std::vector<std::string> warnings;
    const auto r = parseNvidiaSmiTopo(sharedFixture("nvidia-smi-topo-m-8xB200-NV18-16nic-2numa-complete-with-legend.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->gpus.size(), 8u);
    ASSERT_EQ(r->nics.size(), 16u);
    EXPECT_EQ(r->nics[0], "mlx5_0");
    EXPECT_EQ(r->nics[15], "mlx5_15");
    EXPECT_EQ(r->gpuToNic[0][0], "PIX");
    EXPECT_EQ(r->gpuToNic[0][6], "SYS");
    EXPECT_EQ(r->gpuToNic[4][7], "NODE");
    EXPECT_EQ(r->gpuNuma[0], 0);
    EXPECT_EQ(r->gpuNuma[7], 1);
    EXPECT_EQ(r->gpuCpuAffinity[0], "0-127");
    EXPECT_EQ(r->gpuCpuAffinity[4], "128-255");
    EXPECT_EQ(closestNames(*r), (std::vector<std::string> { "mlx5_0/PIX", "mlx5_1/PIX", "mlx5_4/PIX", "mlx5_5/PIX", "mlx5_6/PIX",
                                    "mlx5_11/PIX", "mlx5_14/PIX", "mlx5_15/PIX" }));
    // The job banner before the table is skipped, and said so.
    EXPECT_TRUE(anyContains(warnings, "skipped 4 line(s)"));
}

TEST(ParseNvidiaSmiTopo, TwelveNicRoceNode)
{
    std::vector<std::string> warnings;
    const auto r = parseNvidiaSmiTopo(sharedFixture("nvidia-smi-topo-m-8xGPU-NV18-12nic-roce-complete-with-legend.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(warnings.empty()) << warnings.front();
    ASSERT_EQ(r->nics.size(), 12u);
    EXPECT_EQ(r->nics[10], "mlx5_10");
    EXPECT_EQ(closestNames(*r), (std::vector<std::string> { "mlx5_0/PIX", "mlx5_1/PIX", "mlx5_2/PIX", "mlx5_5/PIX", "mlx5_6/PIX",
                                    "mlx5_7/PIX", "mlx5_8/PIX", "mlx5_11/PIX" }));
    for (int n : r->gpuNuma)
        EXPECT_EQ(n, 0);
}

TEST(ParseNvidiaSmiTopo, MpOneGpuTenNicsTiesToLowestNic)
{
    const auto r = parseNvidiaSmiTopo(sharedFixture("nvidia-smi-topo-mp-1gpu-10nic-r760xa.txt"));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->gpus, std::vector<std::string> { "GPU0" });
    ASSERT_EQ(r->nics.size(), 10u);
    EXPECT_EQ(r->nics[9], "mlx5_9");
    EXPECT_EQ(r->gpuCpuAffinity[0], "0,2,4,6,8,10");
    EXPECT_EQ(r->gpuNuma[0], 0);
    EXPECT_EQ(closestNames(*r), std::vector<std::string> { "mlx5_0/NODE" });
}

TEST(ParseNvidiaSmiTopo, PartialSixNicsNoLegend)
{
    std::vector<std::string> warnings;
    const auto r = parseNvidiaSmiTopo(sharedFixture("nvidia-smi-topo-m-8xH100-6nic-PARTIAL.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->gpus.size(), 8u);
    EXPECT_EQ(r->nics, (std::vector<std::string> { "NIC0", "NIC1", "NIC2", "NIC3", "NIC4", "NIC5" }));
    EXPECT_EQ(closestNames(*r), (std::vector<std::string> { "NIC0/PIX", "NIC0/SYS", "NIC1/PIX", "NIC0/SYS", "NIC2/PIX", "NIC0/SYS",
                                    "NIC3/PIX", "-" }));
    EXPECT_EQ(r->gpuToNic[7], std::vector<std::string>(6, ""));
    EXPECT_EQ(r->gpuNuma[6], 1);
    EXPECT_EQ(r->gpuCpuAffinity[6], "48-95,144-191");
    EXPECT_TRUE(anyContains(warnings, "row of GPU7 is cut short"));
    EXPECT_TRUE(anyContains(warnings, "no NIC legend"));
}

TEST(ParseNvidiaSmiTopo, PartialNineNics)
{
    const auto r = parseNvidiaSmiTopo(sharedFixture("nvidia-smi-topo-m-8xGPU-NV8-9nic-PARTIAL.txt"));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->gpus.size(), 8u);
    ASSERT_EQ(r->nics.size(), 9u);
    EXPECT_EQ(closestNames(*r), (std::vector<std::string> { "NIC2/PIX", "NIC4/PIX", "NIC6/PIX", "NIC8/PIX", "NIC1/PIX", "NIC3/PIX",
                                    "NIC5/PIX", "-" }));
    EXPECT_EQ(r->gpuNuma[4], 1);
    EXPECT_EQ(r->gpuNuma[0], 0);
}

TEST(ParseNvidiaSmiTopo, V100MatrixAfterNcclOutput)
{
    std::vector<std::string> warnings;
    const auto r = parseNvidiaSmiTopo(sharedFixture("nccl-allgather-8xV100-old-format-out-of-bounds-FAILED.txt"), warnings);
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->gpus.size(), 8u);
    EXPECT_TRUE(r->nics.empty());
    EXPECT_EQ(r->gpuCpuAffinity[3], "0-95");
    EXPECT_EQ(r->gpuNuma[3], -1);
    EXPECT_FALSE(closestNic(*r, 0));
    EXPECT_TRUE(anyContains(warnings, "skipped"));
}

TEST(ParseNvidiaSmiTopo, RelationOrderAndTies)
{
    GpuTopology t;
    t.gpus = { "GPU0", "GPU1", "GPU2" };
    t.nics = { "mlx5_0", "mlx5_1", "mlx5_2" };
    t.gpuToNic = { { "SYS", "PHB", "PXB" }, { "NODE", "NODE", "SYS" }, { "NV18", "X", "" } };
    EXPECT_EQ(closestNic(t, 0), 2u);
    EXPECT_EQ(closestNic(t, 1), 0u);
    EXPECT_FALSE(closestNic(t, 2));
    EXPECT_FALSE(closestNic(t, 3));
    EXPECT_LT(*topoRelationRank("PIX"), *topoRelationRank("PXB"));
    EXPECT_LT(*topoRelationRank("PHB"), *topoRelationRank("NODE"));
    EXPECT_EQ(topoRelationRank("SOC"), topoRelationRank("SYS"));
}

TEST(ParseNvidiaSmiTopo, BadCellInsideTheMatrixIsAnError)
{
    std::string text = sharedFixture("nvidia-smi-topo-m-8xGPU-NV18-12nic-roce-complete-with-legend.txt");
    const auto at = text.find("PIX", text.find("\nGPU0"));
    text.replace(at, 3, "PIZ");
    const auto r = parseNvidiaSmiTopo(text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, "TOOL_OUTPUT");
    EXPECT_NE(r.error().message.find("nvidia-smi topo -m: line 4 'GPU0"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("PIZ"), std::string::npos);
}
