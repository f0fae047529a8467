// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/catalog_json.h"

#include "core/catalog_reader.h"
#include "core/text.h"

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <set>

namespace railyard::core::detail {

namespace {

    using nlohmann::json;

    constexpr int kMaxCount = 1000000;
    constexpr int kMaxPortsPerCage = 8;
    constexpr int kSchemaVersion = 1;

    constexpr std::string_view kSections[] = { "schema", "switches", "nics", "node_types", "cables", "transceivers",
        "defaults" };

    /// Fields every entry with an id has.
    template <class T>
    void readCommon(ObjectReader& r, T& out, const std::string& sourceName)
    {
        out.name = r.text("name", Need::Required);
        if constexpr (requires { out.part; })
            out.part = r.text("part", Need::Optional);
        out.priceUsd = r.optionalNumber("price_usd");
        out.reference = r.text("reference", Need::Optional);
        out.note = r.text("note", Need::Optional);
        out.source = sourceName;
    }

    /// Reads the id first so that every later error names it.
    std::string readId(ObjectReader& r, std::span<const std::string_view> known)
    {
        std::string id = r.id("id", Need::Required);
        r.context().setId(id);
        r.rejectUnknown(known);
        return id;
    }

    void checkModeFits(ObjectReader& r, const SwitchModel& s, std::size_t i)
    {
        const SwitchMode& m = s.modes[i];
        const std::string path = elementPath("modes", i);
        if (m.ports > s.cages * m.portsPerCage) {
            r.context().fail(path + ".ports",
                "must be at most cages x ports_per_cage = " + std::to_string(s.cages * m.portsPerCage) + ", got "
                    + std::to_string(m.ports));
        } else if (s.maxLogicalPorts > 0 && m.ports > s.maxLogicalPorts) {
            r.context().fail(path + ".ports",
                "exceeds max_logical_ports " + std::to_string(s.maxLogicalPorts) + ", got " + std::to_string(m.ports));
        }
        for (std::size_t j = 0; j < i; ++j) {
            if (s.modes[j].rate == m.rate)
                r.context().fail(path + ".rate", m.rate.label() + " is listed twice (also modes[" + std::to_string(j) + "])");
        }
    }

    void readModes(ObjectReader& r, SwitchModel& s)
    {
        static constexpr std::string_view kKeys[] = { "rate", "ports", "ports_per_cage" };
        const json* list = r.array("modes", Need::Required);
        if (!list)
            return;
        for (std::size_t i = 0; i < list->size(); ++i) {
            ObjectReader m((*list)[i], elementPath("modes", i), r.context());
            m.rejectUnknown(kKeys);
            SwitchMode mode;
            const json* rate = m.find("rate");
            if (!rate && m.ok())
                r.context().fail(m.field("rate"), "required field is missing");
            else if (rate) {
                if (auto pr = readRate(*rate, m.field("rate"), s.fabric, r.context()))
                    mode.rate = *pr;
            }
            mode.ports = m.integer("ports", Need::Required, 0, 1, kMaxCount);
            mode.portsPerCage = m.integer("ports_per_cage", Need::Optional, 1, 1, kMaxPortsPerCage);
            if (r.context().failed())
                return;
            s.modes.push_back(mode);
            checkModeFits(r, s, i);
        }
    }

    SwitchModel readSwitch(ObjectReader& r, const std::string& sourceName)
    {
        static constexpr std::string_view kKeys[] = { "id", "name", "vendor", "part", "fabric", "cages", "cage_form",
            "cage_ports", "modes", "max_logical_ports", "power_w", "rack_units", "price_usd", "reference", "note" };
        SwitchModel s;
        s.id = readId(r, kKeys);
        readCommon(r, s, sourceName);
        s.vendor = r.text("vendor", Need::Optional);
        s.fabric = r.fabric("fabric").value_or(Fabric::InfiniBand);
        s.cages = r.integer("cages", Need::Required, 0, 1, kMaxCount);
        s.cageForm = r.text("cage_form", Need::Required);
        s.cagePorts = r.integer("cage_ports", Need::Optional, 1, 1, kMaxPortsPerCage);
        s.maxLogicalPorts = r.integer("max_logical_ports", Need::Optional, 0, 0, kMaxCount);
        s.powerW = r.number("power_w", Need::Optional, 0, true);
        s.rackUnits = r.integer("rack_units", Need::Optional, 1, 1, 64);
        if (!r.context().failed())
            readModes(r, s);
        return s;
    }

