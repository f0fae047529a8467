// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The IBDM topo-file and NetBox CSV exports, and the cable labels. Nothing here reads a .topo
// back, so the topo tests parse it with the grammar ibdm documents (see export_topo.cpp).
#include "planner/exporters.h"

#include "core/catalog.h"
#include "core/plan_spec.h"
#include "planner/planner.h"

#include "tests/integration/hand_built_plans.h"

#include "csv_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

using namespace railyard;
using railyard::testing::buildSmallPlan;
using railyard::testing::SmallFabric;

namespace {

// --- a topo-file reader following ibdm's grammar ---------------------------------------------

struct TopoPort {
    std::string width, speed, remoteType, remoteName, remotePort;
};
struct TopoSystem {
    std::string type;
    std::map<std::string, TopoPort> ports;
};
struct Topo {
    std::map<std::string, TopoSystem> systems;
    std::vector<std::string> errors;
    std::size_t portLines = 0;
};

/// IBFabric::parseTopology's expressions (ibutils ibdm/Fabric.cpp), with the width and lane
/// speed tokens of ibutils2's width2char/speed2char. A system section ends at an empty line.
Topo parseTopo(const std::string& text)
{
    static const std::regex sysLine(R"(^[ \t]*([^/ \t]+)[ \t]+([^/ \t]+)[ \t]*( CFG:(.*))?$)");
    static const std::regex portLine(R"(^[ \t]+([^ \t]+)[ \t]+-((1|2|4|8|12)[xX]-)?)"
                                     R"(((2\.5|5|10|FDR10|14|25|EDR20|50|100|200)G-)?[>])"
                                     R"([ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]+([^ \t]+)[ \t]*$)");
    static const std::regex ignoreLine(R"(^[ \t]*#)");
    static const std::regex emptyLine(R"(^[ \t]*$)");
    Topo topo;
    TopoSystem* current = nullptr;
    std::istringstream in(text);
    int lineNumber = 0;
    for (std::string line; std::getline(in, line);) {
        ++lineNumber;
        std::smatch m;
        if (std::regex_search(line, ignoreLine))
            continue;
        if (std::regex_match(line, m, sysLine)) {
            const auto [it, added] = topo.systems.emplace(m[2].str(), TopoSystem { m[1].str(), {} });
            if (!added)
                topo.errors.push_back("line " + std::to_string(lineNumber) + ": system declared twice: " + line);
            current = &it->second;
        } else if (std::regex_match(line, m, portLine)) {
            ++topo.portLines;
            if (!current) {
                topo.errors.push_back("line " + std::to_string(lineNumber) + ": port outside a system: " + line);
                continue;
            }
            TopoPort port { m[3].str() + "x", m[5].str() + "G", m[6].str(), m[7].str(), m[8].str() };
            if (!current->ports.emplace(m[1].str(), port).second)
                topo.errors.push_back("line " + std::to_string(lineNumber) + ": port listed twice: " + line);
        } else if (std::regex_match(line, emptyLine)) {
            current = nullptr;
        } else {
            topo.errors.push_back("line " + std::to_string(lineNumber) + ": bad syntax: " + line);
        }
    }
    return topo;
}

std::string topoText(const core::Plan& plan, int plane = 1)
{
    std::ostringstream out;
    planner::writeIbdmTopo(plan, out, plane);
    return out.str();
}

bool linkInPlane(const core::Plan& plan, const core::Link& link, int plane)
{
    for (const auto& end : { link.a, link.b }) {
        const auto& d = plan.devices[end.device];
        if (d.kind == core::DeviceKind::Switch && (!d.installed || (plan.summary.planes > 1 && d.plane != plane)))
            return false;
    }
    return link.installed;
}

/// Every installed link of the plane appears once from each end, with `width` and `speed`;
/// every remote reference names a declared system by its declared type.
void checkTopo(const core::Plan& plan, int plane, const std::string& width, const std::string& speed)
{
    const Topo topo = parseTopo(topoText(plan, plane));
    for (const auto& error : topo.errors)
        ADD_FAILURE() << error;
    std::size_t links = 0;
    for (const auto& link : plan.links) {
        if (!linkInPlane(plan, link, plane))
            continue;
        ++links;
        for (const auto& [self, peer] : { std::pair { link.a, link.b }, std::pair { link.b, link.a } }) {
            const auto system = topo.systems.find(planner::topoSystemName(plan, self.device));
            ASSERT_NE(system, topo.systems.end()) << plan.portName(self);
            const auto port = system->second.ports.find(planner::topoPortName(plan, self));
            ASSERT_NE(port, system->second.ports.end()) << plan.portName(self);
            EXPECT_EQ(port->second.remoteName, planner::topoSystemName(plan, peer.device)) << plan.portName(self);
            EXPECT_EQ(port->second.remotePort, planner::topoPortName(plan, peer)) << plan.portName(self);
            EXPECT_EQ(port->second.width, width);
            EXPECT_EQ(port->second.speed, speed);
        }
    }
    EXPECT_EQ(topo.portLines, 2 * links) << "plane " << plane;
    for (const auto& [name, system] : topo.systems) {
        for (const auto& [portName, port] : system.ports) {
            const auto remote = topo.systems.find(port.remoteName);
            ASSERT_NE(remote, topo.systems.end()) << name << " " << portName << " -> " << port.remoteName;
            EXPECT_EQ(remote->second.type, port.remoteType) << name << " " << portName;
        }
    }
}

core::Plan realPlan(const std::string& json)
{
    static const auto catalog = core::Catalog::builtin();
    EXPECT_TRUE(catalog.ok());
    auto spec = core::parsePlanSpecText(json, "test.plan.json");
    EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().toString());
    if (!catalog.ok() || !spec.ok())
        return {};
    auto plan = planner::makePlan(*spec, *catalog);
    EXPECT_TRUE(plan.ok()) << (plan.ok() ? "" : plan.error().toString());
    return plan.ok() ? std::move(plan).value() : core::Plan {};
}

