// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The node reader: one node's inventory and counters from a sysfs tree and the non-file
// sources. What it reads, relative to the sysfs root (the kernel's layout, which the emulator
// reproduces):
//   class/infiniband/<dev>/{hca_type,fw_ver,board_id,node_guid,sys_image_guid,node_desc}
//   class/infiniband/<dev>/device            symlink to the PCI function's folder
//   class/infiniband/<dev>/device/net/<if>/  the function's netdevs (dev_port picks the port)
//   class/infiniband/<dev>/ports/<n>/{link_layer,state,phys_state,rate,lid,sm_lid}
//   class/infiniband/<dev>/ports/<n>/gids/<i>, gid_attrs/types/<i>, gid_attrs/ndevs/<i>
//   class/infiniband/<dev>/ports/<n>/counters/*, hw_counters/*
//   class/net/<if>/{mtu,device,dev_port}, class/net/<if>/bonding/slaves,
//   class/net/<if>/ecn/roce_np/enable/<prio>, ecn/roce_rp/enable/<prio>   (mlx5, NVIDIA stack)
//   bus/pci/devices/<addr> -> ../../../devices/pci<dom>:<bus>/.../<addr>  (or devices/pci*/...)
//   <pci function>/{vendor,class,numa_node,current_link_speed,max_link_speed,
//                   current_link_width,max_link_width,config}
//   module/{nvidia,nvidia_peermem,nv_peer_mem}
#include "live/node/node_reader.h"

#include "live/common/rate.h"
#include "live/node/host_sources.h"
#include "live/node/pci_topology.h"
#include "live/common/sysfs_counters.h"
#include "live/node/sysfs_read.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <set>
#include <system_error>
#include <unordered_map>

#include <unistd.h>

