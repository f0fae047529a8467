// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/pair_schedule.h"

#include "core/text.h"

#include "core/plan_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace railyard::live {

namespace {

    /// The plan's nodes with their SU, pod and per-rail leaf (plane 0, installed links).
    struct FabricIndex {
        struct Node {
            std::string name;
            int su = 0;
            int pod = 0;
            std::vector<std::uint32_t> leafOfRail; ///< device index; UINT32_MAX when the rail is not cabled
        };
        std::vector<Node> nodes;
        std::map<std::string, std::size_t> byName;
        const core::Plan* plan = nullptr;

        const std::string& leafName(std::uint32_t device) const { return plan->devices[device].name; }
    };

    constexpr std::uint32_t kNoLeaf = UINT32_MAX;

    FabricIndex indexOf(const core::Plan& plan)
    {
        FabricIndex index;
        index.plan = &plan;
        std::map<std::uint32_t, std::size_t> nodeOfDevice;
        for (std::uint32_t d = 0; d < plan.devices.size(); ++d) {
            const core::Device& dev = plan.devices[d];
            if (dev.kind != core::DeviceKind::Node || !dev.installed)
                continue;
            nodeOfDevice[d] = index.nodes.size();
            index.byName[dev.name] = index.nodes.size();
            index.nodes.push_back({ dev.name, dev.su, 0, std::vector<std::uint32_t>(plan.summary.rails, kNoLeaf) });
        }
        for (const core::Link& link : plan.links) {
            if (link.tier != core::LinkTier::NodeLeaf || !link.installed || link.a.plane != 0)
                continue;
            const auto it = nodeOfDevice.find(link.a.device);
            if (it == nodeOfDevice.end() || link.a.port >= index.nodes[it->second].leafOfRail.size())
                continue;
            index.nodes[it->second].leafOfRail[link.a.port] = link.b.device;
            index.nodes[it->second].pod = plan.devices[link.b.device].pod;
        }
        return index;
    }

    std::string portName(const std::string& node, int rail)
    {
        return node + "/nic" + std::to_string(rail);
    }


    /// Flows a leaf needs so that each of `uplinks` carries one with probability 1 - miss.
    int flowsToCover(int uplinks, double miss)
    {
        if (uplinks <= 1)
            return 1;
        const double f = std::log(miss / uplinks) / std::log(1.0 - 1.0 / uplinks);
        return static_cast<int>(std::ceil(f));
    }

    /// Adds the tests of node pair (server, client) on every rail both have cabled.
    void addPair(const FabricIndex& index, std::size_t server, std::size_t client, int qps, ScheduleRound& round,
        std::set<std::string>& covered)
    {
        const auto& s = index.nodes[server];
        const auto& c = index.nodes[client];
        for (std::size_t rail = 0; rail < s.leafOfRail.size(); ++rail) {
            if (s.leafOfRail[rail] == kNoLeaf || c.leafOfRail[rail] == kNoLeaf)
                continue;
            PairTest t;
            t.server = s.name;
            t.client = c.name;
            t.rail = static_cast<int>(rail);
            t.serverLeaf = index.leafName(s.leafOfRail[rail]);
            t.clientLeaf = index.leafName(c.leafOfRail[rail]);
            t.crossesSpine = s.leafOfRail[rail] != c.leafOfRail[rail];
            t.crossesCore = t.crossesSpine && s.pod != c.pod;
            t.qps = t.crossesSpine ? qps : 1;
            round.tests.push_back(t);
            covered.insert(portName(s.name, t.rail));
            covered.insert(portName(c.name, t.rail));
        }
    }