// --- CSV ---------------------------------------------------------------------------------------

using test::Row;
using test::parseCsv;

/// Rows as maps by header name; checks every row has the header's width.
std::vector<std::map<std::string, std::string>> records(const std::string& text, const Row& header)
{
    const auto rows = parseCsv(text);
    std::vector<std::map<std::string, std::string>> out;
    if (rows.empty()) {
        ADD_FAILURE() << "no header";
        return out;
    }
    EXPECT_EQ(rows[0], header);
    for (std::size_t r = 1; r < rows.size(); ++r) {
        EXPECT_EQ(rows[r].size(), header.size()) << "row " << r;
        std::map<std::string, std::string> rec;
        for (std::size_t c = 0; c < header.size() && c < rows[r].size(); ++c)
            rec[header[c]] = rows[r][c];
        out.push_back(std::move(rec));
    }
    return out;
}

const Row kDeviceHeader { "name", "role", "manufacturer", "device_type", "status", "site", "description" };
const Row kInterfaceHeader { "device", "name", "type", "speed", "enabled", "description" };
const Row kCableHeader { "side_a_device", "side_a_type", "side_a_name", "side_b_device", "side_b_type", "side_b_name",
    "type", "status", "label", "length", "length_unit", "description" };

template <class Writer>
std::string csvOf(Writer writer, const core::Plan& plan, const planner::NetboxOptions& options = {})
{
    std::ostringstream out;
    writer(plan, out, options);
    return out.str();
}

struct Netbox {
    std::vector<std::map<std::string, std::string>> devices, interfaces, cables;
};

Netbox netbox(const core::Plan& plan, const planner::NetboxOptions& options = {})
{
    return { records(csvOf(planner::writeNetboxDevicesCsv, plan, options), kDeviceHeader),
        records(csvOf(planner::writeNetboxInterfacesCsv, plan, options), kInterfaceHeader),
        records(csvOf(planner::writeNetboxCablesCsv, plan, options), kCableHeader) };
}