    std::vector<PortRate> readRates(ObjectReader& r, std::string_view key, Fabric fabric, double maxGbps)
    {
        std::vector<PortRate> out;
        const json* list = r.array(key, Need::Optional);
        for (std::size_t i = 0; list && i < list->size() && !r.context().failed(); ++i) {
            const std::string path = elementPath(std::string(key), i);
            auto rate = readRate((*list)[i], path, fabric, r.context());
            if (!rate)
                break;
            if (rate->dataGbps > maxGbps + 1e-9)
                r.context().fail(path, rate->label() + " exceeds max_gbps " + std::to_string(static_cast<int>(maxGbps)));
            for (const auto& earlier : out) {
                if (earlier == *rate)
                    r.context().fail(path, rate->label() + " is listed twice");
            }
            out.push_back(*rate);
        }
        return out;
    }

    NicModel readNic(ObjectReader& r, const std::string& sourceName)
    {
        static constexpr std::string_view kKeys[] = { "id", "name", "part", "ib_rates", "ethernet_rates", "max_gbps",
            "native_ethernet_lanes", "cage_form", "power_w", "price_usd", "reference", "note" };
        NicModel n;
        n.id = readId(r, kKeys);
        readCommon(r, n, sourceName);
        n.maxGbps = r.number("max_gbps", Need::Required, 0, false);
        n.nativeEthernetLanes = r.integer("native_ethernet_lanes", Need::Optional, 4, 1, 8);
        if (n.nativeEthernetLanes == 3 || (n.nativeEthernetLanes > 4 && n.nativeEthernetLanes != 8))
            r.context().fail("native_ethernet_lanes", "must be 1, 2, 4 or 8, got " + std::to_string(n.nativeEthernetLanes));
        n.cageForm = r.text("cage_form", Need::Required);
        n.powerW = r.number("power_w", Need::Optional, 0, true);
        if (r.context().failed())
            return n;
        n.ibRates = readRates(r, "ib_rates", Fabric::InfiniBand, n.maxGbps);
        n.ethernetRates = readRates(r, "ethernet_rates", Fabric::RoCEv2, n.maxGbps);
        if (!r.context().failed() && n.ibRates.empty() && n.ethernetRates.empty())
            r.context().fail("ib_rates", "a NIC needs at least one rate in ib_rates or ethernet_rates");
        return n;
    }

    void readRailMap(ObjectReader& r, NodeType& t)
    {
        const json* list = r.array("rail_map", Need::Optional);
        if (!list || r.context().failed())
            return;
        if (!list->empty() && static_cast<int>(list->size()) != t.rails) {
            r.context().fail("rail_map",
                "has " + std::to_string(list->size()) + " entries, but rails is " + std::to_string(t.rails),
                "give one device (mlx5_N) or PCI address per rail, rail 0 first");
            return;
        }
        for (std::size_t i = 0; i < list->size(); ++i) {
            const json& v = (*list)[i];
            if (!v.is_string() || v.get<std::string>().empty()) {
                r.context().fail(elementPath("rail_map", i), "must be a non-empty string, got " + describeValue(v));
                return;
            }
            for (const auto& earlier : t.railMap) {
                if (earlier == v.get<std::string>())
                    r.context().fail(elementPath("rail_map", i), describeValue(v) + " is listed twice");
            }
            t.railMap.push_back(v.get<std::string>());
        }
    }

