// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/test_launch.h"

#include "live/client/live_check.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <set>

namespace railyard::live {

namespace {

    constexpr std::array<std::string_view, 4> kPerftestTools { "ib_write_bw", "ib_read_bw", "ib_write_lat", "ib_read_lat" };
    constexpr std::array<std::string_view, 3> kNcclTestsTools { "all_reduce_perf", "all_gather_perf", "reduce_scatter_perf" };
    constexpr std::array<std::string_view, 2> kLaunchers { "mpirun", "srun" };

    constexpr std::string_view kShellMeta = ";&|<>`$\\\"'(){}[]*?!~#%";

    /// perftest's own limits (perftest_parameters.h/.c): -x is checked against MAX_GID_IX (64), -s
    /// against UINT_MAX / 2, -n against MIN_ITER (5).
    constexpr int kPerftestMaxGid = 64;
    constexpr std::uint64_t kPerftestMaxSize = UINT_MAX / 2;
    constexpr int kPerftestMinIters = 5;
    constexpr std::uint64_t kMaxBytes = std::uint64_t(1) << 34;
    /// RoCEv2 IPv4 GID index on mlx5 (GID 0/1: RoCEv1/v2 link-local, 2/3: RoCEv1/v2 IPv4).
    constexpr int kRoceV2Gid = 3;

    template <std::size_t N>
    bool contains(const std::array<std::string_view, N>& list, std::string_view name)
    {
        return std::find(list.begin(), list.end(), name) != list.end();
    }

    /// The value as an error message shows it: in double quotes, control bytes and quotes escaped,
    /// cut at 80 characters.
    std::string shown(std::string_view value)
    {
        static constexpr char hex[] = "0123456789abcdef";
        std::string out = "\"";
        std::size_t n = 0;
        for (const char ch : value) {
            if (++n > 80) {
                out += "...";
                break;
            }
            const auto c = static_cast<unsigned char>(ch);
            if (c == '"' || c == '\\') {
                out += '\\';
                out += ch;
            } else if (c < 0x20 || c >= 0x7f) {
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += ch;
            }
        }
        return out + "\"";
    }

