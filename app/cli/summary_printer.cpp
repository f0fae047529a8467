// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/summary_printer.h"

#include "app/cli/summary_format.h"
#include "app/cli/summary_sections.h"
#include "app/cli/text_table.h"
#include "core/fabric.h"
#include "core/text.h"

#include <algorithm>
#include <array>

namespace railyard::app::cli {

namespace {

    using Align = TextTable::Align;

    std::string fabricLine(const core::Plan& plan)
    {
        const core::Summary& s = plan.summary;
        const bool ib = plan.spec.fabric == core::Fabric::InfiniBand;
        std::string line = std::string(ib ? "InfiniBand" : "RoCEv2 (Ethernet)") + ", " + s.port.label() + " per port";
        if (s.planes > 1)
            line += ", " + plural(s.planes, "plane", "planes");
        return line;
    }

    std::string nodesLine(const core::Plan& plan)
    {
        const core::Summary& s = plan.summary;
        std::string line = count(s.nodes) + " x " + plan.spec.nodeType;
        if (s.finalNodes > 0 && s.finalNodes != s.nodes)
            line += " installed now, " + count(s.finalNodes) + " at the final size";
        line += " (" + plural(s.gpus, "GPU", "GPUs") + ", " + plural(s.rails, "rail", "rails");
        if (!plan.spec.nic.empty())
            line += ", NIC " + plan.spec.nic;
        return line + ")";
    }

    std::string suLine(const core::Summary& s)
    {
        std::string line = count(s.suCount) + " x " + plural(s.suSize, "node", "nodes");
        line += ", " + plural(s.leavesPerRail, "leaf", "leaves") + " per rail per SU";
        return line;
    }

    std::string tiersLine(const core::Summary& s)
    {
        if (s.tiers < 3)
            return std::to_string(s.tiers) + " (leaf, spine)";
        std::string line = "3 (leaf, spine, core)";
        if (s.pods > 0)
            line += ", " + plural(s.pods, "pod", "pods") + " of " + plural(s.susPerPod, "SU", "SUs");
        return line;
    }

    std::string leafShapeLine(const core::Summary& s)
    {
        std::string line = count(s.leafDownlinks) + " down, " + count(s.leafUplinks) + " up";
        if (s.spinesPerGroup > 0)
            line += "; " + plural(s.linksPerLeafSpine, "link", "links") + " to each of "
                + plural(s.spinesPerGroup, "spine", "spines") + (s.tiers >= 3 ? " of its pod" : "");
        return line;
    }

    std::string spineShapeLine(const core::Summary& s)
    {
        return count(s.spineDownlinks) + " down, " + count(s.spineUplinks) + " up; "
            + plural(s.linksPerSpineCore, "link", "links") + " per spine-core pair";
    }

    void printOverview(const core::Plan& plan, const std::string& source, std::ostream& out)
    {
        const std::string title = plan.spec.name.empty() ? source : plan.spec.name;
        out << title << '\n' << std::string(std::min<std::size_t>(title.size(), 78), '=') << '\n';
        const core::Summary& s = plan.summary;
        TextTable table({ Align::Left, Align::Left });
        table.addRow({ "Fabric", fabricLine(plan) });
        table.addRow({ "Nodes", nodesLine(plan) });
        table.addRow({ "Scalable units", suLine(s) });
        table.addRow({ "Tiers", tiersLine(s) });
        table.addRow({ "Leaf ports", leafShapeLine(s) });
        if (s.tiers >= 3)
            table.addRow({ "Spine ports", spineShapeLine(s) });
        if (!source.empty() && source != title)
            table.addRow({ "Spec", source });
        table.print(out);
    }

} // namespace

std::string findingCounts(const std::vector<core::Finding>& findings)
{
    std::array<long long, 3> n {};
    for (const core::Finding& f : findings)
        ++n[static_cast<std::size_t>(f.severity)];
    return plural(n[0], "error", "errors") + ", " + plural(n[1], "warning", "warnings") + ", "
        + count(n[2]) + " info";
}

void printFindings(const std::vector<core::Finding>& findings, std::ostream& out)
{
    if (findings.empty()) {
        out << "Findings: none\n";
        return;
    }
    out << "Findings: " << findingCounts(findings) << '\n';
    std::vector<const core::Finding*> sorted;
    for (const core::Finding& f : findings)
        sorted.push_back(&f);
    std::stable_sort(sorted.begin(), sorted.end(),
        [](const core::Finding* a, const core::Finding* b) { return a->severity < b->severity; });
    TextTable table({ Align::Left, Align::Left, Align::Left, Align::Left });
    for (const core::Finding* f : sorted)
        table.addRow({ std::string(core::toString(f->severity)), f->code, f->where, f->message });
    table.print(out);
}

void printSummary(const core::Plan& plan, const std::string& source, std::ostream& out)
{
    printOverview(plan, source, out);
    out << '\n';
    printSwitchSection(plan, out);
    out << '\n';
    printLinkSection(plan, out);
    out << '\n';
    printBandwidthSection(plan, out);
    out << '\n';
    printPathSection(plan, out);
    out << '\n';
    printFailureSection(plan, out);
    out << '\n';
    printBomSection(plan, out);
    out << '\n';
    printFindings(plan.findings, out);
}

} // namespace railyard::app::cli
