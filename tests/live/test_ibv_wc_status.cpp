// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The completion-status table against rdma-core's enum and ibv_wc_status_str().
#include "live/common/ibv_wc_status.h"

#include <gtest/gtest.h>
#include <infiniband/verbs.h>

namespace railyard::live {

TEST(IbvWcStatus, NamesAndTextsAreRdmaCores)
{
    EXPECT_EQ(ibvWcStatus(IBV_WC_RETRY_EXC_ERR)->enumerator, "IBV_WC_RETRY_EXC_ERR");
    EXPECT_EQ(ibvWcStatus(IBV_WC_RNR_RETRY_EXC_ERR)->enumerator, "IBV_WC_RNR_RETRY_EXC_ERR");
    EXPECT_EQ(ibvWcStatus(IBV_WC_LOC_PROT_ERR)->enumerator, "IBV_WC_LOC_PROT_ERR");
    EXPECT_EQ(ibvWcStatus(IBV_WC_WR_FLUSH_ERR)->enumerator, "IBV_WC_WR_FLUSH_ERR");
    EXPECT_EQ(ibvWcStatus(IBV_WC_GENERAL_ERR)->enumerator, "IBV_WC_GENERAL_ERR");
    EXPECT_EQ(ibvWcStatus(IBV_WC_TM_RNDV_INCOMPLETE)->enumerator, "IBV_WC_TM_RNDV_INCOMPLETE");
    EXPECT_EQ(ibvWcStatusText(12), "transport retry counter exceeded");
    EXPECT_EQ(ibvWcStatusText(5), "Work Request Flushed Error");
    EXPECT_EQ(ibvWcStatusText(4), "local protection error");
    EXPECT_EQ(ibvWcStatusText(99), "status 99");
    EXPECT_FALSE(ibvWcStatus(-1));
    EXPECT_FALSE(ibvWcStatus(IBV_WC_TM_RNDV_INCOMPLETE + 1));
}

} // namespace railyard::live