namespace railyard::live {

namespace {

namespace fs = std::filesystem;

std::string rootString(const fs::path& root)
{
    std::string text = root.string();
    while (text.size() > 1 && text.back() == '/')
        text.pop_back();
    return text;
}

/// "4: ACTIVE" -> {4, "ACTIVE"}.
std::pair<int, std::string> parseNumberedName(std::string_view text)
{
    int number = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc())
        return { 0, std::string(text) };
    std::string_view rest(end, static_cast<std::size_t>(text.data() + text.size() - end));
    if (!rest.empty() && rest.front() == ':')
        rest.remove_prefix(1);
    while (!rest.empty() && rest.front() == ' ')
        rest.remove_prefix(1);
    return { number, std::string(rest) };
}

/// "16.0 GT/s PCIe", "8 GT/s" -> 16.0 / 8; "Unknown" -> 0.
double parseLinkSpeed(const std::string& text)
{
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    return end == text.c_str() ? 0 : value;
}

/// All groups zero.
bool gidIsZero(std::string_view gid)
{
    return std::all_of(gid.begin(), gid.end(), [](char c) { return c == '0' || c == ':'; });
}

/// fe80::/10.
bool gidIsLinkLocal(std::string_view gid)
{
    unsigned first = 0;
    const auto [end, ec] = std::from_chars(gid.data(), gid.data() + std::min<std::size_t>(gid.size(), 4), first, 16);
    (void)end;
    return ec == std::errc() && (first & 0xffc0u) == 0xfe80u;
}

/// A device's place: its name, folder, PCI address and rail; and per port its netdev.
struct ScannedPort {
    int number = 1;
    std::string dir;        ///< .../ports/<n>
    std::string netdev;     ///< the PCI function's netdev for this port (or the RoCE one)
    std::string roceNetdev; ///< gid_attrs/ndevs/0 (RoCE: may be a bond)
};

struct ScannedDevice {
    std::string name;
    std::string dir;        ///< <root>/class/infiniband/<name>
    std::string pciAddress; ///< from the `device` link; empty when none
    int rail = -1;
    std::vector<ScannedPort> ports;
};

/// Netdevs of each PCI function found through class/net/<if>/device (built once per call,
/// only when a device has no device/net folder).
class NetdevIndex {
public:
    explicit NetdevIndex(std::string root)
        : m_root(std::move(root))
    {
    }
    const std::vector<std::string>& forFunction(const std::string& address)
    {
        if (!m_built) {
            m_built = true;
            const std::string base = m_root + "/class/net/";
            for (const auto& name : sysfs::listDirectory(base)) {
                const std::string function = sysfs::linkTargetName(base + name + "/device");
                if (!function.empty())
                    m_byFunction[function].push_back(name);
            }
        }
        static const std::vector<std::string> none;
        const auto it = m_byFunction.find(address);
        return it == m_byFunction.end() ? none : it->second;
    }

private:
    std::string m_root;
    bool m_built = false;
    std::unordered_map<std::string, std::vector<std::string>> m_byFunction;
};

/// The netdev of port `port` among a function's netdevs `names` living in `folder` (their
/// `dev_port` is port - 1; a single netdev serves port 1).
std::string pickNetdev(const std::vector<std::string>& names, const std::string& folder, int port)
{
    if (names.empty())
        return {};
    for (const auto& name : names) {
        const auto devPort = sysfs::readUnsigned(folder + name + "/dev_port");
        if (devPort && static_cast<int>(*devPort) == port - 1)
            return name;
    }
    return port == 1 ? names.front() : std::string();
}

int railOf(const std::vector<std::string>& railMap, const std::string& name, const std::string& pciAddress)
{
    for (std::size_t k = 0; k < railMap.size(); ++k) {
        const std::string& entry = railMap[k];
        if (entry == name)
            return static_cast<int>(k);
        if (!pciAddress.empty() && pci::normalizeAddress(entry) == pciAddress)
            return static_cast<int>(k);
    }
    return -1;
}

std::vector<ScannedDevice> scanDevices(const std::string& root, const std::vector<std::string>& railMap)
{
    std::vector<ScannedDevice> devices;
    NetdevIndex index(root);
    const std::string base = root + "/class/infiniband/";
    for (const auto& name : sysfs::listDirectory(base)) {
        ScannedDevice device;
        device.name = name;
        device.dir = base + name;
        device.pciAddress = sysfs::linkTargetName(device.dir + "/device");
        if (!pci::isAddress(device.pciAddress)) {
            // A link that does not end in the address ("../.."): resolve it.
            std::error_code ec;
            const auto resolved = fs::canonical(device.dir + "/device", ec);
            device.pciAddress = ec ? std::string() : resolved.filename().string();
            if (!pci::isAddress(device.pciAddress))
                device.pciAddress.clear();
        }
        device.rail = railOf(railMap, name, device.pciAddress);

        std::vector<std::string> functionNetdevs = sysfs::listDirectory(device.dir + "/device/net");
        std::string netdevFolder = device.dir + "/device/net/";
        if (functionNetdevs.empty() && !device.pciAddress.empty()) {
            functionNetdevs = index.forFunction(device.pciAddress);
            netdevFolder = root + "/class/net/";
        }
        for (const auto& portName : sysfs::listDirectory(device.dir + "/ports")) {
            const auto number = sysfs::parseUnsigned(portName);
            if (!number)
                continue;
            ScannedPort port;
            port.number = static_cast<int>(*number);
            port.dir = device.dir + "/ports/" + portName;
            sysfs::readText(port.dir + "/gid_attrs/ndevs/0", port.roceNetdev);
            port.netdev = pickNetdev(functionNetdevs, netdevFolder, port.number);
            if (port.netdev.empty())
                port.netdev = port.roceNetdev;
            device.ports.push_back(std::move(port));
        }
        devices.push_back(std::move(device));
    }
    return devices;
}

/// Reads one attribute into `out`; on failure adds "<what>: <file> unreadable: <why>".
bool readOrWarn(const std::string& path, std::string_view what, std::string_view file, std::string& out,
    std::vector<std::string>& warnings)
{
    std::string error;
    if (sysfs::readText(path, out, &error))
        return true;
    warnings.push_back(std::string(what) + ": " + std::string(file) + " unreadable: " + error);
    return false;
}

PcieLink readPcieLink(const fs::path& function)
{
    PcieLink link;
    const std::string base = function.string() + "/";
    std::string text;
    if (sysfs::readText(base + "current_link_speed", text))
        link.speedGts = parseLinkSpeed(text);
    if (sysfs::readText(base + "max_link_speed", text))
        link.maxSpeedGts = parseLinkSpeed(text);
    if (const auto width = sysfs::readUnsigned(base + "current_link_width"))
        link.width = static_cast<int>(*width);
    if (const auto width = sysfs::readUnsigned(base + "max_link_width"))
        link.maxWidth = static_cast<int>(*width);
    return link;
}

int readNumaNode(const fs::path& function)
{
    std::string text;
    if (!sysfs::readText(function.string() + "/numa_node", text))
        return -1;
    int node = -1;
    std::from_chars(text.data(), text.data() + text.size(), node);
    return node;
}

/// The canonical folder of a PCI function reached through `link`; nullopt when unresolvable.
std::optional<pci::Placement> placementOf(const fs::path& link)
{
    std::error_code ec;
    const fs::path canonical = fs::canonical(link, ec);
    if (ec)
        return std::nullopt;
    auto placement = pci::placementFromPath(canonical);
    if (placement)
        placement->numaNode = readNumaNode(canonical);
    return placement;
}

/// The folder of bridge `bridge` above the function at `path`.
fs::path ancestorNamed(const fs::path& path, const std::string& bridge)
{
    for (fs::path p = path.parent_path(); p.has_relative_path(); p = p.parent_path())
        if (p.filename() == bridge)
            return p;
    return {};
}

/// ECN enablement per priority from class/net/<if>/ecn/<point>/enable/<prio>.
std::array<Tri, 8> readEcn(const std::string& root, const std::string& netdev, const char* point)
{
    std::array<Tri, 8> result {};
    if (netdev.empty())
        return result;
    const std::string base = root + "/class/net/" + netdev + "/ecn/" + point + "/enable/";
    for (int p = 0; p < 8; ++p) {
        const auto value = sysfs::readUnsigned(base + std::to_string(p));
        result[static_cast<std::size_t>(p)] = !value ? Tri::Unknown : *value != 0 ? Tri::On : Tri::Off;
    }
    return result;
}

void readPort(const ScannedPort& scanned, const std::string& deviceName, RdmaPort& port,
    std::vector<std::string>& warnings)
{
    port.number = scanned.number;
    const std::string what = deviceName;
    const std::string prefix = "ports/" + std::to_string(scanned.number) + "/";
    std::string text;
    if (readOrWarn(scanned.dir + "/link_layer", what, prefix + "link_layer", text, warnings))
        port.linkLayer = text == "InfiniBand" ? LinkLayer::InfiniBand : text == "Ethernet" ? LinkLayer::Ethernet : LinkLayer::Unknown;
    if (readOrWarn(scanned.dir + "/state", what, prefix + "state", text, warnings))
        std::tie(port.state, port.stateName) = parseNumberedName(text);
    if (readOrWarn(scanned.dir + "/phys_state", what, prefix + "phys_state", text, warnings))
        std::tie(port.physState, port.physStateName) = parseNumberedName(text);
    if (readOrWarn(scanned.dir + "/rate", what, prefix + "rate", port.rateText, warnings)) {
        if (const auto rate = parseRateText(port.rateText)) {
            port.rateGbps = rate->gbps;
            port.width = rate->width;
            port.generation = rate->generation;
        } else {
            warnings.push_back(what + ": " + prefix + "rate not understood: \"" + port.rateText + "\"");
        }
    }
    // lid/sm_lid are meaningful on IB; RoCE ports print 0x0. Missing ones are not worth a warning
    // on Ethernet ports.
    const bool ib = port.linkLayer == LinkLayer::InfiniBand;
    std::string error;
    if (const auto lid = sysfs::readUnsigned(scanned.dir + "/lid", &error))
        port.lid = static_cast<int>(*lid);
    else if (ib)
        warnings.push_back(what + ": " + prefix + "lid unreadable: " + error);
    if (const auto smLid = sysfs::readUnsigned(scanned.dir + "/sm_lid", &error))
        port.smLid = static_cast<int>(*smLid);
    else if (ib)
        warnings.push_back(what + ": " + prefix + "sm_lid unreadable: " + error);
    sysfs::readText(scanned.dir + "/gids/0", port.gid0);

    if (port.linkLayer != LinkLayer::Ethernet)
        return;
    // The first RoCE v2 GID with an address that routes: not zero and not link-local (NCCL and
    // routed RoCEv2 use the IPv4-mapped or global entries, e.g. index 3 after fe80 v1/v2 and
    // the IPv4-mapped v1 entry). Empty table slots fail to read (EINVAL) and are skipped.
    // The whole table is kept too (GidEntry), so that a check can say which index carries the rail
    // address. mlx5 lists 255 slots; unused ones read as zeros (or fail), and are left out.
    for (const auto& index : sysfs::listDirectory(scanned.dir + "/gids")) {
        const auto number = sysfs::parseUnsigned(index);
        GidEntry entry;
        if (!number || !sysfs::readText(scanned.dir + "/gids/" + index, entry.gid) || gidIsZero(entry.gid))
            continue;
        entry.index = static_cast<int>(*number);
        sysfs::readText(scanned.dir + "/gid_attrs/types/" + index, entry.type);
        sysfs::readText(scanned.dir + "/gid_attrs/ndevs/" + index, entry.netdev);
        entry.ipv4 = ipv4OfGid(entry.gid);
        if (!port.rocev2GidIndex && entry.type == "RoCE v2" && !gidIsLinkLocal(entry.gid)) {
            port.rocev2GidIndex = entry.index;
            port.rocev2Gid = entry.gid;
        }
        port.gids.push_back(std::move(entry));
    }
}

/// Ranks for the closest-NIC choice (see Relation): smaller is closer.
struct Candidate {
    std::size_t device = 0;
    pci::Relation relation;
};

std::string hostName()
{
    std::array<char, 256> buffer {};
    if (::gethostname(buffer.data(), buffer.size() - 1) != 0)
        return {};
    return buffer.data();
}

/// The PCI functions of the tree: bus/pci/devices/* (symlinks into devices/), or, where that
/// folder is missing, every PCI-address folder under devices/pci*/.
std::vector<fs::path> pciFunctions(const std::string& root)
{
    std::vector<fs::path> functions;
    const std::string bus = root + "/bus/pci/devices/";
    if (sysfs::exists(bus)) {
        for (const auto& name : sysfs::listDirectory(bus))
            if (pci::isAddress(name))
                functions.emplace_back(bus + name);
        return functions;
    }
    std::vector<std::pair<std::string, int>> stack;
    for (const auto& name : sysfs::listDirectory(root + "/devices"))
        if (name.starts_with("pci"))
            stack.emplace_back(root + "/devices/" + name, 0);
    while (!stack.empty()) {
        auto [folder, depth] = stack.back();
        stack.pop_back();
        if (depth > 16)
            continue;
        for (const auto& name : sysfs::listDirectory(folder)) {
            if (!pci::isAddress(name))
                continue;
            const std::string child = folder + "/" + name;
            functions.emplace_back(child);
            stack.emplace_back(child, depth + 1);
        }
    }
    return functions;
}

bool isNvidiaGpu(const fs::path& function)
{
    const std::string base = function.string() + "/";
    const auto vendor = sysfs::readUnsigned(base + "vendor");
    const auto pciClass = sysfs::readUnsigned(base + "class");
    if (!vendor || !pciClass || *vendor != 0x10de)
        return false;
    const auto baseAndSub = *pciClass >> 8;
    return baseAndSub == 0x0302 || baseAndSub == 0x0300; // 3D controller, VGA controller
}

/// Assigns each GPU its closest RDMA device (see the comment in inventory()).
void placeGpus(std::vector<Gpu>& gpus, const std::vector<pci::Placement>& gpuPlaces,
    const std::vector<RdmaDevice>& devices, const std::vector<std::optional<pci::Placement>>& devicePlaces)
{
    // Best candidates per GPU: smallest rank, and within PXB the fewest bridges (PIX paths are
    // all one switch; PHB, NODE and SYS all go through the root complex, where the number of
    // bridges says nothing about distance); among those, rail NICs before others.
    const auto closeness = [](const pci::Relation& r) { return std::pair(r.rank, r.word == "PXB" ? r.hops : 0); };
    std::vector<std::vector<Candidate>> best(gpus.size());
    for (std::size_t g = 0; g < gpus.size(); ++g) {
        for (std::size_t d = 0; d < devices.size(); ++d) {
            if (!devicePlaces[d])
                continue;
            Candidate candidate { d, pci::relate(gpuPlaces[g], *devicePlaces[d]) };
            auto& list = best[g];
            if (!list.empty()) {
                const auto current = closeness(list.front().relation);
                if (closeness(candidate.relation) > current)
                    continue;
                if (closeness(candidate.relation) < current)
                    list.clear();
            }
            list.push_back(std::move(candidate));
        }
        auto& list = best[g];
        const bool anyRail = std::any_of(list.begin(), list.end(), [&](const Candidate& c) { return devices[c.device].rail >= 0; });
        if (anyRail)
            list.erase(std::remove_if(list.begin(), list.end(), [&](const Candidate& c) { return devices[c.device].rail < 0; }), list.end());
        std::sort(list.begin(), list.end(), [&](const Candidate& a, const Candidate& b) {
            return devices[a.device].pciAddress < devices[b.device].pciAddress;
        });
    }
    // GPUs with the same set of equally close NICs share them in PCI order: the j-th such GPU
    // takes the (j mod n)-th NIC (two GPUs and two NICs under one switch pair up 1:1).
    std::map<std::vector<std::size_t>, int> seen;
    for (std::size_t g = 0; g < gpus.size(); ++g) {
        const auto& list = best[g];
        if (list.empty())
            continue;
        std::vector<std::size_t> key;
        for (const auto& c : list)
            key.push_back(c.device);
        const int j = seen[key]++;
        const Candidate& chosen = list[static_cast<std::size_t>(j) % list.size()];
        Gpu& gpu = gpus[g];
        gpu.closestNic = devices[chosen.device].name;
        gpu.pathToNic = chosen.relation.word;

        // ACS on the bridges that peer traffic between the two crosses.
        std::vector<Tri> states;
        for (const auto& bridge : chosen.relation.bridgesOnPath) {
            fs::path folder = ancestorNamed(gpuPlaces[g].path, bridge);
            if (folder.empty())
                folder = ancestorNamed(devicePlaces[chosen.device]->path, bridge);
            states.push_back(folder.empty() ? Tri::Unknown : pci::acsRedirect(sysfs::readBinary(folder.string() + "/config", 4096)));
        }
        gpu.acsOnPath = pci::combineAcs(states);
    }
}

} // namespace

