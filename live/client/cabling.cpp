// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The cabling matcher (rules in cabling.h). Both sources (IB discovery, LLDP) are turned into one
// neutral graph of adapters and switches first, so the identification, the comparison and the
// wording of findings are shared.
#include "live/client/cabling.h"

#include "core/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace railyard::live {

namespace {

    using core::PortRef;

    std::string trimmed(std::string_view s)
    {
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
            s.remove_prefix(1);
        while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
            s.remove_suffix(1);
        return std::string(s);
    }

    std::uint64_t keyOf(const PortRef& p)
    {
        return (static_cast<std::uint64_t>(p.device) << 24) | (static_cast<std::uint64_t>(p.port) << 8) | p.plane;
    }

    // ---------------------------------------------------------------- the discovered graph

    struct DNode {
        bool isSwitch = false;
        std::string description;
        std::uint64_t guid = 0; ///< 0 when the source has none (LLDP)
        std::vector<std::uint64_t> portGuids;
        // adapters
        std::optional<PortRef> port; ///< identified plan port (nodes: port = rail)
        std::optional<std::uint32_t> host; ///< plan device of the host, when known
        std::string hostname, device, pci, lldpPort, lldpSystem;
        std::string how;
        // switches
        std::optional<std::uint32_t> planned; ///< plan device
    };

    struct DEnd {
        std::size_t node = 0;
        int port = 0;
        int sub = -1; ///< LLDP breakout position (resolved with the switch's ports per cage)
        int subBase = 0;
    };

    struct DLink {
        DEnd a, b;
    };

    struct Graph {
        std::vector<DNode> nodes;
        std::vector<DLink> links;
    };

    // ---------------------------------------------------------------- the planned side

    struct Planned {
        const core::Plan& plan;
        const core::Catalog& catalog;
        int plane = 1;
        std::unordered_map<std::uint64_t, std::size_t> linkAt; ///< end key -> link index
        std::vector<std::size_t> links;                        ///< link indices in scope
        std::unordered_map<std::string, PortRef> portByName;   ///< adapter ends: "node007/nic3"
        std::unordered_map<std::string, std::uint32_t> deviceByName;
        std::unordered_map<std::string, std::uint32_t> deviceByLowerName;
        std::set<std::uint32_t> switchesInScope;

        Planned(const core::Plan& p, const core::Catalog& c, int pl, bool nodeLeafOnly)
            : plan(p)
            , catalog(c)
            , plane(pl)
        {
            const bool planes = std::max(plan.spec.planes, plan.summary.planes) > 1;
            for (std::uint32_t d = 0; d < plan.devices.size(); ++d) {
                deviceByName.emplace(plan.devices[d].name, d);
                deviceByLowerName.emplace(core::toLower(plan.devices[d].name), d);
            }
            for (std::size_t i = 0; i < plan.links.size(); ++i) {
                const core::Link& l = plan.links[i];
                if (!l.installed || (nodeLeafOnly && l.tier != core::LinkTier::NodeLeaf))
                    continue;
                if (planes && plan.devices[l.b.device].plane != plane)
                    continue;
                links.push_back(i);
                linkAt[keyOf(l.a)] = i;
                linkAt[keyOf(l.b)] = i;
                for (const PortRef* e : { &l.a, &l.b }) {
                    if (isSwitch(e->device))
                        switchesInScope.insert(e->device);
                    else
                        portByName.emplace(plan.portName(*e), *e);
                }
            }
        }

        bool isSwitch(std::uint32_t d) const { return plan.devices[d].kind == core::DeviceKind::Switch; }

        std::optional<PortRef> peer(const PortRef& end) const
        {
            const auto it = linkAt.find(keyOf(end));
            if (it == linkAt.end())
                return std::nullopt;
            const core::Link& l = plan.links[it->second];
            return l.a == end ? l.b : l.a;
        }

        std::optional<std::uint32_t> hostNamed(const std::string& host, const Identity* known) const
        {
            if (auto it = deviceByName.find(host); it != deviceByName.end() && !isSwitch(it->second))
                return it->second;
            if (auto it = deviceByLowerName.find(core::toLower(host)); it != deviceByLowerName.end() && !isSwitch(it->second))
                return it->second;
            if (known) {
                for (const auto& e : known->entries) {
                    if (e.hostname.empty() || !core::equalsIgnoreCase(e.hostname, host))
                        continue;
                    const auto slash = e.name.find('/');
                    if (auto it = deviceByName.find(e.name.substr(0, slash)); it != deviceByName.end())
                        return it->second;
                }
            }
            return std::nullopt;
        }

