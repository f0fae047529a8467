// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/bandwidth_model.h"

#include "core/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace railyard::live {

namespace {

    std::string lower(std::string_view text)
    {
        std::string out;
        for (const char c : text)
            if (c != '_' && c != '-' && c != ' ')
                out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return out;
    }


    std::string sizeText(std::uint64_t bytes)
    {
        static const char* units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
        double v = static_cast<double>(bytes);
        int u = 0;
        while (v >= 1024 && u < 4) {
            v /= 1024;
            ++u;
        }
        return (v == std::floor(v) ? std::to_string(static_cast<long long>(v)) : core::formatFixed(v, 1)) + " " + units[u];
    }

    constexpr std::uint64_t kBandwidthBoundBytes = 64ull << 20;

    /// The row the verdict judges: the best (by `value`) at or above 64 MiB, else the largest.
    template <class Row, class Value>
    std::optional<std::size_t> judgedRow(const std::vector<Row>& rows, Value value)
    {
        std::optional<std::size_t> best;
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (rows[i].bytes >= kBandwidthBoundBytes && (!best || value(rows[i]) > value(rows[*best])))
                best = i;
        if (!best && !rows.empty()) {
            best = 0;
            for (std::size_t i = 1; i < rows.size(); ++i)
                if (rows[i].bytes >= rows[*best].bytes)
                    best = i;
        }
        return best;
    }

    std::string statusFor(double percent, const VerdictThresholds& t)
    {
        if (percent >= t.meetsPercent)
            return "meets";
        if (percent >= t.belowPercent)
            return "below";
        return "low";
    }

    /// Plan nodes by name, with their SU.
    std::map<std::string, int> planNodes(const core::Plan& plan)
    {
        std::map<std::string, int> nodes;
        for (const core::Device& d : plan.devices)
            if (d.kind == core::DeviceKind::Node)
                nodes.emplace(d.name, d.su);
        return nodes;
    }

    /// "node007.cluster.local" -> "node007".
    std::string shortHost(const std::string& host)
    {
        return host.substr(0, host.find('.'));
    }

} // namespace

Collective collectiveOfTool(std::string_view tool)
{
    std::string t = lower(tool);
    if (t.size() > 4 && t.compare(t.size() - 4, 4, "perf") == 0)
        t.resize(t.size() - 4);
    if (t == "allreduce")
        return Collective::AllReduce;
    if (t == "allgather")
        return Collective::AllGather;
    if (t == "reducescatter")
        return Collective::ReduceScatter;
    if (t == "broadcast")
        return Collective::Broadcast;
    if (t == "reduce")
        return Collective::Reduce;
    if (t == "alltoall")
        return Collective::AllToAll;
    return Collective::Unknown;
}

std::string_view toString(Collective collective)
{
    switch (collective) {
    case Collective::AllReduce: return "all_reduce";
    case Collective::AllGather: return "all_gather";
    case Collective::ReduceScatter: return "reduce_scatter";
    case Collective::Broadcast: return "broadcast";
    case Collective::Reduce: return "reduce";
    case Collective::AllToAll: return "alltoall";
    case Collective::Unknown: break;
    }
    return "unknown";
}

NcclAlgorithm ncclAlgorithmOf(std::string_view name)
{
    const std::string n = lower(name);
    if (n == "ring")
        return NcclAlgorithm::Ring;
    if (n == "tree")
        return NcclAlgorithm::Tree;
    if (n == "nvls")
        return NcclAlgorithm::Nvls;
    if (n == "nvlstree")
        return NcclAlgorithm::NvlsTree;
    if (n == "collnet" || n == "collnetdirect" || n == "collnetchain" || n == "sharp")
        return NcclAlgorithm::CollNet;
    return NcclAlgorithm::Unknown;
}

std::string_view toString(NcclAlgorithm algorithm)
{
    switch (algorithm) {
    case NcclAlgorithm::Ring: return "ring";
    case NcclAlgorithm::Tree: return "tree";
    case NcclAlgorithm::Nvls: return "nvls";
    case NcclAlgorithm::NvlsTree: return "nvlstree";
    case NcclAlgorithm::CollNet: return "collnet";
    case NcclAlgorithm::Unknown: break;
    }
    return "unknown";
}

