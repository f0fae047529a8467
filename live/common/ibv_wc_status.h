// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// rdma-core's work completion statuses (enum ibv_wc_status in <infiniband/verbs.h>): the one table
// of their names, for every parser that reads a completion error (perftest, NCCL's log).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace railyard::live {

struct IbvWcStatus {
    std::string_view enumerator; ///< "IBV_WC_RETRY_EXC_ERR"
    std::string_view text;       ///< ibv_wc_status_str(): "transport retry counter exceeded"
};

/// Status 0 (IBV_WC_SUCCESS) to 23 (IBV_WC_TM_RNDV_INCOMPLETE); nullopt for any other number.
std::optional<IbvWcStatus> ibvWcStatus(int status);

/// ibv_wc_status_str()'s text, or "status N" for a number rdma-core does not define.
std::string ibvWcStatusText(int status);

} // namespace railyard::live
