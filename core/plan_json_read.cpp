// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/plan_json.h"

#include "core/json_text.h"
#include "core/plan_json_parts.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <functional>
#include <unordered_map>

// The plan document reader. Cable rows are turned into small records while the text is
// parsed (nlohmann's parser callback) and dropped from the DOM, so a 393K-link document
// never becomes a 393K-object DOM. Nodes and management ports are rebuilt from the cables'
// port names, switches from the `switches` list, assemblies from the cables' assembly,
// part, type and length.

namespace railyard::core {

using namespace detail;

namespace {

    using nlohmann::json;

    constexpr std::string_view kRequired[] = { "spec", "summary", "findings", "switches", "cables", "bom" };

    struct CableRow {
        std::string a, b, part;
        LinkTier tier = LinkTier::NodeLeaf;
        Medium medium = Medium::Mmf;
        float lengthM = 0;
        int cage[2] = { 0, 0 };
        int pos[2] = { 0, 0 };
        long long assembly = 0;
        bool installed = true;
    };

    std::string rowPath(std::string_view list, std::size_t i)
    {
        return std::string(list) + "[" + std::to_string(i) + "]";
    }

    const json* find(const json& obj, const char* key)
    {
        const auto it = obj.find(key);
        return it == obj.end() ? nullptr : &*it;
    }

    constexpr double kMaxCableM = 100'000;

    /// Fast typed access to one cable row; paths are built only when something is wrong.
    class RowReader {
    public:
        RowReader(FieldReader& r, const json& row, std::size_t index)
            : m_r(r)
            , m_row(row)
            , m_index(index)
        {
        }

        const std::string* string(const char* key)
        {
            const json* v = find(m_row, key);
            if (v && v->is_string())
                return &v->get_ref<const std::string&>();
            bad(key, v, "a string");
            return nullptr;
        }
        std::optional<long long> integer(const char* key, bool required)
        {
            const json* v = find(m_row, key);
            if (v && v->is_number_integer() && v->get<long long>() >= 0)
                return v->get<long long>();
            if (v || required)
                bad(key, v, "a non-negative integer");
            return std::nullopt;
        }
        /// A cable's length: a finite number of metres a float holds (a longer one is no cable,
        /// and would be written back as null).
        std::optional<double> length(const char* key)
        {
            const json* v = find(m_row, key);
            if (v && v->is_number()) {
                const double m = v->get<double>();
                if (m >= 0 && m <= kMaxCableM)
                    return m;
            }
            if (v)
                m_r.number(*v, rowPath("cables", m_index) + "." + key, 0, kMaxCableM, "a length in metres from 0 to 100000");
            else
                fail(key, "required");
            return std::nullopt;
        }
        std::optional<bool> boolean(const char* key)
        {
            const json* v = find(m_row, key);
            if (!v)
                return std::nullopt;
            if (v->is_boolean())
                return v->get<bool>();
            bad(key, v, "true or false");
            return std::nullopt;
        }
        void fail(const char* key, const std::string& what) { m_r.fail(rowPath("cables", m_index) + "." + key, what); }

    private:
        void bad(const char* key, const json* v, std::string_view expected)
        {
            if (v)
                m_r.mustBe(rowPath("cables", m_index) + "." + key, expected, *v);
            else
                fail(key, "required");
        }

        FieldReader& m_r;
        const json& m_row;
        std::size_t m_index;
    };

