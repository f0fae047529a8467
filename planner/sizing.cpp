// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/sizing.h"

#include "core/text.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace railyard::planner {

using core::Error;
using core::Finding;
using core::PortRate;
using core::Severity;

namespace {

    void add(std::vector<Finding>& findings, Severity severity, std::string code, std::string message, std::string where)
    {
        findings.push_back({ severity, std::move(code), std::move(message), std::move(where) });
    }

    long long ceilDiv(long long a, long long b)
    {
        return (a + b - 1) / b;
    }

    Error unknownId(const std::string& field, const std::string& kind, const std::string& id)
    {
        return Error { "SPEC_FIELD", field + ": unknown " + kind + " \"" + id + "\"", "",
            "see `railyard-cli catalog` or the files in resources/catalog/" };
    }

    /// Does `rates` hold a rate of the same fabric and speed as `rate` but another lane count?
    const PortRate* sameSpeedOtherLanes(const std::vector<PortRate>& rates, const PortRate& rate)
    {
        for (const PortRate& r : rates) {
            if (r.fabric == rate.fabric && r.generation == rate.generation && r.speedGbps() == rate.speedGbps())
                return &r;
        }
        return nullptr;
    }

    std::vector<PortRate> modeRates(const core::SwitchModel& sw)
    {
        std::vector<PortRate> rates;
        for (const auto& m : sw.modes)
            rates.push_back(m.rate);
        return rates;
    }

    void checkNic(const core::NicModel& nic, const core::PlanSpec& spec, const PortRate& rate, std::vector<Finding>& findings)
    {
        const auto& rates = spec.fabric == core::Fabric::InfiniBand ? nic.ibRates : nic.ethernetRates;
        if (rates.empty()) {
            add(findings, Severity::Error, "FABRIC_MISMATCH",
                nic.id + " has no " + (spec.fabric == core::Fabric::InfiniBand ? "InfiniBand" : "Ethernet")
                    + " ports; this plan is " + std::string(core::toString(spec.fabric)) + ".",
                "nic");
            return;
        }
        if (!nic.supports(rate)) {
            if (const PortRate* other = sameSpeedOtherLanes(rates, rate)) {
                add(findings, Severity::Error, "LANE_MISMATCH",
                    nic.id + " runs " + std::to_string(rate.speedGbps()) + "G as " + other->label() + ", not " + rate.label()
                        + ": the lane rates differ, so the link cannot come up. Set link.lanes to "
                        + std::to_string(other->lanes) + ".",
                    "link");
            } else {
                std::string offered;
                for (const PortRate& r : rates)
                    offered += (offered.empty() ? "" : ", ") + r.label();
                add(findings, Severity::Error, "NIC_SPEED",
                    nic.id + " cannot run " + rate.label() + "; its " + std::string(spec.fabric == core::Fabric::InfiniBand ? "InfiniBand" : "Ethernet")
                        + " ports run " + offered + "." + (spec.fabric == core::Fabric::RoCEv2 && nic.maxGbps > rate.dataGbps / 2 && rate.dataGbps > 400
                            ? " For more bandwidth per NIC use planes: 2 at a speed it offers." : ""),
                    "link");
            }
        }
        const double total = rate.dataGbps * spec.planes;
        if (nic.maxGbps > 0 && total > nic.maxGbps + 1e-9) {
            add(findings, Severity::Error, "NIC_BANDWIDTH",
                std::to_string(spec.planes) + " plane(s) x " + core::formatNumber(rate.dataGbps) + " Gb/s needs "
                    + core::formatNumber(total) + " Gb/s per NIC, but " + nic.id + " carries at most "
                    + core::formatNumber(nic.maxGbps) + " Gb/s.",
                "planes");
        }
    }

    void checkSwitch(const core::SwitchModel& sw, const std::string& field, const core::PlanSpec& spec, const PortRate& rate,
        std::vector<Finding>& findings)
    {
        if (sw.fabric != spec.fabric) {
            add(findings, Severity::Error, "FABRIC_MISMATCH",
                sw.id + " is " + (sw.fabric == core::Fabric::InfiniBand ? "an InfiniBand" : "an Ethernet")
                    + " switch; this plan is " + std::string(core::toString(spec.fabric)) + ".",
                field);
        }
        if (sw.modeFor(rate))
            return;
        const auto rates = modeRates(sw);
        if (const PortRate* other = sameSpeedOtherLanes(rates, rate)) {
            add(findings, Severity::Error, "LANE_MISMATCH",
                sw.id + " runs " + std::to_string(rate.speedGbps()) + "G ports as " + other->label() + " but the NICs run "
                    + rate.label() + ": " + std::to_string(other->lanes) + " x " + core::formatNumber(other->laneDataGbps())
                    + "G cannot meet " + std::to_string(rate.lanes) + " x " + core::formatNumber(rate.laneDataGbps()) + "G.",
                field);
        } else {
            add(findings, Severity::Error, "SWITCH_SPEED", sw.id + " has no ports at " + rate.label() + ".", field);
        }
    }

