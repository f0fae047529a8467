// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// PFC and trust mode through rtnetlink DCB (what `dcb pfc show` and `mlnx_qos` read):
// an RTM_GETDCB request with DCB_CMD_IEEE_GET, answered with DCB_ATTR_IEEE holding
// DCB_ATTR_IEEE_PFC (struct ieee_pfc, pfc_en bitmap) and DCB_ATTR_IEEE_APP_TABLE. Building and
// parsing are apart from the socket so that the parser is tested on bytes.
#pragma once

#include "core/result.h"
#include "live/common/inventory.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace railyard::live::dcb {

/// The request bytes: nlmsghdr (RTM_GETDCB, NLM_F_REQUEST, `sequence`), struct dcbmsg
/// (AF_UNSPEC, DCB_CMD_IEEE_GET) and DCB_ATTR_IFNAME = `ifname` with its NUL.
std::vector<std::uint8_t> buildIeeeGetRequest(const std::string& ifname, std::uint32_t sequence);

/// Reads the kernel's answer to buildIeeeGetRequest (one netlink message, or an NLMSG_ERROR).
/// pfcKnown is true when DCB_ATTR_IEEE_PFC is present, pfcEnabled[p] = bit p of pfc_en.
/// trust is "dscp" when the IEEE APP table has an entry with the DSCP selector (5), "pcp"
/// otherwise: mlx5 puts the DSCP-to-priority map into the APP table exactly when its trust
/// state is DSCP and removes it for PCP (mlx5e_dcbnl_dscp_app() in en_dcbnl.c), and the kernel
/// uses DSCP APP entries only in DSCP trust. ecnNp/ecnRp are left Unknown (not in DCB).
/// An NLMSG_ERROR (e.g. EOPNOTSUPP for a netdev without DCB) is an error naming the errno.
core::Result<QosConfig> parseIeeeGetReply(std::span<const std::uint8_t> bytes);

/// Sends the request on a NETLINK_ROUTE socket and parses the answer (1 s receive timeout).
/// Needs no privilege: the kernel checks CAP_NET_ADMIN only for RTM_SETDCB.
core::Result<QosConfig> queryIeee(const std::string& ifname);

} // namespace railyard::live::dcb
