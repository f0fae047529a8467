// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/catalog_json.h"

#include "core/field_reader.h"
#include "core/json_text.h"
#include "core/text.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <map>
#include <span>

// Each entry is read with its own FieldReader, whose first problem is the entry's error:
// Error::where is "<file>: <section>[<index>] (id \"<id>\"): <field>".

namespace railyard::core::detail {

namespace {

    using nlohmann::json;

    constexpr int kMaxCount = 1000000;
    constexpr int kMaxPortsPerCage = 8;
    constexpr int kSchemaVersion = 1;
    constexpr double kMaxNumber = 1e9;
    /// The least positive double: the lower bound of "a positive number".
    constexpr double kLeastPositive = std::numeric_limits<double>::denorm_min();
    constexpr const char* kCode = "CATALOG_FIELD";

    constexpr std::string_view kSections[] = { "schema", "switches", "nics", "node_types", "cables", "transceivers",
        "defaults" };
    constexpr std::string_view kFabricChoice = "\"infiniband\" or \"rocev2\"";

    enum class Need { Required, Optional };

    bool isIdChar(char c)
    {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
    }

    /// "a positive integer", "an integer from 1 to 8"
    std::string rangeText(int min, int max)
    {
        if (min == 1 && max >= kMaxCount)
            return "a positive integer";
        if (min == 0 && max >= kMaxCount)
            return "a non-negative integer";
        return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    }

    /// `path[index]`, the place of one list element.
    std::string elementPath(const std::string& path, std::size_t index)
    {
        return path + "[" + std::to_string(index) + "]";
    }

    /// `place (id "x")`, or `place` while the id is not known.
    std::string withId(std::string place, std::string_view id)
    {
        return id.empty() ? place : place + " (id \"" + std::string(id) + "\")";
    }

    /// `file: section[index] (id "x")`
    std::string entryPlace(const std::string& file, std::string_view section, std::size_t index, std::string_view id)
    {
        return withId(file + ": " + elementPath(std::string(section), index), id);
    }

    /// A reader whose errors read "<source>: <field>: <message>", the first one being the entry's.
    FieldReader catalogReader(std::string source)
    {
        return FieldReader(std::move(source), kCode, kCode, PathPlace::Where);
    }

    /// An integer from `min` to `max`, written as one (32.0 is not).
    std::optional<int> intValue(FieldReader& r, const json& v, const std::string& path, int min, int max)
    {
        if (!v.is_number_integer()) {
            r.mustBe(path, rangeText(min, max), v);
            return std::nullopt;
        }
        const auto n = r.integer(v, path, min, max, rangeText(min, max), true);
        return n ? std::optional<int>(static_cast<int>(*n)) : std::nullopt;
    }

    /// The members of one JSON object of an entry; `path` is its place in the entry ("" or
    /// "modes[0]"). Problems go to the entry's FieldReader.
    class ObjectReader {
    public:
        ObjectReader(const json& value, std::string path, FieldReader& r)
            : m_path(std::move(path))
            , m_r(r)
        {
            if (value.is_object())
                m_object = &value;
            else
                m_r.mustBe(m_path, "an object", value);
        }

        bool ok() const { return m_object != nullptr; }
        FieldReader& reader() { return m_r; }
        bool failed() const { return !m_r.ok(); }

        std::string field(std::string_view key) const
        {
            return m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
        }

        const json* find(std::string_view key) const
        {
            if (!m_object)
                return nullptr;
            const auto it = m_object->find(key);
            return it == m_object->end() ? nullptr : &*it;
        }

        void rejectUnknown(std::span<const std::string_view> known, std::string_view noun = "field")
        {
            if (m_object)
                m_r.checkKeys(*m_object, m_path, known, noun);
        }

        std::string text(std::string_view key, Need need)
        {
            const json* v = member(key, need);
            const auto s = v ? m_r.string(*v, field(key), "a string", true) : std::nullopt;
            if (s && need == Need::Required && s->empty())
                m_r.fail(field(key), "must not be empty");
            return s.value_or("");
        }

