// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The root cause of a low or failed collective run (collective_runner.h): the evidence in the order
// it usually explains a low figure on a rail-optimised fabric, the first that applies named as the
// most likely cause, the others listed after it.
#include "live/client/collective_runner.h"

#include "core/text.h"
#include "live/client/test_launch.h"

#include <algorithm>
#include <set>

namespace railyard::live {

namespace {

    struct Cause {
        std::string where;
        std::string text; ///< "node005/nic3 (mlx5_5) is ACTIVE at 200 Gb/s, ..."
    };

    std::string runLabel(const CollectiveRunOutcome& run) { return run.rail ? "rail " + std::to_string(*run.rail) : std::string("all rails"); }

    std::set<std::string> hostsOf(const CollectiveRunOutcome& run)
    {
        std::set<std::string> hosts;
        for (const NcclTestsRank& r : run.tests.rankList)
            hosts.insert(r.host);
        for (const NcclHostReport& h : run.log.hosts)
            if (!h.host.empty())
                hosts.insert(h.host);
        return hosts;
    }

    std::string portText(const PortProblem& p)
    {
        std::string s = p.node + "/nic" + std::to_string(p.rail) + " (" + p.device + ")";
        if (p.state != "ACTIVE" && p.state != "4")
            return s + " is " + p.state + ": the rings through it break";
        return s + " is ACTIVE at " + core::formatNumber(p.rateGbps) + " Gb/s, the plan's " + core::formatNumber(p.plannedGbps)
            + " Gb/s: NCCL spreads its channels evenly over the NICs, so the slowest rail gates every ring";
    }

    /// Every cause seen for `run`, most likely first.
    std::vector<Cause> causesOf(const core::Plan& plan, const CollectiveTestReport& report, const CollectiveRunOutcome& run)
    {
        std::vector<Cause> causes;
        const std::set<std::string> hosts = hostsOf(run);
        auto inRun = [&](const std::string& node) { return hosts.empty() || hosts.contains(node); };
        // 1. A rail port down or trained below the plan's rate (the agents' inventory).
        for (const PortProblem& p : report.ports)
            if (inRun(p.node) && (!run.rail || *run.rail == p.rail))
                causes.push_back({ p.node + "/nic" + std::to_string(p.rail), portText(p) });
        // 2. GPUDirect RDMA off (NCCL's log).
        for (const NcclHostReport& h : run.log.hosts) {
            std::vector<std::string> off;
            for (const NcclNic& n : h.nics)
                if (n.gdr == false)
                    off.push_back(n.name.empty() ? "NET/IB/" + std::to_string(n.index) : n.name);
            if (off.empty() && h.netChannelsNoGdr > 0 && h.netChannelsGdr == 0)
                off.push_back("every network channel");
            if (off.empty())
                continue;
            std::string list;
            for (const std::string& o : off)
                list += (list.empty() ? "" : ", ") + o;
            causes.push_back({ h.host, "GPUDirect RDMA is off on " + (h.host.empty() ? std::string("a host") : h.host) + " (NCCL's log: " + list
                    + (h.netChannelsNoGdr > 0 ? ", " + std::to_string(h.netChannelsNoGdr) + " network channels without GDRDMA" : std::string())
                    + "): every chunk is staged through host memory; load nvidia-peermem or enable dma-buf" });
        }
        // 3. Congestion and link errors in the counters of the run.
        if (report.counters) {
            for (const GroupRates& g : report.counters->leaves)
                if ((g.health == Health::Congested || g.health == Health::Pausing || g.health == Health::Erroring) && (!run.rail || g.rail == *run.rail))
                    causes.push_back({ g.name, std::string(toString(g.health)) + " leaf " + g.name + " during the run: " + g.reason });
            for (const PortRates& p : report.counters->ports)
                if (p.linkErrors > 0 && inRun(p.node) && (!run.rail || p.rail == *run.rail))
                    causes.push_back({ p.node + "/nic" + std::to_string(p.rail),
                        p.node + " " + p.device + " counted " + std::to_string(p.linkErrors) + " link errors during the run (symbol errors, link recoveries, downs)" });
        }
        // 4. Rings crossing rails (NCCL's log, both ends seen).
        if (run.log.topology.crossesRails == true)
            causes.push_back({ "", std::to_string(run.log.topology.crossRailPairs)
                    + " network connections cross rails (NCCL's log shows different NICs at their two ends): traffic climbs to the spines; "
                      "check NCCL_CROSS_NIC and that GPU k of every node uses NIC k" });
        // 5. RoCE: GID index and traffic class.
        if (plan.spec.fabric == core::Fabric::RoCEv2) {
            const int tc = ncclTrafficClass(plan.spec.lossless);
            if (run.log.trafficClass && *run.log.trafficClass != tc)
                causes.push_back({ "", "NCCL_IB_TC is " + std::to_string(*run.log.trafficClass) + ", the plan's lossless class is " + std::to_string(tc)
                        + ": RDMA traffic lands on a priority without PFC" });
            if (run.log.gidIndex && *run.log.gidIndex != 3)
                causes.push_back({ "", "NCCL uses GID index " + std::to_string(*run.log.gidIndex) + " (RoCEv2 over IPv4 is index 3 on mlx5): check show_gids" });
        }
        return causes;
    }

