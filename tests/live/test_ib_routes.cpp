// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Routes from the InfiniBand forwarding tables (live/client/ib_routes.h), the schedule that covers
// every inter-switch port from known routes, and the narrowing that names the uplink on a low
// pair's route (pair_schedule.h). Against a real subnet: railyard-sim --ibsim (ibsim + OpenSM
// ftree) on a 2-SU plan, `live test --spine-paths --ibsim --dry-run --json`, each route compared
// with what `ibtracert` (infiniband-diags) prints for the same pair. Skipped when ibsim-utils,
// opensm or infiniband-diags is missing.
#include "live/client/ib_routes.h"

#include "core/catalog.h"
#include "core/plan_spec.h"
#include "live/client/pair_schedule.h"
#include "planner/planner.h"
#include "tests/integration/ibsim_harness.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <set>
#include <sstream>
#include <thread>

using namespace railyard;
using namespace railyard::ibsimtest;

namespace {

// A two-leaf path: CA a -- L1 [1] ... L1 [5] -- [1] S [2] -- [5] L2 [1] -- CA b.
live::IbFabric twoLeafFabric()
{
    live::IbFabric f;
    f.addNode({ 0xa, live::IbNodeType::CA, "a", 1, 10, {} });
    f.addNode({ 0xb, live::IbNodeType::CA, "b", 1, 20, {} });
    f.addNode({ 0x100, live::IbNodeType::Switch, "L1", 64, 1, {} });
    f.addNode({ 0x200, live::IbNodeType::Switch, "L2", 64, 2, {} });
    f.addNode({ 0x300, live::IbNodeType::Switch, "S", 64, 3, {} });
    f.addLink({ { 0xa, 1 }, { 0x100, 1 }, "4x", "NDR" });
    f.addLink({ { 0x100, 5 }, { 0x300, 1 }, "4x", "NDR" });
    f.addLink({ { 0x200, 5 }, { 0x300, 2 }, "4x", "NDR" });
    f.addLink({ { 0xb, 1 }, { 0x200, 1 }, "4x", "NDR" });
    f.finish();
    return f;
}

live::ForwardingTable table(const std::string& name, std::uint64_t guid, int lid, std::map<int, int> entries)
{
    live::ForwardingTable t;
    t.name = name;
    t.guid = guid;
    t.lid = lid;
    t.linearFdbTop = 20;
    t.port.assign(21, 255);
    for (const auto& [dlid, port] : entries)
        t.port[static_cast<std::size_t>(dlid)] = static_cast<std::uint8_t>(port);
    return t;
}

std::map<std::uint64_t, std::string> names()
{
    return { { 0xa, "node001/nic0" }, { 0xb, "node005/nic0" }, { 0x100, "su1-rail0-leaf" }, { 0x200, "su2-rail0-leaf" }, { 0x300, "spine1" } };
}

core::Plan planOf(const std::string& spec)
{
    auto catalog = core::Catalog::builtin();
    EXPECT_TRUE(catalog.ok());
    auto parsed = core::parsePlanSpecText(spec, "routes.plan.json");
    EXPECT_TRUE(parsed.ok()) << parsed.error().toString();
    auto plan = planner::makePlan(*parsed, *catalog);
    EXPECT_TRUE(plan.ok());
    return *plan;
}

constexpr const char* kTwoSu = R"({ "name": "routes", "fabric": "infiniband", "nodes": 8, "su_size": 4,
    "node_type": "dgx-h100", "link": { "generation": "NDR", "width": 4 } })";

/// Routes as ftree lays them out, from the plan's cables: the j-th NIC on a leaf (by leaf port) is
/// reached down the leaf's j-th uplink; a source leaf climbs to that uplink's spine by its own
/// cable of the same rank to that spine.
struct FtreeLikeRoutes {
    live::KnownRoutes known;
    std::map<std::string, std::vector<std::string>> uplinksOf; // leaf -> its uplink ports "leaf/port", by port
};