    CableRow readCableRow(FieldReader& r, const json& row, std::size_t index)
    {
        CableRow out;
        RowReader rr(r, row, index);
        if (const auto* a = rr.string("a"))
            out.a = *a;
        if (const auto* b = rr.string("b"))
            out.b = *b;
        if (const auto* tier = rr.string("tier")) {
            const auto t = linkTierFromName(*tier);
            t ? void(out.tier = *t) : rr.fail("tier", "must be \"node_leaf\", \"leaf_spine\" or \"spine_core\", got \"" + *tier + "\"");
        }
        if (const auto* type = rr.string("type")) {
            const auto m = mediumFromName(*type);
            m ? void(out.medium = *m) : rr.fail("type", "must be dac, acc, aoc, mmf or smf, got \"" + *type + "\"");
        }
        out.lengthM = static_cast<float>(rr.length("length_m").value_or(0));
        const char* cageKeys[2][2] = { { "a_cage", "a_pos" }, { "b_cage", "b_pos" } };
        for (int end = 0; end < 2; ++end) {
            out.cage[end] = static_cast<int>(std::min(rr.integer(cageKeys[end][0], false).value_or(0), 1LL << 20));
            out.pos[end] = static_cast<int>(std::min(rr.integer(cageKeys[end][1], false).value_or(0), 1LL << 20));
        }
        out.assembly = rr.integer("assembly", true).value_or(0);
        if (const auto* part = rr.string("part"))
            out.part = *part;
        out.installed = rr.boolean("installed").value_or(true);
        return out;
    }

    /// Parser callback: turns each element of the top-level `cables` list into a CableRow.
    struct CableCollector {
        FieldReader* r = nullptr;
        std::vector<CableRow>* rows = nullptr;
        std::string section;
        bool inCables = false; ///< inside the top-level `cables` list

        bool operator()(int depth, json::parse_event_t event, json& parsed)
        {
            if (depth == 1) {
                if (event == json::parse_event_t::key)
                    section = parsed.get<std::string>();
                else if (event == json::parse_event_t::array_start)
                    inCables = section == "cables";
                else if (event == json::parse_event_t::array_end)
                    inCables = false;
                return true;
            }
            if (depth != 2 || !inCables)
                return true;
            if (event == json::parse_event_t::object_end) {
                rows->push_back(readCableRow(*r, parsed, rows->size()));
                return false;
            }
            if (event == json::parse_event_t::value || event == json::parse_event_t::array_end) {
                r->mustBe(rowPath("cables", rows->size()), "an object", parsed);
                rows->emplace_back();
                return false;
            }
            return true;
        }
    };

    Device readSwitch(FieldReader& r, const json& v, const std::string& path)
    {
        Device d;
        d.kind = DeviceKind::Switch;
        if (!v.is_object()) {
            r.mustBe(path, "an object", v);
            return d;
        }
        d.name = memberString(r, v, path, "id").value_or("");
        if (auto tier = memberString(r, v, path, "tier")) {
            const auto t = switchTierFromName(*tier);
            t ? void(d.tier = *t) : r.fail(path + ".tier", "must be \"leaf\", \"spine\" or \"core\", got \"" + *tier + "\"");
        }
        d.model = memberString(r, v, path, "model").value_or("");
        auto count = [&](const char* key, int fallback) {
            const auto n = memberInt(r, v, path, key, false);
            return n ? static_cast<int>(std::clamp(*n, -1LL, 1LL << 30)) : fallback;
        };
        d.plane = count("plane", 0);
        d.su = count("su", 0);
        d.rail = count("rail", -1);
        d.pod = count("pod", 0);
        d.portsUsed = count("ports_used", 0);
        d.portsReserved = count("ports_reserved", 0);
        const int portsFree = static_cast<int>(memberInt(r, v, path, "ports_free").value_or(0));
        d.ports = count("ports", d.portsUsed + d.portsReserved + portsFree);
        d.portsPerCage = std::max(count("ports_per_cage", 1), 1);
        d.installed = memberBool(r, v, path, "installed", false).value_or(true);
        if (d.name.empty() || d.name.find('/') != std::string::npos)
            r.fail(path + ".id", "must be a switch name without '/', got \"" + d.name + "\"");
        return d;
    }

    BomLine readBomLine(FieldReader& r, const json& v, const std::string& path)
    {
        BomLine line;
        if (!v.is_object()) {
            r.mustBe(path, "an object", v);
            return line;
        }
        line.item = memberString(r, v, path, "item").value_or("");
        line.part = memberString(r, v, path, "part").value_or("");
        line.quantity = memberInt(r, v, path, "quantity").value_or(0);
        line.category = memberString(r, v, path, "category", false).value_or("");
        line.catalogId = memberString(r, v, path, "catalog_id", false).value_or("");
        line.lengthM = memberNumber(r, v, path, "length_m", false).value_or(0);
        line.unitPriceUsd = memberNumber(r, v, path, "unit_price_usd", false);
        line.unitPowerW = memberNumber(r, v, path, "unit_power_w", false).value_or(0);
        line.unitRackUnits = static_cast<int>(memberInt(r, v, path, "unit_rack_units", false).value_or(0));
        return line;
    }

