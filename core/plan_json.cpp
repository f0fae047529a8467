// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/plan_json.h"

#include "core/json_text.h"
#include "core/plan_json_parts.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <span>

// The plan document writer (interfaces.md §3). The big lists (switches, cables, BOM) are
// written row by row into a buffer that is flushed in chunks; nlohmann::json is used only
// for the small members (spec, summary, analysis). Every row is one line.

namespace railyard::core {

using namespace detail;

namespace {

    using nlohmann::json;

    constexpr std::size_t kChunk = 1 << 20;

    class Writer {
    public:
        explicit Writer(std::ostream& out)
            : m_out(out)
        {
            m_buf.reserve(kChunk + 4096);
        }
        ~Writer() { flush(); }
        Writer(const Writer&) = delete;
        Writer& operator=(const Writer&) = delete;

        std::string& buf() { return m_buf; }
        void maybeFlush()
        {
            if (m_buf.size() >= kChunk)
                flush();
        }
        void flush()
        {
            m_out.write(m_buf.data(), static_cast<std::streamsize>(m_buf.size()));
            m_buf.clear();
        }

    private:
        std::ostream& m_out;
        std::string m_buf;
    };

    // Members of `spec` and `summary` in the order of interfaces.md, then any others (sorted).
    constexpr std::string_view kSpecOrder[] = { "name", "fabric", "nodes", "gpus", "node_type", "gpus_per_node",
        "rails", "nic", "link", "leaf_switch", "spine_switch", "core_switch", "su_size", "oversubscription", "tiers",
        "reserved_leaf_ports", "management_ports", "planes", "lossless", "node_names", "grow_to", "racks", "addressing" };
    constexpr std::string_view kSummaryOrder[] = { "nodes", "gpus", "rails", "su_count", "tiers", "switches",
        "cables", "port", "per_gpu_gbps", "bisection_gbps", "oversubscription", "planes", "su_size",
        "leaves_per_rail", "pods", "sus_per_pod", "leaf_downlinks", "leaf_uplinks", "spines_per_group",
        "links_per_leaf_spine", "spine_downlinks", "spine_uplinks", "links_per_spine_core", "assemblies",
        "transceivers", "lids_per_subnet", "power_w", "rack_units", "cost_usd", "final" };

    /// `"name": {` members `}`, top-level members in `order`, values pretty-printed.
    void writeObjectMember(Writer& w, std::string_view name, const json& obj, std::span<const std::string_view> order = {})
    {
        std::string& b = w.buf();
        b += "  \"";
        b += name;
        b += "\": {";
        bool first = true;
        auto put = [&](const std::string& key, const json& value) {
            b += first ? "\n    " : ",\n    ";
            first = false;
            appendJsonString(b, key);
            b += ": ";
            for (const char c : value.dump(2, ' ', false, json::error_handler_t::replace)) {
                b += c;
                if (c == '\n')
                    b += "    ";
            }
        };
        for (const auto key : order) {
            if (const auto it = obj.find(key); it != obj.end())
                put(std::string(key), *it);
        }
        for (const auto& [key, value] : obj.items()) {
            if (std::find(order.begin(), order.end(), key) == order.end())
                put(key, value);
        }
        b += first ? "}" : "\n  }";
    }

    /// `"name": [` rows `]`, one row per line.
    template <class RowFn>
    void writeArray(Writer& w, std::string_view name, std::size_t count, RowFn row)
    {
        std::string& b = w.buf();
        b += "  \"";
        b += name;
        b += "\": [";
        for (std::size_t i = 0; i < count; ++i) {
            b += i == 0 ? "\n    " : ",\n    ";
            row(b, i);
            w.maybeFlush();
        }
        b += count == 0 ? "]" : "\n  ]";
    }

    void writeFinding(std::string& b, const Finding& f)
    {
        b += "{\"severity\": ";
        appendJsonString(b, toString(f.severity));
        b += ", \"code\": ";
        appendJsonString(b, f.code);
        b += ", \"message\": ";
        appendJsonString(b, f.message);
        b += ", \"where\": ";
        appendJsonString(b, f.where);
        b += '}';
    }

    void appendIntMember(std::string& b, std::string_view key, long long value)
    {
        b += ", \"";
        b += key;
        b += "\": ";
        appendJsonInt(b, value);
    }

    void appendBoolMember(std::string& b, std::string_view key, bool value)
    {
        b += ", \"";
        b += key;
        b += "\": ";
        b += value ? "true" : "false";
    }

    void writeSwitch(std::string& b, const Device& d, bool planes)
    {
        b += "{\"id\": ";
        appendJsonString(b, d.name);
        b += ", \"tier\": ";
        appendJsonString(b, toString(d.tier));
        b += ", \"model\": ";
        appendJsonString(b, d.model);
        if (planes)
            appendIntMember(b, "plane", d.plane);
        if (d.su > 0)
            appendIntMember(b, "su", d.su);
        if (d.rail >= 0)
            appendIntMember(b, "rail", d.rail);
        if (d.pod > 0)
            appendIntMember(b, "pod", d.pod);
        appendIntMember(b, "ports", d.ports);
        appendIntMember(b, "ports_per_cage", d.portsPerCage);
        appendIntMember(b, "ports_used", d.portsUsed);
        appendIntMember(b, "ports_free", d.portsFree());
        appendIntMember(b, "ports_reserved", d.portsReserved);
        appendBoolMember(b, "installed", d.installed);
        b += '}';
    }

