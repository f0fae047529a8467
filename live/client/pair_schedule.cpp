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
        addRounds("leaf-spine paths", [&](int a, int b) { return !threeTier || podOf[a] == podOf[b]; });
        if (threeTier)
            addRounds("spine-core paths", [&](int a, int b) { return podOf[a] != podOf[b]; });
        if (roce)
            schedule.notes.push_back("RoCEv2: ECMP places each flow on an uplink by hash; each cross-SU test runs enough QPs that "
                                     "every one of a leaf's " + std::to_string(uplinks) + " uplinks carries a flow with "
                + core::formatFixed((1 - options.missProbability) * 100, 0) + " % probability");
        else
            schedule.notes.push_back("InfiniBand: with OpenSM's ftree or updn routing each destination of a leaf leaves by its own "
                                     "up port while there are no more destinations than the leaf's "
                + std::to_string(uplinks) + " uplinks; which uplink each test takes is in the subnet's forwarding tables, "
                                            "which this schedule does not read");
    } else if (options.spinePaths) {
        schedule.notes.push_back("the nodes tested are in one SU: no path climbs to the spines");
    }
    if (plan.summary.planes > 1)
        schedule.notes.push_back("the plan has " + std::to_string(plan.summary.planes) + " planes: the schedule tests plane 1; repeat it "
                                                                                        "for the others");
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

    Narrowing out;
    std::map<std::string, Suspect> suspects;
    std::map<std::string, Suspect> uplinks;
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
                { "client_leaf", t.clientLeaf }, { "crosses_spine", t.crossesSpine }, { "crosses_core", t.crossesCore }, { "qps", t.qps } });
        rounds.push_back({ { "purpose", r.purpose }, { "tests", std::move(tests) } });
    }
    return { { "rounds", std::move(rounds) }, { "node_ports", schedule.nodePorts }, { "node_ports_covered", schedule.nodePortsCovered },
        { "notes", schedule.notes } };
}

nlohmann::json toJson(const Narrowing& narrowing)
{
    nlohmann::json suspects = nlohmann::json::array();
    for (const Suspect& s : narrowing.suspects)
        suspects.push_back({ { "element", s.element }, { "kind", s.kind }, { "low_tests", s.lowTests }, { "tests", s.tests },
            { "evidence", s.evidence } });
    nlohmann::json next = nlohmann::json::array();
    for (const PairTest& t : narrowing.nextRound.tests)
        next.push_back({ { "server", t.server }, { "client", t.client }, { "rail", t.rail } });
    nlohmann::json findings = nlohmann::json::array();
    for (const core::Finding& f : narrowing.findings)
        findings.push_back(core::toJson(f));
    return { { "suspects", std::move(suspects) }, { "next_round", std::move(next) }, { "findings", std::move(findings) } };
}

} // namespace railyard::live
