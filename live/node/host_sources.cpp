// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/node/host_sources.h"

#include "live/common/tool_parsers.h"
#include "live/node/ethtool_ioctl.h"
#include "live/node/netlink_dcb.h"
#include "live/node/node_reader.h"
#include "live/node/sysfs_read.h"

namespace railyard::live {

namespace {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

class HostDcb final : public DcbSource {
public:
    QosConfig read(const std::string& netdev) const override
    {
        auto qos = dcb::queryIeee(netdev);
        return qos ? *qos : QosConfig {};
    }
};

class HostEthtool final : public EthtoolSource {
public:
    std::map<std::string, std::uint64_t> read(const std::string& netdev) const override
    {
        auto stats = ethtool::readStats(netdev);
        return stats ? std::move(*stats) : std::map<std::string, std::uint64_t> {};
    }
};

/// lldpd's client: `lldpctl -f keyvalue`. No lldpd: no neighbours.
class HostLldp final : public LldpSource {
public:
    std::vector<LldpNeighbor> read() const override
    {
        const std::string program = findProgram("lldpctl", ProgramSearch::SystemOnly);
        if (program.empty())
            return {};
        auto output = runProgram({ program, "-f", "keyvalue" }, std::chrono::seconds(3));
        if (!output)
            return {};
        auto neighbours = parseLldpctlKeyvalue(*output);
        return neighbours ? std::move(*neighbours) : std::vector<LldpNeighbor> {};
    }
};

/// The NVIDIA driver's procfs files. dma-buf: no file of the driver says whether it can
/// export GPU memory as dma-buf (that depends on the open kernel modules, the driver version
/// and the kernel's CONFIG_DMA_SHARED_BUFFER), so it stays Unknown rather than guessed.
class HostGpuDriver final : public GpuDriverSource {
public:
    std::map<std::string, std::string> modelNames() const override
    {
        std::map<std::string, std::string> models;
        const std::string base = "/proc/driver/nvidia/gpus/";
        std::string text;
        for (const auto& address : sysfs::listDirectory(base)) {
            if (!sysfs::readFile(base + address + "/information", text, nullptr, 65536))
                continue;
            if (auto model = parseNvidiaInformationModel(text); !model.empty())
                models[address] = std::move(model);
        }
        return models;
    }
    Tri dmabuf() const override { return Tri::Unknown; }
};

/// iproute2's JSON from the system's `ip`, and /proc.
class HostNetworkSource final : public NetworkSource {
public:
    IpDumps dumps() const override
    {
        IpDumps out;
        const std::string program = findProgram("ip", ProgramSearch::SystemOnly);
        if (program.empty()) {
            out.addrWhy = out.ruleWhy = out.routeWhy = "ip (iproute2) not found in the system folders";
            return out;
        }
        auto run = [&](std::vector<std::string> argv, std::optional<std::string>& into, std::string& why) {
            argv.insert(argv.begin(), program);
            auto text = runProgram(argv, std::chrono::seconds(3));
            if (text)
                into = std::move(*text);
            else
                why = text.errors().front().message;
        };
        run({ "-j", "-4", "addr", "show" }, out.addr, out.addrWhy);
        run({ "-j", "-4", "rule", "show" }, out.rule, out.ruleWhy);
        run({ "-j", "-4", "route", "show", "table", "all" }, out.route, out.routeWhy);
        return out;
    }
    std::filesystem::path procRoot() const override { return "/proc"; }
};

} // namespace

std::string parseNvidiaInformationModel(std::string_view text)
{
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        if (line.starts_with("Model:"))
            return std::string(trimmed(line.substr(6)));
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return {};
}

std::string parseOpensmRoutingEngine(std::string_view log)
{
    static constexpr std::string_view kMarker = " tables configured on all switches";
    const auto at = log.rfind(kMarker);
    if (at == std::string_view::npos)
        return {};
    const std::string_view before = log.substr(0, at);
    const auto start = before.find_last_of(" \t\n");
    const std::string_view word = start == std::string_view::npos ? before : before.substr(start + 1);
    return std::string(word);
}

NodeSources hostSources()
{
    NodeSources sources;
    sources.dcb = std::make_shared<HostDcb>();
    sources.ethtool = std::make_shared<HostEthtool>();
    sources.lldp = std::make_shared<HostLldp>();
    sources.gpu = std::make_shared<HostGpuDriver>();
    sources.network = std::make_shared<HostNetworkSource>();
    return sources;
}

} // namespace railyard::live
