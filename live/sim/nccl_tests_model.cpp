// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/nccl_tests_model.h"

#include "live/client/bandwidth_model.h"
#include "live/sim/perftest_model.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

namespace railyard::live {

namespace fs = std::filesystem;

namespace {

    constexpr double kNoGdrFactor = 0.60;
    constexpr double kNcclProtocolEfficiency = 0.93;
    constexpr double kNvlinkBusbwGBs = 370;
    constexpr double kSocketGBs = 1.2; // NET/Socket over the hosts' TCP network

    std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 1469598103934665603ULL)
    {
        for (const char c : text) {
            hash ^= static_cast<unsigned char>(c);
            hash *= 1099511628211ULL;
        }
        return hash;
    }

    /// [0, 1) from a text.
    double unitHash(std::string_view text) { return static_cast<double>(fnv1a(text) >> 11) / 9007199254740992.0; }

    Collective clientCollective(NcclEmuCollective c)
    {
        switch (c) {
        case NcclEmuCollective::AllReduce:
            return Collective::AllReduce;
        case NcclEmuCollective::AllGather:
            return Collective::AllGather;
        case NcclEmuCollective::ReduceScatter:
            return Collective::ReduceScatter;
        }
        return Collective::Unknown;
    }

} // namespace

NcclEmuFabric ncclEmuFabricOf(const core::Plan& plan, const std::vector<Fault>& faults, const std::vector<std::string>& railMap)
{
    NcclEmuFabric fabric;
    fabric.roce = plan.spec.fabric == core::Fabric::RoCEv2;
    fabric.railMap = railMap;
    for (const core::Link& l : plan.links) {
        if (l.tier != core::LinkTier::NodeLeaf || !l.installed || l.a.plane > 0)
            continue;
        const core::Device& node = plan.devices[l.a.device];
        if (node.kind != core::DeviceKind::Node)
            continue;
        NcclEmuFabric::Node& n = fabric.nodes[node.name];
        n.su = node.su;
        if (n.leaves.size() <= l.a.port)
            n.leaves.resize(l.a.port + 1u);
        n.leaves[l.a.port] = plan.devices[l.b.device].name;
    }
    for (const Fault& f : faults) {
        if (f.kind != FaultKind::Congested)
            continue;
        const double total = static_cast<double>(uplinksOf(plan, f.switchDevice).size());
        if (total > 0)
            fabric.leafCapacity[f.switchName] = (total - f.uplinks + f.uplinks * f.factor) / total;
    }
    return fabric;
}

core::Status writeNcclEmuFabric(const fs::path& path, const NcclEmuFabric& fabric)
{
    nlohmann::json nodes = nlohmann::json::object();
    for (const auto& [name, n] : fabric.nodes)
        nodes[name] = { { "su", n.su }, { "leaves", n.leaves } };
    nlohmann::json doc = { { "fabric", fabric.roce ? "rocev2" : "infiniband" }, { "rail_map", fabric.railMap }, { "nodes", nodes },
        { "congested_leaves", fabric.leafCapacity } };
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path.string() + ".tmp", std::ios::binary | std::ios::trunc);
    out << doc.dump(1) << '\n';
    out.close();
    if (!out)
        return core::Error { "TOOLS_DIR", "cannot write the nccl-tests stand-in's fabric file", path.string(),
            "check that the emulator's folder is writable" };
    fs::rename(path.string() + ".tmp", path, ec);
    if (ec)
        return core::Error { "TOOLS_DIR", "cannot write the nccl-tests stand-in's fabric file: " + ec.message(), path.string(),
            "check that the emulator's folder is writable" };
    return {};
}

