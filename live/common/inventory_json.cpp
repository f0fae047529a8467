// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/inventory_json.h"

#include <nlohmann/json.hpp>

#include <limits>
#include <string>
#include <utility>

namespace railyard::live {

using nlohmann::json;

std::string_view toString(Tri value)
{
    switch (value) {
    case Tri::On:
        return "on";
    case Tri::Off:
        return "off";
    case Tri::Unknown:
        break;
    }
    return "unknown";
}

std::string_view toString(LinkLayer value)
{
    switch (value) {
    case LinkLayer::InfiniBand:
        return "InfiniBand";
    case LinkLayer::Ethernet:
        return "Ethernet";
    case LinkLayer::Unknown:
        break;
    }
    return "unknown";
}

std::string_view toString(CounterKind value)
{
    switch (value) {
    case CounterKind::Words4:
        return "words4";
    case CounterKind::Saturating:
        return "saturating";
    case CounterKind::Wrapping32:
        return "wrapping32";
    case CounterKind::Plain:
        break;
    }
    return "plain";
}

namespace {

    // ---- writing -------------------------------------------------------------------------

    json pcieJson(const PcieLink& p)
    {
        return { { "speed_gts", p.speedGts }, { "max_speed_gts", p.maxSpeedGts }, { "width", p.width },
            { "max_width", p.maxWidth } };
    }

    template <class T, std::size_t N, class F>
    json arrayJson(const std::array<T, N>& values, F&& convert)
    {
        json out = json::array();
        for (const T& v : values)
            out.push_back(convert(v));
        return out;
    }

    json portJson(const RdmaPort& p)
    {
        json out = { { "number", p.number }, { "link_layer", toString(p.linkLayer) }, { "state", p.state },
            { "state_name", p.stateName }, { "phys_state", p.physState }, { "phys_state_name", p.physStateName },
            { "rate_text", p.rateText }, { "rate_gbps", p.rateGbps }, { "width", p.width },
            { "generation", p.generation }, { "lid", p.lid }, { "sm_lid", p.smLid }, { "gid0", p.gid0 },
            { "rocev2_gid_index", nullptr }, { "rocev2_gid", p.rocev2Gid } };
        if (p.rocev2GidIndex)
            out["rocev2_gid_index"] = *p.rocev2GidIndex;
        json gids = json::array();
        for (const GidEntry& g : p.gids)
            gids.push_back({ { "index", g.index }, { "gid", g.gid }, { "type", g.type }, { "netdev", g.netdev }, { "ipv4", g.ipv4 } });
        out["gids"] = std::move(gids);
        return out;
    }

    json optionalInt(const std::optional<int>& v)
    {
        return v ? json(*v) : json(nullptr);
    }

    json networkJson(const HostNetwork& n)
    {
        json addresses = json::object();
        for (const auto& [netdev, list] : n.addresses) {
            json entries = json::array();
            for (const Ipv4Address& a : list)
                entries.push_back({ { "address", a.address }, { "prefix_length", a.prefixLength } });
            addresses[netdev] = std::move(entries);
        }
        json sysctls = json::object();
        for (const auto& [name, c] : n.sysctls)
            sysctls[name] = { { "rp_filter", optionalInt(c.rpFilter) }, { "arp_ignore", optionalInt(c.arpIgnore) },
                { "arp_announce", optionalInt(c.arpAnnounce) }, { "arp_filter", optionalInt(c.arpFilter) } };
        json rules = json::array();
        for (const RoutingRule& r : n.rules)
            rules.push_back({ { "priority", r.priority }, { "from", r.from }, { "from_prefix", r.fromPrefix }, { "table", r.table },
                { "selectors_beyond_from", r.selectorsBeyondFrom } });
        json routes = json::array();
        for (const IpRoute& r : n.routes)
            routes.push_back({ { "table", r.table }, { "type", r.type }, { "destination", r.destination }, { "gateway", r.gateway },
                { "dev", r.dev }, { "source", r.source } });
        return { { "addresses_known", n.addressesKnown }, { "addresses", std::move(addresses) }, { "sysctls", std::move(sysctls) },
            { "rules_known", n.rulesKnown }, { "rules", std::move(rules) }, { "routes_known", n.routesKnown },
            { "routes", std::move(routes) } };
    }