    const core::SwitchModel* pickSwitch(const std::string& id, const std::string& field, const core::Catalog& catalog,
        core::Errors& errors)
    {
        const core::SwitchModel* sw = catalog.findSwitch(id);
        if (!sw)
            errors.push_back(unknownId(field, "switch", id));
        return sw;
    }

    /// Radix at the planned rate: the mode at that rate, or one at the same speed (lane
    /// mismatch, already a finding), capped by the box's logical-port limit.
    std::optional<TierPorts> tierPorts(const core::SwitchModel& sw, const PortRate& rate)
    {
        const core::SwitchMode* mode = sw.modeFor(rate);
        if (!mode) {
            for (const auto& m : sw.modes) {
                if (m.rate.fabric == rate.fabric && m.rate.speedGbps() == rate.speedGbps() && m.rate.generation == rate.generation)
                    mode = &m;
            }
        }
        if (!mode)
            return std::nullopt;
        TierPorts t;
        t.ports = sw.maxLogicalPorts > 0 ? std::min(mode->ports, sw.maxLogicalPorts) : mode->ports;
        t.portsPerCage = mode->portsPerCage;
        return t;
    }

    /// Down ports of a switch with `usable` ports at down:up ratio `r` (bandwidth = ports at one speed).
    int downPorts(int usable, const core::Ratio& r)
    {
        return static_cast<int>(std::floor(usable * r.down / (r.down + r.up) + 1e-9));
    }

    int upPorts(int down, const core::Ratio& r)
    {
        return static_cast<int>(std::ceil(down * r.up / r.down - 1e-9));
    }

    bool sizeThreeTiers(Shape& s, const core::PlanSpec& spec, std::vector<Finding>& findings)
    {
        const int spineDownMax = downPorts(s.spinePorts.ports, spec.spineOversubscription);
        const int maxSusPerPod = spineDownMax / s.leavesPerSu();
        for (int g = 1; g <= std::max(1, maxSusPerPod); ++g) {
            if (g > maxSusPerPod)
                break;
            const int pods = static_cast<int>(ceilDiv(s.suCount, g));
            if (pods > s.corePorts.ports)
                continue;
            const int leavesPerPod = g * s.leavesPerSu();
            const int spines = smallestDivisorAtLeast(s.leafUp, static_cast<int>(ceilDiv(1LL * leavesPerPod * s.leafUp, spineDownMax)));
            if (spines == 0)
                continue;
            const int down = leavesPerPod * (s.leafUp / spines);
            const int up = upPorts(down, spec.spineOversubscription);
            const int m = largestDivisorAtMost(up, s.corePorts.ports / pods);
            if (up < 1 || m == 0)
                continue;
            s.susPerPod = g;
            s.pods = pods;
            s.spinesPerGroup = spines;
            s.linksPerLeafSpine = s.leafUp / spines;
            s.spineDown = down;
            s.spineUp = up;
            s.linksPerSpineCore = m;
            s.coresPerPlane = spines * up / m;
            return true;
        }
        const long long maxSus = 1LL * std::max(0, maxSusPerPod) * s.corePorts.ports;
        add(findings, Severity::Error, "THREE_TIER_LIMIT",
            std::to_string(s.suCount) + " SUs do not fit in three tiers of these switches: a pod can hold at most "
                + std::to_string(std::max(0, maxSusPerPod)) + " SU(s) (" + std::to_string(spineDownMax)
                + " spine downlinks) and a core reaches at most " + std::to_string(s.corePorts.ports) + " pods, so at most "
                + core::formatCount(maxSus * s.suSize) + " nodes. Use a larger-radix switch, a second plane, leaf oversubscription, or fewer nodes.",
            "nodes");
        return false;
    }

} // namespace

int smallestDivisorAtLeast(int n, int atLeast)
{
    for (int d = std::max(1, atLeast); d <= n; ++d) {
        if (n % d == 0)
            return d;
    }
    return 0;
}

int largestDivisorAtMost(int n, int atMost)
{
    for (int d = std::min(n, atMost); d >= 1; --d) {
        if (n % d == 0)
            return d;
    }
    return 0;
}

