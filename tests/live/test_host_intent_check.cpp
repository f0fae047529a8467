// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The host side of a routed RoCEv2 plan: iproute2's JSON read as the agent reads it (outputs of
// the real `ip` 6.1 in a network namespace, tests/fixtures/ip), the emulator's nodes carrying the
// plan's host intent, each host settings fault giving its finding with the plan's port name and
// the host script's command as the fix, and end to end through railyard-sim and railyard-cli.
#include "live/client/host_intent_check.h"
#include "live/client/live_check.h"
#include "live/common/inventory_json.h"
#include "live/common/subprocess.h"
#include "live/node/host_network.h"
#include "live/node/node_reader.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "planner/addressing.h"
#include "planner/host_config.h"

#include "tests/live/fixture_text.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <thread>
#include <map>
#include <set>
#include <sstream>

using namespace railyard;
using namespace railyard::live;
using namespace railyard::simtest;

namespace {

std::string ipFixture(const std::string& name)
{
    return readText(fs::path(RAILYARD_TEST_DATA_DIR) / "ip" / name);
}

/// 4 nodes of 8 rails in 2 SUs, routed (/31 per link), lossless on priority 3, RDMA MTU 4096.
constexpr const char* kRoutedSpec = R"({ "name": "routed host check", "fabric": "rocev2", "nodes": 4,
  "node_type": "hgx-8gpu-400g", "link": { "speed_gbps": 400, "lanes": 4 }, "leaf_switch": "sn5600", "spine_switch": "sn5600",
  "su_size": 2,
  "lossless": { "mode": "lossless", "pfc_priority": 3, "ecn": true, "dcqcn": true, "trust": "dscp", "roce_dscp": 26, "cnp_dscp": 48, "mtu": 4096 },
  "addressing": { "scheme": "p2p31", "fabric": "10.0.0.0/24", "loopbacks": "10.255.0.0/24", "asn": { "scheme": "per_leaf", "base": 4200000000 } } })";

struct Emulated {
    PlannedFabric fabric;
    TempDir dir { "hostcheck", TempDir::Place::PreferRam };
    std::unique_ptr<FabricEmulator> sim;

    Emulated(const char* spec, const std::string& faultsJson)
        : fabric(planOf(spec))
    {
        auto faults = parseFaults(faultsJson, "faults.json", fabric.plan);
        EXPECT_TRUE(faults) << (faults ? "" : faults.error().toString());
        EmulatorOptions options;
        options.root = dir.path();
        options.traffic = TrafficKind::Idle;
        auto created = FabricEmulator::create(fabric.plan, fabric.catalog, faults ? *faults : std::vector<Fault> {}, options);
        EXPECT_TRUE(created) << (created ? "" : created.error().toString());
        if (!created)
            return;
        sim = std::move(*created);
        const auto s = sim->writeTree();
        EXPECT_TRUE(s) << (s ? "" : s.error().toString());
    }

    std::vector<NodeObservation> observe() const
    {
        std::vector<NodeObservation> out;
        for (const EmulatedNode& n : sim->nodes()) {
            NodeOptions options;
            options.sysfsRoot = n.sysRoot;
            options.node = n.name;
            options.nodeType = n.nodeType;
            options.railMap = n.railMap;
            NodeReader reader(options, emulatedSources(n.simDir));
            out.push_back({ n.name, n.sysRoot.string(), reader.inventory(), std::nullopt });
        }
        return out;
    }

    LiveCheckReport check() const { return checkFabric(fabric.plan, fabric.catalog, observe()); }

    /// The intent of `node`'s rail `rail`, as the check derives it.
    planner::NicIntent intent(const std::string& node, int rail) const
    {
        auto addresses = planner::planAddresses(fabric.plan);
        EXPECT_TRUE(addresses);
        auto hosts = planner::hostIntents(fabric.plan, *addresses, railMapOf(fabric.plan, fabric.catalog), node);
        EXPECT_TRUE(hosts);
        for (const auto& n : hosts->front().nics)
            if (n.rail == rail)
                return n;
        ADD_FAILURE() << "no intent for " << node << " rail " << rail;
        return {};
    }

    /// The netdev of `node`'s rail `rail` as its inventory reports it.
    std::string netdev(const std::string& node, int rail) const
    {
        for (const auto& o : observe())
            if (o.node == node)
                for (const auto& d : o.inventory->devices)
                    if (d.rail == rail)
                        return d.netdev;
        return {};
    }
};