    json qosJson(const QosConfig& q)
    {
        const auto tri = [](Tri t) { return std::string(toString(t)); };
        return { { "pfc_known", q.pfcKnown }, { "pfc_enabled", arrayJson(q.pfcEnabled, [](bool b) { return b; }) },
            { "trust", q.trust }, { "ecn_np", arrayJson(q.ecnNp, tri) }, { "ecn_rp", arrayJson(q.ecnRp, tri) } };
    }

    json lldpJson(const LldpNeighbor& n)
    {
        return { { "local_interface", n.localInterface }, { "system_name", n.systemName }, { "port_id", n.portId },
            { "port_description", n.portDescription }, { "chassis_id", n.chassisId } };
    }

    json deviceJson(const RdmaDevice& d)
    {
        json ports = json::array();
        for (const RdmaPort& p : d.ports)
            ports.push_back(portJson(p));
        json lldp = json::array();
        for (const LldpNeighbor& n : d.lldp)
            lldp.push_back(lldpJson(n));
        return { { "name", d.name }, { "rail", d.rail }, { "hca_type", d.hcaType }, { "fw_version", d.fwVersion },
            { "board_id", d.boardId }, { "node_guid", d.nodeGuid }, { "sys_image_guid", d.sysImageGuid },
            { "node_desc", d.nodeDesc }, { "netdev", d.netdev }, { "pci_address", d.pciAddress },
            { "numa_node", d.numaNode }, { "mtu", d.mtu }, { "pcie", pcieJson(d.pcie) }, { "ports", std::move(ports) },
            { "qos", qosJson(d.qos) }, { "lldp", std::move(lldp) } };
    }

    json gpuJson(const Gpu& g)
    {
        return { { "index", g.index }, { "pci_address", g.pciAddress }, { "name", g.name }, { "numa_node", g.numaNode },
            { "pcie", pcieJson(g.pcie) }, { "closest_nic", g.closestNic }, { "path_to_nic", g.pathToNic },
            { "acs_on_path", toString(g.acsOnPath) } };
    }

    json counterJson(const Counter& c)
    {
        return { { "value", c.value }, { "kind", toString(c.kind) }, { "width", c.widthBits },
            { "saturated", c.saturated } };
    }

    json counterMapJson(const std::map<std::string, Counter>& counters)
    {
        json out = json::object();
        for (const auto& [name, c] : counters)
            out[name] = counterJson(c);
        return out;
    }

    // ---- reading -------------------------------------------------------------------------

    constexpr std::size_t kMaxReportedErrors = 20;

    // Collects every missing or mistyped field of one document, named by its JSON path.
    class Reader {
    public:
        explicit Reader(std::string_view where)
            : m_where(where)
        {
        }

        void fail(const std::string& path, const std::string& what)
        {
            if (m_errors.size() >= kMaxReportedErrors)
                return;
            m_errors.push_back({ "AGENT_JSON_FIELD", path + ": " + what, m_where,
                "the agent answered a document this program cannot read; check that agent and client come from the "
                "same Railyard release" });
        }

        bool failed() const { return !m_errors.empty(); }
        core::Errors takeErrors() { return std::move(m_errors); }

    private:
        std::string m_where;
        core::Errors m_errors;
    };

    std::string typeWord(const json& v)
    {
        return v.is_null() ? "null" : std::string(v.type_name());
    }

    // One JSON object being read at `path` ("devices[2].ports[0]").
    class Obj {
    public:
        Obj(Reader& reader, const json& value, std::string path)
            : m_reader(reader)
            , m_value(value)
            , m_path(std::move(path))
        {
        }

        std::string pathOf(std::string_view key) const
        {
            return m_path.empty() ? std::string(key) : m_path + "." + std::string(key);
        }

