// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/dumps.h"

#include "live/common/text_scan.h"
#include "live/common/tool_parsers.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <system_error>

namespace railyard::live {

namespace fs = std::filesystem;

namespace {

    constexpr const char* kIbstat = "ibstat.txt";
    constexpr const char* kIbdev2netdev = "ibdev2netdev.txt";
    constexpr const char* kTopo = "nvidia-smi-topo.txt";
    constexpr const char* kLldp = "lldpctl.txt";
    constexpr const char* kLsmod = "lsmod.txt";
    constexpr const char* kEthtoolPrefix = "ethtool-S-";
    constexpr const char* kMlnxQosPrefix = "mlnx_qos-";
    constexpr const char* kDcbPfcPrefix = "dcb-pfc-";

    const char* const kLayout = "one folder per node with ibstat.txt, ibdev2netdev.txt, nvidia-smi-topo.txt, lldpctl.txt, "
                                "ethtool-S-<netdev>.txt, mlnx_qos-<netdev>.txt (see `railyard-cli live check --help`)";

    enum class Read { Ok, Missing, Failed };

    /// The file of `dir` that `name` names. A name made of what a dump says (a netdev's from
    /// ibdev2netdev.txt) is UTF-8, each invalid part a U+FFFD, and the file on disk is named with
    /// the netdev's own bytes: it is then the file whose name reads as `name` (the least such name
    /// in byte order, should two read the same).
    fs::path dumpPath(const fs::path& dir, const std::string& name)
    {
        constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
        fs::path path = dir / name;
        std::error_code ec;
        if (fs::exists(path, ec) || name.find(kReplacement) == std::string::npos)
            return path;
        std::optional<std::string> match;
        for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
            std::string onDisk = it->path().filename().string();
            if (onDisk != name && (!match || onDisk < *match) && text::validUtf8(onDisk) == name)
                match = std::move(onDisk);
        }
        return match ? dir / *match : path;
    }

    /// Reads `name` in `dir` (dumpPath) as valid UTF-8 (text::validUtf8: the inventory, its
    /// warnings and the report quote the file, and must print); a file that exists but cannot be
    /// read adds a warning.
    Read readDump(const fs::path& dir, const std::string& name, std::string& text, std::vector<std::string>& warnings)
    {
        std::error_code ec;
        const fs::path path = dumpPath(dir, name);
        if (!fs::exists(path, ec))
            return Read::Missing;
        std::ifstream in(path, std::ios::binary);
        std::ostringstream ss;
        if (in)
            ss << in.rdbuf();
        if (!in || in.bad()) {
            warnings.push_back(name + ": cannot be read; what it would tell stays unknown");
            return Read::Failed;
        }
        text = text::validUtf8(ss.str());
        return Read::Ok;
    }

    void addWarnings(std::vector<std::string>& to, const std::string& file, const std::vector<std::string>& from)
    {
        for (const auto& w : from)
            to.push_back(file + ": " + w);
    }

    std::string parseFailure(const std::string& file, const core::Error& e, const std::string& unknown)
    {
        return file + ": " + e.message + "; " + unknown + " unknown";
    }

    bool looksLikePciAddress(const std::string& s)
    {
        // "0000:18:00.0" or "18:00.0"
        return s.find(':') != std::string::npos && s.find('.') != std::string::npos;
    }

    RdmaDevice* findDevice(std::vector<RdmaDevice>& devices, const std::string& name)
    {
        const auto it = std::find_if(devices.begin(), devices.end(), [&](const RdmaDevice& d) { return d.name == name; });
        return it == devices.end() ? nullptr : &*it;
    }

    RdmaDevice* findByNetdev(std::vector<RdmaDevice>& devices, const std::string& netdev)
    {
        const auto it = std::find_if(devices.begin(), devices.end(), [&](const RdmaDevice& d) { return !d.netdev.empty() && d.netdev == netdev; });
        return it == devices.end() ? nullptr : &*it;
    }

    bool isNicColumnName(const std::string& s)
    {
        return s.size() > 3 && s.compare(0, 3, "NIC") == 0 && std::all_of(s.begin() + 3, s.end(), [](char c) { return c >= '0' && c <= '9'; });
    }

} // namespace

