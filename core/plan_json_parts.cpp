// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/plan_json_parts.h"

#include "core/plan_json.h"

#include <algorithm>
#include <array>
#include <limits>

namespace railyard::core::detail {

namespace {

    using nlohmann::json;

    constexpr long long kMaxCount = std::numeric_limits<long long>::max();
    constexpr long long kMaxInt = std::numeric_limits<int>::max();
    constexpr std::array<std::string_view, 5> kMediumNames { "dac", "acc", "aoc", "mmf", "smf" };

    std::string join(const std::string& path, std::string_view key)
    {
        return path + "." + std::string(key);
    }

    const json* member(FieldReader& r, const json& obj, const std::string& path, const char* key, bool required)
    {
        const auto it = obj.find(key);
        if (it != obj.end())
            return &*it;
        if (required)
            r.fail(join(path, key), "required");
        return nullptr;
    }

    json switchCountsJson(const SwitchCounts& c)
    {
        return json { { "leaf", c.leaf }, { "spine", c.spine }, { "core", c.core }, { "total", c.total() } };
    }

    json cableCountsJson(const CableCounts& c)
    {
        return json { { "node_leaf", c.nodeLeaf }, { "leaf_spine", c.leafSpine }, { "spine_core", c.spineCore },
            { "total", c.total() } };
    }

    json portJson(const PortRate& port)
    {
        json out { { "signaling_gbps", port.signalingGbps }, { "data_gbps", port.dataGbps }, { "lanes", port.lanes } };
        if (port.generation)
            out["generation"] = std::string(toString(*port.generation));
        return out;
    }

    void putShape(json& out, const Summary& s)
    {
        out["planes"] = s.planes;
        out["su_size"] = s.suSize;
        out["leaves_per_rail"] = s.leavesPerRail;
        out["pods"] = s.pods;
        out["sus_per_pod"] = s.susPerPod;
        out["leaf_downlinks"] = s.leafDownlinks;
        out["leaf_uplinks"] = s.leafUplinks;
        out["spines_per_group"] = s.spinesPerGroup;
        out["links_per_leaf_spine"] = s.linksPerLeafSpine;
        out["spine_downlinks"] = s.spineDownlinks;
        out["spine_uplinks"] = s.spineUplinks;
        out["links_per_spine_core"] = s.linksPerSpineCore;
    }

    json impactJson(const FailureImpact& f)
    {
        return json { { "element", f.element }, { "bandwidth_lost_gbps", f.bandwidthLostGbps },
            { "nodes_cut_off", f.nodesCutOff }, { "node_rails_lost", f.nodeRailsLost },
            { "rail_gbps_left", f.railGbpsLeft } };
    }

    int toInt(std::optional<long long> v)
    {
        return v ? static_cast<int>(*v) : 0;
    }

    SwitchCounts readSwitchCounts(FieldReader& r, const json& obj, const std::string& path)
    {
        SwitchCounts c;
        if (!obj.is_object()) {
            r.fail(path, "must be an object");
            return c;
        }
        c.leaf = memberInt(r, obj, path, "leaf").value_or(0);
        c.spine = memberInt(r, obj, path, "spine").value_or(0);
        c.core = memberInt(r, obj, path, "core").value_or(0);
        return c;
    }

    CableCounts readCableCounts(FieldReader& r, const json& obj, const std::string& path)
    {
        CableCounts c;
        if (!obj.is_object()) {
            r.fail(path, "must be an object");
            return c;
        }
        c.nodeLeaf = memberInt(r, obj, path, "node_leaf").value_or(0);
        c.leafSpine = memberInt(r, obj, path, "leaf_spine").value_or(0);
        c.spineCore = memberInt(r, obj, path, "spine_core").value_or(0);
        return c;
    }

    PortRate readPort(FieldReader& r, const json& obj, Fabric fabric)
    {
        PortRate port;
        port.fabric = fabric;
        if (!obj.is_object()) {
            r.fail("summary.port", "must be an object");
            return port;
        }
        port.signalingGbps = memberNumber(r, obj, "summary.port", "signaling_gbps").value_or(0);
        port.dataGbps = memberNumber(r, obj, "summary.port", "data_gbps").value_or(0);
        port.lanes = toInt(memberInt(r, obj, "summary.port", "lanes"));
        if (auto g = memberString(r, obj, "summary.port", "generation", false)) {
            port.generation = parseIbGeneration(*g);
            if (!port.generation)
                r.fail("summary.port.generation", "unknown InfiniBand generation \"" + *g + "\"");
        }
        return port;
    }