        // The member `key`, or null (after reporting it) when absent.
        const json* member(std::string_view key, bool required = true) const
        {
            const auto it = m_value.find(key);
            if (it == m_value.end()) {
                if (required)
                    m_reader.fail(pathOf(key), "missing");
                return nullptr;
            }
            return &*it;
        }

        void mistyped(std::string_view key, std::string_view expected, const json& got) const
        {
            m_reader.fail(pathOf(key), "expected " + std::string(expected) + ", got " + typeWord(got));
        }

        std::string str(std::string_view key) const
        {
            const json* v = member(key);
            if (!v)
                return {};
            if (!v->is_string()) {
                mistyped(key, "a string", *v);
                return {};
            }
            return v->get<std::string>();
        }

        bool boolean(std::string_view key) const
        {
            const json* v = member(key);
            if (!v)
                return false;
            if (!v->is_boolean()) {
                mistyped(key, "true or false", *v);
                return false;
            }
            return v->get<bool>();
        }

        double number(std::string_view key) const
        {
            const json* v = member(key);
            if (!v)
                return 0;
            if (!v->is_number()) {
                mistyped(key, "a number", *v);
                return 0;
            }
            return v->get<double>();
        }

        int integer(std::string_view key) const
        {
            const json* v = member(key);
            return v ? integerOf(key, *v) : 0;
        }

        std::optional<int> optionalInteger(std::string_view key) const
        {
            const json* v = member(key, false);
            if (!v || v->is_null())
                return std::nullopt;
            return integerOf(key, *v);
        }

        std::int64_t int64(std::string_view key) const
        {
            const json* v = member(key);
            if (!v)
                return 0;
            if (!v->is_number_integer()) {
                mistyped(key, "an integer", *v);
                return 0;
            }
            if (v->is_number_unsigned() && v->get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max())) {
                m_reader.fail(pathOf(key), "out of range");
                return 0;
            }
            return v->get<std::int64_t>();
        }

        std::uint64_t unsigned64(std::string_view key) const
        {
            const json* v = member(key);
            return v ? unsigned64Of(pathOf(key), *v) : 0;
        }

        std::uint64_t unsigned64Of(const std::string& path, const json& v) const
        {
            if (v.is_number_unsigned())
                return v.get<std::uint64_t>();
            if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
                return static_cast<std::uint64_t>(v.get<std::int64_t>());
            m_reader.fail(path,
                "expected a non-negative integer, got " + (v.is_number() ? v.dump() : typeWord(v)));
            return 0;
        }

        template <class E>
        E enumeration(std::string_view key, std::initializer_list<std::pair<std::string_view, E>> names) const
        {
            const json* v = member(key);
            if (!v)
                return names.begin()->second;
            if (v->is_string()) {
                const std::string text = v->get<std::string>();
                for (const auto& [name, value] : names) {
                    if (text == name)
                        return value;
                }
            }
            std::string expected = "one of";
            for (const auto& [name, value] : names)
                expected += std::string(expected.size() > 6 ? ", \"" : " \"") + std::string(name) + "\"";
            m_reader.fail(pathOf(key), "expected " + expected + ", got " + v->dump());
            return names.begin()->second;
        }

        // The member `key` as an object (nullopt, reported, when absent or not an object).
        std::optional<Obj> object(std::string_view key) const
        {
            const json* v = member(key);
            if (!v)
                return std::nullopt;
            if (!v->is_object()) {
                mistyped(key, "an object", *v);
                return std::nullopt;
            }
            return Obj(m_reader, *v, pathOf(key));
        }

        const json* array(std::string_view key) const
        {
            const json* v = member(key);
            if (!v)
                return nullptr;
            if (!v->is_array()) {
                mistyped(key, "a list", *v);
                return nullptr;
            }
            return v;
        }

        // Calls `each(Obj)` for every element of the list `key`; elements that are not objects are reported.
        template <class F>
        void forEachObject(std::string_view key, F&& each) const
        {
            const json* list = array(key);
            if (!list)
                return;
            for (std::size_t i = 0; i < list->size(); ++i) {
                const json& e = (*list)[i];
                const std::string path = pathOf(key) + "[" + std::to_string(i) + "]";
                if (!e.is_object()) {
                    m_reader.fail(path, "expected an object, got " + typeWord(e));
                    continue;
                }
                each(Obj(m_reader, e, path));
            }
        }