        /// Rail of `deviceName` on plan node `node` through its node type's rail map; "nic<k>" too.
        std::optional<int> railOf(std::uint32_t node, const std::string& deviceName, const std::string& pci = {}) const
        {
            if (deviceName.starts_with("nic") && deviceName.size() > 3) {
                int k = -1;
                const auto* b = deviceName.data() + 3;
                const auto [p, ec] = std::from_chars(b, deviceName.data() + deviceName.size(), k);
                if (ec == std::errc() && p == deviceName.data() + deviceName.size() && k >= 0)
                    return k;
            }
            const auto* type = findNodeType(plan.devices[node].model);
            if (!type)
                return std::nullopt;
            for (std::size_t k = 0; k < type->railMap.size(); ++k)
                if (type->railMap[k] == deviceName || (!pci.empty() && type->railMap[k] == pci))
                    return static_cast<int>(k);
            return std::nullopt;
        }

        const core::NodeType* findNodeType(const std::string& id) const
        {
            return catalog.findNodeType(id);
        }

        /// The plan port of rail `rail` of node `node` in this plane (nodes: the NIC's first port in the plane).
        std::optional<PortRef> nicPort(std::uint32_t node, int rail) const
        {
            for (std::uint8_t pl = 0; pl < 4; ++pl) {
                const PortRef ref { node, static_cast<std::uint16_t>(rail), pl };
                if (linkAt.contains(keyOf(ref)))
                    return ref;
            }
            return std::nullopt;
        }

        int portsPerCage(std::uint32_t d) const { return std::max(1, plan.devices[d].portsPerCage); }
    };

    // ---------------------------------------------------------------- identification

    /// Adapters identified from their description or a stored GUID.
    void identifyAdapters(Graph& g, const Planned& planned, const Identity* known)
    {
        for (DNode& n : g.nodes) {
            if (n.isSwitch || n.port)
                continue;
            if (known && n.guid) {
                const IdentityEntry* e = known->byGuid(n.guid);
                for (std::size_t i = 0; !e && i < n.portGuids.size(); ++i)
                    e = known->byGuid(n.portGuids[i]);
                if (e) {
                    if (auto it = planned.portByName.find(e->name); it != planned.portByName.end()) {
                        n.port = it->second;
                        n.host = it->second.device;
                        n.how = "guid";
                        continue;
                    }
                }
            }
            const std::string desc = trimmed(n.description);
            if (auto it = planned.portByName.find(desc); it != planned.portByName.end()) {
                n.port = it->second;
                n.host = it->second.device;
                n.hostname = desc.substr(0, desc.find('/'));
                n.how = "description";
                continue;
            }
            std::string host, dev;
            if (const auto slash = desc.find('/'); slash != std::string::npos && desc.find(' ') == std::string::npos) {
                host = desc.substr(0, slash);
                dev = desc.substr(slash + 1);
            } else {
                const auto space = desc.find_first_of(" \t");
                host = desc.substr(0, space);
                dev = space == std::string::npos ? std::string() : trimmed(desc.substr(space));
            }
            n.hostname = host;
            n.device = dev;
            n.host = planned.hostNamed(host, known);
            if (!n.host)
                continue;
            if (planned.plan.devices[*n.host].kind == core::DeviceKind::Management) {
                const PortRef ref { *n.host, 1, 0 };
                if (planned.linkAt.contains(keyOf(ref))) {
                    n.port = ref;
                    n.how = "description";
                }
                continue;
            }
            if (const auto rail = planned.railOf(*n.host, dev)) {
                if (const auto ref = planned.nicPort(*n.host, *rail)) {
                    n.port = ref;
                    n.how = "description";
                }
            }
        }
    }