FtreeLikeRoutes ftreeLike(const core::Plan& plan)
{
    struct Up {
        int leafPort;
        std::string spine;
        int spinePort;
    };
    auto ups = std::make_shared<std::map<std::string, std::vector<Up>>>();
    auto rank = std::make_shared<std::map<std::string, int>>(); // "node/nicK" -> rank among its leaf's NICs
    auto leafOf = std::make_shared<std::map<std::string, std::string>>();
    FtreeLikeRoutes out;
    std::map<std::string, std::vector<std::pair<int, std::string>>> nicsOnLeaf;
    for (const core::Link& l : plan.links) {
        const std::string a = plan.devices[l.a.device].name, b = plan.devices[l.b.device].name;
        if (l.tier == core::LinkTier::LeafSpine) {
            (*ups)[a].push_back({ static_cast<int>(l.a.port), b, static_cast<int>(l.b.port) });
            out.known.links.push_back(a + "/" + std::to_string(l.a.port));
            out.known.links.push_back(b + "/" + std::to_string(l.b.port));
        } else if (l.tier == core::LinkTier::NodeLeaf && l.a.plane == 0) {
            const std::string nic = a + "/nic" + std::to_string(l.a.port);
            nicsOnLeaf[b].push_back({ static_cast<int>(l.b.port), nic });
            (*leafOf)[nic] = b;
        }
    }
    for (auto& [leaf, list] : *ups) {
        std::sort(list.begin(), list.end(), [](const Up& x, const Up& y) { return x.leafPort < y.leafPort; });
        for (const Up& u : list)
            out.uplinksOf[leaf].push_back(leaf + "/" + std::to_string(u.leafPort));
    }
    for (auto& [leaf, list] : nicsOnLeaf) {
        std::sort(list.begin(), list.end());
        for (std::size_t i = 0; i < list.size(); ++i)
            (*rank)[list[i].second] = static_cast<int>(i);
    }
    out.known.source = "ftree-like routes of the test";
    out.known.route = [ups, rank, leafOf](const std::string& client, const std::string& server) -> std::optional<std::vector<std::string>> {
        const std::string& lc = leafOf->at(client);
        const std::string& ls = leafOf->at(server);
        if (lc == ls)
            return std::vector<std::string> {};
        const auto& down = ups->at(ls);
        const Up& d = down[static_cast<std::size_t>(rank->at(server)) % down.size()];
        int k = 0; // the down cable's rank among the server leaf's cables to that spine
        for (const Up& u : down) {
            if (&u == &d)
                break;
            k += u.spine == d.spine;
        }
        for (const Up& u : ups->at(lc))
            if (u.spine == d.spine && k-- == 0)
                return std::vector<std::string> { lc + "/" + std::to_string(u.leafPort), d.spine + "/" + std::to_string(d.spinePort) };
        return std::nullopt;
    };
    return out;
}

} // namespace

