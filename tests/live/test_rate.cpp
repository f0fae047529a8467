// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/rate.h"

#include <gtest/gtest.h>

using railyard::live::parseRateText;

TEST(RateText, ReadsWidthAndGeneration)
{
    const auto ndr = parseRateText("400 Gb/sec (4X NDR)");
    ASSERT_TRUE(ndr);
    EXPECT_EQ(ndr->gbps, 400);
    EXPECT_EQ(ndr->width, 4);
    EXPECT_EQ(ndr->generation, "NDR");
    const auto half = parseRateText("200 Gb/sec (2X NDR)\n");
    ASSERT_TRUE(half);
    EXPECT_EQ(half->width, 2);
    const auto qdr = parseRateText("40 Gb/sec (4X QDR)");
    ASSERT_TRUE(qdr);
    EXPECT_EQ(qdr->generation, "QDR");
    const auto frac = parseRateText("2.5 Gb/sec (1X SDR)");
    ASSERT_TRUE(frac);
    EXPECT_DOUBLE_EQ(frac->gbps, 2.5);
    EXPECT_EQ(frac->width, 1);
}

TEST(RateText, EthernetAndBareNumbers)
{
    const auto eth = parseRateText("400 Gb/sec (4X)");
    ASSERT_TRUE(eth);
    EXPECT_EQ(eth->width, 4);
    EXPECT_TRUE(eth->generation.empty());
    const auto bare = parseRateText("100");
    ASSERT_TRUE(bare);
    EXPECT_EQ(bare->gbps, 100);
    EXPECT_EQ(bare->width, 0);
    // A width that is no lane count is not taken (found by fuzz_node_tools: "(-4X" gave width -4).
    for (const char* odd : { "400 Gb/sec (-4X NDR)", "400 Gb/sec (0X NDR)" }) {
        const auto r = parseRateText(odd);
        ASSERT_TRUE(r) << odd;
        EXPECT_EQ(r->width, 0) << odd;
    }
    EXPECT_FALSE(parseRateText("invalid"));
    EXPECT_FALSE(parseRateText(""));
}