    /// Switches identified from a stored GUID or a description equal to a planned name.
    void identifySwitchesByName(Graph& g, const Planned& planned, const Identity* known, std::set<std::uint32_t>& taken)
    {
        for (DNode& n : g.nodes) {
            if (!n.isSwitch)
                continue;
            if (known && n.guid) {
                if (const IdentityEntry* e = known->byGuid(n.guid)) {
                    const auto it = planned.deviceByName.find(e->name);
                    if (it != planned.deviceByName.end() && planned.isSwitch(it->second) && !taken.contains(it->second)) {
                        n.planned = it->second;
                        n.how = "guid";
                        taken.insert(it->second);
                        continue;
                    }
                }
            }
            const auto it = planned.deviceByName.find(trimmed(n.description));
            if (it != planned.deviceByName.end() && planned.isSwitch(it->second) && !taken.contains(it->second)) {
                n.planned = it->second;
                n.how = n.guid ? "description" : "lldp";
                taken.insert(it->second);
            }
        }
    }

    int logicalPort(const Planned& planned, const DEnd& end, std::uint32_t device)
    {
        if (end.sub < 0)
            return end.port;
        return (end.port - 1) * planned.portsPerCage(device) + end.sub - end.subBase + 1;
    }

    /// Rounds of neighbour votes until no more switch is identified.
    void identifySwitchesByNeighbours(Graph& g, const Planned& planned, std::set<std::uint32_t>& taken)
    {
        std::vector<std::vector<std::pair<DEnd, DEnd>>> ends(g.nodes.size()); // per node: (self end, peer end)
        for (const DLink& l : g.links) {
            ends[l.a.node].push_back({ l.a, l.b });
            ends[l.b.node].push_back({ l.b, l.a });
        }
        for (bool changed = true; changed;) {
            changed = false;
            struct Candidate {
                int votes;
                std::size_t node;
                std::uint32_t device;
                std::string how;
            };
            std::vector<Candidate> candidates;
            for (std::size_t i = 0; i < g.nodes.size(); ++i) {
                const DNode& n = g.nodes[i];
                if (!n.isSwitch || n.planned)
                    continue;
                std::map<std::uint32_t, int> votes;
                int fromHosts = 0;
                for (const auto& [self, peerEnd] : ends[i]) {
                    const DNode& peer = g.nodes[peerEnd.node];
                    std::optional<PortRef> peerRef;
                    if (!peer.isSwitch && peer.port) {
                        peerRef = peer.port;
                        ++fromHosts;
                    } else if (peer.isSwitch && peer.planned) {
                        peerRef = PortRef { *peer.planned, static_cast<std::uint16_t>(logicalPort(planned, peerEnd, *peer.planned)), 0 };
                    }
                    if (!peerRef)
                        continue;
                    const auto far = planned.peer(*peerRef);
                    if (!far || !planned.isSwitch(far->device) || taken.contains(far->device))
                        continue;
                    votes[far->device] += 1 + (far->port == logicalPort(planned, self, far->device) ? 1 : 0);
                }
                if (votes.empty())
                    continue;
                int best = 0, second = 0;
                std::uint32_t bestDevice = 0;
                for (const auto& [d, v] : votes) {
                    if (v > best) {
                        second = best;
                        best = v;
                        bestDevice = d;
                    } else if (v > second) {
                        second = v;
                    }
                }
                if (best > second)
                    candidates.push_back({ best, i, bestDevice, fromHosts > 0 ? "hosts" : "switches" });
            }
            std::sort(candidates.begin(), candidates.end(), [&](const Candidate& x, const Candidate& y) {
                return std::tie(y.votes, g.nodes[x.node].guid, x.node) < std::tie(x.votes, g.nodes[y.node].guid, y.node);
            });
            for (const Candidate& c : candidates) {
                if (taken.contains(c.device) || g.nodes[c.node].planned)
                    continue;
                g.nodes[c.node].planned = c.device;
                g.nodes[c.node].how = c.how;
                taken.insert(c.device);
                changed = true;
            }
        }
    }

    /// Adapters whose host is known but whose rail is not ("node007 HCA-1"): the rail of the leaf reached.
    void railsFromLeaves(Graph& g, const Planned& planned)
    {
        for (const DLink& l : g.links) {
            for (const auto& [self, other] : { std::pair { l.a, l.b }, std::pair { l.b, l.a } }) {
                DNode& n = g.nodes[self.node];
                const DNode& peer = g.nodes[other.node];
                if (n.isSwitch || n.port || !n.host || !peer.isSwitch || !peer.planned)
                    continue;
                const int rail = planned.plan.devices[*peer.planned].rail;
                if (rail < 0)
                    continue;
                if (const auto ref = planned.nicPort(*n.host, rail)) {
                    n.port = ref;
                    n.how = "leaf";
                }
            }
        }
    }