    void readShape(FieldReader& r, const json& v, Summary& s)
    {
        const std::pair<const char*, int*> fields[] = {
            { "planes", &s.planes }, { "su_size", &s.suSize }, { "leaves_per_rail", &s.leavesPerRail },
            { "pods", &s.pods }, { "sus_per_pod", &s.susPerPod }, { "leaf_downlinks", &s.leafDownlinks },
            { "leaf_uplinks", &s.leafUplinks }, { "spines_per_group", &s.spinesPerGroup },
            { "links_per_leaf_spine", &s.linksPerLeafSpine }, { "spine_downlinks", &s.spineDownlinks },
            { "spine_uplinks", &s.spineUplinks }, { "links_per_spine_core", &s.linksPerSpineCore },
            { "rack_units", &s.rackUnits },
        };
        for (const auto& [key, target] : fields) {
            if (auto n = memberInt(r, v, "summary", key, false))
                *target = static_cast<int>(*n);
        }
        s.assemblies = memberInt(r, v, "summary", "assemblies", false).value_or(0);
        s.transceivers = memberInt(r, v, "summary", "transceivers", false).value_or(0);
        s.lidsPerSubnet = memberInt(r, v, "summary", "lids_per_subnet", false).value_or(0);
        s.powerW = memberNumber(r, v, "summary", "power_w", false).value_or(0);
        s.costUsd = memberNumber(r, v, "summary", "cost_usd", false);
    }

    void readFinal(FieldReader& r, const json& v, Summary& s)
    {
        const json* fin = member(r, v, "summary", "final", false);
        if (!fin)
            return;
        if (!fin->is_object()) {
            r.fail("summary.final", "must be an object");
            return;
        }
        s.finalNodes = toInt(memberInt(r, *fin, "summary.final", "nodes"));
        if (const json* sw = member(r, *fin, "summary.final", "switches", true))
            s.finalSwitches = readSwitchCounts(r, *sw, "summary.final.switches");
        if (const json* c = member(r, *fin, "summary.final", "cables", false))
            s.finalCables = readCableCounts(r, *c, "summary.final.cables");
    }