    NodeType readNodeType(ObjectReader& r, const std::string& sourceName)
    {
        static constexpr std::string_view kKeys[] = { "id", "name", "gpus", "rails", "nic", "rails_per_cage",
            "cage_form", "flat_top_transceivers", "rail_map", "power_w", "rack_units", "price_usd", "reference",
            "note" };
        NodeType t;
        t.id = readId(r, kKeys);
        readCommon(r, t, sourceName);
        t.gpus = r.integer("gpus", Need::Required, 0, 1, 4096);
        t.rails = r.integer("rails", Need::Required, 0, 1, 1024);
        t.nic = r.id("nic", Need::Required);
        t.railsPerCage = r.integer("rails_per_cage", Need::Optional, 1, 1, kMaxPortsPerCage);
        if (!r.context().failed() && t.railsPerCage > t.rails) {
            r.context().fail("rails_per_cage",
                "must be at most rails (" + std::to_string(t.rails) + "), got " + std::to_string(t.railsPerCage));
        }
        t.cageForm = r.text("cage_form", Need::Required);
        t.flatTopTransceivers = r.flag("flat_top_transceivers", false);
        t.powerW = r.number("power_w", Need::Optional, 0, true);
        t.rackUnits = r.integer("rack_units", Need::Optional, 0, 0, 64);
        readRailMap(r, t);
        return t;
    }

    std::optional<Medium> readMedium(ObjectReader& r)
    {
        const std::string s = r.text("medium", Need::Required);
        if (s.empty())
            return std::nullopt;
        auto m = parseMedium(s);
        if (!m)
            r.context().fail("medium", "must be one of \"dac\", \"acc\", \"aoc\", \"mmf\", \"smf\", got " + describeValue(s));
        return m;
    }

    void readLengths(ObjectReader& r, CableModel& c)
    {
        const json* list = r.array("lengths_m", Need::Required);
        for (std::size_t i = 0; list && i < list->size(); ++i) {
            const json& v = (*list)[i];
            const std::string path = elementPath("lengths_m", i);
            if (!v.is_number() || v.get<double>() <= 0 || v.get<double>() > 1e6) {
                r.context().fail(path, "must be a positive number of metres, got " + describeValue(v));
                return;
            }
            if (!c.lengthsM.empty() && v.get<double>() <= c.lengthsM.back()) {
                r.context().fail(path, "lengths must be listed in ascending order, got " + describeValue(v) + " after "
                        + formatNumber(c.lengthsM.back()));
                return;
            }
            c.lengthsM.push_back(v.get<double>());
        }
    }

    void readSpeeds(ObjectReader& r, CableModel& c)
    {
        const json* list = r.array("speeds_gbps", Need::Required);
        for (std::size_t i = 0; list && i < list->size(); ++i) {
            const json& v = (*list)[i];
            if (!v.is_number_integer() || v.get<long long>() <= 0 || v.get<long long>() > kMaxCount) {
                r.context().fail(elementPath("speeds_gbps", i), "must be a positive integer, got " + describeValue(v));
                return;
            }
            c.speedsGbps.push_back(static_cast<int>(v.get<long long>()));
        }
    }

    CableModel readCable(ObjectReader& r, const std::string& sourceName)
    {
        static constexpr std::string_view kKeys[] = { "id", "name", "part", "medium", "speeds_gbps", "fabrics",
            "links_per_assembly", "splitter", "lengths_m", "price_usd", "reference", "note" };
        CableModel c;
        c.id = readId(r, kKeys);
        readCommon(r, c, sourceName);
        c.medium = readMedium(r).value_or(Medium::Dac);
        readSpeeds(r, c);
        c.fabrics = r.fabrics("fabrics");
        c.linksPerAssembly = r.integer("links_per_assembly", Need::Optional, 1, 1, kMaxPortsPerCage);
        c.splitter = r.flag("splitter", false);
        if (!r.context().failed() && c.splitter && c.linksPerAssembly < 2)
            r.context().fail("splitter", "a splitter carries at least 2 links, but links_per_assembly is 1");
        readLengths(r, c);
        return c;
    }