        Reader& reader() const { return m_reader; }
        const json& value() const { return m_value; }
        const std::string& path() const { return m_path; }

    private:
        int integerOf(std::string_view key, const json& v) const
        {
            if (!v.is_number_integer()) {
                mistyped(key, "an integer", v);
                return 0;
            }
            const bool fits = v.is_number_unsigned()
                ? v.get<std::uint64_t>() <= std::uint64_t(std::numeric_limits<int>::max())
                : (v.get<std::int64_t>() >= std::numeric_limits<int>::min()
                      && v.get<std::int64_t>() <= std::numeric_limits<int>::max());
            if (!fits) {
                m_reader.fail(pathOf(key), "out of range: " + v.dump());
                return 0;
            }
            return v.get<int>();
        }

        Reader& m_reader;
        const json& m_value;
        std::string m_path;
    };

    Tri readTri(const Obj& o, std::string_view key)
    {
        return o.enumeration<Tri>(key, { { "unknown", Tri::Unknown }, { "off", Tri::Off }, { "on", Tri::On } });
    }

    template <class T, std::size_t N, class F>
    std::array<T, N> readFixedArray(const Obj& o, std::string_view key, F&& element)
    {
        std::array<T, N> out {};
        const json* list = o.array(key);
        if (!list)
            return out;
        if (list->size() != N) {
            o.reader().fail(o.pathOf(key),
                "expected " + std::to_string(N) + " entries (one per priority), got " + std::to_string(list->size()));
            return out;
        }
        for (std::size_t i = 0; i < N; ++i)
            out[i] = element((*list)[i], o.pathOf(key) + "[" + std::to_string(i) + "]");
        return out;
    }

    PcieLink readPcie(const Obj& parent)
    {
        PcieLink p;
        if (const auto o = parent.object("pcie")) {
            p.speedGts = o->number("speed_gts");
            p.maxSpeedGts = o->number("max_speed_gts");
            p.width = o->integer("width");
            p.maxWidth = o->integer("max_width");
        }
        return p;
    }

    RdmaPort readPort(const Obj& o)
    {
        RdmaPort p;
        p.number = o.integer("number");
        p.linkLayer = o.enumeration<LinkLayer>("link_layer",
            { { "unknown", LinkLayer::Unknown }, { "InfiniBand", LinkLayer::InfiniBand }, { "Ethernet", LinkLayer::Ethernet } });
        p.state = o.integer("state");
        p.stateName = o.str("state_name");
        p.physState = o.integer("phys_state");
        p.physStateName = o.str("phys_state_name");
        p.rateText = o.str("rate_text");
        p.rateGbps = o.number("rate_gbps");
        p.width = o.integer("width");
        p.generation = o.str("generation");
        p.lid = o.integer("lid");
        p.smLid = o.integer("sm_lid");
        p.gid0 = o.str("gid0");
        p.rocev2GidIndex = o.optionalInteger("rocev2_gid_index");
        p.rocev2Gid = o.str("rocev2_gid");
        // Optional: an older agent sends no GID table.
        if (o.member("gids", false))
            o.forEachObject("gids", [&p](const Obj& g) {
                p.gids.push_back({ g.integer("index"), g.str("gid"), g.str("type"), g.str("netdev"), g.str("ipv4") });
            });
        return p;
    }