    template <class T, class ReadFn>
    std::vector<T> readList(FieldReader& r, const json& doc, std::string_view name, ReadFn read)
    {
        std::vector<T> out;
        const json& list = doc[std::string(name)];
        if (!list.is_array()) {
            r.mustBe(std::string(name), "a list", list);
            return out;
        }
        out.reserve(list.size());
        for (std::size_t i = 0; i < list.size(); ++i)
            out.push_back(read(r, list[i], rowPath(name, i)));
        return out;
    }

    std::optional<long long> parseNumber(std::string_view text)
    {
        long long value = 0;
        const auto res = std::from_chars(text.data(), text.data() + text.size(), value);
        if (text.empty() || res.ec != std::errc() || res.ptr != text.data() + text.size())
            return std::nullopt;
        return value;
    }

    struct Endpoint {
        std::string_view device;
        std::string_view port;
    };

    std::optional<Endpoint> splitPort(std::string_view name)
    {
        const auto slash = name.rfind('/');
        if (slash == std::string_view::npos || slash == 0 || slash + 1 == name.size())
            return std::nullopt;
        return Endpoint { name.substr(0, slash), name.substr(slash + 1) };
    }

    /// "nic3" -> {3, 0}; "nic3-p2" -> {3, 1}
    std::optional<std::pair<int, int>> parseNicPort(std::string_view port)
    {
        if (!port.starts_with("nic"))
            return std::nullopt;
        port.remove_prefix(3);
        int plane = 0;
        if (const auto dash = port.find("-p"); dash != std::string_view::npos) {
            const auto p = parseNumber(port.substr(dash + 2));
            if (!p || *p < 1 || *p > 255)
                return std::nullopt;
            plane = static_cast<int>(*p - 1);
            port = port.substr(0, dash);
        }
        const auto rail = parseNumber(port);
        if (!rail || *rail < 0 || *rail > 65535)
            return std::nullopt;
        return std::pair { static_cast<int>(*rail), plane };
    }

    /// A node or management device; installed and ports used follow from its links.
    Device endpointDevice(const std::string& name, DeviceKind kind, const std::string& model)
    {
        Device d;
        d.name = name;
        d.kind = kind;
        d.model = model;
        d.installed = false;
        return d;
    }

    /// Builds devices (nodes, management ports, switches), links and assemblies from the rows.
    class Linker {
    public:
        Linker(FieldReader& r, Plan& plan)
            : m_r(r)
            , m_plan(plan)
        {
        }

        void run(std::vector<Device> switches, const std::vector<CableRow>& rows)
        {
            for (std::size_t i = 0; i < switches.size(); ++i) {
                if (!m_switchIndex.emplace(switches[i].name, static_cast<std::uint32_t>(i)).second)
                    m_r.fail(rowPath("switches", i) + ".id", "\"" + switches[i].name + "\" is listed twice");
            }
            collectEndpoints(rows);
            placeDevices(std::move(switches));
            m_plan.links.reserve(rows.size());
            for (std::size_t i = 0; i < rows.size(); ++i)
                addLink(rows[i], i);
        }

    private:
        void collectEndpoints(const std::vector<CableRow>& rows)
        {
            for (std::size_t i = 0; i < rows.size(); ++i) {
                for (const std::string* name : { &rows[i].a, &rows[i].b }) {
                    const auto end = splitPort(*name);
                    if (!end || m_switchIndex.contains(std::string(end->device)))
                        continue;
                    const bool nic = end->port.starts_with("nic");
                    if (!nic && !end->device.starts_with("mgmt"))
                        continue; // reported by resolve()
                    auto& map = nic ? m_nodeIndex : m_mgmtIndex;
                    auto& order = nic ? m_nodeOrder : m_mgmtOrder;
                    if (map.emplace(std::string(end->device), static_cast<std::uint32_t>(order.size())).second)
                        order.emplace_back(end->device);
                }
            }
        }

