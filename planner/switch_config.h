// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "planner/addressing.h"

#include <string>
#include <vector>

// Switch configuration generated from a routed RoCEv2 plan: each fabric port's address and MTU,
// the loopback, eBGP to the neighbouring switches, and the RoCE QoS of the plan's lossless
// profile (trust, DSCP-to-priority map, PFC, ECN marking, CNP priority). README "Switch
// configuration" lists what is generated and what is left to the switch's defaults.
namespace railyard::planner {

enum class SwitchOs {
    /// NVIDIA Cumulus Linux 5.x: NVUE commands (`nv set ...`, then `nv config apply`), a shell script.
    Nvue,
    /// SONiC: config_db.json tables (`sudo config load FILE`), with the dynamic buffer model
    /// (BUFFER_PG profile "NULL": the headroom sized from the port's speed and CABLE_LENGTH).
    Sonic,
};

/// The SONiC VLAN that carries a leaf's NIC subnet with rail_subnets (NVUE: the VLAN of br_default).
inline constexpr int kRailVlan = 100;
/// ECN marking thresholds of the RoCE queue (bytes): Cumulus Linux's RoCE defaults, used for both OSes.
inline constexpr int kEcnMinBytes = 150000;
inline constexpr int kEcnMaxBytes = 1500000;

/// A switch port's interface name: NVUE `swp<cage>` (one port per cage) or `swp<cage>s<pos-1>`
/// (a cage split into several ports, Cumulus's breakout names); SONiC `Ethernet<first lane>`, lanes
/// counted from 0 at the plan's lanes per port (Ethernet0, Ethernet4... at 4 lanes).
std::string switchInterfaceName(const core::Plan& plan, const core::PortRef& port, SwitchOs os);

/// One file per switch, in device order: `<switch>.nvue.sh` or `<switch>.config_db.json`.
/// `onlyDevice` non-empty: that switch's file alone (SWITCH_UNKNOWN when the plan has none).
/// Errors: ADDRESSING_NOT_ROCE for an InfiniBand plan.
core::Result<std::vector<ConfigFile>> switchConfigs(const core::Plan& plan, const AddressPlan& addresses, SwitchOs os,
    const std::string& onlyDevice = {});
/// The same files handed to `sink` one by one, as each is made (nothing is kept).
core::Status forEachSwitchConfig(const core::Plan& plan, const AddressPlan& addresses, SwitchOs os, const ConfigSink& sink,
    const std::string& onlyDevice = {});

} // namespace railyard::planner
