// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/plan_spec.h"

#include "core/json_text.h"
#include "core/field_reader.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <set>

// The plan spec reader (interfaces.md §1). Every problem is collected, each naming its field.

namespace railyard::core {

using namespace detail;

namespace {

    using nlohmann::json;

    constexpr long long kMaxNodes = 1'000'000;
    constexpr long long kMaxGpus = 64'000'000;
    constexpr long long kMaxPerNode = 1024;
    constexpr long long kMaxPorts = 65'535;
    constexpr double kMaxDistanceM = 10'000;

    constexpr std::string_view kTopKeys[] = { "name", "fabric", "nodes", "gpus",
        "node_type", "gpus_per_node", "rails", "nic", "link", "leaf_switch", "spine_switch",
        "core_switch", "su_size", "oversubscription", "tiers", "reserved_leaf_ports",
        "management_ports", "planes", "lossless", "node_names", "grow_to", "racks", "addressing" };
    constexpr std::string_view kLinkKeys[] = { "generation", "width", "speed_gbps", "lanes" };
    constexpr std::string_view kOversubscriptionKeys[] = { "leaf", "spine" };
    constexpr std::string_view kLosslessKeys[] = { "mode", "pfc_priority", "ecn",
        "dcqcn", "trust", "roce_dscp", "cnp_dscp", "mtu", "interface_mtu" };
    constexpr std::string_view kAddressingKeys[] = { "scheme", "fabric", "loopbacks", "asn" };
    constexpr std::string_view kAsnKeys[] = { "scheme", "base" };
    constexpr std::string_view kAddressingSchemes[] = { "p2p31", "rail_subnets" };
    constexpr std::string_view kAsnSchemes[] = { "per_leaf", "per_tier" };
    // Private AS numbers (RFC 6996): 2-byte 64512-65534, 4-byte 4200000000-4294967294.
    constexpr long long kPrivateAsn2First = 64512, kPrivateAsn2Last = 65534;
    constexpr long long kPrivateAsn4First = 4200000000LL, kPrivateAsn4Last = 4294967294LL;
    constexpr std::string_view kGrowKeys[] = { "nodes" };
    constexpr std::string_view kRackKeys[] = { "nodes_per_rack", "leaf_placement",
        "rack_width_m", "in_rack_m", "slack_m", "su_pitch_m", "spine_distance_m", "core_distance_m" };
    constexpr std::string_view kLosslessModes[] = { "lossless", "pfc-only", "lossy" };
    constexpr std::string_view kTrustModes[] = { "dscp", "pcp" };
    constexpr std::string_view kLeafPlacements[] = { "row", "rack" };
    constexpr std::array kEthernetSpeeds { 100, 200, 400, 800 };
    constexpr std::array kRdmaMtus { 256, 512, 1024, 2048, 4096 };
    constexpr int kMinEthernetMtu = 1500;
    constexpr int kMaxEthernetMtu = 9216;

    /// "1x, 2x, 4x or 8x"
    std::string widthList(const IbGrade& grade)
    {
        std::string out;
        for (std::size_t i = 0; i < grade.widths.size(); ++i) {
            if (i > 0)
                out += i + 1 == grade.widths.size() ? " or " : ", ";
            out += std::to_string(grade.widths[i]) + "x";
        }
        return out;
    }

    std::string laneList(int speedGbps)
    {
        std::vector<int> lanes;
        for (const auto& g : ethernetGrades()) {
            if (g.speedGbps == speedGbps)
                lanes.push_back(g.lanes);
        }
        std::sort(lanes.begin(), lanes.end());
        std::string out;
        for (std::size_t i = 0; i < lanes.size(); ++i) {
            if (i > 0)
                out += i + 1 == lanes.size() ? " or " : ", ";
            out += std::to_string(lanes[i]);
        }
        return out;
    }

    std::string generationList()
    {
        std::string out;
        for (const auto& g : ibGrades())
            out += (out.empty() ? "" : ", ") + std::string(g.name);
        return out;
    }

    std::optional<int> asInt(std::optional<long long> v)
    {
        return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
    }

