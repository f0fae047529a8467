// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The cabling matcher on the plan's own ibnetdiscover export, clean and with injected faults:
// exact findings and fixes; unnamed switches named from their neighbours.
#include "live/client/cabling.h"

#include "core/examples.h"
#include "planner/exporters.h"
#include "planner/planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

using namespace railyard;
using namespace railyard::live;

namespace {

struct Fixture {
    core::Catalog catalog;
    core::Plan plan;
};

Fixture planExample(const std::string& name)
{
    Fixture f;
    auto catalog = core::Catalog::builtin();
    EXPECT_TRUE(catalog.ok());
    f.catalog = *catalog;
    const auto example = core::findExample(name);
    EXPECT_TRUE(example) << name;
    auto spec = core::parsePlanSpecText(example->content, example->path);
    EXPECT_TRUE(spec.ok());
    auto plan = planner::makePlan(*spec, f.catalog);
    EXPECT_TRUE(plan.ok());
    f.plan = std::move(plan).value();
    return f;
}

IbFabric exported(const core::Plan& plan, int plane = 1)
{
    std::ostringstream text;
    planner::writeIbnetdiscover(plan, text, plane);
    auto fabric = parseIbnetdiscover(text.str(), "export");
    EXPECT_TRUE(fabric.ok()) << (fabric.ok() ? "" : fabric.error().toString());
    return fabric.ok() ? std::move(fabric).value() : IbFabric {};
}

std::uint64_t guidOf(const IbFabric& f, const std::string& description)
{
    for (const auto& n : f.nodes)
        if (n.description == description)
            return n.guid;
    ADD_FAILURE() << "no node " << description;
    return 0;
}

IbLink* linkAt(IbFabric& f, IbLinkEnd end)
{
    for (auto& l : f.links)
        if (l.a == end || l.b == end)
            return &l;
    return nullptr;
}

/// The far end of the link at `end`.
IbLinkEnd& farEnd(IbFabric& f, IbLinkEnd end)
{
    IbLink* l = linkAt(f, end);
    EXPECT_NE(l, nullptr);
    return l->a == end ? l->b : l->a;
}

/// Swaps the far ends of the links at two ports (two cables exchanged at their other ends).
void swapFarEnds(IbFabric& f, IbLinkEnd x, IbLinkEnd y)
{
    std::swap(farEnd(f, x), farEnd(f, y));
}

void unplug(IbFabric& f, IbLinkEnd end)
{
    std::erase_if(f.links, [&](const IbLink& l) { return l.a == end || l.b == end; });
}

std::string codes(const CablingReport& r)
{
    std::string out;
    for (const auto& f : r.findings)
        out += f.code + " @ " + f.where + ": " + f.message + "\n";
    return out;
}

} // namespace

TEST(Cabling, ExportsOfBuiltInExamplesMatchWithoutFindings)
{
    for (const char* name : { "dgx-h100-superpod-1su", "dgx-b200-superpod-4su", "ib-ndr-2to1", "ib-ndr-grow",
             "dgx-b200-superpod-16su" }) {
        SCOPED_TRACE(name);
        const Fixture fx = planExample(name);
        const IbFabric fabric = exported(fx.plan);
        const auto report = checkIbCabling(fx.plan, fx.catalog, fabric);
        EXPECT_TRUE(report.findings.empty()) << codes(report);
        EXPECT_GT(report.planned, 0);
        EXPECT_EQ(report.matched, report.planned);
        EXPECT_EQ(report.discovered, report.planned);
        for (const auto& s : report.switches)
            EXPECT_EQ(s.how, "description") << s.description;
    }
}

TEST(Cabling, ThreeTierExampleHasCoresAsRoots)
{
    const Fixture fx = planExample("dgx-b200-superpod-16su");
    ASSERT_EQ(fx.plan.summary.tiers, 3);
    const auto report = checkIbCabling(fx.plan, fx.catalog, exported(fx.plan));
    std::vector<std::string> missing;
    const auto roots = rootGuids(report.identity, fx.plan, &missing);
    EXPECT_TRUE(missing.empty());
    EXPECT_EQ(static_cast<long long>(roots.size()), fx.plan.summary.switches.core);
    const IdentityEntry* core1 = report.identity.byName("core1");
    ASSERT_NE(core1, nullptr);
    EXPECT_EQ(core1->tier, "core");
    ASSERT_FALSE(core1->guids.empty());
    EXPECT_EQ(roots.front(), core1->guids.front());
}

