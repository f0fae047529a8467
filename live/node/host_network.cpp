// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/node/host_network.h"

#include "core/plan_spec.h"
#include "live/common/json_fields.h"
#include "live/node/sysfs_read.h"

#include <nlohmann/json.hpp>

namespace railyard::live {

namespace {

    using nlohmann::json;

    core::Result<json> parseList(std::string_view text, const char* what)
    {
        json doc = json::parse(text, nullptr, false);
        if (doc.is_discarded())
            return core::Error { "IP_JSON", std::string("not valid JSON"), what, "expected the output of `" + std::string(what) + "`" };
        if (!doc.is_array())
            return core::Error { "IP_JSON", std::string("expected a JSON list, got ") + doc.type_name(), what,
                "expected the output of `" + std::string(what) + "`" };
        return doc;
    }

    core::Error entryError(const char* what, std::size_t index, const std::string& problem)
    {
        return core::Error { "IP_JSON", problem, std::string(what) + ": entry " + std::to_string(index),
            "the output does not look like iproute2's JSON (iproute2 4.13 or later)" };
    }

    std::optional<int> readInt(const std::filesystem::path& file)
    {
        std::string text;
        if (!sysfs::readText(file.string(), text))
            return std::nullopt;
        if (const auto v = sysfs::parseUnsigned(text); v && *v < 1000)
            return static_cast<int>(*v);
        return std::nullopt;
    }

} // namespace

core::Result<std::map<std::string, std::vector<Ipv4Address>>> parseIpAddrJson(std::string_view text)
{
    static constexpr const char* kWhat = "ip -j -4 addr show";
    auto doc = parseList(text, kWhat);
    if (!doc)
        return doc.errors();
    std::map<std::string, std::vector<Ipv4Address>> out;
    for (std::size_t i = 0; i < doc->size(); ++i) {
        const json& link = (*doc)[i];
        const std::string name = link.is_object() ? stringField(link, "ifname") : std::string();
        if (name.empty())
            return entryError(kWhat, i, "an interface without \"ifname\"");
        auto& list = out[name];
        const auto info = link.find("addr_info");
        if (info == link.end() || !info->is_array())
            continue;
        for (const json& a : *info) {
            if (!a.is_object() || stringField(a, "family") != "inet")
                continue;
            const std::string local = stringField(a, "local");
            const auto prefix = a.find("prefixlen");
            if (local.empty() || prefix == a.end() || !prefix->is_number_integer())
                return entryError(kWhat, i, name + ": an inet address without \"local\" or \"prefixlen\"");
            list.push_back({ local, prefix->get<int>() });
        }
    }
    return out;
}

core::Result<std::vector<RoutingRule>> parseIpRuleJson(std::string_view text)
{
    static constexpr const char* kWhat = "ip -j -4 rule show";
    auto doc = parseList(text, kWhat);
    if (!doc)
        return doc.errors();
    std::vector<RoutingRule> out;
    for (std::size_t i = 0; i < doc->size(); ++i) {
        const json& r = (*doc)[i];
        if (!r.is_object())
            return entryError(kWhat, i, "not an object");
        RoutingRule rule;
        const auto priority = r.find("priority");
        if (priority == r.end() || !priority->is_number_integer())
            return entryError(kWhat, i, "a rule without \"priority\"");
        rule.priority = priority->get<int>();
        rule.from = stringField(r, "src", "all");
        rule.fromPrefix = rule.from == "all" ? 0 : 32;
        if (const auto len = r.find("srclen"); len != r.end() && len->is_number_integer())
            rule.fromPrefix = len->get<int>();
        rule.table = stringField(r, "table");
        // Anything but the source, the lookup and the bookkeeping keys makes it another kind of rule.
        for (const auto& [key, value] : r.items()) {
            if (key != "priority" && key != "src" && key != "srclen" && key != "table" && key != "protocol" && key != "flags")
                rule.selectorsBeyondFrom = true;
        }
        out.push_back(std::move(rule));
    }
    return out;
}

core::Result<std::vector<IpRoute>> parseIpRouteJson(std::string_view text)
{
    static constexpr const char* kWhat = "ip -j -4 route show table all";
    auto doc = parseList(text, kWhat);
    if (!doc)
        return doc.errors();
    std::vector<IpRoute> out;
    for (std::size_t i = 0; i < doc->size(); ++i) {
        const json& r = (*doc)[i];
        if (!r.is_object())
            return entryError(kWhat, i, "not an object");
        IpRoute route;
        route.table = stringField(r, "table", "main");
        if (route.table == "local")
            continue;
        route.type = stringField(r, "type", "unicast");
        route.destination = stringField(r, "dst");
        if (route.destination.empty())
            return entryError(kWhat, i, "a route without \"dst\"");
        route.gateway = stringField(r, "gateway");
        route.dev = stringField(r, "dev");
        if (const auto hops = r.find("nexthops"); hops != r.end() && hops->is_array() && !hops->empty() && (*hops)[0].is_object()) {
            if (route.gateway.empty())
                route.gateway = stringField((*hops)[0], "gateway");
            if (route.dev.empty())
                route.dev = stringField((*hops)[0], "dev");
        }
        route.source = stringField(r, "prefsrc");
        out.push_back(std::move(route));
    }
    return out;
}

NetSysctls readNetSysctls(const std::filesystem::path& procRoot, const std::string& name)
{
    NetSysctls out;
    if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos)
        return out;
    const std::filesystem::path dir = procRoot / "sys/net/ipv4/conf" / name;
    out.rpFilter = readInt(dir / "rp_filter");
    out.arpIgnore = readInt(dir / "arp_ignore");
    out.arpAnnounce = readInt(dir / "arp_announce");
    out.arpFilter = readInt(dir / "arp_filter");
    return out;
}