    void readFabric(FieldReader& r, const json& doc, PlanSpec& spec, bool& fabricKnown)
    {
        if (!doc.contains("fabric")) {
            r.fail("fabric", "required: \"infiniband\" or \"rocev2\"");
            return;
        }
        const json& v = doc["fabric"];
        const auto fabric = v.is_string() ? parseFabric(v.get<std::string>()) : std::nullopt;
        if (!fabric) {
            r.mustBe("fabric", "\"infiniband\" or \"rocev2\"", v);
            return;
        }
        spec.fabric = *fabric;
        fabricKnown = true;
    }

    void readSize(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        if (doc.contains("nodes")) {
            if (auto v = r.integer(doc["nodes"], "nodes", 1, kMaxNodes, "a positive integer"))
                spec.nodes = static_cast<int>(*v);
        }
        if (doc.contains("gpus"))
            spec.gpus = r.integer(doc["gpus"], "gpus", 1, kMaxGpus, "a positive integer");
        if (doc.contains("gpus_per_node"))
            spec.gpusPerNode = asInt(r.integer(doc["gpus_per_node"], "gpus_per_node", 1, kMaxPerNode, "a positive integer"));
        if (doc.contains("rails"))
            spec.rails = asInt(r.integer(doc["rails"], "rails", 1, kMaxPerNode, "a positive integer"));
        if (!doc.contains("nodes") && !doc.contains("gpus"))
            r.fail("nodes", "required: give nodes (servers) or gpus");
    }

    void readHardware(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        const std::pair<const char*, std::string*> ids[] = {
            { "node_type", &spec.nodeType },
            { "nic", &spec.nic },
            { "leaf_switch", &spec.leafSwitch },
            { "spine_switch", &spec.spineSwitch },
            { "core_switch", &spec.coreSwitch },
        };
        for (const auto& [key, target] : ids) {
            if (!doc.contains(key))
                continue;
            if (auto v = r.string(doc[key], key, "a catalog id (a non-empty string)", false))
                *target = *v;
        }
        if (doc.contains("name")) {
            if (auto v = r.string(doc["name"], "name", "a string", true))
                spec.name = *v;
        }
    }

    void readIbLink(FieldReader& r, const json& link, PlanSpec& spec)
    {
        if (link.contains("speed_gbps"))
            r.fail("link.speed_gbps", "only for RoCEv2; an InfiniBand link is given by generation and width");
        if (link.contains("lanes"))
            r.fail("link.lanes", "only for RoCEv2; an InfiniBand link is given by generation and width");
        if (!link.contains("generation")) {
            r.fail("link.generation", "required for InfiniBand: one of " + generationList());
        } else {
            const json& g = link["generation"];
            spec.link.generation = g.is_string() ? parseIbGeneration(g.get<std::string>()) : std::nullopt;
            if (!spec.link.generation)
                r.mustBe("link.generation", "one of " + generationList(), g);
        }
        if (!link.contains("width"))
            return;
        const auto width = r.integer(link["width"], "link.width", 1, 64, "a lane count (1, 2, 4 or 8)", true);
        if (!width)
            return;
        spec.link.width = static_cast<int>(*width);
        if (spec.link.generation && !ibRate(*spec.link.generation, spec.link.width)) {
            const IbGrade& grade = ibGrade(*spec.link.generation);
            r.fail("link.width", std::string(grade.name) + " is offered at " + widthList(grade) + ", got " + std::to_string(*width));
        }
    }