    /// Pairs groups (SUs) greedily: `allowed(a, b)` says whether two groups may pair. Returns rounds
    /// of group pairs; a group left out of one round is paired in the next with any allowed partner.
    std::vector<std::vector<std::pair<int, int>>> pairGroups(const std::vector<int>& groups,
        const std::function<bool(int, int)>& allowed)
    {
        std::vector<std::vector<std::pair<int, int>>> rounds;
        std::vector<int> pending = groups;
        while (!pending.empty()) {
            std::vector<std::pair<int, int>> round;
            std::set<int> used;
            std::vector<int> left;
            for (std::size_t i = 0; i < pending.size(); ++i) {
                if (used.count(pending[i]))
                    continue;
                std::optional<int> partner;
                for (std::size_t j = i + 1; j < pending.size() && !partner; ++j)
                    if (!used.count(pending[j]) && allowed(pending[i], pending[j]))
                        partner = pending[j];
                if (!partner)
                    for (const int g : groups) // a group already covered may pair again
                        if (g != pending[i] && !used.count(g) && allowed(pending[i], g)
                            && std::find(pending.begin(), pending.end(), g) == pending.end()) {
                            partner = g;
                            break;
                        }
                if (!partner) {
                    left.push_back(pending[i]);
                    continue;
                }
                used.insert(pending[i]);
                used.insert(*partner);
                round.emplace_back(pending[i], *partner);
            }
            if (round.empty())
                break; // nothing pairs any more (a lone group)
            rounds.push_back(std::move(round));
            std::vector<int> next;
            for (const int g : left)
                if (!used.count(g))
                    next.push_back(g);
            pending = std::move(next);
        }
        return rounds;
    }

    /// The spine rounds chosen from known routes: rail by rail, each free client NIC (leaves with
    /// the most ports still to cover first) takes the free server NIC on another leaf whose route
    /// crosses the most inter-switch ports no test crosses yet, until a round adds nothing or every
    /// port is covered. Greedy (a set cover is NP-hard); the count against the lower bound says how
    /// far from the best it ended. Cost: nodes-per-rail squared route look-ups per round.
    void addRouteRounds(const FabricIndex& index, const std::vector<std::size_t>& chosen, const KnownRoutes& routes,
        PairSchedule& schedule, std::set<std::string>& coveredPorts)
    {
        const std::set<std::string> toCover(routes.links.begin(), routes.links.end());
        std::set<std::string> covered;
        std::map<std::tuple<std::size_t, std::size_t, std::size_t>, std::vector<std::string>> cache;
        auto routeOf = [&](std::size_t client, std::size_t server, std::size_t rail) -> const std::vector<std::string>& {
            const auto key = std::make_tuple(client, server, rail);
            auto it = cache.find(key);
            if (it == cache.end()) {
                auto r = routes.route(portName(index.nodes[client].name, static_cast<int>(rail)),
                    portName(index.nodes[server].name, static_cast<int>(rail)));
                it = cache.emplace(key, r ? std::move(*r) : std::vector<std::string>()).first;
            }
            return it->second;
        };
        auto switchOf = [](const std::string& port) { return port.substr(0, port.rfind('/')); };
        std::map<std::string, int> toCoverOn; // switch -> its ports still to cover
        for (const std::string& p : toCover)
            ++toCoverOn[switchOf(p)];

        // Lower bound: in one round a leaf's NICs on the rail are each in one test, as the client
        // whose traffic leaves by one uplink or as the server one downlink into the leaf feeds; so
        // a leaf with u uplinks and n tested NICs needs ceil(2u / n) rounds.
        std::map<std::uint32_t, int> nicsOnLeaf;
        for (const std::size_t n : chosen)
            for (const std::uint32_t leaf : index.nodes[n].leafOfRail)
                if (leaf != kNoLeaf)
                    ++nicsOnLeaf[leaf];
        for (const auto& [leaf, nics] : nicsOnLeaf) {
            const auto it = toCoverOn.find(index.leafName(leaf));
            if (it != toCoverOn.end() && nics > 0)
                schedule.pathLowerBound = std::max(schedule.pathLowerBound, (2 * it->second + nics - 1) / nics);
        }

        const std::size_t rails = index.nodes.empty() ? 0 : index.nodes.front().leafOfRail.size();
        const std::size_t maxRounds = std::max<std::size_t>(8, 4 * static_cast<std::size_t>(schedule.pathLowerBound));
        for (std::size_t roundNo = 0; roundNo < maxRounds && covered.size() < toCover.size(); ++roundNo) {
            ScheduleRound round { "leaf-spine paths (routes)", {} };
            for (std::size_t rail = 0; rail < rails; ++rail) {
                std::vector<std::size_t> onRail;
                for (const std::size_t n : chosen)
                    if (index.nodes[n].leafOfRail[rail] != kNoLeaf)
                        onRail.push_back(n);
                auto left = [&](std::size_t n) {
                    const auto it = toCoverOn.find(index.leafName(index.nodes[n].leafOfRail[rail]));
                    return it == toCoverOn.end() ? 0 : it->second;
                };
                std::stable_sort(onRail.begin(), onRail.end(), [&](std::size_t a, std::size_t b) { return left(a) > left(b); });
                std::set<std::size_t> busy;
                for (const std::size_t c : onRail) {
                    if (busy.count(c))
                        continue;
                    std::optional<std::size_t> best;
                    std::size_t bestGain = 0;
                    for (const std::size_t s : onRail) {
                        if (s == c || busy.count(s) || index.nodes[s].leafOfRail[rail] == index.nodes[c].leafOfRail[rail])
                            continue;
                        std::size_t gain = 0;
                        for (const std::string& p : routeOf(c, s, rail))
                            gain += toCover.count(p) && !covered.count(p);
                        if (gain > bestGain) {
                            bestGain = gain;
                            best = s;
                        }
                    }
                    if (!best)
                        continue;
                    busy.insert(c);
                    busy.insert(*best);
                    const auto& sNode = index.nodes[*best];
                    const auto& cNode = index.nodes[c];
                    PairTest t;
                    t.server = sNode.name;
                    t.client = cNode.name;
                    t.rail = static_cast<int>(rail);
                    t.serverLeaf = index.leafName(sNode.leafOfRail[rail]);
                    t.clientLeaf = index.leafName(cNode.leafOfRail[rail]);
                    t.crossesSpine = true;
                    t.crossesCore = sNode.pod != cNode.pod;
                    t.route = routeOf(c, *best, rail);
                    for (const std::string& p : t.route)
                        if (toCover.count(p) && covered.insert(p).second)
                            --toCoverOn[switchOf(p)];
                    coveredPorts.insert(portName(t.server, t.rail));
                    coveredPorts.insert(portName(t.client, t.rail));
                    round.tests.push_back(std::move(t));
                }
            }
            if (round.tests.empty())
                break; // no pair of the tested nodes crosses a port left
            schedule.rounds.push_back(std::move(round));
            ++schedule.pathRounds;
        }
        schedule.links = static_cast<int>(toCover.size());
        schedule.linksCovered = static_cast<int>(covered.size());
        for (const std::string& p : toCover)
            if (!covered.count(p))
                schedule.uncovered.push_back(p);
    }

} // namespace