    // ---------------------------------------------------------------- comparison

    struct Mapped {
        std::optional<PortRef> ref;
        bool uncheckable = false; ///< an end on an unidentified switch
        std::string shown;        ///< how the end is named in messages
    };

    std::string describeUnknown(const DNode& n, int port)
    {
        std::string s = "'" + trimmed(n.description) + "'";
        if (n.guid)
            s += " (" + formatGuid(n.guid) + ")";
        if (n.isSwitch)
            s += " port " + std::to_string(port);
        return s;
    }

    Mapped mapEnd(const Graph& g, const Planned& planned, const DEnd& end)
    {
        const DNode& n = g.nodes[end.node];
        Mapped m;
        if (n.isSwitch) {
            if (!n.planned) {
                m.uncheckable = true;
                m.shown = describeUnknown(n, end.port);
                return m;
            }
            m.ref = PortRef { *n.planned, static_cast<std::uint16_t>(logicalPort(planned, end, *n.planned)), 0 };
        } else if (n.port) {
            m.ref = n.port;
        }
        m.shown = m.ref ? planned.plan.portName(*m.ref) : describeUnknown(n, end.port);
        return m;
    }

    int tierRank(const Planned& planned, const PortRef& p)
    {
        const auto& d = planned.plan.devices[p.device];
        if (d.kind != core::DeviceKind::Switch)
            return 9;
        return static_cast<int>(d.tier);
    }

    struct SortedFinding {
        std::tuple<int, std::uint32_t, int, int, std::string> key;
        core::Finding finding;
    };

    core::Finding finding(core::Severity s, std::string code, std::string message, std::string where)
    {
        return core::Finding { s, std::move(code), std::move(message), std::move(where) };
    }