NodeReader::NodeReader(NodeOptions options, NodeSources sources)
    : m_options(std::move(options))
    , m_sources(std::move(sources))
{
}

Inventory NodeReader::inventory() const
{
    const std::string root = rootString(m_options.sysfsRoot);
    Inventory inventory;
    inventory.hostname = hostName();
    inventory.node = m_options.node.empty() ? inventory.hostname : m_options.node;
    inventory.nodeType = m_options.nodeType;
    auto& warnings = inventory.warnings;

    if (!sysfs::exists(root + "/class"))
        warnings.push_back("sysfs root " + root + " has no class/ folder: is it a sysfs tree (--sysfs-root)?");

    const auto scanned = scanDevices(root, m_options.railMap);
    std::vector<std::optional<pci::Placement>> devicePlaces;
    for (const auto& scan : scanned) {
        RdmaDevice device;
        device.name = scan.name;
        device.rail = scan.rail;
        device.pciAddress = scan.pciAddress;
        const std::string& what = scan.name;
        readOrWarn(scan.dir + "/hca_type", what, "hca_type", device.hcaType, warnings);
        readOrWarn(scan.dir + "/fw_ver", what, "fw_ver", device.fwVersion, warnings);
        readOrWarn(scan.dir + "/board_id", what, "board_id", device.boardId, warnings);
        readOrWarn(scan.dir + "/node_guid", what, "node_guid", device.nodeGuid, warnings);
        readOrWarn(scan.dir + "/sys_image_guid", what, "sys_image_guid", device.sysImageGuid, warnings);
        readOrWarn(scan.dir + "/node_desc", what, "node_desc", device.nodeDesc, warnings);

        auto place = placementOf(scan.dir + "/device");
        if (place) {
            device.numaNode = place->numaNode;
            device.pcie = readPcieLink(place->path);
        } else {
            warnings.push_back(what + ": device (its PCI function) unresolvable: no PCI placement, so no NUMA node, "
                                      "PCIe link or GPU affinity for it");
        }
        devicePlaces.push_back(std::move(place));

        if (scan.ports.empty())
            warnings.push_back(what + ": no ports/ entries");
        for (const auto& scannedPort : scan.ports) {
            RdmaPort port;
            readPort(scannedPort, what, port, warnings);
            device.ports.push_back(std::move(port));
        }
        if (!scan.ports.empty())
            device.netdev = scan.ports.front().netdev;
        if (!device.netdev.empty()) {
            std::string mtu;
            if (sysfs::readText(root + "/class/net/" + device.netdev + "/mtu", mtu)
                || sysfs::readText(scan.dir + "/device/net/" + device.netdev + "/mtu", mtu))
                device.mtu = static_cast<int>(sysfs::parseUnsigned(mtu).value_or(0));
            else
                warnings.push_back(what + ": class/net/" + device.netdev + "/mtu unreadable");
        }

        const bool ethernet = std::any_of(device.ports.begin(), device.ports.end(),
            [](const RdmaPort& p) { return p.linkLayer == LinkLayer::Ethernet; });
        if (ethernet && !device.netdev.empty()) {
            if (m_sources.dcb)
                device.qos = m_sources.dcb->read(device.netdev);
            device.qos.ecnNp = readEcn(root, device.netdev, "roce_np");
            device.qos.ecnRp = readEcn(root, device.netdev, "roce_rp");
            if (!device.qos.pfcKnown)
                warnings.push_back(what + ": PFC settings of " + device.netdev + " not readable (DCB)");
            if (!sysfs::exists(root + "/class/net/" + device.netdev + "/ecn"))
                warnings.push_back(what + ": class/net/" + device.netdev
                    + "/ecn missing: ECN/DCQCN settings unknown (the files come with NVIDIA's mlx5 driver stack)");
        }
        inventory.devices.push_back(std::move(device));
    }

    // IP state of the RoCE netdevs (addresses, rules, routes, rp_filter/ARP): what a routed RoCEv2
    // host needs so that each rail's traffic leaves by its own NIC. Not read on InfiniBand hosts.
    if (m_sources.network) {
        std::set<std::string> netdevs;
        for (const RdmaDevice& device : inventory.devices) {
            for (const RdmaPort& port : device.ports) {
                if (port.linkLayer != LinkLayer::Ethernet)
                    continue;
                if (!device.netdev.empty())
                    netdevs.insert(device.netdev);
                for (const GidEntry& gid : port.gids)
                    if (!gid.netdev.empty())
                        netdevs.insert(gid.netdev);
            }
        }
        if (!netdevs.empty())
            inventory.network = assembleHostNetwork(m_sources.network->dumps(), m_sources.network->procRoot(),
                std::vector<std::string>(netdevs.begin(), netdevs.end()), warnings);
    }

    // LLDP neighbours go to the device whose netdev (or RoCE netdev, or a slave of its bond)
    // is the neighbour's local interface.
    if (m_sources.lldp) {
        const auto neighbours = m_sources.lldp->read();
        if (!neighbours.empty()) {
            for (std::size_t d = 0; d < inventory.devices.size(); ++d) {
                std::set<std::string> names;
                for (const auto& port : scanned[d].ports) {
                    for (const auto* name : { &port.netdev, &port.roceNetdev }) {
                        if (name->empty())
                            continue;
                        names.insert(*name);
                        std::string slaves;
                        if (sysfs::readText(root + "/class/net/" + *name + "/bonding/slaves", slaves)) {
                            std::size_t start = 0;
                            while (start < slaves.size()) {
                                auto end = slaves.find(' ', start);
                                if (end == std::string::npos)
                                    end = slaves.size();
                                if (end > start)
                                    names.insert(slaves.substr(start, end - start));
                                start = end + 1;
                            }
                        }
                    }
                }
                for (const auto& neighbour : neighbours)
                    if (names.count(neighbour.localInterface))
                        inventory.devices[d].lldp.push_back(neighbour);
            }
        }
    }

    // GPUs: NVIDIA display/3D functions in PCI address order (CUDA_DEVICE_ORDER=PCI_BUS_ID).
    // closestNic: the RDMA device with the smallest relation rank (and, for PXB, the fewest
    // bridges on the path), see pci::relate for the words; among equals, rail NICs before others, and GPUs sharing the
    // same equally close NICs take them in PCI order (GPU j of that group gets NIC j mod n).
    // acsOnPath: ACS redirection on the bridges between the GPU and that NIC (pci::acsRedirect).
    std::vector<pci::Placement> gpuPlaces;
    const auto models = m_sources.gpu ? m_sources.gpu->modelNames() : std::map<std::string, std::string> {};
    for (const auto& function : pciFunctions(root)) {
        if (!isNvidiaGpu(function))
            continue;
        auto place = placementOf(function);
        if (!place) {
            warnings.push_back("GPU " + function.filename().string() + ": PCI path unresolvable");
            continue;
        }
        gpuPlaces.push_back(std::move(*place));
    }
    std::sort(gpuPlaces.begin(), gpuPlaces.end(), [](const auto& a, const auto& b) { return a.address < b.address; });
    gpuPlaces.erase(std::unique(gpuPlaces.begin(), gpuPlaces.end(), [](const auto& a, const auto& b) { return a.address == b.address; }),
        gpuPlaces.end());
    for (std::size_t g = 0; g < gpuPlaces.size(); ++g) {
        Gpu gpu;
        gpu.index = static_cast<int>(g);
        gpu.pciAddress = gpuPlaces[g].address;
        gpu.numaNode = gpuPlaces[g].numaNode;
        gpu.pcie = readPcieLink(gpuPlaces[g].path);
        if (const auto it = models.find(gpu.pciAddress); it != models.end())
            gpu.name = it->second;
        inventory.gpus.push_back(std::move(gpu));
    }
    placeGpus(inventory.gpus, gpuPlaces, inventory.devices, devicePlaces);

    // GPUDirect RDMA: nvidia-peermem (or the older nv_peer_mem) loaded shows as module/<name>.
    if (sysfs::exists(root + "/module/nvidia_peermem") || sysfs::exists(root + "/module/nv_peer_mem"))
        inventory.gpuDirect.peermem = Tri::On;
    else if (sysfs::exists(root + "/module/nvidia"))
        inventory.gpuDirect.peermem = Tri::Off;
    if (m_sources.gpu)
        inventory.gpuDirect.dmabuf = m_sources.gpu->dmabuf();

    // Subnet manager: the SM LID seen by the first active IB port; the routing engine only
    // from OpenSM's own log.
    for (const auto& device : inventory.devices) {
        for (const auto& port : device.ports) {
            if (port.linkLayer == LinkLayer::InfiniBand && port.state == 4 && port.smLid > 0 && !inventory.subnetManager) {
                inventory.subnetManager = SubnetManager {};
                inventory.subnetManager->masterLid = port.smLid;
            }
        }
    }
    if (!m_options.opensmLog.empty()) {
        std::string log;
        std::string error;
        const std::string path = m_options.opensmLog.string();
        if (sysfs::readFile(path, log, &error, std::size_t { 64 } << 20)) {
            if (auto engine = parseOpensmRoutingEngine(log); !engine.empty()) {
                if (!inventory.subnetManager)
                    inventory.subnetManager = SubnetManager {};
                inventory.subnetManager->routingEngine = std::move(engine);
            }
        } else {
            warnings.push_back("OpenSM log " + path + " unreadable: " + error);
        }
    }
    return inventory;
}

