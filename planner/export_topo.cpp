// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The planned fabric as an IBDM topology file ("topo file"), the format `ibdiagnet
// --topo_file` and `ibdmchk -t` compare a discovered fabric against.
//
// Sources followed:
// - ibdm-topo-file(1) (ibutils, ibdm/doc/ibdm-topo-file.pod and topofile.txt): the file is
//   made of system sections; the first line declares `SYSTEM-TYPE SYSTEM-NAME [CFG: ...]`,
//   the lines that follow, up to the next empty line, are `LOCAL-PORT-PANEL-NAME ->
//   REM-SYS-TYPE REM-SYS-NAME REM-PORT-PANEL-NAME`; port names are front-panel names written
//   `P<n>` (the example: "MTS2400 S-1" / "   P1 -> MT23108 H-1 P1").
// - IBFabric::parseTopology (ibutils ibdm/ibdm/Fabric.cpp), the reader's grammar:
//   system line  ^[ \t]*([^/ \t]+)[ \t]+([^/ \t]+)[ \t]*( CFG:(.*))?$   (no '/' in type or name)
//   port line    ^[ \t]+([^ \t]+)[ \t]+-((1|4|8|12)[xX]-)?((2.5|5|10)G-)?[>][ \t]+(\S+)[ \t]+(\S+)[ \t]+(\S+)[ \t]*$
//   comment      ^[ \t]*#        end of section: an empty line.
//   Port lines must be indented; system lines are written from column 0.
// - IBFabric::dumpTopology (same file), the writer: "\n" TYPE " " NAME, then per port
//   "   " PORT " -" width2char "-" speed2char "G-> " RTYPE " " RNAME " " RPORT.
// - ibutils2's ibdm Fabric.h (NVIDIA, the ibdm inside ibdiagnet 2.x) extends the tokens:
//   width2char 1x 2x 4x 8x 12x; speed2char is the lane rate: 2.5 (SDR), 5 (DDR), 10 (QDR),
//   FDR10, 14 (FDR), 25 (EDR), 50 (HDR), 100 (NDR), 200 (XDR). So NDR 4x is written -4x-100G->,
//   as in NVIDIA's UFM Validation Tool topo-file example ("P2 -4x-50G-> ..." on an HDR
//   MQM8700, switch types MQM8700 / MQM9700, host ports "mlx5_0/P1").
//
// Choices:
// - One file per plane (subnet), like the ibnetdiscover export; only installed links; every
//   link appears once from each end, ports in order.
// - Systems are the plan's devices: switches (type from the model: qm9700 -> MQM9700, others
//   upper-cased, '-' -> '_'), nodes (type from the node type: dgx-h100 -> DGX_H100) and
//   management ports (type HCA). System types must have an IBNL definition where the file is
//   used for matching; the types here name the hardware and can be mapped to local IBNLs.
// - Port names: switches P<logical port> (cage and position are in the cable map); a node's
//   NIC k is an HCA inside the node system, port "nic<k>/P1" (ibdm's <node>/P<n> form, as in
//   "mlx5_0/P1"); with planes the plan's nic<k>-p<p> is that NIC's port p: "nic<k>/P<p>".
//   Management ports are P1.
// - Names are single tokens: whitespace, '/' and control characters become '_', and a
//   leading '#' (a comment to the reader) becomes '_'.
#include "planner/exporters.h"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>
#include <vector>

namespace railyard::planner {

namespace {

    constexpr std::size_t kChunkBytes = std::size_t { 1 } << 20;
    constexpr std::string_view kIndent = "   ";

    int planeCount(const core::Plan& plan)
    {
        return std::max({ 1, plan.spec.planes, plan.summary.planes });
    }

    bool isSwitch(const core::Plan& plan, std::uint32_t device)
    {
        return device < plan.devices.size() && plan.devices[device].kind == core::DeviceKind::Switch;
    }

    bool switchInPlane(const core::Plan& plan, std::uint32_t device, int plane)
    {
        const auto& d = plan.devices[device];
        return d.installed && (planeCount(plan) == 1 || d.plane == plane);
    }

    bool linkInPlane(const core::Plan& plan, const core::Link& link, int plane)
    {
        if (!link.installed || link.a.device >= plan.devices.size() || link.b.device >= plan.devices.size())
            return false;
        const bool aSwitch = isSwitch(plan, link.a.device);
        const bool bSwitch = isSwitch(plan, link.b.device);
        if (!aSwitch && !bSwitch)
            return false;
        return (!aSwitch || switchInPlane(plan, link.a.device, plane))
            && (!bSwitch || switchInPlane(plan, link.b.device, plane));
    }

    /// One token of the file: no whitespace, no '/', no control characters, no leading '#'.
    std::string token(std::string_view name)
    {
        std::string out(name);
        for (char& c : out) {
            const auto u = static_cast<unsigned char>(c);
            if (u <= 0x20 || u == 0x7f || c == '/')
                c = '_';
        }
        if (out.empty() || out.front() == '#')
            out.insert(out.begin(), '_');
        return out;
    }

    /// A catalog id as a system type: upper case, anything but letters, digits, '_' and '.' as '_'.
    std::string typeToken(std::string_view id)
    {
        std::string out;
        for (char c : id) {
            const auto u = static_cast<unsigned char>(c);
            out += std::isalnum(u) || c == '.' ? static_cast<char>(std::toupper(u)) : '_';
        }
        return out;
    }

