// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/catalog.h"

#include "core/builtin_resources.h"
#include "core/catalog_json.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

namespace railyard::core {

namespace {

    constexpr std::array<std::pair<Medium, std::string_view>, 5> kMedia { {
        { Medium::Dac, "dac" },
        { Medium::Acc, "acc" },
        { Medium::Aoc, "aoc" },
        { Medium::Mmf, "mmf" },
        { Medium::Smf, "smf" },
    } };

    template <class T>
    const T* findById(const std::vector<T>& entries, std::string_view id)
    {
        for (const auto& e : entries) {
            if (e.id == id)
                return &e;
        }
        return nullptr;
    }

    /// An id of `incoming` that an earlier file defined already.
    template <class T>
    void checkNew(const std::vector<T>& existing, const std::vector<T>& incoming, std::string_view section,
        const std::string& file, Errors& errors)
    {
        for (std::size_t i = 0; i < incoming.size(); ++i) {
            const T* old = findById(existing, incoming[i].id);
            if (!old)
                continue;
            errors.push_back({ "CATALOG_DUPLICATE", "\"" + incoming[i].id + "\" is already defined in " + old->source,
                detail::catalogWhere(file, section, i, incoming[i].id, "id"),
                "choose another id: a catalog file adds entries and cannot replace one" });
        }
    }

    template <class T>
    void append(std::vector<T>& to, std::vector<T>& from)
    {
        for (auto& e : from)
            to.push_back(std::move(e));
    }

    std::string idList(const std::vector<NicModel>& a, const std::vector<NicModel>& b)
    {
        std::string out;
        for (const auto* list : { &a, &b }) {
            for (const auto& n : *list)
                out += (out.empty() ? "" : ", ") + n.id;
        }
        return out;
    }

    bool runsDefault(const SwitchModel& s, const SwitchDefault& d)
    {
        for (const auto& m : s.modes) {
            if (d.generation && m.rate.generation == d.generation)
                return true;
            if (d.speedGbps && m.rate.speedGbps() == *d.speedGbps)
                return true;
        }
        return false;
    }

