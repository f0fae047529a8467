// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/media.h"

#include "core/text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <unordered_map>

namespace railyard::planner {

using core::CableModel;
using core::DeviceKind;
using core::Link;
using core::LinkTier;
using core::Medium;
using core::TransceiverModel;

double nodeLeafLength(const core::RackLayout& racks, const Shape& shape, int slotInSu)
{
    if (racks.leafPlacement == "rack")
        return racks.inRackM + racks.slackM;
    // The SU's network rack stands in the middle of its row of node racks.
    const int rackCount = (shape.suSize + racks.nodesPerRack - 1) / racks.nodesPerRack;
    const int rack = slotInSu / racks.nodesPerRack;
    const double racksAway = std::abs(rack + 0.5 - rackCount / 2.0) + 0.5;
    return 2 * racks.inRackM + racksAway * racks.rackWidthM + racks.slackM;
}

double managementLength(const core::RackLayout& racks)
{
    return 2 * racks.inRackM + racks.rackWidthM + racks.slackM;
}

double leafSpineLength(const core::RackLayout& racks, const Shape& shape, int su)
{
    if (shape.tiers == 3) {
        // Pod spines stand with their pod: next to the SU's network rack, or across the pod's rows.
        const int inPod = su % shape.susPerPod;
        const double rows = std::abs(inPod - (shape.susPerPod - 1) / 2.0) * racks.suPitchM;
        return 2 * racks.inRackM + 2 * racks.rackWidthM + rows + racks.slackM;
    }
    const double rows = std::abs(su - (shape.suCount - 1) / 2.0) * racks.suPitchM;
    return 2 * racks.inRackM + racks.spineDistanceM + rows + racks.slackM;
}

double spineCoreLength(const core::RackLayout& racks, const Shape& shape, int pod)
{
    const double rows = std::abs(pod - (shape.pods - 1) / 2.0) * shape.susPerPod * racks.suPitchM;
    return 2 * racks.inRackM + racks.coreDistanceM + rows + racks.slackM;
}

namespace {

    bool fabricOk(const std::vector<core::Fabric>& fabrics, core::Fabric f)
    {
        return fabrics.empty() || std::find(fabrics.begin(), fabrics.end(), f) != fabrics.end();
    }

    std::optional<double> orderableLength(const CableModel& c, double needed)
    {
        for (double l : c.lengthsM) {
            if (l + 1e-9 >= needed)
                return l;
        }
        return std::nullopt;
    }

    bool carries(const CableModel& c, int speedGbps)
    {
        return c.speedsGbps.empty() || std::find(c.speedsGbps.begin(), c.speedsGbps.end(), speedGbps) != c.speedsGbps.end();
    }

    /// One end of a fiber link: the cage a transceiver goes into.
    struct CageEnd {
        std::string form;
        int totalGbps = 0;   ///< cage bandwidth = links it carries x rate
        int preferPorts = 1; ///< the cage's native ports
        bool switchSide = true;
        bool mustBeFlat = false;
    };

    class Chooser {
    public:
        Chooser(const core::Catalog& catalog, core::Fabric fabric, int speedGbps)
            : m_catalog(catalog)
            , m_fabric(fabric)
            , m_speed(speedGbps)
        {
        }

        /// Copper assembly for `links` links over `needed` metres, or nullptr.
        const CableModel* copper(int links, bool splitter, double needed)
        {
            const long long key = (std::llround(needed * 100) << 8) | (links << 1) | (splitter ? 1 : 0);
            if (auto it = m_copperCache.find(key); it != m_copperCache.end())
                return it->second;
            const CableModel* best = nullptr;
            for (Medium m : { Medium::Dac, Medium::Acc, Medium::Aoc }) {
                for (const CableModel& c : m_catalog.cables()) {
                    if (c.medium != m || c.linksPerAssembly != links || c.splitter != splitter || !carries(c, m_speed)
                        || !fabricOk(c.fabrics, m_fabric) || !orderableLength(c, needed))
                        continue;
                    if (!best || *orderableLength(c, needed) < *orderableLength(*best, needed))
                        best = &c;
                }
                if (best)
                    break;
            }
            m_copperCache.emplace(key, best);
            return best;
        }