        void placeDevices(std::vector<Device> switches)
        {
            auto& devices = m_plan.devices;
            for (const auto& name : m_nodeOrder)
                devices.push_back(endpointDevice(name, DeviceKind::Node, m_plan.spec.nodeType));
            for (const auto& name : m_mgmtOrder)
                devices.push_back(endpointDevice(name, DeviceKind::Management, {}));
            m_mgmtBase = static_cast<std::uint32_t>(m_nodeOrder.size());
            m_switchBase = m_mgmtBase + static_cast<std::uint32_t>(m_mgmtOrder.size());
            for (auto& s : switches)
                devices.push_back(std::move(s));
        }

        std::optional<PortRef> resolve(const std::string& name, std::size_t row, const char* end)
        {
            const std::string path = rowPath("cables", row) + "." + end;
            const auto ep = splitPort(name);
            if (!ep) {
                m_r.fail(path, "must be \"<device>/<port>\", got \"" + name + "\"");
                return std::nullopt;
            }
            const std::string device(ep->device);
            if (auto it = m_switchIndex.find(device); it != m_switchIndex.end()) {
                const auto port = parseNumber(ep->port);
                if (!port || *port < 1 || *port > 65535) {
                    m_r.fail(path, "\"" + name + "\": a switch port is a number from 1, got \"" + std::string(ep->port) + "\"");
                    return std::nullopt;
                }
                return PortRef { m_switchBase + it->second, static_cast<std::uint16_t>(*port), 0 };
            }
            if (auto it = m_nodeIndex.find(device); it != m_nodeIndex.end()) {
                const auto nic = parseNicPort(ep->port);
                if (!nic) {
                    m_r.fail(path, "\"" + name + "\": a NIC port is nic<rail> or nic<rail>-p<plane>");
                    return std::nullopt;
                }
                return PortRef { it->second, static_cast<std::uint16_t>(nic->first), static_cast<std::uint8_t>(nic->second) };
            }
            const auto port = parseNumber(ep->port);
            const auto mgmt = m_mgmtIndex.find(device);
            if (mgmt == m_mgmtIndex.end() || !port || *port < 1 || *port > 65535) {
                m_r.fail(path, "\"" + name + "\" names no switch in `switches`, and is neither a NIC port "
                                                "(<node>/nic<rail>) nor a management port (mgmt<N>/<port>)");
                return std::nullopt;
            }
            return PortRef { m_mgmtBase + mgmt->second, static_cast<std::uint16_t>(*port), 0 };
        }

        void checkCage(const PortRef& ref, int cage, int pos, std::size_t row, const char* end)
        {
            const auto [c, p] = m_plan.cageOf(ref);
            if (c != 0 && (cage != 0 || pos != 0) && (c != cage || p != pos)) {
                m_r.fail(rowPath("cables", row) + "." + end + "_cage", "port " + std::to_string(ref.port) + " is in cage "
                        + std::to_string(c) + " position " + std::to_string(p) + ", but the row says cage "
                        + std::to_string(cage) + " position " + std::to_string(pos));
            }
        }

        void noteEndpoint(const PortRef& ref, const PortRef& other, bool installed)
        {
            Device& d = m_plan.devices[ref.device];
            if (d.kind == DeviceKind::Switch)
                return;
            ++d.portsUsed;
            d.installed = d.installed || installed;
            if (d.su == 0)
                d.su = m_plan.devices[other.device].su;
        }