    void readEthernetLink(FieldReader& r, const json& link, PlanSpec& spec)
    {
        if (link.contains("generation"))
            r.fail("link.generation", "only for InfiniBand; a RoCEv2 link is given by speed_gbps (and lanes)");
        if (link.contains("width"))
            r.fail("link.width", "only for InfiniBand; a RoCEv2 link is given by speed_gbps (and lanes)");
        if (!link.contains("speed_gbps")) {
            r.fail("link.speed_gbps", "required for RoCEv2: 100, 200, 400 or 800");
            return;
        }
        const auto speed = r.integer(link["speed_gbps"], "link.speed_gbps", 1, 1'000'000, "100, 200, 400 or 800");
        if (speed && std::find(kEthernetSpeeds.begin(), kEthernetSpeeds.end(), *speed) == kEthernetSpeeds.end()) {
            r.mustBe("link.speed_gbps", "100, 200, 400 or 800", link["speed_gbps"]);
            return;
        }
        if (speed)
            spec.link.speedGbps = static_cast<int>(*speed);
        if (!link.contains("lanes"))
            return;
        const auto lanes = r.integer(link["lanes"], "link.lanes", 1, 64, "a lane count (1, 2, 4 or 8)", true);
        if (!lanes || !speed)
            return;
        spec.link.lanes = static_cast<int>(*lanes);
        if (!ethernetRate(*spec.link.speedGbps, *spec.link.lanes)) {
            r.fail("link.lanes", std::to_string(*speed) + "G runs over " + laneList(static_cast<int>(*speed))
                    + " lanes, got " + std::to_string(*lanes));
        }
    }

    void readLink(FieldReader& r, const json& doc, PlanSpec& spec, bool fabricKnown)
    {
        const bool ib = spec.fabric == Fabric::InfiniBand;
        if (!doc.contains("link")) {
            if (fabricKnown && ib)
                r.fail("link.generation", "required for InfiniBand: give link {\"generation\": \"NDR\", \"width\": 4}");
            else if (fabricKnown)
                r.fail("link.speed_gbps", "required for RoCEv2: give link {\"speed_gbps\": 400}");
            return;
        }
        const json& link = doc["link"];
        if (!r.object(link, "link", kLinkKeys) || !fabricKnown)
            return;
        if (ib)
            readIbLink(r, link, spec);
        else
            readEthernetLink(r, link, spec);
    }

    void readOversubscription(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        if (!doc.contains("oversubscription"))
            return;
        const json& o = doc["oversubscription"];
        if (!r.object(o, "oversubscription", kOversubscriptionKeys))
            return;
        const std::pair<const char*, Ratio*> tiers[] = {
            { "leaf", &spec.leafOversubscription },
            { "spine", &spec.spineOversubscription },
        };
        for (const auto& [key, target] : tiers) {
            if (!o.contains(key))
                continue;
            const json& v = o[key];
            const auto ratio = v.is_string() ? parseRatio(v.get<std::string>()) : std::nullopt;
            if (ratio)
                *target = *ratio;
            else
                r.mustBe(std::string("oversubscription.") + key, "\"down:up\" like \"2:1\"", v);
        }
    }

    void readTiers(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        if (!doc.contains("tiers"))
            return;
        const json& v = doc["tiers"];
        if (v.is_string() && v.get<std::string>() == "auto")
            spec.tiers = TierMode::Auto;
        else if (v.is_number_integer() && v.get<long long>() == 2)
            spec.tiers = TierMode::Two;
        else if (v.is_number_integer() && v.get<long long>() == 3)
            spec.tiers = TierMode::Three;
        else
            r.mustBe("tiers", "\"auto\", 2 or 3", v);
    }

    void readShape(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        if (doc.contains("su_size"))
            spec.suSize = asInt(r.integer(doc["su_size"], "su_size", 1, kMaxNodes, "a positive integer"));
        readOversubscription(r, doc, spec);
        readTiers(r, doc, spec);
        if (doc.contains("reserved_leaf_ports")) {
            if (auto v = r.integer(doc["reserved_leaf_ports"], "reserved_leaf_ports", 0, kMaxPorts, "a non-negative integer"))
                spec.reservedLeafPorts = static_cast<int>(*v);
        }
        if (doc.contains("management_ports")) {
            if (auto v = r.integer(doc["management_ports"], "management_ports", 0, kMaxPorts, "a non-negative integer"))
                spec.managementPorts = static_cast<int>(*v);
        }
        if (doc.contains("planes")) {
            const auto v = r.integer(doc["planes"], "planes", 1, kMaxPorts, "1 or 2");
            if (v && *v > 2)
                r.mustBe("planes", "1 or 2", doc["planes"]);
            else if (v)
                spec.planes = static_cast<int>(*v);
        }
    }

