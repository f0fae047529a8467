// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan_spec.h"
#include "core/speed.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::core {

enum class Severity { Error, Warning, Info };
std::string_view toString(Severity severity); ///< "error", "warning", "info"

/// A design finding (interfaces.md §3 `findings`).
struct Finding {
    Severity severity = Severity::Info;
    std::string code;    ///< stable, e.g. "RADIX_EXCEEDED"
    std::string message; ///< plain explanation a network engineer would accept
    std::string where;   ///< spec field, switch or port the finding is about
    bool operator==(const Finding&) const = default;
};

enum class DeviceKind { Node, Management, Switch };
enum class SwitchTier { Leaf, Spine, Core };
std::string_view toString(SwitchTier tier); ///< "leaf", "spine", "core"

/// Tier of a link (interfaces.md `cables[].tier`).
enum class LinkTier { NodeLeaf, LeafSpine, SpineCore };
std::string_view toString(LinkTier tier); ///< "node_leaf", "leaf_spine", "spine_core"

/// A node, a management appliance port, or a switch. Numbers are 1-based; 0 means "not applicable".
struct Device {
    std::string name;        ///< "node007", "mgmt1", "su1-rail3-leaf", "p2-spine4", "core12"
    DeviceKind kind = DeviceKind::Node;
    SwitchTier tier = SwitchTier::Leaf; ///< switches only
    std::string model;       ///< catalog id (switch model, node type)
    int plane = 0;           ///< 1.. when the plan has planes; 0 otherwise
    int su = 0;              ///< nodes, leaves, SU-pod spines
    int rail = -1;           ///< leaves: rail served (0-based); -1 otherwise
    int pod = 0;             ///< 3-tier: pod of a leaf or spine
    int ports = 0;           ///< switches: logical ports at the planned rate
    int portsPerCage = 1;    ///< switches: logical ports per cage at the planned rate
    int portsUsed = 0;       ///< ports with a planned link (installed or not)
    int portsReserved = 0;   ///< kept free by the spec
    bool installed = true;   ///< false: planned for `grow_to`, not installed now

    int portsFree() const { return ports - portsUsed - portsReserved; }
};

/// One port: a switch's logical port (1-based), a node's NIC (`port` = rail, `plane` 0-based), or a management port (1).
struct PortRef {
    std::uint32_t device = 0;
    std::uint16_t port = 0;
    std::uint8_t plane = 0;
    bool operator==(const PortRef&) const = default;
};

/// One link: a connected port pair. `a` is the lower end (node side, or the lower tier).
struct Link {
    PortRef a;
    PortRef b;
    LinkTier tier = LinkTier::NodeLeaf;
    Medium medium = Medium::Mmf;
    float lengthM = 0;
    std::uint32_t assembly = 0; ///< index into Plan::assemblies
    bool installed = true;
};

/// One physical cable assembly; a splitter or a twin-port copper cable carries two links.
struct Assembly {
    std::string cable; ///< CableModel id
    Medium medium = Medium::Mmf;
    float lengthM = 0;
    std::uint8_t links = 1;
    bool installed = true;
};

/// One line of the bill of materials.
struct BomLine {
    std::string category; ///< "switch", "nic", "node", "cable", "transceiver"
    std::string item;     ///< human description, e.g. "NDR 400G multimode fiber, 30 m"
    std::string part;     ///< orderable part number
    std::string catalogId;
    double lengthM = 0;   ///< cables only
    long long quantity = 0;
    std::optional<double> unitPriceUsd;
    double unitPowerW = 0;
    int unitRackUnits = 0;
};

struct SwitchCounts {
    long long leaf = 0, spine = 0, core = 0;
    long long total() const { return leaf + spine + core; }
};
struct CableCounts {
    long long nodeLeaf = 0, leafSpine = 0, spineCore = 0;
    long long total() const { return nodeLeaf + leafSpine + spineCore; }
};