TEST(Cabling, SwappedNodeCablesNameBothMoves)
{
    const Fixture fx = planExample("dgx-h100-superpod-1su");
    IbFabric fabric = exported(fx.plan);
    const auto leaf1 = guidOf(fabric, "su1-rail1-leaf");
    const auto leaf2 = guidOf(fabric, "su1-rail2-leaf");
    swapFarEnds(fabric, { leaf1, 4 }, { leaf2, 4 });
    const auto report = checkIbCabling(fx.plan, fx.catalog, fabric);
    ASSERT_EQ(report.findings.size(), 2u) << codes(report);
    EXPECT_EQ(report.findings[0],
        (core::Finding { core::Severity::Error, "CABLE_MISWIRED",
            "su1-rail1-leaf/4 is cabled to node004/nic2, planned su1-rail1-leaf/4 <-> node004/nic1 and node004/nic2 <-> "
            "su1-rail2-leaf/4: move the cable at su1-rail1-leaf/4 (now to node004/nic2) to node004/nic1",
            "su1-rail1-leaf/4" }));
    EXPECT_EQ(report.findings[1],
        (core::Finding { core::Severity::Error, "CABLE_MISWIRED",
            "su1-rail2-leaf/4 is cabled to node004/nic1, planned su1-rail2-leaf/4 <-> node004/nic2 and node004/nic1 <-> "
            "su1-rail1-leaf/4: move the cable at su1-rail2-leaf/4 (now to node004/nic1) to node004/nic2",
            "su1-rail2-leaf/4" }));
    EXPECT_EQ(report.matched, report.planned - 2);
}

TEST(Cabling, UnpluggedCableIsMissing)
{
    const Fixture fx = planExample("dgx-h100-superpod-1su");
    IbFabric fabric = exported(fx.plan);
    unplug(fabric, { guidOf(fabric, "su1-rail5-leaf"), 10 });
    const auto report = checkIbCabling(fx.plan, fx.catalog, fabric);
    ASSERT_EQ(report.findings.size(), 1u) << codes(report);
    EXPECT_EQ(report.findings[0],
        (core::Finding { core::Severity::Error, "CABLE_MISSING",
            "node010/nic5 <-> su1-rail5-leaf/10 not found: check the cable and both ports", "node010/nic5" }));
    EXPECT_EQ(report.discovered, report.planned - 1);
}