    HostNetwork readNetwork(const Obj& o)
    {
        HostNetwork n;
        n.addressesKnown = o.boolean("addresses_known");
        if (const auto a = o.object("addresses")) {
            for (const auto& [netdev, list] : a->value().items()) {
                auto& out = n.addresses[netdev];
                a->forEachObject(netdev, [&out](const Obj& e) { out.push_back({ e.str("address"), e.integer("prefix_length") }); });
            }
        }
        if (const auto c = o.object("sysctls")) {
            for (const auto& [name, value] : c->value().items()) {
                if (const auto one = c->object(name))
                    n.sysctls[name] = NetSysctls { one->optionalInteger("rp_filter"), one->optionalInteger("arp_ignore"),
                        one->optionalInteger("arp_announce"), one->optionalInteger("arp_filter") };
            }
        }
        n.rulesKnown = o.boolean("rules_known");
        o.forEachObject("rules", [&n](const Obj& r) {
            n.rules.push_back({ r.integer("priority"), r.str("from"), r.integer("from_prefix"), r.str("table"),
                r.boolean("selectors_beyond_from") });
        });
        n.routesKnown = o.boolean("routes_known");
        o.forEachObject("routes", [&n](const Obj& r) {
            n.routes.push_back({ r.str("table"), r.str("type"), r.str("destination"), r.str("gateway"), r.str("dev"), r.str("source") });
        });
        return n;
    }

    QosConfig readQos(const Obj& parent)
    {
        QosConfig q;
        const auto o = parent.object("qos");
        if (!o)
            return q;
        Reader& r = o->reader();
        q.pfcKnown = o->boolean("pfc_known");
        q.pfcEnabled = readFixedArray<bool, 8>(*o, "pfc_enabled", [&r](const json& v, const std::string& path) {
            if (!v.is_boolean()) {
                r.fail(path, "expected true or false, got " + typeWord(v));
                return false;
            }
            return v.get<bool>();
        });
        q.trust = o->str("trust");
        const auto tri = [&r](const json& v, const std::string& path) {
            if (v.is_string()) {
                const std::string t = v.get<std::string>();
                if (t == "on")
                    return Tri::On;
                if (t == "off")
                    return Tri::Off;
                if (t == "unknown")
                    return Tri::Unknown;
            }
            r.fail(path, "expected one of \"on\", \"off\", \"unknown\", got " + v.dump());
            return Tri::Unknown;
        };
        q.ecnNp = readFixedArray<Tri, 8>(*o, "ecn_np", tri);
        q.ecnRp = readFixedArray<Tri, 8>(*o, "ecn_rp", tri);
        return q;
    }

    RdmaDevice readDevice(const Obj& o)
    {
        RdmaDevice d;
        d.name = o.str("name");
        d.rail = o.integer("rail");
        d.hcaType = o.str("hca_type");
        d.fwVersion = o.str("fw_version");
        d.boardId = o.str("board_id");
        d.nodeGuid = o.str("node_guid");
        d.sysImageGuid = o.str("sys_image_guid");
        d.nodeDesc = o.str("node_desc");
        d.netdev = o.str("netdev");
        d.pciAddress = o.str("pci_address");
        d.numaNode = o.integer("numa_node");
        d.mtu = o.integer("mtu");
        d.pcie = readPcie(o);
        o.forEachObject("ports", [&d](const Obj& p) { d.ports.push_back(readPort(p)); });
        d.qos = readQos(o);
        o.forEachObject("lldp", [&d](const Obj& n) {
            d.lldp.push_back({ n.str("local_interface"), n.str("system_name"), n.str("port_id"),
                n.str("port_description"), n.str("chassis_id") });
        });
        return d;
    }

    Gpu readGpu(const Obj& o)
    {
        Gpu g;
        g.index = o.integer("index");
        g.pciAddress = o.str("pci_address");
        g.name = o.str("name");
        g.numaNode = o.integer("numa_node");
        g.pcie = readPcie(o);
        g.closestNic = o.str("closest_nic");
        g.pathToNic = o.str("path_to_nic");
        g.acsOnPath = readTri(o, "acs_on_path");
        return g;
    }

    Counter readCounter(const Obj& o)
    {
        Counter c;
        c.value = o.unsigned64("value");
        c.kind = o.enumeration<CounterKind>("kind",
            { { "plain", CounterKind::Plain }, { "words4", CounterKind::Words4 },
                { "saturating", CounterKind::Saturating }, { "wrapping32", CounterKind::Wrapping32 } });
        c.widthBits = o.integer("width");
        if (c.widthBits < 1 || c.widthBits > 64)
            o.reader().fail(o.pathOf("width"), "expected 1 to 64 bits, got " + std::to_string(c.widthBits));
        c.saturated = o.boolean("saturated");
        return c;
    }