core::Result<std::vector<std::string>> dumpNodes(const fs::path& dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        return core::Error { "DUMPS_FOLDER", "not a folder", dir.string(), std::string("give the folder of per-node command outputs: ") + kLayout };
    std::vector<std::string> nodes;
    fs::directory_iterator it(dir, ec);
    if (ec)
        return core::Error { "DUMPS_FOLDER", "cannot be read: " + ec.message(), dir.string(), "check the folder's permissions" };
    for (const fs::directory_iterator end; it != end; it.increment(ec)) {
        if (ec)
            return core::Error { "DUMPS_FOLDER", "cannot be read: " + ec.message(), dir.string(), "check the folder's permissions" };
        const std::string name = it->path().filename().string();
        std::error_code dirEc;
        if (name.empty() || name.front() == '.' || !it->is_directory(dirEc))
            continue;
        nodes.push_back(name);
    }
    if (nodes.empty())
        return core::Error { "DUMPS_FOLDER", "holds no node folder", dir.string(), std::string("lay the outputs out as ") + kLayout };
    std::sort(nodes.begin(), nodes.end());
    return nodes;
}

core::Result<Inventory> inventoryFromDumps(const fs::path& nodeDir, const std::string& node, const std::vector<std::string>& railMap)
{
    std::error_code ec;
    if (!fs::is_directory(nodeDir, ec))
        return core::Error { "DUMPS_FOLDER", "node " + node + ": not a folder", nodeDir.string(), std::string("lay the outputs out as ") + kLayout };
    std::set<std::string> files;
    for (fs::directory_iterator it(nodeDir, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code fileEc;
        if (it->is_regular_file(fileEc))
            files.insert(it->path().filename().string());
    }
    if (ec)
        return core::Error { "DUMPS_FOLDER", "node " + node + ": cannot be read: " + ec.message(), nodeDir.string(), "check the folder's permissions" };

    Inventory inv;
    inv.node = node;
    auto& warnings = inv.warnings;
    std::string text;

    // Devices and ports.
    bool haveIbstat = false;
    switch (readDump(nodeDir, kIbstat, text, warnings)) {
    case Read::Missing:
        warnings.push_back(std::string(kIbstat) + ": missing; port state, rate, firmware and GUIDs unknown (save `ibstat` there)");
        break;
    case Read::Failed:
        break;
    case Read::Ok: {
        std::vector<std::string> w;
        auto devices = parseIbstat(text, w);
        addWarnings(warnings, kIbstat, w);
        if (devices) {
            inv.devices = std::move(devices).value();
            haveIbstat = true;
        } else {
            warnings.push_back(parseFailure(kIbstat, devices.error(), "devices, port state and firmware"));
        }
        break;
    }
    }

    // Netdevs.
    switch (readDump(nodeDir, kIbdev2netdev, text, warnings)) {
    case Read::Missing:
        warnings.push_back(std::string(kIbdev2netdev) + ": missing; netdev names unknown, so LLDP neighbours and QoS cannot be tied to devices "
                                                        "(save `ibdev2netdev` there)");
        break;
    case Read::Failed:
        break;
    case Read::Ok: {
        std::vector<std::string> w;
        const auto links = parseIbdev2netdev(text, w);
        addWarnings(warnings, kIbdev2netdev, w);
        if (!links) {
            warnings.push_back(parseFailure(kIbdev2netdev, links.error(), "netdev names"));
            break;
        }
        for (const NetdevLink& link : *links) {
            RdmaDevice* d = findDevice(inv.devices, link.device);
            if (!d && !haveIbstat) {
                RdmaDevice added;
                added.name = link.device;
                inv.devices.push_back(std::move(added));
                d = &inv.devices.back();
            }
            if (!d) {
                warnings.push_back(std::string(kIbdev2netdev) + ": " + link.device + " (" + link.netdev + ") is not in ibstat.txt");
                continue;
            }
            if (d->netdev.empty())
                d->netdev = link.netdev;
        }
        break;
    }
    }

    // GPUs and their closest NIC.
    switch (readDump(nodeDir, kTopo, text, warnings)) {
    case Read::Missing:
        warnings.push_back(std::string(kTopo) + ": missing; GPUs and GPU-NIC affinity unknown (save `nvidia-smi topo -m` there)");
        break;
    case Read::Failed:
        break;
    case Read::Ok: {
        std::vector<std::string> w;
        const auto topo = parseNvidiaSmiTopo(text, w);
        addWarnings(warnings, kTopo, w);
        if (!topo) {
            warnings.push_back(parseFailure(kTopo, topo.error(), "GPUs and GPU-NIC affinity"));
            break;
        }
        if (!haveIbstat) {
            for (const std::string& nic : topo->nics) {
                if (!isNicColumnName(nic) && !findDevice(inv.devices, nic)) {
                    RdmaDevice added;
                    added.name = nic;
                    inv.devices.push_back(std::move(added));
                }
            }
        }
        for (std::size_t g = 0; g < topo->gpus.size(); ++g) {
            Gpu gpu;
            // "GPU3" -> 3 (the parser checked the digits); an index past int is no GPU nvidia-smi prints.
            const std::string_view digits = std::string_view(topo->gpus[g]).substr(3);
            if (const auto [end, parsed] = std::from_chars(digits.data(), digits.data() + digits.size(), gpu.index);
                parsed != std::errc() || end != digits.data() + digits.size()) {
                warnings.push_back(std::string(kTopo) + ": " + topo->gpus[g] + " is no GPU index; its row is left out");
                continue;
            }
            gpu.numaNode = topo->gpuNuma[g];
            const auto& row = topo->gpuToNic[g];
            const auto best = closestNic(*topo, g);
            const bool rowComplete = std::none_of(row.begin(), row.end(), [](const std::string& c) { return c.empty(); });
            if (best && (rowComplete || row[*best] == "PIX")) {
                const std::string& nic = topo->nics[*best];
                if (isNicColumnName(nic)) {
                    warnings.push_back(std::string(kTopo) + ": " + topo->gpus[g] + " is closest to " + nic
                        + ", which no NIC legend names; its closest NIC stays unknown");
                } else {
                    gpu.closestNic = nic;
                    gpu.pathToNic = row[*best];
                }
            } else if (!rowComplete) {
                warnings.push_back(std::string(kTopo) + ": the row of " + topo->gpus[g] + " is incomplete; its closest NIC stays unknown");
            }
            inv.gpus.push_back(std::move(gpu));
        }
        std::sort(inv.gpus.begin(), inv.gpus.end(), [](const Gpu& a, const Gpu& b) { return a.index < b.index; });
        break;
    }
    }

    // Rails, from the node type's rail map by device name.
    bool pciEntries = false;
    for (std::size_t k = 0; k < railMap.size(); ++k) {
        if (RdmaDevice* d = findDevice(inv.devices, railMap[k]))
            d->rail = static_cast<int>(k);
        else if (looksLikePciAddress(railMap[k]))
            pciEntries = true;
    }
    if (pciEntries)
        warnings.push_back("the rail map names NICs by PCI address, and the dumps have none (ibstat and ibdev2netdev print device names): "
                           "rails of those NICs unknown");

    // LLDP neighbours.
    const bool anyEthernetOrUnknown = inv.devices.empty()
        || std::any_of(inv.devices.begin(), inv.devices.end(), [](const RdmaDevice& d) {
               return d.ports.empty() || std::any_of(d.ports.begin(), d.ports.end(), [](const RdmaPort& p) { return p.linkLayer != LinkLayer::InfiniBand; });
           });
    switch (readDump(nodeDir, kLldp, text, warnings)) {
    case Read::Missing:
        if (anyEthernetOrUnknown)
            warnings.push_back(std::string(kLldp) + ": missing; Ethernet cabling (LLDP neighbours) unknown (save `lldpctl -f keyvalue` there)");
        break;
    case Read::Failed:
        break;
    case Read::Ok: {
        std::vector<std::string> w;
        auto neighbours = parseLldpctlKeyvalue(text, w);
        addWarnings(warnings, kLldp, w);
        if (!neighbours) {
            warnings.push_back(parseFailure(kLldp, neighbours.error(), "LLDP neighbours"));
            break;
        }
        for (LldpNeighbor& n : *neighbours) {
            if (RdmaDevice* d = findByNetdev(inv.devices, n.localInterface))
                d->lldp.push_back(std::move(n));
            else
                warnings.push_back(std::string(kLldp) + ": neighbour " + (n.systemName.empty() ? n.chassisId : n.systemName) + " on "
                    + n.localInterface + ", which is no RDMA device's netdev (ibdev2netdev.txt)");
        }
        break;
    }
    }

    // QoS per netdev.
    std::set<std::string> usedFiles { kIbstat, kIbdev2netdev, kTopo, kLldp, kLsmod };
    for (RdmaDevice& d : inv.devices) {
        if (d.netdev.empty())
            continue;
        const std::string qosFile = kMlnxQosPrefix + d.netdev + ".txt";
        const std::string dcbFile = kDcbPfcPrefix + d.netdev + ".txt";
        for (const std::string& file : { qosFile, dcbFile, kEthtoolPrefix + d.netdev + ".txt" })
            usedFiles.insert(dumpPath(nodeDir, file).filename().string());
        const Read q = readDump(nodeDir, qosFile, text, warnings);
        if (q == Read::Ok) {
            std::vector<std::string> w;
            const auto qos = parseMlnxQos(text, w);
            addWarnings(warnings, qosFile, w);
            if (qos) {
                d.qos.pfcKnown = qos->pfcKnown;
                d.qos.pfcEnabled = qos->pfcEnabled;
                d.qos.trust = qos->trust;
            } else {
                warnings.push_back(parseFailure(qosFile, qos.error(), "PFC and trust of " + d.name));
            }
            continue;
        }
        if (q == Read::Failed)
            continue;
        const Read p = readDump(nodeDir, dcbFile, text, warnings);
        if (p == Read::Ok) {
            std::vector<std::string> w;
            const auto pfc = parseDcbPfc(text, w);
            addWarnings(warnings, dcbFile, w);
            if (pfc) {
                d.qos.pfcKnown = pfc->prioPfcKnown;
                d.qos.pfcEnabled = pfc->prioPfc;
            } else {
                warnings.push_back(parseFailure(dcbFile, pfc.error(), "PFC of " + d.name));
            }
            continue;
        }
        const bool ethernet = std::any_of(d.ports.begin(), d.ports.end(), [](const RdmaPort& port) { return port.linkLayer == LinkLayer::Ethernet; });
        if (p == Read::Missing && ethernet && d.rail >= 0)
            warnings.push_back(qosFile + ": missing; PFC and trust of " + d.name + " (rail " + std::to_string(d.rail) + ") unknown (save `mlnx_qos -i "
                + d.netdev + "` there)");
    }

    // GPUDirect: only nvidia-peermem can be told, from lsmod.
    switch (readDump(nodeDir, kLsmod, text, warnings)) {
    case Read::Missing:
        warnings.push_back(std::string(kLsmod) + ": missing; whether nvidia-peermem is loaded (GPUDirect RDMA) unknown (save `lsmod` there)");
        break;
    case Read::Failed:
        break;
    case Read::Ok: {
        const auto modules = parseLsmod(text);
        if (!modules) {
            warnings.push_back(parseFailure(kLsmod, modules.error(), "GPUDirect"));
            break;
        }
        const bool peermem = std::any_of(modules->begin(), modules->end(), [](const std::string& m) { return m == "nvidia_peermem" || m == "nv_peer_mem"; });
        inv.gpuDirect.peermem = peermem ? Tri::On : Tri::Off;
        break;
    }
    }

    // Files nobody read: a typo in a name should not pass in silence. A name is bytes, and the
    // warning must stay UTF-8.
    std::set<std::string> usedAsRead;
    for (const std::string& name : usedFiles)
        usedAsRead.insert(text::validUtf8(name));
    for (const std::string& name : files) {
        if (usedFiles.contains(name))
            continue;
        const std::string f = text::validUtf8(name);
        const bool perNetdev = f.rfind(kMlnxQosPrefix, 0) == 0 || f.rfind(kDcbPfcPrefix, 0) == 0 || f.rfind(kEthtoolPrefix, 0) == 0;
        if (perNetdev && f != name && usedAsRead.contains(f))
            warnings.push_back(f + ": another file whose name reads the same was read for this netdev (its name is not UTF-8, and of the "
                                   "files that read as it the first in byte order is taken); not read");
        else if (perNetdev)
            warnings.push_back(f + ": names a netdev that no RDMA device uses (ibdev2netdev.txt); not read");
        else
            warnings.push_back(f + ": not a file the dumps reader knows; not read");
    }
    return inv;
}

CounterSnapshot countersFromDumps(const fs::path& nodeDir, const Inventory& inventory, std::vector<std::string>& warnings)
{
    CounterSnapshot snap;
    snap.node = inventory.node;
    fs::file_time_type newest {};
    bool any = false;
    std::string text;
    for (const RdmaDevice& d : inventory.devices) {
        if (d.netdev.empty())
            continue;
        const std::string file = kEthtoolPrefix + d.netdev + ".txt";
        if (readDump(nodeDir, file, text, warnings) != Read::Ok)
            continue;
        std::vector<std::string> w;
        auto stats = parseEthtoolStats(text, w);
        addWarnings(warnings, file, w);
        if (!stats) {
            warnings.push_back(parseFailure(file, stats.error(), "ethtool statistics of " + d.name));
            continue;
        }
        PortCounters pc;
        pc.device = d.name;
        pc.port = d.ports.empty() ? 1 : d.ports.front().number;
        pc.rail = d.rail;
        pc.netdev = d.netdev;
        pc.ethtool = std::move(stats).value();
        snap.ports.push_back(std::move(pc));
        std::error_code ec;
        const auto t = fs::last_write_time(nodeDir / file, ec);
        if (!ec && (!any || t > newest)) {
            newest = t;
            any = true;
        }
    }
    if (any) {
        const auto sys = std::chrono::file_clock::to_sys(newest);
        snap.timestampMs = std::chrono::duration_cast<std::chrono::milliseconds>(sys.time_since_epoch()).count();
    }
    return snap;
}

} // namespace railyard::live
