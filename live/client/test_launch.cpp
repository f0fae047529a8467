// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/test_launch.h"

#include "live/client/live_check.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <set>
#include <system_error>

namespace railyard::live {

namespace {

    using launch_detail::commonProblem;
    using launch_detail::paramError;
    using launch_detail::Problems;
    using launch_detail::shown;

    /// perftest's own limits (perftest_parameters.h/.c): -x is checked against MAX_GID_IX (64), -s
    /// against UINT_MAX / 2, -n against MIN_ITER (5).
    constexpr int kPerftestMaxGid = 64;
    constexpr std::uint64_t kPerftestMaxSize = UINT_MAX / 2;
    constexpr int kPerftestMinIters = 5;
    /// RoCEv2 IPv4 GID index on mlx5 (GID 0/1: RoCEv1/v2 link-local, 2/3: RoCEv1/v2 IPv4).
    constexpr int kRoceV2Gid = core::kRoceV2Ipv4GidIndex;

    bool isBandwidthTool(std::string_view tool) { return tool.size() > 3 && tool.substr(tool.size() - 3) == "_bw"; }

    const core::Device* findNode(const core::Plan& plan, std::string_view name)
    {
        for (const core::Device& d : plan.devices)
            if (d.kind == core::DeviceKind::Node && d.name == name)
                return &d;
        return nullptr;
    }

    core::Error nodeNotInPlan(std::string_view parameter, std::string_view name)
    {
        return core::Error { "LAUNCH_NODE", std::string(parameter) + ": " + shown(name) + " is not a node of the plan",
            std::string(name), "use a node name as the plan gives it (node001, ...)" };
    }

    int gpusPerNodeOf(const core::Plan& plan, const core::Catalog& catalog)
    {
        if (plan.spec.gpusPerNode)
            return *plan.spec.gpusPerNode;
        if (const core::NodeType* type = catalog.findNodeType(plan.spec.nodeType))
            return type->gpus;
        return plan.summary.rails;
    }

    /// The rail map's device for every rail, or the errors that make it unusable.
    core::Result<std::vector<std::string>> railDevices(const core::Plan& plan, const core::Catalog& catalog)
    {
        std::vector<std::string> map = railMapOf(plan, catalog);
        if (map.empty())
            return core::Error { "LAUNCH_RAIL_MAP",
                "node type " + shown(plan.spec.nodeType) + " has no rail map: which RDMA device serves each rail is unknown",
                plan.spec.nodeType, "add a rail_map (device names, NIC k = rail k) to the node type in the catalog" };
        if (static_cast<int>(map.size()) < plan.summary.rails)
            return core::Error { "LAUNCH_RAIL_MAP",
                "node type " + shown(plan.spec.nodeType) + " maps " + std::to_string(map.size()) + " NICs, the plan has "
                    + std::to_string(plan.summary.rails) + " rails",
                plan.spec.nodeType, {} };
        for (std::size_t k = 0; k < map.size(); ++k) {
            if (!validateRdmaDevice("rail_map", map[k]))
                return core::Error { "LAUNCH_RAIL_MAP",
                    "node type " + shown(plan.spec.nodeType) + " names NIC " + std::to_string(k) + " " + shown(map[k])
                        + ", which is no RDMA device name (a PCI address?); the tools need the device name",
                    plan.spec.nodeType,
                    "find the device at that address on the nodes (live check, ibdev2netdev) and pass it to perftestPair, "
                    "or give the rail map as device names" };
        }
        return map;
    }

