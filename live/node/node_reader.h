// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Reads one node: inventory and counters from a sysfs tree (the real /sys, or an emulated
// node's tree) and from the sources that are not files (DCB netlink, ethtool statistics, LLDP,
// GPU driver), each behind a small interface the emulator stands in for.
#pragma once

#include "live/common/inventory.h"
#include "live/node/host_network.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace railyard::live {

/// Lossless settings that the kernel keeps outside sysfs (DCB netlink: what `dcb pfc show`
/// and `mlnx_qos` read).
class DcbSource {
public:
    virtual ~DcbSource() = default;
    /// PFC per priority and trust mode of `netdev`; pfcKnown false / empty trust when unreadable.
    virtual QosConfig read(const std::string& netdev) const = 0;
};

/// Netdev statistics (the ethtool ioctl: what `ethtool -S` prints).
class EthtoolSource {
public:
    virtual ~EthtoolSource() = default;
    virtual std::map<std::string, std::uint64_t> read(const std::string& netdev) const = 0;
};

/// LLDP neighbours of this host's interfaces (lldpd, or the NIC's own LLDP agent).
class LldpSource {
public:
    virtual ~LldpSource() = default;
    virtual std::vector<LldpNeighbor> read() const = 0;
};

/// What the GPU driver knows that sysfs does not (model names, dma-buf support).
class GpuDriverSource {
public:
    virtual ~GpuDriverSource() = default;
    virtual std::map<std::string, std::string> modelNames() const = 0; ///< PCI address -> "H100 80GB HBM3"
    virtual Tri dmabuf() const = 0;
};

/// The host's IP state (host_network.h): iproute2's JSON dumps, and the folder that holds
/// sys/net/ipv4/conf/ (the rp_filter and ARP sysctls).
class NetworkSource {
public:
    virtual ~NetworkSource() = default;
    virtual IpDumps dumps() const = 0;
    virtual std::filesystem::path procRoot() const = 0;
};

struct NodeSources {
    std::shared_ptr<const DcbSource> dcb;
    std::shared_ptr<const EthtoolSource> ethtool;
    std::shared_ptr<const LldpSource> lldp;
    std::shared_ptr<const GpuDriverSource> gpu;
    std::shared_ptr<const NetworkSource> network; ///< null: Inventory::network stays absent
};

/// The real sources of this host (netlink, ioctl, lldpctl, the NVIDIA driver's files, `ip -j`, /proc).
NodeSources hostSources();
/// The emulator's stand-ins: files in the tools' own formats under `dir`
/// (`dir/qos/<netdev>.mlnx_qos`, `dir/ethtool/<netdev>.txt`, `dir/lldp.keyvalue`, `dir/gpu.json`,
/// `dir/ip/{addr,rule,route}.json` in `ip -j` form, `dir/proc/sys/net/ipv4/conf/<name>/*`).
NodeSources emulatedSources(const std::filesystem::path& dir);

struct NodeOptions {
    std::filesystem::path sysfsRoot = "/sys";
    std::string node;                  ///< the plan's name for this node; empty: the hostname
    std::string nodeType;              ///< catalog node type id (informational)
    std::vector<std::string> railMap;  ///< rail k = device name or PCI address; empty: no rails
    /// OpenSM's log on a host that runs the subnet manager (e.g. /var/log/opensm.log); when
    /// set and readable, SubnetManager::routingEngine is the engine it last configured.
    /// Empty: the routing engine is left empty (never guessed).
    std::filesystem::path opensmLog;
};

/// Thread-safe: one reader may answer several requests at once.
class NodeReader {
public:
    NodeReader(NodeOptions options, NodeSources sources);
    Inventory inventory() const;
    CounterSnapshot counters() const;
    const NodeOptions& options() const { return m_options; }

private:
    NodeOptions m_options;
    NodeSources m_sources;
};

} // namespace railyard::live
