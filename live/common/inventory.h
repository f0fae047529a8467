// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What a node has, as the agent (or an agentless dump) sees it: the one model shared by the
// node side (sysfs reader, agent), the client side (checks) and the tool-output parsers.
// Plain C++, no Qt. Values are what the kernel or the tool reports; nothing is guessed:
// a setting that cannot be read is Tri::Unknown, never Off.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace railyard::live {

/// Version of the agent's JSON answers (`api_version`). Clients accept older, refuse newer.
inline constexpr int kApiVersion = 1;

/// A setting that may be on, off, or not readable on this host (e.g. the mlx5 ECN files
/// exist only with NVIDIA's driver stack).
enum class Tri { Unknown, Off, On };

enum class LinkLayer { Unknown, InfiniBand, Ethernet };

/// PCIe link of a device: current and maximum, as `current_link_speed`/`max_link_speed`
/// ("16.0 GT/s PCIe") and `current_link_width`/`max_link_width` report them. 0 = unknown.
struct PcieLink {
    double speedGts = 0;
    double maxSpeedGts = 0;
    int width = 0;
    int maxWidth = 0;
};

/// One entry of a port's GID table: `ports/<n>/gids/<i>`, `gid_attrs/types/<i>`,
/// `gid_attrs/ndevs/<i>` (what `show_gids` prints).
struct GidEntry {
    int index = 0;
    std::string gid;    ///< "0000:0000:0000:0000:0000:ffff:0a00:000d"
    std::string type;   ///< "IB/RoCE v1" or "RoCE v2"; empty when unreadable
    std::string netdev; ///< the netdev the GID belongs to; empty when unreadable
    std::string ipv4;   ///< an IPv4-mapped GID's address ("10.0.0.13"); empty for any other GID
};

/// One port of an RDMA device (`/sys/class/infiniband/<dev>/ports/<n>`).
struct RdmaPort {
    int number = 1;
    LinkLayer linkLayer = LinkLayer::Unknown;
    int state = 0;              ///< `state`: 1 DOWN, 2 INIT, 3 ARMED, 4 ACTIVE, 5 ACTIVE_DEFER
    std::string stateName;      ///< "ACTIVE"
    int physState = 0;          ///< `phys_state`: 2 Polling, 3 Disabled, 5 LinkUp, ...
    std::string physStateName;  ///< "LinkUp"
    std::string rateText;       ///< the `rate` file as is: "400 Gb/sec (4X NDR)"
    double rateGbps = 0;        ///< 400
    int width = 0;              ///< lanes from the rate text (4 for "4X"); 0 when not said
    std::string generation;     ///< "NDR", "HDR", ... from the rate text; empty for Ethernet
    int lid = 0;
    int smLid = 0;
    std::string gid0;           ///< GID index 0, "fe80:0000:...:..."
    std::optional<int> rocev2GidIndex; ///< first GID of type "RoCE v2" with an IPv4-mapped or global address
    std::string rocev2Gid;
    /// The port's GID table (Ethernet ports: every entry that reads; empty slots fail with EINVAL
    /// and are left out). Empty from an older agent or on InfiniBand.
    std::vector<GidEntry> gids;
};

/// An LLDP neighbour of a NIC port (RoCEv2 cabling): the switch and its port.
struct LldpNeighbor {
    std::string localInterface; ///< "eth3" / netdev
    std::string systemName;     ///< "su1-rail3-leaf"
    std::string portId;         ///< "swp17" or what the switch sends as port id
    std::string portDescription;
    std::string chassisId;      ///< MAC or other id
};

/// Lossless Ethernet settings of one netdev (what `dcb pfc show`, `mlnx_qos` and the mlx5
/// `ecn/roce_{np,rp}/enable/<prio>` files report).
struct QosConfig {
    bool pfcKnown = false;
    std::array<bool, 8> pfcEnabled {}; ///< per priority 0..7
    std::string trust;                 ///< "pcp", "dscp", or empty when unknown
    std::array<Tri, 8> ecnNp {};       ///< notification point (marks -> CNPs) per priority
    std::array<Tri, 8> ecnRp {};       ///< reaction point (DCQCN rate control) per priority
};

/// One RDMA device (HCA / RNIC function).
struct RdmaDevice {
    std::string name;          ///< "mlx5_0"
    int rail = -1;             ///< rail served (from the node type's rail map); -1 not a compute NIC
    std::string hcaType;       ///< "MT4129"
    std::string fwVersion;     ///< "28.39.1002"
    std::string boardId;       ///< "MT_0000000838"
    std::string nodeGuid;      ///< "b83f:d203:00a4:5e52" as sysfs writes it
    std::string sysImageGuid;
    std::string nodeDesc;      ///< "node007 mlx5_3"
    std::string netdev;        ///< "ibp24s0" / "eth3"; empty when none
    std::string pciAddress;    ///< "0000:18:00.0"
    int numaNode = -1;
    int mtu = 0;               ///< netdev MTU; 0 when unknown
    PcieLink pcie;
    std::vector<RdmaPort> ports;
    QosConfig qos;             ///< Ethernet ports only
    std::vector<LldpNeighbor> lldp;
};