/// Every cable end names a device of devices.csv and an interface of interfaces.csv, once.
void checkNetboxConsistent(const core::Plan& plan, const Netbox& nb)
{
    ASSERT_EQ(nb.devices.size(), plan.devices.size());
    ASSERT_EQ(nb.cables.size(), plan.links.size());
    std::set<std::string> devices;
    for (const auto& d : nb.devices)
        EXPECT_TRUE(devices.insert(d.at("name")).second) << d.at("name");
    std::set<std::pair<std::string, std::string>> interfaces;
    for (const auto& i : nb.interfaces) {
        EXPECT_TRUE(devices.contains(i.at("device"))) << i.at("device");
        EXPECT_TRUE(interfaces.insert({ i.at("device"), i.at("name") }).second) << i.at("device") << " " << i.at("name");
    }
    EXPECT_EQ(interfaces.size(), 2 * plan.links.size()); // every port carries one link
    std::set<std::pair<std::string, std::string>> cabled;
    for (std::size_t i = 0; i < nb.cables.size(); ++i) {
        const auto& c = nb.cables[i];
        for (const std::string side : { "side_a_", "side_b_" }) {
            EXPECT_EQ(c.at(side + "type"), "dcim.interface");
            const std::pair end { c.at(side + "device"), c.at(side + "name") };
            EXPECT_TRUE(interfaces.contains(end)) << end.first << " " << end.second;
            EXPECT_TRUE(cabled.insert(end).second) << "cabled twice: " << end.first << " " << end.second;
        }
        EXPECT_EQ(c.at("label"), planner::cableLabel(plan, i));
        EXPECT_EQ(c.at("status"), "planned");
        EXPECT_EQ(plan.portName(plan.links[i].a), c.at("side_a_device") + "/" + c.at("side_a_name"));
        EXPECT_EQ(plan.portName(plan.links[i].b), c.at("side_b_device") + "/" + c.at("side_b_name"));
    }
}

std::filesystem::path tempDir(const std::string& name)
{
    return std::filesystem::temp_directory_path()
        / ("railyard-netbox-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" + name);
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

// --- cable labels --------------------------------------------------------------------------------

TEST(CableLabel, IdAndBothEnds)
{
    EXPECT_EQ(planner::cableId(0), "C000001");
    EXPECT_EQ(planner::cableId(122), "C000123");
    EXPECT_EQ(planner::cableId(1234567), "C1234568");
    const auto plan = buildSmallPlan({});
    EXPECT_EQ(planner::cableLabel(plan, 0), "C000001 node001/nic0 <-> su1-rail0-leaf/1");
    std::set<std::string> labels;
    for (std::size_t i = 0; i < plan.links.size(); ++i)
        EXPECT_TRUE(labels.insert(planner::cableLabel(plan, i)).second);
}

TEST(CableLabel, InTheCablesCsv)
{
    const auto plan = buildSmallPlan({});
    std::ostringstream out;
    planner::writeCablesCsv(plan, out);
    const auto rows = parseCsv(out.str());
    ASSERT_EQ(rows.size(), plan.links.size() + 1);
    EXPECT_EQ(rows[0].back(), "label");
    for (std::size_t i = 0; i < plan.links.size(); ++i)
        EXPECT_EQ(rows[i + 1].back(), planner::cableLabel(plan, i));
}

// --- topo file --------------------------------------------------------------------------------

TEST(IbdmTopo, EveryInstalledLinkFromBothEnds)
{
    const auto plan = buildSmallPlan({});
    checkTopo(plan, 1, "4x", "100G");
    const std::string text = topoText(plan);
    EXPECT_NE(text.find("\nMQM9700 su1-rail0-leaf\n   P1 -4x-100G-> GENERIC_8GPU node001 nic0/P1\n"), std::string::npos)
        << text;
    EXPECT_NE(text.find("\nGENERIC_8GPU node001\n   nic0/P1 -4x-100G-> MQM9700 su1-rail0-leaf P1\n"), std::string::npos)
        << text;
    // The grow_to link is not installed: its ports are absent.
    const Topo topo = parseTopo(text);
    EXPECT_EQ(topo.systems.at("su1-rail0-leaf").ports.count("P35"), 0u);
}

TEST(IbdmTopo, PlanesAreSeparateSubnets)
{
    SmallFabric f;
    f.planes = 2;
    const auto plan = buildSmallPlan(f);
    for (int plane = 1; plane <= 2; ++plane) {
        checkTopo(plan, plane, "4x", "100G");
        const Topo topo = parseTopo(topoText(plan, plane));
        const std::string own = "p" + std::to_string(plane) + "-spine1";
        const std::string other = "p" + std::to_string(3 - plane) + "-spine1";
        EXPECT_TRUE(topo.systems.contains(own));
        EXPECT_FALSE(topo.systems.contains(other));
        // The plan's nic1-p<plane> is port <plane> of NIC 1.
        EXPECT_TRUE(topo.systems.at("node002").ports.contains("nic1/P" + std::to_string(plane)));
    }
    EXPECT_NE(topoText(plan, 3).find("# plane 3 does not exist"), std::string::npos);
}

TEST(IbdmTopo, SpeedAndWidthTokens)
{
    auto plan = buildSmallPlan({});
    for (const auto& [generation, width, speed] : { std::tuple { core::IbGeneration::HDR, 4, "50G" },
             { core::IbGeneration::NDR, 2, "100G" }, { core::IbGeneration::XDR, 4, "200G" },
             { core::IbGeneration::EDR, 4, "25G" }, { core::IbGeneration::QDR, 4, "10G" } }) {
        plan.summary.port = *core::ibRate(generation, width);
        checkTopo(plan, 1, std::to_string(width) + "x", speed);
    }
}

TEST(IbdmTopo, NamesAreSingleTokens)
{
    SmallFabric f;
    f.nodes = { "node 1", "rack/2", "#three", "node004" };
    const auto plan = buildSmallPlan(f);
    checkTopo(plan, 1, "4x", "100G");
    const Topo topo = parseTopo(topoText(plan));
    EXPECT_TRUE(topo.systems.contains("node_1"));
    EXPECT_TRUE(topo.systems.contains("rack_2"));
    EXPECT_TRUE(topo.systems.contains("_#three"));
}

TEST(IbdmTopo, RealPlansWithManagementAndXdr)
{
    const auto ndr = realPlan(R"({ "name": "dgx", "fabric": "infiniband", "nodes": 40, "node_type": "dgx-h100",
        "link": { "generation": "NDR", "width": 4 }, "management_ports": 2 })");
    ASSERT_FALSE(ndr.links.empty());
    checkTopo(ndr, 1, "4x", "100G");
    const Topo topo = parseTopo(topoText(ndr));
    EXPECT_EQ(topo.systems.at("su1-rail0-leaf").type, "MQM9700");
    EXPECT_EQ(topo.systems.at("node001").type, "DGX_H100");
    EXPECT_EQ(topo.systems.at("mgmt1").type, "HCA");
    EXPECT_TRUE(topo.systems.at("mgmt1").ports.contains("P1"));
    const auto xdr = realPlan(R"({ "name": "grow", "fabric": "infiniband", "nodes": 40, "node_type": "dgx-b300",
        "link": { "generation": "XDR", "width": 4 }, "planes": 2, "grow_to": { "nodes": 64 } })");
    ASSERT_FALSE(xdr.links.empty());
    for (int plane = 1; plane <= 2; ++plane)
        checkTopo(xdr, plane, "4x", "200G");
}