    std::vector<FailureImpact> readImpacts(FieldReader& r, const json& v, const std::string& path)
    {
        std::vector<FailureImpact> out;
        if (!v.is_array()) {
            r.fail(path, "must be a list");
            return out;
        }
        for (std::size_t i = 0; i < v.size(); ++i) {
            const std::string p = path + "[" + std::to_string(i) + "]";
            const json& row = v[i];
            if (!row.is_object()) {
                r.fail(p, "must be an object");
                continue;
            }
            FailureImpact f;
            f.element = memberString(r, row, p, "element").value_or("");
            f.bandwidthLostGbps = memberNumber(r, row, p, "bandwidth_lost_gbps").value_or(0);
            f.nodesCutOff = toInt(memberInt(r, row, p, "nodes_cut_off"));
            f.nodeRailsLost = toInt(memberInt(r, row, p, "node_rails_lost"));
            if (const json* left = member(r, row, p, "rail_gbps_left", false); left && !left->is_array()) {
                r.fail(p + ".rail_gbps_left", "must be a list");
            } else if (left) {
                for (std::size_t k = 0; k < left->size(); ++k)
                    f.railGbpsLeft.push_back(r.number((*left)[k], p + ".rail_gbps_left", -1e300, 1e300, "a number").value_or(0));
            }
            out.push_back(std::move(f));
        }
        return out;
    }

} // namespace

std::string_view mediumName(Medium medium)
{
    return kMediumNames.at(static_cast<std::size_t>(medium));
}

std::optional<Medium> mediumFromName(std::string_view name)
{
    for (std::size_t i = 0; i < kMediumNames.size(); ++i) {
        if (kMediumNames[i] == name)
            return static_cast<Medium>(i);
    }
    return std::nullopt;
}

std::optional<Severity> severityFromName(std::string_view name)
{
    for (auto s : { Severity::Error, Severity::Warning, Severity::Info }) {
        if (toString(s) == name)
            return s;
    }
    return std::nullopt;
}

std::optional<SwitchTier> switchTierFromName(std::string_view name)
{
    for (auto t : { SwitchTier::Leaf, SwitchTier::Spine, SwitchTier::Core }) {
        if (toString(t) == name)
            return t;
    }
    return std::nullopt;
}

std::optional<LinkTier> linkTierFromName(std::string_view name)
{
    for (auto t : { LinkTier::NodeLeaf, LinkTier::LeafSpine, LinkTier::SpineCore }) {
        if (toString(t) == name)
            return t;
    }
    return std::nullopt;
}

json analysisJson(const Analysis& a)
{
    json out = json::object();
    out["connected"] = a.connected;
    out["components"] = a.components;
    out["hops_same_leaf"] = a.hopsSameLeaf;
    out["hops_same_rail_across_su"] = a.hopsSameRailAcrossSu;
    out["hops_across_rails"] = a.hopsAcrossRails;
    out["hops_across_pods"] = a.hopsAcrossPods;
    out["leaf_paths_switch"] = a.leafPathsSwitch;
    out["leaf_paths_link"] = a.leafPathsLink;
    out["free_leaf_downlinks"] = a.freeLeafDownlinks;
    out["free_leaf_ports"] = a.freeLeafPorts;
    out["free_spine_ports"] = a.freeSpinePorts;
    out["free_core_ports"] = a.freeCorePorts;
    out["worst_switch"] = json::array();
    for (const auto& f : a.worstSwitch)
        out["worst_switch"].push_back(impactJson(f));
    out["worst_cable"] = json::array();
    for (const auto& f : a.worstCable)
        out["worst_cable"].push_back(impactJson(f));
    return out;
}

std::optional<long long> memberInt(FieldReader& r, const json& obj, const std::string& path, const char* key,
    bool required)
{
    const json* v = member(r, obj, path, key, required);
    return v ? r.integer(*v, join(path, key), -kMaxCount, kMaxCount, "an integer") : std::nullopt;
}

std::optional<double> memberNumber(FieldReader& r, const json& obj, const std::string& path, const char* key,
    bool required)
{
    const json* v = member(r, obj, path, key, required);
    constexpr double kHuge = std::numeric_limits<double>::max();
    return v ? r.number(*v, join(path, key), -kHuge, kHuge, "a number") : std::nullopt;
}

std::optional<std::string> memberString(FieldReader& r, const json& obj, const std::string& path, const char* key,
    bool required)
{
    const json* v = member(r, obj, path, key, required);
    return v ? r.string(*v, join(path, key), "a string", true) : std::nullopt;
}

std::optional<bool> memberBool(FieldReader& r, const json& obj, const std::string& path, const char* key,
    bool required)
{
    const json* v = member(r, obj, path, key, required);
    return v ? r.boolean(*v, join(path, key)) : std::nullopt;
}

Summary readSummary(FieldReader& r, const json& v, Fabric fabric)
{
    Summary s;
    if (!v.is_object()) {
        r.mustBe("summary", "an object", v);
        return s;
    }
    s.nodes = toInt(memberInt(r, v, "summary", "nodes"));
    s.gpus = memberInt(r, v, "summary", "gpus").value_or(0);
    s.rails = toInt(memberInt(r, v, "summary", "rails"));
    s.suCount = toInt(memberInt(r, v, "summary", "su_count"));
    s.tiers = toInt(memberInt(r, v, "summary", "tiers"));
    if (const json* sw = member(r, v, "summary", "switches", true))
        s.switches = readSwitchCounts(r, *sw, "summary.switches");
    if (const json* c = member(r, v, "summary", "cables", true))
        s.cables = readCableCounts(r, *c, "summary.cables");
    if (const json* p = member(r, v, "summary", "port", true))
        s.port = readPort(r, *p, fabric);
    s.perGpuGbps = memberNumber(r, v, "summary", "per_gpu_gbps").value_or(0);
    s.bisectionGbps = memberNumber(r, v, "summary", "bisection_gbps").value_or(0);
    if (const json* o = member(r, v, "summary", "oversubscription", true); o && o->is_object()) {
        s.leafOversubscription = memberNumber(r, *o, "summary.oversubscription", "leaf").value_or(1);
        s.spineOversubscription = memberNumber(r, *o, "summary.oversubscription", "spine").value_or(1);
    } else if (o) {
        r.fail("summary.oversubscription", "must be an object");
    }
    readShape(r, v, s);
    readFinal(r, v, s);
    return s;
}

Analysis readAnalysis(FieldReader& r, const json& v)
{
    Analysis a;
    if (!v.is_object()) {
        r.mustBe("analysis", "an object", v);
        return a;
    }
    a.connected = memberBool(r, v, "analysis", "connected", false).value_or(true);
    const std::pair<const char*, int*> ints[] = {
        { "components", &a.components }, { "hops_same_leaf", &a.hopsSameLeaf },
        { "hops_same_rail_across_su", &a.hopsSameRailAcrossSu }, { "hops_across_rails", &a.hopsAcrossRails },
        { "hops_across_pods", &a.hopsAcrossPods },
    };
    for (const auto& [key, target] : ints) {
        if (auto n = memberInt(r, v, "analysis", key, false))
            *target = static_cast<int>(std::clamp(*n, -kMaxInt, kMaxInt));
    }
    const std::pair<const char*, long long*> counts[] = {
        { "leaf_paths_switch", &a.leafPathsSwitch }, { "leaf_paths_link", &a.leafPathsLink },
        { "free_leaf_downlinks", &a.freeLeafDownlinks }, { "free_leaf_ports", &a.freeLeafPorts },
        { "free_spine_ports", &a.freeSpinePorts }, { "free_core_ports", &a.freeCorePorts },
    };
    for (const auto& [key, target] : counts) {
        if (auto n = memberInt(r, v, "analysis", key, false))
            *target = *n;
    }
    if (const json* w = member(r, v, "analysis", "worst_switch", false))
        a.worstSwitch = readImpacts(r, *w, "analysis.worst_switch");
    if (const json* w = member(r, v, "analysis", "worst_cable", false))
        a.worstCable = readImpacts(r, *w, "analysis.worst_cable");
    return a;
}

Finding readFinding(FieldReader& r, const json& v, const std::string& path)
{
    Finding f;
    if (!v.is_object()) {
        r.mustBe(path, "an object", v);
        return f;
    }
    if (auto s = memberString(r, v, path, "severity")) {
        if (auto sev = severityFromName(*s))
            f.severity = *sev;
        else
            r.mustBe(path + ".severity", "\"error\", \"warning\" or \"info\"", v["severity"]);
    }
    f.code = memberString(r, v, path, "code").value_or("");
    f.message = memberString(r, v, path, "message").value_or("");
    f.where = memberString(r, v, path, "where", false).value_or("");
    return f;
}

} // namespace railyard::core::detail