TEST(IbRoutes, TraceFollowsTheForwardingTablesAcrossTheSpine)
{
    live::ForwardingTables tables;
    tables.switches = { table("su1-rail0-leaf", 0x100, 1, { { 20, 5 }, { 10, 1 } }), table("spine1", 0x300, 3, { { 20, 2 }, { 10, 1 } }),
        table("su2-rail0-leaf", 0x200, 2, { { 20, 1 }, { 10, 5 } }) };
    const live::SubnetRoutes routes(twoLeafFabric(), tables, names());
    auto r = routes.trace("node001/nic0", "node005/nic0");
    ASSERT_TRUE(r.ok()) << r.error().toString();
    EXPECT_EQ(live::routeText(*r), "node001/nic0 -> su1-rail0-leaf/5 -> spine1/2 -> su2-rail0-leaf/1 -> node005/nic0");
    ASSERT_EQ(r->hops.size(), 3u);
    EXPECT_EQ(r->hops[1].inPort, 1);
    EXPECT_EQ(r->hops[2].inPort, 5);
    EXPECT_EQ(r->sourceLid, 10);
    EXPECT_EQ(r->destinationLid, 20);
    auto back = routes.trace("node005/nic0", "node001/nic0");
    ASSERT_TRUE(back.ok()) << back.error().toString();
    EXPECT_EQ(live::routeText(*back), "node005/nic0 -> su2-rail0-leaf/5 -> spine1/1 -> su1-rail0-leaf/1 -> node001/nic0");

    const live::KnownRoutes known = live::knownRoutes(std::make_shared<live::SubnetRoutes>(twoLeafFabric(), tables, names()));
    EXPECT_EQ(known.route("node001/nic0", "node005/nic0"), (std::vector<std::string> { "su1-rail0-leaf/5", "spine1/2" }));
    EXPECT_EQ(std::set<std::string>(known.links.begin(), known.links.end()),
        (std::set<std::string> { "su1-rail0-leaf/5", "spine1/1", "spine1/2", "su2-rail0-leaf/5" }));
    EXPECT_FALSE(known.route("node001/nic0", "node009/nic0")); // not in the subnet
}

TEST(IbRoutes, TraceSaysWhereARouteStops)
{
    live::ForwardingTables missing;
    missing.switches = { table("su1-rail0-leaf", 0x100, 1, { { 20, 5 } }), table("spine1", 0x300, 3, {}),
        table("su2-rail0-leaf", 0x200, 2, { { 20, 1 } }) };
    auto r = live::SubnetRoutes(twoLeafFabric(), missing, names()).trace("node001/nic0", "node005/nic0");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "IB_ROUTE");
    EXPECT_NE(r.error().message.find("spine1: its forwarding table has no port for LID 20"), std::string::npos) << r.error().message;

    live::ForwardingTables loop;
    loop.switches = { table("su1-rail0-leaf", 0x100, 1, { { 20, 5 } }), table("spine1", 0x300, 3, { { 20, 1 } }) };
    r = live::SubnetRoutes(twoLeafFabric(), loop, names()).trace("node001/nic0", "node005/nic0");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("a loop in the forwarding tables"), std::string::npos) << r.error().message;

    live::ForwardingTables partial;
    partial.switches = { table("su1-rail0-leaf", 0x100, 1, { { 20, 5 } }) };
    r = live::SubnetRoutes(twoLeafFabric(), partial, names()).trace("node001/nic0", "node005/nic0");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("spine1, whose forwarding table was not read"), std::string::npos) << r.error().message;

    r = live::SubnetRoutes(twoLeafFabric(), partial, names()).trace("node002/nic0", "node005/nic0");
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("node002/nic0 was not identified"), std::string::npos) << r.error().message;
}