    CablingReport compare(Graph& g, const Planned& planned, bool lldp, const std::set<std::uint32_t>* nodesInScope)
    {
        CablingReport report;
        std::vector<SortedFinding> out;
        auto add = [&](int group, const std::optional<PortRef>& at, core::Finding f) {
            const auto key = at ? std::make_tuple(group, at->device, static_cast<int>(at->port), static_cast<int>(at->plane), f.where)
                                : std::make_tuple(group, std::numeric_limits<std::uint32_t>::max(), 0, 0, f.where);
            out.push_back({ key, std::move(f) });
        };
        const core::Plan& plan = planned.plan;

        // Switches.
        std::set<std::uint32_t> found;
        std::map<std::size_t, int> uncheckedLinks;
        for (const DLink& l : g.links) {
            for (const DEnd* e : { &l.a, &l.b })
                if (g.nodes[e->node].isSwitch && !g.nodes[e->node].planned)
                    ++uncheckedLinks[e->node];
        }
        for (std::size_t i = 0; i < g.nodes.size(); ++i) {
            const DNode& n = g.nodes[i];
            if (!n.isSwitch)
                continue;
            report.switches.push_back({ n.guid, n.description, n.planned ? plan.devices[*n.planned].name : "", n.planned ? n.how : "" });
            if (n.planned) {
                found.insert(*n.planned);
                continue;
            }
            const int links = uncheckedLinks[i];
            const std::string what = lldp ? "LLDP neighbour '" + trimmed(n.description) + "'"
                                          : "switch '" + trimmed(n.description) + "' (" + formatGuid(n.guid) + ")";
            add(0, std::nullopt,
                finding(core::Severity::Error, "SWITCH_UNIDENTIFIED",
                    what + " matches no planned switch (" + std::to_string(links)
                        + " links not checked): its neighbours do not single out one planned switch; set its "
                        + (lldp ? "system name" : "node description") + " to the planned name, or store its "
                        + (lldp ? "name" : "GUID") + " in the identity file",
                    trimmed(n.description).empty() ? formatGuid(n.guid) : trimmed(n.description)));
        }
        std::set<std::uint32_t> missingSwitches;
        if (!lldp) {
            for (std::uint32_t d : planned.switchesInScope) {
                if (found.contains(d))
                    continue;
                missingSwitches.insert(d);
                add(0, PortRef { d, 0, 0 },
                    finding(core::Severity::Error, "SWITCH_MISSING",
                        "planned switch " + plan.devices[d].name
                            + " was not found in the fabric (no discovered switch matches it by GUID, description or neighbours): check that it is powered and cabled; its links are not checked",
                        plan.devices[d].name));
            }
        }

        // Links.
        std::set<std::pair<std::uint64_t, std::uint64_t>> plannedPairs;
        for (std::size_t i : planned.links) {
            const auto a = keyOf(plan.links[i].a), b = keyOf(plan.links[i].b);
            plannedPairs.insert({ std::min(a, b), std::max(a, b) });
        }
        std::set<std::uint64_t> inUse;      // plan ends a discovered link occupies
        std::set<std::uint64_t> unchecked;  // plan ends on a link to an unidentified switch
        std::set<std::pair<std::uint64_t, std::uint64_t>> matchedPairs;
        struct Pending {
            Mapped a, b;
        };
        std::vector<Pending> mismatched;
        report.discovered = static_cast<int>(g.links.size());
        for (const DLink& l : g.links) {
            Mapped a = mapEnd(g, planned, l.a), b = mapEnd(g, planned, l.b);
            if (a.ref && b.ref) {
                const auto ka = keyOf(*a.ref), kb = keyOf(*b.ref);
                inUse.insert(ka);
                inUse.insert(kb);
                if (plannedPairs.contains({ std::min(ka, kb), std::max(ka, kb) })) {
                    matchedPairs.insert({ std::min(ka, kb), std::max(ka, kb) });
                    continue;
                }
            } else {
                for (const Mapped* m : { &a, &b })
                    if (m->ref)
                        ((a.uncheckable || b.uncheckable) ? unchecked : inUse).insert(keyOf(*m->ref));
                if (a.uncheckable || b.uncheckable)
                    continue;
            }
            mismatched.push_back({ a, b });
        }
        for (const Pending& p : mismatched) {
            // The anchor: the switch end (lower tier when both are), unless it has no planned link.
            const Mapped* x = &p.a;
            const Mapped* y = &p.b;
            auto rank = [&](const Mapped* m) { return m->ref ? tierRank(planned, *m->ref) : 10; };
            if (rank(y) < rank(x))
                std::swap(x, y);
            if (!(x->ref && planned.peer(*x->ref)) && y->ref && planned.peer(*y->ref))
                std::swap(x, y);
            const auto px = x->ref ? planned.peer(*x->ref) : std::nullopt;
            if (!px) {
                const std::optional<PortRef> at = x->ref ? x->ref : y->ref;
                add(1, at,
                    finding(core::Severity::Warning, "CABLE_UNEXPECTED",
                        "unexpected link " + x->shown + " <-> " + y->shown
                            + ": not in the plan (the plan leaves both ports free): remove the cable or update the plan",
                        x->ref ? x->shown : y->shown));
                continue;
            }
            std::string message = x->shown + " is cabled to " + y->shown + ", planned " + x->shown + " <-> "
                + plan.portName(*px);
            if (y->ref) {
                if (const auto py = planned.peer(*y->ref))
                    message += " and " + y->shown + " <-> " + plan.portName(*py);
                else
                    message += " (" + y->shown + " is planned free)";
            } else {
                message += " (" + y->shown + " is not in the plan)";
            }
            message += ": move the cable at " + x->shown + " (now to " + y->shown + ") to " + plan.portName(*px);
            add(1, x->ref, finding(core::Severity::Error, "CABLE_MISWIRED", message, x->shown));
        }

        // Planned links not found.
        for (std::size_t i : planned.links) {
            const core::Link& l = plan.links[i];
            const auto ka = keyOf(l.a), kb = keyOf(l.b);
            if (nodesInScope && !planned.isSwitch(l.a.device) && !nodesInScope->contains(l.a.device))
                continue;
            ++report.planned;
            if (matchedPairs.contains({ std::min(ka, kb), std::max(ka, kb) })) {
                ++report.matched;
                continue;
            }
            if (inUse.contains(ka) || inUse.contains(kb) || unchecked.contains(ka) || unchecked.contains(kb))
                continue;
            if (missingSwitches.contains(l.a.device) || missingSwitches.contains(l.b.device))
                continue;
            add(1, l.a,
                finding(core::Severity::Error, "CABLE_MISSING",
                    plan.portName(l.a) + " <-> " + plan.portName(l.b) + " not found: check the cable and both ports",
                    plan.portName(l.a)));
        }
        std::stable_sort(out.begin(), out.end(), [](const SortedFinding& x, const SortedFinding& y) { return x.key < y.key; });
        for (auto& f : out)
            report.findings.push_back(std::move(f.finding));

        // Identity, plan order.
        std::vector<std::pair<std::uint64_t, IdentityEntry>> entries;
        for (const DNode& n : g.nodes) {
            IdentityEntry e;
            std::uint64_t order = 0;
            if (n.isSwitch && n.planned) {
                const auto& d = plan.devices[*n.planned];
                e.name = d.name;
                e.kind = "switch";
                e.tier = std::string(core::toString(d.tier));
                if (lldp)
                    e.lldpSystemName = n.description;
                else
                    e.nodeDescription = n.description;
                order = keyOf({ *n.planned, 0, 0 });
            } else if (!n.isSwitch && n.port) {
                e.name = plan.portName(*n.port);
                e.kind = plan.devices[n.port->device].kind == core::DeviceKind::Management ? "management" : "nic";
                e.nodeDescription = lldp ? "" : n.description;
                e.hostname = n.hostname;
                e.device = n.device;
                e.pciAddress = n.pci;
                e.lldpSystemName = n.lldpSystem;
                e.lldpPort = n.lldpPort;
                order = keyOf(*n.port);
            } else {
                continue;
            }
            if (n.guid)
                e.guids.push_back(n.guid);
            for (auto pg : n.portGuids)
                if (pg != n.guid)
                    e.guids.push_back(pg);
            e.how = n.how;
            entries.emplace_back(order, std::move(e));
        }
        std::stable_sort(entries.begin(), entries.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
        report.identity.plan = plan.spec.name;
        for (auto& [order, e] : entries)
            report.identity.put(std::move(e));
        return report;
    }

    void identify(Graph& g, const Planned& planned, const Identity* known)
    {
        std::set<std::uint32_t> taken;
        identifyAdapters(g, planned, known);
        identifySwitchesByName(g, planned, known, taken);
        identifySwitchesByNeighbours(g, planned, taken);
        railsFromLeaves(g, planned);
        // Adapters identified through their leaf may name more switches (spines stay as they are).
        identifySwitchesByNeighbours(g, planned, taken);
    }

} // namespace

bool CablingReport::hasErrors() const
{
    return std::any_of(findings.begin(), findings.end(), [](const core::Finding& f) { return f.severity == core::Severity::Error; });
}

CablingReport checkIbCabling(const core::Plan& plan, const core::Catalog& catalog, const IbFabric& fabric, const CablingOptions& options)
{
    Planned planned(plan, catalog, options.plane, false);
    Graph g;
    std::unordered_map<std::uint64_t, std::size_t> index;
    for (const IbNode& n : fabric.nodes) {
        DNode d;
        d.isSwitch = n.type != IbNodeType::CA;
        d.description = n.description;
        d.guid = n.guid;
        std::vector<std::pair<int, std::uint64_t>> ports(n.portGuids.begin(), n.portGuids.end());
        std::sort(ports.begin(), ports.end());
        for (const auto& [p, guid] : ports)
            d.portGuids.push_back(guid);
        index.emplace(n.guid, g.nodes.size());
        g.nodes.push_back(std::move(d));
    }
    for (const IbLink& l : fabric.links) {
        const auto a = index.find(l.a.guid), b = index.find(l.b.guid);
        if (a == index.end() || b == index.end())
            continue;
        g.links.push_back({ { a->second, l.a.port, -1, 0 }, { b->second, l.b.port, -1, 0 } });
    }
    identify(g, planned, options.known);
    return compare(g, planned, false, nullptr);
}

std::optional<int> switchPortNumber(std::string_view portId, int portsPerCage)
{
    std::vector<int> numbers;
    std::vector<char> before; // the character before each number
    for (std::size_t i = 0; i < portId.size();) {
        if (!std::isdigit(static_cast<unsigned char>(portId[i]))) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < portId.size() && std::isdigit(static_cast<unsigned char>(portId[i])))
            ++i;
        int v = 0;
        std::from_chars(portId.data() + start, portId.data() + i, v);
        numbers.push_back(v);
        before.push_back(start > 0 ? portId[start - 1] : '\0');
    }
    if (numbers.empty())
        return std::nullopt;
    const std::string lowerId = core::toLower(portId);
    portsPerCage = std::max(1, portsPerCage);
    // Cumulus breakout: swp17s1 (sub-port 0-based).
    if (lowerId.starts_with("swp") && numbers.size() == 2 && before[1] == 's')
        return (numbers[0] - 1) * portsPerCage + numbers[1] + 1;
    // Onyx / NX-OS breakout: Eth1/17/2 (1-based).
    if (numbers.size() == 3 && before[1] == '/' && before[2] == '/')
        return (numbers[1] - 1) * portsPerCage + numbers[2];
    return numbers.back();
}

