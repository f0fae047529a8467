// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/plan_spec.h"

#include "core/json_text.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>

// Ratios, node names and the spec as JSON. The reader is in plan_spec_parse.cpp.

namespace railyard::core {

using namespace detail;

namespace {

    using nlohmann::json;

    std::string_view trim(std::string_view text)
    {
        while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
            text.remove_prefix(1);
        while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
            text.remove_suffix(1);
        return text;
    }

    std::optional<double> parsePositive(std::string_view text)
    {
        text = trim(text);
        double value = 0;
        const auto res = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
            return std::nullopt;
        if (!std::isfinite(value) || value <= 0)
            return std::nullopt;
        return value;
    }

    /// A node name pattern split around its one number field.
    struct NamePattern {
        std::string prefix;
        std::string suffix;
        int width = 0; ///< zero-padded width; 0: no padding
    };

    /// Reads "%d" or "%0Nd" at `text[i]` (which is '%'); returns the width and advances `i`.
    std::optional<int> readField(std::string_view text, std::size_t& i)
    {
        std::size_t j = i + 1;
        int width = 0;
        if (j < text.size() && text[j] == '0') {
            ++j;
            if (j >= text.size() || text[j] < '1' || text[j] > '9')
                return std::nullopt;
            width = text[j] - '0';
            ++j;
        }
        if (j >= text.size() || text[j] != 'd')
            return std::nullopt;
        i = j;
        return width;
    }

    /// Splits a pattern; sets `problem` when it is not exactly one number field.
    NamePattern splitPattern(std::string_view text, std::string& problem)
    {
        NamePattern out;
        int fields = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            std::string& part = fields == 0 ? out.prefix : out.suffix;
            if (text[i] != '%') {
                part += text[i];
                continue;
            }
            if (i + 1 < text.size() && text[i + 1] == '%') {
                part += '%';
                ++i;
                continue;
            }
            const auto width = readField(text, i);
            if (!width) {
                problem = "only %d or %0Nd (N from 1 to 9) may follow '%'";
                return out;
            }
            out.width = *width;
            ++fields;
        }
        if (fields != 1)
            problem = "a pattern needs exactly one %d or %0Nd (e.g. \"node%03d\")";
        return out;
    }

    std::string formatName(const NamePattern& pattern, int number)
    {
        std::string digits = std::to_string(number);
        if (static_cast<int>(digits.size()) < pattern.width)
            digits.insert(0, static_cast<std::size_t>(pattern.width) - digits.size(), '0');
        return pattern.prefix + digits + pattern.suffix;
    }

    json linkJson(const PlanSpec& spec)
    {
        json link = json::object();
        if (spec.fabric == Fabric::InfiniBand) {
            if (spec.link.generation)
                link["generation"] = std::string(toString(*spec.link.generation));
            link["width"] = spec.link.width;
            return link;
        }
        if (spec.link.speedGbps)
            link["speed_gbps"] = *spec.link.speedGbps;
        if (spec.link.lanes)
            link["lanes"] = *spec.link.lanes;
        return link;
    }

    json losslessJson(const LosslessProfile& p)
    {
        json out = json::object();
        out["mode"] = p.mode;
        if (p.pfcPriorities.size() == 1)
            out["pfc_priority"] = p.pfcPriorities.front();
        else
            out["pfc_priority"] = p.pfcPriorities;
        out["ecn"] = p.ecn;
        out["dcqcn"] = p.dcqcn;
        out["trust"] = p.trust;
        out["roce_dscp"] = p.roceDscp;
        out["cnp_dscp"] = p.cnpDscp;
        out["mtu"] = p.mtu;
        if (p.interfaceMtu)
            out["interface_mtu"] = *p.interfaceMtu;
        return out;
    }

    json addressingJson(const AddressingSpec& a)
    {
        return json { { "scheme", a.scheme }, { "fabric", a.fabric.toString() }, { "loopbacks", a.loopbacks.toString() },
            { "asn", json { { "scheme", a.asn.scheme }, { "base", a.asn.base } } } };
    }

    json racksJson(const RackLayout& r)
    {
        return json {
            { "nodes_per_rack", r.nodesPerRack },
            { "leaf_placement", r.leafPlacement },
            { "rack_width_m", r.rackWidthM },
            { "in_rack_m", r.inRackM },
            { "slack_m", r.slackM },
            { "su_pitch_m", r.suPitchM },
            { "spine_distance_m", r.spineDistanceM },
            { "core_distance_m", r.coreDistanceM },
        };
    }

