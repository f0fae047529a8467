// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/faults.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace railyard::live {

namespace {

    constexpr std::array<std::pair<FaultKind, std::string_view>, 13> kKinds { {
        { FaultKind::LinkDown, "link_down" },
        { FaultKind::Degraded, "degraded" },
        { FaultKind::Swap, "swap" },
        { FaultKind::Unplugged, "unplugged" },
        { FaultKind::Congested, "congested" },
        { FaultKind::NoPfc, "no_pfc" },
        { FaultKind::NoEcn, "no_ecn" },
        { FaultKind::NoGpuDirect, "no_gpudirect" },
        { FaultKind::WrongTrust, "wrong_trust" },
        { FaultKind::PfcWrongPriority, "pfc_wrong_priority" },
        { FaultKind::MtuMismatch, "mtu_mismatch" },
        { FaultKind::RpFilterStrict, "rp_filter_strict" },
        { FaultKind::WrongGidIndex, "wrong_gid_index" },
    } };

    std::string kindList()
    {
        std::string out;
        for (const auto& [kind, name] : kKinds)
            out += (out.empty() ? "" : ", ") + std::string(name);
        return out;
    }

    /// Names of the plan that faults may refer to, with their ranges for messages.
    struct PlanNames {
        std::map<std::string, std::uint32_t, std::less<>> nodes;  ///< installed nodes
        std::map<std::string, std::uint32_t, std::less<>> leaves; ///< installed leaves
        std::string firstNode, lastNode, firstLeaf, lastLeaf;
        int rails = 0;

        explicit PlanNames(const core::Plan& plan)
        {
            rails = plan.summary.rails;
            for (std::uint32_t i = 0; i < plan.devices.size(); ++i) {
                const auto& d = plan.devices[i];
                if (!d.installed)
                    continue;
                if (d.kind == core::DeviceKind::Node) {
                    nodes.emplace(d.name, i);
                    if (firstNode.empty())
                        firstNode = d.name;
                    lastNode = d.name;
                } else if (d.kind == core::DeviceKind::Switch && d.tier == core::SwitchTier::Leaf) {
                    leaves.emplace(d.name, i);
                    if (firstLeaf.empty())
                        firstLeaf = d.name;
                    lastLeaf = d.name;
                }
            }
        }
        std::string nodeRange() const
        {
            if (nodes.empty())
                return "the plan has no installed nodes";
            return "the plan's nodes are " + firstNode + " ... " + lastNode + " (" + std::to_string(nodes.size()) + ")";
        }
        std::string leafRange() const
        {
            if (leaves.empty())
                return "the plan has no leaf switches";
            return "the plan's leaves are " + firstLeaf + " ... " + lastLeaf + " (" + std::to_string(leaves.size()) + ")";
        }
    };

    class EntryReader {
    public:
        EntryReader(const std::string& source, int index, core::Errors& errors)
            : m_source(source)
            , m_index(index)
            , m_errors(errors)
        {
        }

        void fail(const std::string& field, const std::string& message, const std::string& hint = {})
        {
            std::string where = m_source + ": entry " + std::to_string(m_index);
            if (!field.empty())
                where += ", field " + field;
            m_errors.push_back({ "FAULTS_FIELD", message, where, hint });
        }

        const nlohmann::json* member(const nlohmann::json& obj, const std::string& key, const std::string& path)
        {
            const auto it = obj.find(key);
            if (it == obj.end()) {
                fail(path, "missing");
                return nullptr;
            }
            return &*it;
        }

        std::optional<std::string> string(const nlohmann::json& obj, const std::string& key, const std::string& path)
        {
            const auto* v = member(obj, key, path);
            if (!v)
                return std::nullopt;
            if (!v->is_string()) {
                fail(path, "must be a string, got " + v->dump());
                return std::nullopt;
            }
            return v->get<std::string>();
        }

        std::optional<long long> integer(const nlohmann::json& v, const std::string& path)
        {
            if (v.is_number_integer() || v.is_number_unsigned())
                return v.get<long long>();
            if (v.is_number_float()) {
                const double d = v.get<double>();
                if (std::isfinite(d) && d == std::floor(d) && std::abs(d) < 1e15)
                    return static_cast<long long>(d);
            }
            fail(path, "must be an integer, got " + v.dump());
            return std::nullopt;
        }