    void readPfcPriorities(FieldReader& r, const json& v, LosslessProfile& p)
    {
        const std::string path = "lossless.pfc_priority";
        if (v.is_number()) {
            if (auto prio = r.integer(v, path, 0, 7, "a priority from 0 to 7, or a list of them", true))
                p.pfcPriorities = { static_cast<int>(*prio) };
            return;
        }
        if (!v.is_array() || v.empty()) {
            r.mustBe(path, "a priority from 0 to 7, or a list of them", v);
            return;
        }
        std::vector<int> list;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const auto prio = r.integer(v[i], path + "[" + std::to_string(i) + "]", 0, 7, "a priority from 0 to 7", true);
            if (!prio)
                continue;
            if (std::find(list.begin(), list.end(), *prio) != list.end())
                r.fail(path, "priority " + std::to_string(*prio) + " is listed twice");
            list.push_back(static_cast<int>(*prio));
        }
        p.pfcPriorities = list;
    }

    void readMtu(FieldReader& r, const json& v, LosslessProfile& p)
    {
        const char* expected = "an RDMA MTU (256, 512, 1024, 2048 or 4096) or an Ethernet MTU from 1500 to 9216";
        const auto mtu = r.integer(v, "lossless.mtu", 1, kMaxEthernetMtu, expected, true);
        if (!mtu)
            return;
        const bool rdma = std::find(kRdmaMtus.begin(), kRdmaMtus.end(), *mtu) != kRdmaMtus.end();
        if (!rdma && *mtu < kMinEthernetMtu) {
            r.mustBe("lossless.mtu", expected, v);
            return;
        }
        p.mtu = static_cast<int>(*mtu);
    }

    void readLosslessFields(FieldReader& r, const json& o, LosslessProfile& p)
    {
        if (o.contains("mode")) {
            if (auto v = r.choice(o["mode"], "lossless.mode", kLosslessModes))
                p.mode = *v;
        }
        if (o.contains("pfc_priority"))
            readPfcPriorities(r, o["pfc_priority"], p);
        if (o.contains("ecn")) {
            if (auto v = r.boolean(o["ecn"], "lossless.ecn"))
                p.ecn = *v;
        }
        if (o.contains("dcqcn")) {
            if (auto v = r.boolean(o["dcqcn"], "lossless.dcqcn"))
                p.dcqcn = *v;
        }
        if (o.contains("trust")) {
            if (auto v = r.choice(o["trust"], "lossless.trust", kTrustModes))
                p.trust = *v;
        }
        if (o.contains("roce_dscp")) {
            if (auto v = r.integer(o["roce_dscp"], "lossless.roce_dscp", 0, 63, "a DSCP value from 0 to 63", true))
                p.roceDscp = static_cast<int>(*v);
        }
        if (o.contains("cnp_dscp")) {
            if (auto v = r.integer(o["cnp_dscp"], "lossless.cnp_dscp", 0, 63, "a DSCP value from 0 to 63", true))
                p.cnpDscp = static_cast<int>(*v);
        }
        if (o.contains("mtu"))
            readMtu(r, o["mtu"], p);
        if (o.contains("interface_mtu")) {
            if (auto v = r.integer(o["interface_mtu"], "lossless.interface_mtu", kMinEthernetMtu, kMaxEthernetMtu,
                    "an Ethernet MTU from 1500 to 9216", true))
                p.interfaceMtu = static_cast<int>(*v);
        }
    }

    void readLossless(FieldReader& r, const json& doc, PlanSpec& spec, bool fabricKnown)
    {
        if (!doc.contains("lossless"))
            return;
        if (fabricKnown && spec.fabric == Fabric::InfiniBand) {
            r.fail("lossless", "only for RoCEv2; InfiniBand is lossless by design (credit-based flow control)");
            return;
        }
        const json& o = doc["lossless"];
        if (!r.object(o, "lossless", kLosslessKeys))
            return;
        readLosslessFields(r, o, spec.lossless);
        spec.losslessGiven = true;
    }

