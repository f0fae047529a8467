// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/perftest_model.h"

#include "core/plan_spec.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <system_error>

#include <arpa/inet.h>

namespace railyard::live {

namespace fs = std::filesystem;

namespace {

    std::optional<std::string> firstLine(const fs::path& path)
    {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return std::nullopt;
        std::string line;
        std::getline(in, line);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.pop_back();
        return line;
    }

    int leadingNumber(const std::string& text, int base = 10)
    {
        return static_cast<int>(std::strtol(text.c_str(), nullptr, base));
    }

    std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 1469598103934665603ULL)
    {
        for (const char c : text) {
            hash ^= static_cast<unsigned char>(c);
            hash *= 1099511628211ULL;
        }
        return hash;
    }

    std::uint64_t splitmix(std::uint64_t x)
    {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }

    bool isDirectory(const fs::path& path)
    {
        std::error_code ec;
        return fs::is_directory(path, ec);
    }

    bool pathExists(const fs::path& path)
    {
        std::error_code ec;
        return fs::exists(path, ec);
    }

} // namespace

std::vector<std::string> emulatedRdmaDevices(const fs::path& sysRoot)
{
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(sysRoot / "class" / "infiniband", ec), end; !ec && it != end; it.increment(ec))
        names.push_back(it->path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::optional<EmulatedRdmaPort> readEmulatedRdmaPort(const fs::path& sysRoot, const std::string& device, int port)
{
    const fs::path dir = sysRoot / "class" / "infiniband" / device / "ports" / std::to_string(port);
    const auto state = firstLine(dir / "state");
    if (!state)
        return std::nullopt;
    EmulatedRdmaPort p;
    p.state = leadingNumber(*state);
    p.physState = leadingNumber(firstLine(dir / "phys_state").value_or("0"));
    p.rateText = firstLine(dir / "rate").value_or("");
    if (const auto rate = parseRateText(p.rateText))
        p.dataGbps = perftestDataRateGbps(*rate);
    p.ethernet = firstLine(dir / "link_layer").value_or("InfiniBand") == "Ethernet";
    p.lid = leadingNumber(firstLine(dir / "lid").value_or("0"), 16);
    if (p.ethernet) {
        p.lid = 0;
        p.netdev = firstLine(dir / "gid_attrs" / "ndevs" / "0").value_or("");
        int netdevMtu = 1500;
        if (!p.netdev.empty())
            if (const auto mtu = firstLine(sysRoot / "class" / "net" / p.netdev / "mtu"))
                netdevMtu = leadingNumber(*mtu);
        p.mtu = rocePathMtu(netdevMtu);
    }
    return p;
}

std::optional<std::array<std::uint8_t, 16>> readEmulatedGid(
    const fs::path& sysRoot, const std::string& device, int port, int index)
{
    const auto text = firstLine(
        sysRoot / "class" / "infiniband" / device / "ports" / std::to_string(port) / "gids" / std::to_string(index));
    if (!text)
        return std::nullopt;
    std::array<std::uint8_t, 16> gid {};
    unsigned group[8] = {};
    if (std::sscanf(text->c_str(), "%x:%x:%x:%x:%x:%x:%x:%x", &group[0], &group[1], &group[2], &group[3], &group[4],
            &group[5], &group[6], &group[7])
        != 8)
        return std::nullopt;
    for (int i = 0; i < 8; ++i) {
        gid[static_cast<std::size_t>(2 * i)] = static_cast<std::uint8_t>(group[i] >> 8);
        gid[static_cast<std::size_t>(2 * i + 1)] = static_cast<std::uint8_t>(group[i] & 0xff);
    }
    return gid;
}

EmulatedGpus readEmulatedGpus(const fs::path& sysRoot)
{
    EmulatedGpus g;
    g.peermem = pathExists(sysRoot / "module" / "nvidia_peermem") || pathExists(sysRoot / "module" / "nv_peer_mem");
    std::ifstream in(sysRoot.parent_path() / "sim" / "gpu.json", std::ios::binary);
    if (in) {
        std::ostringstream text;
        text << in.rdbuf();
        const auto json = nlohmann::json::parse(text.str(), nullptr, false);
        if (json.is_object()) {
            g.dmabuf = json.value("dmabuf", std::string()) == "on";
            if (const auto models = json.find("models"); models != json.end() && models->is_object())
                for (auto it = models->begin(); it != models->end(); ++it) // nlohmann objects iterate in key order
                    g.gpus.push_back(
                        { it.key(), it.value().is_string() ? it.value().get<std::string>() : std::string("GPU") });
        }
        return g;
    }
    // No stand-in file: the NVIDIA display controllers of the PCI tree.
    std::error_code ec;
    std::vector<std::string> addresses;
    for (fs::directory_iterator it(sysRoot / "bus" / "pci" / "devices", ec), end; !ec && it != end; it.increment(ec)) {
        const auto vendor = firstLine(it->path() / "vendor");
        const auto cls = firstLine(it->path() / "class");
        if (vendor && cls && *vendor == "0x10de" && cls->rfind("0x03", 0) == 0)
            addresses.push_back(it->path().filename().string());
    }
    std::sort(addresses.begin(), addresses.end());
    for (const auto& a : addresses)
        g.gpus.push_back({ a, "GPU" });
    return g;
}

double perftestDataRateGbps(const LinkRate& rate)
{
    const std::string& gen = rate.generation;
    if (gen == "SDR" || gen == "DDR" || gen == "QDR")
        return rate.gbps * 0.8;
    if (gen == "FDR" || gen == "FDR10")
        return rate.gbps * 64.0 / 66.0;
    return rate.gbps;
}

double perftestPacketEfficiency(bool ethernet, int mtu)
{
    const double overhead = ethernet ? 82.0 : 26.0;
    return mtu > 0 ? mtu / (mtu + overhead) : 0.0;
}

int rocePathMtu(int netdevMtu)
{
    int best = 256;
    for (const int m : { 256, 512, 1024, 2048, 4096 })
        if (m <= netdevMtu - 96)
            best = m;
    return best;
}

double perftestPeakGbps(double lineGbps, bool ethernet, int mtu)
{
    return lineGbps * perftestPacketEfficiency(ethernet, mtu) * kPerftestNicEfficiency;
}

double perftestBandwidthGbps(double peakGbps, std::uint64_t size, int qps, bool read)
{
    if (peakGbps <= 0 || size == 0)
        return 0;
    const double perQp = read ? 2.5e6 : 8.0e6;
    const double messageRate = perQp * std::clamp(qps, 1, 8);
    const double r = 8.0 * static_cast<double>(size) * messageRate / (peakGbps * 1e9);
    return peakGbps * r / std::pow(1.0 + std::pow(r, 4.0), 0.25);
}

double perftestJitter(std::string_view device, int port, std::uint64_t size, std::string_view salt)
{
    std::uint64_t h = fnv1a(device);
    h = fnv1a("/" + std::to_string(port) + "/" + std::to_string(size) + "/", h);
    h = fnv1a(salt, h);
    return static_cast<double>(splitmix(h) >> 11) / 9007199254740992.0; // 2^53
}

PerftestBwFigures perftestBwRow(
    double peakGbps, std::uint64_t size, int qps, bool read, std::string_view device, int port)
{
    const double bw = perftestBandwidthGbps(peakGbps, size, qps, read);
    PerftestBwFigures f;
    f.peakGbps = bw * (1.0 - 0.0005 * perftestJitter(device, port, size, "peak"));
    f.averageGbps = f.peakGbps * (1.0 - 0.004 * perftestJitter(device, port, size, "avg"));
    return f;
}

PerftestLatFigures perftestLatRow(
    double peakGbps, bool ethernet, std::uint64_t size, bool read, bool inlined, std::string_view device, int port)
{
    double base = ethernet ? 1.60 : 1.00;
    if (read)
        base = 2 * base - 0.10;
    const double serialisation = peakGbps > 0 ? 8.0 * static_cast<double>(size) / (peakGbps * 1000.0) : 0.0;
    const double t = base + (inlined ? 0.0 : 0.10) + serialisation;
    auto j = [&](std::string_view salt) { return 1.0 + 0.01 * perftestJitter(device, port, size, salt); };
    PerftestLatFigures f;
    f.tTypical = t * j("typical");
    f.tMin = 0.97 * t * j("min");
    f.tMin = std::min(f.tMin, f.tTypical);
    f.tAvg = std::max(f.tTypical, (1.01 * t + 0.01) * j("avg"));
    f.tStdev = (0.02 + 0.01 * t) * j("stdev");
    f.p99 = std::max(f.tAvg, (1.04 * t + 0.05) * j("p99"));
    f.p999 = std::max(f.p99, (1.10 * t + 0.30) * j("p999"));
    f.tMax = std::max(f.p999, (1.6 * t + 2.0) * j("max"));
    return f;
}

namespace {

    /// The node folders of `root` in name order.
    std::vector<std::string> nodeFolders(const fs::path& root)
    {
        std::vector<std::string> nodes;
        std::error_code ec;
        for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
            if (isDirectory(it->path() / "sys"))
                nodes.push_back(it->path().filename().string());
        std::sort(nodes.begin(), nodes.end());
        return nodes;
    }

    /// F of 127.F.H.L for the fabric in `root`.
    unsigned fabricOctet(const fs::path& root)
    {
        std::error_code ec;
        const fs::path folder = fs::weakly_canonical(root, ec);
        return 1 + static_cast<unsigned>(fnv1a((ec ? root : folder).string()) % 254);
    }

} // namespace

std::optional<std::string> emulatedNodeAddress(const fs::path& root, const std::string& node)
{
    if (node.empty() || node == "." || node == ".." || node.find('/') != std::string::npos
        || !isDirectory(root / node / "sys"))
        return std::nullopt;
    const std::vector<std::string> nodes = nodeFolders(root);
    const auto at = std::lower_bound(nodes.begin(), nodes.end(), node);
    if (at == nodes.end() || *at != node)
        return std::nullopt;
    const auto index = static_cast<unsigned>(at - nodes.begin());
    if (index >= (1u << 16))
        return std::nullopt;
    return core::formatIpv4(127u << 24 | fabricOctet(root) << 16 | index);
}

std::optional<std::string> emulatedNodeAt(const fs::path& root, const std::string& address)
{
    const std::optional<std::uint32_t> a = core::parseIpv4(address);
    if (!a || *a >> 24 != 127 || ((*a >> 16) & 0xff) != fabricOctet(root))
        return std::nullopt;
    const std::vector<std::string> nodes = nodeFolders(root);
    const std::size_t index = *a & 0xffff;
    if (index >= nodes.size())
        return std::nullopt;
    return nodes[index];
}

std::vector<std::string> tcpListenersOn(int port)
{
    std::vector<std::string> addresses;
    std::ifstream in("/proc/net/tcp");
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        unsigned slot = 0, address = 0, localPort = 0, remote = 0, remotePort = 0, state = 0;
        if (std::sscanf(
                line.c_str(), " %u: %8X:%4X %8X:%4X %2X", &slot, &address, &localPort, &remote, &remotePort, &state)
            != 6)
            continue;
        if (state != 0x0A || static_cast<int>(localPort) != port) // TCP_LISTEN
            continue;
        // The kernel prints the 32 bits as they lie in memory: network order.
        addresses.push_back(core::formatIpv4(ntohl(address)));
    }
    return addresses;
}

} // namespace railyard::live