        std::optional<NicRef> nic(const nlohmann::json& obj, const std::string& prefix, const PlanNames& names)
        {
            const auto node = string(obj, "node", prefix + "node");
            std::optional<long long> rail;
            if (const auto* r = member(obj, "rail", prefix + "rail"))
                rail = integer(*r, prefix + "rail");
            std::optional<NicRef> out;
            std::optional<std::uint32_t> device;
            if (node) {
                const auto it = names.nodes.find(*node);
                if (it == names.nodes.end())
                    fail(prefix + "node", "no node '" + *node + "' in the plan", names.nodeRange());
                else
                    device = it->second;
            }
            if (rail && (*rail < 0 || *rail >= names.rails)) {
                fail(prefix + "rail", "rail " + std::to_string(*rail) + " does not exist",
                    "the plan's rails are 0 to " + std::to_string(names.rails - 1));
                rail.reset();
            }
            if (device && rail)
                out = NicRef { *node, *device, static_cast<int>(*rail) };
            return out;
        }

        std::optional<std::uint32_t> node(const nlohmann::json& obj, const PlanNames& names, std::string& name)
        {
            const auto n = string(obj, "node", "node");
            if (!n)
                return std::nullopt;
            const auto it = names.nodes.find(*n);
            if (it == names.nodes.end()) {
                fail("node", "no node '" + *n + "' in the plan", names.nodeRange());
                return std::nullopt;
            }
            name = *n;
            return it->second;
        }

        void checkKeys(const nlohmann::json& obj, std::initializer_list<std::string_view> known, const std::string& prefix)
        {
            for (const auto& [key, value] : obj.items()) {
                if (std::find(known.begin(), known.end(), key) == known.end()) {
                    std::string list;
                    for (auto k : known)
                        list += (list.empty() ? "" : ", ") + std::string(k);
                    fail(prefix + key, "unknown field", "this kind of fault takes: " + list);
                }
            }
        }

    private:
        const std::string& m_source;
        int m_index;
        core::Errors& m_errors;
    };

    std::string nicName(const NicRef& nic)
    {
        return nic.node + " rail " + std::to_string(nic.rail);
    }

    void parseDegraded(EntryReader& r, const nlohmann::json& entry, const core::Plan& plan, Fault& fault)
    {
        const auto& planned = plan.summary.port;
        const bool ib = plan.spec.fabric == core::Fabric::InfiniBand;
        if (const auto it = entry.find("width"); it != entry.end()) {
            if (auto w = r.integer(*it, "width")) {
                if (*w < 1 || *w > 12)
                    r.fail("width", "must be a lane count from 1 to 12, got " + std::to_string(*w));
                else
                    fault.width = static_cast<int>(*w);
            }
        }
        if (const auto it = entry.find("generation"); it != entry.end()) {
            if (!ib) {
                r.fail("generation", "applies to InfiniBand only; this plan is RoCEv2",
                    "give \"width\" (lanes) for an Ethernet port that trained at fewer lanes");
            } else if (!it->is_string()) {
                r.fail("generation", "must be a string such as \"HDR\", got " + it->dump());
            } else if (auto g = core::parseIbGeneration(it->get<std::string>())) {
                fault.generation = *g;
            } else {
                r.fail("generation", "unknown InfiniBand generation '" + it->get<std::string>() + "'",
                    "SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR");
            }
        }
        if (!entry.contains("width") && !entry.contains("generation")) {
            r.fail("", "a degraded fault needs \"width\" or \"generation\" (the rate the link trained at)");
            return;
        }
        if ((entry.contains("width") && !fault.width) || (entry.contains("generation") && !fault.generation))
            return;
        const auto rate = degradedRate(planned, fault);
        const std::string field = fault.width ? "width" : "generation";
        if (!rate) {
            r.fail(field, "no port runs at that rate",
                ib ? "InfiniBand widths are 1, 2, 4 or 8 lanes of a generation that offers them"
                   : "an Ethernet port at fewer lanes must keep its lane rate");
            return;
        }
        const bool lower = rate->dataGbps < planned.dataGbps
            || (fault.width && *fault.width < planned.lanes)
            || (fault.generation && planned.generation && *fault.generation < *planned.generation);
        const bool higher = (fault.width && *fault.width > planned.lanes)
            || (fault.generation && planned.generation && *fault.generation > *planned.generation);
        if (!lower || higher)
            r.fail(field, "not lower than the planned rate " + planned.label(),
                "a degraded link trains at fewer lanes or an older generation than planned");
    }