core::Result<PairSchedule> schedulePairs(const core::Plan& plan, const ScheduleOptions& options)
{
    const FabricIndex index = indexOf(plan);
    std::vector<std::size_t> chosen;
    if (options.nodes.empty()) {
        for (std::size_t i = 0; i < index.nodes.size(); ++i)
            chosen.push_back(i);
    } else {
        std::set<std::size_t> seen;
        for (const std::string& name : options.nodes) {
            const auto it = index.byName.find(name);
            if (it == index.byName.end())
                return core::Error { "SCHEDULE_NODE", "node " + name + " is no installed node of the plan", name,
                    "give node names as the plan has them (" + (index.nodes.empty() ? std::string("none") : index.nodes.front().name)
                        + ", ...)" };
            if (seen.insert(it->second).second)
                chosen.push_back(it->second);
        }
    }

    PairSchedule schedule;
    std::set<std::string> covered;
    for (const std::size_t n : chosen)
        for (const std::uint32_t leaf : index.nodes[n].leafOfRail)
            if (leaf != kNoLeaf)
                ++schedule.nodePorts;

    // Node ports: pairs inside each SU; the odd node of each SU pairs with another SU's odd node,
    // or in a second round with the first node of its own SU.
    std::map<int, std::vector<std::size_t>> bySu;
    for (const std::size_t n : chosen)
        bySu[index.nodes[n].su].push_back(n);
    ScheduleRound first { "node ports", {} };
    std::vector<std::size_t> odd;
    for (const auto& [su, nodes] : bySu) {
        for (std::size_t i = 0; i + 1 < nodes.size(); i += 2)
            addPair(index, nodes[i], nodes[i + 1], 1, first, covered);
        if (nodes.size() % 2)
            odd.push_back(nodes.back());
    }
    for (std::size_t i = 0; i + 1 < odd.size(); i += 2)
        addPair(index, odd[i], odd[i + 1], 1, first, covered);
    if (!first.tests.empty())
        schedule.rounds.push_back(std::move(first));
    if (odd.size() % 2) {
        const std::size_t last = odd.back();
        const auto& own = bySu[index.nodes[last].su];
        std::optional<std::size_t> partner;
        if (own.size() > 1)
            partner = own.front();
        else if (chosen.size() > 1)
            partner = chosen.front() == last ? chosen[1] : chosen.front();
        if (partner) {
            ScheduleRound second { "node ports", {} };
            addPair(index, *partner, last, 1, second, covered);
            schedule.rounds.push_back(std::move(second));
        }
    }

    if (options.spinePaths && bySu.size() > 1) {
        const bool roce = plan.spec.fabric == core::Fabric::RoCEv2;
        const int uplinks = std::max(1, plan.summary.leafUplinks);
        std::vector<int> sus;
        std::map<int, int> podOf;
        for (const auto& [su, nodes] : bySu) {
            sus.push_back(su);
            podOf[su] = index.nodes[nodes.front()].pod;
        }
        auto addRounds = [&](const std::string& purpose, const std::function<bool(int, int)>& allowed) {
            for (const auto& pairs : pairGroups(sus, allowed)) {
                ScheduleRound round { purpose, {} };
                for (const auto& [a, b] : pairs) {
                    const auto& na = bySu[a];
                    const auto& nb = bySu[b];
                    const std::size_t m = std::min(na.size(), nb.size());
                    // Roles alternate so that each leaf sends about half of the flows up.
                    const int clientsPerLeaf = static_cast<int>((m + 1) / 2);
                    const int qps = roce
                        ? std::clamp((flowsToCover(uplinks, options.missProbability) + clientsPerLeaf - 1) / std::max(1, clientsPerLeaf), 1, 64)
                        : 1;
                    for (std::size_t i = 0; i < m; ++i)
                        if (i % 2 == 0)
                            addPair(index, na[i], nb[i], qps, round, covered);
                        else
                            addPair(index, nb[i], na[i], qps, round, covered);
                }
                schedule.rounds.push_back(std::move(round));
            }
        };
        const bool threeTier = plan.summary.tiers == 3;
        const bool fromRoutes = !roce && options.routes && options.routes->route;
        if (fromRoutes) {
            addRouteRounds(index, chosen, *options.routes, schedule, covered);
        } else {
            addRounds("leaf-spine paths", [&](int a, int b) { return !threeTier || podOf[a] == podOf[b]; });
            if (threeTier)
                addRounds("spine-core paths", [&](int a, int b) { return podOf[a] != podOf[b]; });
        }
        if (fromRoutes) {
            schedule.notes.push_back("InfiniBand: the spine rounds are chosen from " + options.routes->source + ": "
                + std::to_string(schedule.linksCovered) + " of " + std::to_string(schedule.links) + " inter-switch ports on a test's route in "
                + std::to_string(schedule.pathRounds) + " rounds (lower bound " + std::to_string(schedule.pathLowerBound) + ")");
            if (!schedule.uncovered.empty())
                schedule.notes.push_back(std::to_string(schedule.uncovered.size()) + " inter-switch ports are on no route between the nodes tested "
                    "(first: " + schedule.uncovered.front() + "); test more nodes, or check the Subnet Manager's routing");
        } else if (roce)
            schedule.notes.push_back("RoCEv2: ECMP places each flow on an uplink by hash; each cross-SU test runs enough QPs that "
                                     "every one of a leaf's " + std::to_string(uplinks) + " uplinks carries a flow with "
                + core::formatFixed((1 - options.missProbability) * 100, 0) + " % probability");
        else
            schedule.notes.push_back("InfiniBand: with OpenSM's ftree or updn routing each destination of a leaf leaves by its own "
                                     "up port while there are no more destinations than the leaf's "
                + std::to_string(uplinks) + " uplinks; which uplink each test takes is in the subnet's forwarding tables, "
                                            "which this schedule was not given (live test --routes or --ibsim reads them)");
    } else if (options.spinePaths) {
        schedule.notes.push_back("the nodes tested are in one SU: no path climbs to the spines");
    }
    if (plan.summary.planes > 1)
        schedule.notes.push_back("the plan has " + std::to_string(plan.summary.planes) + " planes: the schedule tests plane 1; repeat it "
                                                                                        "for the others");
    if (options.routes && options.routes->route && plan.spec.fabric != core::Fabric::RoCEv2)
        for (ScheduleRound& r : schedule.rounds)
            for (PairTest& t : r.tests)
                if (t.route.empty() && t.crossesSpine)
                    if (auto route = options.routes->route(portName(t.client, t.rail), portName(t.server, t.rail)))
                        t.route = std::move(*route);
    schedule.notes.push_back("ib_write_bw loads one direction, client to server; run with -b to load both");
    schedule.nodePortsCovered = static_cast<int>(covered.size());
    return schedule;
}

