// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The planned fabric in ibnetdiscover's topology format, one subnet (plane) per file.
//
// The text follows what `ibnetdiscover` (infiniband-diags) prints, and what ibsim's parser
// (ibsim/sim_net.c) reads back. Choices, checked against ibsim 0.10 (Debian 12):
// - Every node block starts with vendid/devid/sysimgguid and switchguid=/caguid=. ibsim
//   takes a node's GUID from the last switchguid/caguid line (without them it numbers nodes
//   itself), so the GUIDs below survive into the emulated subnet. An adapter's port GUID is
//   its node GUID + 1, as ibsim assigns it.
// - Node ids are "S-<guid>" and "H-<guid>" (16 hex digits); the peer of every port line is
//   written by id and port, so each link appears from both ends.
// - Switch descriptions are the plan's device names (su1-rail0-leaf); an adapter is one NIC
//   port of a node, described by its plan port name (node001/nic0, node001/nic0-p2,
//   mgmt1/1), so discovery output maps straight back to the plan. Descriptions are cut to
//   63 bytes (the NodeDescription field), and '"' and '=' are replaced: ibsim ends a
//   quoted name at '"' and reads any "x=" after a port as a port option (w=, s=, e=).
// - Widths are written as planned (1x/2x/4x/8x); ibsim 0.10 aborts when a link's two ends
//   disagree, and both ends are written alike. Its speed parser knows SDR, DDR, QDR, FDR10,
//   FDR, EDR and HDR; any other name is warned about on every port and the port falls back
//   to SDR. IbnetSpeeds::Ibsim therefore writes NDR and XDR as HDR (the link comes up at
//   4xHDR), and says so in the header comment; IbnetSpeeds::Planned writes the real grade.
// - LIDs are assigned in file order (switches, then adapter ports) from 1; OpenSM may keep
//   or replace them. Past the unicast range (0xBFFF) a LID is written as 0.
// - Lines stay well under ibsim's 256-character line limit.
#include "planner/exporters.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <initializer_list>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace railyard::planner {

namespace {

    constexpr std::uint64_t kGuidPrefix = 0x5259; // "RY", a locally administered prefix
    constexpr int kMaxDescription = 63;
    constexpr int kMaxUnicastLid = 0xBFFF;
    constexpr unsigned kMellanoxVendor = 0x2c9;
    constexpr std::size_t kChunkBytes = std::size_t { 1 } << 20;

    void flushChunk(std::string& text, std::ostream& out)
    {
        if (text.size() < kChunkBytes)
            return;
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        text.clear();
    }

    struct DeviceId {
        std::string_view catalogId;
        unsigned devid;
    };
    // PCI device ids that NVIDIA (Mellanox) parts report in NodeInfo.
    constexpr std::array<DeviceId, 7> kDeviceIds { {
        { "qm8700", 0xcf08 }, // Quantum
        { "qm9700", 0xd2f2 }, // Quantum-2
        { "q3400", 0xd2f4 },  // Quantum-3
        { "connectx-6", 0x101b },
        { "connectx-7", 0x1021 },
        { "connectx-8", 0x1023 },
        { "bluefield-3", 0xa2dc },
    } };

    unsigned devidOf(std::string_view catalogId)
    {
        for (const auto& entry : kDeviceIds)
            if (entry.catalogId == catalogId)
                return entry.devid;
        return 0;
    }

    std::uint64_t makeGuid(std::uint32_t device, unsigned slot, int plane)
    {
        return (kGuidPrefix << 48) | (static_cast<std::uint64_t>(plane & 0xff) << 40)
            | (static_cast<std::uint64_t>(device) << 8) | (slot & 0xff);
    }

    bool isSwitch(const core::Plan& plan, std::uint32_t device)
    {
        return device < plan.devices.size() && plan.devices[device].kind == core::DeviceKind::Switch;
    }

    /// Key of one adapter (a node's NIC port in one plane, or a management port).
    std::uint64_t adapterKey(const core::PortRef& end)
    {
        return (static_cast<std::uint64_t>(end.device) << 24) | (static_cast<std::uint64_t>(end.port) << 8)
            | end.plane;
    }