/// Structural numbers of the plan (interfaces.md §3 `summary`) and the shape that produced them.
struct Summary {
    int nodes = 0;
    long long gpus = 0;
    int rails = 0;
    int planes = 1;
    int suCount = 0;
    int suSize = 0;
    int leavesPerRail = 1; ///< leaves per rail per SU (more than one only when the SU is wider than a leaf)
    int tiers = 2;
    int pods = 0;          ///< 3 tiers: pods (an SU pod is a pod of one SU)
    int susPerPod = 0;
    int leafDownlinks = 0;  ///< per leaf, as designed (full SU)
    int leafUplinks = 0;
    int spinesPerGroup = 0; ///< 2 tiers: spines per plane; 3 tiers: spines per pod
    int linksPerLeafSpine = 0;
    int spineDownlinks = 0;
    int spineUplinks = 0;
    int linksPerSpineCore = 0;
    SwitchCounts switches;
    CableCounts cables;
    long long assemblies = 0;
    long long transceivers = 0;
    PortRate port;
    double perGpuGbps = 0;
    double bisectionGbps = 0;
    double leafOversubscription = 1;
    double spineOversubscription = 1;
    long long lidsPerSubnet = 0; ///< InfiniBand: unicast LIDs one plane needs at LMC 0
    double powerW = 0;           ///< switches, NICs and transceivers installed now
    int rackUnits = 0;           ///< switches
    std::optional<double> costUsd; ///< when every BOM line has a price
    /// With `grow_to`: the counts at the final size (the lists above count what is installed now).
    std::optional<SwitchCounts> finalSwitches;
    std::optional<CableCounts> finalCables;
    int finalNodes = 0;
};

/// What one failure costs.
struct FailureImpact {
    std::string element;          ///< switch name or cable "a <-> b"
    double bandwidthLostGbps = 0; ///< fabric link capacity that disappears (one direction)
    int nodesCutOff = 0;          ///< nodes that lose every fabric port
    int nodeRailsLost = 0;        ///< node NIC ports that lose their path into the fabric
    std::vector<double> railGbpsLeft; ///< per rail: node-facing bandwidth still reachable
};

/// Numbers read off the topology graph.
struct Analysis {
    bool connected = true;     ///< every installed NIC reaches every other NIC of its plane
    int components = 1;
    int hopsSameLeaf = 0;      ///< switch hops, node to node
    int hopsSameRailAcrossSu = 0;
    int hopsAcrossRails = 0;
    int hopsAcrossPods = 0;    ///< 3 tiers only
    long long leafPathsSwitch = 0; ///< equal-cost switch paths between two leaves of one rail in different SUs
    long long leafPathsLink = 0;   ///< the same counted over parallel links
    long long freeLeafDownlinks = 0;
    long long freeLeafPorts = 0;
    long long freeSpinePorts = 0;
    long long freeCorePorts = 0;
    std::vector<FailureImpact> worstSwitch; ///< one per switch tier present
    std::vector<FailureImpact> worstCable;  ///< one per link tier present
};

/// The output of the planner. Immutable once built; share it as shared_ptr<const Plan>.
struct Plan {
    PlanSpec spec; ///< resolved: defaults and derived values filled in
    Summary summary;
    std::vector<Finding> findings;
    std::vector<Device> devices; ///< nodes, then management ports, then switches (leaf, spine, core)
    std::vector<Link> links;     ///< node_leaf, then leaf_spine, then spine_core
    std::vector<Assembly> assemblies;
    std::vector<BomLine> bom;
    Analysis analysis;

    bool hasErrors() const;
    /// "node007/nic3", "node007/nic3-p1", "mgmt1/1", "su1-rail3-leaf/17"
    std::string portName(const PortRef& port) const;
    /// Switch ports: 1-based cage and 1-based position in it; {0,0} for node and management ports.
    std::pair<int, int> cageOf(const PortRef& port) const;
};

} // namespace railyard::core
