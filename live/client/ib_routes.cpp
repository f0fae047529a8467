// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/ib_routes.h"

#include "live/client/cabling.h"

#include <infiniband/mad.h>

#include <array>
#include <memory>
#include <optional>
#include <set>

namespace railyard::live {

namespace {

    struct PortCloser {
        void operator()(ibmad_port* p) const { mad_rpc_close_port(p); }
    };

    constexpr int kLidsPerBlock = 64;      ///< LinearForwardingTable: 64 one-byte entries per block
    constexpr int kHighestUnicastLid = 0xbfff;
    constexpr std::uint8_t kNoRoute = 255; ///< an LFT entry with no port
    constexpr std::size_t kMaxHops = 64;   ///< longer than any fat tree: a loop

    std::string portText(const std::string& name, int port) { return name + "/" + std::to_string(port); }

} // namespace

core::Result<ForwardingTables> readForwardingTables(const std::vector<SwitchTarget>& switches, const DiscoveryOptions& local)
{
    int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS };
    std::string ca = local.caName;
    std::unique_ptr<ibmad_port, PortCloser> port(
        mad_rpc_open_port(ca.empty() ? nullptr : ca.data(), local.caPort, classes, static_cast<int>(std::size(classes))));
    if (!port)
        return core::Error { "IB_ROUTES", "cannot open an InfiniBand port to read the switches' forwarding tables" + (ca.empty() ? std::string() : " on " + ca),
            "--routes",
            "run on a host of the subnet with a umad device (and read access to /dev/infiniband/umad*), or under ibsim with "
            "libumad2sim.so preloaded (--ibsim)" };
    if (local.timeoutMs > 0)
        mad_rpc_set_timeout(port.get(), static_cast<int>(local.timeoutMs));
    if (local.retries > 0)
        mad_rpc_set_retries(port.get(), static_cast<int>(local.retries));

    ForwardingTables out;
    std::array<std::uint8_t, 1024> buf {};
    for (const SwitchTarget& s : switches) {
        ib_portid_t id {};
        ib_portid_set(&id, s.lid, 0, 0);
        const std::string where = s.name + " (LID " + std::to_string(s.lid) + ")";
        buf.fill(0);
        ++out.mads;
        if (!smp_query_via(buf.data(), &id, IB_ATTR_SWITCH_INFO, 0, local.timeoutMs, port.get())) {
            out.failures.push_back(where + ": no answer to SwitchInfo");
            continue;
        }
        std::uint32_t top = 0;
        mad_decode_field(buf.data(), IB_SW_LINEAR_FDB_TOP_F, &top);
        if (top > kHighestUnicastLid) {
            out.failures.push_back(where + ": SwitchInfo LinearFDBTop " + std::to_string(top) + " is past the unicast LIDs");
            continue;
        }
        ForwardingTable table;
        table.name = s.name;
        table.guid = s.guid;
        table.lid = s.lid;
        table.linearFdbTop = static_cast<int>(top);
        table.port.assign(top + 1, kNoRoute);
        bool complete = true;
        for (int block = 0; block * kLidsPerBlock <= static_cast<int>(top); ++block) {
            buf.fill(0);
            ++out.mads;
            if (!smp_query_via(buf.data(), &id, IB_ATTR_LINEARFORWTBL, static_cast<unsigned>(block), local.timeoutMs, port.get())) {
                out.failures.push_back(where + ": no answer to LinearForwardingTable block " + std::to_string(block));
                complete = false;
                break;
            }
            for (int i = 0; i < kLidsPerBlock && block * kLidsPerBlock + i <= static_cast<int>(top); ++i)
                table.port[static_cast<std::size_t>(block * kLidsPerBlock + i)] = buf[static_cast<std::size_t>(i)];
        }
        if (complete)
            out.switches.push_back(std::move(table));
    }
    return out;
}

std::string routeText(const Route& route)
{
    std::string out = route.from;
    for (const RouteHop& h : route.hops)
        out += " -> " + portText(h.name, h.outPort);
    return out + " -> " + route.to;
}