    std::string description(std::string_view name)
    {
        std::string out(name.substr(0, kMaxDescription));
        if (name.size() > static_cast<std::size_t>(kMaxDescription)) {
            // Do not leave half a UTF-8 sequence at the end.
            while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80)
                out.pop_back();
            if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0x80))
                out.pop_back();
        }
        for (char& c : out) {
            if (c == '"')
                c = '\'';
            else if (c == '=')
                c = '-';
            else if (static_cast<unsigned char>(c) < 0x20)
                c = ' ';
        }
        return out;
    }

    std::string hex(std::uint64_t value, bool padded)
    {
        char buf[24];
        std::snprintf(buf, sizeof buf, padded ? "%016llx" : "%llx", static_cast<unsigned long long>(value));
        return buf;
    }

    std::string num(long long value)
    {
        return std::to_string(value);
    }

    void append(std::string& text, std::initializer_list<std::string_view> parts)
    {
        for (auto part : parts)
            text += part;
    }

    /// One adapter: the node-side end of an installed link.
    struct Adapter {
        core::PortRef end;
        std::size_t link = 0;
        int lid = 0;
    };

    /// The subnet of one plane: its switches, adapters and links, with LIDs.
    struct Subnet {
        const core::Plan& plan;
        int plane = 1;
        std::string speed; ///< "4xHDR"
        std::vector<std::uint32_t> switches;
        std::vector<std::vector<std::pair<std::uint16_t, std::size_t>>> switchPorts; ///< per switch: port, link
        std::unordered_map<std::uint32_t, std::size_t> switchIndex;
        std::vector<Adapter> adapters;
        std::unordered_map<std::uint64_t, std::size_t> adapterIndex;

        int switchLid(std::size_t index) const { return lidOrZero(static_cast<long long>(index) + 1); }
        static int lidOrZero(long long lid) { return lid <= kMaxUnicastLid ? static_cast<int>(lid) : 0; }
    };

    int planeCount(const core::Plan& plan)
    {
        return std::max({ 1, plan.spec.planes, plan.summary.planes });
    }

    bool switchInPlane(const core::Plan& plan, const core::Device& device, int plane)
    {
        return device.kind == core::DeviceKind::Switch && device.installed
            && (planeCount(plan) == 1 || device.plane == plane);
    }

    void addSwitchEnd(Subnet& net, const core::PortRef& end, std::size_t link)
    {
        const auto it = net.switchIndex.find(end.device);
        if (it != net.switchIndex.end())
            net.switchPorts[it->second].emplace_back(end.port, link);
    }

    void addAdapter(Subnet& net, const core::PortRef& end, std::size_t link)
    {
        const auto [it, added] = net.adapterIndex.emplace(adapterKey(end), net.adapters.size());
        if (added)
            net.adapters.push_back({ end, link, 0 });
    }

    bool linkInSubnet(const Subnet& net, const core::Link& link)
    {
        if (!link.installed)
            return false;
        const bool aSwitch = isSwitch(net.plan, link.a.device);
        const bool bSwitch = isSwitch(net.plan, link.b.device);
        if (!aSwitch && !bSwitch)
            return false;
        return (!aSwitch || net.switchIndex.contains(link.a.device))
            && (!bSwitch || net.switchIndex.contains(link.b.device));
    }

    void collect(Subnet& net)
    {
        const auto& plan = net.plan;
        for (std::uint32_t d = 0; d < plan.devices.size(); ++d) {
            if (switchInPlane(plan, plan.devices[d], net.plane)) {
                net.switchIndex.emplace(d, net.switches.size());
                net.switches.push_back(d);
            }
        }
        net.switchPorts.resize(net.switches.size());
        for (std::size_t i = 0; i < plan.links.size(); ++i) {
            const auto& link = plan.links[i];
            if (!linkInSubnet(net, link))
                continue;
            for (const auto* end : { &link.a, &link.b }) {
                if (isSwitch(plan, end->device))
                    addSwitchEnd(net, *end, i);
                else
                    addAdapter(net, *end, i);
            }
        }
        for (auto& ports : net.switchPorts)
            std::sort(ports.begin(), ports.end());
        for (std::size_t i = 0; i < net.adapters.size(); ++i)
            net.adapters[i].lid = Subnet::lidOrZero(static_cast<long long>(net.switches.size() + i) + 1);
    }

    std::string speedToken(const core::Plan& plan, IbnetSpeeds speeds)
    {
        const auto& rate = plan.summary.port;
        auto generation = rate.generation ? rate.generation : plan.spec.link.generation;
        const int width = rate.generation ? rate.lanes : plan.spec.link.width;
        if (!generation)
            generation = core::IbGeneration::SDR;
        if (speeds == IbnetSpeeds::Ibsim && *generation > core::IbGeneration::HDR)
            generation = core::IbGeneration::HDR;
        return std::to_string(width) + "x" + std::string(core::toString(*generation));
    }

    /// The peer of `self` on link `link`.
    const core::PortRef& peerOf(const core::Link& link, const core::PortRef& self)
    {
        return link.a == self ? link.b : link.a;
    }

    struct Peer {
        std::string id;   ///< "S-..." or "H-..."
        int port = 1;
        std::uint64_t portGuid = 0; ///< adapters only
        std::string description;
        int lid = 0;
    };

    Peer peer(const Subnet& net, const core::PortRef& end)
    {
        const auto& plan = net.plan;
        if (isSwitch(plan, end.device)) {
            const auto index = net.switchIndex.at(end.device);
            return { "S-" + hex(ibnetdiscoverGuid(plan, end, net.plane), true), end.port, 0,
                description(plan.devices[end.device].name), net.switchLid(index) };
        }
        const auto guid = ibnetdiscoverGuid(plan, end, net.plane);
        const auto& adapter = net.adapters[net.adapterIndex.at(adapterKey(end))];
        return { "H-" + hex(guid, true), 1, guid + 1, description(plan.portName(end)), adapter.lid };
    }

    void appendNodeHeader(std::string& text, unsigned devid, std::uint64_t guid, bool isSwitchNode)
    {
        const auto g = hex(guid, false);
        append(text, { "vendid=0x", hex(kMellanoxVendor, false), "\ndevid=0x", hex(devid, false), "\nsysimgguid=0x", g });
        if (isSwitchNode)
            append(text, { "\nswitchguid=0x", g, "(", g, ")\n" });
        else
            append(text, { "\ncaguid=0x", g, "\n" });
    }

    void appendSwitchPort(std::string& text, const Subnet& net, std::uint32_t device, std::uint16_t port,
        const core::Link& link)
    {
        const core::PortRef self = link.a.device == device && link.a.port == port ? link.a : link.b;
        const Peer p = peer(net, peerOf(link, self));
        append(text, { "[", num(port), "]\t\"", p.id, "\"[", num(p.port), "]" });
        if (p.portGuid)
            append(text, { "(", hex(p.portGuid, false), ") " });
        append(text, { "\t\t# \"", p.description, "\" lid ", num(p.lid), " ", net.speed, "\n" });
    }

    void appendSwitch(std::string& text, const Subnet& net, std::size_t index)
    {
        const auto& plan = net.plan;
        const auto device = net.switches[index];
        const auto& dev = plan.devices[device];
        const auto& ports = net.switchPorts[index];
        const auto guid = ibnetdiscoverGuid(plan, { device, 0, 0 }, net.plane);
        appendNodeHeader(text, devidOf(dev.model), guid, true);
        const int count = std::max({ dev.ports, 1, ports.empty() ? 1 : static_cast<int>(ports.back().first) });
        append(text, { "Switch\t", num(count), " \"S-", hex(guid, true), "\"\t\t# \"", description(dev.name),
                         "\" enhanced port 0 lid ", num(net.switchLid(index)), " lmc 0\n" });
        for (const auto& [port, linkIndex] : ports)
            appendSwitchPort(text, net, device, port, plan.links[linkIndex]);
        text += '\n';
    }

    void appendAdapter(std::string& text, const Subnet& net, const Adapter& adapter)
    {
        const auto& plan = net.plan;
        const auto guid = ibnetdiscoverGuid(plan, adapter.end, net.plane);
        appendNodeHeader(text, devidOf(plan.spec.nic), guid, false);
        append(text, { "Ca\t1 \"H-", hex(guid, true), "\"\t\t# \"", description(plan.portName(adapter.end)), "\"\n" });
        const Peer p = peer(net, peerOf(plan.links[adapter.link], adapter.end));
        append(text, { "[1](", hex(guid + 1, false), ") \t\"", p.id, "\"[", num(p.port), "]\t\t# lid ", num(adapter.lid),
                         " lmc 0 \"", p.description, "\" lid ", num(p.lid), " ", net.speed, "\n\n" });
    }

    void appendPreamble(std::string& text, const Subnet& net, IbnetSpeeds speeds)
    {
        const auto& plan = net.plan;
        text += "#\n# Topology file: planned fabric \"" + description(plan.spec.name) + "\", plane "
            + std::to_string(net.plane) + " of " + std::to_string(planeCount(plan)) + " (Railyard)\n";
        text += "# " + std::to_string(net.switches.size()) + " switches, " + std::to_string(net.adapters.size())
            + " channel adapters; port rate "
            + (plan.summary.port.generation ? plan.summary.port.label() : speedToken(plan, IbnetSpeeds::Planned));
        if (speeds == IbnetSpeeds::Ibsim && net.speed != speedToken(plan, IbnetSpeeds::Planned))
            text += ", written as " + net.speed + " (the fastest grade ibsim 0.10 parses)";
        text += "\n#\n\n";
    }

} // namespace