    core::Finding finding(core::Severity s, std::string code, std::string message, std::string where)
    {
        core::Finding f;
        f.severity = s;
        f.code = std::move(code);
        f.message = std::move(message);
        f.where = std::move(where);
        return f;
    }

    std::string failureText(const CollectiveRunOutcome& run)
    {
        if (run.error)
            return run.error->message;
        if (run.timedOut)
            return "it ran past its time limit and was stopped";
        std::string s = run.exitStatus && *run.exitStatus != 0 ? "the launcher exited with status " + std::to_string(*run.exitStatus)
                                                              : std::string("the table is incomplete");
        for (const core::Finding& f : run.tests.findings)
            if (f.severity == core::Severity::Error) {
                s += "; " + f.message;
                break;
            }
        for (const NcclError& e : run.log.errors) {
            s += "; NCCL on " + e.host + (e.hca.empty() ? "" : " " + e.hca) + ": " + e.statusName + " (" + e.meaning + ")";
            break;
        }
        return s;
    }

} // namespace

void explainCollective(const core::Plan& plan, CollectiveTestReport& report, const VerdictThresholds& thresholds)
{
    (void)thresholds;
    std::vector<core::Finding> out;
    for (const CollectiveRunOutcome& run : report.runs) {
        const std::string label = report.tool + " on " + runLabel(run);
        if (run.cancelled) {
            out.push_back(finding(core::Severity::Warning, "ALLREDUCE_CANCELLED",
                label + " was stopped on request after " + std::to_string(run.tests.rows.size()) + " sizes; the sizes measured are kept", ""));
            continue;
        }
        const std::vector<Cause> causes = causesOf(plan, report, run);
        if (!run.ok()) {
            std::string where = causes.empty() ? std::string() : causes.front().where;
            for (const NcclError& e : run.log.errors)
                if (where.empty())
                    where = e.host + (e.hca.empty() ? "" : "/" + e.hca);
            std::string msg = label + " failed: " + failureText(run);
            if (!causes.empty())
                msg += ". Most likely cause: " + causes.front().text;
            out.push_back(finding(core::Severity::Error, "ALLREDUCE_FAILED", msg, where));
            continue;
        }
        const Verdict& v = run.model.verdict;
        if (v.status != "low" && v.status != "below")
            continue;
        std::string msg = label + ": busbw at " + std::to_string(v.bytes) + " B is " + core::formatFixed(v.percentOfBound, 0)
            + " % of what the plan's NICs allow";
        if (run.model.boundBusbwGBs)
            msg += " (bound " + core::formatFixed(*run.model.boundBusbwGBs, 1) + " GB/s busbw, " + core::formatFixed(run.model.boundAlgbwGBs.value_or(0), 1)
                + " GB/s algbw)";
        if (causes.empty()) {
            msg += "; nothing in NCCL's log, the counters or the ports explains it: check the algorithm NCCL chose (NCCL_ALGO), PCIe "
                   "and NVLink, and rerun per rail (--per-rail)";
        } else {
            msg += "; most likely cause: " + causes.front().text;
            for (std::size_t i = 1; i < causes.size() && i < 4; ++i)
                msg += "; also: " + causes[i].text;
        }
        out.push_back(finding(v.status == "low" ? core::Severity::Error : core::Severity::Warning, run.rail ? "ALLREDUCE_RAIL_LOW" : "ALLREDUCE_LOW",
            msg, causes.empty() ? (run.rail ? runLabel(run) : std::string()) : causes.front().where));
    }
    // The readers' own findings, once each.
    std::set<std::pair<std::string, std::string>> seen;
    for (const CollectiveRunOutcome& run : report.runs)
        for (const auto* list : { &run.tests.findings, &run.log.findings, &run.model.findings })
            for (const core::Finding& f : *list)
                if (seen.insert({ f.code, f.where }).second)
                    out.push_back(f);
    std::stable_sort(out.begin(), out.end(), [](const core::Finding& a, const core::Finding& b) { return a.severity < b.severity; });
    report.findings.insert(report.findings.end(), out.begin(), out.end());
}

} // namespace railyard::live