        std::string id(std::string_view key, Need need)
        {
            std::string s = text(key, need);
            bool good = !s.empty() && s.front() != '-' && s.front() != '.';
            for (char c : s)
                good = good && isIdChar(c);
            if (!s.empty() && !good) {
                m_r.mustBe(field(key), "a lower-case id (a-z, 0-9, '-', '.', '_')", s);
                return {};
            }
            return s;
        }

        int integer(std::string_view key, Need need, int fallback, int min, int max)
        {
            const json* v = member(key, need);
            return v ? intValue(m_r, *v, field(key), min, max).value_or(fallback) : fallback;
        }

        double number(std::string_view key, Need need, double fallback, bool allowZero)
        {
            const json* v = member(key, need);
            if (!v)
                return fallback;
            return m_r.number(*v, field(key), allowZero ? 0 : kLeastPositive, kMaxNumber,
                          allowZero ? "a non-negative number" : "a positive number")
                .value_or(fallback);
        }

        std::optional<double> optionalNumber(std::string_view key)
        {
            const json* v = find(key);
            return v ? m_r.number(*v, field(key), 0, kMaxNumber, "a non-negative number").value_or(0)
                     : std::optional<double>();
        }

        bool flag(std::string_view key, bool fallback)
        {
            const json* v = find(key);
            return v ? m_r.boolean(*v, field(key)).value_or(fallback) : fallback;
        }

        /// The list at `key`, or nullptr (missing when optional, or wrong: reported).
        const json* array(std::string_view key, Need need)
        {
            const json* v = member(key, need);
            if (v && !v->is_array()) {
                m_r.mustBe(field(key), "a list", *v);
                return nullptr;
            }
            if (v && need == Need::Required && v->empty()) {
                m_r.fail(field(key), "must not be empty");
                return nullptr;
            }
            return v;
        }

        std::optional<Fabric> fabric(std::string_view key)
        {
            const std::string s = text(key, Need::Required);
            const auto f = s.empty() ? std::nullopt : parseFabric(s);
            if (!s.empty() && !f)
                m_r.mustBe(field(key), kFabricChoice, s);
            return f;
        }

        std::vector<Fabric> fabrics(std::string_view key)
        {
            std::vector<Fabric> out;
            const json* list = array(key, Need::Optional);
            for (std::size_t i = 0; list && i < list->size(); ++i) {
                const json& v = (*list)[i];
                const auto f = v.is_string() ? parseFabric(v.get_ref<const std::string&>()) : std::nullopt;
                if (!f) {
                    m_r.mustBe(elementPath(field(key), i), kFabricChoice, v);
                    return {};
                }
                out.push_back(*f);
            }
            return out;
        }

    private:
        /// The member at `key`; reported when missing and required.
        const json* member(std::string_view key, Need need)
        {
            const json* v = find(key);
            if (!v && need == Need::Required && m_object)
                m_r.fail(field(key), "required field is missing");
            return v;
        }

        const json* m_object = nullptr;
        std::string m_path;
        FieldReader& m_r;
    };

    std::optional<PortRate> readIbRate(ObjectReader& r)
    {
        static constexpr std::string_view kKeys[] = { "generation", "width" };
        r.rejectUnknown(kKeys);
        const std::string name = r.text("generation", Need::Required);
        const int width = r.integer("width", Need::Required, 4, 1, 12);
        if (r.failed())
            return std::nullopt;
        const auto generation = parseIbGeneration(name);
        if (!generation) {
            r.reader().fail(r.field("generation"), "unknown InfiniBand generation " + describeJson(name),
                "one of SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR");
            return std::nullopt;
        }
        auto rate = ibRate(*generation, width);
        if (!rate) {
            r.reader().fail(r.field("width"),
                std::string(toString(*generation)) + " is not offered at width " + std::to_string(width));
        }
        return rate;
    }

