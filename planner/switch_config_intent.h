// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "planner/addressing.h"

#include <cstdint>
#include <string>
#include <vector>

// What the switch and host configuration generators share: the effective QoS of a lossless
// profile, and each switch's ports with their addresses and BGP peers. A desktop view or an
// agent-side check can read these instead of parsing the generated text.
namespace railyard::planner {

/// The lossless profile as the devices must carry it.
struct QosIntent {
    bool pfc = true;               ///< mode lossless or pfc-only, with a PFC priority
    std::vector<int> pfcPriorities; ///< empty without PFC
    bool ecn = true;               ///< ECN marking at the switches (not in pfc-only mode)
    bool dcqcn = true;             ///< DCQCN at the NICs (not in pfc-only mode)
    bool trustDscp = true;         ///< trust dscp (else pcp)
    int roceDscp = 26;
    int cnpDscp = 48;
    int rocePriority = 3;          ///< the first PFC priority; without PFC the RoCE DSCP's default priority
    int cnpPriority = 6;           ///< the CNP DSCP's default priority (DSCP / 8), served strictly
    int interfaceMtu = 9000;       ///< Ethernet MTU of host and switch ports (core::interfaceMtu)
    int rdmaMtu = 4096;            ///< core::rdmaMtu
    int trafficClass = 106;        ///< core::roceTrafficClass
};
QosIntent qosIntent(const core::LosslessProfile& profile);

/// One switch port with a planned, installed link.
struct PortIntent {
    core::PortRef port;
    std::string peer;        ///< the other end's port: "node001/nic0", "spine1/3"
    std::string peerDevice;  ///< "node001", "spine1"
    std::string address;     ///< own address on the link; empty on a rail_subnets NIC port (a VLAN member)
    int prefixLength = 31;
    std::string peerAddress;
    std::uint32_t peerAsn = 0; ///< the peer switch's AS number; 0 when the peer is a host
    bool subnetMember = false; ///< rail_subnets: an access port of the leaf's VLAN
    float lengthM = 0;       ///< the planned cable length (PFC headroom)
};

/// One installed switch: addresses, BGP and ports (in port order).
struct SwitchIntent {
    std::uint32_t device = 0; ///< index into Plan::devices
    std::string name;
    core::SwitchTier tier = core::SwitchTier::Leaf;
    std::uint32_t asn = 0;
    std::string loopback;
    /// per_tier ASNs: leaves and spines share their ASN with their tier, so they must accept routes
    /// that carry it (allowas-in / aspath allow-my-asn).
    bool acceptOwnAsn = false;
    const LeafSubnet* subnet = nullptr; ///< rail_subnets leaves: points into the AddressPlan
    std::vector<PortIntent> ports;
};

/// Every installed switch (or only `onlyDevice`), in device order. The address plan must be the
/// one planAddresses() made for `plan` (ADDRESS_PLAN_MISMATCH otherwise); SWITCH_UNKNOWN when
/// `onlyDevice` names no switch of the plan.
core::Result<std::vector<SwitchIntent>> switchIntents(const core::Plan& plan, const AddressPlan& addresses,
    const std::string& onlyDevice = {});

/// `text` with control characters replaced by spaces, for a `#` comment line.
std::string commentSafe(const std::string& text);

} // namespace railyard::planner