TEST(IbdmTopo, RoceHasNoSubnet)
{
    auto plan = buildSmallPlan({});
    plan.spec.fabric = core::Fabric::RoCEv2;
    const Topo topo = parseTopo(topoText(plan));
    EXPECT_TRUE(topo.systems.empty());
    EXPECT_TRUE(topo.errors.empty());
}

// --- NetBox ---------------------------------------------------------------------------------------

TEST(NetboxCsv, SmallPlanIsConsistent)
{
    const auto plan = buildSmallPlan({});
    planner::NetboxOptions options;
    options.site = "dc, hall 1";
    const Netbox nb = netbox(plan, options);
    checkNetboxConsistent(plan, nb);
    for (const auto& d : nb.devices) {
        EXPECT_EQ(d.at("site"), "dc, hall 1");
        EXPECT_EQ(d.at("status"), "planned");
    }
    EXPECT_EQ(nb.devices[0].at("role"), "GPU server");
    EXPECT_EQ(nb.devices[0].at("device_type"), "generic-8gpu");
    EXPECT_EQ(nb.devices[4].at("name"), "su1-rail0-leaf");
    EXPECT_EQ(nb.devices[4].at("role"), "Leaf switch");
    EXPECT_EQ(nb.devices[4].at("device_type"), "qm9700");
    EXPECT_EQ(nb.devices[6].at("role"), "Spine switch");
    for (const auto& i : nb.interfaces) {
        EXPECT_EQ(i.at("type"), "infiniband-ndr");
        EXPECT_EQ(i.at("speed"), "400000000");
    }
    EXPECT_EQ(nb.interfaces[0].at("name"), "nic0");
    const auto leafPort = std::find_if(nb.interfaces.begin(), nb.interfaces.end(),
        [](const auto& i) { return i.at("device") == "su1-rail0-leaf" && i.at("name") == "33"; });
    ASSERT_NE(leafPort, nb.interfaces.end());
    EXPECT_NE(leafPort->at("description").find("cage 17 position 1"), std::string::npos) << leafPort->at("description");
    EXPECT_EQ(nb.cables[0].at("type"), "mmf");
    EXPECT_EQ(nb.cables[0].at("length"), "3");
    EXPECT_EQ(nb.cables[0].at("length_unit"), "m");
    EXPECT_EQ(nb.cables[0].at("label"), "C000001 node001/nic0 <-> su1-rail0-leaf/1");
    EXPECT_EQ(nb.cables.back().at("type"), "dac-passive");
    EXPECT_NE(nb.cables.back().at("description").find("not installed"), std::string::npos);
}

