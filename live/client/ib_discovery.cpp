// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/ib_discovery.h"

#include "live/common/text_scan.h"

#include <infiniband/ibnetdisc.h>
#include <infiniband/mad.h>

#include <memory>

namespace railyard::live {

namespace {

    struct FabricDeleter {
        void operator()(ibnd_fabric_t* f) const { ibnd_destroy_fabric(f); }
    };

    IbNodeType nodeType(int type)
    {
        switch (type) {
        case IB_NODE_SWITCH: return IbNodeType::Switch;
        case IB_NODE_ROUTER: return IbNodeType::Router;
        default: return IbNodeType::CA;
        }
    }

    /// A node description as ibnetdiscover prints it: up to the first NUL, non-printables as spaces.
    std::string description(const char* text)
    {
        std::string out;
        for (std::size_t i = 0; i < IB_SMP_DATA_SIZE && text[i]; ++i) {
            const unsigned char c = static_cast<unsigned char>(text[i]);
            out += (c < 0x20 || c == 0x7f) ? ' ' : static_cast<char>(c);
        }
        // Any bytes an administrator set, cut at 64: made UTF-8 (U+FFFD for what is not), as the
        // ibnetdiscover reader does, so that findings and `live cabling --json` print.
        return text::validUtf8(std::move(out));
    }

    void rateOf(ibnd_port_t* port, IbLink& link)
    {
        const unsigned width = mad_get_field(port->info, 0, IB_PORT_LINK_WIDTH_ACTIVE_F);
        const unsigned speed = mad_get_field(port->info, 0, IB_PORT_LINK_SPEED_ACTIVE_F);
        unsigned ext = 0;
        // Extended speeds are valid when the port (switches: port 0) says it has them.
        ibnd_port_t* capPort = port->node->type == IB_NODE_SWITCH && port->node->ports && port->node->ports[0]
            ? port->node->ports[0]
            : port;
        const unsigned capMask = mad_get_field(capPort->info, 0, IB_PORT_CAPMASK_F);
        if (capMask & 0x4000u) // IsExtendedSpeedsSupported
            ext = mad_get_field(port->info, 0, IB_PORT_LINK_SPEED_EXT_ACTIVE_F);
        const unsigned fdr10 = mad_get_field(port->ext_info, 0, IB_MLNX_EXT_PORT_LINK_SPEED_ACTIVE_F);
        link.width = linkWidthText(width);
        link.speed = linkSpeedText(speed, ext, fdr10);
    }

} // namespace

std::string linkWidthText(unsigned width)
{
    switch (width) {
    case 1: return "1x";
    case 2: return "4x";
    case 4: return "8x";
    case 8: return "12x";
    case 16: return "2x";
    default: return {};
    }
}

std::string linkSpeedText(unsigned speed, unsigned extSpeed, unsigned fdr10)
{
    switch (extSpeed) {
    case 1: return "FDR";
    case 2: return "EDR";
    case 4: return "HDR";
    case 8: return "NDR";
    case 16: return "XDR";
    default: break;
    }
    if (fdr10 & 1u)
        return "FDR10";
    switch (speed) {
    case 1: return "SDR";
    case 2: return "DDR";
    case 4: return "QDR";
    default: return {};
    }
}

core::Result<IbFabric> discoverFabric(const DiscoveryOptions& options)
{
    ibnd_config_t config {};
    config.timeout_ms = options.timeoutMs;
    config.retries = options.retries;
    std::string ca = options.caName;
    std::unique_ptr<ibnd_fabric_t, FabricDeleter> fabric(
        ibnd_discover_fabric(ca.empty() ? nullptr : ca.data(), options.caPort, nullptr, &config));
    if (!fabric)
        return core::Error { "IB_DISCOVERY",
            "InfiniBand discovery (libibnetdisc) failed" + (ca.empty() ? std::string() : " from " + ca),
            ca.empty() ? "local HCA" : ca,
            "run on a host of the subnet with an active IB port and access to /dev/infiniband/umad* (root or the rdma "
            "group), and a subnet manager running; under ibsim preload libumad2sim.so and set IBSIM_SOCKNAME" };
    IbFabric out;
    for (ibnd_node_t* n = fabric->nodes; n; n = n->next) {
        IbNode node;
        node.guid = n->guid;
        node.type = nodeType(n->type);
        node.description = description(n->nodedesc);
        node.ports = n->numports;
        if (n->type == IB_NODE_SWITCH)
            node.lid = n->smalid;
        for (int p = 1; p <= n->numports && n->ports; ++p) {
            ibnd_port_t* port = n->ports[p];
            if (!port)
                continue;
            if (n->type != IB_NODE_SWITCH) {
                node.portGuids[p] = port->guid;
                if (port->base_lid && (node.lid == 0 || port->base_lid < node.lid))
                    node.lid = port->base_lid;
            }
        }
        out.addNode(node);
    }
    for (ibnd_node_t* n = fabric->nodes; n; n = n->next) {
        for (int p = 1; p <= n->numports && n->ports; ++p) {
            ibnd_port_t* port = n->ports[p];
            if (!port || !port->remoteport || !port->remoteport->node)
                continue;
            IbLink link { { n->guid, p }, { port->remoteport->node->guid, port->remoteport->portnum }, {}, {} };
            rateOf(port, link);
            out.addLink(std::move(link));
        }
    }
    out.finish();
    return out;
}

} // namespace railyard::live