SubnetRoutes::SubnetRoutes(IbFabric fabric, ForwardingTables tables, std::map<std::uint64_t, std::string> names)
    : m_fabric(std::move(fabric))
    , m_tables(std::move(tables))
    , m_names(std::move(names))
{
    for (const auto& [guid, name] : m_names)
        m_guidOfName[name] = guid;
    for (const IbLink& l : m_fabric.links) {
        m_peer[{ l.a.guid, l.a.port }] = l.b;
        m_peer[{ l.b.guid, l.b.port }] = l.a;
    }
    for (std::size_t i = 0; i < m_tables.switches.size(); ++i)
        m_tableOf[m_tables.switches[i].guid] = i;
    for (const IbNode& n : m_fabric.nodes)
        if (n.type == IbNodeType::CA && n.lid > 0)
            m_adapterOfLid[n.lid] = n.guid;
}

std::string SubnetRoutes::nameOf(std::uint64_t guid) const
{
    if (const auto it = m_names.find(guid); it != m_names.end())
        return it->second;
    if (const IbNode* n = m_fabric.find(guid))
        return n->description;
    return formatGuid(guid);
}

int SubnetRoutes::lidOf(const std::string& nic) const
{
    const auto it = m_guidOfName.find(nic);
    if (it == m_guidOfName.end())
        return 0;
    const IbNode* n = m_fabric.find(it->second);
    return n ? n->lid : 0;
}

core::Result<Route> SubnetRoutes::trace(std::uint64_t source, int destinationLid) const
{
    const IbNode* src = m_fabric.find(source);
    if (!src || src->type != IbNodeType::CA)
        return core::Error { "IB_ROUTE", "no adapter with node GUID " + formatGuid(source) + " in the discovered subnet", formatGuid(source),
            "check that the adapter's link is up and run the discovery again" };
    Route route;
    route.from = nameOf(source);
    route.sourceLid = src->lid;
    route.destinationLid = destinationLid;
    const auto dst = m_adapterOfLid.find(destinationLid);
    route.to = dst != m_adapterOfLid.end() ? nameOf(dst->second) : "LID " + std::to_string(destinationLid);
    // The adapter's first linked port: an HCA of a rail plan has one port per plane, plane 1 first.
    std::optional<IbLinkEnd> at;
    if (const auto first = m_peer.lower_bound({ source, 0 }); first != m_peer.end() && first->first.first == source)
        at = first->second;
    if (!at)
        return core::Error { "IB_ROUTE", route.from + " has no linked port in the discovered subnet", route.from,
            "check its cable and port state (live check)" };
    auto stop = [&](const std::string& why) {
        return core::Error { "IB_ROUTE", "route " + route.from + " -> " + route.to + " stops at " + why, route.from,
            "read the subnet again once the Subnet Manager has finished its sweep (OpenSM log: SUBNET UP)" };
    };
    while (true) {
        if (at->guid == (dst != m_adapterOfLid.end() ? dst->second : 0))
            return route;
        const IbNode* node = m_fabric.find(at->guid);
        if (!node || node->type != IbNodeType::Switch)
            return stop(nameOf(at->guid) + ", which is not LID " + std::to_string(destinationLid));
        if (route.hops.size() >= kMaxHops)
            return stop(nameOf(at->guid) + ": more than " + std::to_string(kMaxHops) + " switches, a loop in the forwarding tables");
        const auto t = m_tableOf.find(at->guid);
        if (t == m_tableOf.end())
            return stop(nameOf(at->guid) + ", whose forwarding table was not read");
        const ForwardingTable& table = m_tables.switches[t->second];
        const int out = destinationLid >= 0 && destinationLid < static_cast<int>(table.port.size())
            ? table.port[static_cast<std::size_t>(destinationLid)]
            : kNoRoute;
        if (out == kNoRoute)
            return stop(table.name + ": its forwarding table has no port for LID " + std::to_string(destinationLid));
        route.hops.push_back({ table.name, table.guid, at->port, out });
        if (out == 0)
            return stop(table.name + ", which owns LID " + std::to_string(destinationLid) + " itself");
        const auto next = m_peer.find({ at->guid, out });
        if (next == m_peer.end())
            return stop(portText(table.name, out) + ", a port with no cable");
        at = next->second;
    }
}