    void parseCongested(EntryReader& r, const nlohmann::json& entry, const core::Plan& plan, const PlanNames& names,
        Fault& fault)
    {
        if (const auto sw = r.string(entry, "switch", "switch")) {
            const auto it = names.leaves.find(*sw);
            if (it == names.leaves.end()) {
                const bool other = std::any_of(plan.devices.begin(), plan.devices.end(),
                    [&](const core::Device& d) { return d.kind == core::DeviceKind::Switch && d.name == *sw; });
                r.fail("switch",
                    other ? "'" + *sw + "' is not a leaf: congestion is modelled on a leaf's uplinks"
                          : "no switch '" + *sw + "' in the plan",
                    names.leafRange());
            } else {
                fault.switchName = *sw;
                fault.switchDevice = it->second;
            }
        }
        const auto uplinks = fault.switchName.empty() ? std::vector<std::size_t> {} : uplinksOf(plan, fault.switchDevice);
        if (const auto* u = r.member(entry, "uplinks", "uplinks")) {
            if (auto n = r.integer(*u, "uplinks")) {
                if (!fault.switchName.empty() && uplinks.empty())
                    r.fail("switch", fault.switchName + " has no uplinks in this plan (a single-leaf rail)",
                        "congestion needs a leaf with uplinks to spines");
                else if (*n < 1 || (!fault.switchName.empty() && *n > static_cast<long long>(uplinks.size())))
                    r.fail("uplinks", "must be from 1 to " + std::to_string(uplinks.size()) + ", got " + std::to_string(*n),
                        fault.switchName.empty() ? "" : fault.switchName + " has " + std::to_string(uplinks.size()) + " uplinks");
                else
                    fault.uplinks = static_cast<int>(*n);
            }
        }
        if (const auto* f = r.member(entry, "factor", "factor")) {
            if (!f->is_number() || !std::isfinite(f->get<double>()) || f->get<double>() < 0 || f->get<double>() >= 1)
                r.fail("factor", "must be a number from 0 to below 1 (the share of line rate the uplinks still carry), got "
                        + f->dump());
            else
                fault.factor = f->get<double>();
        }
    }

} // namespace

const std::vector<FaultKind>& allFaultKinds()
{
    static const std::vector<FaultKind> kinds = [] {
        std::vector<FaultKind> out;
        for (const auto& [kind, name] : kKinds)
            out.push_back(kind);
        return out;
    }();
    return kinds;
}

std::string_view toString(FaultKind kind)
{
    for (const auto& [k, name] : kKinds)
        if (k == kind)
            return name;
    return "unknown";
}

std::optional<FaultKind> parseFaultKind(std::string_view text)
{
    for (const auto& [k, name] : kKinds)
        if (name == text)
            return k;
    return std::nullopt;
}

std::vector<std::size_t> uplinksOf(const core::Plan& plan, std::uint32_t device)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        const auto& l = plan.links[i];
        if (l.installed && l.tier != core::LinkTier::NodeLeaf && l.a.device == device)
            out.push_back(i);
    }
    std::sort(out.begin(), out.end(), [&](std::size_t x, std::size_t y) { return plan.links[x].a.port < plan.links[y].a.port; });
    return out;
}

std::optional<core::PortRate> degradedRate(const core::PortRate& planned, const Fault& fault)
{
    const int width = fault.width.value_or(planned.lanes);
    if (planned.fabric == core::Fabric::InfiniBand) {
        const auto generation = fault.generation ? fault.generation : planned.generation;
        if (!generation)
            return std::nullopt;
        return core::ibRate(*generation, width);
    }
    const double lane = planned.laneDataGbps();
    const double speed = lane * width;
    if (std::abs(speed - std::round(speed)) > 1e-6)
        return std::nullopt;
    return core::ethernetRate(static_cast<int>(std::lround(speed)), width);
}