TEST(IbRoutes, ScheduleFromRoutesCoversEveryUplinkAndDownlinkAtTheLowerBound)
{
    const core::Plan plan = planOf(kTwoSu);
    const FtreeLikeRoutes routes = ftreeLike(plan);
    live::ScheduleOptions options;
    options.spinePaths = true;
    options.routes = &routes.known;
    auto schedule = live::schedulePairs(plan, options);
    ASSERT_TRUE(schedule.ok()) << schedule.error().toString();
    EXPECT_EQ(schedule->links, static_cast<int>(routes.known.links.size()));
    EXPECT_EQ(schedule->linksCovered, schedule->links) << nlohmann::json(live::toJson(*schedule)).dump(1);
    EXPECT_TRUE(schedule->uncovered.empty());
    // 4 uplinks and 4 NICs per leaf and rail: up and down need 2 rounds, and the greedy cover finds them.
    EXPECT_EQ(schedule->pathLowerBound, 2);
    EXPECT_EQ(schedule->pathRounds, 2);
    std::set<std::string> crossed;
    int pathRounds = 0;
    for (const live::ScheduleRound& round : schedule->rounds) {
        std::set<std::string> busy;
        for (const live::PairTest& t : round.tests) {
            EXPECT_TRUE(busy.insert(t.server + "/nic" + std::to_string(t.rail)).second) << round.purpose << ": " << t.server << " twice";
            EXPECT_TRUE(busy.insert(t.client + "/nic" + std::to_string(t.rail)).second) << round.purpose << ": " << t.client << " twice";
            EXPECT_NE(t.serverLeaf.find("rail" + std::to_string(t.rail) + "-"), std::string::npos); // the same rail on both ends
            EXPECT_NE(t.clientLeaf.find("rail" + std::to_string(t.rail) + "-"), std::string::npos);
            if (t.crossesSpine) {
                EXPECT_EQ(t.route, *routes.known.route(t.client + "/nic" + std::to_string(t.rail), t.server + "/nic" + std::to_string(t.rail)));
            }
            crossed.insert(t.route.begin(), t.route.end());
        }
        pathRounds += round.purpose == "leaf-spine paths (routes)";
    }
    EXPECT_EQ(pathRounds, 2);
    EXPECT_EQ(crossed, std::set<std::string>(routes.known.links.begin(), routes.known.links.end()));
    EXPECT_NE(schedule->notes.front().find("128 of 128 inter-switch ports on a test's route in 2 rounds (lower bound 2)"), std::string::npos)
        << schedule->notes.front();

    // Half the nodes: a leaf's 4 uplinks over 2 NICs need 4 rounds, and some spine ports are on no route.
    options.nodes = { "node001", "node002", "node005", "node006" };
    schedule = live::schedulePairs(plan, options);
    ASSERT_TRUE(schedule.ok());
    EXPECT_EQ(schedule->pathLowerBound, 4);
    EXPECT_FALSE(schedule->uncovered.empty());
    EXPECT_LT(schedule->linksCovered, schedule->links);
}

TEST(IbRoutes, NarrowingNamesTheStalledUplinkOnTheLowPairsRoutes)
{
    // The emulator's `congested` fault: the first 2 uplinks of su1-rail2-leaf carry a quarter. Its
    // perftest stand-in does not know which uplink a pair crosses (that is in OpenSM's tables, not
    // in the node's sysfs tree), so the results are made here from the routes.
    const core::Plan plan = planOf(kTwoSu);
    const FtreeLikeRoutes routes = ftreeLike(plan);
    const auto& leafUps = routes.uplinksOf.at("su1-rail2-leaf");
    const std::set<std::string> stalled { leafUps[0], leafUps[1] };
    live::ScheduleOptions options;
    options.spinePaths = true;
    options.routes = &routes.known;
    auto schedule = live::schedulePairs(plan, options);
    ASSERT_TRUE(schedule.ok());
    std::vector<live::PairResult> results;
    std::set<std::string> lowPairs;
    for (const live::ScheduleRound& round : schedule->rounds)
        for (const live::PairTest& t : round.tests) {
            bool slow = false;
            for (const std::string& p : t.route)
                slow = slow || stalled.count(p);
            results.push_back({ t, slow ? 97.0 : 388.0 });
            if (slow)
                lowPairs.insert(t.client + "->" + t.server);
        }
    ASSERT_EQ(lowPairs.size(), 2u); // one pair up each stalled uplink
    const live::Narrowing n = live::narrowDown(results, 291);
    std::set<std::string> blamed, findings;
    for (const live::Suspect& s : n.suspects) {
        EXPECT_EQ(s.kind, "uplink") << s.element << ": " << s.evidence;
        blamed.insert(s.element);
        EXPECT_EQ(s.lowTests, 1);
        // The spine's downlink on the same route was crossed by the same test only: as likely.
        ASSERT_EQ(s.alternatives.size(), 1u) << s.element;
        EXPECT_EQ(s.alternatives[0].rfind("spine", 0), 0u) << s.alternatives[0];
    }
    EXPECT_EQ(blamed, stalled);
    for (const core::Finding& f : n.findings) {
        EXPECT_EQ(f.code, "LOW_BANDWIDTH_UPLINK");
        findings.insert(f.where);
        EXPECT_NE(f.message.find("(the cable from su1-rail2-leaf to spine"), std::string::npos) << f.message;
    }
    EXPECT_EQ(findings, stalled);
    EXPECT_TRUE(n.nextRound.tests.empty());

    // Without routes the same low tests blame the two leaves' uplinks as a whole.
    std::vector<live::PairResult> blind = results;
    for (live::PairResult& r : blind)
        r.test.route.clear();
    const live::Narrowing b = live::narrowDown(blind, 291);
    ASSERT_FALSE(b.suspects.empty());
    for (const live::Suspect& s : b.suspects)
        EXPECT_EQ(s.kind, "uplinks");
}