    bool sameKey(const SwitchDefault& a, const SwitchDefault& b)
    {
        return a.fabric == b.fabric && a.generation == b.generation && a.speedGbps == b.speedGbps;
    }

} // namespace

std::string_view toString(Medium medium)
{
    for (const auto& [m, name] : kMedia) {
        if (m == medium)
            return name;
    }
    return "dac";
}

std::optional<Medium> parseMedium(std::string_view text)
{
    for (const auto& [m, name] : kMedia) {
        if (name == text)
            return m;
    }
    return std::nullopt;
}

const SwitchMode* SwitchModel::modeFor(const PortRate& rate) const
{
    for (const auto& m : modes) {
        if (m.rate == rate)
            return &m;
    }
    return nullptr;
}

bool NicModel::supports(const PortRate& rate) const
{
    const auto& rates = rate.fabric == Fabric::InfiniBand ? ibRates : ethernetRates;
    for (const auto& r : rates) {
        if (r == rate)
            return true;
    }
    return false;
}

Result<Catalog> Catalog::builtin()
{
    // The embedded files never change while the program runs: read them once.
    static const Result<Catalog> kBuiltin = [] {
        Catalog catalog;
        Errors errors;
        for (const auto& file : builtinFilesIn("catalog")) {
            if (!file.path.ends_with(".json"))
                continue;
            const Status s = catalog.addJson(file.content, std::string(file.path));
            errors.insert(errors.end(), s.errors().begin(), s.errors().end());
        }
        return errors.empty() ? Result<Catalog>(std::move(catalog)) : Result<Catalog>(std::move(errors));
    }();
    return kBuiltin;
}

Status Catalog::addJson(std::string_view jsonText, const std::string& sourceName)
{
    auto parsed = detail::parseCatalogDocument(jsonText, sourceName);
    if (!parsed)
        return parsed.errors();
    detail::CatalogDocument& doc = parsed.value();
    Errors errors;
    checkNew(m_switches, doc.switches, "switches", sourceName, errors);
    checkNew(m_nics, doc.nics, "nics", sourceName, errors);
    checkNew(m_nodeTypes, doc.nodeTypes, "node_types", sourceName, errors);
    checkNew(m_cables, doc.cables, "cables", sourceName, errors);
    checkNew(m_transceivers, doc.transceivers, "transceivers", sourceName, errors);
    checkReferences(doc, sourceName, errors);
    if (!errors.empty())
        return errors;
    append(m_switches, doc.switches);
    append(m_nics, doc.nics);
    append(m_nodeTypes, doc.nodeTypes);
    append(m_cables, doc.cables);
    append(m_transceivers, doc.transceivers);
    for (auto& d : doc.defaults) {
        auto it = std::find_if(m_defaults.begin(), m_defaults.end(), [&](const SwitchDefault& e) { return sameKey(e, d); });
        if (it != m_defaults.end())
            *it = std::move(d);
        else
            m_defaults.push_back(std::move(d));
    }
    return Status::success();
}

void Catalog::checkReferences(const detail::CatalogDocument& doc, const std::string& file, Errors& errors) const
{
    for (std::size_t i = 0; i < doc.nodeTypes.size(); ++i) {
        const NodeType& t = doc.nodeTypes[i];
        if (!findNic(t.nic) && !findById(doc.nics, t.nic)) {
            errors.push_back({ "CATALOG_REFERENCE", "unknown NIC \"" + t.nic + "\"",
                detail::catalogWhere(file, "node_types", i, t.id, "nic"), "known NICs: " + idList(m_nics, doc.nics) });
        }
    }
    for (std::size_t i = 0; i < doc.defaults.size(); ++i) {
        const SwitchDefault& d = doc.defaults[i];
        const SwitchModel* s = findSwitch(d.switchId);
        s = s ? s : findById(doc.switches, d.switchId);
        const std::string where = detail::catalogWhere(file, "defaults", i, "", "switch");
        if (!s)
            errors.push_back({ "CATALOG_REFERENCE", "unknown switch \"" + d.switchId + "\"", where, {} });
        else if (s->fabric != d.fabric)
            errors.push_back({ "CATALOG_REFERENCE", "\"" + d.switchId + "\" is not a " + std::string(toString(d.fabric)) + " switch", where, {} });
        else if (!runsDefault(*s, d))
            errors.push_back({ "CATALOG_REFERENCE", "\"" + d.switchId + "\" has no mode at this speed", where, {} });
    }
}

Status Catalog::addFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return Error { "CATALOG_FILE", std::string("cannot open the catalog file: ") + std::strerror(errno), path,
            "check the path and its permissions" };
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad())
        return Error { "CATALOG_FILE", "cannot read the catalog file", path, {} };
    return addJson(text.str(), path);
}

const SwitchModel* Catalog::findSwitch(std::string_view id) const
{
    return findById(m_switches, id);
}

const NicModel* Catalog::findNic(std::string_view id) const
{
    return findById(m_nics, id);
}

const NodeType* Catalog::findNodeType(std::string_view id) const
{
    return findById(m_nodeTypes, id);
}

const CableModel* Catalog::findCable(std::string_view id) const
{
    return findById(m_cables, id);
}

const TransceiverModel* Catalog::findTransceiver(std::string_view id) const
{
    return findById(m_transceivers, id);
}

const SwitchModel* Catalog::defaultSwitch(Fabric fabric, const PortRate& rate) const
{
    if (rate.fabric != fabric)
        return nullptr;
    for (const auto& d : m_defaults) {
        const bool keyMatches = d.fabric == fabric
            && (fabric == Fabric::InfiniBand ? d.generation == rate.generation : d.speedGbps == rate.speedGbps());
        const SwitchModel* s = keyMatches ? findSwitch(d.switchId) : nullptr;
        if (s && s->modeFor(rate))
            return s;
    }
    // The default cannot run this exact rate (e.g. 400G over 8 lanes): the first switch that can.
    for (const auto& s : m_switches) {
        if (s.fabric == fabric && s.modeFor(rate))
            return &s;
    }
    return nullptr;
}

} // namespace railyard::core