std::vector<const core::Finding*> withCode(const LiveCheckReport& r, const std::string& code)
{
    std::vector<const core::Finding*> out;
    for (const auto& f : r.findings)
        if (f.code == code)
            out.push_back(&f);
    return out;
}

std::string dump(const LiveCheckReport& r)
{
    std::string out;
    for (const auto& f : r.findings)
        out += f.code + " " + f.where + ": " + f.message + "\n";
    return out;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

SpawnOptions spawnOptions(const fs::path& log, bool ownGroup)
{
    SpawnOptions options;
    options.log = log;
    options.ownProcessGroup = ownGroup;
    return options;
}

const std::set<std::string> kHostCodes { "ADDRESS_MISSING", "ADDRESS_PREFIX_MISMATCH", "GID_INDEX_MISMATCH", "RP_FILTER_STRICT",
    "ARP_SETTINGS_MISMATCH", "ROUTE_RULE_MISSING", "ROUTE_TABLE_MISMATCH", "HOST_INTENT_UNAVAILABLE" };

} // namespace

// ---- iproute2's JSON, as ip 6.1 printed it in a network namespace ----------------------------

TEST(IpJson, AddressesOfEveryInterface)
{
    const auto parsed = parseIpAddrJson(ipFixture("netns-addr.json"));
    ASSERT_TRUE(parsed) << parsed.error().toString();
    ASSERT_EQ(parsed->size(), 3u);
    ASSERT_EQ(parsed->at("v0").size(), 1u);
    EXPECT_EQ(parsed->at("v0")[0].address, "10.0.0.1");
    EXPECT_EQ(parsed->at("v0")[0].prefixLength, 31);
    EXPECT_EQ(parsed->at("v1")[0].address, "10.0.1.5");
    EXPECT_EQ(parsed->at("v1")[0].prefixLength, 26);
    EXPECT_EQ(parsed->at("lo")[0].prefixLength, 8);
}

TEST(IpJson, RulesWithSourcePrefixesAndOtherSelectors)
{
    const auto parsed = parseIpRuleJson(ipFixture("netns-rule.json"));
    ASSERT_TRUE(parsed) << parsed.error().toString();
    ASSERT_EQ(parsed->size(), 7u);
    const RoutingRule& host = (*parsed)[1];
    EXPECT_EQ(host.priority, 100);
    EXPECT_EQ(host.from, "10.0.0.1");
    EXPECT_EQ(host.fromPrefix, 32);
    EXPECT_EQ(host.table, "100");
    EXPECT_FALSE(host.selectorsBeyondFrom);
    EXPECT_EQ((*parsed)[2].fromPrefix, 26);
    EXPECT_TRUE((*parsed)[3].selectorsBeyondFrom); // fwmark 0x5
    EXPECT_TRUE((*parsed)[4].selectorsBeyondFrom); // iif v1
    EXPECT_EQ((*parsed)[0].from, "all");
    EXPECT_EQ((*parsed)[0].fromPrefix, 0);
    EXPECT_EQ((*parsed)[5].table, "main");
}

TEST(IpJson, RoutesOfEveryTableButLocal)
{
    const auto parsed = parseIpRouteJson(ipFixture("netns-route.json"));
    ASSERT_TRUE(parsed) << parsed.error().toString();
    std::map<std::string, std::vector<IpRoute>> byTable;
    for (const IpRoute& r : *parsed)
        byTable[r.table].push_back(r);
    EXPECT_EQ(byTable.count("local"), 0u);
    ASSERT_EQ(byTable["100"].size(), 2u);
    EXPECT_EQ(byTable["100"][0].destination, "default");
    EXPECT_EQ(byTable["100"][0].gateway, "10.0.0.0");
    EXPECT_EQ(byTable["100"][0].dev, "v0");
    EXPECT_EQ(byTable["100"][0].source, "10.0.0.1");
    EXPECT_EQ(byTable["100"][1].destination, "10.0.0.0/31");
    EXPECT_TRUE(byTable["100"][1].gateway.empty());
    ASSERT_EQ(byTable["main"].size(), 2u); // the kernel's connected routes carry no "table"
    EXPECT_EQ(byTable["200"].at(0).type, "unreachable");
    EXPECT_EQ(byTable["300"].at(0).gateway, "10.0.0.0"); // a multipath route: its first next hop
    EXPECT_EQ(byTable["300"].at(0).dev, "v0");
}