core::Result<NcclEmuFabric> readNcclEmuFabric(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return core::Error { "SIM_FABRIC", "cannot read the emulated fabric's description", path.string(),
            "run the stand-in on a tree railyard-sim wrote (it writes tools/nccl-tests-fabric.json), or set RAILYARD_SIM_ROOT" };
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
    if (!doc.is_object())
        return core::Error { "SIM_FABRIC", "the emulated fabric's description is not JSON", path.string(), "rerun railyard-sim" };
    NcclEmuFabric fabric;
    fabric.roce = doc.value("fabric", "") == "rocev2";
    if (doc.contains("rail_map") && doc["rail_map"].is_array())
        for (const auto& d : doc["rail_map"])
            if (d.is_string())
                fabric.railMap.push_back(d.get<std::string>());
    if (doc.contains("nodes") && doc["nodes"].is_object())
        for (const auto& [name, n] : doc["nodes"].items()) {
            NcclEmuFabric::Node node;
            node.su = n.value("su", 0);
            if (n.contains("leaves") && n["leaves"].is_array())
                for (const auto& l : n["leaves"])
                    node.leaves.push_back(l.is_string() ? l.get<std::string>() : std::string());
            fabric.nodes[name] = std::move(node);
        }
    if (doc.contains("congested_leaves") && doc["congested_leaves"].is_object())
        for (const auto& [name, c] : doc["congested_leaves"].items())
            if (c.is_number())
                fabric.leafCapacity[name] = c.get<double>();
    return fabric;
}

std::vector<std::pair<std::string, int>> ncclHcaSelection(std::string_view filter, const std::vector<std::string>& devices)
{
    bool exclude = false, exact = false;
    if (!filter.empty() && filter.front() == '^') {
        exclude = true;
        filter.remove_prefix(1);
    }
    if (!filter.empty() && filter.front() == '=') {
        exact = true;
        filter.remove_prefix(1);
    }
    struct Entry {
        std::string name;
        int port = 0; // 0: any
    };
    std::vector<Entry> entries;
    std::string_view rest = filter;
    while (!rest.empty()) {
        const auto comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        if (item.empty())
            continue;
        Entry e;
        const auto colon = item.find(':');
        e.name = std::string(item.substr(0, colon));
        if (colon != std::string_view::npos)
            e.port = std::atoi(std::string(item.substr(colon + 1)).c_str());
        entries.push_back(std::move(e));
    }
    auto matches = [&](const Entry& e, const std::string& device) {
        return exact ? device == e.name : device.rfind(e.name, 0) == 0;
    };
    std::vector<std::pair<std::string, int>> out;
    if (entries.empty()) {
        for (const std::string& d : devices)
            out.emplace_back(d, 1);
        return out;
    }
    if (exclude) {
        for (const std::string& d : devices)
            if (std::none_of(entries.begin(), entries.end(), [&](const Entry& e) { return matches(e, d); }))
                out.emplace_back(d, 1);
        return out;
    }
    std::set<std::string> taken;
    if (exact) {
        for (const Entry& e : entries)
            if (std::find(devices.begin(), devices.end(), e.name) != devices.end() && taken.insert(e.name).second)
                out.emplace_back(e.name, e.port > 0 ? e.port : 1);
        return out;
    }
    for (const std::string& d : devices)
        for (const Entry& e : entries)
            if (matches(e, d) && taken.insert(d).second)
                out.emplace_back(d, e.port > 0 ? e.port : 1);
    return out;
}

NcclEmuRank readNcclEmuRank(const fs::path& sysRoot, const std::string& node, int rank, int localRank, std::string_view hcaFilter,
    const std::vector<std::string>& railMap)
{
    NcclEmuRank r;
    r.rank = rank;
    r.localRank = localRank;
    r.node = node;
    const EmulatedGpus gpus = readEmulatedGpus(sysRoot);
    r.peermem = gpus.peermem;
    r.dmabuf = gpus.dmabuf;
    if (localRank >= 0 && localRank < static_cast<int>(gpus.gpus.size())) {
        const auto& g = gpus.gpus[static_cast<std::size_t>(localRank)];
        r.busId = g.pciAddress.substr(0, std::min<std::size_t>(g.pciAddress.size(), 10)); // "0000:14:00" as nccl-tests prints it
        r.gpu = g.name.rfind("NVIDIA", 0) == 0 ? g.name : "NVIDIA " + g.name;
    }
    for (const auto& [device, port] : ncclHcaSelection(hcaFilter, emulatedRdmaDevices(sysRoot))) {
        const std::optional<EmulatedRdmaPort> p = readEmulatedRdmaPort(sysRoot, device, port);
        if (!p)
            continue;
        NcclEmuHca h;
        h.device = device;
        h.port = port;
        h.active = p->state == 4;
        h.dataGbps = p->dataGbps;
        h.ethernet = p->ethernet;
        h.mtu = p->mtu;
        const auto it = std::find(railMap.begin(), railMap.end(), device);
        h.rail = it == railMap.end() ? -1 : static_cast<int>(it - railMap.begin());
        r.hcas.push_back(std::move(h));
    }
    return r;
}