        const CableModel* fiber(Medium medium, double needed)
        {
            const long long key = (std::llround(needed * 100) << 1) | (medium == Medium::Smf ? 1 : 0);
            if (auto it = m_fiberCache.find(key); it != m_fiberCache.end())
                return it->second;
            const CableModel* best = nullptr;
            for (const CableModel& c : m_catalog.cables()) {
                if (c.medium != medium || c.linksPerAssembly != 1 || c.splitter || !carries(c, m_speed)
                    || !fabricOk(c.fabrics, m_fabric) || !orderableLength(c, needed))
                    continue;
                if (!best || *orderableLength(c, needed) < *orderableLength(*best, needed))
                    best = &c;
            }
            m_fiberCache.emplace(key, best);
            return best;
        }

        const TransceiverModel* transceiver(const CageEnd& end, Medium medium, double reach) const
        {
            const TransceiverModel* best = nullptr;
            int bestScore = -1;
            for (const TransceiverModel& t : m_catalog.transceivers()) {
                if (core::toLower(t.form) != core::toLower(end.form) || t.medium != medium || t.reachM + 1e-9 < reach
                    || t.ports * t.speedGbps != end.totalGbps || !fabricOk(t.fabrics, m_fabric))
                    continue;
                if (end.mustBeFlat && !t.flatTop)
                    continue;
                // Prefer one module port per link, then finned for switches and flat for NICs.
                int score = (t.ports == end.preferPorts && t.speedGbps * end.preferPorts == end.totalGbps ? 2 : 0)
                    + (t.flatTop != end.switchSide ? 1 : 0);
                if (score > bestScore) {
                    best = &t;
                    bestScore = score;
                }
            }
            return best;
        }

    private:
        const core::Catalog& m_catalog;
        core::Fabric m_fabric;
        int m_speed;
        std::unordered_map<long long, const CableModel*> m_copperCache;
        std::unordered_map<long long, const CableModel*> m_fiberCache;
    };

    /// A run of links that one copper assembly could carry.
    struct Group {
        std::size_t first = 0;
        std::size_t count = 0;
        bool splitter = false;
    };

    /// Node cages: the links of one node cage (rails x planes); a management port is its own group.
    std::vector<Group> nodeGroups(const core::Plan& plan, const Parts& parts, const Shape& s)
    {
        std::vector<Group> groups;
        const int perCage = std::max(1, parts.nodeType->railsPerCage) * s.planes;
        const std::size_t nodeLinks = static_cast<std::size_t>(s.finalNodes) * s.rails * s.planes;
        const std::size_t perNode = static_cast<std::size_t>(s.rails) * s.planes;
        for (std::size_t base = 0; base < nodeLinks; base += perNode) {
            for (std::size_t k = 0; k < perNode; k += perCage) {
                const std::size_t n = std::min<std::size_t>(perCage, perNode - k);
                groups.push_back({ base + k, n, n > 1 });
            }
        }
        for (std::size_t i = nodeLinks; i < plan.links.size() && plan.links[i].tier == LinkTier::NodeLeaf; ++i)
            groups.push_back({ i, 1, false });
        return groups;
    }

    /// Switch-to-switch: consecutive links between the same pair of cages.
    std::vector<Group> switchGroups(const core::Plan& plan, std::size_t from)
    {
        std::vector<Group> groups;
        for (std::size_t i = from; i < plan.links.size();) {
            const Link& l = plan.links[i];
            const auto ca = plan.cageOf(l.a);
            const auto cb = plan.cageOf(l.b);
            std::size_t j = i + 1;
            while (j < plan.links.size() && plan.links[j].a.device == l.a.device && plan.links[j].b.device == l.b.device
                && plan.links[j].tier == l.tier && plan.cageOf(plan.links[j].a).first == ca.first
                && plan.cageOf(plan.links[j].b).first == cb.first)
                ++j;
            groups.push_back({ i, j - i, false });
            i = j;
        }
        return groups;
    }

