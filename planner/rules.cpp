// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/rules.h"

#include "core/text.h"
#include "planner/addressing.h"

#include <algorithm>

#include <string>

namespace railyard::planner {

using core::Severity;

namespace {

    void add(std::vector<core::Finding>& f, Severity s, std::string code, std::string message, std::string where)
    {
        f.push_back({ s, std::move(code), std::move(message), std::move(where) });
    }

    void checkLids(const core::PlanSpec& spec, const Shape& s, core::Plan& plan, std::vector<core::Finding>& findings)
    {
        // One subnet per plane: every HCA port and every switch (its port 0) takes a LID at LMC 0.
        const long long switches = s.leavesPerPlane() + 1LL * s.groupsPerPlane() * s.spinesPerGroup + s.coresPerPlane;
        const long long hcas = 1LL * s.finalNodes * s.rails + spec.managementPorts;
        const long long lids = hcas + switches;
        plan.summary.lidsPerSubnet = lids;
        if (lids > kUnicastLids) {
            add(findings, Severity::Error, "LID_SPACE_EXCEEDED",
                "One subnet of this fabric needs " + core::formatCount(lids) + " unicast LIDs at LMC 0 (" + core::formatCount(hcas)
                    + " HCA ports + " + core::formatCount(switches) + " switches), but InfiniBand has " + core::formatCount(kUnicastLids)
                    + ". Split it into planes (planes: 2) or separate subnets.",
                "nodes");
        } else if (lids * 2 > kUnicastLids) {
            add(findings, Severity::Info, "LID_BUDGET",
                core::formatCount(lids) + " of " + core::formatCount(kUnicastLids)
                    + " unicast LIDs per subnet at LMC 0: an LMC above 0 will not fit (and fat-tree routing needs LMC 0 anyway).",
                "nodes");
        }
        if (s.planes > 1) {
            add(findings, Severity::Info, "PLANES_ARE_SUBNETS",
                "Each of the " + std::to_string(s.planes) + " planes is its own InfiniBand subnet and needs its own subnet manager.",
                "planes");
        }
    }

    void checkLossless(const core::PlanSpec& spec, std::vector<core::Finding>& findings)
    {
        const auto& p = spec.lossless;
        const bool pfc = !p.pfcPriorities.empty() && p.mode != "lossy";
        const bool cc = p.ecn && p.dcqcn;
        if (p.mode == "lossless" && p.pfcPriorities.empty()) {
            add(findings, Severity::Error, "LOSSLESS_WITHOUT_PFC",
                "Lossless mode without a PFC priority: one hop without PFC drops RoCE packets under congestion, and every drop costs a "
                "go-back-N retransmission of everything in flight.",
                "lossless.pfc_priority");
        }
        if (pfc && !cc) {
            add(findings, Severity::Warning, "PFC_WITHOUT_ECN",
                std::string("PFC without ") + (p.ecn ? "DCQCN" : "ECN") + ": nothing slows the senders before the queues fill, so PFC "
                    + "pauses fire often, spread congestion upstream (pause storms, head-of-line blocking) and risk deadlock. Enable ECN "
                      "marking on the switches and DCQCN on the NICs.",
                "lossless");
        }
        if (p.mode == "lossy") {
            if (cc) {
                add(findings, Severity::Info, "LOSSY_MODE",
                    "Lossy RoCEv2 (no PFC) relies on ECN marking and DCQCN to keep queues short, and on the NIC's retransmission when "
                    "a packet is dropped anyway (incast bursts): expect lower throughput under heavy all-to-all traffic.",
                    "lossless.mode");
            } else {
                add(findings, Severity::Warning, "LOSSY_WITHOUT_CC",
                    "Lossy RoCEv2 without ECN and DCQCN has nothing that prevents drops: every congested queue drops packets and the "
                    "NICs retransmit. Enable ECN and DCQCN, or use the lossless mode.",
                    "lossless");
            }
        }
        if (pfc && p.pfcPriorities.size() > 1) {
            add(findings, Severity::Info, "PFC_MULTI_PRIORITY",
                "PFC on " + std::to_string(p.pfcPriorities.size()) + " priorities: every lossless priority needs its own buffer "
                    + "headroom on every port, which the switch takes from the shared buffer.",
                "lossless.pfc_priority");
        }
        if (p.roceDscp == p.cnpDscp) {
            add(findings, Severity::Warning, "CNP_ON_ROCE_DSCP",
                "CNPs use the same DSCP (" + std::to_string(p.cnpDscp) + ") as RoCE data: they queue behind the traffic they are "
                    + "meant to slow down. Give CNPs their own (strict-priority) DSCP, usually 48.",
                "lossless.cnp_dscp");
        }
        if (p.trust == "pcp") {
            add(findings, Severity::Warning, "TRUST_PCP",
                "Trust PCP needs VLAN tags on every hop; a routed (L3) RoCEv2 fabric carries its priority in DSCP. Use trust dscp.",
                "lossless.trust");
        }
    }

    bool onPfc(const core::LosslessProfile& p, int priority)
    {
        return std::find(p.pfcPriorities.begin(), p.pfcPriorities.end(), priority) != p.pfcPriorities.end();
    }