TEST(NetboxCsv, PlanesNameNicPorts)
{
    SmallFabric f;
    f.planes = 2;
    const auto plan = buildSmallPlan(f);
    const Netbox nb = netbox(plan);
    checkNetboxConsistent(plan, nb);
    EXPECT_EQ(nb.interfaces[0].at("name"), "nic0-p1");
    EXPECT_EQ(nb.interfaces[1].at("name"), "nic0-p2");
}

TEST(NetboxCsv, EthernetTypesFromTheCatalog)
{
    const auto catalog = core::Catalog::builtin();
    ASSERT_TRUE(catalog.ok());
    const auto plan = realPlan(R"({ "name": "roce", "fabric": "rocev2", "nodes": 16, "node_type": "hgx-8gpu-400g",
        "link": { "speed_gbps": 400, "lanes": 4 }, "leaf_switch": "sn5600", "spine_switch": "sn5600" })");
    ASSERT_FALSE(plan.links.empty());
    planner::NetboxOptions options;
    options.catalog = &*catalog;
    const Netbox nb = netbox(plan, options);
    checkNetboxConsistent(plan, nb);
    std::map<std::string, std::string> typeOf;
    for (const auto& i : nb.interfaces)
        typeOf[i.at("device") + "/" + i.at("name")] = i.at("type");
    const auto& first = plan.links.front();
    EXPECT_EQ(typeOf.at(plan.portName(first.a)), "400gbase-x-qsfp112"); // the node's NIC cage
    EXPECT_EQ(typeOf.at(plan.portName(first.b)), "400gbase-x-osfp");    // the switch's cage
    for (const auto& d : nb.devices) {
        if (d.at("device_type") == "sn5600") {
            EXPECT_FALSE(d.at("manufacturer").empty());
        }
    }
    // Without a catalog the Ethernet form factor is unknown.
    for (const auto& i : netbox(plan).interfaces)
        EXPECT_EQ(i.at("type"), "other");
}

TEST(NetboxCsv, FolderGetsThreeFilesAtomically)
{
    const auto plan = buildSmallPlan({});
    const auto dir = tempDir("out") / "nested";
    ASSERT_TRUE(planner::writeNetboxCsv(plan, dir.string()));
    EXPECT_EQ(readFile(dir / planner::kNetboxDevicesFile), csvOf(planner::writeNetboxDevicesCsv, plan));
    EXPECT_EQ(readFile(dir / planner::kNetboxInterfacesFile), csvOf(planner::writeNetboxInterfacesCsv, plan));
    EXPECT_EQ(readFile(dir / planner::kNetboxCablesFile), csvOf(planner::writeNetboxCablesCsv, plan));
    // Written again over the old files; no temp files are left behind.
    ASSERT_TRUE(planner::writeNetboxCsv(plan, dir.string()));
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 3);
    std::filesystem::remove_all(dir.parent_path());
}

TEST(NetboxCsv, UnwritableFolderIsAnErrorNamingIt)
{
    const auto plan = buildSmallPlan({});
    const auto file = tempDir("file");
    std::ofstream(file) << "x";
    const auto status = planner::writeNetboxCsv(plan, (file / "sub").string());
    ASSERT_FALSE(status);
    EXPECT_NE(status.error().where.find(file.string()), std::string::npos) << status.error().toString();
    std::filesystem::remove(file);
}