    std::optional<PortRate> readEthernetRate(ObjectReader& r)
    {
        static constexpr std::string_view kKeys[] = { "speed_gbps", "lanes" };
        r.rejectUnknown(kKeys);
        const int speed = r.integer("speed_gbps", Need::Required, 0, 1, kMaxCount);
        const int lanes = r.integer("lanes", Need::Required, 4, 1, 16);
        if (r.failed())
            return std::nullopt;
        auto rate = ethernetRate(speed, lanes);
        if (!rate) {
            const std::string field = ethernetGrade(speed, 4) || ethernetGrade(speed, 8) || ethernetGrade(speed, 2)
                    || ethernetGrade(speed, 1)
                ? "lanes"
                : "speed_gbps";
            r.reader().fail(r.field(field),
                "no Ethernet PHY runs " + std::to_string(speed) + "G over " + std::to_string(lanes) + " lanes",
                "known: 100G over 4, 2 or 1 lanes; 200G over 4 or 2; 400G over 8 or 4; 800G over 8 or 4");
        }
        return rate;
    }

    /// A port rate: `{"generation":"NDR","width":4}` (InfiniBand) or `{"speed_gbps":400,"lanes":4}`.
    std::optional<PortRate> readRate(const json& value, const std::string& path, Fabric fabric, FieldReader& fr)
    {
        ObjectReader r(value, path, fr);
        if (!r.ok())
            return std::nullopt;
        return fabric == Fabric::InfiniBand ? readIbRate(r) : readEthernetRate(r);
    }

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
        r.reader().setSource(withId(r.reader().source(), id));
        r.rejectUnknown(known);
        return id;
    }

    void checkModeFits(ObjectReader& r, const SwitchModel& s, std::size_t i)
    {
        const SwitchMode& m = s.modes[i];
        const std::string path = elementPath("modes", i);
        if (m.ports > s.cages * m.portsPerCage) {
            r.reader().fail(path + ".ports",
                "must be at most cages x ports_per_cage = " + std::to_string(s.cages * m.portsPerCage) + ", got "
                    + std::to_string(m.ports));
        } else if (s.maxLogicalPorts > 0 && m.ports > s.maxLogicalPorts) {
            r.reader().fail(path + ".ports",
                "exceeds max_logical_ports " + std::to_string(s.maxLogicalPorts) + ", got " + std::to_string(m.ports));
        }
        for (std::size_t j = 0; j < i; ++j) {
            if (s.modes[j].rate == m.rate)
                r.reader().fail(path + ".rate", m.rate.label() + " is listed twice (also modes[" + std::to_string(j) + "])");
        }
    }

