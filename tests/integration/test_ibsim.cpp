// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The ibnetdiscover export against the real tools: ibsim loads it, OpenSM (under libumad2sim)
// brings the subnet up, and ibnetdiscover finds exactly the planned switches, adapters and
// links, by name and GUID. Skipped when ibsim-utils, opensm or infiniband-diags is missing.
#include "core/catalog.h"
#include "core/plan_spec.h"
#include "planner/exporters.h"
#include "planner/planner.h"

#include "tests/integration/hand_built_plans.h"
#include "tests/integration/ibnet_text.h"
#include "tests/integration/ibsim_harness.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>

using namespace railyard;
using namespace railyard::ibsimtest;
using railyard::testing::IbnetTopology;
using railyard::testing::parseIbnet;

namespace {

constexpr auto kIbsimStartTimeout = 15s;
constexpr auto kToolTimeout = 90s;

/// ibsim's table sizes for this subnet (its defaults hold 2048 nodes and 256 switches).
std::vector<std::string> ibsimSizeArgs(const IbnetTopology& topo)
{
    long long ports = 0;
    for (const auto& [id, node] : topo.nodes)
        ports += node.ports + 1;
    return { "-N", std::to_string(std::max<long long>(2048, topo.switches + topo.adapters + 16)), "-S",
        std::to_string(std::max(256, topo.switches + 4)), "-P", std::to_string(std::max<long long>(13312, ports + 64)) };
}

std::string firstAdapter(const IbnetTopology& topo)
{
    for (const auto& [id, node] : topo.nodes)
        if (!node.isSwitch)
            return node.description;
    return {};
}

/// One ibsim run of an exported plane: starts ibsim, runs OpenSM once and ibnetdiscover,
/// and checks what they report against the export. Everything it starts ends with it.
class IbsimRun {
public:
    explicit IbsimRun(const Tools& tools)
        : m_tools(tools)
    {
    }

    /// Writes plane `plane` of `plan` where ibsim will read it.
    void exportPlan(const core::Plan& plan, int plane)
    {
        ASSERT_FALSE(m_dir.path().empty()) << "cannot create a temporary folder";
        std::ostringstream text;
        planner::writeIbnetdiscover(plan, text, plane);
        m_exported = text.str();
        m_expected = parseIbnet(m_exported);
        std::ofstream(m_dir.path() / "fabric.ibnet") << m_exported;
        m_env = { { "IBSIM_SOCKNAME", uniqueSocketName() }, { "SIM_HOST", firstAdapter(m_expected) } };
    }

    const IbnetTopology& expected() const { return m_expected; }

    void startIbsim()
    {
        std::vector<std::string> argv { m_tools.ibsim.string(), "-s", "-n" };
        for (auto& a : ibsimSizeArgs(m_expected))
            argv.push_back(std::move(a));
        argv.push_back((m_dir.path() / "fabric.ibnet").string());
        const auto log = m_dir.path() / "ibsim.log";
        m_ibsim = std::make_unique<Child>(argv, Env { { "IBSIM_SOCKNAME", m_env["IBSIM_SOCKNAME"] } }, log);
        ASSERT_TRUE(m_ibsim->started()) << "cannot start " << m_tools.ibsim;
        ASSERT_TRUE(waitForText(*m_ibsim, log, "Network simulator ready", kIbsimStartTimeout))
            << "ibsim did not load the export:\n" << readFile(log);
        const auto ibsimLog = readFile(log);
        EXPECT_EQ(ibsimLog.find("cannot parse"), std::string::npos) << "ibsim warned:\n" << ibsimLog;
        EXPECT_EQ(ibsimLog.find("already exists"), std::string::npos) << "duplicate node or GUID:\n" << ibsimLog;
    }

    /// Runs `argv` under libumad2sim against this ibsim; returns its exit status and output.
    std::pair<std::optional<int>, std::string> runTool(std::vector<std::string> argv, const std::string& logName)
    {
        Env env = m_env;
        env["LD_PRELOAD"] = m_tools.umad2sim.string();
        env["OSM_CACHE_DIR"] = (m_dir.path() / "opensm-cache").string();
        env["OSM_TMP_DIR"] = m_dir.path().string();
        fs::create_directories(m_dir.path() / "opensm-cache");
        const auto log = m_dir.path() / logName;
        Child tool(argv, env, log);
        if (!tool.started())
            return { std::nullopt, "cannot start " + argv[0] };
        const auto status = tool.waitFor(kToolTimeout);
        tool.stop();
        return { status, readFile(log) };
    }