namespace {

/// "su1-rail0-leaf/5"-style egress ports of `ibtracert` output, leaf first, without the source
/// adapter's port and the last switch's port to the destination adapter.
std::vector<std::string> tracertPorts(const std::string& text)
{
    std::vector<std::pair<std::string, int>> hops; // (node the traffic leaves, port)
    std::string previous;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("From ", 0) == 0) {
            previous = line.substr(line.find('"') + 1, line.rfind('"') - line.find('"') - 1);
        } else if (line.rfind("[", 0) == 0 && line.find("] -> ") != std::string::npos) {
            const int out = std::stoi(line.substr(1, line.find(']') - 1));
            hops.push_back({ previous, out });
            previous = line.substr(line.find('"') + 1, line.rfind('"') - line.find('"') - 1);
        }
    }
    std::vector<std::string> ports;
    for (std::size_t i = 1; i + 1 < hops.size(); ++i)
        ports.push_back(hops[i].first + "/" + std::to_string(hops[i].second));
    return ports;
}

/// Adapter description -> LID from `ibnetdiscover` output (the switches' port lines name them).
std::map<std::string, int> adapterLids(const std::string& text)
{
    std::map<std::string, int> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        const auto hash = line.find("# \"");
        const auto lid = line.find("\" lid ");
        if (line.rfind("[", 0) != 0 || hash == std::string::npos || lid == std::string::npos || line.find("\"H-") == std::string::npos)
            continue;
        out[line.substr(hash + 3, lid - hash - 3)] = std::stoi(line.substr(lid + 6));
    }
    return out;
}

std::string envValue(const std::string& text, const std::string& key)
{
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key + "=", 0) == 0)
            return line.substr(key.size() + 1);
    return {};
}

/// railyard-sim --ibsim on the 2-SU plan (written to `spec`), idle, serving from `root`; returns once
/// agents.json is there (or after 90 s: the caller checks).
std::unique_ptr<Child> startIbsimFabric(const fs::path& dir, const fs::path& spec, const fs::path& root)
{
    std::ofstream(spec) << kTwoSu;
    auto sim = std::make_unique<Child>(
        std::vector<std::string> { RAILYARD_SIM, "--plan", spec.string(), "--root", root.string(), "--ibsim", "--traffic", "idle",
            "--seconds", "300" },
        Env {}, dir / "sim.log");
    for (int i = 0; i < 900 && !fs::exists(root / "agents.json"); ++i)
        std::this_thread::sleep_for(100ms);
    return sim;
}

} // namespace

