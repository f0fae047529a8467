// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Finding the bad link: a schedule of pairwise perftest runs (ib_write_bw between the same rail of
// two nodes) that covers every rail NIC and, on request, every leaf-to-spine path in as few rounds
// as the fabric allows, and the narrowing of low results down to the element that causes them.
//
// Rules of a round: every NIC is in at most one test, so all tests of a round run at once; a pair
// of nodes runs all its rails in parallel (NIC k with NIC k, GPU k with NIC k).
// - Node ports: nodes are paired inside their SU (same leaf per rail): one round covers every
//   node-to-leaf link when each SU has an even number of nodes, two rounds otherwise.
// - Leaf-to-spine paths (spinePaths): SUs are paired and node i of one SU tests with node i of the
//   other on every rail, so each leaf sends as many flows up as the SU has nodes. On InfiniBand
//   OpenSM's ftree and updn routing give each destination LID of a leaf its own up port while
//   there are no more destinations than up ports, so the flows use distinct uplinks (which one
//   each takes is in the subnet's forwarding tables). With the routes read from those tables
//   (KnownRoutes, from ib_routes.h) the spine rounds are chosen from them instead: a greedy set
//   cover picks, rail by rail, client -> server pairs whose routes leave by switch ports no
//   earlier test used, until every inter-switch port (each leaf uplink, each spine downlink) carries
//   a test; the lower bound is the busiest leaf's 2 x uplinks / NICs on that rail (a NIC is either
//   the client that loads an uplink or the server a downlink feeds, in one test per round).
//   On RoCEv2 ECMP hashes each flow (each QP has its own UDP source port) onto an uplink at random:
//   the schedule gives each test enough QPs that every uplink of a leaf carries a flow with 99 %
//   probability (coupon collector: u uplinks, f flows: u * (1 - 1/u)^f <= 0.01).
//   With 3 tiers a further round pairs SUs of different pods, across the cores.
//   An odd SU out is paired again in an extra round.
#pragma once

#include "core/plan.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace railyard::live {

struct PairTest {
    std::string server; ///< node names as the plan has them
    std::string client;
    int rail = 0;
    std::string serverLeaf, clientLeaf; ///< the leaves the two NICs plug into
    bool crossesSpine = false;          ///< the leaves differ: the path climbs to the spines
    bool crossesCore = false;           ///< 3 tiers: the leaves are in different pods
    int qps = 1;                        ///< perftest -q: flows of the test (RoCEv2 ECMP coverage)
    /// Known routes: the switch ports the client's traffic leaves by, in plan names
    /// ("su1-rail0-leaf/5", "spine1/33"), the client's leaf first; empty when not known.
    std::vector<std::string> route;
};

/// The subnet's routes as the schedule uses them (ib_routes.h knownRoutes() reads them on
/// InfiniBand). Tests of the narrowing give them by hand.
struct KnownRoutes {
    /// Client NIC -> server NIC ("node001/nic0", "node005/nic0"): the switch ports the client's
    /// traffic leaves by, up to the server's leaf (not its port to the server); nullopt when unknown.
    std::function<std::optional<std::vector<std::string>>(const std::string& client, const std::string& server)> route;
    std::vector<std::string> links; ///< the ports to cover: every inter-switch port ("su1-rail0-leaf/5")
    std::string source;             ///< where the routes come from, in words
};

struct ScheduleRound {
    std::string purpose; ///< "node ports", "leaf-spine paths", "spine-core paths"
    std::vector<PairTest> tests;
};

struct ScheduleOptions {
    bool spinePaths = false;        ///< also cover every leaf-to-spine (and spine-to-core) path
    std::vector<std::string> nodes; ///< the nodes to test; empty: every installed node of the plan
    double missProbability = 0.01;  ///< RoCEv2: the chance left that an uplink carries no flow
    /// InfiniBand: the spine rounds are chosen from these routes (with spinePaths); nullptr: SU
    /// against SU, each test's route unknown.
    const KnownRoutes* routes = nullptr;
};

struct PairSchedule {
    std::vector<ScheduleRound> rounds;
    int nodePorts = 0;        ///< rail NIC ports of the nodes tested
    int nodePortsCovered = 0; ///< of them, in at least one test
    std::vector<std::string> notes; ///< what the schedule assumes, in words
    // With KnownRoutes:
    int links = 0;          ///< inter-switch ports to cover
    int linksCovered = 0;   ///< of them, on the route of at least one test
    int pathRounds = 0;     ///< rounds of the route-chosen cover
    int pathLowerBound = 0; ///< the fewest rounds any schedule needs for that cover
    std::vector<std::string> uncovered; ///< ports no pair of the tested nodes routes through
};

/// Errors when a listed node is no node of the plan.
core::Result<PairSchedule> schedulePairs(const core::Plan& plan, const ScheduleOptions& options = {});

/// One test's measured bandwidth (Gb/s, one direction, as modelPerftest bounds it).
struct PairResult {
    PairTest test;
    double gbps = 0;
};

/// An element that explains low results: a node's rail port (NIC, cable or leaf port:
/// "node007/nic3"), a leaf's uplinks ("su1-rail3-leaf uplinks"), or, when the tests' routes are
/// known, one switch port on them ("su1-rail3-leaf/33", kind "uplink": the cable from there to
/// the next switch, named in the evidence).
struct Suspect {
    std::string element;
    std::string kind; ///< "node_port", "uplinks" or "uplink"
    int lowTests = 0, tests = 0;
    std::string evidence; ///< in words: which tests were low and which cleared the others
    std::vector<std::string> alternatives; ///< "uplink": route ports crossed by the same tests, as likely
};

struct Narrowing {
    std::vector<Suspect> suspects; ///< the most likely first
    ScheduleRound nextRound;       ///< retests that tell the remaining suspects apart (may be empty)
    std::vector<core::Finding> findings; ///< one per suspect (LOW_BANDWIDTH_PORT / _UPLINKS / _UPLINK)
};

/// Narrows the results of a schedule down: a test is low under `lowGbps`. A node port is cleared
/// by any test of it that was not low; a low test between two ports of which one is cleared
/// blames the other; a low test across the spines whose ports are both cleared by tests inside
/// their SU blames the uplinks of the two leaves, or, when its route is known (PairTest::route),
/// the ports on that route that no test with a good result crossed (each a suspect "uplink",
/// ranked by the low tests crossing it). Two uncleared ports of one low test are told
/// apart by a retest of each with a partner that tested good on that rail (nextRound).
Narrowing narrowDown(const std::vector<PairResult>& results, double lowGbps);

nlohmann::json toJson(const PairSchedule& schedule);
nlohmann::json toJson(const Narrowing& narrowing);

} // namespace railyard::live