TEST(Cabling, SwappedUplinksAndAnExtraLink)
{
    const Fixture fx = planExample("dgx-h100-superpod-1su");
    IbFabric fabric = exported(fx.plan);
    const auto leaf = guidOf(fabric, "su1-rail0-leaf");
    // Two uplinks of one leaf that reach different spines.
    int first = 0, second = 0;
    std::string firstPeer, secondPeer;
    for (int port = 1; port <= 64 && !second; ++port) {
        IbLink* l = linkAt(fabric, { leaf, port });
        if (!l)
            continue;
        const IbLinkEnd far = l->a.guid == leaf ? l->b : l->a;
        const IbNode* peer = fabric.find(far.guid);
        if (peer->type != IbNodeType::Switch)
            continue;
        if (!first) {
            first = port;
            firstPeer = peer->description + "/" + std::to_string(far.port);
        } else if (peer->description + "/" != firstPeer.substr(0, firstPeer.find('/') + 1)) {
            second = port;
            secondPeer = peer->description + "/" + std::to_string(far.port);
        }
    }
    ASSERT_TRUE(first && second);
    swapFarEnds(fabric, { leaf, first }, { leaf, second });
    // An extra cable between two ports the plan leaves free (a free leaf port on two leaves).
    std::vector<std::pair<std::uint64_t, int>> free;
    for (const auto& d : fx.plan.devices) {
        if (d.kind != core::DeviceKind::Switch || d.tier != core::SwitchTier::Leaf || free.size() == 2)
            continue;
        const auto g = guidOf(fabric, d.name);
        for (int port = d.ports; port >= 1; --port)
            if (!linkAt(fabric, { g, port })) {
                free.emplace_back(g, port);
                break;
            }
    }
    ASSERT_EQ(free.size(), 2u) << "the example has no free leaf ports";
    fabric.addLink({ { free[0].first, free[0].second }, { free[1].first, free[1].second }, "4x", "HDR" });
    const auto report = checkIbCabling(fx.plan, fx.catalog, fabric);
    ASSERT_EQ(report.findings.size(), 3u) << codes(report);
    const std::string at1 = "su1-rail0-leaf/" + std::to_string(first);
    const std::string at2 = "su1-rail0-leaf/" + std::to_string(second);
    EXPECT_EQ(report.findings[0].code, "CABLE_MISWIRED");
    EXPECT_EQ(report.findings[0].where, at1);
    EXPECT_EQ(report.findings[0].message,
        at1 + " is cabled to " + secondPeer + ", planned " + at1 + " <-> " + firstPeer + " and " + secondPeer + " <-> " + at2
            + ": move the cable at " + at1 + " (now to " + secondPeer + ") to " + firstPeer);
    EXPECT_EQ(report.findings[1].code, "CABLE_MISWIRED");
    EXPECT_EQ(report.findings[1].where, at2);
    const auto& extra = report.findings[2];
    EXPECT_EQ(extra.code, "CABLE_UNEXPECTED");
    EXPECT_EQ(extra.severity, core::Severity::Warning);
    EXPECT_NE(extra.message.find("not in the plan"), std::string::npos) << extra.message;
}

/// Real switch descriptions are often defaults, and hosts say "<host> <device>".
IbFabric realisticNames(const core::Plan& plan, const core::Catalog& catalog, bool hcaNumbers)
{
    IbFabric fabric = exported(plan);
    const auto* type = catalog.findNodeType(plan.spec.nodeType);
    int serial = 0;
    for (auto& n : fabric.nodes) {
        if (n.type == IbNodeType::Switch) {
            n.description = ++serial % 2 ? "MF0;switch-" + std::to_string(serial) + ":MQM9700/U1" : "";
            continue;
        }
        const auto slash = n.description.find('/');
        const std::string host = n.description.substr(0, slash);
        const std::string port = n.description.substr(slash + 1);
        if (port.rfind("nic", 0) != 0)
            continue; // management ports keep their name
        const int rail = std::stoi(port.substr(3));
        n.description = host + " " + (hcaNumbers ? "HCA-" + std::to_string(rail + 1) : type->railMap.at(rail));
    }
    return fabric;
}

TEST(Cabling, UnnamedSwitchesAreNamedFromTheirHosts)
{
    const Fixture fx = planExample("dgx-h100-superpod-1su");
    IbFabric fabric = realisticNames(fx.plan, fx.catalog, false);
    // node004's NICs 1 and 2 swapped too: the leaves are still named by the majority.
    const auto n4nic1 = guidOf(fabric, "node004 mlx5_3");
    const auto n4nic2 = guidOf(fabric, "node004 mlx5_4");
    swapFarEnds(fabric, { n4nic1, 1 }, { n4nic2, 1 });
    const auto report = checkIbCabling(fx.plan, fx.catalog, fabric);
    ASSERT_EQ(report.findings.size(), 2u) << codes(report);
    EXPECT_EQ(report.findings[0].where, "su1-rail1-leaf/4");
    EXPECT_NE(report.findings[0].message.find("move the cable at su1-rail1-leaf/4 (now to node004/nic2) to node004/nic1"),
        std::string::npos)
        << report.findings[0].message;
    int leaves = 0, spines = 0;
    for (const auto& s : report.switches) {
        ASSERT_FALSE(s.name.empty()) << s.description;
        if (s.name.find("leaf") != std::string::npos) {
            EXPECT_EQ(s.how, "hosts");
            ++leaves;
        } else {
            EXPECT_EQ(s.how, "switches");
            ++spines;
        }
    }
    EXPECT_EQ(leaves, 8);
    EXPECT_EQ(spines, 4);
    // The identity maps every switch to its GUID and description.
    const IdentityEntry* leaf3 = report.identity.byName("su1-rail3-leaf");
    ASSERT_NE(leaf3, nullptr);
    EXPECT_EQ(leaf3->guids.front(), planner::ibnetdiscoverGuid(fx.plan, { static_cast<std::uint32_t>(std::find_if(fx.plan.devices.begin(), fx.plan.devices.end(), [](const core::Device& d) { return d.name == "su1-rail3-leaf"; }) - fx.plan.devices.begin()), 0, 0 }, 1));
    const IdentityEntry* nic = report.identity.byName("node007/nic3");
    ASSERT_NE(nic, nullptr);
    EXPECT_EQ(nic->hostname, "node007");
    EXPECT_EQ(nic->device, "mlx5_5");
    EXPECT_EQ(nic->how, "description");
}