core::Result<std::vector<Fault>> parseFaults(std::string_view text, const std::string& source, const core::Plan& plan)
{
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        // parse_error, and out_of_range 406: a number past a double's range ("1e400") while parsing.
        return core::Error { "FAULTS_SYNTAX", std::string("not valid JSON: ") + e.what(), source,
            "the faults file is a JSON list of objects (interfaces.md §4)" };
    }
    if (!doc.is_array())
        return core::Error { "FAULTS_FIELD", "must be a JSON list of faults, got " + std::string(doc.type_name()), source,
            "write [ { \"kind\": \"link_down\", \"node\": \"node007\", \"rail\": 3 } ]" };

    const PlanNames names(plan);
    const bool roce = plan.spec.fabric == core::Fabric::RoCEv2;
    core::Errors errors;
    std::vector<Fault> faults;
    std::map<std::pair<std::uint32_t, int>, int> linkFaultAt; // NIC -> entry that already changed its link
    std::set<std::uint32_t> congested;

    auto claimNic = [&](EntryReader& r, const NicRef& nic, int index, const std::string& field) {
        const auto [it, added] = linkFaultAt.emplace(std::make_pair(nic.device, nic.rail), index);
        if (!added)
            r.fail(field, nicName(nic) + " already has a link fault (entry " + std::to_string(it->second) + ")",
                "give each NIC at most one of link_down, degraded, unplugged and swap");
    };

    for (std::size_t i = 0; i < doc.size(); ++i) {
        const int index = static_cast<int>(i);
        EntryReader r(source, index, errors);
        const auto& entry = doc[i];
        if (!entry.is_object()) {
            r.fail("", "must be an object, got " + entry.dump());
            continue;
        }
        const std::size_t errorsBefore = errors.size();
        const auto kindText = r.string(entry, "kind", "kind");
        if (!kindText)
            continue;
        const auto kind = parseFaultKind(*kindText);
        if (!kind) {
            r.fail("kind", "unknown fault kind '" + *kindText + "'", "one of " + kindList());
            continue;
        }
        Fault fault;
        fault.kind = *kind;
        fault.index = index;
        switch (*kind) {
        case FaultKind::LinkDown:
        case FaultKind::Unplugged: {
            r.checkKeys(entry, { "kind", "node", "rail" }, "");
            if (auto nic = r.nic(entry, "", names)) {
                fault.nic = *nic;
                claimNic(r, *nic, index, "rail");
            }
            break;
        }
        case FaultKind::Degraded: {
            r.checkKeys(entry, { "kind", "node", "rail", "width", "generation" }, "");
            if (auto nic = r.nic(entry, "", names)) {
                fault.nic = *nic;
                claimNic(r, *nic, index, "rail");
            }
            parseDegraded(r, entry, plan, fault);
            break;
        }
        case FaultKind::Swap: {
            r.checkKeys(entry, { "kind", "a", "b" }, "");
            std::optional<NicRef> a, b;
            for (const char* end : { "a", "b" }) {
                const auto* v = r.member(entry, end, end);
                if (!v)
                    continue;
                if (!v->is_object()) {
                    r.fail(end, "must be an object { \"node\": ..., \"rail\": ... }, got " + v->dump());
                    continue;
                }
                r.checkKeys(*v, { "node", "rail" }, std::string(end) + ".");
                (end[0] == 'a' ? a : b) = r.nic(*v, std::string(end) + ".", names);
            }
            if (a && b && *a == *b) {
                r.fail("b", "swaps " + nicName(*a) + " with itself", "name two different NICs");
            } else if (a && b) {
                fault.nic = *a;
                fault.other = *b;
                claimNic(r, *a, index, "a");
                claimNic(r, *b, index, "b");
            }
            break;
        }
        case FaultKind::Congested: {
            r.checkKeys(entry, { "kind", "switch", "uplinks", "factor" }, "");
            parseCongested(r, entry, plan, names, fault);
            if (!fault.switchName.empty() && !congested.insert(fault.switchDevice).second)
                r.fail("switch", fault.switchName + " is congested by an earlier entry too", "give one entry per switch");
            break;
        }
        case FaultKind::WrongTrust:
        case FaultKind::PfcWrongPriority:
        case FaultKind::MtuMismatch:
        case FaultKind::RpFilterStrict:
        case FaultKind::WrongGidIndex: {
            r.checkKeys(entry, { "kind", "node", "rail" }, "");
            if (auto nic = r.nic(entry, "", names))
                fault.nic = *nic;
            if (!roce)
                r.fail("kind", std::string(toString(*kind)) + " applies to RoCEv2 fabrics; this plan is InfiniBand",
                    "trust, PFC, rp_filter and RoCE GIDs are Ethernet host settings");
            else if (*kind == FaultKind::PfcWrongPriority && plan.spec.lossless.mode == "lossy")
                r.fail("kind", "pfc_wrong_priority needs a plan with PFC; this plan's lossless mode is lossy",
                    "use a plan in mode lossless or pfc-only");
            else if (*kind == FaultKind::RpFilterStrict && !plan.spec.addressingGiven)
                r.fail("kind", "rp_filter_strict applies to routed plans (the spec's addressing): without it the plan sets no rp_filter",
                    "add \"addressing\" to the spec");
            break;
        }
        case FaultKind::NoPfc:
        case FaultKind::NoEcn:
        case FaultKind::NoGpuDirect: {
            r.checkKeys(entry, { "kind", "node" }, "");
            std::string name;
            if (auto device = r.node(entry, names, name))
                fault.nic = NicRef { name, *device, 0 };
            if (*kind != FaultKind::NoGpuDirect && !roce)
                r.fail("kind", std::string(toString(*kind)) + " applies to RoCEv2 fabrics; this plan is InfiniBand",
                    "PFC and ECN are Ethernet settings");
            break;
        }
        }
        if (errors.size() == errorsBefore)
            faults.push_back(std::move(fault));
    }
    if (!errors.empty())
        return errors;
    return faults;
}

core::Result<std::vector<Fault>> readFaultsFile(const std::filesystem::path& path, const core::Plan& plan)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return core::Error { "FILE_UNREADABLE", "cannot read the faults file", path.string(), "check the path" };
    std::ostringstream text;
    text << in.rdbuf();
    return parseFaults(text.str(), path.string(), plan);
}

} // namespace railyard::live