TEST(IpJson, MalformedOutputIsRefusedNamingTheEntry)
{
    const auto notList = parseIpAddrJson("{}");
    ASSERT_FALSE(notList);
    EXPECT_EQ(notList.error().code, "IP_JSON");
    const auto noName = parseIpAddrJson(R"([{"ifindex":1,"ifname":"lo"},{"ifindex":2}])");
    ASSERT_FALSE(noName);
    EXPECT_EQ(noName.error().where, "ip -j -4 addr show: entry 1");
    const auto noPriority = parseIpRuleJson(R"([{"src":"all","table":"main"}])");
    ASSERT_FALSE(noPriority);
    EXPECT_EQ(noPriority.error().where, "ip -j -4 rule show: entry 0");
    EXPECT_FALSE(parseIpRouteJson(R"([{"dev":"v0"}])"));
    EXPECT_FALSE(parseIpRouteJson("not json"));
}

TEST(IpJson, Ipv4MappedGids)
{
    EXPECT_EQ(ipv4OfGid("0000:0000:0000:0000:0000:ffff:0a00:000d"), "10.0.0.13");
    EXPECT_EQ(ipv4OfGid("0000:0000:0000:0000:0000:ffff:C0A8:0101"), "192.168.1.1");
    EXPECT_EQ(ipv4OfGid("fe80:0000:0000:0000:0202:c9ff:fe00:0001"), "");
    EXPECT_EQ(ipv4OfGid("0000:0000:0000:0000:0000:ffff:0a00"), "");
}

TEST(IpJson, Ipv4OfEveryGidAsShowGidsPrintsIt)
{
    // show_gids (MLNX_OFED) prints each GID with the IPv4 address it derives from it: the same
    // derivation as ours, on a ConnectX-7 in RoCE mode (../shared/fixtures).
    const std::string text = test::sharedFixture("ibv_devinfo-d-cx7-roce-fw28.43-with-show_gids-mlx5_0.txt");
    std::istringstream in(text);
    std::string line;
    int rows = 0;
    while (std::getline(in, line)) {
        if (!line.starts_with("mlx5_0\t"))
            continue;
        std::vector<std::string> cells;
        std::istringstream fields(line);
        for (std::string cell; std::getline(fields, cell, '\t');)
            cells.push_back(cell);
        ASSERT_GE(cells.size(), 4u) << line;
        std::string ipv4;
        for (std::size_t i = 4; i < cells.size(); ++i) {
            std::string c = cells[i];
            c.erase(c.find_last_not_of(' ') + 1);
            if (c.find('.') != std::string::npos)
                ipv4 = c;
        }
        EXPECT_EQ(ipv4OfGid(cells[3]), ipv4) << line;
        ++rows;
    }
    EXPECT_EQ(rows, 4);
}

TEST(IpJson, SysctlsFromAProcTree)
{
    TempDir dir("sysctl");
    dir.write("sys/net/ipv4/conf/eth0/rp_filter", "2\n");
    dir.write("sys/net/ipv4/conf/eth0/arp_ignore", "1\n");
    dir.write("sys/net/ipv4/conf/eth0/arp_announce", "2\n");
    const NetSysctls c = readNetSysctls(dir.path(), "eth0");
    EXPECT_EQ(c.rpFilter, 2);
    EXPECT_EQ(c.arpIgnore, 1);
    EXPECT_EQ(c.arpAnnounce, 2);
    EXPECT_FALSE(c.arpFilter); // not there: unknown, not 0
    EXPECT_FALSE(readNetSysctls(dir.path(), "../eth0").rpFilter);
}