TEST(IbRoutesIbsim, RoutesFromTheForwardingTablesEqualIbtracert)
{
    const Tools tools = findTools();
    if (!tools.missing.empty())
        GTEST_SKIP() << tools.missing;
    ASSERT_TRUE(std::string(RAILYARD_SIM).size() > 0) << "railyard-sim not built";
    TempDir dir("ib-routes", TempDir::Place::PreferRam);
    const fs::path spec = dir.path() / "spec.plan.json";
    const fs::path root = dir.path() / "sim";
    const std::unique_ptr<Child> sim = startIbsimFabric(dir.path(), spec, root);
    ASSERT_TRUE(fs::exists(root / "agents.json")) << readFile(dir.path() / "sim.log");
    const std::string envText = readFile(root / "ibsim.env");
    const Env env { { "IBSIM_SOCKNAME", envValue(envText, "IBSIM_SOCKNAME") }, { "LD_PRELOAD", tools.umad2sim.string() } };
    ASSERT_FALSE(env.at("IBSIM_SOCKNAME").empty()) << envText;

    // The CLI re-executes itself under libumad2sim (--ibsim); only IBSIM_SOCKNAME is passed.
    const fs::path out = dir.path() / "schedule.json";
    {
        Child cli({ RAILYARD_CLI, "live", "test", "--plan", spec.string(), "--kind", "write_bw", "--spine-paths", "--ibsim", "--dry-run", "--json" },
            Env { { "IBSIM_SOCKNAME", env.at("IBSIM_SOCKNAME") } }, out);
        const auto status = cli.waitFor(120s);
        ASSERT_TRUE(status && *status == 0) << readFile(out);
    }
    const std::string text = readFile(out);
    // stdout and stderr share the log: libumad2sim prints "ibwarn:" lines around the document.
    const std::size_t begin = text.rfind("ibwarn", 0) == 0 ? text.find("\n{") + 1 : text.find('{');
    const std::size_t end = text.rfind("\n}");
    ASSERT_TRUE(begin != std::string::npos && end != std::string::npos && end > begin) << text;
    const nlohmann::json doc = nlohmann::json::parse(text.substr(begin, end + 2 - begin), nullptr, false);
    ASSERT_TRUE(doc.is_object()) << text;
    EXPECT_EQ(doc["paths"]["links"], 128) << doc["paths"].dump(); // 16 leaves x 4 uplinks, both ends
    EXPECT_EQ(doc["paths"]["links_covered"], 128) << doc["paths"].dump();
    EXPECT_EQ(doc["paths"]["lower_bound"], 2);
    EXPECT_EQ(doc["paths"]["rounds"], 2) << doc["paths"].dump();

    const fs::path discovered = dir.path() / "ibnetdiscover.txt";
    {
        Child disc({ tools.ibnetdiscover.string() }, env, discovered);
        ASSERT_TRUE(disc.waitFor(60s));
    }
    const std::map<std::string, int> lids = adapterLids(readFile(discovered));
    ASSERT_EQ(lids.size(), 64u) << readFile(discovered);

    int compared = 0;
    for (const auto& round : doc["rounds"])
        for (const auto& t : round["tests"]) {
            if (t["route"].empty())
                continue;
            // Every route test of rail 0 and 5, and one test of each other rail: 20 ibtracert runs.
            const int rail = t["rail"].get<int>();
            const std::string client = t["client"].get<std::string>() + "/nic" + std::to_string(rail);
            const std::string server = t["server"].get<std::string>() + "/nic" + std::to_string(rail);
            if (rail != 0 && rail != 5 && compared % 3 != 0) {
                ++compared;
                continue;
            }
            ASSERT_TRUE(lids.count(client) && lids.count(server)) << client << " " << server;
            const fs::path trace = dir.path() / ("tracert-" + std::to_string(compared) + ".txt");
            {
                Child tracert({ tools.ibtracert.string(), std::to_string(lids.at(client)), std::to_string(lids.at(server)) }, env, trace);
                const auto status = tracert.waitFor(60s);
                ASSERT_TRUE(status && *status == 0) << readFile(trace);
            }
            EXPECT_EQ(t["route"].get<std::vector<std::string>>(), tracertPorts(readFile(trace)))
                << client << " -> " << server << "\n" << readFile(trace);
            ++compared;
        }
    EXPECT_EQ(compared, 64); // 2 rounds x 8 rails x 4 tests
}