    // The DSCP-to-priority mapping and the MTU: what the generated switch and host configurations
    // (switch_config.h, host_config.h) depend on.
    void checkQosMapping(const core::PlanSpec& spec, std::vector<core::Finding>& findings)
    {
        const auto& p = spec.lossless;
        const bool pfc = !p.pfcPriorities.empty() && p.mode != "lossy";
        const int rocePrio = core::defaultDscpPriority(p.roceDscp);
        const int cnpPrio = core::defaultDscpPriority(p.cnpDscp);
        if (pfc && p.trust == "dscp" && !onPfc(p, rocePrio)) {
            const int target = p.pfcPriorities.front();
            add(findings, Severity::Warning, "ROCE_DSCP_NOT_ON_PFC_PRIORITY",
                "RoCE DSCP " + std::to_string(p.roceDscp) + " maps to priority " + std::to_string(rocePrio)
                    + " under the default DSCP-to-priority map (DSCP / 8) of the NICs and switches, but PFC is on priority "
                    + std::to_string(target) + ". The generated configurations map it explicitly; any NIC or switch left at its "
                    + "defaults carries RoCE on a lossy priority and drops it under congestion. Set roce_dscp to "
                    + std::to_string(target * 8 + p.roceDscp % 8) + " (priority " + std::to_string(target) + ").",
                "lossless.roce_dscp");
        }
        if (pfc && p.cnpDscp != p.roceDscp && onPfc(p, cnpPrio)) {
            add(findings, Severity::Warning, "CNP_ON_LOSSLESS_PRIORITY",
                "CNP DSCP " + std::to_string(p.cnpDscp) + " maps to priority " + std::to_string(cnpPrio) + ", a PFC (lossless) "
                    + "priority: CNPs are paused with the data they are meant to slow down, so DCQCN reacts late. Give CNPs a "
                    + "priority of their own, served strictly: cnp_dscp 48 (priority 6).",
                "lossless.cnp_dscp");
        }
        const int ethernet = core::interfaceMtu(p);
        if (core::isRdmaMtu(p.mtu) && ethernet < p.mtu + core::kRoceHeaderBytes) {
            add(findings, Severity::Error, "MTU_TOO_SMALL_FOR_RDMA",
                "RDMA MTU " + std::to_string(p.mtu) + " needs an Ethernet MTU of at least " + std::to_string(p.mtu + core::kRoceHeaderBytes)
                    + " on every host NIC and switch port (RoCEv2 adds " + std::to_string(core::kRoceHeaderBytes)
                    + " bytes of headers), but interface_mtu is " + std::to_string(ethernet) + ": the NICs fall back to a "
                    + "smaller RDMA MTU. Set lossless.interface_mtu to 9000, or lower lossless.mtu.",
                "lossless.interface_mtu");
        }
        if (!core::isRdmaMtu(p.mtu) && p.interfaceMtu && *p.interfaceMtu != p.mtu) {
            add(findings, Severity::Error, "MTU_MISMATCH",
                "lossless.mtu " + std::to_string(p.mtu) + " is an Ethernet MTU, but lossless.interface_mtu is "
                    + std::to_string(*p.interfaceMtu) + ": the hosts and switches would run different MTUs, and packets "
                    + "larger than the smaller one are dropped. Give one Ethernet MTU (drop interface_mtu), or an RDMA MTU in mtu.",
                "lossless.interface_mtu");
        } else if (!core::isRdmaMtu(p.mtu) && core::rdmaMtu(p) < 4096) {
            add(findings, Severity::Info, "RDMA_MTU_BELOW_4096",
                "An Ethernet MTU of " + std::to_string(p.mtu) + " leaves RDMA MTU " + std::to_string(core::rdmaMtu(p))
                    + ": more packets and headers per message than at 4096 (which needs an Ethernet MTU of 4192 or more, "
                    + "9000 is usual).",
                "lossless.mtu");
        }
    }

    void checkAddressing(const core::Plan& plan, std::vector<core::Finding>& findings)
    {
        if (!plan.spec.addressingGiven || plan.links.empty())
            return;
        for (const core::Error& e : addressRangeProblems(plan, addressNeeds(plan)))
            add(findings, Severity::Error, e.code, e.message + "; " + e.hint + ".", e.where);
        if (plan.spec.addressing.asn.scheme == "per_tier") {
            add(findings, Severity::Info, "ASN_PER_TIER",
                "One AS number for every leaf: eBGP drops a route whose AS path holds the receiver's own ASN, so each leaf must "
                "accept its own ASN from the spines (allowas-in). The NVUE configuration sets it (aspath allow-my-asn); on "
                "SONiC add 'neighbor <spine> allowas-in 1' in FRR, which config_db.json cannot say.",
                "addressing.asn.scheme");
        }
    }

} // namespace

void checkRules(const core::PlanSpec& spec, const Shape& shape, core::Plan& plan,
    std::vector<core::Finding>& findings)
{
    if (spec.fabric == core::Fabric::InfiniBand)
        checkLids(spec, shape, plan, findings);
    else {
        checkLossless(spec, findings);
        checkQosMapping(spec, findings);
        checkAddressing(plan, findings);
    }
}

} // namespace railyard::planner