        void addAssembly(const CableRow& row, const Link& link, std::size_t index)
        {
            if (row.assembly >= static_cast<long long>(m_firstRow.size()) + 1'000'000) {
                m_r.fail(rowPath("cables", index) + ".assembly", "assembly number " + std::to_string(row.assembly) + " is far beyond the cable count");
                return;
            }
            const auto a = static_cast<std::size_t>(row.assembly);
            auto& assemblies = m_plan.assemblies;
            if (a >= assemblies.size()) {
                Assembly unused;
                unused.links = 0;
                unused.installed = false;
                assemblies.resize(a + 1, unused);
                m_firstRow.resize(a + 1, -1);
            }
            Assembly& as = assemblies[a];
            if (m_firstRow[a] < 0) {
                as = Assembly { row.part, link.medium, link.lengthM, 1, link.installed };
                m_firstRow[a] = static_cast<long long>(index);
                return;
            }
            if (as.cable != row.part || as.medium != link.medium || as.lengthM != link.lengthM) {
                m_r.fail(rowPath("cables", index) + ".assembly", "assembly " + std::to_string(a) + " is also "
                        + rowPath("cables", static_cast<std::size_t>(m_firstRow[a])) + " with a different part, type or length");
            }
            as.links = static_cast<std::uint8_t>(std::min(as.links + 1, 255));
            as.installed = as.installed || link.installed;
        }

        void addLink(const CableRow& row, std::size_t index)
        {
            const auto a = resolve(row.a, index, "a");
            const auto b = resolve(row.b, index, "b");
            if (!a || !b)
                return;
            Link link { *a, *b, row.tier, row.medium, row.lengthM, static_cast<std::uint32_t>(row.assembly), row.installed };
            checkCage(*a, row.cage[0], row.pos[0], index, "a");
            checkCage(*b, row.cage[1], row.pos[1], index, "b");
            noteEndpoint(*a, *b, row.installed);
            noteEndpoint(*b, *a, row.installed);
            addAssembly(row, link, index);
            m_plan.links.push_back(link);
        }

        FieldReader& m_r;
        Plan& m_plan;
        std::unordered_map<std::string, std::uint32_t> m_switchIndex, m_nodeIndex, m_mgmtIndex;
        std::vector<std::string> m_nodeOrder, m_mgmtOrder;
        std::uint32_t m_mgmtBase = 0, m_switchBase = 0;
        std::vector<long long> m_firstRow;
    };

    void readSpec(FieldReader& r, const json& v, const std::string& source, PlanSpec& spec)
    {
        auto parsed = parsePlanSpec(v, source);
        if (parsed) {
            spec = std::move(*parsed);
            return;
        }
        for (Error e : parsed.errors()) {
            e.message = "spec." + e.message;
            r.addError(std::move(e));
        }
    }

    void readBody(FieldReader& r, const json& doc, const std::vector<CableRow>& rows, const std::string& source, Plan& plan)
    {
        readSpec(r, doc["spec"], source, plan.spec);
        plan.summary = readSummary(r, doc["summary"], plan.spec.fabric);
        plan.findings = readList<Finding>(r, doc, "findings", readFinding);
        auto switches = readList<Device>(r, doc, "switches", readSwitch);
        plan.bom = readList<BomLine>(r, doc, "bom", readBomLine);
        if (doc.contains("analysis"))
            plan.analysis = readAnalysis(r, doc["analysis"]);
        Linker(r, plan).run(std::move(switches), rows);
    }

} // namespace

Result<Plan> readPlanJson(std::string_view text, const std::string& source)
{
    FieldReader r(source, "PLAN_FIELD", "PLAN_FIELD");
    std::vector<CableRow> rows;
    json doc;
    try {
        doc = json::parse(text.begin(), text.end(), CableCollector { &r, &rows, {}, false });
    } catch (const json::exception& e) {
        return Error { "PLAN_SYNTAX", jsonSyntaxMessage(e), source, {} };
    }
    if (!doc.is_object())
        return Error { "PLAN_FIELD", "(top level): must be a JSON object, got " + jsonTypeName(doc), source, {} };
    for (const auto key : kRequired) {
        if (!doc.contains(key))
            r.fail(std::string(key), "required member of a plan document");
    }
    if (doc.contains("cables") && !doc["cables"].is_array())
        r.mustBe("cables", "a list", doc["cables"]);
    if (!r.ok())
        return r.errors();
    Plan plan;
    readBody(r, doc, rows, source, plan);
    if (!r.ok())
        return r.errors();
    return plan;
}

} // namespace railyard::core