/// One GPU and where it sits.
struct Gpu {
    int index = 0;             ///< in PCI address order (what CUDA_DEVICE_ORDER=PCI_BUS_ID gives)
    std::string pciAddress;
    std::string name;          ///< model when known ("H100 80GB HBM3"); may be empty
    int numaNode = -1;
    PcieLink pcie;
    std::string closestNic;    ///< RDMA device closest in the PCI tree
    std::string pathToNic;     ///< nvidia-smi topo words: "PIX", "PXB", "PHB", "NODE", "SYS"
    Tri acsOnPath = Tri::Unknown; ///< ACS request redirect enabled on a bridge between GPU and its NIC
};

/// Whether the NIC can read and write GPU memory directly.
struct GpuDirect {
    Tri peermem = Tri::Unknown; ///< nvidia-peermem (or nv_peer_mem) loaded
    Tri dmabuf = Tri::Unknown;  ///< dma-buf support (kernel and GPU driver)
    bool possible() const { return peermem == Tri::On || dmabuf == Tri::On; }
};

/// Subnet manager as seen from this host (InfiniBand).
struct SubnetManager {
    std::string masterGuid;
    int masterLid = 0;
    std::string routingEngine; ///< "ftree", "updn", ... when readable
};

/// An IPv4 address of a netdev (`ip -4 addr`).
struct Ipv4Address {
    std::string address;  ///< "10.0.0.13"
    int prefixLength = 32;
};

/// The IPv4 sysctls of one `net.ipv4.conf.<name>` (a netdev, or `all`), as
/// /proc/sys/net/ipv4/conf/<name>/ holds them; nullopt when unreadable. The kernel acts on
/// max(all, netdev) for rp_filter, arp_ignore and arp_announce, and on all || netdev for arp_filter.
struct NetSysctls {
    std::optional<int> rpFilter;    ///< 0 off, 1 strict, 2 loose
    std::optional<int> arpIgnore;
    std::optional<int> arpAnnounce;
    std::optional<int> arpFilter;
};

/// One policy routing rule (`ip rule`).
struct RoutingRule {
    int priority = 0;
    std::string from;        ///< "10.0.0.13", "10.0.1.0" with fromPrefix 26, or "all"
    int fromPrefix = 32;     ///< 0 for "all"
    std::string table;       ///< "100", "main", "local", "default"; empty for a rule without a lookup
    bool selectorsBeyondFrom = false; ///< the rule also matches on iif, oif, fwmark, tos...: not a plain source rule
};

/// One route of a routing table (`ip route show table all`).
struct IpRoute {
    std::string table;       ///< "100", "main", "local"
    std::string type;        ///< "unicast" (ip prints no type), "local", "broadcast", "unreachable", ...
    std::string destination; ///< "default", "10.0.0.12/31", "10.0.0.13" (a host route)
    std::string gateway;     ///< empty for a connected route
    std::string dev;
    std::string source;      ///< the preferred source (`src`, ip's "prefsrc")
};

/// What the host does with IP on its rail NICs: addresses, rp_filter and ARP settings, policy
/// routing. Each part says whether it was read: a part that could not be read is unknown, not empty.
struct HostNetwork {
    bool addressesKnown = false;
    std::map<std::string, std::vector<Ipv4Address>> addresses; ///< netdev -> its IPv4 addresses
    std::map<std::string, NetSysctls> sysctls;                 ///< "all" and each RDMA netdev
    bool rulesKnown = false;
    std::vector<RoutingRule> rules; ///< in priority order
    bool routesKnown = false;
    std::vector<IpRoute> routes;      ///< every IPv4 table but "local"
};

/// Everything `/v1/inventory` answers.
struct Inventory {
    std::string node;     ///< the plan's name for the node, as the agent was told (`--node`), else hostname
    std::string hostname;
    std::string nodeType; ///< catalog node type id used for the rail map; may be empty
    std::vector<RdmaDevice> devices;
    std::vector<Gpu> gpus;
    GpuDirect gpuDirect;
    std::optional<SubnetManager> subnetManager;
    /// Absent from an older agent (api_version 1 before the host checks), or where the agent was
    /// not asked (agentless dumps).
    std::optional<HostNetwork> network;
    std::vector<std::string> warnings; ///< what could not be read, in words
};

/// A counter value with what it means: `port_xmit_data` counts 4-byte words, IB PMA error
/// counters stop at their maximum (saturated: a reset is needed, it never wraps), mlx5
/// `hw_counters` are 32-bit and wrap.
enum class CounterKind { Plain, Words4, Saturating, Wrapping32 };

struct Counter {
    std::uint64_t value = 0;
    CounterKind kind = CounterKind::Plain;
    int widthBits = 64;      ///< width of the hardware counter
    bool saturated = false;  ///< Saturating counters at their maximum
};

/// Counters of one port of one device, read at one time.
struct PortCounters {
    std::string device;     ///< "mlx5_0"
    int port = 1;
    int rail = -1;
    std::string netdev;
    std::map<std::string, Counter> counters;   ///< ports/<n>/counters/*
    std::map<std::string, Counter> hwCounters; ///< ports/<n>/hw_counters/*
    std::map<std::string, std::uint64_t> ethtool; ///< netdev statistics (ethtool -S), e.g. "rx_prio3_pause"
};

/// Everything `/v1/counters` answers.
struct CounterSnapshot {
    std::string node;
    std::int64_t timestampMs = 0; ///< wall clock (ms since the epoch) when reading began
    std::vector<PortCounters> ports;
};

} // namespace railyard::live
