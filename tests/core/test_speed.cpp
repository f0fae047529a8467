// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/speed.h"

#include <gtest/gtest.h>

using namespace railyard::core;

TEST(Speed, NdrWidths)
{
    auto ndr4 = ibRate(IbGeneration::NDR, 4);
    ASSERT_TRUE(ndr4);
    EXPECT_DOUBLE_EQ(ndr4->dataGbps, 400);
    EXPECT_DOUBLE_EQ(ndr4->signalingGbps, 425);
    auto ndr2 = ibRate(IbGeneration::NDR, 2);
    ASSERT_TRUE(ndr2);
    EXPECT_DOUBLE_EQ(ndr2->dataGbps, 200);
    EXPECT_FALSE(ibRate(IbGeneration::EDR, 2));
}

TEST(Speed, EncodingRatioOfPam4Generations)
{
    // 256b/257b transcoding plus RS(544,514): data = signaling x 256/257 x 514/544.
    for (auto gen : { IbGeneration::HDR, IbGeneration::NDR, IbGeneration::XDR }) {
        const auto& g = ibGrade(gen);
        EXPECT_NEAR(g.laneSignalingGbps * 256.0 / 257.0 * 514.0 / 544.0, g.laneDataGbps, 1e-9) << g.name;
    }
}

TEST(Speed, GenerationTable)
{
    EXPECT_DOUBLE_EQ(ibRate(IbGeneration::EDR, 4)->dataGbps, 100);
    EXPECT_DOUBLE_EQ(ibRate(IbGeneration::HDR, 4)->dataGbps, 200);
    EXPECT_DOUBLE_EQ(ibRate(IbGeneration::HDR, 2)->dataGbps, 100);
    EXPECT_DOUBLE_EQ(ibRate(IbGeneration::XDR, 4)->dataGbps, 800);
    EXPECT_DOUBLE_EQ(ibRate(IbGeneration::NDR, 8)->dataGbps, 800);
    EXPECT_DOUBLE_EQ(ibRate(IbGeneration::NDR, 1)->dataGbps, 100);
    EXPECT_NEAR(ibRate(IbGeneration::FDR, 4)->dataGbps, 54.545, 1e-3);
    EXPECT_DOUBLE_EQ(ibRate(IbGeneration::XDR, 4)->signalingGbps, 850);
    EXPECT_EQ(parseIbGeneration("ndr"), IbGeneration::NDR);
    EXPECT_FALSE(parseIbGeneration("NDR200"));
}

TEST(Speed, EthernetLanesMustAgree)
{
    auto a = ethernetRate(400, 4);
    auto b = ethernetRate(400, 8);
    ASSERT_TRUE(a && b);
    EXPECT_DOUBLE_EQ(a->dataGbps, b->dataGbps);
    EXPECT_FALSE(*a == *b); // 4 x 100G cannot meet 8 x 50G
    EXPECT_DOUBLE_EQ(a->laneSignalingGbps(), 106.25);
    EXPECT_DOUBLE_EQ(b->laneSignalingGbps(), 53.125);
    EXPECT_FALSE(ethernetRate(800, 2));
    EXPECT_EQ(ethernetRate(800, 8)->label(), "800GbE 8x100G");
    EXPECT_EQ(ibRate(IbGeneration::NDR, 2)->label(), "NDR 2x (200 Gb/s)");
}