    /// Writes cable rows fast: device names are escaped once, up front.
    class CableWriter {
    public:
        explicit CableWriter(const Plan& plan)
            : m_plan(plan)
            , m_planes(std::max(plan.spec.planes, plan.summary.planes) > 1)
        {
            m_names.reserve(plan.devices.size());
            for (const auto& d : plan.devices) {
                std::string escaped;
                appendJsonEscaped(escaped, d.name);
                m_names.push_back(std::move(escaped));
            }
        }

        void row(std::string& b, const Link& link) const
        {
            b += "{\"a\": ";
            port(b, link.a);
            b += ", \"b\": ";
            port(b, link.b);
            b += ", \"tier\": \"";
            b += toString(link.tier);
            b += "\", \"type\": \"";
            b += mediumName(link.medium);
            b += "\", \"length_m\": ";
            appendJsonNumber(b, link.lengthM);
            cage(b, link.a, "a");
            cage(b, link.b, "b");
            appendIntMember(b, "assembly", link.assembly);
            b += ", \"part\": ";
            const auto& assemblies = m_plan.assemblies;
            appendJsonString(b, link.assembly < assemblies.size() ? std::string_view(assemblies[link.assembly].cable) : "");
            appendBoolMember(b, "installed", link.installed);
            b += '}';
        }

    private:
        void port(std::string& b, const PortRef& ref) const
        {
            b += '"';
            if (ref.device >= m_names.size()) {
                b += "?/";
                appendJsonInt(b, ref.port);
                b += '"';
                return;
            }
            b += m_names[ref.device];
            b += '/';
            if (m_plan.devices[ref.device].kind == DeviceKind::Node) {
                b += "nic";
                appendJsonInt(b, ref.port);
                if (m_planes) {
                    b += "-p";
                    appendJsonInt(b, ref.plane + 1);
                }
            } else {
                appendJsonInt(b, ref.port);
            }
            b += '"';
        }

        void cage(std::string& b, const PortRef& ref, std::string_view end) const
        {
            const auto [c, pos] = m_plan.cageOf(ref);
            if (c == 0)
                return;
            b += ", \"";
            b += end;
            b += "_cage\": ";
            appendJsonInt(b, c);
            b += ", \"";
            b += end;
            b += "_pos\": ";
            appendJsonInt(b, pos);
        }

        const Plan& m_plan;
        bool m_planes;
        std::vector<std::string> m_names;
    };

    void writeBomLine(std::string& b, const BomLine& line)
    {
        b += "{\"item\": ";
        appendJsonString(b, line.item);
        b += ", \"part\": ";
        appendJsonString(b, line.part);
        appendIntMember(b, "quantity", line.quantity);
        b += ", \"category\": ";
        appendJsonString(b, line.category);
        b += ", \"catalog_id\": ";
        appendJsonString(b, line.catalogId);
        if (line.category == "cable" || line.lengthM != 0) {
            b += ", \"length_m\": ";
            appendJsonNumber(b, line.lengthM);
        }
        if (line.unitPriceUsd) {
            b += ", \"unit_price_usd\": ";
            appendJsonNumber(b, *line.unitPriceUsd);
        }
        b += ", \"unit_power_w\": ";
        appendJsonNumber(b, line.unitPowerW);
        appendIntMember(b, "unit_rack_units", line.unitRackUnits);
        b += '}';
    }

    void writeSwitches(Writer& w, const Plan& plan)
    {
        std::vector<std::size_t> switches;
        for (std::size_t i = 0; i < plan.devices.size(); ++i) {
            if (plan.devices[i].kind == DeviceKind::Switch)
                switches.push_back(i);
        }
        const bool planes = std::max(plan.spec.planes, plan.summary.planes) > 1;
        writeArray(w, "switches", switches.size(),
            [&](std::string& b, std::size_t i) { writeSwitch(b, plan.devices[switches[i]], planes); });
    }

} // namespace

void writePlanJson(const Plan& plan, std::ostream& out)
{
    Writer w(out);
    w.buf() += "{\n";
    writeObjectMember(w, "spec", toJson(plan.spec), kSpecOrder);
    w.buf() += ",\n";
    Summary summary = plan.summary;
    summary.port.fabric = plan.spec.fabric; // what the reader assumes
    writeObjectMember(w, "summary", toJson(summary), kSummaryOrder);
    w.buf() += ",\n";
    writeArray(w, "findings", plan.findings.size(),
        [&](std::string& b, std::size_t i) { writeFinding(b, plan.findings[i]); });
    w.buf() += ",\n";
    writeSwitches(w, plan);
    w.buf() += ",\n";
    const CableWriter cables(plan);
    writeArray(w, "cables", plan.links.size(),
        [&](std::string& b, std::size_t i) { cables.row(b, plan.links[i]); });
    w.buf() += ",\n";
    writeArray(w, "bom", plan.bom.size(), [&](std::string& b, std::size_t i) { writeBomLine(b, plan.bom[i]); });
    w.buf() += ",\n";
    writeObjectMember(w, "analysis", analysisJson(plan.analysis));
    w.buf() += "\n}\n";
}

} // namespace railyard::core
