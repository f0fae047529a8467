// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The emulator's stand-ins for the sources that are not sysfs files: files in the tools' own
// formats, read with the same parsers as the agentless check. A missing file means "unknown"
// (or no neighbours / no statistics), never "off".
#include "live/node/node_reader.h"

#include "live/common/tool_parsers.h"
#include "live/node/sysfs_read.h"

#include <nlohmann/json.hpp>

namespace railyard::live {

namespace {

/// A netdev name may become part of a path: refuse anything that could leave the folder.
bool safeName(const std::string& name)
{
    return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos;
}

class EmulatedDcb final : public DcbSource {
public:
    explicit EmulatedDcb(std::filesystem::path dir)
        : m_dir(std::move(dir))
    {
    }
    QosConfig read(const std::string& netdev) const override
    {
        QosConfig qos;
        std::string text;
        if (!safeName(netdev) || !sysfs::readFile((m_dir / "qos" / (netdev + ".mlnx_qos")).string(), text))
            return qos;
        const auto parsed = parseMlnxQos(text);
        if (!parsed)
            return qos;
        qos.pfcKnown = parsed->pfcKnown;
        qos.pfcEnabled = parsed->pfcEnabled;
        qos.trust = parsed->trust;
        return qos;
    }

private:
    std::filesystem::path m_dir;
};

class EmulatedEthtool final : public EthtoolSource {
public:
    explicit EmulatedEthtool(std::filesystem::path dir)
        : m_dir(std::move(dir))
    {
    }
    std::map<std::string, std::uint64_t> read(const std::string& netdev) const override
    {
        std::string text;
        if (!safeName(netdev) || !sysfs::readFile((m_dir / "ethtool" / (netdev + ".txt")).string(), text))
            return {};
        auto stats = parseEthtoolStats(text);
        return stats ? std::move(*stats) : std::map<std::string, std::uint64_t> {};
    }

private:
    std::filesystem::path m_dir;
};

class EmulatedLldp final : public LldpSource {
public:
    explicit EmulatedLldp(std::filesystem::path dir)
        : m_dir(std::move(dir))
    {
    }
    std::vector<LldpNeighbor> read() const override
    {
        std::string text;
        if (!sysfs::readFile((m_dir / "lldp.keyvalue").string(), text))
            return {};
        auto neighbours = parseLldpctlKeyvalue(text);
        return neighbours ? std::move(*neighbours) : std::vector<LldpNeighbor> {};
    }

private:
    std::filesystem::path m_dir;
};

/// dir/gpu.json: {"models": {"0000:18:00.0": "H100 80GB HBM3"}, "dmabuf": "on"|"off"|"unknown"}.
class EmulatedGpuDriver final : public GpuDriverSource {
public:
    explicit EmulatedGpuDriver(std::filesystem::path dir)
        : m_dir(std::move(dir))
    {
    }
    std::map<std::string, std::string> modelNames() const override
    {
        std::map<std::string, std::string> models;
        const auto json = load();
        if (const auto it = json.find("models"); it != json.end() && it->is_object())
            for (const auto& [address, model] : it->items())
                if (model.is_string())
                    models[address] = model.get<std::string>();
        return models;
    }
    Tri dmabuf() const override
    {
        const auto json = load();
        const auto it = json.find("dmabuf");
        if (it == json.end() || !it->is_string())
            return Tri::Unknown;
        const auto& value = it->get_ref<const std::string&>();
        return value == "on" ? Tri::On : value == "off" ? Tri::Off : Tri::Unknown;
    }

private:
    nlohmann::json load() const
    {
        std::string text;
        if (!sysfs::readFile((m_dir / "gpu.json").string(), text))
            return nlohmann::json::object();
        auto json = nlohmann::json::parse(text, nullptr, false);
        return json.is_object() ? json : nlohmann::json::object();
    }

    std::filesystem::path m_dir;
};

/// dir/ip/{addr,rule,route}.json (what `ip -j -4 addr show`, `ip -j -4 rule show` and
/// `ip -j -4 route show table all` print) and dir/proc/sys/net/ipv4/conf/.
class EmulatedNetwork final : public NetworkSource {
public:
    explicit EmulatedNetwork(std::filesystem::path dir)
        : m_dir(std::move(dir))
    {
    }
    IpDumps dumps() const override
    {
        IpDumps out;
        auto load = [&](const char* name, std::optional<std::string>& into, std::string& why) {
            std::string text, error;
            if (sysfs::readFile((m_dir / "ip" / name).string(), text, &error))
                into = std::move(text);
            else
                why = (m_dir / "ip" / name).string() + ": " + error;
        };
        load("addr.json", out.addr, out.addrWhy);
        load("rule.json", out.rule, out.ruleWhy);
        load("route.json", out.route, out.routeWhy);
        return out;
    }
    std::filesystem::path procRoot() const override { return m_dir / "proc"; }

private:
    std::filesystem::path m_dir;
};

} // namespace

NodeSources emulatedSources(const std::filesystem::path& dir)
{
    NodeSources sources;
    sources.dcb = std::make_shared<EmulatedDcb>(dir);
    sources.ethtool = std::make_shared<EmulatedEthtool>(dir);
    sources.lldp = std::make_shared<EmulatedLldp>(dir);
    sources.gpu = std::make_shared<EmulatedGpuDriver>(dir);
    sources.network = std::make_shared<EmulatedNetwork>(dir);
    return sources;
}

} // namespace railyard::live