    TransceiverModel readTransceiver(ObjectReader& r, const std::string& sourceName)
    {
        static constexpr std::string_view kKeys[] = { "id", "name", "part", "form", "ports", "speed_gbps", "fabrics",
            "medium", "reach_m", "flat_top", "power_w", "price_usd", "reference", "note" };
        TransceiverModel t;
        t.id = readId(r, kKeys);
        readCommon(r, t, sourceName);
        t.form = r.text("form", Need::Required);
        t.ports = r.integer("ports", Need::Optional, 1, 1, kMaxPortsPerCage);
        t.speedGbps = r.integer("speed_gbps", Need::Required, 0, 1, kMaxCount);
        t.fabrics = r.fabrics("fabrics");
        t.medium = readMedium(r).value_or(Medium::Mmf);
        if (!r.context().failed() && !needsTransceivers(t.medium)) {
            r.context().fail("medium",
                "a transceiver drives fiber: must be \"mmf\" or \"smf\", got \"" + std::string(toString(t.medium)) + "\"");
        }
        t.reachM = r.number("reach_m", Need::Required, 0, false);
        t.flatTop = r.flag("flat_top", false);
        t.powerW = r.number("power_w", Need::Optional, 0, true);
        return t;
    }

    SwitchDefault readDefault(ObjectReader& r)
    {
        static constexpr std::string_view kKeys[] = { "fabric", "generation", "speed_gbps", "switch" };
        r.rejectUnknown(kKeys);
        SwitchDefault d;
        d.fabric = r.fabric("fabric").value_or(Fabric::InfiniBand);
        d.switchId = r.id("switch", Need::Required);
        if (r.context().failed())
            return d;
        const bool ib = d.fabric == Fabric::InfiniBand;
        const std::string_view wrong = ib ? "speed_gbps" : "generation";
        if (r.find(wrong)) {
            r.context().fail(std::string(wrong),
                ib ? "an InfiniBand default names a generation, not a speed" : "an Ethernet default names speed_gbps, not a generation");
            return d;
        }
        if (ib) {
            const std::string g = r.text("generation", Need::Required);
            d.generation = parseIbGeneration(g);
            if (!g.empty() && !d.generation)
                r.context().fail("generation", "unknown InfiniBand generation " + describeValue(g));
        } else {
            d.speedGbps = r.integer("speed_gbps", Need::Required, 0, 1, kMaxCount);
        }
        return d;
    }

    std::string idOf(const SwitchDefault&) { return {}; }
    template <class T>
    std::string idOf(const T& entry)
    {
        return entry.id;
    }

    /// Reads one section; entries with an error are reported and left out.
    template <class T, class ReadFn>
    void readSection(const json& doc, std::string_view section, const std::string& file, std::vector<T>& out,
        Errors& errors, ReadFn read)
    {
        const auto it = doc.find(section);
        if (it == doc.end())
            return;
        if (!it->is_array()) {
            errors.push_back({ "CATALOG_FIELD", "must be a list, got " + describeValue(*it), file + ": " + std::string(section), {} });
            return;
        }
        std::map<std::string, std::size_t> seen;
        for (std::size_t i = 0; i < it->size(); ++i) {
            EntryContext ctx(file, std::string(section), i);
            ObjectReader r((*it)[i], "", ctx);
            T entry = read(r);
            const std::string id = idOf(entry);
            if (!ctx.failed() && !id.empty() && seen.count(id)) {
                ctx.fail("id", "\"" + id + "\" is listed twice in this file (also " + std::string(section) + "["
                        + std::to_string(seen[id]) + "])");
            }
            if (ctx.failed()) {
                errors.push_back(*ctx.error());
                continue;
            }
            seen.emplace(id, i);
            out.push_back(std::move(entry));
        }
    }

    void checkDefaultsUnique(const CatalogDocument& doc, const std::string& file, Errors& errors)
    {
        for (std::size_t i = 0; i < doc.defaults.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                const auto& a = doc.defaults[i];
                const auto& b = doc.defaults[j];
                if (a.fabric == b.fabric && a.generation == b.generation && a.speedGbps == b.speedGbps) {
                    errors.push_back({ "CATALOG_FIELD", "a default for this fabric and speed is listed twice (also defaults["
                            + std::to_string(j) + "])", catalogWhere(file, "defaults", i, "", ""), {} });
                }
            }
        }
    }