double busbwFactor(Collective collective, int ranks)
{
    if (ranks <= 0)
        return 0;
    const double n = ranks;
    switch (collective) {
    case Collective::AllReduce: return 2 * (n - 1) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
    case Collective::AllToAll: return (n - 1) / n;
    case Collective::Broadcast:
    case Collective::Reduce: return 1;
    case Collective::Unknown: break;
    }
    return 0;
}

double networkFactor(Collective collective, NcclAlgorithm algorithm, int nodes, int ranks)
{
    if (nodes <= 1 || ranks < nodes)
        return 0;
    const double N = nodes;
    const double n = ranks;
    const bool ring = algorithm == NcclAlgorithm::Ring;
    switch (collective) {
    case Collective::AllReduce:
        if (ring)
            return 2 * (n - 1) / n;
        if (algorithm == NcclAlgorithm::CollNet)
            return (N - 1) / N;
        return 2 * (N - 1) / N;
    case Collective::AllGather:
    case Collective::ReduceScatter: return ring ? (n - 1) / n : (N - 1) / N;
    case Collective::Broadcast:
    case Collective::Reduce: return 1;
    case Collective::AllToAll: return (n / N) * (N - 1) / N;
    case Collective::Unknown: break;
    }
    return 0;
}

double headerEfficiency(core::Fabric fabric, int mtu)
{
    if (mtu <= 0)
        return 1;
    // InfiniBand: LRH 8 + BTH 12 + ICRC 4 + VCRC 2. RoCEv2 on the wire: preamble and SFD 8,
    // Ethernet header 14, FCS 4, inter-frame gap 12, IPv4 20, UDP 8, BTH 12, ICRC 4.
    const double overhead = fabric == core::Fabric::InfiniBand ? 26 : 82;
    return mtu / (mtu + overhead);
}

int rdmaMtuOf(const core::Plan& plan)
{
    if (plan.spec.fabric == core::Fabric::InfiniBand)
        return 4096;
    const int mtu = plan.spec.lossless.mtu;
    for (const int path : { 256, 512, 1024, 2048, 4096 })
        if (mtu == path)
            return mtu;
    // Ethernet MTU: the RDMA payload plus IPv4 20, UDP 8, BTH 12 and ICRC 4 must fit.
    int path = 4096;
    while (path > 256 && path + 44 > mtu)
        path /= 2;
    return path;
}

NetworkCapacity nodeCapacity(const core::Plan& plan, bool spansSus)
{
    NetworkCapacity c;
    c.rails = plan.summary.rails;
    c.portDataGbps = plan.summary.port.dataGbps;
    c.mtu = rdmaMtuOf(plan);
    c.efficiency = headerEfficiency(plan.spec.fabric, c.mtu);
    c.oversubscription = spansSus ? std::max(1.0, plan.summary.leafOversubscription) : 1.0;
    c.nodeGBs = c.rails * c.portDataGbps * c.efficiency / 8 / c.oversubscription;
    c.basis = std::to_string(c.rails) + " rails x " + core::formatFixed(c.portDataGbps, 0) + " Gb/s, " + core::formatFixed(c.efficiency * 100, 1)
        + " % after " + (plan.spec.fabric == core::Fabric::InfiniBand ? "InfiniBand" : "RoCEv2") + " headers at MTU "
        + std::to_string(c.mtu);
    if (c.oversubscription > 1)
        c.basis += ", / " + core::formatFixed(c.oversubscription, 2) + " leaf oversubscription (the run spans SUs)";
    return c;
}