    json tiersJson(TierMode tiers)
    {
        switch (tiers) {
        case TierMode::Two: return 2;
        case TierMode::Three: return 3;
        case TierMode::Auto: break;
        }
        return "auto";
    }

    void putIfSet(json& out, const char* key, const std::string& value)
    {
        if (!value.empty())
            out[key] = value;
    }

    template <class T>
    void putIfSet(json& out, const char* key, const std::optional<T>& value)
    {
        if (value)
            out[key] = *value;
    }

    void putHardware(json& out, const PlanSpec& spec)
    {
        out["node_type"] = spec.nodeType;
        putIfSet(out, "gpus_per_node", spec.gpusPerNode);
        putIfSet(out, "rails", spec.rails);
        putIfSet(out, "nic", spec.nic);
        out["link"] = linkJson(spec);
        putIfSet(out, "leaf_switch", spec.leafSwitch);
        putIfSet(out, "spine_switch", spec.spineSwitch);
        putIfSet(out, "core_switch", spec.coreSwitch);
    }

    void putShape(json& out, const PlanSpec& spec)
    {
        putIfSet(out, "su_size", spec.suSize);
        out["oversubscription"] = json {
            { "leaf", spec.leafOversubscription.toString() },
            { "spine", spec.spineOversubscription.toString() },
        };
        out["tiers"] = tiersJson(spec.tiers);
        out["reserved_leaf_ports"] = spec.reservedLeafPorts;
        out["management_ports"] = spec.managementPorts;
        out["planes"] = spec.planes;
    }

} // namespace

std::string Ratio::toString() const
{
    return shortestNumber(down) + ":" + shortestNumber(up);
}

std::optional<Ratio> parseRatio(std::string_view text)
{
    const auto colon = text.find(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    const auto down = parsePositive(text.substr(0, colon));
    const auto up = parsePositive(text.substr(colon + 1));
    if (!down || !up)
        return std::nullopt;
    return Ratio { *down, *up };
}

std::string nodeNameProblem(std::string_view name)
{
    if (name.empty())
        return "a node name may not be empty";
    for (const char ch : name) {
        const auto c = static_cast<unsigned char>(ch);
        if (c <= 0x20 || c == 0x7f || c == '/' || c == '"' || c == '\\')
            return "a node name may not contain '/', '\"', '\\', spaces or control characters";
    }
    return {};
}

std::string nodeNamePatternProblem(std::string_view pattern)
{
    std::string problem;
    const NamePattern split = splitPattern(pattern, problem);
    if (!problem.empty())
        return problem;
    return nodeNameProblem(formatName(split, 1));
}

std::string nodeName(const PlanSpec& spec, int index)
{
    if (index >= 0 && static_cast<std::size_t>(index) < spec.nodeNameList.size())
        return spec.nodeNameList[static_cast<std::size_t>(index)];
    std::string problem;
    const NamePattern split = splitPattern(spec.nodeNamePattern, problem);
    if (!problem.empty()) // an unchecked spec: fall back to the default form
        return formatName(NamePattern { "node", "", 3 }, index + 1);
    return formatName(split, index + 1);
}

json toJson(const PlanSpec& spec)
{
    json out = json::object();
    out["name"] = spec.name;
    out["fabric"] = std::string(toString(spec.fabric));
    if (spec.nodes > 0)
        out["nodes"] = spec.nodes;
    putIfSet(out, "gpus", spec.gpus);
    putHardware(out, spec);
    putShape(out, spec);
    if (spec.fabric == Fabric::RoCEv2)
        out["lossless"] = losslessJson(spec.lossless);
    if (!spec.nodeNameList.empty())
        out["node_names"] = spec.nodeNameList;
    else
        out["node_names"] = spec.nodeNamePattern;
    if (spec.growToNodes)
        out["grow_to"] = json { { "nodes", *spec.growToNodes } };
    out["racks"] = racksJson(spec.racks);
    if (spec.addressingGiven)
        out["addressing"] = addressingJson(spec.addressing);
    return out;
}

} // namespace railyard::core