    std::map<std::string, Counter> readCounterMap(const Obj& parent, std::string_view key)
    {
        std::map<std::string, Counter> out;
        const auto o = parent.object(key);
        if (!o)
            return out;
        for (const auto& [name, value] : o->value().items()) {
            const std::string path = o->pathOf(name);
            if (!value.is_object()) {
                o->reader().fail(path, "expected an object {value, kind, width, saturated}, got " + typeWord(value));
                continue;
            }
            out[name] = readCounter(Obj(o->reader(), value, path));
        }
        return out;
    }

    PortCounters readPortCounters(const Obj& o)
    {
        PortCounters p;
        p.device = o.str("device");
        p.port = o.integer("port");
        p.rail = o.integer("rail");
        p.netdev = o.str("netdev");
        p.counters = readCounterMap(o, "counters");
        p.hwCounters = readCounterMap(o, "hw_counters");
        if (const auto e = o.object("ethtool")) {
            for (const auto& [name, value] : e->value().items())
                p.ethtool[name] = e->unsigned64Of(e->pathOf(name), value);
        }
        return p;
    }

    // Checks that `doc` is an object with an api_version we can read.
    core::Status checkDocument(const json& doc, std::string_view where, std::string_view what)
    {
        if (!doc.is_object()) {
            return core::Error { "AGENT_JSON_FIELD",
                std::string("expected a JSON object (") + std::string(what) + "), got " + typeWord(doc),
                std::string(where), "is this address a railyard-agent?" };
        }
        return checkApiVersion(doc, where);
    }

} // namespace

core::Status checkApiVersion(const nlohmann::json& doc, std::string_view where)
{
    const auto it = doc.is_object() ? doc.find("api_version") : doc.end();
    if (!doc.is_object() || it == doc.end()) {
        return core::Error { "AGENT_API_VERSION", "api_version: missing", std::string(where),
            "is this address a railyard-agent? Every agent answer carries \"api_version\"" };
    }
    if (!it->is_number_integer() || (!it->is_number_unsigned() && it->get<std::int64_t>() < 0)) {
        return core::Error { "AGENT_API_VERSION", "api_version: expected a non-negative integer, got " + it->dump(),
            std::string(where), "is this address a railyard-agent?" };
    }
    const auto version = it->is_number_unsigned() ? it->get<std::uint64_t>()
                                                  : static_cast<std::uint64_t>(it->get<std::int64_t>());
    return checkApiVersion(version, where);
}

core::Status checkApiVersion(std::uint64_t version, std::string_view where)
{
    if (version <= std::uint64_t(kApiVersion))
        return core::Status::success();
    return core::Error { "AGENT_API_VERSION",
        "the agent speaks API version " + std::to_string(version) + ", newer than version " + std::to_string(kApiVersion)
            + " that this program understands",
        std::string(where),
        "upgrade this program to a release that reads agent API version " + std::to_string(version)
            + ", or run an agent of API version " + std::to_string(kApiVersion) };
}

json toJson(const Inventory& inventory)
{
    json devices = json::array();
    for (const RdmaDevice& d : inventory.devices)
        devices.push_back(deviceJson(d));
    json gpus = json::array();
    for (const Gpu& g : inventory.gpus)
        gpus.push_back(gpuJson(g));
    json out = { { "api_version", kApiVersion }, { "node", inventory.node }, { "hostname", inventory.hostname },
        { "node_type", inventory.nodeType }, { "devices", std::move(devices) }, { "gpus", std::move(gpus) },
        { "gpu_direct",
            { { "peermem", toString(inventory.gpuDirect.peermem) }, { "dmabuf", toString(inventory.gpuDirect.dmabuf) },
                { "possible", inventory.gpuDirect.possible() } } },
        { "subnet_manager", nullptr }, { "network", nullptr }, { "warnings", inventory.warnings } };
    if (inventory.network)
        out["network"] = networkJson(*inventory.network);
    if (inventory.subnetManager) {
        out["subnet_manager"] = { { "master_guid", inventory.subnetManager->masterGuid },
            { "master_lid", inventory.subnetManager->masterLid },
            { "routing_engine", inventory.subnetManager->routingEngine } };
    }
    return out;
}