CablingReport checkLldpCabling(const core::Plan& plan, const core::Catalog& catalog, const std::vector<Inventory>& inventories,
    const CablingOptions& options)
{
    Planned planned(plan, catalog, options.plane, true);
    Graph g;
    std::map<std::string, std::size_t> switchBySystem;
    std::set<std::uint32_t> inScope;
    for (const Inventory& inv : inventories) {
        const auto host = planned.hostNamed(inv.node.empty() ? inv.hostname : inv.node, options.known);
        if (!host)
            continue;
        inScope.insert(*host);
        for (const RdmaDevice& dev : inv.devices) {
            std::optional<int> rail;
            if (dev.rail >= 0)
                rail = dev.rail;
            else
                rail = planned.railOf(*host, dev.name, dev.pciAddress);
            if (!rail)
                continue; // not a compute NIC: its LLDP neighbour is no fabric switch
            for (const LldpNeighbor& nb : dev.lldp) {
                DNode nic;
                nic.host = host;
                nic.hostname = inv.hostname.empty() ? inv.node : inv.hostname;
                nic.device = dev.name;
                nic.pci = dev.pciAddress;
                nic.description = nic.hostname + " " + dev.name;
                nic.lldpSystem = nb.systemName;
                nic.lldpPort = nb.portId;
                if (rail)
                    nic.port = planned.nicPort(*host, *rail);
                nic.how = "agent";
                const std::string system = trimmed(nb.systemName.empty() ? nb.chassisId : nb.systemName);
                auto [it, added] = switchBySystem.emplace(system, 0);
                if (added) {
                    DNode sw;
                    sw.isSwitch = true;
                    sw.description = system;
                    it->second = g.nodes.size();
                    g.nodes.push_back(std::move(sw));
                }
                DEnd swEnd { it->second, 0, -1, 0 };
                const std::string lowerId = core::toLower(nb.portId);
                const auto plain = switchPortNumber(nb.portId, 1);
                if (!plain)
                    continue;
                swEnd.port = *plain;
                // Breakout names keep cage and position until the switch (and its cage size) is known.
                std::vector<int> nums;
                for (std::size_t i = 0; i < nb.portId.size();) {
                    if (!std::isdigit(static_cast<unsigned char>(nb.portId[i]))) {
                        ++i;
                        continue;
                    }
                    int v = 0;
                    const auto [p, ec] = std::from_chars(nb.portId.data() + i, nb.portId.data() + nb.portId.size(), v);
                    (void)ec;
                    nums.push_back(v);
                    i = static_cast<std::size_t>(p - nb.portId.data());
                }
                if (lowerId.starts_with("swp") && nums.size() == 2 && lowerId.find('s', 3) != std::string::npos) {
                    swEnd = { it->second, nums[0], nums[1], 0 };
                } else if (nums.size() == 3 && std::count(lowerId.begin(), lowerId.end(), '/') == 2) {
                    swEnd = { it->second, nums[1], nums[2], 1 };
                }
                const std::size_t nicIndex = g.nodes.size();
                g.nodes.push_back(std::move(nic));
                g.links.push_back({ { nicIndex, 1, -1, 0 }, swEnd });
            }
        }
    }
    identify(g, planned, options.known);
    CablingReport report = compare(g, planned, true, &inScope);
    if (inScope.empty() && !inventories.empty())
        report.findings.push_back({ core::Severity::Error, "LLDP_NO_NODES",
            "none of the agents' node names is a node of the plan: check the names in agents.json", "agents.json" });
    return report;
}

} // namespace railyard::live