    /// The lane rate as ibutils2's speed2char writes it, with dumpTopology's "G".
    std::string_view speedToken(core::IbGeneration generation)
    {
        switch (generation) {
        case core::IbGeneration::SDR:
            return "2.5G";
        case core::IbGeneration::DDR:
            return "5G";
        case core::IbGeneration::QDR:
            return "10G";
        case core::IbGeneration::FDR10:
            return "FDR10G";
        case core::IbGeneration::FDR:
            return "14G";
        case core::IbGeneration::EDR:
            return "25G";
        case core::IbGeneration::HDR:
            return "50G";
        case core::IbGeneration::NDR:
            return "100G";
        case core::IbGeneration::XDR:
            return "200G";
        }
        return "2.5G";
    }

    /// "-4x-100G->" for the plan's port rate.
    std::string arrow(const core::Plan& plan)
    {
        const auto& rate = plan.summary.port;
        auto generation = rate.generation ? rate.generation : plan.spec.link.generation;
        const int width = rate.generation ? rate.lanes : plan.spec.link.width;
        return "-" + std::to_string(width) + "x-" + std::string(speedToken(generation.value_or(core::IbGeneration::SDR)))
            + "->";
    }

    /// The end of `link` that is not `self`.
    const core::PortRef& peerOf(const core::Link& link, const core::PortRef& self)
    {
        return link.a == self ? link.b : link.a;
    }

    struct PortEntry {
        core::PortRef self;
        std::size_t link = 0;
    };

    void appendSystem(std::string& text, const core::Plan& plan, std::uint32_t device, std::vector<PortEntry>& ports,
        const std::string& arrowText)
    {
        std::sort(ports.begin(), ports.end(), [](const PortEntry& x, const PortEntry& y) {
            return std::pair(x.self.port, x.self.plane) < std::pair(y.self.port, y.self.plane);
        });
        text += topoSystemType(plan, device);
        text += ' ';
        text += topoSystemName(plan, device);
        text += '\n';
        for (const auto& entry : ports) {
            const core::PortRef& peer = peerOf(plan.links[entry.link], entry.self);
            text += kIndent;
            text += topoPortName(plan, entry.self);
            text += ' ';
            text += arrowText;
            text += ' ';
            text += topoSystemType(plan, peer.device);
            text += ' ';
            text += topoSystemName(plan, peer.device);
            text += ' ';
            text += topoPortName(plan, peer);
            text += '\n';
        }
        text += '\n';
    }

    std::string commentText(std::string_view text)
    {
        std::string out(text);
        for (char& c : out)
            if (static_cast<unsigned char>(c) < 0x20)
                c = ' ';
        return out;
    }

} // namespace

std::string topoSystemType(const core::Plan& plan, std::uint32_t device)
{
    if (device >= plan.devices.size())
        return "UNKNOWN";
    const auto& d = plan.devices[device];
    switch (d.kind) {
    case core::DeviceKind::Switch: {
        // NVIDIA's tools name Quantum boxes by their part family: MQM8700, MQM9700.
        const bool quantum = d.model.size() > 2 && (d.model[0] == 'q' || d.model[0] == 'Q')
            && (d.model[1] == 'm' || d.model[1] == 'M') && std::isdigit(static_cast<unsigned char>(d.model[2]));
        if (d.model.empty())
            return "SWITCH";
        return quantum ? "M" + typeToken(d.model) : typeToken(d.model);
    }
    case core::DeviceKind::Node:
        return d.model.empty() ? std::string("HOST") : typeToken(d.model);
    case core::DeviceKind::Management:
        return "HCA";
    }
    return "UNKNOWN";
}

std::string topoSystemName(const core::Plan& plan, std::uint32_t device)
{
    if (device >= plan.devices.size())
        return "_unknown";
    return token(plan.devices[device].name);
}

std::string topoPortName(const core::Plan& plan, const core::PortRef& port)
{
    if (port.device < plan.devices.size() && plan.devices[port.device].kind == core::DeviceKind::Node)
        return "nic" + std::to_string(port.port) + "/P" + std::to_string(port.plane + 1);
    return "P" + std::to_string(port.port);
}

void writeIbdmTopo(const core::Plan& plan, std::ostream& out, int plane)
{
    std::string text = "# IBDM topology file (ibdm-topo-file(1)): planned fabric \"" + commentText(plan.spec.name)
        + "\" (Railyard)\n";
    if (plan.spec.fabric != core::Fabric::InfiniBand) {
        text += "# RoCEv2 fabric: there is no InfiniBand subnet to describe\n";
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        return;
    }
    if (plane < 1 || plane > planeCount(plan)) {
        text += "# plane " + std::to_string(plane) + " does not exist: the plan has " + std::to_string(planeCount(plan))
            + '\n';
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
        return;
    }
    std::vector<std::vector<PortEntry>> ports(plan.devices.size());
    for (std::size_t i = 0; i < plan.links.size(); ++i) {
        const auto& link = plan.links[i];
        if (!linkInPlane(plan, link, plane))
            continue;
        ports[link.a.device].push_back({ link.a, i });
        ports[link.b.device].push_back({ link.b, i });
    }
    const std::string arrowText = arrow(plan);
    text += "# plane " + std::to_string(plane) + " of " + std::to_string(planeCount(plan)) + "; installed links; port rate "
        + (plan.summary.port.generation ? plan.summary.port.label() : std::string("unknown")) + ", written "
        + arrowText + " (width, lane rate)\n\n";
    for (std::uint32_t d = 0; d < plan.devices.size(); ++d) {
        // Installed switches of the plane appear even without links; other systems only with them.
        const bool listed = isSwitch(plan, d) ? switchInPlane(plan, d, plane) : !ports[d].empty();
        if (!listed)
            continue;
        appendSystem(text, plan, d, ports[d], arrowText);
        if (text.size() >= kChunkBytes) {
            out.write(text.data(), static_cast<std::streamsize>(text.size()));
            text.clear();
        }
    }
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

} // namespace railyard::planner