// Each `ip` output that could not be had says its own reason: a rule dump that timed out is not
// blamed on the address dump's missing file, nor the other way round.
TEST(IpJson, EachMissingDumpIsWarnedWithItsOwnReason)
{
    TempDir dir("ip-why");
    IpDumps dumps;
    dumps.addr = readText(fs::path(RAILYARD_TEST_DATA_DIR) / "ip" / "netns-addr.json");
    dumps.ruleWhy = "ip -j -4 rule show: timed out after 3 s";
    dumps.routeWhy = "route.json: No such file or directory";
    std::vector<std::string> warnings;
    const HostNetwork n = assembleHostNetwork(dumps, dir.path(), { "eth0" }, warnings);
    EXPECT_TRUE(n.addressesKnown);
    EXPECT_FALSE(n.rulesKnown);
    EXPECT_FALSE(n.routesKnown);
    EXPECT_NE(std::find(warnings.begin(), warnings.end(), "policy routing rules not readable (ip -j -4 rule show: timed out after 3 s)"),
        warnings.end());
    EXPECT_NE(std::find(warnings.begin(), warnings.end(), "routes not readable (route.json: No such file or directory)"), warnings.end());
    EXPECT_TRUE(std::none_of(warnings.begin(), warnings.end(), [](const std::string& w) { return w.rfind("IPv4 addresses", 0) == 0; }));
}

TEST(IpJson, ThisHostsOwnIpParses)
{
    // The agent's real source: the system's `ip` run without a shell, its JSON read by the parsers.
    if (findProgram("ip", ProgramSearch::SystemOnly).empty())
        GTEST_SKIP() << "no ip (iproute2) in the system folders";
    const NodeSources sources = hostSources();
    ASSERT_TRUE(sources.network);
    const IpDumps dumps = sources.network->dumps();
    ASSERT_TRUE(dumps.addr && dumps.rule && dumps.route) << dumps.addrWhy << dumps.ruleWhy << dumps.routeWhy;
    const auto addresses = parseIpAddrJson(*dumps.addr);
    ASSERT_TRUE(addresses) << addresses.error().toString();
    EXPECT_TRUE(addresses->count("lo")) << *dumps.addr;
    const auto rules = parseIpRuleJson(*dumps.rule);
    ASSERT_TRUE(rules) << rules.error().toString();
    EXPECT_TRUE(std::any_of(rules->begin(), rules->end(), [](const RoutingRule& r) { return r.table == "main"; })) << *dumps.rule;
    EXPECT_TRUE(parseIpRouteJson(*dumps.route)) << *dumps.route;
    EXPECT_EQ(sources.network->procRoot(), fs::path("/proc"));
    EXPECT_TRUE(readNetSysctls("/proc", "all").rpFilter);
}

// ---- the emulator's nodes and live check ------------------------------------------------------

TEST(HostIntentCheck, AHealthyRoutedFabricCarriesThePlanAndGivesNoFinding)
{
    Emulated e(kRoutedSpec, "[]");
    ASSERT_TRUE(e.sim);
    const auto observed = e.observe();
    ASSERT_EQ(observed.size(), 4u);
    const Inventory& inv = *observed[0].inventory;
    ASSERT_TRUE(inv.network);
    EXPECT_TRUE(inv.network->addressesKnown && inv.network->rulesKnown && inv.network->routesKnown);
    const planner::NicIntent n = e.intent("node001", 0);
    const std::string netdev = e.netdev("node001", 0);
    ASSERT_EQ(inv.network->addresses.at(netdev).size(), 1u);
    EXPECT_EQ(inv.network->addresses.at(netdev)[0].address, n.address);
    EXPECT_EQ(inv.network->addresses.at(netdev)[0].prefixLength, n.prefixLength);
    EXPECT_EQ(inv.network->sysctls.at(netdev).rpFilter, 2);
    EXPECT_EQ(inv.network->sysctls.at("all").arpIgnore, 1);
    const RdmaPort& port = inv.devices.front().ports.front();
    ASSERT_GE(port.gids.size(), 4u);
    EXPECT_EQ(port.gids[3].type, "RoCE v2");
    EXPECT_EQ(port.gids[3].ipv4, n.address);
    EXPECT_EQ(port.rocev2GidIndex, 3);

    const auto started = std::chrono::steady_clock::now();
    const LiveCheckReport r = e.check();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    std::printf("live check of the emulated routed plan, 4 nodes x 8 rails (inventories read beforehand): %.2f ms\n", ms);
    EXPECT_TRUE(r.findings.empty()) << dump(r);
    EXPECT_TRUE(r.complete);
}

