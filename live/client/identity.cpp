// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/identity.h"

#include "live/client/ibnet_parse.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

namespace railyard::live {

namespace {

    using nlohmann::json;

    const std::set<std::string> kEntryKeys { "name", "kind", "tier", "guids", "node_description", "hostname", "device",
        "pci_address", "lldp_system_name", "lldp_port", "how" };

    void putIf(json& o, const char* key, const std::string& value)
    {
        if (!value.empty())
            o[key] = value;
    }

    core::Error fieldError(std::string_view where, const std::string& field, const std::string& message)
    {
        return core::Error { "IDENTITY_FIELD", field + ": " + message, std::string(where),
            "the file is written by `railyard-cli live cabling --identity`; fix or regenerate it" };
    }

    /// Quotes for a node-name map: OpenSM reads up to the closing '"', so none may be inside.
    std::string mapName(const std::string& name)
    {
        std::string out = name;
        std::replace(out.begin(), out.end(), '"', '\'');
        return out;
    }

} // namespace

const IdentityEntry* Identity::byName(std::string_view name) const
{
    for (const auto& e : entries)
        if (e.name == name)
            return &e;
    return nullptr;
}

const IdentityEntry* Identity::byGuid(std::uint64_t guid) const
{
    for (const auto& e : entries)
        if (std::find(e.guids.begin(), e.guids.end(), guid) != e.guids.end())
            return &e;
    return nullptr;
}

void Identity::put(IdentityEntry entry)
{
    for (auto& e : entries) {
        if (e.name == entry.name) {
            e = std::move(entry);
            return;
        }
    }
    entries.push_back(std::move(entry));
}

nlohmann::json toJson(const Identity& identity)
{
    json list = json::array();
    for (const auto& e : identity.entries) {
        json o = json::object();
        o["name"] = e.name;
        putIf(o, "kind", e.kind);
        putIf(o, "tier", e.tier);
        if (!e.guids.empty()) {
            json guids = json::array();
            for (auto g : e.guids)
                guids.push_back(formatGuid(g));
            o["guids"] = guids;
        }
        putIf(o, "node_description", e.nodeDescription);
        putIf(o, "hostname", e.hostname);
        putIf(o, "device", e.device);
        putIf(o, "pci_address", e.pciAddress);
        putIf(o, "lldp_system_name", e.lldpSystemName);
        putIf(o, "lldp_port", e.lldpPort);
        putIf(o, "how", e.how);
        list.push_back(std::move(o));
    }
    return json { { "plan", identity.plan }, { "entries", list } };
}

core::Result<Identity> identityFromJson(const nlohmann::json& doc, std::string_view where)
{
    if (!doc.is_object())
        return fieldError(where, "(document)", "must be a JSON object");
    Identity identity;
    for (const auto& [key, value] : doc.items()) {
        if (key == "plan") {
            if (!value.is_string())
                return fieldError(where, "plan", "must be a string");
            identity.plan = value.get<std::string>();
        } else if (key != "entries") {
            return fieldError(where, key, "unknown field");
        }
    }
    const auto entries = doc.find("entries");
    if (entries == doc.end() || !entries->is_array())
        return fieldError(where, "entries", "must be a list");
    for (std::size_t i = 0; i < entries->size(); ++i) {
        const json& o = (*entries)[i];
        const std::string path = "entries[" + std::to_string(i) + "]";
        if (!o.is_object())
            return fieldError(where, path, "must be an object");
        IdentityEntry e;
        for (const auto& [key, value] : o.items()) {
            if (!kEntryKeys.contains(key))
                return fieldError(where, path + "." + key, "unknown field");
            if (key == "guids") {
                if (!value.is_array())
                    return fieldError(where, path + ".guids", "must be a list of \"0x...\" strings");
                for (const auto& g : value) {
                    const auto guid = g.is_string() ? parseGuid(g.get<std::string>()) : std::nullopt;
                    if (!guid)
                        return fieldError(where, path + ".guids", "not a GUID: " + g.dump());
                    e.guids.push_back(*guid);
                }
                continue;
            }
            if (!value.is_string())
                return fieldError(where, path + "." + key, "must be a string");
            const auto s = value.get<std::string>();
            if (key == "name") e.name = s;
            else if (key == "kind") e.kind = s;
            else if (key == "tier") e.tier = s;
            else if (key == "node_description") e.nodeDescription = s;
            else if (key == "hostname") e.hostname = s;
            else if (key == "device") e.device = s;
            else if (key == "pci_address") e.pciAddress = s;
            else if (key == "lldp_system_name") e.lldpSystemName = s;
            else if (key == "lldp_port") e.lldpPort = s;
            else if (key == "how") e.how = s;
        }
        if (e.name.empty())
            return fieldError(where, path + ".name", "is required");
        identity.entries.push_back(std::move(e));
    }
    return identity;
}

core::Result<Identity> readIdentityFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return core::Error { "FILE_UNREADABLE", "cannot read the identity file", path, "check the path" };
    json doc = json::parse(in, nullptr, false);
    if (doc.is_discarded())
        return core::Error { "IDENTITY_JSON", "not valid JSON", path, "" };
    return identityFromJson(doc, path);
}

core::Status writeIdentityFile(const Identity& identity, const std::string& path)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << toJson(identity).dump(2) << '\n';
    out.flush();
    if (!out)
        return core::Error { "OUTPUT_UNWRITABLE", "cannot write the identity file", path, "check the folder" };
    return {};
}

void writeNodeNameMap(const Identity& identity, std::ostream& out)
{
    out << "# OpenSM node name map (node_name_map; ibnetdiscover --node-name-map): node GUID -> planned name\n";
    if (!identity.plan.empty())
        out << "# plan: " << identity.plan << '\n';
    out << "# written by railyard-cli live cabling\n";
    for (const bool switches : { true, false }) {
        for (const auto& e : identity.entries) {
            if ((e.kind == "switch") != switches || e.guids.empty())
                continue;
            out << formatGuid(e.guids.front()) << " \"" << mapName(e.name) << "\"\n";
        }
    }
}

std::vector<std::uint64_t> rootGuids(const Identity& identity, const core::Plan& plan, std::vector<std::string>* missing)
{
    const bool hasCores = std::any_of(plan.devices.begin(), plan.devices.end(), [](const core::Device& d) {
        return d.kind == core::DeviceKind::Switch && d.tier == core::SwitchTier::Core;
    });
    const auto top = hasCores ? core::SwitchTier::Core : core::SwitchTier::Spine;
    std::vector<std::uint64_t> out;
    for (const auto& d : plan.devices) {
        if (d.kind != core::DeviceKind::Switch || d.tier != top || !d.installed)
            continue;
        const IdentityEntry* e = identity.byName(d.name);
        if (e && !e->guids.empty())
            out.push_back(e->guids.front());
        else if (missing)
            missing->push_back(d.name);
    }
    return out;
}

void writeRootGuids(const std::vector<std::uint64_t>& guids, std::ostream& out)
{
    for (auto g : guids)
        out << formatGuid(g) << '\n';
}

} // namespace railyard::live