json toJson(const CounterSnapshot& counters)
{
    json ports = json::array();
    for (const PortCounters& p : counters.ports) {
        json ethtool = json::object();
        for (const auto& [name, value] : p.ethtool)
            ethtool[name] = value;
        ports.push_back({ { "device", p.device }, { "port", p.port }, { "rail", p.rail }, { "netdev", p.netdev },
            { "counters", counterMapJson(p.counters) }, { "hw_counters", counterMapJson(p.hwCounters) },
            { "ethtool", std::move(ethtool) } });
    }
    return { { "api_version", kApiVersion }, { "node", counters.node }, { "timestamp_ms", counters.timestampMs },
        { "ports", std::move(ports) } };
}

json toJson(const AgentHealth& health)
{
    return { { "api_version", kApiVersion }, { "status", health.status }, { "node", health.node },
        { "uptime_s", health.uptimeSeconds } };
}

core::Result<Inventory> inventoryFromJson(const nlohmann::json& doc, std::string_view where)
{
    if (core::Status s = checkDocument(doc, where, "an inventory"); !s)
        return s.errors();
    Reader reader(where);
    const Obj o(reader, doc, "");
    Inventory inv;
    inv.node = o.str("node");
    inv.hostname = o.str("hostname");
    inv.nodeType = o.str("node_type");
    o.forEachObject("devices", [&inv](const Obj& d) { inv.devices.push_back(readDevice(d)); });
    o.forEachObject("gpus", [&inv](const Obj& g) { inv.gpus.push_back(readGpu(g)); });
    if (const auto g = o.object("gpu_direct")) {
        inv.gpuDirect.peermem = readTri(*g, "peermem");
        inv.gpuDirect.dmabuf = readTri(*g, "dmabuf");
    }
    if (const json* sm = o.member("subnet_manager", false); sm && !sm->is_null()) {
        if (const auto s = o.object("subnet_manager")) {
            inv.subnetManager = SubnetManager { s->str("master_guid"), s->integer("master_lid"), s->str("routing_engine") };
        }
    }
    // Optional (api_version 1 agents before the host checks send none).
    if (const json* n = o.member("network", false); n && !n->is_null()) {
        if (const auto network = o.object("network"))
            inv.network = readNetwork(*network);
    }
    if (const json* w = o.array("warnings")) {
        for (std::size_t i = 0; i < w->size(); ++i) {
            if ((*w)[i].is_string())
                inv.warnings.push_back((*w)[i].get<std::string>());
            else
                reader.fail("warnings[" + std::to_string(i) + "]", "expected a string, got " + typeWord((*w)[i]));
        }
    }
    if (reader.failed())
        return reader.takeErrors();
    return inv;
}

core::Result<CounterSnapshot> countersFromJson(const nlohmann::json& doc, std::string_view where)
{
    if (core::Status s = checkDocument(doc, where, "a counter snapshot"); !s)
        return s.errors();
    Reader reader(where);
    const Obj o(reader, doc, "");
    CounterSnapshot snap;
    snap.node = o.str("node");
    snap.timestampMs = o.int64("timestamp_ms");
    o.forEachObject("ports", [&snap](const Obj& p) { snap.ports.push_back(readPortCounters(p)); });
    if (reader.failed())
        return reader.takeErrors();
    return snap;
}

core::Result<AgentHealth> healthFromJson(const nlohmann::json& doc, std::string_view where)
{
    if (core::Status s = checkDocument(doc, where, "a health answer"); !s)
        return s.errors();
    Reader reader(where);
    const Obj o(reader, doc, "");
    AgentHealth h;
    h.status = o.str("status");
    h.node = o.str("node");
    h.uptimeSeconds = o.int64("uptime_s");
    if (reader.failed())
        return reader.takeErrors();
    return h;
}

} // namespace railyard::live