core::Result<Parts> resolveParts(core::PlanSpec& spec, const core::Catalog& catalog, std::vector<Finding>& findings)
{
    core::Errors errors;
    Parts parts;
    parts.nodeType = catalog.findNodeType(spec.nodeType);
    if (!parts.nodeType)
        return unknownId("node_type", "node type", spec.nodeType);
    parts.gpusPerNode = spec.gpusPerNode.value_or(parts.nodeType->gpus);
    parts.rails = spec.rails.value_or(parts.nodeType->rails);
    if (spec.nic.empty())
        spec.nic = parts.nodeType->nic;
    parts.nic = catalog.findNic(spec.nic);
    if (!parts.nic)
        errors.push_back(unknownId("nic", "NIC", spec.nic));

    if (spec.gpus) {
        const long long fromGpus = ceilDiv(*spec.gpus, parts.gpusPerNode);
        if (spec.nodes == 0) {
            spec.nodes = static_cast<int>(fromGpus);
        } else if (spec.nodes != fromGpus) {
            errors.push_back({ "SPEC_FIELD",
                "gpus: " + std::to_string(*spec.gpus) + " GPUs is " + std::to_string(fromGpus) + " nodes of "
                    + std::to_string(parts.gpusPerNode) + " GPUs, but nodes says " + std::to_string(spec.nodes),
                "", "give nodes or gpus, or make them agree" });
        }
    }

    if (spec.fabric == core::Fabric::InfiniBand) {
        const auto rate = core::ibRate(spec.link.generation.value_or(core::IbGeneration::NDR), spec.link.width);
        if (!rate)
            return Error { "SPEC_FIELD", "link.width: not offered for this generation", "", "" };
        parts.rate = *rate;
    } else {
        const int speed = spec.link.speedGbps.value_or(400);
        // Lanes: as given; else as the NIC runs that speed; else the usual PHY for the speed.
        int lanes = spec.link.lanes.value_or(core::defaultEthernetLanes(speed));
        if (!spec.link.lanes && parts.nic) {
            for (const auto& r : parts.nic->ethernetRates) {
                if (r.speedGbps() == speed)
                    lanes = r.lanes;
            }
        }
        const auto rate = core::ethernetRate(speed, lanes);
        if (!rate)
            return Error { "SPEC_FIELD",
                "link.lanes: no Ethernet PHY runs " + std::to_string(speed) + "G over " + std::to_string(lanes) + " lanes", "", "" };
        spec.link.lanes = lanes;
        parts.rate = *rate;
    }

    if (spec.leafSwitch.empty()) {
        const core::SwitchModel* def = catalog.defaultSwitch(spec.fabric, parts.rate);
        if (!def)
            return Error { "SPEC_FIELD", "leaf_switch: the catalog has no default switch for " + parts.rate.label(), "",
                "name one with leaf_switch" };
        spec.leafSwitch = def->id;
    }
    if (spec.spineSwitch.empty())
        spec.spineSwitch = spec.leafSwitch;
    if (spec.coreSwitch.empty())
        spec.coreSwitch = spec.spineSwitch;
    parts.leaf = pickSwitch(spec.leafSwitch, "leaf_switch", catalog, errors);
    parts.spine = pickSwitch(spec.spineSwitch, "spine_switch", catalog, errors);
    parts.core = pickSwitch(spec.coreSwitch, "core_switch", catalog, errors);
    if (!errors.empty())
        return errors;

    checkNic(*parts.nic, spec, parts.rate, findings);
    checkSwitch(*parts.leaf, "leaf_switch", spec, parts.rate, findings);
    if (parts.spine != parts.leaf)
        checkSwitch(*parts.spine, "spine_switch", spec, parts.rate, findings);
    if (parts.gpusPerNode != parts.rails) {
        add(findings, Severity::Warning, "RAILS_NOT_GPUS",
            "Nodes have " + std::to_string(parts.gpusPerNode) + " GPUs but " + std::to_string(parts.rails)
                + " compute NICs: a rail-optimized design gives GPU k its own NIC k, so some GPUs share a rail.",
            "rails");
    }
    return parts;
}