    std::optional<int> parseSmallInt(std::string_view text)
    {
        if (text.empty() || text.size() > 9)
            return std::nullopt;
        unsigned v = 0; // unsigned: from_chars then takes digits only, no sign
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (error != std::errc() || end != text.data() + text.size())
            return std::nullopt;
        return static_cast<int>(v);
    }

} // namespace

core::Result<std::vector<ToolInvocation>> perftestPair(const PerftestParams& params)
{
    if (!isPerftestTool(params.tool))
        return core::Error { "LAUNCH_TOOL",
            "tool: " + shown(params.tool) + " is not a perftest tool (ib_write_bw, ib_read_bw, ib_write_lat, ib_read_lat)",
            "tool", {} };
    const bool bw = isBandwidthTool(params.tool);

    Problems p;
    p.add(validateHostName("serverHost", params.serverHost));
    p.add(validateHostName("clientHost", params.clientHost));
    p.add(validateRdmaDevice("serverDevice", params.serverDevice));
    p.add(validateRdmaDevice("clientDevice", params.clientDevice));
    p.add(validateInRange("ibPort", params.ibPort, 1, 255));
    if (params.gidIndex)
        p.add(validateInRange("gidIndex", *params.gidIndex, 0, kPerftestMaxGid));
    if (params.serverGpu)
        p.add(validateInRange("serverGpu", *params.serverGpu, 0, 63));
    if (params.clientGpu)
        p.add(validateInRange("clientGpu", *params.clientGpu, 0, 63));
    if (params.dmabuf && !params.serverGpu && !params.clientGpu)
        p.add(core::Error { "LAUNCH_PARAM", "dmabuf: --use_cuda_dmabuf needs a GPU (serverGpu or clientGpu)", "dmabuf", {} });
    if (!params.allSizes && (params.size < 1 || params.size > kPerftestMaxSize))
        p.add(core::Error { "LAUNCH_PARAM",
            "size: must be from 1 to " + std::to_string(kPerftestMaxSize) + " bytes (perftest's limit), got " + std::to_string(params.size),
            "size", {} });
    if (params.iterations)
        p.add(validateInRange("iterations", *params.iterations, kPerftestMinIters, INT_MAX));
    if (params.durationS) {
        p.add(validateInRange("durationS", *params.durationS, 1, 86400));
        if (params.iterations)
            p.add(core::Error { "LAUNCH_PARAM", "durationS: give iterations or a duration, not both", "durationS", {} });
        if (params.allSizes)
            p.add(core::Error { "LAUNCH_PARAM", "durationS: perftest's duration mode does not run all sizes (-a)", "durationS", {} });
    }
    p.add(validateInRange("qps", params.qps, 1, 64));
    if (!bw && params.qps > 1)
        p.add(core::Error { "LAUNCH_PARAM", "qps: " + params.tool + " runs one QP (several QPs are for the bandwidth tools)", "qps", {} });
    if (!bw && params.bidirectional)
        p.add(core::Error { "LAUNCH_PARAM", "bidirectional: only the bandwidth tools run bidirectionally, not " + params.tool,
            "bidirectional", {} });
    p.add(validateInRange("tcpPort", params.tcpPort, 1, 65535));
    if (params.trafficClass)
        p.add(validateInRange("trafficClass", *params.trafficClass, 0, 255));
    if (p.any())
        return p.errors;

    auto side = [&](const std::string& host, const std::string& device, const std::optional<int>& gpu, bool client) {
        ToolInvocation t;
        t.program = params.tool;
        t.host = host;
        t.role = client ? "client" : "server";
        auto& a = t.args;
        a.insert(a.end(), { "-d", device, "-i", std::to_string(params.ibPort) });
        if (params.gidIndex)
            a.insert(a.end(), { "-x", std::to_string(*params.gidIndex) });
        if (gpu) {
            a.push_back("--use_cuda=" + std::to_string(*gpu));
            if (params.dmabuf)
                a.push_back("--use_cuda_dmabuf");
        }
        a.push_back("-F");
        if (bw) {
            if (params.reportGbits)
                a.push_back("--report_gbits");
            a.insert(a.end(), { "-q", std::to_string(params.qps) });
        }
        if (params.allSizes)
            a.push_back("-a");
        else
            a.insert(a.end(), { "-s", std::to_string(params.size) });
        if (params.iterations)
            a.insert(a.end(), { "-n", std::to_string(*params.iterations) });
        else if (params.durationS)
            a.insert(a.end(), { "-D", std::to_string(*params.durationS) });
        if (params.bidirectional)
            a.push_back("-b");
        if (params.trafficClass)
            a.push_back("--tclass=" + std::to_string(*params.trafficClass));
        a.insert(a.end(), { "-p", std::to_string(params.tcpPort) });
        if (client)
            a.push_back(params.serverHost);
        return t;
    };
    return std::vector<ToolInvocation> { side(params.serverHost, params.serverDevice, params.serverGpu, false),
        side(params.clientHost, params.clientDevice, params.clientGpu, true) };
}

int ncclTrafficClass(const core::LosslessProfile& profile) { return core::roceTrafficClass(profile); }

core::Result<std::vector<ToolInvocation>> perftestRailPair(const core::Plan& plan, const core::Catalog& catalog,
    const std::string& serverNode, const std::string& clientNode, int rail, PerftestParams base)
{
    Problems p;
    if (!findNode(plan, serverNode))
        p.add(nodeNotInPlan("serverNode", serverNode));
    if (!findNode(plan, clientNode))
        p.add(nodeNotInPlan("clientNode", clientNode));
    if (!p.any() && serverNode == clientNode)
        p.add(core::Error { "LAUNCH_NODE", "serverNode and clientNode are both " + shown(serverNode)
                + ": a rail test runs between two nodes", serverNode, {} });
    const int rails = plan.summary.rails;
    const int gpus = gpusPerNodeOf(plan, catalog);
    if (rail < 0 || rail >= rails)
        p.add(core::Error { "LAUNCH_RAIL",
            "rail: must be from 0 to " + std::to_string(rails - 1) + " (the plan has " + std::to_string(rails) + " rails), got "
                + std::to_string(rail),
            "rail", {} });
    else if (rail >= gpus)
        p.add(core::Error { "LAUNCH_RAIL",
            "rail " + std::to_string(rail) + ": the node type has " + std::to_string(gpus) + " GPUs, so no GPU " + std::to_string(rail)
                + " to pair with NIC " + std::to_string(rail),
            "rail", {} });
    if (p.any())
        return p.errors;
    core::Result<std::vector<std::string>> devices = railDevices(plan, catalog);
    if (!devices)
        return devices.errors();

    const std::string& device = (*devices)[static_cast<std::size_t>(rail)];
    base.serverHost = serverNode;
    base.clientHost = clientNode;
    base.serverDevice = device;
    base.clientDevice = device;
    base.serverGpu = rail;
    base.clientGpu = rail;
    if (plan.spec.fabric == core::Fabric::RoCEv2) {
        if (!base.gidIndex)
            base.gidIndex = kRoceV2Gid;
        if (!base.trafficClass)
            base.trafficClass = ncclTrafficClass(plan.spec.lossless);
    }
    if (base.tcpPort + static_cast<long long>(rail) > 65535)
        return core::Error { "LAUNCH_PARAM",
            "tcpPort: " + std::to_string(base.tcpPort) + " + rail " + std::to_string(rail) + " is past 65535", "tcpPort", {} };
    base.tcpPort += rail;
    return perftestPair(base);
}

core::Result<NcclTestsLaunch> ncclTestsLaunch(const core::Plan& plan, const core::Catalog& catalog, const NcclTestsParams& params)
{
    Problems p;
    if (!isNcclTestsTool(params.tool))
        p.add(core::Error { "LAUNCH_TOOL",
            "tool: " + shown(params.tool) + " is not an nccl-tests tool (all_reduce_perf, all_gather_perf, reduce_scatter_perf)",
            "tool", {} });
    if (!isLauncherTool(params.launcher))
        p.add(core::Error { "LAUNCH_TOOL", "launcher: " + shown(params.launcher) + " is not a launcher (mpirun or srun)",
            "launcher", {} });

    if (params.nodes.empty())
        p.add(core::Error { "LAUNCH_NODE", "nodes: give at least one plan node", "nodes", {} });
    std::set<std::string> seen;
    for (std::size_t i = 0; i < params.nodes.size(); ++i) {
        const std::string& n = params.nodes[i];
        const std::string parameter = "nodes[" + std::to_string(i) + "]";
        if (!findNode(plan, n)) {
            p.add(nodeNotInPlan(parameter, n));
            continue;
        }
        if (!seen.insert(n).second) {
            p.add(core::Error { "LAUNCH_NODE", parameter + ": " + shown(n) + " is listed twice", n, {} });
            continue;
        }
        if (const core::Status host = validateHostName(parameter, n); !host)
            p.add(core::Error { "LAUNCH_NODE", host.error().message + " (the plan's node name is used as the host name)", n,
                "name the nodes in the plan as their hosts are called (node_names)" });
    }

    const int planGpus = gpusPerNodeOf(plan, catalog);
    const int gpusPerNode = params.gpusPerNode == 0 ? planGpus : params.gpusPerNode;
    if (params.gpusPerNode != 0)
        p.add(validateInRange("gpusPerNode", params.gpusPerNode, 1, std::min(64, std::max(1, planGpus))));
    else if (planGpus < 1)
        p.add(core::Error { "LAUNCH_PARAM", "gpusPerNode: the plan's node type has no GPUs; give gpusPerNode", "gpusPerNode", {} });

    core::Result<std::uint64_t> minBytes = parseByteSize("minBytes", params.minBytes);
    core::Result<std::uint64_t> maxBytes = parseByteSize("maxBytes", params.maxBytes);
    if (!minBytes)
        p.add(minBytes.error());
    if (!maxBytes)
        p.add(maxBytes.error());
    if (minBytes && maxBytes && *minBytes > *maxBytes)
        p.add(core::Error { "LAUNCH_PARAM", "minBytes: " + shown(params.minBytes) + " is more than maxBytes " + shown(params.maxBytes),
            "minBytes", {} });
    if (auto e = commonProblem("stepFactor", params.stepFactor))
        p.add(*e);
    else if (const std::optional<int> f = parseSmallInt(params.stepFactor); !f || *f < 2 || *f > 1024)
        p.add(paramError("stepFactor", params.stepFactor, "must be an integer from 2 to 1024"));
    p.add(validateInRange("iters", params.iters, 1, 1000000));
    p.add(validateInRange("warmupIters", params.warmupIters, 0, 1000000));
    if (params.launcher == "mpirun") {
        if (!params.hostList)
            p.add(validateFilePath("hostfilePath", params.hostfilePath));
        if (!params.rshAgent.empty())
            p.add(validateFilePath("rshAgent", params.rshAgent));
        static const std::set<std::string, std::less<>> kBindings { "none", "core", "socket", "numa", "hwthread", "l3cache", "board",
            "package" };
        const std::string_view bind = params.bindTo;
        const std::string_view policy = bind.substr(0, bind.find(':'));
        const std::string_view qualifier = bind.size() > policy.size() ? bind.substr(policy.size()) : std::string_view();
        if (!kBindings.contains(policy) || (!qualifier.empty() && qualifier != ":overload-allowed"))
            p.add(paramError("bindTo", params.bindTo, "must be none, core, socket, numa, hwthread, l3cache, board or package, optionally with :overload-allowed"));
    } else if (params.hostList || !params.rshAgent.empty() || params.allowRunAsRoot || params.bindTo != "numa") {
        p.add(core::Error { "LAUNCH_PARAM", "hostList, rshAgent, bindTo and allowRunAsRoot are mpirun's; srun has its own", "launcher", {} });
    }
    const int rails = plan.summary.rails;
    if (params.isolateRail && (*params.isolateRail < 0 || *params.isolateRail >= rails))
        p.add(core::Error { "LAUNCH_RAIL",
            "isolateRail: must be from 0 to " + std::to_string(rails - 1) + " (the plan has " + std::to_string(rails)
                + " rails), got " + std::to_string(*params.isolateRail),
            "isolateRail", {} });
    for (const auto& [name, value] : params.extraEnv)
        p.add(validateNcclEnv(name, value));
    core::Result<std::vector<std::string>> devices = railDevices(plan, catalog);
    if (!devices)
        p.add(devices.error());
    if (p.any())
        return p.errors;

    // The environment.
    // Port p of NIC k carries plane p (one port per NIC on a one-plane plan). An entry that matches
    // no port is only a filter that matches nothing, so listing every plane's port excludes none.
    const int planes = std::max(1, plan.summary.planes);
    std::string hca = "=";
    for (int k = 0; k < rails; ++k) {
        if (params.isolateRail && k != *params.isolateRail)
            continue;
        for (int port = 1; port <= planes; ++port) {
            if (hca.size() > 1)
                hca += ',';
            hca += (*devices)[static_cast<std::size_t>(k)] + ":" + std::to_string(port);
        }
    }
    std::vector<std::pair<std::string, std::string>> env { { "NCCL_DEBUG", "INFO" }, { "NCCL_DEBUG_SUBSYS", "INIT,NET" },
        { "NCCL_IB_HCA", hca } };
    if (plan.spec.fabric == core::Fabric::RoCEv2) {
        env.emplace_back("NCCL_IB_GID_INDEX", std::to_string(kRoceV2Gid));
        env.emplace_back("NCCL_IB_TC", std::to_string(ncclTrafficClass(plan.spec.lossless)));
    }
    for (const auto& [name, value] : params.extraEnv) {
        // An init-capture, not the binding itself: clang before 16 (the fuzz build's clang 14)
        // cannot capture a structured binding.
        auto same = std::find_if(env.begin(), env.end(), [&key = name](const auto& e) { return e.first == key; });
        if (same != env.end())
            same->second = value;
        else
            env.emplace_back(name, value);
    }

    const int nodes = static_cast<int>(params.nodes.size());
    const std::string g = std::to_string(gpusPerNode);
    std::vector<std::string> test { params.tool, "-b", params.minBytes, "-e", params.maxBytes, "-f", params.stepFactor, "-g", "1",
        "-n", std::to_string(params.iters), "-w", std::to_string(params.warmupIters), "-c", params.check ? "1" : "0" };

    NcclTestsLaunch out;
    ToolInvocation& l = out.launcher;
    l.program = params.launcher;
    l.role = "launcher";
    l.env = env;
    auto& a = l.args;
    if (params.launcher == "mpirun") {
        if (params.allowRunAsRoot)
            a.push_back("--allow-run-as-root");
        if (params.hostList) {
            std::string hosts;
            for (const std::string& n : params.nodes)
                hosts += (hosts.empty() ? "" : ",") + n + ":" + g;
            a.insert(a.end(), { "--host", hosts });
        } else {
            a.insert(a.end(), { "--hostfile", params.hostfilePath });
            for (const std::string& n : params.nodes)
                out.hostfile += n + " slots=" + g + "\n";
        }
        a.insert(a.end(), { "-np", std::to_string(nodes * gpusPerNode), "--map-by", "ppr:" + g + ":node", "--bind-to", params.bindTo });
        for (const auto& e : env)
            a.insert(a.end(), { "-x", e.first });
        a.insert(a.end(), { "--mca", "pml", "ob1", "--mca", "btl", "tcp,self" });
        if (!params.rshAgent.empty())
            a.insert(a.end(), { "--mca", "plm_rsh_agent", params.rshAgent });
    } else {
        std::string nodelist, exported = "--export=ALL";
        for (const std::string& n : params.nodes)
            nodelist += (nodelist.empty() ? "" : ",") + n;
        for (const auto& e : env)
            exported += "," + e.first;
        a.insert(a.end(), { "--nodes=" + std::to_string(nodes), "--ntasks-per-node=" + g, "--gpus-per-node=" + g, "--mpi=pmix",
            "--nodelist=" + nodelist, exported });
    }
    a.insert(a.end(), test.begin(), test.end());
    return out;
}

} // namespace railyard::live