TEST(Cabling, HcaNumbersTakeTheRailOfTheLeafReached)
{
    const Fixture fx = planExample("dgx-h100-superpod-1su");
    IbFabric fabric = realisticNames(fx.plan, fx.catalog, true);
    // Leaves keep planned names here: with "HCA-<n>" hosts only the leaves can tell the rail.
    IbFabric named = exported(fx.plan);
    for (auto& n : fabric.nodes) {
        const IbNode* original = named.find(n.guid);
        if (n.type == IbNodeType::Switch && original->description.find("leaf") != std::string::npos)
            n.description = original->description;
    }
    unplug(fabric, { guidOf(fabric, "su1-rail5-leaf"), 10 });
    const auto report = checkIbCabling(fx.plan, fx.catalog, fabric);
    ASSERT_EQ(report.findings.size(), 1u) << codes(report);
    EXPECT_EQ(report.findings[0].code, "CABLE_MISSING");
    EXPECT_EQ(report.findings[0].where, "node010/nic5");
    const IdentityEntry* nic = report.identity.byName("node007/nic3");
    ASSERT_NE(nic, nullptr);
    EXPECT_EQ(nic->how, "leaf");
    EXPECT_EQ(nic->device, "HCA-4");
}

TEST(Cabling, StoredGuidsIdentifySwitchesWithoutNames)
{
    const Fixture fx = planExample("dgx-h100-superpod-1su");
    const IbFabric named = exported(fx.plan);
    const auto first = checkIbCabling(fx.plan, fx.catalog, named);
    ASSERT_TRUE(first.findings.empty());
    IbFabric blank = named;
    for (auto& n : blank.nodes)
        if (n.type == IbNodeType::Switch)
            n.description.clear();
        else
            n.description = "host-" + std::to_string(n.guid); // hosts unnamed too: only GUIDs remain
    CablingOptions options;
    options.known = &first.identity;
    const auto again = checkIbCabling(fx.plan, fx.catalog, blank, options);
    EXPECT_TRUE(again.findings.empty()) << codes(again);
    for (const auto& s : again.switches)
        EXPECT_EQ(s.how, "guid");
    // Without the stored identity nothing can be matched: every switch is reported.
    const auto blind = checkIbCabling(fx.plan, fx.catalog, blank);
    const auto unidentified = std::count_if(blind.findings.begin(), blind.findings.end(),
        [](const core::Finding& f) { return f.code == "SWITCH_UNIDENTIFIED"; });
    const auto notFound = std::count_if(blind.findings.begin(), blind.findings.end(),
        [](const core::Finding& f) { return f.code == "SWITCH_MISSING"; });
    EXPECT_EQ(unidentified, 12) << codes(blind);
    EXPECT_EQ(notFound, 12) << codes(blind);
}

TEST(Cabling, SwitchPortNumbers)
{
    EXPECT_EQ(switchPortNumber("17"), 17);
    EXPECT_EQ(switchPortNumber("swp17"), 17);
    EXPECT_EQ(switchPortNumber("Ethernet17"), 17);
    EXPECT_EQ(switchPortNumber("Eth1/17"), 17);
    EXPECT_EQ(switchPortNumber("swp17s1", 2), 34);
    EXPECT_EQ(switchPortNumber("swp17s0", 2), 33);
    EXPECT_EQ(switchPortNumber("Eth1/17/2", 2), 34);
    EXPECT_FALSE(switchPortNumber("mgmt"));
}