TEST(HostIntentCheck, EachHostSettingsFaultGivesItsFindingWithTheScriptsCommand)
{
    Emulated e(kRoutedSpec, R"([
        { "kind": "wrong_trust", "node": "node002", "rail": 1 },
        { "kind": "pfc_wrong_priority", "node": "node003", "rail": 2 },
        { "kind": "mtu_mismatch", "node": "node004", "rail": 3 },
        { "kind": "rp_filter_strict", "node": "node001", "rail": 4 },
        { "kind": "wrong_gid_index", "node": "node002", "rail": 5 } ])");
    ASSERT_TRUE(e.sim);
    const LiveCheckReport r = e.check();
    std::map<std::string, std::set<std::string>> byWhere;
    for (const auto& f : r.findings)
        byWhere[f.where].insert(f.code);
    EXPECT_EQ(byWhere["node002/nic1"], (std::set<std::string> { "TRUST_MISMATCH" })) << dump(r);
    EXPECT_EQ(byWhere["node003/nic2"], (std::set<std::string> { "PFC_MISSING", "PFC_EXTRA_PRIORITY" })) << dump(r);
    EXPECT_EQ(byWhere["node004/nic3"], (std::set<std::string> { "MTU_TOO_SMALL" })) << dump(r);
    EXPECT_EQ(byWhere["node001/nic4"], (std::set<std::string> { "RP_FILTER_STRICT" })) << dump(r);
    EXPECT_EQ(byWhere["node002/nic5"], (std::set<std::string> { "GID_INDEX_MISMATCH" })) << dump(r);
    EXPECT_EQ(byWhere.size(), 5u) << dump(r);
    EXPECT_EQ(r.findings.size(), 6u) << dump(r);

    const auto strict = withCode(r, "RP_FILTER_STRICT");
    ASSERT_EQ(strict.size(), 1u);
    EXPECT_EQ(strict[0]->severity, core::Severity::Error);
    EXPECT_TRUE(contains(strict[0]->message, "`" + planner::hostNicSysctlCommand(e.netdev("node001", 4)) + "`")) << strict[0]->message;
    EXPECT_TRUE(contains(strict[0]->message, "rp_filter=1, all=0")) << strict[0]->message;

    const auto gid = withCode(r, "GID_INDEX_MISMATCH");
    ASSERT_EQ(gid.size(), 1u);
    EXPECT_TRUE(contains(gid[0]->message, "GID index 3")) << gid[0]->message;
    EXPECT_TRUE(contains(gid[0]->message, "that one is at index 5")) << gid[0]->message;
    EXPECT_TRUE(contains(gid[0]->message, "NCCL_IB_GID_INDEX=5")) << gid[0]->message;
    EXPECT_TRUE(contains(gid[0]->message, planner::hostAddressCommand(e.intent("node002", 5), e.netdev("node002", 5)))) << gid[0]->message;
    // The lossless checks' fixes are the host script's commands too on a routed plan.
    const planner::QosIntent qos = planner::qosIntent(e.fabric.plan.spec.lossless);
    const std::string trust = withCode(r, "TRUST_MISMATCH")[0]->message;
    EXPECT_TRUE(contains(trust, "trust mode is pcp, planned dscp")) << trust;
    EXPECT_TRUE(contains(trust, "`" + planner::hostQosCommand(qos, e.netdev("node002", 1)) + "`")) << trust;
    const std::string pfc = withCode(r, "PFC_MISSING")[0]->message;
    EXPECT_TRUE(contains(pfc, "`" + planner::hostQosCommand(qos, e.netdev("node003", 2)) + "`")) << pfc;
    const std::string mtu = withCode(r, "MTU_TOO_SMALL")[0]->message;
    EXPECT_TRUE(contains(mtu, "MTU is 1500")) << mtu;
    EXPECT_TRUE(contains(mtu, "`" + planner::hostMtuCommand(qos, e.netdev("node004", 3)) + "`")) << mtu;
}