    /// Line and column (from 1) of the byte at `offset` (0-based).
    std::pair<std::size_t, std::size_t> lineColumn(std::string_view text, std::size_t offset)
    {
        std::size_t line = 1;
        std::size_t column = 1;
        for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        return { line, column };
    }

    Error syntaxError(const json::parse_error& e, std::string_view text, const std::string& file)
    {
        // nlohmann's `byte` is the 1-based offset of the character that stopped the parser.
        const auto [line, column] = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        const auto pos = what.find("syntax error");
        if (pos != std::string::npos)
            what = what.substr(pos);
        return { "CATALOG_SYNTAX", what, file + ":" + std::to_string(line) + ":" + std::to_string(column),
            "the file is not valid JSON" };
    }

    /// A parser callback that notes the first key given twice in one object.
    json::parser_callback_t duplicateKeyFinder(std::string& duplicate)
    {
        auto keys = std::make_shared<std::vector<std::set<std::string>>>();
        return [keys, &duplicate](int, json::parse_event_t event, json& parsed) {
            if (event == json::parse_event_t::object_start)
                keys->emplace_back();
            else if (event == json::parse_event_t::object_end && !keys->empty())
                keys->pop_back();
            else if (event == json::parse_event_t::key && !keys->empty() && !keys->back().insert(parsed.get<std::string>()).second
                && duplicate.empty())
                duplicate = parsed.get<std::string>();
            return true;
        };
    }

    void checkTopLevel(const json& doc, const std::string& file, Errors& errors)
    {
        EntryContext ctx(file);
        ObjectReader r(doc, "", ctx);
        r.rejectUnknown(kSections, "section");
        if (r.ok() && r.find("schema") && r.integer("schema", Need::Optional, kSchemaVersion, 1, 1000) != kSchemaVersion
            && !ctx.failed()) {
            ctx.fail("schema", "unsupported catalog schema " + describeValue(*r.find("schema")),
                "this program reads schema " + std::to_string(kSchemaVersion));
        }
        if (ctx.failed())
            errors.push_back(*ctx.error());
    }

} // namespace

std::string catalogWhere(const std::string& file, std::string_view section, std::size_t index, std::string_view id,
    std::string_view field)
{
    EntryContext ctx(file, std::string(section), index);
    ctx.setId(std::string(id));
    return ctx.where(std::string(field));
}

Result<CatalogDocument> parseCatalogDocument(std::string_view jsonText, const std::string& sourceName)
{
    json doc;
    std::string duplicateKey;
    try {
        doc = json::parse(jsonText.begin(), jsonText.end(), duplicateKeyFinder(duplicateKey));
    } catch (const json::parse_error& e) {
        return syntaxError(e, jsonText, sourceName);
    }
    if (!duplicateKey.empty()) {
        return Error { "CATALOG_FIELD", "the key \"" + duplicateKey + "\" appears twice in one object",
            sourceName + ": " + duplicateKey, "JSON keeps only one of them: remove the other" };
    }
    Errors errors;
    checkTopLevel(doc, sourceName, errors);
    if (!errors.empty())
        return errors;
    CatalogDocument out;
    const auto& f = sourceName;
    readSection(doc, "switches", f, out.switches, errors, [&](ObjectReader& r) { return readSwitch(r, f); });
    readSection(doc, "nics", f, out.nics, errors, [&](ObjectReader& r) { return readNic(r, f); });
    readSection(doc, "node_types", f, out.nodeTypes, errors, [&](ObjectReader& r) { return readNodeType(r, f); });
    readSection(doc, "cables", f, out.cables, errors, [&](ObjectReader& r) { return readCable(r, f); });
    readSection(doc, "transceivers", f, out.transceivers, errors, [&](ObjectReader& r) { return readTransceiver(r, f); });
    readSection(doc, "defaults", f, out.defaults, errors, [](ObjectReader& r) { return readDefault(r); });
    checkDefaultsUnique(out, f, errors);
    if (!errors.empty())
        return errors;
    return out;
}

} // namespace railyard::core::detail