CollectiveModel modelCollective(const core::Plan& plan, const CollectiveRun& run,
    const std::vector<MeasuredCollectiveRow>& rows, const VerdictThresholds& thresholds)
{
    CollectiveModel m;
    m.collective = run.collective;
    m.algorithm = run.algorithm;
    m.ranks = run.ranks;

    // Nodes: the distinct hosts when printed, else what the run said, else ranks / GPUs per node.
    const auto nodes = planNodes(plan);
    std::set<std::string> hosts;
    std::set<int> sus;
    for (const std::string& host : run.hosts) {
        const std::string name = shortHost(host);
        if (!hosts.insert(name).second)
            continue;
        const auto it = nodes.find(name);
        if (it == nodes.end())
            m.unmatchedHosts.push_back(host);
        else
            sus.insert(it->second);
    }
    const int gpusPerNode = plan.summary.nodes > 0 ? static_cast<int>(plan.summary.gpus / plan.summary.nodes) : 0;
    m.nodes = !hosts.empty() ? static_cast<int>(hosts.size()) : run.nodes;
    if (m.nodes <= 0 && gpusPerNode > 0 && m.ranks > 0)
        m.nodes = (m.ranks + gpusPerNode - 1) / gpusPerNode;
    m.ranksPerNode = m.nodes > 0 ? m.ranks / m.nodes : 0;
    // Spanning SUs: known from the hosts when they are the plan's nodes; otherwise assume the
    // worst only when the run is larger than one SU.
    m.spansSus = m.unmatchedHosts.empty() && !sus.empty() ? sus.size() > 1 : m.nodes > plan.summary.suSize;

    m.capacity = nodeCapacity(plan, m.spansSus);
    m.networkFactor = networkFactor(m.collective, m.algorithm, m.nodes, m.ranks);
    m.busbwFactor = busbwFactor(m.collective, m.ranks);
    if (m.networkFactor > 0 && m.capacity.nodeGBs > 0) {
        m.boundAlgbwGBs = m.capacity.nodeGBs / m.networkFactor;
        m.boundBusbwGBs = *m.boundAlgbwGBs * m.busbwFactor;
    }
    for (const MeasuredCollectiveRow& r : rows) {
        ModelledCollectiveRow out { r.bytes, r.algbwGBs, r.busbwGBs, r.algbwGBs * m.networkFactor, 0 };
        if (m.boundAlgbwGBs)
            out.percentOfBound = r.algbwGBs / *m.boundAlgbwGBs * 100;
        m.rows.push_back(out);
    }

    if (!m.unmatchedHosts.empty()) {
        std::string list;
        for (std::size_t i = 0; i < m.unmatchedHosts.size() && i < 5; ++i)
            list += (i ? ", " : "") + m.unmatchedHosts[i];
        if (m.unmatchedHosts.size() > 5)
            list += ", ...";
        m.findings.push_back({ core::Severity::Info, "HOSTS_NOT_IN_PLAN",
            std::to_string(m.unmatchedHosts.size()) + " host(s) of the run are no node of the plan (" + list
                + "): the model assumes they are nodes of its node type; whether the run spans SUs is judged by its size",
            "hosts" });
    }

    Verdict& v = m.verdict;
    if (m.collective == Collective::Unknown) {
        v.status = "unknown";
        v.message = "the collective is not known, so the network share cannot be modelled: give --kind or the test's name";
        return m;
    }
    if (m.nodes <= 1) {
        v.status = "no-network";
        v.message = "a single-node run: the data moves over NVLink/PCIe, no NIC carries it; run across two or more nodes to "
                    "test the network";
        return m;
    }
    const auto judged = judgedRow(m.rows, [](const ModelledCollectiveRow& r) { return r.algbwGBs; });
    if (!judged || !m.boundAlgbwGBs) {
        v.status = "unknown";
        v.message = m.rows.empty() ? "no measured size to judge" : "the plan gives no port rate to bound the run";
        return m;
    }
    const ModelledCollectiveRow& r = m.rows[*judged];
    v.bytes = r.bytes;
    v.percentOfBound = r.percentOfBound;
    v.status = statusFor(r.percentOfBound, thresholds);
    v.message = std::string(toString(m.collective)) + " at " + sizeText(r.bytes) + ": algbw " + core::formatFixed(r.algbwGBs, 1)
        + " GB/s, busbw " + core::formatFixed(r.busbwGBs, 1) + " GB/s; the network carried " + core::formatFixed(r.netGBs, 1)
        + " GB/s per node, " + core::formatFixed(r.percentOfBound, 0) + " % of the " + core::formatFixed(m.capacity.nodeGBs, 1)
        + " GB/s the plan's NICs can carry (bound: algbw " + core::formatFixed(*m.boundAlgbwGBs, 1) + ", busbw "
        + core::formatFixed(*m.boundBusbwGBs, 1) + " GB/s)";
    if (v.status != "meets") {
        std::string causes;
        if (m.nodes <= 2)
            causes = "with 2 nodes each node's part inside the node (NVLink) can be the limit: compare with a single-node "
                     "run's algbw; ";
        causes += "check from NCCL's NCCL_DEBUG=INFO log that every rail NIC is used with GPUDirect RDMA (results import "
                  "--kind nccl-log), then the rails' counters during the run (degraded links, XmitWait, PFC pauses, ECN)";
        if (r.bytes < kBandwidthBoundBytes)
            causes = "the run stops at " + sizeText(r.bytes) + ", below the bandwidth-bound sizes: run up to 1 GiB or more (-e 8G); "
                + causes;
        v.message += "; likely causes: " + causes;
        m.findings.push_back({ v.status == "low" ? core::Severity::Error : core::Severity::Warning, "BANDWIDTH_BELOW_BOUND",
            v.message, std::string(toString(m.collective)) });
    }
    return m;
}