TEST(HostIntentCheck, FaultsInjectedIntoARunningFabricGiveTheSameFindings)
{
    Emulated given(kRoutedSpec, R"([ { "kind": "rp_filter_strict", "node": "node003", "rail": 6 },
        { "kind": "wrong_gid_index", "node": "node004", "rail": 0 }, { "kind": "mtu_mismatch", "node": "node001", "rail": 7 },
        { "kind": "wrong_trust", "node": "node002", "rail": 2 }, { "kind": "pfc_wrong_priority", "node": "node002", "rail": 3 } ])");
    Emulated injected(kRoutedSpec, "[]");
    ASSERT_TRUE(given.sim && injected.sim);
    auto faults = parseFaults(R"([ { "kind": "rp_filter_strict", "node": "node003", "rail": 6 },
        { "kind": "wrong_gid_index", "node": "node004", "rail": 0 }, { "kind": "mtu_mismatch", "node": "node001", "rail": 7 },
        { "kind": "wrong_trust", "node": "node002", "rail": 2 }, { "kind": "pfc_wrong_priority", "node": "node002", "rail": 3 } ])",
        "menu", injected.fabric.plan);
    ASSERT_TRUE(faults) << faults.error().toString();
    EXPECT_TRUE(injected.check().findings.empty());
    for (const Fault& f : *faults) {
        const auto s = injected.sim->injectFault(f);
        EXPECT_TRUE(s) << (s ? "" : s.error().toString());
    }
    auto keys = [](const LiveCheckReport& r) {
        std::multiset<std::string> out;
        for (const auto& f : r.findings)
            out.insert(f.code + " " + f.where + " " + f.message);
        return out;
    };
    const LiveCheckReport a = given.check();
    const LiveCheckReport b = injected.check();
    EXPECT_EQ(a.findings.size(), 6u) << dump(a);
    EXPECT_EQ(keys(a), keys(b)) << dump(a) << "---\n" << dump(b);
}

TEST(HostIntentCheck, AddressRuleRouteAndArpMismatchesNameTheRailAndTheFix)
{
    Emulated e(kRoutedSpec, "[]");
    ASSERT_TRUE(e.sim);
    auto observed = e.observe();
    const planner::NicIntent n0 = e.intent("node001", 0), n1 = e.intent("node001", 1), n2 = e.intent("node001", 2);
    const std::string d0 = e.netdev("node001", 0), d1 = e.netdev("node001", 1), d2 = e.netdev("node001", 2), d3 = e.netdev("node001", 3);
    HostNetwork& net = *observed[0].inventory->network;
    net.addresses[d0].clear();                   // rail 0: address gone (and with it its GIDs, on a real host)
    net.addresses[d1][0].prefixLength = 24;      // rail 1: wrong prefix
    std::erase_if(net.rules, [&](const RoutingRule& r) { return r.from == n2.address; }); // rail 2: no rule
    std::erase_if(net.routes, [&](const IpRoute& r) { return r.table == std::to_string(n2.table) && r.destination == "default"; });
    net.sysctls[d3].arpIgnore = 0;               // rail 3: arp_ignore 0 on the NIC and on all
    net.sysctls["all"].arpIgnore = 0;
    const LiveCheckReport r = checkFabric(e.fabric.plan, e.fabric.catalog, observed);

    const auto missing = withCode(r, "ADDRESS_MISSING");
    ASSERT_EQ(missing.size(), 1u) << dump(r);
    EXPECT_EQ(missing[0]->where, "node001/nic0");
    EXPECT_TRUE(contains(missing[0]->message, "(it has no IPv4 address)")) << missing[0]->message;
    EXPECT_TRUE(contains(missing[0]->message, "`" + planner::hostAddressCommand(n0, d0) + "`")) << missing[0]->message;

    const auto prefix = withCode(r, "ADDRESS_PREFIX_MISMATCH");
    ASSERT_EQ(prefix.size(), 1u) << dump(r);
    EXPECT_EQ(prefix[0]->where, "node001/nic1");
    EXPECT_TRUE(contains(prefix[0]->message, n1.address + "/24, planned " + n1.address + "/31")) << prefix[0]->message;

    const auto rule = withCode(r, "ROUTE_RULE_MISSING");
    ASSERT_EQ(rule.size(), 1u) << dump(r);
    EXPECT_EQ(rule[0]->where, "node001/nic2");
    const auto ruleCommands = planner::hostRuleCommands(n2);
    EXPECT_TRUE(contains(rule[0]->message, "`" + ruleCommands[0] + "; " + ruleCommands[1] + "`")) << rule[0]->message;

    const auto table = withCode(r, "ROUTE_TABLE_MISMATCH");
    ASSERT_EQ(table.size(), 1u) << dump(r);
    EXPECT_EQ(table[0]->where, "node001/nic2");
    EXPECT_TRUE(contains(table[0]->message, "lacks default via " + n2.gateway + " dev " + d2)) << table[0]->message;
    const auto routeCommands = planner::hostRouteCommands(n2, d2);
    EXPECT_TRUE(contains(table[0]->message, "`" + routeCommands[0] + "; " + routeCommands[1] + "`")) << table[0]->message;

    // arp_ignore 0 on all: every rail's effective value is off, and the fix sets all as well.
    const auto arp = withCode(r, "ARP_SETTINGS_MISMATCH");
    ASSERT_EQ(arp.size(), 1u) << dump(r);
    EXPECT_EQ(arp[0]->where, "node001/nic3");
    EXPECT_EQ(arp[0]->severity, core::Severity::Warning);
    EXPECT_TRUE(contains(arp[0]->message, "`" + planner::hostAllSysctlCommand() + "; " + planner::hostNicSysctlCommand(d3) + "`"))
        << arp[0]->message;
    // The GIDs still carry rail 0's address in this hand-made inventory: only the address is missing.
    EXPECT_TRUE(withCode(r, "GID_INDEX_MISMATCH").empty()) << dump(r);
}