Narrowing narrowDown(const std::vector<PairResult>& results, double lowGbps)
{
    struct Tally {
        int tests = 0, low = 0;
        std::vector<std::string> lowText;
        std::string leaf;
    };
    std::map<std::string, Tally> ports;
    std::set<std::string> cleared;
    auto text = [](const PairResult& r) {
        return r.test.server + "<-" + r.test.client + " rail " + std::to_string(r.test.rail) + " " + core::formatFixed(r.gbps) + " Gb/s";
    };
    for (const PairResult& r : results) {
        const bool low = r.gbps < lowGbps;
        for (const auto& [node, leaf] : { std::pair { r.test.server, r.test.serverLeaf }, std::pair { r.test.client, r.test.clientLeaf } }) {
            Tally& t = ports[portName(node, r.test.rail)];
            t.leaf = leaf;
            ++t.tests;
            if (low) {
                ++t.low;
                t.lowText.push_back(text(r));
            } else {
                cleared.insert(portName(node, r.test.rail));
            }
        }
    }

    // Known routes: a switch port crossed by a test with a good result is cleared, as a node port is.
    std::set<std::string> clearedLinks;
    std::map<std::string, int> testsCrossing;
    std::map<std::string, std::set<std::size_t>> crossedBy; // route port -> the results crossing it
    std::map<std::string, std::string> nextSwitch; // route port -> the switch its cable reaches
    for (std::size_t k = 0; k < results.size(); ++k)
        for (std::size_t i = 0; i < results[k].test.route.size(); ++i) {
            const PairResult& r = results[k];
            const std::string& p = r.test.route[i];
            ++testsCrossing[p];
            crossedBy[p].insert(k);
            if (r.gbps >= lowGbps)
                clearedLinks.insert(p);
            nextSwitch[p] = i + 1 < r.test.route.size() ? r.test.route[i + 1].substr(0, r.test.route[i + 1].rfind('/')) : r.test.serverLeaf;
        }

    Narrowing out;
    std::map<std::string, Suspect> suspects;
    std::map<std::string, Suspect> uplinks;
    std::map<std::string, Suspect> links; // route ports
    std::vector<const PairResult*> ambiguous;
    for (const PairResult& r : results) {
        if (r.gbps >= lowGbps)
            continue;
        const std::string a = portName(r.test.server, r.test.rail);
        const std::string b = portName(r.test.client, r.test.rail);
        const bool aClear = cleared.count(a) > 0;
        const bool bClear = cleared.count(b) > 0;
        auto blame = [&](const std::string& port, const std::string& partner) {
            Suspect& s = suspects[port];
            s.element = port;
            s.kind = "node_port";
            s.lowTests = ports[port].low;
            s.tests = ports[port].tests;
            s.evidence = "low in " + std::to_string(s.lowTests) + " of " + std::to_string(s.tests) + " tests (";
            for (std::size_t i = 0; i < ports[port].lowText.size() && i < 3; ++i)
                s.evidence += (i ? "; " : "") + ports[port].lowText[i];
            s.evidence += ")" + (partner.empty() ? std::string() : ", while " + partner + " tested good elsewhere");
        };
        if (aClear && !bClear)
            blame(b, a);
        else if (bClear && !aClear)
            blame(a, b);
        else if (!aClear && !bClear)
            ambiguous.push_back(&r);
        else if (r.test.crossesSpine) {
            std::vector<std::string> onRoute;
            for (const std::string& p : r.test.route)
                if (!clearedLinks.count(p))
                    onRoute.push_back(p);
            for (const std::string& p : onRoute) {
                Suspect& s = links[p];
                s.element = p;
                s.kind = "uplink";
                ++s.lowTests;
                if (s.lowTests <= 3)
                    s.evidence += (s.evidence.empty() ? "" : "; ") + text(r);
                else if (s.lowTests == 4)
                    s.evidence += "; ...";
            }
            if (!onRoute.empty())
                continue;
            // No route known, or every port on it cleared by a good test: the two leaves' uplinks.
            for (const std::string& leaf : { r.test.serverLeaf, r.test.clientLeaf }) {
                Suspect& s = uplinks[leaf];
                s.element = leaf + " uplinks";
                s.kind = "uplinks";
                ++s.lowTests;
                s.evidence += (s.evidence.empty() ? "" : "; ") + text(r);
            }
        }
    }
    for (auto& [leaf, s] : uplinks) {
        for (const PairResult& r : results)
            if (r.test.crossesSpine && (r.test.serverLeaf == leaf || r.test.clientLeaf == leaf))
                ++s.tests;
        s.evidence = "low across the spines in " + std::to_string(s.lowTests) + " of " + std::to_string(s.tests)
            + " tests whose node ports tested good inside their SU (" + s.evidence + ")";
    }

    for (auto& [port, s] : links) {
        s.tests = testsCrossing[port];
        s.evidence = "on the route of " + std::to_string(s.lowTests) + " low tests (of " + std::to_string(s.tests)
            + " crossing it) whose node ports tested good inside their SU, and of no test with a good result ("
            + s.evidence + ")";
    }
    // Ports crossed by exactly the same tests are as likely as each other: one suspect, the first on
    // the route (a leaf's uplink before the spine's downlink) with the others as alternatives.
    std::map<std::set<std::size_t>, std::vector<std::string>> sameTests;
    for (const auto& [port, s] : links)
        sameTests[crossedBy[port]].push_back(port);
    for (auto& [tests, same] : sameTests) {
        if (same.size() < 2)
            continue;
        const std::vector<std::string>& order = results[*tests.begin()].test.route;
        auto at = [&](const std::string& p) { return std::find(order.begin(), order.end(), p) - order.begin(); };
        std::sort(same.begin(), same.end(), [&](const std::string& a, const std::string& b) { return at(a) < at(b); });
        Suspect& keep = links[same.front()];
        for (std::size_t i = 1; i < same.size(); ++i) {
            keep.alternatives.push_back(same[i]);
            links.erase(same[i]);
        }
    }

    // Two uncleared ports of one low test: retest each with a partner that tested good on that rail
    // (on the same leaf when there is one), no NIC in two tests of the round.
    std::set<std::string> busy;
    std::map<std::pair<std::string, int>, std::vector<std::pair<std::string, std::string>>> goodOnRail; // (leaf, rail) -> (node, port)
    for (const PairResult& r : results)
        if (r.gbps >= lowGbps)
            for (const auto& [node, leaf] : { std::pair { r.test.server, r.test.serverLeaf }, std::pair { r.test.client, r.test.clientLeaf } })
                goodOnRail[{ leaf, r.test.rail }].push_back({ node, portName(node, r.test.rail) });
    out.nextRound.purpose = "retests";
    for (const PairResult* r : ambiguous) {
        for (const auto& [node, leaf] : { std::pair { r->test.server, r->test.serverLeaf }, std::pair { r->test.client, r->test.clientLeaf } }) {
            const std::string port = portName(node, r->test.rail);
            Suspect& s = suspects[port];
            s.element = port;
            s.kind = "node_port";
            s.lowTests = ports[port].low;
            s.tests = ports[port].tests;
            s.evidence = "low with " + (node == r->test.server ? r->test.client : r->test.server)
                + ", which no other test cleared: the retest tells them apart (" + text(*r) + ")";
            if (busy.count(port))
                continue;
            std::optional<std::pair<std::string, std::string>> partner;
            auto pick = [&](const std::vector<std::pair<std::string, std::string>>& list) {
                for (const auto& p : list)
                    if (p.first != r->test.server && p.first != r->test.client && !busy.count(p.second))
                        return std::optional(p);
                return std::optional<std::pair<std::string, std::string>>();
            };
            if (const auto it = goodOnRail.find({ leaf, r->test.rail }); it != goodOnRail.end())
                partner = pick(it->second);
            for (auto it = goodOnRail.begin(); !partner && it != goodOnRail.end(); ++it)
                if (it->first.second == r->test.rail)
                    partner = pick(it->second);
            if (!partner)
                continue;
            busy.insert(port);
            busy.insert(partner->second);
            PairTest t;
            t.server = partner->first;
            t.client = node;
            t.rail = r->test.rail;
            t.clientLeaf = leaf;
            for (const PairResult& g : results)
                if (g.test.rail == t.rail && (g.test.server == t.server || g.test.client == t.server))
                    t.serverLeaf = g.test.server == t.server ? g.test.serverLeaf : g.test.clientLeaf;
            t.crossesSpine = t.serverLeaf != t.clientLeaf;
            out.nextRound.tests.push_back(t);
        }
    }

    for (auto& [port, s] : suspects)
        out.suspects.push_back(s);
    for (auto& [leaf, s] : uplinks)
        out.suspects.push_back(s);
    for (auto& [port, s] : links)
        out.suspects.push_back(s);
    std::stable_sort(out.suspects.begin(), out.suspects.end(), [](const Suspect& a, const Suspect& b) {
        const double ra = a.tests ? static_cast<double>(a.lowTests) / a.tests : 0;
        const double rb = b.tests ? static_cast<double>(b.lowTests) / b.tests : 0;
        return a.lowTests != b.lowTests ? a.lowTests > b.lowTests : ra > rb;
    });
    for (const Suspect& s : out.suspects) {
        if (s.kind == "node_port") {
            const std::string leaf = ports[s.element].leaf;
            const std::string node = s.element.substr(0, s.element.find('/'));
            const std::string rail = s.element.substr(s.element.find("/nic") + 4);
            out.findings.push_back({ core::Severity::Error, "LOW_BANDWIDTH_PORT",
                node + " rail " + rail + ": " + s.evidence + ": check the NIC, its cable " + s.element + " <-> " + leaf
                    + " and the leaf port (live check shows the rate it trained at)",
                s.element });
        } else if (s.kind == "uplink") {
            const std::string from = s.element.substr(0, s.element.rfind('/'));
            const std::string to = nextSwitch[s.element];
            std::string others;
            for (const std::string& a : s.alternatives)
                others += (others.empty() ? "" : ", ") + a + " (to " + nextSwitch[a] + ")";
            out.findings.push_back({ core::Severity::Error, "LOW_BANDWIDTH_UPLINK",
                s.element + " (the cable from " + from + " to " + to + ")"
                    + (others.empty() ? std::string() : ", or " + others + ", which the same tests crossed: a pair whose route crosses one of them only tells them apart")
                    + ": " + s.evidence
                    + ": read that port's and its peer's counters (XmitWait, symbol and link errors: live watch --switches) and check the "
                      "cable and the two switch ports",
                s.element });
        } else {
            out.findings.push_back({ core::Severity::Error, "LOW_BANDWIDTH_UPLINKS",
                s.element + ": " + s.evidence + ": read the leaf's uplink and the spines' port counters (XmitWait, errors) "
                    "and check the links from this leaf to the spines",
                s.element.substr(0, s.element.find(' ')) });
        }
    }
    return out;
}

