// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/rules.h"

#include "core/text.h"

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

} // namespace

void checkRules(const core::PlanSpec& spec, const Shape& shape, core::Plan& plan,
    std::vector<core::Finding>& findings)
{
    if (spec.fabric == core::Fabric::InfiniBand)
        checkLids(spec, shape, plan, findings);
    else
        checkLossless(spec, findings);
}

} // namespace railyard::planner