    /// How a character is named in a message: "';'", "a space", "NUL", "byte 0x0a".
    std::string describe(char ch)
    {
        const auto c = static_cast<unsigned char>(ch);
        if (c == 0)
            return "NUL";
        if (c == ' ')
            return "a space";
        if (c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
            return "whitespace";
        if (c < 0x20 || c >= 0x7f) {
            std::string s = "byte 0x";
            static constexpr char hex[] = "0123456789abcdef";
            s += hex[c >> 4];
            s += hex[c & 15];
            return s;
        }
        return std::string("'") + ch + "'";
    }

    core::Error paramError(std::string_view parameter, std::string_view value, const std::string& why,
        std::string hint = {})
    {
        return core::Error { "LAUNCH_PARAM", std::string(parameter) + ": refused " + shown(value) + ": " + why,
            std::string(parameter), std::move(hint) };
    }

    /// The checks every string parameter gets first: not empty, no unsafe character, no leading '-'.
    std::optional<core::Error> commonProblem(std::string_view parameter, std::string_view value)
    {
        if (value.empty())
            return core::Error { "LAUNCH_PARAM", std::string(parameter) + ": must not be empty", std::string(parameter), {} };
        if (const std::optional<char> bad = unsafeCharacter(value)) {
            const bool space = *bad == ' ' || (*bad >= '\t' && *bad <= '\r');
            return paramError(parameter, value,
                std::string(space ? "contains " : "contains a shell metacharacter or control byte: ") + describe(*bad));
        }
        if (value.front() == '-')
            return paramError(parameter, value, "starts with '-' (it would read as an option)");
        return std::nullopt;
    }

    bool isAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
    bool isDigit(char c) { return c >= '0' && c <= '9'; }

    /// The first character of `value` outside [A-Za-z0-9] and `extra`, or nullopt.
    std::optional<char> outside(std::string_view value, std::string_view extra)
    {
        for (const char c : value)
            if (!isAlnum(c) && extra.find(c) == std::string_view::npos)
                return c;
        return std::nullopt;
    }

    std::vector<std::string_view> split(std::string_view text, char sep)
    {
        std::vector<std::string_view> out;
        std::size_t start = 0;
        while (true) {
            const std::size_t at = text.find(sep, start);
            out.push_back(text.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
            if (at == std::string_view::npos)
                return out;
            start = at + 1;
        }
    }

    bool isIpv4(std::string_view value)
    {
        const std::vector<std::string_view> parts = split(value, '.');
        if (parts.size() != 4)
            return false;
        for (std::string_view p : parts) {
            if (p.empty() || p.size() > 3 || !std::all_of(p.begin(), p.end(), isDigit) || (p.size() > 1 && p[0] == '0'))
                return false;
            int v = 0;
            std::from_chars(p.data(), p.data() + p.size(), v);
            if (v > 255)
                return false;
        }
        return true;
    }

    /// Collects the errors of a list of checks.
    struct Problems {
        core::Errors errors;
        void add(const core::Status& s)
        {
            if (!s)
                errors.insert(errors.end(), s.errors().begin(), s.errors().end());
        }
        void add(core::Error e) { errors.push_back(std::move(e)); }
        bool any() const { return !errors.empty(); }
    };

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
        if (text.empty() || text.size() > 9 || !std::all_of(text.begin(), text.end(), isDigit))
            return std::nullopt;
        int v = 0;
        std::from_chars(text.data(), text.data() + text.size(), v);
        return v;
    }

    /// POSIX shell word for display: as is when it only has safe characters, else single-quoted.
    std::string shellWord(std::string_view word)
    {
        if (!word.empty() && !outside(word, "_.,:=/+-@%^"))
            return std::string(word);
        std::string out = "'";
        for (const char c : word) {
            if (c == '\'')
                out += "'\\''";
            else
                out += c;
        }
        return out + "'";
    }

} // namespace

bool isWhitelistedTool(std::string_view program)
{
    return isPerftestTool(program) || isNcclTestsTool(program) || contains(kLaunchers, program);
}

bool isPerftestTool(std::string_view program) { return contains(kPerftestTools, program); }

bool isNcclTestsTool(std::string_view program) { return contains(kNcclTestsTools, program); }

std::optional<char> unsafeCharacter(std::string_view value)
{
    for (const char ch : value) {
        const auto c = static_cast<unsigned char>(ch);
        if (c <= 0x20 || c == 0x7f || c >= 0x80 || kShellMeta.find(ch) != std::string_view::npos)
            return ch;
    }
    return std::nullopt;
}

core::Status validateHostName(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 253)
        return paramError(parameter, value, "longer than 253 characters");
    if (const std::optional<char> bad = outside(value, ".-"))
        return paramError(parameter, value, "a host name has only letters, digits, '-' and '.', not " + describe(*bad));
    const std::vector<std::string_view> labels = split(value, '.');
    bool allNumeric = true;
    for (std::string_view label : labels) {
        if (label.empty())
            return paramError(parameter, value, "has an empty label (two dots, or a dot at either end)");
        if (label.size() > 63)
            return paramError(parameter, value, "has a label longer than 63 characters");
        if (label.front() == '-' || label.back() == '-')
            return paramError(parameter, value, "has a label that starts or ends with '-'");
        if (!std::all_of(label.begin(), label.end(), isDigit))
            allNumeric = false;
    }
    if (allNumeric && !isIpv4(value))
        return paramError(parameter, value, "is neither a host name nor an IPv4 address (four numbers 0..255)");
    return {};
}

core::Status validateRdmaDevice(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 64)
        return paramError(parameter, value, "an RDMA device name has at most 64 characters");
    if (const std::optional<char> bad = outside(value, "_.-"))
        return paramError(parameter, value, "an RDMA device name has only letters, digits, '_', '.' and '-', not " + describe(*bad));
    return {};
}

core::Status validateNetdevName(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 15)
        return paramError(parameter, value, "a network interface name has at most 15 characters");
    if (value == "." || value == "..")
        return paramError(parameter, value, "is no interface name");
    if (const std::optional<char> bad = outside(value, "_.-"))
        return paramError(parameter, value, "an interface name has only letters, digits, '_', '.' and '-', not " + describe(*bad));
    return {};
}

core::Status validateInRange(std::string_view parameter, long long value, long long min, long long max)
{
    if (value < min || value > max)
        return core::Error { "LAUNCH_PARAM",
            std::string(parameter) + ": must be from " + std::to_string(min) + " to " + std::to_string(max) + ", got "
                + std::to_string(value),
            std::string(parameter), {} };
    return {};
}