    void readPrefix(FieldReader& r, const json& o, const char* key, Ipv4Prefix& target)
    {
        if (!o.contains(key))
            return;
        const std::string path = std::string("addressing.") + key;
        const json& v = o[key];
        if (!v.is_string()) {
            r.mustBe(path, "an IPv4 prefix like \"10.0.0.0/15\"", v);
            return;
        }
        std::string problem;
        if (auto prefix = parseIpv4Prefix(v.get<std::string>(), problem))
            target = *prefix;
        else
            r.fail(path, problem);
    }

    void readAsn(FieldReader& r, const json& o, AsnSpec& asn)
    {
        if (o.contains("scheme")) {
            if (auto v = r.choice(o["scheme"], "addressing.asn.scheme", kAsnSchemes))
                asn.scheme = *v;
        }
        if (!o.contains("base"))
            return;
        const char* expected = "a private AS number: 64512-65534 (2-byte) or 4200000000-4294967294 (4-byte)";
        const auto base = r.integer(o["base"], "addressing.asn.base", 1, kPrivateAsn4Last, expected, true);
        if (!base)
            return;
        const bool two = *base >= kPrivateAsn2First && *base <= kPrivateAsn2Last;
        const bool four = *base >= kPrivateAsn4First;
        if (!two && !four)
            r.mustBe("addressing.asn.base", expected, o["base"]);
        else
            asn.base = static_cast<std::uint32_t>(*base);
    }

    void readAddressing(FieldReader& r, const json& doc, PlanSpec& spec, bool fabricKnown)
    {
        if (!doc.contains("addressing"))
            return;
        if (fabricKnown && spec.fabric == Fabric::InfiniBand) {
            r.fail("addressing", "only for RoCEv2; an InfiniBand subnet is addressed by its subnet manager (LIDs)");
            return;
        }
        const json& o = doc["addressing"];
        if (!r.object(o, "addressing", kAddressingKeys))
            return;
        AddressingSpec& a = spec.addressing;
        if (o.contains("scheme")) {
            if (auto v = r.choice(o["scheme"], "addressing.scheme", kAddressingSchemes))
                a.scheme = *v;
        }
        readPrefix(r, o, "fabric", a.fabric);
        readPrefix(r, o, "loopbacks", a.loopbacks);
        if (o.contains("asn") && r.object(o["asn"], "addressing.asn", kAsnKeys))
            readAsn(r, o["asn"], a.asn);
        const auto lastOf = [](const Ipv4Prefix& p) { return std::uint64_t { p.address } + p.size() - 1; };
        if (a.fabric.address <= lastOf(a.loopbacks) && a.loopbacks.address <= lastOf(a.fabric))
            r.fail("addressing.loopbacks", a.loopbacks.toString() + " overlaps addressing.fabric " + a.fabric.toString()
                    + "; give the loopbacks a range of their own");
        spec.addressingGiven = true;
    }