    void readModes(ObjectReader& r, SwitchModel& s)
    {
        static constexpr std::string_view kKeys[] = { "rate", "ports", "ports_per_cage" };
        const json* list = r.array("modes", Need::Required);
        if (!list)
            return;
        for (std::size_t i = 0; i < list->size(); ++i) {
            ObjectReader m((*list)[i], elementPath("modes", i), r.reader());
            m.rejectUnknown(kKeys);
            SwitchMode mode;
            const json* rate = m.find("rate");
            if (!rate && m.ok())
                r.reader().fail(m.field("rate"), "required field is missing");
            else if (rate) {
                if (auto pr = readRate(*rate, m.field("rate"), s.fabric, r.reader()))
                    mode.rate = *pr;
            }
            mode.ports = m.integer("ports", Need::Required, 0, 1, kMaxCount);
            mode.portsPerCage = m.integer("ports_per_cage", Need::Optional, 1, 1, kMaxPortsPerCage);
            if (r.failed())
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
        if (!r.failed())
            readModes(r, s);
        return s;
    }

    std::vector<PortRate> readRates(ObjectReader& r, std::string_view key, Fabric fabric, double maxGbps)
    {
        std::vector<PortRate> out;
        const json* list = r.array(key, Need::Optional);
        for (std::size_t i = 0; list && i < list->size() && !r.failed(); ++i) {
            const std::string path = elementPath(std::string(key), i);
            auto rate = readRate((*list)[i], path, fabric, r.reader());
            if (!rate)
                break;
            if (rate->dataGbps > maxGbps + 1e-9)
                r.reader().fail(path, rate->label() + " exceeds max_gbps " + std::to_string(static_cast<int>(maxGbps)));
            for (const auto& earlier : out) {
                if (earlier == *rate)
                    r.reader().fail(path, rate->label() + " is listed twice");
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
            r.reader().fail("native_ethernet_lanes", "must be 1, 2, 4 or 8, got " + std::to_string(n.nativeEthernetLanes));
        n.cageForm = r.text("cage_form", Need::Required);
        n.powerW = r.number("power_w", Need::Optional, 0, true);
        if (r.failed())
            return n;
        n.ibRates = readRates(r, "ib_rates", Fabric::InfiniBand, n.maxGbps);
        n.ethernetRates = readRates(r, "ethernet_rates", Fabric::RoCEv2, n.maxGbps);
        if (!r.failed() && n.ibRates.empty() && n.ethernetRates.empty())
            r.reader().fail("ib_rates", "a NIC needs at least one rate in ib_rates or ethernet_rates");
        return n;
    }

    void readRailMap(ObjectReader& r, NodeType& t)
    {
        const json* list = r.array("rail_map", Need::Optional);
        if (!list || r.failed())
            return;
        if (!list->empty() && static_cast<int>(list->size()) != t.rails) {
            r.reader().fail("rail_map",
                "has " + std::to_string(list->size()) + " entries, but rails is " + std::to_string(t.rails),
                "give one device (mlx5_N) or PCI address per rail, rail 0 first");
            return;
        }
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string path = elementPath("rail_map", i);
            auto device = r.reader().string((*list)[i], path, "a non-empty string", false);
            if (!device)
                return;
            for (const auto& earlier : t.railMap) {
                if (earlier == *device)
                    r.reader().fail(path, describeJson(*device) + " is listed twice");
            }
            t.railMap.push_back(std::move(*device));
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
        if (!r.failed() && t.railsPerCage > t.rails) {
            r.reader().fail("rails_per_cage",
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
            r.reader().mustBe("medium", "one of \"dac\", \"acc\", \"aoc\", \"mmf\", \"smf\"", s);
        return m;
    }

    void readLengths(ObjectReader& r, CableModel& c)
    {
        const json* list = r.array("lengths_m", Need::Required);
        for (std::size_t i = 0; list && i < list->size(); ++i) {
            const json& v = (*list)[i];
            const std::string path = elementPath("lengths_m", i);
            const auto length = r.reader().number(v, path, kLeastPositive, 1e6, "a positive number of metres");
            if (!length)
                return;
            if (!c.lengthsM.empty() && *length <= c.lengthsM.back()) {
                r.reader().fail(path, "lengths must be listed in ascending order, got " + describeJson(v) + " after "
                        + formatNumber(c.lengthsM.back()));
                return;
            }
            c.lengthsM.push_back(*length);
        }
    }

    void readSpeeds(ObjectReader& r, CableModel& c)
    {
        const json* list = r.array("speeds_gbps", Need::Required);
        for (std::size_t i = 0; list && i < list->size(); ++i) {
            const auto speed = intValue(r.reader(), (*list)[i], elementPath("speeds_gbps", i), 1, kMaxCount);
            if (!speed)
                return;
            c.speedsGbps.push_back(*speed);
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
        if (!r.failed() && c.splitter && c.linksPerAssembly < 2)
            r.reader().fail("splitter", "a splitter carries at least 2 links, but links_per_assembly is 1");
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
        if (!r.failed() && !needsTransceivers(t.medium)) {
            r.reader().fail("medium",
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
        if (r.failed())
            return d;
        const bool ib = d.fabric == Fabric::InfiniBand;
        const std::string_view wrong = ib ? "speed_gbps" : "generation";
        if (r.find(wrong)) {
            r.reader().fail(std::string(wrong),
                ib ? "an InfiniBand default names a generation, not a speed" : "an Ethernet default names speed_gbps, not a generation");
            return d;
        }
        if (ib) {
            const std::string g = r.text("generation", Need::Required);
            d.generation = parseIbGeneration(g);
            if (!g.empty() && !d.generation)
                r.reader().fail("generation", "unknown InfiniBand generation " + describeJson(g));
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

    /// Reads one section; entries with an error are reported (the first problem of each) and left out.
    template <class T, class ReadFn>
    void readSection(const json& doc, std::string_view section, const std::string& file, std::vector<T>& out,
        Errors& errors, ReadFn read)
    {
        const auto it = doc.find(section);
        if (it == doc.end())
            return;
        if (!it->is_array()) {
            FieldReader r = catalogReader(file);
            r.mustBe(std::string(section), "a list", *it);
            errors.push_back(r.errors().front());
            return;
        }
        std::map<std::string, std::size_t> seen;
        for (std::size_t i = 0; i < it->size(); ++i) {
            FieldReader r = catalogReader(entryPlace(file, section, i, ""));
            ObjectReader o((*it)[i], "", r);
            T entry = read(o);
            const std::string id = idOf(entry);
            if (r.ok() && !id.empty() && seen.count(id)) {
                r.fail("id", "\"" + id + "\" is listed twice in this file (also " + elementPath(std::string(section), seen[id])
                        + ")");
            }
            if (!r.ok()) {
                errors.push_back(r.errors().front());
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
                    errors.push_back({ kCode, "a default for this fabric and speed is listed twice (also defaults["
                            + std::to_string(j) + "])", catalogWhere(file, "defaults", i, "", ""), {} });
                }
            }
        }
    }

    void checkTopLevel(const json& doc, const std::string& file, Errors& errors)
    {
        FieldReader fr = catalogReader(file);
        ObjectReader r(doc, "", fr);
        r.rejectUnknown(kSections, "section");
        if (r.ok() && r.find("schema") && r.integer("schema", Need::Optional, kSchemaVersion, 1, 1000) != kSchemaVersion
            && !r.failed()) {
            fr.fail("schema", "unsupported catalog schema " + describeJson(*r.find("schema")),
                "this program reads schema " + std::to_string(kSchemaVersion));
        }
        if (!fr.ok())
            errors.push_back(fr.errors().front());
    }

} // namespace

std::string catalogWhere(const std::string& file, std::string_view section, std::size_t index, std::string_view id,
    std::string_view field)
{
    const std::string place = entryPlace(file, section, index, id);
    return field.empty() ? place : place + ": " + std::string(field);
}

Result<CatalogDocument> parseCatalogDocument(std::string_view jsonText, const std::string& sourceName)
{
    json doc;
    std::vector<DuplicateMember> duplicates;
    try {
        doc = parseJsonNotingDuplicates(jsonText, duplicates);
    } catch (const json::parse_error& e) {
        const TextPosition at = jsonErrorPosition(jsonText, e);
        return Error { "CATALOG_SYNTAX", jsonSyntaxReason(e),
            sourceName + ":" + std::to_string(at.line) + ":" + std::to_string(at.column), "the file is not valid JSON" };
    } catch (const json::exception& e) {
        return Error { "CATALOG_SYNTAX", jsonSyntaxReason(e), sourceName, "the file is not valid JSON" };
    }
    if (!duplicates.empty()) {
        const std::string& key = duplicates.front().key;
        return Error { kCode, "the key \"" + key + "\" appears twice in one object", sourceName + ": " + key,
            "JSON keeps only one of them: remove the other" };
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