std::string toJsonText(const NcclEmuRank& r)
{
    nlohmann::json hcas = nlohmann::json::array();
    for (const NcclEmuHca& h : r.hcas)
        hcas.push_back({ { "device", h.device }, { "port", h.port }, { "active", h.active }, { "data_gbps", h.dataGbps },
            { "ethernet", h.ethernet }, { "mtu", h.mtu }, { "rail", h.rail } });
    return nlohmann::json { { "rank", r.rank }, { "local_rank", r.localRank }, { "pid", r.pid }, { "node", r.node }, { "bus_id", r.busId },
        { "gpu", r.gpu }, { "peermem", r.peermem }, { "dmabuf", r.dmabuf }, { "hcas", hcas } }
        .dump();
}

std::optional<NcclEmuRank> ncclEmuRankFromJson(std::string_view text)
{
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return std::nullopt;
    try {
        NcclEmuRank r;
        r.rank = j.at("rank").get<int>();
        r.localRank = j.at("local_rank").get<int>();
        r.pid = j.value("pid", 0);
        r.node = j.at("node").get<std::string>();
        r.busId = j.value("bus_id", "");
        r.gpu = j.value("gpu", "");
        r.peermem = j.value("peermem", false);
        r.dmabuf = j.value("dmabuf", false);
        for (const auto& h : j.at("hcas")) {
            NcclEmuHca x;
            x.device = h.at("device").get<std::string>();
            x.port = h.value("port", 1);
            x.active = h.value("active", false);
            x.dataGbps = h.value("data_gbps", 0.0);
            x.ethernet = h.value("ethernet", false);
            x.mtu = h.value("mtu", 4096);
            x.rail = h.value("rail", -1);
            r.hcas.push_back(std::move(x));
        }
        return r;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

std::optional<NcclEmuCollective> ncclEmuCollectiveOf(std::string_view tool)
{
    if (tool == "all_reduce_perf")
        return NcclEmuCollective::AllReduce;
    if (tool == "all_gather_perf")
        return NcclEmuCollective::AllGather;
    if (tool == "reduce_scatter_perf")
        return NcclEmuCollective::ReduceScatter;
    return std::nullopt;
}

std::string_view toolName(NcclEmuCollective collective)
{
    switch (collective) {
    case NcclEmuCollective::AllReduce:
        return "all_reduce_perf";
    case NcclEmuCollective::AllGather:
        return "all_gather_perf";
    case NcclEmuCollective::ReduceScatter:
        return "reduce_scatter_perf";
    }
    return "all_reduce_perf";
}

NcclEmuJobModel modelNcclEmuJob(NcclEmuCollective collective, const std::vector<NcclEmuRank>& ranks, const NcclEmuFabric& fabric,
    std::string_view algorithm)
{
    NcclEmuJobModel m;
    m.ranks = static_cast<int>(ranks.size());
    std::map<std::string, const NcclEmuRank*> firstOfNode; // one record per node: the NICs are the node's
    std::set<int> sus;
    for (const NcclEmuRank& r : ranks) {
        firstOfNode.emplace(r.node, &r);
        if (const auto it = fabric.nodes.find(r.node); it != fabric.nodes.end())
            sus.insert(it->second.su);
    }
    m.nodes = static_cast<int>(firstOfNode.size());
    m.ranksPerNode = m.nodes > 0 ? m.ranks / m.nodes : 0;
    m.spansSus = sus.size() > 1;
    m.algorithm = algorithm.empty() ? (m.nodes > 1 ? "tree" : "ring") : std::string(algorithm);
    const NcclAlgorithm algo = ncclAlgorithmOf(m.algorithm);
    m.networkFactor = networkFactor(clientCollective(collective), algo == NcclAlgorithm::Unknown ? NcclAlgorithm::Tree : algo, m.nodes, m.ranks);
    m.busbwFactor = busbwFactor(clientCollective(collective), m.ranks);

    m.nicsPerNode = 0;
    double slowest = 0;
    bool first = true;
    for (const auto& [node, r] : firstOfNode) {
        const bool gdr = r->peermem || r->dmabuf;
        if (!gdr)
            m.nodesWithoutGdr.push_back(node);
        m.nicsPerNode = first ? static_cast<int>(r->hcas.size()) : std::min(m.nicsPerNode, static_cast<int>(r->hcas.size()));
        first = false;
        const auto fabricNode = fabric.nodes.find(node);
        for (const NcclEmuHca& h : r->hcas) {
            if (!h.active) {
                if (!m.downNic)
                    m.downNic = std::make_pair(node, h.device);
                continue;
            }
            double gbs = h.dataGbps * perftestPacketEfficiency(h.ethernet, h.mtu) * kPerftestNicEfficiency / 8;
            if (!gdr)
                gbs *= kNoGdrFactor;
            if (m.spansSus && fabricNode != fabric.nodes.end() && h.rail >= 0
                && h.rail < static_cast<int>(fabricNode->second.leaves.size()))
                if (const auto c = fabric.leafCapacity.find(fabricNode->second.leaves[static_cast<std::size_t>(h.rail)]);
                    c != fabric.leafCapacity.end())
                    gbs *= c->second;
            if (slowest == 0 || gbs < slowest) {
                slowest = gbs;
                m.slowestNic = node + "/" + h.device;
            }
        }
    }
    m.perNicGBs = slowest;
    m.nodeGBs = slowest * m.nicsPerNode;
    if (m.nodes <= 1 || m.networkFactor <= 0)
        m.peakAlgbwGBs = m.busbwFactor > 0 ? kNvlinkBusbwGBs / m.busbwFactor : kNvlinkBusbwGBs;
    else if (m.nicsPerNode == 0)
        m.peakAlgbwGBs = kSocketGBs / m.networkFactor;
    else
        m.peakAlgbwGBs = kNcclProtocolEfficiency * m.nodeGBs / m.networkFactor;
    return m;
}

NcclEmuRow ncclEmuRow(const NcclEmuJobModel& job, NcclEmuCollective collective, std::uint64_t bytes, int typeSize)
{
    NcclEmuRow row;
    const std::uint64_t unit = static_cast<std::uint64_t>(std::max(1, typeSize))
        * (collective == NcclEmuCollective::AllReduce ? 1u : static_cast<std::uint64_t>(std::max(1, job.ranks)));
    row.bytes = bytes / unit * unit;
    row.count = row.bytes / static_cast<std::uint64_t>(std::max(1, typeSize));
    if (collective != NcclEmuCollective::AllReduce)
        row.count /= static_cast<std::uint64_t>(std::max(1, job.ranks));
    const double t0 = job.nodes > 1 ? 20.0 + job.ranks : 8.0 + job.ranks;
    const double peak = std::max(1e-3, job.peakAlgbwGBs);
    auto one = [&](std::string_view column, double& time, double& algbw, double& busbw) {
        const double jitter = 1 + 0.01 * unitHash(std::to_string(row.bytes) + "/" + std::string(toolName(collective)) + "/" + std::string(column));
        time = (t0 + static_cast<double>(row.bytes) / (peak * 1e3)) * jitter * (column == "in" ? 0.997 : 1.0);
        algbw = static_cast<double>(row.bytes) / (time * 1e3);
        busbw = algbw * job.busbwFactor;
    };
    one("out", row.timeUs, row.algbwGBs, row.busbwGBs);
    one("in", row.inPlaceTimeUs, row.inPlaceAlgbwGBs, row.inPlaceBusbwGBs);
    return row;
}

std::vector<std::uint64_t> ncclEmuSizes(std::uint64_t minBytes, std::uint64_t maxBytes, std::uint64_t stepFactor, std::uint64_t stepBytes)
{
    std::vector<std::uint64_t> sizes;
    if (minBytes == 0)
        minBytes = 1;
    for (std::uint64_t s = minBytes; s <= maxBytes && sizes.size() < 4096;) {
        sizes.push_back(s);
        const std::uint64_t next = stepFactor > 1 ? s * stepFactor : s + std::max<std::uint64_t>(1, stepBytes);
        if (next <= s)
            break;
        s = next;
    }
    return sizes;
}

} // namespace railyard::live