std::optional<Shape> sizeFabric(core::PlanSpec& spec, const Parts& parts, std::vector<Finding>& findings)
{
    Shape s;
    s.nodes = spec.nodes;
    s.finalNodes = spec.growToNodes.value_or(spec.nodes);
    s.planes = spec.planes;
    s.rails = parts.rails;
    s.leafReserved = spec.reservedLeafPorts;
    const auto leafPorts = tierPorts(*parts.leaf, parts.rate);
    const auto spinePorts = tierPorts(*parts.spine, parts.rate);
    const auto corePorts = tierPorts(*parts.core, parts.rate);
    if (!leafPorts || !spinePorts || !corePorts)
        return std::nullopt; // the speed findings say why
    s.leafPorts = *leafPorts;
    s.spinePorts = *spinePorts;
    s.corePorts = *corePorts;

    const int usable = s.leafPorts.ports - s.leafReserved;
    const int downMax = usable > 0 ? downPorts(usable, spec.leafOversubscription) : 0;
    if (downMax < 1) {
        add(findings, Severity::Error, "RADIX_EXCEEDED",
            "The leaf has " + std::to_string(s.leafPorts.ports) + " ports at " + parts.rate.label() + "; with "
                + std::to_string(s.leafReserved) + " reserved there is no room for node ports and uplinks.",
            "reserved_leaf_ports");
        return std::nullopt;
    }
    s.suSize = spec.suSize.value_or(downMax);
    spec.suSize = s.suSize;
    s.leavesPerRail = static_cast<int>(ceilDiv(s.suSize, downMax));
    s.leafDown = static_cast<int>(ceilDiv(s.suSize, s.leavesPerRail));
    s.leafUp = upPorts(s.leafDown, spec.leafOversubscription);
    s.suCount = static_cast<int>(ceilDiv(s.finalNodes, s.suSize));
    s.suInstalled = static_cast<int>(ceilDiv(s.nodes, s.suSize));

    if (s.leavesPerRail > 1) {
        add(findings, Severity::Info, "LEAVES_PER_RAIL",
            "An SU of " + std::to_string(s.suSize) + " nodes is wider than one leaf (" + std::to_string(downMax)
                + " node ports at " + spec.leafOversubscription.toString() + "): each rail gets "
                + std::to_string(s.leavesPerRail) + " leaves per SU.",
            "su_size");
    }
    const int idle = s.leafPorts.ports - s.leafDown - s.leafUp - s.leafReserved;
    if (idle > 0) {
        const std::string use = s.leafDown < downMax
            ? "An SU of " + std::to_string(downMax * s.leavesPerRail) + " nodes would use them."
            : "Whole ports cannot split them at " + spec.leafOversubscription.toString()
                + "; reserve them (reserved_leaf_ports) for management or storage, or use them as extra uplinks.";
        add(findings, Severity::Warning, "SU_IDLE_PORTS",
            "Each leaf uses " + std::to_string(s.leafDown) + " node ports and " + std::to_string(s.leafUp) + " uplinks of its "
                + std::to_string(s.leafPorts.ports) + ": " + std::to_string(idle) + " port(s) per leaf stay idle. " + use,
            "su_size");
    }
    const double asked = spec.leafOversubscription.value();
    if (std::abs(s.leafRatio() - asked) > 1e-6) {
        add(findings, Severity::Warning, "OVERSUBSCRIPTION_MISMATCH",
            "Asked for " + spec.leafOversubscription.toString() + " at the leaves; whole ports give " + std::to_string(s.leafDown)
                + " down and " + std::to_string(s.leafUp) + " up, a ratio of " + core::formatNumber(std::round(s.leafRatio() * 100) / 100) + ":1.",
            "oversubscription.leaf");
    }
    if (s.finalNodes % s.suSize != 0) {
        const int inLast = s.finalNodes % s.suSize;
        add(findings, Severity::Info, "PARTIAL_SU",
            "SU " + std::to_string(s.suCount) + " holds " + std::to_string(inLast) + " of " + std::to_string(s.suSize)
                + " nodes; its leaves and uplinks are built out in full, so the missing nodes can be added without recabling.",
            "nodes");
    }

    const int leaves = s.leavesPerPlane();
    const bool twoReach = leaves <= s.spinePorts.ports;
    s.tiers = spec.tiers == core::TierMode::Three ? 3 : 2;
    if (s.tiers == 2 && !twoReach) {
        const int maxSus = s.spinePorts.ports / s.leavesPerSu();
        const std::string limit = std::to_string(leaves) + " leaves per plane exceed the " + std::to_string(s.spinePorts.ports)
            + "-port spine, so two tiers reach at most " + std::to_string(maxSus) + " SUs (" + core::formatCount(1LL * maxSus * s.suSize)
            + " nodes).";
        if (spec.tiers == core::TierMode::Two) {
            add(findings, Severity::Error, "TWO_TIER_LIMIT",
                limit + " Planned in three tiers instead; for two tiers use a larger-radix spine, fewer nodes or a second plane.", "tiers");
        } else {
            add(findings, Severity::Info, "THREE_TIERS", limit + " A third tier (cores) is added.", "tiers");
        }
        s.tiers = 3;
    }
    if (s.tiers == 2) {
        s.spinesPerGroup = smallestDivisorAtLeast(s.leafUp, static_cast<int>(ceilDiv(1LL * leaves * s.leafUp, s.spinePorts.ports)));
        s.linksPerLeafSpine = s.leafUp / s.spinesPerGroup;
        s.spineDown = leaves * s.linksPerLeafSpine;
        return s;
    }
    if (!sizeThreeTiers(s, spec, findings))
        return std::nullopt;
    return s;
}

} // namespace railyard::planner