namespace railyard::core {

using namespace detail;
using nlohmann::json;

json toJson(const Finding& finding)
{
    return json { { "severity", std::string(toString(finding.severity)) }, { "code", finding.code },
        { "message", finding.message }, { "where", finding.where } };
}

json toJson(const Summary& s)
{
    json out = json::object();
    out["nodes"] = s.nodes;
    out["gpus"] = s.gpus;
    out["rails"] = s.rails;
    out["su_count"] = s.suCount;
    out["tiers"] = s.tiers;
    out["switches"] = switchCountsJson(s.switches);
    out["cables"] = cableCountsJson(s.cables);
    out["port"] = portJson(s.port);
    out["per_gpu_gbps"] = s.perGpuGbps;
    out["bisection_gbps"] = s.bisectionGbps;
    out["oversubscription"] = json { { "leaf", s.leafOversubscription }, { "spine", s.spineOversubscription } };
    putShape(out, s);
    out["assemblies"] = s.assemblies;
    out["transceivers"] = s.transceivers;
    if (s.port.fabric == Fabric::InfiniBand)
        out["lids_per_subnet"] = s.lidsPerSubnet;
    out["power_w"] = s.powerW;
    out["rack_units"] = s.rackUnits;
    if (s.costUsd)
        out["cost_usd"] = *s.costUsd;
    if (s.finalSwitches) {
        json fin { { "nodes", s.finalNodes }, { "switches", switchCountsJson(*s.finalSwitches) } };
        if (s.finalCables)
            fin["cables"] = cableCountsJson(*s.finalCables);
        out["final"] = std::move(fin);
    }
    return out;
}

} // namespace railyard::core
