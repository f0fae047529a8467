// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/switch_config_intent.h"

#include <algorithm>
#include <map>
#include <string_view>

namespace railyard::planner {

using core::DeviceKind;

QosIntent qosIntent(const core::LosslessProfile& p)
{
    QosIntent q;
    q.pfc = p.mode != "lossy" && !p.pfcPriorities.empty();
    if (q.pfc)
        q.pfcPriorities = p.pfcPriorities;
    // pfc-only: PFC and nothing else; lossless and lossy: ECN marking and DCQCN as the profile says.
    q.ecn = p.mode != "pfc-only" && p.ecn;
    q.dcqcn = p.mode != "pfc-only" && p.dcqcn;
    q.trustDscp = p.trust == "dscp";
    q.roceDscp = p.roceDscp;
    q.cnpDscp = p.cnpDscp;
    q.rocePriority = q.pfc ? q.pfcPriorities.front() : core::defaultDscpPriority(p.roceDscp);
    q.cnpPriority = core::defaultDscpPriority(p.cnpDscp);
    q.interfaceMtu = core::interfaceMtu(p);
    q.rdmaMtu = core::rdmaMtu(p);
    q.trafficClass = core::roceTrafficClass(p);
    return q;
}

std::string commentSafe(const std::string& text)
{
    std::string out = text;
    for (char& c : out) {
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            c = ' ';
    }
    return out;
}

namespace {

    core::Error mismatch(const std::string& what)
    {
        return core::Error { "ADDRESS_PLAN_MISMATCH", "the address plan was not made for this plan: " + what, "",
            "make it with planAddresses() from the same plan" };
    }

} // namespace

core::Result<std::vector<SwitchIntent>> switchIntents(const core::Plan& plan, const AddressPlan& addresses,
    const std::string& onlyDevice)
{
    if (addresses.links.size() != plan.links.size())
        return mismatch(std::to_string(addresses.links.size()) + " links addressed, the plan has " + std::to_string(plan.links.size()));
    // Device index -> position in addresses.switches (switches in device order).
    std::vector<int> ordinal(plan.devices.size(), -1);
    int next = 0;
    for (std::size_t i = 0; i < plan.devices.size(); ++i) {
        if (plan.devices[i].kind == DeviceKind::Switch)
            ordinal[i] = next++;
    }
    if (static_cast<std::size_t>(next) != addresses.switches.size())
        return mismatch(std::to_string(addresses.switches.size()) + " switches addressed, the plan has " + std::to_string(next));

    const bool perTier = plan.spec.addressing.asn.scheme == "per_tier";
    const auto topTier = plan.summary.tiers == 3 ? core::SwitchTier::Core : core::SwitchTier::Spine;
    std::map<std::string_view, const LeafSubnet*> subnets;
    for (const LeafSubnet& s : addresses.subnets)
        subnets.emplace(s.leaf, &s);
    std::vector<int> slot(plan.devices.size(), -1); // device index -> position in `out`
    std::vector<SwitchIntent> out;
    for (std::size_t i = 0; i < plan.devices.size(); ++i) {
        const core::Device& d = plan.devices[i];
        if (d.kind != DeviceKind::Switch || !d.installed || (!onlyDevice.empty() && d.name != onlyDevice))
            continue;
        const SwitchAddressing& a = addresses.switches[static_cast<std::size_t>(ordinal[i])];
        SwitchIntent sw;
        sw.device = static_cast<std::uint32_t>(i);
        sw.name = d.name;
        sw.tier = d.tier;
        sw.asn = a.asn;
        sw.loopback = a.loopback;
        sw.acceptOwnAsn = perTier && d.tier != topTier;
        if (const auto it = subnets.find(d.name); it != subnets.end())
            sw.subnet = it->second;
        slot[i] = static_cast<int>(out.size());
        out.push_back(std::move(sw));
    }
    if (!onlyDevice.empty() && out.empty())
        return core::Error { "SWITCH_UNKNOWN", "the plan has no installed switch called \"" + commentSafe(onlyDevice) + "\"", onlyDevice,
            "railyard-cli plan --json lists the switches" };

    const auto asnOf = [&](std::uint32_t device) {
        return plan.devices[device].kind == DeviceKind::Switch ? addresses.switches[static_cast<std::size_t>(ordinal[device])].asn : 0U;
    };
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        const core::Link& link = plan.links[i];
        if (!link.installed)
            continue;
        const LinkAddresses& la = addresses.links[i];
        const bool subnet = addresses.scheme == "rail_subnets" && link.tier == core::LinkTier::NodeLeaf;
        const auto add = [&](const core::PortRef& own, const core::PortRef& other, const std::string& ownAddr,
                             const std::string& otherAddr, bool member) {
            const int s = slot[own.device];
            if (s < 0)
                return;
            PortIntent p;
            p.port = own;
            p.peer = plan.portName(other);
            p.peerDevice = plan.devices[other.device].name;
            p.address = member ? std::string() : ownAddr;
            p.prefixLength = la.prefixLength;
            p.peerAddress = otherAddr;
            p.peerAsn = asnOf(other.device);
            p.subnetMember = member;
            p.lengthM = link.lengthM;
            out[static_cast<std::size_t>(s)].ports.push_back(std::move(p));
        };
        add(link.b, link.a, la.bAddress, la.aAddress, subnet);
        add(link.a, link.b, la.aAddress, la.bAddress, false);
    }
    for (SwitchIntent& sw : out)
        std::sort(sw.ports.begin(), sw.ports.end(), [](const auto& x, const auto& y) { return x.port.port < y.port.port; });
    return out;
}

} // namespace railyard::planner