std::uint64_t ibnetdiscoverGuid(const core::Plan& plan, const core::PortRef& end, int plane)
{
    if (isSwitch(plan, end.device))
        return makeGuid(end.device, 0, plane);
    return makeGuid(end.device, 2u * end.port, plane);
}

void writeIbnetdiscover(const core::Plan& plan, std::ostream& out, int plane)
{
    writeIbnetdiscover(plan, out, IbnetdiscoverOptions { plane, IbnetSpeeds::Ibsim });
}

void writeIbnetdiscover(const core::Plan& plan, std::ostream& out, const IbnetdiscoverOptions& options)
{
    std::string text;
    if (plan.spec.fabric != core::Fabric::InfiniBand) {
        text = "# RoCEv2 fabric: there is no InfiniBand subnet to describe\n";
    } else if (options.plane < 1 || options.plane > planeCount(plan)) {
        text = "# plane " + std::to_string(options.plane) + " does not exist: the plan has "
            + std::to_string(planeCount(plan)) + '\n';
    } else {
        Subnet net { plan, options.plane, speedToken(plan, options.speeds), {}, {}, {}, {}, {} };
        collect(net);
        text.reserve(kChunkBytes + 16384);
        appendPreamble(text, net, options.speeds);
        for (std::size_t i = 0; i < net.switches.size(); ++i) {
            appendSwitch(text, net, i);
            flushChunk(text, out);
        }
        for (const auto& adapter : net.adapters) {
            appendAdapter(text, net, adapter);
            flushChunk(text, out);
        }
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

} // namespace railyard::planner