TEST(IbRoutesIbsim, LiveTestRunsTheRouteChosenRoundsThroughTheAgents)
{
    const Tools tools = findTools();
    if (!tools.missing.empty())
        GTEST_SKIP() << tools.missing;
    ASSERT_TRUE(std::string(RAILYARD_SIM).size() > 0) << "railyard-sim not built";
    TempDir dir("ib-routes-run", TempDir::Place::PreferRam);
    const fs::path spec = dir.path() / "spec.plan.json";
    const fs::path root = dir.path() / "sim";
    const std::unique_ptr<Child> sim = startIbsimFabric(dir.path(), spec, root);
    ASSERT_TRUE(fs::exists(root / "agents.json")) << readFile(dir.path() / "sim.log");
    const std::string socket = envValue(readFile(root / "ibsim.env"), "IBSIM_SOCKNAME");

    const fs::path out = dir.path() / "run.json";
    {
        Child cli({ RAILYARD_CLI, "live", "test", "--plan", spec.string(), "--agents", (root / "agents.json").string(), "--kind", "write_bw",
                      "--spine-paths", "--ibsim", "--json" },
            Env { { "IBSIM_SOCKNAME", socket } }, out);
        const auto status = cli.waitFor(240s);
        ASSERT_TRUE(status) << "railyard-cli did not finish";
        EXPECT_EQ(*status, 0) << readFile(out);
    }
    const std::string text = readFile(out);
    const std::size_t begin = text.find("\n{");
    const std::size_t end = text.rfind("\n}");
    ASSERT_TRUE(begin != std::string::npos && end != std::string::npos && end > begin) << text;
    const nlohmann::json doc = nlohmann::json::parse(text.substr(begin + 1, end + 1 - begin), nullptr, false);
    ASSERT_TRUE(doc.is_object()) << text;
    EXPECT_EQ(doc["complete"], true);
    EXPECT_EQ(doc["paths"]["links_covered"], 128) << doc["paths"].dump();
    ASSERT_EQ(doc["rounds"].size(), 3u); // node ports, then the 2 route-chosen rounds
    int routed = 0;
    for (const auto& round : doc["rounds"])
        for (const auto& o : round["tests"])
            if (!o["route"].empty()) {
                ++routed;
                EXPECT_GT(o["gbps"].get<double>(), 300) << o.dump(); // a clean fabric: every route at line rate
            }
    EXPECT_EQ(routed, 64);
    EXPECT_TRUE(doc["findings"].empty()) << doc["findings"].dump(1);
}

TEST(IbRoutes, LiveTestFallsBackToSuAgainstSuWhenTheSubnetCannotBeRead)
{
    std::error_code ec;
    if (fs::exists("/sys/class/infiniband", ec) && !fs::is_empty("/sys/class/infiniband", ec))
        GTEST_SKIP() << "this host has RDMA devices: --routes would read its subnet";
    TempDir dir("ib-routes-fallback");
    const fs::path spec = dir.path() / "spec.plan.json";
    std::ofstream(spec) << kTwoSu;
    const fs::path out = dir.path() / "out.txt";
    Child cli({ RAILYARD_CLI, "live", "test", "--plan", spec.string(), "--spine-paths", "--routes", "--dry-run", "--json" }, {}, out);
    const auto status = cli.waitFor(60s);
    ASSERT_TRUE(status && *status == 0) << readFile(out);
    const std::string text = readFile(out);
    const nlohmann::json doc = nlohmann::json::parse(text.substr(text.find("\n{") == std::string::npos ? 0 : text.find("\n{") + 1), nullptr, false);
    ASSERT_TRUE(doc.is_object()) << text;
    EXPECT_NE(doc["notes"][0].get<std::string>().find("the subnet's routes could not be read"), std::string::npos) << doc["notes"].dump(1);
    EXPECT_FALSE(doc.contains("paths"));
    std::set<std::string> purposes;
    for (const auto& r : doc["rounds"])
        purposes.insert(r["purpose"].get<std::string>());
    EXPECT_EQ(purposes, (std::set<std::string> { "node ports", "leaf-spine paths" }));
}