    void runOpenSm()
    {
        const auto smLog = m_dir.path() / "opensm.log";
        const auto [status, out] = runTool({ m_tools.opensm.string(), "--once", "-f", smLog.string() }, "opensm.out");
        ASSERT_TRUE(status) << "opensm did not finish within " << kToolTimeout.count() << " s:\n" << out;
        EXPECT_EQ(*status, 0) << out;
        const auto log = readFile(smLog);
        EXPECT_NE(log.find("SUBNET UP"), std::string::npos) << "OpenSM did not bring the subnet up:\n" << out << log;
        EXPECT_EQ(log.find("SUBNET UP"), log.rfind("SUBNET UP")) << "more than one sweep brought it up";
    }

    /// Switch hops of the route OpenSM programmed from one LID to another (ibtracert).
    std::optional<int> switchHops(int fromLid, int toLid)
    {
        const auto [status, out] = runTool({ m_tools.ibtracert.string(), std::to_string(fromLid), std::to_string(toLid) },
            "ibtracert-" + std::to_string(fromLid) + "-" + std::to_string(toLid) + ".out");
        EXPECT_TRUE(status && *status == 0) << "ibtracert found no route:\n" << out;
        if (!status || *status != 0 || out.find("To ca") == std::string::npos)
            return std::nullopt;
        int hops = 0;
        for (auto at = out.find("-> switch port"); at != std::string::npos; at = out.find("-> switch port", at + 1))
            ++hops;
        return hops;
    }

    IbnetTopology discover()
    {
        const auto [status, out] = runTool({ m_tools.ibnetdiscover.string() }, "ibnetdiscover.out");
        EXPECT_TRUE(status && *status == 0) << "ibnetdiscover failed:\n" << out;
        return parseIbnet(out);
    }

private:
    const Tools& m_tools;
    TempDir m_dir;
    std::string m_exported;
    IbnetTopology m_expected;
    Env m_env;
    std::unique_ptr<Child> m_ibsim; // declared last: stopped before the folder is removed
};

std::set<std::string> nodeIds(const IbnetTopology& topo)
{
    std::set<std::string> ids;
    for (const auto& [id, node] : topo.nodes)
        ids.insert(id);
    return ids;
}

int countSwitches(const core::Plan& plan, int plane);
int countAdapters(const core::Plan& plan, int plane);

std::size_t countLinks(const core::Plan& plan, int plane)
{
    return static_cast<std::size_t>(std::count_if(plan.links.begin(), plan.links.end(), [&](const core::Link& l) {
        return l.installed && (plan.spec.planes <= 1 || plan.devices[l.b.device].plane == plane);
    }));
}

const railyard::testing::IbnetNode* nodeNamed(const IbnetTopology& topo, const std::string& description)
{
    for (const auto& [id, node] : topo.nodes)
        if (node.description == description)
            return &node;
    return nullptr;
}

/// Checks OpenSM's routes: between two NICs of one rail, the path climbs as the plan says.
void checkRoutes(IbsimRun& run, const IbnetTopology& found, const core::Plan& plan)
{
    const auto* first = nodeNamed(found, plan.portName({ 0, 0, 0 }));
    const auto* second = nodeNamed(found, plan.portName({ 1, 0, 0 }));
    const auto last = static_cast<std::uint32_t>(plan.summary.nodes - 1);
    const auto* far = nodeNamed(found, plan.portName({ last, 0, 0 }));
    ASSERT_TRUE(first && second && far) << "discovery lacks the NICs of rail 0";
    EXPECT_EQ(run.switchHops(first->lid, second->lid), plan.analysis.hopsSameLeaf);
    if (plan.summary.suCount > 1) {
        EXPECT_EQ(run.switchHops(first->lid, far->lid), plan.analysis.hopsSameRailAcrossSu);
    }
}

/// Loads plane `plane` of `plan` into ibsim, brings it up with OpenSM and compares discovery
/// with the export and with the plan's own counts; with `routes`, checks OpenSM's paths too.
void checkInIbsim(const Tools& tools, const core::Plan& plan, int plane, bool routes = false)
{
    const int switches = countSwitches(plan, plane);
    const int adapters = countAdapters(plan, plane);
    IbsimRun run(tools);
    run.exportPlan(plan, plane);
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    ASSERT_EQ(run.expected().switches, switches);
    ASSERT_EQ(run.expected().adapters, adapters);
    run.startIbsim();
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    run.runOpenSm();
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    const auto found = run.discover();
    EXPECT_EQ(found.switches, switches);
    EXPECT_EQ(found.adapters, adapters);
    EXPECT_EQ(nodeIds(found), nodeIds(run.expected())) << "GUIDs changed on the way through ibsim";
    const auto planned = run.expected().linksByName();
    const auto discovered = found.linksByName();
    EXPECT_EQ(planned.size(), countLinks(plan, plane));
    EXPECT_EQ(discovered.size(), planned.size());
    EXPECT_TRUE(discovered == planned) << "discovered links differ from the export";
    for (const auto& [id, node] : found.nodes)
        for (const auto& [port, line] : node.links)
            EXPECT_EQ(line.speed, "4xHDR") << node.description << " port " << port;
    if (routes) {
        checkRoutes(run, found, plan);
    }
}

core::Plan planFromSpec(const std::string& json)
{
    auto catalog = core::Catalog::builtin();
    EXPECT_TRUE(catalog.ok()) << (catalog.ok() ? "" : catalog.error().toString());
    auto spec = core::parsePlanSpecText(json, "test.plan.json");
    EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().toString());
    if (!catalog.ok() || !spec.ok())
        return {};
    auto plan = planner::makePlan(*spec, *catalog);
    EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().toString());
    return plan.ok() ? std::move(plan).value() : core::Plan {};
}