    void readNameList(FieldReader& r, const json& v, PlanSpec& spec)
    {
        std::set<std::string> seen;
        std::vector<std::string> names;
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::string path = "node_names[" + std::to_string(i) + "]";
            const auto name = r.string(v[i], path, "a node name (a non-empty string)", false);
            names.push_back(name.value_or(""));
            if (!name)
                continue;
            if (auto problem = nodeNameProblem(*name); !problem.empty())
                r.fail(path, problem + ", got " + describeJson(v[i]));
            else if (!seen.insert(*name).second)
                r.fail(path, "\"" + *name + "\" is listed twice; node names must be unique");
        }
        spec.nodeNameList = names;
    }

    void readNodeNames(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        if (!doc.contains("node_names"))
            return;
        const json& v = doc["node_names"];
        if (v.is_array()) {
            if (v.empty())
                r.fail("node_names", "the list is empty; give the names, or a pattern like \"node%03d\"");
            else
                readNameList(r, v, spec);
            return;
        }
        if (!v.is_string()) {
            r.mustBe("node_names", "a list of names or a pattern like \"node%03d\"", v);
            return;
        }
        const auto pattern = v.get<std::string>();
        if (auto problem = nodeNamePatternProblem(pattern); !problem.empty())
            r.fail("node_names", problem + ", got " + describeJson(v));
        else
            spec.nodeNamePattern = pattern;
    }

    void readGrowTo(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        if (!doc.contains("grow_to"))
            return;
        const json& o = doc["grow_to"];
        if (!r.object(o, "grow_to", kGrowKeys))
            return;
        if (!o.contains("nodes")) {
            r.fail("grow_to.nodes", "required: the final number of nodes");
            return;
        }
        spec.growToNodes = asInt(r.integer(o["nodes"], "grow_to.nodes", 1, kMaxNodes, "a positive integer"));
    }

    void readRacks(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        if (!doc.contains("racks"))
            return;
        const json& o = doc["racks"];
        if (!r.object(o, "racks", kRackKeys))
            return;
        RackLayout& racks = spec.racks;
        if (o.contains("nodes_per_rack")) {
            if (auto v = r.integer(o["nodes_per_rack"], "racks.nodes_per_rack", 1, 1000, "a positive integer"))
                racks.nodesPerRack = static_cast<int>(*v);
        }
        if (o.contains("leaf_placement")) {
            if (auto v = r.choice(o["leaf_placement"], "racks.leaf_placement", kLeafPlacements))
                racks.leafPlacement = *v;
        }
        const std::pair<const char*, double*> distances[] = {
            { "rack_width_m", &racks.rackWidthM },
            { "in_rack_m", &racks.inRackM },
            { "slack_m", &racks.slackM },
            { "su_pitch_m", &racks.suPitchM },
            { "spine_distance_m", &racks.spineDistanceM },
            { "core_distance_m", &racks.coreDistanceM },
        };
        for (const auto& [key, target] : distances) {
            if (!o.contains(key))
                continue;
            if (auto v = r.number(o[key], std::string("racks.") + key, 0, kMaxDistanceM, "a distance in metres from 0 to 10000"))
                *target = *v;
        }
        spec.racksGiven = true;
    }

    void checkGpus(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        if (!spec.gpus || !spec.gpusPerNode)
            return;
        const long long need = (*spec.gpus + *spec.gpusPerNode - 1) / *spec.gpusPerNode;
        if (!doc.contains("nodes")) {
            spec.nodes = static_cast<int>(std::min(need, kMaxNodes));
            return;
        }
        if (spec.nodes > 0 && spec.nodes != need) {
            r.fail("gpus", std::to_string(*spec.gpus) + " GPUs at " + std::to_string(*spec.gpusPerNode)
                    + " per node need " + std::to_string(need) + " nodes, but nodes is " + std::to_string(spec.nodes));
        }
    }

    void crossCheck(FieldReader& r, const json& doc, PlanSpec& spec)
    {
        checkGpus(r, doc, spec);
        if (spec.growToNodes && spec.nodes > 0 && *spec.growToNodes <= spec.nodes) {
            r.fail("grow_to.nodes", "must be more than nodes (" + std::to_string(spec.nodes) + "), got "
                    + std::to_string(*spec.growToNodes));
        }
        const int needed = std::max(spec.nodes, spec.growToNodes.value_or(0));
        const auto listed = static_cast<int>(spec.nodeNameList.size());
        if (listed > 0 && listed < needed) {
            r.fail("node_names", "lists " + std::to_string(listed) + " names, but the plan needs " + std::to_string(needed)
                    + (needed > spec.nodes ? " (grow_to.nodes)" : ""));
        }
    }

} // namespace

bool isRdmaMtu(int mtu)
{
    return std::find(kRdmaMtus.begin(), kRdmaMtus.end(), mtu) != kRdmaMtus.end();
}

int interfaceMtu(const LosslessProfile& profile)
{
    if (profile.interfaceMtu)
        return *profile.interfaceMtu;
    return isRdmaMtu(profile.mtu) ? kDefaultInterfaceMtu : profile.mtu;
}

int rdmaMtu(const LosslessProfile& profile)
{
    if (isRdmaMtu(profile.mtu))
        return profile.mtu;
    const int room = profile.mtu - kRoceHeaderBytes;
    for (auto it = kRdmaMtus.rbegin(); it != kRdmaMtus.rend(); ++it) {
        if (*it <= room)
            return *it;
    }
    return 0;
}

