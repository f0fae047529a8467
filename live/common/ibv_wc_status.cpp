// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/ibv_wc_status.h"

#include <iterator>

namespace railyard::live {

std::optional<IbvWcStatus> ibvWcStatus(int status)
{
    // In enum order; the texts are those of rdma-core's ibv_wc_status_str() (libibverbs/enum_strs.c).
    static constexpr IbvWcStatus table[] = {
        { "IBV_WC_SUCCESS", "success" },
        { "IBV_WC_LOC_LEN_ERR", "local length error" },
        { "IBV_WC_LOC_QP_OP_ERR", "local QP operation error" },
        { "IBV_WC_LOC_EEC_OP_ERR", "local EE context operation error" },
        { "IBV_WC_LOC_PROT_ERR", "local protection error" },
        { "IBV_WC_WR_FLUSH_ERR", "Work Request Flushed Error" },
        { "IBV_WC_MW_BIND_ERR", "memory management operation error" },
        { "IBV_WC_BAD_RESP_ERR", "bad response error" },
        { "IBV_WC_LOC_ACCESS_ERR", "local access error" },
        { "IBV_WC_REM_INV_REQ_ERR", "remote invalid request error" },
        { "IBV_WC_REM_ACCESS_ERR", "remote access error" },
        { "IBV_WC_REM_OP_ERR", "remote operation error" },
        { "IBV_WC_RETRY_EXC_ERR", "transport retry counter exceeded" },
        { "IBV_WC_RNR_RETRY_EXC_ERR", "RNR retry counter exceeded" },
        { "IBV_WC_LOC_RDD_VIOL_ERR", "local RDD violation error" },
        { "IBV_WC_REM_INV_RD_REQ_ERR", "remote invalid RD request" },
        { "IBV_WC_REM_ABORT_ERR", "aborted error" },
        { "IBV_WC_INV_EECN_ERR", "invalid EE context number" },
        { "IBV_WC_INV_EEC_STATE_ERR", "invalid EE context state" },
        { "IBV_WC_FATAL_ERR", "fatal error" },
        { "IBV_WC_RESP_TIMEOUT_ERR", "response timeout error" },
        { "IBV_WC_GENERAL_ERR", "general error" },
        { "IBV_WC_TM_ERR", "TM error" },
        { "IBV_WC_TM_RNDV_INCOMPLETE", "TM software rendezvous" },
    };
    if (status < 0 || status >= static_cast<int>(std::size(table)))
        return std::nullopt;
    return table[status];
}

std::string ibvWcStatusText(int status)
{
    if (const auto s = ibvWcStatus(status))
        return std::string(s->text);
    return "status " + std::to_string(status);
}

} // namespace railyard::live