PerftestModel modelPerftest(const core::Plan& plan, const std::vector<std::string>& railMap, const std::string& device,
    bool bidirectional, const std::vector<MeasuredPerftestRow>& rows, const VerdictThresholds& thresholds)
{
    PerftestModel m;
    m.capacity = nodeCapacity(plan, false);
    m.capacity.rails = 1;
    m.capacity.nodeGBs = m.capacity.portDataGbps * m.capacity.efficiency / 8;
    m.capacity.basis = "1 rail NIC at " + core::formatFixed(m.capacity.portDataGbps, 0) + " Gb/s, " + core::formatFixed(m.capacity.efficiency * 100, 1)
        + " % after headers at MTU " + std::to_string(m.capacity.mtu);
    m.bidirectional = bidirectional;
    m.boundGbps = m.capacity.portDataGbps * m.capacity.efficiency * (bidirectional ? 2 : 1);
    const auto it = std::find(railMap.begin(), railMap.end(), device);
    if (it != railMap.end())
        m.rail = static_cast<int>(it - railMap.begin());
    for (const MeasuredPerftestRow& r : rows)
        m.percentOfBound.push_back(m.boundGbps > 0 ? r.bwAverageGbps / m.boundGbps * 100 : 0);

    Verdict& v = m.verdict;
    const auto judged = judgedRow(rows, [](const MeasuredPerftestRow& r) { return r.bwAverageGbps; });
    if (!judged || m.boundGbps <= 0) {
        v.status = "unknown";
        v.message = rows.empty() ? "no measured size to judge" : "the plan gives no port rate to bound the run";
        return m;
    }
    // perftest's large messages are bandwidth-bound from a few hundred KiB on: judge the best row
    // of the largest sizes (the -a sweep ends at 8 MiB).
    std::size_t best = *judged;
    if (rows[best].bytes < kBandwidthBoundBytes)
        for (std::size_t i = 0; i < rows.size(); ++i)
            if (rows[i].bytes >= (256u << 10) && rows[i].bwAverageGbps > rows[best].bwAverageGbps)
                best = i;
    const MeasuredPerftestRow& r = rows[best];
    v.bytes = r.bytes;
    v.percentOfBound = m.percentOfBound[best];
    v.status = statusFor(v.percentOfBound, thresholds);
    const std::string who = device.empty() ? "the NIC" : device + (m.rail >= 0 ? " (rail " + std::to_string(m.rail) + ")" : "");
    v.message = who + " at " + sizeText(r.bytes) + ": " + core::formatFixed(r.bwAverageGbps, 1) + " Gb/s average, " + core::formatFixed(v.percentOfBound, 0)
        + " % of " + core::formatFixed(m.boundGbps, 1) + " Gb/s (" + core::formatFixed(m.capacity.portDataGbps, 0) + " Gb/s" + (bidirectional ? " x 2 directions" : "")
        + " after headers)";
    if (v.status != "meets") {
        v.message += "; likely causes: the link trained below the planned rate or width (live check), the GPU and the NIC are "
                     "far apart in the PCI tree or GPUDirect is off (the run then stages through host memory), too few QPs "
                     "(-q 4 or more), or congestion on the path (counters of the leaf and spine ports)";
        m.findings.push_back({ v.status == "low" ? core::Severity::Error : core::Severity::Warning, "BANDWIDTH_BELOW_BOUND",
            v.message, device.empty() ? "perftest" : device });
    }
    return m;
}