int countSwitches(const core::Plan& plan, int plane)
{
    return static_cast<int>(std::count_if(plan.devices.begin(), plan.devices.end(), [&](const core::Device& d) {
        return d.kind == core::DeviceKind::Switch && d.installed && (plan.spec.planes <= 1 || d.plane == plane);
    }));
}

int countAdapters(const core::Plan& plan, int plane)
{
    std::set<std::pair<std::uint32_t, std::uint16_t>> seen;
    for (const auto& link : plan.links) {
        if (!link.installed)
            continue;
        const auto& dev = plan.devices[link.b.device];
        const bool inPlane = plan.spec.planes <= 1 || dev.plane == plane;
        if (link.tier == core::LinkTier::NodeLeaf && inPlane)
            seen.insert({ link.a.device, link.a.port });
    }
    return static_cast<int>(seen.size());
}

} // namespace

class Ibsim : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_tools = findTools();
        if (!m_tools.missing.empty())
            GTEST_SKIP() << m_tools.missing;
    }
    Tools m_tools;
};

TEST_F(Ibsim, HandBuiltFabricComesUp)
{
    // 4 nodes x 2 rails on two rail leaves, one spine, 2 uplinks per leaf (one more planned, not installed).
    const auto plan = railyard::testing::buildSmallPlan({});
    ASSERT_EQ(countSwitches(plan, 1), 3);
    ASSERT_EQ(countAdapters(plan, 1), 8);
    ASSERT_EQ(countLinks(plan, 1), 12u);
    checkInIbsim(m_tools, plan, 1);
}

TEST_F(Ibsim, HandBuiltSecondPlaneComesUp)
{
    railyard::testing::SmallFabric f;
    f.planes = 2;
    f.spines = 2;
    const auto plan = railyard::testing::buildSmallPlan(f);
    ASSERT_EQ(countSwitches(plan, 2), 4);
    ASSERT_EQ(countAdapters(plan, 2), 8);
    checkInIbsim(m_tools, plan, 2);
}

TEST_F(Ibsim, PlannedFourNodesEightRailsComesUp)
{
    const auto plan = planFromSpec(R"({ "name": "ibsim 4 x 8", "fabric": "infiniband", "nodes": 4,
        "node_type": "generic-8gpu", "link": { "generation": "NDR", "width": 4 },
        "leaf_switch": "qm9700", "spine_switch": "qm9700" })");
    ASSERT_FALSE(plan.devices.empty());
    ASSERT_EQ(countAdapters(plan, 1), 32);
    checkInIbsim(m_tools, plan, 1);
}

TEST_F(Ibsim, PlannedTwoSuFabricComesUp)
{
    // Two SUs: rail traffic between SUs crosses the spines, so OpenSM routes through them.
    const auto plan = planFromSpec(R"({ "name": "ibsim 2 SU", "fabric": "infiniband", "nodes": 40,
        "node_type": "generic-8gpu", "link": { "generation": "NDR", "width": 4 },
        "leaf_switch": "qm9700", "spine_switch": "qm9700", "su_size": 20 })");
    ASSERT_FALSE(plan.devices.empty());
    ASSERT_EQ(countAdapters(plan, 1), 320);
    ASSERT_EQ(plan.summary.suCount, 2);
    checkInIbsim(m_tools, plan, 1, true);
}

TEST_F(Ibsim, PlannedGrowingPlaneComesUpWithInstalledLinksOnly)
{
    // Two planes, built for 64 nodes with 40 installed: plane 2 carries uninstalled links that
    // the export leaves out.
    const auto plan = planFromSpec(R"({ "name": "ibsim grow", "fabric": "infiniband", "nodes": 40,
        "node_type": "dgx-b300", "link": { "generation": "XDR", "width": 4 }, "planes": 2,
        "grow_to": { "nodes": 64 } })");
    ASSERT_FALSE(plan.devices.empty());
    ASSERT_TRUE(std::any_of(plan.links.begin(), plan.links.end(), [](const core::Link& l) { return !l.installed; }));
    ASSERT_EQ(countAdapters(plan, 2), 320);
    checkInIbsim(m_tools, plan, 2);
}