core::Result<std::uint64_t> parseByteSize(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    std::string_view digits = value;
    std::uint64_t unit = 1;
    switch (value.back()) {
    case 'K': case 'k': unit = 1024; break;
    case 'M': case 'm': unit = 1024 * 1024; break;
    case 'G': case 'g': unit = 1024 * 1024 * 1024; break;
    default: break;
    }
    if (unit != 1)
        digits.remove_suffix(1);
    if (digits.empty() || digits.size() > 12 || !std::all_of(digits.begin(), digits.end(), isDigit))
        return paramError(parameter, value, "a size is decimal digits with an optional K, M or G suffix");
    std::uint64_t n = 0;
    std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (n == 0 || n > kMaxBytes / unit)
        return paramError(parameter, value, "a size is from 1 byte to 16G (2^34 bytes)");
    return n * unit;
}

core::Status validateFilePath(std::string_view parameter, std::string_view value)
{
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 4096)
        return paramError(parameter, value, "longer than 4096 characters");
    if (const std::optional<char> bad = outside(value, "_./+-"))
        return paramError(parameter, value, "a path here has only letters, digits and _ . / + -, not " + describe(*bad));
    for (std::string_view part : split(value, '/'))
        if (part == "..")
            return paramError(parameter, value, "has a '..' component");
    return {};
}

core::Status validateNcclEnv(std::string_view name, std::string_view value)
{
    if (name.size() <= 5 || name.substr(0, 5) != "NCCL_" || name.size() > 64
        || std::any_of(name.begin(), name.end(), [](char c) { return !((c >= 'A' && c <= 'Z') || isDigit(c) || c == '_'); }))
        return core::Error { "LAUNCH_PARAM",
            "environment: refused the variable name " + shown(name) + ": only NCCL_ followed by A-Z, 0-9 and '_' may be set",
            std::string(name).empty() ? std::string("environment") : std::string(name), {} };
    const std::string parameter = std::string(name);
    if (auto e = commonProblem(parameter, value))
        return *e;
    if (value.size() > 256)
        return paramError(parameter, value, "longer than 256 characters");
    if (const std::optional<char> bad = outside(value, "_.,:=^+/-"))
        return paramError(parameter, value, "an NCCL value here has only letters, digits and _ . , : = ^ + / -, not " + describe(*bad));
    return {};
}

core::Status checkInvocation(const ToolInvocation& invocation)
{
    Problems p;
    if (!isWhitelistedTool(invocation.program))
        p.add(core::Error { "LAUNCH_TOOL", "program " + shown(invocation.program) + " is not in the launch whitelist",
            "program", {} });
    if (invocation.role != "server" && invocation.role != "client" && invocation.role != "launcher")
        p.add(paramError("role", invocation.role, "must be server, client or launcher"));
    if (!invocation.host.empty())
        p.add(validateHostName("host", invocation.host));
    for (std::size_t i = 0; i < invocation.args.size(); ++i) {
        const std::string& a = invocation.args[i];
        const std::string parameter = "args[" + std::to_string(i) + "]";
        if (a.empty() || a.size() > 4096)
            p.add(paramError(parameter, a, "an argument has 1 to 4096 characters"));
        else if (const std::optional<char> bad = outside(a, "_.,:=/+-"))
            p.add(paramError(parameter, a, "an argument has only letters, digits and _ . , : = / + -, not " + describe(*bad)));
    }
    for (const auto& [name, value] : invocation.env)
        p.add(validateNcclEnv(name, value));
    if (p.any())
        return p.errors;
    return {};
}

std::string displayCommand(const ToolInvocation& invocation)
{
    std::string out;
    for (const auto& [name, value] : invocation.env)
        out += name + "=" + shellWord(value) + " ";
    out += shellWord(invocation.program);
    for (const std::string& a : invocation.args)
        out += " " + shellWord(a);
    return out;
}

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

int ncclTrafficClass(const core::LosslessProfile& profile) { return (profile.roceDscp << 2) | (profile.ecn ? 2 : 0); }

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
    if (!contains(kLaunchers, params.launcher))
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
    if (params.launcher == "mpirun")
        p.add(validateFilePath("hostfilePath", params.hostfilePath));
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
        auto same = std::find_if(env.begin(), env.end(), [&](const auto& e) { return e.first == name; });
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
        a.insert(a.end(), { "--hostfile", params.hostfilePath, "-np", std::to_string(nodes * gpusPerNode), "--map-by",
            "ppr:" + g + ":node", "--bind-to", "numa" });
        for (const auto& e : env)
            a.insert(a.end(), { "-x", e.first });
        a.insert(a.end(), { "--mca", "pml", "ob1", "--mca", "btl", "tcp,self" });
        for (const std::string& n : params.nodes)
            out.hostfile += n + " slots=" + g + "\n";
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