nlohmann::json toJson(const Verdict& verdict)
{
    nlohmann::json v { { "status", verdict.status }, { "message", verdict.message } };
    if (verdict.bytes) {
        v["bytes"] = verdict.bytes;
        v["percent_of_bound"] = std::round(verdict.percentOfBound * 10) / 10;
    }
    return v;
}

namespace {
    nlohmann::json capacityJson(const NetworkCapacity& c)
    {
        return { { "rails", c.rails }, { "port_data_gbps", c.portDataGbps }, { "mtu", c.mtu },
            { "header_efficiency", std::round(c.efficiency * 10000) / 10000 }, { "oversubscription", c.oversubscription },
            { "gbs", std::round(c.nodeGBs * 100) / 100 }, { "basis", c.basis } };
    }
    double round2(double v) { return std::round(v * 100) / 100; }
} // namespace

nlohmann::json toJson(const CollectiveModel& m)
{
    nlohmann::json e { { "collective", std::string(toString(m.collective)) }, { "algorithm", std::string(toString(m.algorithm)) },
        { "ranks", m.ranks }, { "nodes", m.nodes }, { "ranks_per_node", m.ranksPerNode }, { "spans_sus", m.spansSus },
        { "node_capacity", capacityJson(m.capacity) }, { "network_factor", std::round(m.networkFactor * 1000) / 1000 },
        { "busbw_factor", std::round(m.busbwFactor * 1000) / 1000 } };
    e["bound_algbw_gbs"] = m.boundAlgbwGBs ? nlohmann::json(round2(*m.boundAlgbwGBs)) : nlohmann::json();
    e["bound_busbw_gbs"] = m.boundBusbwGBs ? nlohmann::json(round2(*m.boundBusbwGBs)) : nlohmann::json();
    nlohmann::json rows = nlohmann::json::array();
    for (const ModelledCollectiveRow& r : m.rows) {
        nlohmann::json row { { "bytes", r.bytes }, { "net_bw_gbs", round2(r.netGBs) } };
        row["percent_of_bound"] = m.boundAlgbwGBs ? nlohmann::json(std::round(r.percentOfBound * 10) / 10) : nlohmann::json();
        rows.push_back(std::move(row));
    }
    e["rows"] = std::move(rows);
    if (!m.unmatchedHosts.empty())
        e["hosts_not_in_plan"] = m.unmatchedHosts;
    e["verdict"] = toJson(m.verdict);
    return e;
}

nlohmann::json toJson(const PerftestModel& m)
{
    nlohmann::json e { { "nic_capacity", capacityJson(m.capacity) }, { "bidirectional", m.bidirectional },
        { "bound_gbps", round2(m.boundGbps) } };
    e["rail"] = m.rail >= 0 ? nlohmann::json(m.rail) : nlohmann::json();
    nlohmann::json pct = nlohmann::json::array();
    for (const double p : m.percentOfBound)
        pct.push_back(std::round(p * 10) / 10);
    e["percent_of_bound"] = std::move(pct);
    e["verdict"] = toJson(m.verdict);
    return e;
}

} // namespace railyard::live