core::Result<Route> SubnetRoutes::trace(const std::string& fromNic, const std::string& toNic) const
{
    const auto from = m_guidOfName.find(fromNic);
    if (from == m_guidOfName.end())
        return core::Error { "IB_ROUTE", fromNic + " was not identified in the discovered subnet", fromNic,
            "run live cabling to see why (its link down, or its cable elsewhere)" };
    const int lid = lidOf(toNic);
    if (lid <= 0)
        return core::Error { "IB_ROUTE", toNic + " was not identified in the discovered subnet, or has no LID", toNic,
            "run live cabling to see why, and check that the Subnet Manager has assigned LIDs" };
    return trace(from->second, lid);
}

std::vector<std::string> SubnetRoutes::interSwitchPorts() const
{
    std::set<std::uint64_t> switches;
    for (const IbNode& n : m_fabric.nodes)
        if (n.type == IbNodeType::Switch)
            switches.insert(n.guid);
    std::vector<std::string> out;
    for (const IbLink& l : m_fabric.links)
        if (switches.count(l.a.guid) && switches.count(l.b.guid) && l.a.guid != l.b.guid) {
            out.push_back(portText(nameOf(l.a.guid), l.a.port));
            out.push_back(portText(nameOf(l.b.guid), l.b.port));
        }
    return out;
}

core::Result<std::shared_ptr<const SubnetRoutes>> readSubnetRoutes(const core::Plan& plan, const core::Catalog& catalog,
    const DiscoveryOptions& local, std::vector<std::string>& notes)
{
    core::Result<IbFabric> fabric = discoverFabric(local);
    if (!fabric)
        return fabric.errors();
    const CablingReport report = checkIbCabling(plan, catalog, *fabric);
    std::map<std::uint64_t, std::string> names;
    int unidentified = 0;
    for (const SwitchMatch& m : report.switches) {
        if (m.name.empty())
            ++unidentified;
        else
            names[m.guid] = m.name;
    }
    for (const IdentityEntry& e : report.identity.entries)
        if (e.kind == "nic" && !e.guids.empty())
            names.emplace(e.guids.front(), e.name);
    if (unidentified > 0)
        notes.push_back(std::to_string(unidentified) + " switches of the subnet were not identified against the plan (live cabling says why): "
                                                       "their ports keep the node description");
    core::Result<ForwardingTables> tables = readForwardingTables(switchTargets(*fabric, report.switches), local);
    if (!tables)
        return tables.errors();
    if (tables->switches.empty())
        return core::Error { "IB_ROUTES", "no switch of the subnet answered with its forwarding table", "--routes",
            tables->failures.empty() ? std::string("check that the Subnet Manager has brought the subnet up (LIDs assigned)")
                                     : tables->failures.front() };
    for (const std::string& f : tables->failures)
        notes.push_back("forwarding table not read: " + f);
    return std::shared_ptr<const SubnetRoutes>(std::make_shared<SubnetRoutes>(std::move(fabric).value(), std::move(tables).value(), std::move(names)));
}

KnownRoutes knownRoutes(std::shared_ptr<const SubnetRoutes> routes)
{
    KnownRoutes known;
    known.links = routes->interSwitchPorts();
    known.source = "the subnet's forwarding tables (" + std::to_string(routes->tables().switches.size()) + " switches)";
    known.route = [routes](const std::string& client, const std::string& server) -> std::optional<std::vector<std::string>> {
        core::Result<Route> r = routes->trace(client, server);
        if (!r)
            return std::nullopt;
        std::vector<std::string> ports;
        for (std::size_t i = 0; i + 1 < r->hops.size(); ++i)
            ports.push_back(portText(r->hops[i].name, r->hops[i].outPort));
        return ports;
    };
    return known;
}

} // namespace railyard::live
