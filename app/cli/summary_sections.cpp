// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/summary_sections.h"

#include "app/cli/summary_format.h"
#include "app/cli/text_table.h"
#include "core/fabric.h"
#include "core/text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>

namespace railyard::app::cli {

namespace {

    using Align = TextTable::Align;

    constexpr std::size_t kBomLinesShown = 15;
    constexpr double kWattsPerKw = 1000.0;
    constexpr double kBitsPerByte = 8.0;

    bool growing(const core::Plan& plan)
    {
        return plan.summary.finalSwitches.has_value() || plan.summary.finalCables.has_value();
    }

    struct SwitchGroup {
        int ports = 0;
        long long installed = 0;
        long long planned = 0;
        long long used = 0;
        long long reserved = 0;
        long long free = 0;
    };

    std::map<std::pair<core::SwitchTier, std::string>, SwitchGroup> groupSwitches(const core::Plan& plan)
    {
        std::map<std::pair<core::SwitchTier, std::string>, SwitchGroup> groups;
        for (const core::Device& d : plan.devices) {
            if (d.kind != core::DeviceKind::Switch)
                continue;
            SwitchGroup& g = groups[{ d.tier, d.model }];
            g.ports = std::max(g.ports, d.ports);
            ++g.planned;
            if (!d.installed)
                continue;
            ++g.installed;
            g.used += d.portsUsed;
            g.reserved += d.portsReserved;
            g.free += d.portsFree();
        }
        return groups;
    }

    struct LinkGroup {
        long long installed = 0;
        long long planned = 0;
        std::set<std::uint32_t> assemblies;
        std::set<std::string> media;
        float minLength = 0;
        float maxLength = 0;
    };

    std::array<LinkGroup, 3> groupLinks(const core::Plan& plan)
    {
        std::array<LinkGroup, 3> groups;
        for (const core::Link& l : plan.links) {
            LinkGroup& g = groups[static_cast<std::size_t>(l.tier)];
            ++g.planned;
            if (!l.installed)
                continue;
            if (g.installed++ == 0)
                g.minLength = g.maxLength = l.lengthM;
            g.minLength = std::min(g.minLength, l.lengthM);
            g.maxLength = std::max(g.maxLength, l.lengthM);
            g.assemblies.insert(l.assembly);
            g.media.insert(std::string(core::toString(l.medium)));
        }
        return groups;
    }

    std::string joined(const std::set<std::string>& items)
    {
        std::string out;
        for (const std::string& item : items)
            out += (out.empty() ? "" : ", ") + item;
        return out;
    }

    std::string lengthRange(const LinkGroup& g)
    {
        if (g.installed == 0 || g.maxLength <= 0)
            return {};
        if (g.minLength == g.maxLength)
            return metres(g.maxLength);
        return metres(g.minLength) + " - " + metres(g.maxLength);
    }

    long long managementPorts(const core::Plan& plan)
    {
        return std::count_if(plan.devices.begin(), plan.devices.end(),
            [](const core::Device& d) { return d.kind == core::DeviceKind::Management; });
    }

    long long finalLinks(const core::Summary& s, core::LinkTier tier)
    {
        if (!s.finalCables)
            return 0;
        switch (tier) {
        case core::LinkTier::NodeLeaf:
            return s.finalCables->nodeLeaf;
        case core::LinkTier::LeafSpine:
            return s.finalCables->leafSpine;
        case core::LinkTier::SpineCore:
            return s.finalCables->spineCore;
        }
        return 0;
    }

    long long tierLinks(const core::CableCounts& c, core::LinkTier tier)
    {
        switch (tier) {
        case core::LinkTier::NodeLeaf:
            return c.nodeLeaf;
        case core::LinkTier::LeafSpine:
            return c.leafSpine;
        case core::LinkTier::SpineCore:
            return c.spineCore;
        }
        return 0;
    }

