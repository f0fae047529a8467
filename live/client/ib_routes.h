// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Which way a pair's traffic goes on an InfiniBand subnet: every switch's linear forwarding table
// (LFT), read with libibmad SMPs as `ibroute` / `dump_lfts` read them (SwitchInfo for
// LinearFDBTop, then LinearForwardingTable blocks of 64 LIDs), and a route followed through them
// as `ibtracert` follows it: the source adapter's port -> its leaf -> LFT[dlid] out port -> the
// switch at the far end of that cable -> ... -> the adapter that owns dlid. Switches and adapters
// get their plan names through the cabling check's identification (cabling.h), so a route reads
// "node001/nic0 -> su1-rail0-leaf/5 -> spine1/33 -> su2-rail0-leaf/1 -> node005/nic0" (each
// switch with the port the traffic leaves it by).
//
// The pair schedule (pair_schedule.h) takes these routes as KnownRoutes: with them it picks pairs
// whose routes cover every leaf uplink and spine (core) downlink, and the narrowing names the
// uplink a low pair's route takes.
//
// Runs from a host of the subnet (a umad device), or under ibsim with libumad2sim.so preloaded and
// IBSIM_SOCKNAME set (`railyard-sim --ibsim`, whose OpenSM routes with ftree).
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"
#include "live/client/ib_discovery.h"
#include "live/client/ib_perf.h"
#include "live/client/ibnet_parse.h"
#include "live/client/identity.h"
#include "live/client/pair_schedule.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace railyard::live {

/// One switch's linear forwarding table.
struct ForwardingTable {
    std::string name; ///< the planned name; the node description when unidentified
    std::uint64_t guid = 0;
    int lid = 0;
    int linearFdbTop = 0;           ///< SwitchInfo LinearFDBTop: the highest LID the table holds
    std::vector<std::uint8_t> port; ///< out port by destination LID (0 = the switch itself, 255 = no route)
};

struct ForwardingTables {
    std::vector<ForwardingTable> switches; ///< the switches that answered, in target order
    std::vector<std::string> failures;     ///< "spine3 (LID 17): no answer to LinearForwardingTable block 1", ...
    std::size_t mads = 0;                  ///< SMPs sent
};

/// Reads every target switch's LFT (LID-routed SMPs from the local port `local` names). Fails
/// (code IB_ROUTES) only when no local port can be opened; a switch that does not answer is
/// listed in `failures` and left out.
core::Result<ForwardingTables> readForwardingTables(const std::vector<SwitchTarget>& switches, const DiscoveryOptions& local = {});

/// One switch on a route.
struct RouteHop {
    std::string name; ///< the switch's planned name
    std::uint64_t guid = 0;
    int inPort = 0;  ///< where the traffic enters
    int outPort = 0; ///< LFT[dlid]: where it leaves
};

struct Route {
    std::string from, to; ///< adapters: plan NIC names ("node001/nic0"); the node description when unidentified
    int sourceLid = 0, destinationLid = 0;
    std::vector<RouteHop> hops; ///< the switches in order, leaf first
};

/// "node001/nic0 -> su1-rail0-leaf/5 -> spine1/33 -> su2-rail0-leaf/1 -> node005/nic0".
std::string routeText(const Route& route);

/// A discovered subnet with its forwarding tables and the plan names of its switches and adapters.
class SubnetRoutes {
public:
    /// `names`: node GUID -> plan name (switches and adapters), from the cabling identification.
    SubnetRoutes(IbFabric fabric, ForwardingTables tables, std::map<std::uint64_t, std::string> names);

    /// The route from the adapter with node GUID `source` (its first linked port) to `destinationLid`.
    /// Errors (code IB_ROUTE) say where the route stops: an unknown adapter, a switch whose table was
    /// not read, no route in a table (255), a port with no cable, or a loop.
    core::Result<Route> trace(std::uint64_t source, int destinationLid) const;
    /// The same between two NICs by plan name ("node001/nic0").
    core::Result<Route> trace(const std::string& fromNic, const std::string& toNic) const;

    /// Every switch port whose cable goes to another switch, as "su1-rail0-leaf/5": each is a
    /// direction of an inter-switch link (a leaf's uplink, a spine's downlink to a leaf, ...).
    std::vector<std::string> interSwitchPorts() const;
    /// The adapter's LID by plan name; 0 when unknown.
    int lidOf(const std::string& nic) const;

    const IbFabric& fabric() const { return m_fabric; }
    const ForwardingTables& tables() const { return m_tables; }

private:
    std::string nameOf(std::uint64_t guid) const;
    IbFabric m_fabric;
    ForwardingTables m_tables;
    std::map<std::uint64_t, std::string> m_names;
    std::map<std::string, std::uint64_t> m_guidOfName;
    std::map<std::pair<std::uint64_t, int>, IbLinkEnd> m_peer;
    std::map<std::uint64_t, std::size_t> m_tableOf;
    std::map<int, std::uint64_t> m_adapterOfLid;
};

/// Discovers the subnet (ib_discovery.h), identifies it against the plan (cabling.h) and reads
/// every switch's LFT. Fails (IB_DISCOVERY, IB_ROUTES) when the subnet cannot be read; `notes`
/// gets what was left out (switches unidentified or not answering).
core::Result<std::shared_ptr<const SubnetRoutes>> readSubnetRoutes(const core::Plan& plan, const core::Catalog& catalog,
    const DiscoveryOptions& local, std::vector<std::string>& notes);

/// The routes as the pair schedule takes them: client NIC -> server NIC gives the switch ports the
/// client's traffic leaves by ("su1-rail0-leaf/5", "spine1/33"; the last switch's port to the
/// server is left out: it is the server's own node port), and the ports to cover are every
/// inter-switch port.
KnownRoutes knownRoutes(std::shared_ptr<const SubnetRoutes> routes);

} // namespace railyard::live