nlohmann::json toJson(const PairSchedule& schedule)
{
    nlohmann::json rounds = nlohmann::json::array();
    for (const ScheduleRound& r : schedule.rounds) {
        nlohmann::json tests = nlohmann::json::array();
        for (const PairTest& t : r.tests)
            tests.push_back({ { "server", t.server }, { "client", t.client }, { "rail", t.rail }, { "server_leaf", t.serverLeaf },
                { "client_leaf", t.clientLeaf }, { "crosses_spine", t.crossesSpine }, { "crosses_core", t.crossesCore }, { "qps", t.qps },
                { "route", t.route } });
        rounds.push_back({ { "purpose", r.purpose }, { "tests", std::move(tests) } });
    }
    nlohmann::json out { { "rounds", std::move(rounds) }, { "node_ports", schedule.nodePorts }, { "node_ports_covered", schedule.nodePortsCovered },
        { "notes", schedule.notes } };
    if (schedule.links > 0)
        out["paths"] = { { "links", schedule.links }, { "links_covered", schedule.linksCovered }, { "rounds", schedule.pathRounds },
            { "lower_bound", schedule.pathLowerBound }, { "uncovered", schedule.uncovered } };
    return out;
}

nlohmann::json toJson(const Narrowing& narrowing)
{
    nlohmann::json suspects = nlohmann::json::array();
    for (const Suspect& s : narrowing.suspects)
        suspects.push_back({ { "element", s.element }, { "kind", s.kind }, { "low_tests", s.lowTests }, { "tests", s.tests },
            { "evidence", s.evidence }, { "alternatives", s.alternatives } });
    nlohmann::json next = nlohmann::json::array();
    for (const PairTest& t : narrowing.nextRound.tests)
        next.push_back({ { "server", t.server }, { "client", t.client }, { "rail", t.rail } });
    nlohmann::json findings = nlohmann::json::array();
    for (const core::Finding& f : narrowing.findings)
        findings.push_back(core::toJson(f));
    return { { "suspects", std::move(suspects) }, { "next_round", std::move(next) }, { "findings", std::move(findings) } };
}

} // namespace railyard::live