std::string ipv4OfGid(std::string_view gid)
{
    static constexpr std::string_view kMapped = "0000:0000:0000:0000:0000:ffff:";
    if (gid.size() != kMapped.size() + 9 || !gid.starts_with(kMapped) || gid[kMapped.size() + 4] != ':')
        return {};
    std::uint32_t address = 0;
    for (std::size_t at : { kMapped.size(), kMapped.size() + 5 }) {
        for (char c : gid.substr(at, 4)) {
            const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (digit < 0)
                return {};
            address = address << 4 | static_cast<std::uint32_t>(digit);
        }
    }
    return core::formatIpv4(address);
}

HostNetwork assembleHostNetwork(const IpDumps& dumps, const std::filesystem::path& procRoot,
    const std::vector<std::string>& netdevs, std::vector<std::string>& warnings)
{
    HostNetwork n;
    auto because = [](const std::string& why) { return why.empty() ? std::string() : " (" + why + ")"; };
    auto note = [&](const char* what, const core::Errors& errors) {
        const core::Error& e = errors.front();
        warnings.push_back(std::string(what) + " not understood: " + e.message + " at " + e.where);
    };
    if (!dumps.addr) {
        warnings.push_back("IPv4 addresses not readable" + because(dumps.addrWhy));
    } else if (auto parsed = parseIpAddrJson(*dumps.addr)) {
        n.addressesKnown = true;
        for (const std::string& dev : netdevs)
            if (const auto it = parsed->find(dev); it != parsed->end())
                n.addresses[dev] = it->second;
    } else {
        note("ip -j -4 addr show", parsed.errors());
    }
    if (!dumps.rule) {
        warnings.push_back("policy routing rules not readable" + because(dumps.ruleWhy));
    } else if (auto parsed = parseIpRuleJson(*dumps.rule)) {
        n.rulesKnown = true;
        n.rules = std::move(*parsed);
    } else {
        note("ip -j -4 rule show", parsed.errors());
    }
    if (!dumps.route) {
        warnings.push_back("routes not readable" + because(dumps.routeWhy));
    } else if (auto parsed = parseIpRouteJson(*dumps.route)) {
        n.routesKnown = true;
        n.routes = std::move(*parsed);
    } else {
        note("ip -j -4 route show table all", parsed.errors());
    }
    std::vector<std::string> names { "all" };
    names.insert(names.end(), netdevs.begin(), netdevs.end());
    for (const std::string& name : names) {
        NetSysctls c = readNetSysctls(procRoot, name);
        if (!c.rpFilter && !c.arpIgnore && !c.arpAnnounce)
            warnings.push_back("net.ipv4.conf." + name + " sysctls not readable under " + (procRoot / "sys/net/ipv4/conf").string());
        n.sysctls[name] = c;
    }
    return n;
}

} // namespace railyard::live