TEST(HostIntentCheck, AnInventoryWithoutTheNetworkCannotBeVerifiedAndSaysSo)
{
    Emulated e(kRoutedSpec, "[]");
    ASSERT_TRUE(e.sim);
    auto observed = e.observe();
    observed[1].inventory->network.reset();              // an older agent
    for (auto& d : observed[2].inventory->devices)        // a port whose GID table did not read
        for (auto& p : d.ports)
            p.gids.clear();
    observed[3].inventory->network->rulesKnown = false;
    const LiveCheckReport r = checkFabric(e.fabric.plan, e.fabric.catalog, observed);
    std::map<std::string, std::string> unverified;
    for (const auto& f : r.findings) {
        EXPECT_EQ(f.code, "CANNOT_VERIFY") << dump(r);
        unverified[f.where] += f.message + "\n";
    }
    EXPECT_TRUE(contains(unverified["node002"], "the host's IP state")) << dump(r);
    EXPECT_TRUE(contains(unverified["node003"], "GID table")) << dump(r);
    EXPECT_TRUE(contains(unverified["node004"], "policy routing (ip rule)")) << dump(r);
    EXPECT_EQ(unverified.count("node001"), 0u) << dump(r);
}

TEST(HostIntentCheck, UnroutedPlansAreNotHostChecked)
{
    Emulated e(kRoceSpec, R"([ { "kind": "wrong_gid_index", "node": "node002", "rail": 5 } ])");
    ASSERT_TRUE(e.sim);
    const LiveCheckReport r = e.check();
    for (const auto& f : r.findings)
        EXPECT_EQ(kHostCodes.count(f.code), 0u) << dump(r);
}

TEST(HostIntentCheck, InventoryJsonKeepsTheNetworkAndTheGids)
{
    Emulated e(kRoutedSpec, R"([ { "kind": "wrong_gid_index", "node": "node001", "rail": 0 } ])");
    ASSERT_TRUE(e.sim);
    const Inventory inv = *e.observe()[0].inventory;
    const auto back = inventoryFromJson(toJson(inv), "test");
    ASSERT_TRUE(back) << back.error().toString();
    ASSERT_TRUE(back->network);
    EXPECT_EQ(toJson(*back), toJson(inv));
    EXPECT_EQ(back->devices.front().ports.front().gids.size(), 6u);
    EXPECT_EQ(back->devices.front().ports.front().gids[5].ipv4, e.intent("node001", 0).address);
    // An agent from before the host checks sends neither: still read, the parts absent.
    nlohmann::json old = toJson(inv);
    old.erase("network");
    for (auto& d : old["devices"])
        for (auto& p : d["ports"])
            p.erase("gids");
    const auto older = inventoryFromJson(old, "old agent");
    ASSERT_TRUE(older) << older.error().toString();
    EXPECT_FALSE(older->network);
    EXPECT_TRUE(older->devices.front().ports.front().gids.empty());
}