int roceTrafficClass(const LosslessProfile& profile)
{
    return (profile.roceDscp << 2) | (profile.ecn ? 2 : 0);
}

std::string formatIpv4(std::uint32_t a)
{
    return std::to_string(a >> 24) + '.' + std::to_string((a >> 16) & 0xFF) + '.' + std::to_string((a >> 8) & 0xFF) + '.'
        + std::to_string(a & 0xFF);
}

std::optional<std::uint32_t> parseIpv4(std::string_view text)
{
    std::uint32_t out = 0;
    for (int i = 0; i < 4; ++i) {
        if (i > 0) {
            if (text.empty() || text.front() != '.')
                return std::nullopt;
            text.remove_prefix(1);
        }
        std::size_t n = 0;
        while (n < text.size() && n < 4 && text[n] >= '0' && text[n] <= '9')
            ++n;
        // No leading zeros: "010" reads as octal in some tools and decimal in others.
        if (n == 0 || n > 3 || (n > 1 && text[0] == '0'))
            return std::nullopt;
        const int octet = std::stoi(std::string(text.substr(0, n)));
        if (octet > 255)
            return std::nullopt;
        out = (out << 8) | static_cast<std::uint32_t>(octet);
        text.remove_prefix(n);
    }
    if (!text.empty())
        return std::nullopt;
    return out;
}

std::string Ipv4Prefix::toString() const
{
    return formatIpv4(address) + '/' + std::to_string(length);
}

std::optional<Ipv4Prefix> parseIpv4Prefix(std::string_view text, std::string& problem)
{
    const std::string shown = "\"" + std::string(text) + "\"";
    const auto slash = text.find('/');
    if (text.find(':') != std::string_view::npos) {
        problem = "only IPv4 prefixes are planned, got " + shown;
        return std::nullopt;
    }
    const auto address = parseIpv4(text.substr(0, slash));
    int length = -1;
    if (slash != std::string_view::npos) {
        const std::string_view digits = text.substr(slash + 1);
        if (!digits.empty() && digits.size() <= 2 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
            length = std::stoi(std::string(digits));
    }
    if (!address || length < 0 || length > 32) {
        problem = "must be an IPv4 prefix like \"10.0.0.0/15\", got " + shown;
        return std::nullopt;
    }
    const std::uint32_t mask = length == 0 ? 0 : ~std::uint32_t { 0 } << (32 - length);
    if ((*address & ~mask) != 0) {
        problem = shown + " has bits set past the prefix length; the network is " + Ipv4Prefix { *address & mask, length }.toString();
        return std::nullopt;
    }
    return Ipv4Prefix { *address, length };
}

Result<PlanSpec> parsePlanSpec(const json& doc, const std::string& source)
{
    FieldReader r(source);
    PlanSpec spec;
    if (!doc.is_object()) {
        r.fail("(top level)", "must be a JSON object, got " + jsonTypeName(doc));
        return r.errors();
    }
    r.checkKeys(doc, "", kTopKeys);
    bool fabricKnown = false;
    readFabric(r, doc, spec, fabricKnown);
    readSize(r, doc, spec);
    readHardware(r, doc, spec);
    readLink(r, doc, spec, fabricKnown);
    readShape(r, doc, spec);
    readLossless(r, doc, spec, fabricKnown);
    readNodeNames(r, doc, spec);
    readGrowTo(r, doc, spec);
    readRacks(r, doc, spec);
    readAddressing(r, doc, spec, fabricKnown);
    crossCheck(r, doc, spec);
    if (!r.errors().empty())
        return r.errors();
    return spec;
}

Result<PlanSpec> parsePlanSpecText(std::string_view text, const std::string& source)
{
    auto doc = parseJsonStrict(text, source, "SPEC_SYNTAX", "SPEC_FIELD");
    if (!doc)
        return doc.errors();
    return parsePlanSpec(*doc, source);
}

} // namespace railyard::core