    std::size_t tierIndex(LinkTier t)
    {
        return static_cast<std::size_t>(t);
    }

    /// Leaves placed in the node racks are meant for copper: say which node cages DAC cannot reach.
    void reportDacReach(const core::PlanSpec& spec, const Parts& parts, const core::Catalog& catalog, const core::Plan& plan,
        const std::vector<Group>& groups, std::vector<core::Finding>& findings)
    {
        if (spec.racks.leafPlacement != "rack")
            return;
        double longestDac = 0;
        for (const CableModel& c : catalog.cables()) {
            if (c.medium == Medium::Dac && carries(c, parts.rate.speedGbps()) && fabricOk(c.fabrics, spec.fabric))
                longestDac = std::max(longestDac, c.maxLengthM());
        }
        long long beyond = 0;
        long long nodeCages = 0;
        double longest = 0;
        for (const Group& g : groups) {
            const Link& l = plan.links[g.first];
            if (l.tier != LinkTier::NodeLeaf || plan.devices[l.a.device].kind != DeviceKind::Node)
                continue;
            ++nodeCages;
            if (l.medium != Medium::Dac) {
                ++beyond;
                longest = std::max<double>(longest, l.lengthM);
            }
        }
        if (beyond == 0)
            return;
        findings.push_back({ core::Severity::Warning, "DAC_BEYOND_REACH",
            core::formatCount(beyond) + " of " + core::formatCount(nodeCages) + " node cages are beyond DAC reach ("
                + (longestDac > 0 ? "the longest " + parts.rate.label() + " DAC is " + core::formatNumber(longestDac) + " m"
                                  : "the catalog has no " + parts.rate.label() + " DAC")
                + "; runs up to " + core::formatNumber(std::ceil(longest)) + " m) and take active copper or optics instead. "
                + "Move the leaves closer (racks) or budget for the optics.",
            "racks" });
    }

} // namespace

bool assignMedia(const core::PlanSpec& spec, const Parts& parts, const Shape& shape, const core::Catalog& catalog,
    core::Plan& plan, TransceiverTally& tally, std::vector<core::Finding>& findings, std::stop_token stop)
{
    auto& links = plan.links;
    const auto& racks = spec.racks;
    const int speed = parts.rate.speedGbps();
    Chooser chooser(catalog, spec.fabric, speed);

    // 1. Needed length of every link.
    for (Link& l : links) {
        const auto& a = plan.devices[l.a.device];
        switch (l.tier) {
        case LinkTier::NodeLeaf:
            l.lengthM = static_cast<float>(a.kind == DeviceKind::Management
                    ? managementLength(racks)
                    : nodeLeafLength(racks, shape, static_cast<int>(l.a.device) % shape.suSize));
            break;
        case LinkTier::LeafSpine:
            l.lengthM = static_cast<float>(leafSpineLength(racks, shape, a.su - 1));
            break;
        case LinkTier::SpineCore:
            l.lengthM = static_cast<float>(spineCoreLength(racks, shape, a.pod - 1));
            break;
        }
    }
    if (stop.stop_requested())
        return false;

    // 2. Copper per group where it reaches; the rest waits for its tier's fiber choice.
    std::vector<Group> groups = nodeGroups(plan, parts, shape);
    std::size_t firstSwitchLink = 0;
    while (firstSwitchLink < links.size() && links[firstSwitchLink].tier == LinkTier::NodeLeaf)
        ++firstSwitchLink;
    const auto more = switchGroups(plan, firstSwitchLink);
    groups.insert(groups.end(), more.begin(), more.end());

    std::vector<std::size_t> fiberLinks;
    std::array<double, 3> fiberMax {};
    plan.assemblies.reserve(links.size());
    for (const Group& g : groups) {
        double needed = 0;
        for (std::size_t i = g.first; i < g.first + g.count; ++i)
            needed = std::max<double>(needed, links[i].lengthM);
        const CableModel* cable = chooser.copper(static_cast<int>(g.count), g.splitter, needed);
        if (!cable && g.count > 1 && !g.splitter) {
            // No twin assembly: try one straight copper cable per link.
            if (const CableModel* single = chooser.copper(1, false, needed)) {
                for (std::size_t i = g.first; i < g.first + g.count; ++i) {
                    links[i].medium = single->medium;
                    links[i].lengthM = static_cast<float>(*orderableLength(*single, needed));
                    links[i].assembly = static_cast<std::uint32_t>(plan.assemblies.size());
                    plan.assemblies.push_back({ single->id, single->medium, links[i].lengthM, 1, links[i].installed });
                }
                continue;
            }
        }
        if (!cable) {
            for (std::size_t i = g.first; i < g.first + g.count; ++i) {
                fiberLinks.push_back(i);
                fiberMax[tierIndex(links[i].tier)] = std::max<double>(fiberMax[tierIndex(links[i].tier)], links[i].lengthM);
            }
            continue;
        }
        const float length = static_cast<float>(*orderableLength(*cable, needed));
        const auto index = static_cast<std::uint32_t>(plan.assemblies.size());
        plan.assemblies.push_back({ cable->id, cable->medium, length, static_cast<std::uint8_t>(g.count), links[g.first].installed });
        for (std::size_t i = g.first; i < g.first + g.count; ++i) {
            links[i].medium = cable->medium;
            links[i].lengthM = length;
            links[i].assembly = index;
        }
    }
    reportDacReach(spec, parts, catalog, plan, groups, findings);
    if (stop.stop_requested())
        return false;

    // 3. Fiber: one medium per tier, the cheaper multimode when the tier's longest run allows.
    const CageEnd nodeEnd { parts.nodeType->cageForm,
        speed * std::max(1, parts.nodeType->railsPerCage) * shape.planes,
        std::max(1, parts.nodeType->railsPerCage) * shape.planes, false, parts.nodeType->flatTopTransceivers };
    const CageEnd mgmtEnd { parts.nic->cageForm, speed, 1, false, false };
    auto switchEnd = [&](const core::Device& d) {
        const core::SwitchModel* sw = catalog.findSwitch(d.model);
        // Switch-side modules are keyed to the links the mode runs per cage (QM9700: 2 at NDR, 4 at NDR200).
        return CageEnd { sw->cageForm, speed * d.portsPerCage, d.portsPerCage, true, false };
    };
    const core::Device* tierLower[3] = { nullptr, nullptr, nullptr };
    const core::Device* tierUpper[3] = { nullptr, nullptr, nullptr };
    bool tierHasMgmt = false;
    bool tierHasNode = false;
    for (std::size_t i : fiberLinks) {
        const std::size_t t = tierIndex(links[i].tier);
        tierLower[t] = &plan.devices[links[i].a.device];
        tierUpper[t] = &plan.devices[links[i].b.device];
        tierHasMgmt = tierHasMgmt || tierLower[t]->kind == DeviceKind::Management;
        tierHasNode = tierHasNode || tierLower[t]->kind == DeviceKind::Node;
    }

    struct TierFiber {
        Medium medium = Medium::Mmf;
        const TransceiverModel* lower = nullptr; ///< node, mgmt or lower switch end
        const TransceiverModel* mgmt = nullptr;
        const TransceiverModel* upper = nullptr;
        bool ok = false;
    };
    std::array<TierFiber, 3> tierFiber {};
    for (std::size_t t = 0; t < 3; ++t) {
        if (!tierLower[t])
            continue;
        for (Medium m : { Medium::Mmf, Medium::Smf }) {
            TierFiber f;
            f.medium = m;
            const bool nodeTier = t == tierIndex(LinkTier::NodeLeaf);
            const bool needLower = !nodeTier || tierHasNode;
            const bool needMgmt = nodeTier && tierHasMgmt;
            if (needLower)
                f.lower = chooser.transceiver(nodeTier ? nodeEnd : switchEnd(*tierLower[t]), m, fiberMax[t]);
            if (needMgmt)
                f.mgmt = chooser.transceiver(mgmtEnd, m, fiberMax[t]);
            f.upper = chooser.transceiver(switchEnd(*tierUpper[t]), m, fiberMax[t]);
            f.ok = (!needLower || f.lower) && (!needMgmt || f.mgmt) && f.upper && chooser.fiber(m, fiberMax[t]);
            if (f.ok) {
                tierFiber[t] = f;
                break;
            }
        }
        if (!tierFiber[t].ok) {
            findings.push_back({ core::Severity::Error, "NO_MEDIUM",
                "No cable or transceiver in the catalog carries " + parts.rate.label() + " over "
                    + core::formatNumber(std::ceil(fiberMax[t])) + " m on the " + std::string(core::toString(static_cast<LinkTier>(t)))
                    + " tier; add one to a catalog file or shorten the runs (racks).",
                std::string(core::toString(static_cast<LinkTier>(t))) });
        }
    }

    for (std::size_t i : fiberLinks) {
        Link& l = links[i];
        const TierFiber& f = tierFiber[tierIndex(l.tier)];
        l.medium = f.medium;
        const CableModel* cable = f.ok ? chooser.fiber(f.medium, l.lengthM) : nullptr;
        if (cable)
            l.lengthM = static_cast<float>(*orderableLength(*cable, l.lengthM));
        l.assembly = static_cast<std::uint32_t>(plan.assemblies.size());
        plan.assemblies.push_back({ cable ? cable->id : std::string(), f.medium, l.lengthM, 1, l.installed });
    }
    if (stop.stop_requested())
        return false;

    // 4. Transceivers: one per switch cage holding an installed fiber link; one per node cage.
    std::vector<std::size_t> cageBase(plan.devices.size() + 1, 0);
    for (std::size_t d = 0; d < plan.devices.size(); ++d) {
        const auto& dev = plan.devices[d];
        const int cages = dev.kind == DeviceKind::Switch ? (dev.ports + dev.portsPerCage - 1) / dev.portsPerCage : 0;
        cageBase[d + 1] = cageBase[d] + static_cast<std::size_t>(cages);
    }
    std::vector<bool> cageFilled(cageBase.back(), false);
    std::vector<bool> nodeCageFilled(static_cast<std::size_t>(shape.finalNodes) * shape.rails, false);
    const int railsPerCage = std::max(1, parts.nodeType->railsPerCage);
    for (std::size_t i : fiberLinks) {
        const Link& l = links[i];
        const TierFiber& f = tierFiber[tierIndex(l.tier)];
        if (!l.installed || !f.ok)
            continue;
        auto countSwitchEnd = [&](const core::PortRef& p, const TransceiverModel* t) {
            const std::size_t cage = cageBase[p.device] + static_cast<std::size_t>(plan.cageOf(p).first - 1);
            if (!cageFilled[cage]) {
                cageFilled[cage] = true;
                ++tally.switchSide[t->id];
            }
        };
        countSwitchEnd(l.b, f.upper);
        const auto& lower = plan.devices[l.a.device];
        if (lower.kind == DeviceKind::Switch) {
            countSwitchEnd(l.a, f.lower);
        } else if (lower.kind == DeviceKind::Management) {
            ++tally.nodeSide[f.mgmt->id];
        } else {
            const std::size_t cage = static_cast<std::size_t>(l.a.device) * shape.rails + l.a.port / railsPerCage;
            if (!nodeCageFilled[cage]) {
                nodeCageFilled[cage] = true;
                ++tally.nodeSide[f.lower->id];
            }
        }
    }
    return !stop.stop_requested();
}

} // namespace railyard::planner