CounterSnapshot NodeReader::counters() const
{
    CounterSnapshot snapshot;
    snapshot.timestampMs = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    snapshot.node = m_options.node.empty() ? hostName() : m_options.node;
    const std::string root = rootString(m_options.sysfsRoot);
    for (const auto& device : scanDevices(root, m_options.railMap)) {
        for (const auto& port : device.ports) {
            PortCounters counters;
            counters.device = device.name;
            counters.port = port.number;
            counters.rail = device.rail;
            counters.netdev = port.netdev;
            for (const bool hw : { false, true }) {
                const sysfs::Directory folder(port.dir + (hw ? "/hw_counters" : "/counters"));
                auto& into = hw ? counters.hwCounters : counters.counters;
                for (auto& name : folder.names()) {
                    const auto value = folder.readUnsigned(name);
                    if (!value)
                        continue; // "N/A (no PMA)", a failed PMA query: not a value
                    const Counter counter = hw ? sysfs::hwCounter(name, *value) : sysfs::portCounter(name, *value);
                    into.emplace(std::move(name), counter);
                }
            }
            if (m_sources.ethtool && !port.netdev.empty())
                counters.ethtool = m_sources.ethtool->read(port.netdev);
            snapshot.ports.push_back(std::move(counters));
        }
    }
    return snapshot;
}

} // namespace railyard::live