    void printKeyValues(const std::string& heading, const std::vector<std::pair<std::string, std::string>>& rows,
        std::ostream& out)
    {
        out << heading << '\n';
        TextTable table({ Align::Left, Align::Left });
        for (const auto& [key, value] : rows)
            table.addRow({ key, value });
        table.print(out);
    }

} // namespace

void printSwitchSection(const core::Plan& plan, std::ostream& out)
{
    const bool grow = growing(plan);
    const auto groups = groupSwitches(plan);
    const bool reserved = std::any_of(groups.begin(), groups.end(), [](const auto& g) { return g.second.reserved > 0; });
    out << "Switches\n";
    TextTable table({ Align::Left, Align::Left, Align::Right, Align::Right, Align::Right, Align::Right, Align::Right,
        Align::Right });
    table.addRow({ "tier", "model", "ports", grow ? "now" : "count", grow ? "final" : "", "ports used",
        reserved ? "reserved" : "", "free" });
    for (const auto& [key, g] : groups) {
        table.addRow({ std::string(core::toString(key.first)), key.second, count(g.ports), count(g.installed),
            grow ? count(g.planned) : "", count(g.used), reserved ? count(g.reserved) : "", count(g.free) });
    }
    const core::Summary& s = plan.summary;
    table.addRow({ "total", "", "", count(s.switches.total()),
        grow && s.finalSwitches ? count(s.finalSwitches->total()) : "", "", "", "" });
    table.print(out);
}

void printLinkSection(const core::Plan& plan, std::ostream& out)
{
    const bool grow = growing(plan);
    const core::Summary& s = plan.summary;
    const std::array<LinkGroup, 3> groups = groupLinks(plan);
    out << "Links (one per connected port pair)\n";
    TextTable table({ Align::Left, Align::Right, Align::Right, Align::Right, Align::Left, Align::Left });
    table.addRow({ "tier", grow ? "now" : "links", grow ? "final" : "", "assemblies", "media", "length" });
    for (const core::LinkTier tier : { core::LinkTier::NodeLeaf, core::LinkTier::LeafSpine, core::LinkTier::SpineCore }) {
        const LinkGroup& g = groups[static_cast<std::size_t>(tier)];
        if (g.planned == 0 && tierLinks(s.cables, tier) == 0)
            continue;
        table.addRow({ std::string(core::toString(tier)), count(tierLinks(s.cables, tier)),
            grow ? count(finalLinks(s, tier)) : "", count(static_cast<long long>(g.assemblies.size())),
            joined(g.media), lengthRange(g) });
    }
    table.addRow({ "total", count(s.cables.total()), grow && s.finalCables ? count(s.finalCables->total()) : "",
        count(s.assemblies), "", "" });
    table.print(out);
    if (const long long mgmt = managementPorts(plan); mgmt > 0)
        out << "  node_leaf includes " << plural(mgmt, "management port", "management ports") << '\n';
    out << "  Transceivers: " << count(s.transceivers) << '\n';
}

void printBandwidthSection(const core::Plan& plan, std::ostream& out)
{
    const core::Summary& s = plan.summary;
    std::string over = "leaf " + ratio(s.leafOversubscription);
    if (s.tiers >= 3)
        over += ", spine " + ratio(s.spineOversubscription);
    std::vector<std::pair<std::string, std::string>> rows {
        { "Oversubscription", over + " (as built)" },
        { "Bisection", bandwidth(s.bisectionGbps) },
        { "Per GPU", bandwidth(s.perGpuGbps) + " (" + decimal(s.perGpuGbps / kBitsPerByte) + " GB/s)" },
    };
    if (plan.spec.fabric == core::Fabric::InfiniBand)
        rows.push_back({ "LIDs", count(s.lidsPerSubnet) + (s.planes > 1 ? " per plane" : " per subnet") + " at LMC 0" });
    if (s.powerW > 0)
        rows.push_back({ "Power", decimal(s.powerW / kWattsPerKw) + " kW installed (switches, NICs, transceivers)" });
    if (s.rackUnits > 0)
        rows.push_back({ "Rack units", count(s.rackUnits) + " U of switches" });
    if (s.costUsd)
        rows.push_back({ "Cost", "$" + count(static_cast<long long>(std::llround(*s.costUsd))) + " (list prices in the catalog)" });
    printKeyValues("Bandwidth", rows, out);
}

void printPathSection(const core::Plan& plan, std::ostream& out)
{
    const core::Summary& s = plan.summary;
    const core::Analysis& a = plan.analysis;
    std::vector<std::pair<std::string, std::string>> rows {
        { "Same leaf", std::to_string(a.hopsSameLeaf) },
        { "Same rail, other SU", std::to_string(a.hopsSameRailAcrossSu) },
        { "Across rails", std::to_string(a.hopsAcrossRails) },
    };
    if (s.tiers >= 3)
        rows.push_back({ "Across pods", std::to_string(a.hopsAcrossPods) });
    rows.push_back({ "Leaf-to-leaf paths", count(a.leafPathsSwitch) + " through distinct switches, "
            + count(a.leafPathsLink) + " over parallel links" });
    rows.push_back({ "Connectivity", a.connected ? std::string("every NIC reaches every NIC of its plane")
                                                 : "NOT connected: " + plural(a.components, "component", "components") });
    std::string free = "leaf downlinks " + count(a.freeLeafDownlinks) + ", leaf " + count(a.freeLeafPorts) + ", spine "
        + count(a.freeSpinePorts);
    if (s.tiers >= 3)
        free += ", core " + count(a.freeCorePorts);
    rows.push_back({ "Free ports", free });
    printKeyValues("Paths (switch hops, node to node)", rows, out);
}

void printFailureSection(const core::Plan& plan, std::ostream& out)
{
    const core::Analysis& a = plan.analysis;
    out << "Worst single failures\n";
    if (a.worstSwitch.empty() && a.worstCable.empty()) {
        out << "  (not analysed)\n";
        return;
    }
    TextTable table({ Align::Left, Align::Left, Align::Right, Align::Right, Align::Right });
    table.addRow({ "kind", "element", "capacity lost", "nodes cut off", "NIC ports lost" });
    auto add = [&](const char* kind, const core::FailureImpact& f) {
        table.addRow({ kind, f.element, bandwidth(f.bandwidthLostGbps), count(f.nodesCutOff), count(f.nodeRailsLost) });
    };
    for (const core::FailureImpact& f : a.worstSwitch)
        add("switch", f);
    for (const core::FailureImpact& f : a.worstCable)
        add("cable", f);
    table.print(out);
}

void printBomSection(const core::Plan& plan, std::ostream& out)
{
    const std::size_t shown = std::min(plan.bom.size(), kBomLinesShown);
    out << "Bill of materials";
    if (shown < plan.bom.size())
        out << " (first " << shown << " of " << plan.bom.size() << " lines; export bom lists all)";
    out << '\n';
    TextTable table({ Align::Right, Align::Left, Align::Left, Align::Left });
    table.addRow({ "qty", "category", "part", "item" });
    for (std::size_t i = 0; i < shown; ++i) {
        const core::BomLine& line = plan.bom[i];
        table.addRow({ count(line.quantity), line.category, line.part, line.item });
    }
    table.print(out);
}

} // namespace railyard::app::cli