TEST(HostIntentCheck, FaultsFileRefusesHostFaultsThatDoNotApply)
{
    const auto ib = planOf(kIbSpec);
    const auto refused = parseFaults(R"([ { "kind": "wrong_trust", "node": "node001", "rail": 0 } ])", "f.json", ib.plan);
    ASSERT_FALSE(refused);
    EXPECT_TRUE(contains(refused.error().message, "applies to RoCEv2")) << refused.error().toString();
    const auto routed = planOf(kRoutedSpec);
    const auto noRail = parseFaults(R"([ { "kind": "mtu_mismatch", "node": "node001" } ])", "f.json", routed.plan);
    ASSERT_FALSE(noRail);
    EXPECT_EQ(noRail.error().where, "f.json: entry 0, field rail");
    const auto extra = parseFaults(R"([ { "kind": "rp_filter_strict", "node": "node001", "rail": 0, "value": 1 } ])", "f.json", routed.plan);
    ASSERT_FALSE(extra);
    EXPECT_EQ(extra.error().where, "f.json: entry 0, field value");
    const auto unrouted = planOf(kRoceSpec);
    EXPECT_FALSE(parseFaults(R"([ { "kind": "rp_filter_strict", "node": "node001", "rail": 0 } ])", "f.json", unrouted.plan));
    for (FaultKind kind : allFaultKinds())
        EXPECT_EQ(parseFaultKind(toString(kind)), kind);
    EXPECT_EQ(allFaultKinds().size(), 13u);
}

// ---- end to end: railyard-sim serves the faults, railyard-cli live check finds them ---------

TEST(HostIntentCheckCli, RpFilterGidIndexAndTrustFaultsThroughTheAgents)
{
    if (std::string(RAILYARD_SIM).empty())
        FAIL() << "railyard-sim not built (test_live depends on it; build it first)";
    TempDir dir("hostcheck-e2e", TempDir::Place::PreferRam);
    const fs::path spec = dir.write("routed.plan.json", kRoutedSpec);
    const fs::path faults = dir.write("faults.json", R"([
        { "kind": "rp_filter_strict", "node": "node002", "rail": 3 },
        { "kind": "wrong_gid_index", "node": "node003", "rail": 0 },
        { "kind": "wrong_trust", "node": "node004", "rail": 7 } ])");
    const fs::path root = dir.path() / "sim";
    ChildProcess sim({ RAILYARD_SIM, "--plan", spec.string(), "--root", root.string(), "--faults", faults.string(), "--traffic", "idle",
                         "--seconds", "300" },
        spawnOptions(dir.path() / "sim.log", true));
    ASSERT_TRUE(sim.started()) << sim.error();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(90);
    std::error_code ec;
    while (!fs::exists(root / "agents.json", ec) && std::chrono::steady_clock::now() < deadline && sim.running())
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ASSERT_TRUE(fs::exists(root / "agents.json", ec)) << readText(dir.path() / "sim.log");

    const auto started = std::chrono::steady_clock::now();
    ChildProcess cli({ RAILYARD_CLI, "live", "check", "--plan", spec.string(), "--agents", (root / "agents.json").string(), "--json" },
        spawnOptions(dir.path() / "check.out", false));
    const auto status = cli.waitFor(std::chrono::seconds(120));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("railyard-cli live check of the emulated routed plan through 4 agents (4 nodes x 8 rails): %.2f s\n", seconds);
    const std::string out = readText(dir.path() / "check.out");
    ASSERT_TRUE(status) << out;
    EXPECT_EQ(*status, 1) << out;
    const auto begin = out.find('{');
    ASSERT_NE(begin, std::string::npos) << out;
    const nlohmann::json doc = nlohmann::json::parse(out.substr(begin, out.rfind('}') - begin + 1), nullptr, false);
    ASSERT_TRUE(doc.is_object()) << out;
    EXPECT_EQ(doc["complete"], true);
    std::set<std::string> keys;
    std::string strictMessage;
    for (const auto& f : doc["findings"]) {
        keys.insert(f["code"].get<std::string>() + " " + f["where"].get<std::string>());
        if (f["code"] == "RP_FILTER_STRICT")
            strictMessage = f["message"];
    }
    EXPECT_EQ(keys, (std::set<std::string> { "RP_FILTER_STRICT node002/nic3", "GID_INDEX_MISMATCH node003/nic0", "TRUST_MISMATCH node004/nic7" }))
        << doc["findings"].dump(1);
    EXPECT_TRUE(contains(strictMessage, "sysctl -qw \"net.ipv4.conf.")) << strictMessage;
}
