// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/fabric.h"
#include "core/result.h"
#include "core/speed.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::core {

/// A "down:up" bandwidth ratio at one tier, e.g. 2:1. Both parts are positive.
struct Ratio {
    double down = 1;
    double up = 1;
    double value() const { return down / up; }
    std::string toString() const; ///< "2:1", "1.5:1"
    bool operator==(const Ratio&) const = default;
};
/// Parses "2:1", "1:1", "4:3"; nullopt when malformed or not positive.
std::optional<Ratio> parseRatio(std::string_view text);

enum class TierMode { Auto, Two, Three };

/// RoCEv2 lossless QoS profile (interfaces.md §1 `lossless`).
struct LosslessProfile {
    std::string mode = "lossless"; ///< "lossless", "pfc-only" or "lossy"
    std::vector<int> pfcPriorities { 3 }; ///< spec `pfc_priority`: one number, or a list
    bool ecn = true;
    bool dcqcn = true;
    std::string trust = "dscp"; ///< "dscp" or "pcp"
    int roceDscp = 26;
    int cnpDscp = 48;
    /// Accepted: an RDMA path MTU (256, 512, 1024, 2048, 4096) or an Ethernet interface MTU
    /// from 1500 to 9216 (1500, 9000, 9216...).
    int mtu = 4096;
    /// Spec `interface_mtu`: the Ethernet MTU of every host NIC and switch fabric port. Unset: `mtu`
    /// when that is an Ethernet MTU, else 9000 (kDefaultInterfaceMtu).
    std::optional<int> interfaceMtu;
    bool operator==(const LosslessProfile&) const = default;
};

inline constexpr int kDefaultInterfaceMtu = 9000;
/// Bytes an RDMA path MTU needs on top in the Ethernet MTU (the kernel's iboe_get_mtu(): GRH 40 +
/// UDP 8 + BTH 12 + XRC 4 + AtomicETH 28 + ICRC 4): RDMA 4096 needs an Ethernet MTU of 4192.
inline constexpr int kRoceHeaderBytes = 96;
/// True for the RDMA path MTUs 256 ... 4096 (what `lossless.mtu` may also be: an Ethernet MTU).
bool isRdmaMtu(int mtu);
/// The Ethernet MTU of host and switch ports under `profile` (interface_mtu, or mtu when that is
/// an Ethernet MTU, else kDefaultInterfaceMtu).
int interfaceMtu(const LosslessProfile& profile);
/// The RDMA path MTU the NICs end up with: `mtu` when it is one, else the largest that fits the
/// Ethernet MTU (kRoceHeaderBytes); 0 when none fits.
int rdmaMtu(const LosslessProfile& profile);
/// The 802.1p priority a DSCP maps to under the default DSCP-to-priority map of mlx5 NICs,
/// Cumulus and SONiC (DSCP / 8): 26 -> 3, 48 -> 6.
inline int defaultDscpPriority(int dscp) { return dscp >> 3; }
/// The IP traffic class RoCE traffic carries (NCCL_IB_TC, perftest --tclass, the rdma_cm ToS):
/// roce_dscp << 2, plus 2 (ECT(0)) when the profile has ECN on. 26 with ECN: 106.
int roceTrafficClass(const LosslessProfile& profile);
/// The RoCEv2 GID index of a NIC's IPv4 address on mlx5 when that address is the netdev's first
/// (0/1: RoCE v1/v2 of the link-local IPv6 address, 2/3: of the IPv4 address). `show_gids` tells.
inline constexpr int kRoceV2Ipv4GidIndex = 3;

/// An IPv4 prefix: address (host order) and length 0..32.
struct Ipv4Prefix {
    std::uint32_t address = 0;
    int length = 32;
    /// Addresses it holds (2^(32-length)).
    std::uint64_t size() const { return std::uint64_t { 1 } << (32 - length); }
    std::string toString() const; ///< "10.0.0.0/15"
    bool operator==(const Ipv4Prefix&) const = default;
};
/// "10.1.2.3"
std::string formatIpv4(std::uint32_t address);
/// Parses "a.b.c.d" (host order); nullopt when it is anything else, leading zeros included ("010"
/// reads as octal in some tools and decimal in others).
std::optional<std::uint32_t> parseIpv4(std::string_view text);
/// Parses "a.b.c.d/len" (IPv4 only). Sets `problem` and returns nullopt when malformed, or when
/// bits are set past the prefix length ("10.0.0.1/15: host bits set; the network is 10.0.0.0/15").
std::optional<Ipv4Prefix> parseIpv4Prefix(std::string_view text, std::string& problem);

/// The BGP AS numbering of a routed fabric (spec `addressing.asn`).
struct AsnSpec {
    /// "per_leaf": a unique ASN per leaf, one per spine group (all spines of a plane in two tiers,
    /// of a pod in three) and one per core plane (RFC 7938). "per_tier": one ASN for all leaves,
    /// one for all spines, one for all cores (leaves then accept their own ASN: allowas-in).
    std::string scheme = "per_leaf";
    /// First ASN; private only: 4200000000-4294967294 (4-byte) or 64512-65534 (2-byte).
    std::uint32_t base = 4200000000U;
    bool operator==(const AsnSpec&) const = default;
};

/// Addressing and routing of a routed (L3) RoCEv2 fabric (spec `addressing`, README "Addressing").
struct AddressingSpec {
    /// "p2p31": a /31 per link, NIC-leaf links included (the leaf side gets the even address);
    /// "rail_subnets": one subnet per leaf (rail and SU) for its NICs, the leaf's address the
    /// gateway, and a /31 per switch-switch link.
    std::string scheme = "p2p31";
    Ipv4Prefix fabric { 0x0A000000U, 10 };     ///< 10.0.0.0/10: link /31s and NIC subnets
    Ipv4Prefix loopbacks { 0x0AFF0000U, 16 };  ///< 10.255.0.0/16: one /32 per switch
    AsnSpec asn;
    bool operator==(const AddressingSpec&) const = default;
};

/// Rack layout used for cable lengths. The length model is documented in README ("Cable lengths").
struct RackLayout {
    int nodesPerRack = 4;
    std::string leafPlacement = "row"; ///< "row": leaves in a network rack in the middle of each SU row; "rack": in the node rack (top of rack)
    double rackWidthM = 0.6;     ///< distance between neighbouring racks
    double inRackM = 2.0;        ///< vertical run per end (up to the tray, down into the rack)
    double slackM = 1.0;         ///< added to every cable
    double suPitchM = 3.0;       ///< distance between neighbouring SU rows
    double spineDistanceM = 20;  ///< from an SU row to the spine area
    double coreDistanceM = 40;   ///< from the spine area to the core area
    bool operator==(const RackLayout&) const = default;
};

struct LinkSpec {
    std::optional<IbGeneration> generation; ///< required for InfiniBand
    int width = 4;                          ///< IB lanes per port
    std::optional<int> speedGbps;           ///< required for RoCEv2
    std::optional<int> lanes;               ///< Ethernet lanes (default: the NIC's native lanes)
    bool operator==(const LinkSpec&) const = default;
};

/// The input of the planner (interfaces.md §1). Fields mirror the JSON; optional fields
/// that the planner derives (switch models, SU size...) stay empty until resolved.
struct PlanSpec {
    std::string name;
    Fabric fabric = Fabric::InfiniBand;
    int nodes = 0;                 ///< from `nodes`, or ceil(gpus / gpus_per_node)
    std::optional<long long> gpus; ///< as given
    std::string nodeType = "generic-8gpu";
    std::optional<int> gpusPerNode;
    std::optional<int> rails;
    std::string nic; ///< empty: from the node type
    LinkSpec link;
    std::string leafSwitch, spineSwitch, coreSwitch; ///< empty: catalog default
    std::optional<int> suSize;
    Ratio leafOversubscription;
    Ratio spineOversubscription;
    TierMode tiers = TierMode::Auto;
    int reservedLeafPorts = 0;
    int managementPorts = 0;
    int planes = 1;
    LosslessProfile lossless; ///< RoCEv2 only
    bool losslessGiven = false;
    AddressingSpec addressing; ///< RoCEv2 only: defaults until `addressing` is given
    bool addressingGiven = false; ///< the spec declares a routed fabric (addresses in the cable map)
    std::vector<std::string> nodeNameList; ///< `node_names` as a list
    std::string nodeNamePattern = "node%03d"; ///< `node_names` as a pattern (one %0Nd)
    std::optional<int> growToNodes;
    RackLayout racks;
    bool racksGiven = false;

    bool operator==(const PlanSpec&) const = default;
};

/// Reads a plan spec. `source` names the input in errors ("h100.plan.json").
/// Every problem found is returned, each naming its field: "nodes: must be a positive integer, got -4".
/// Unknown fields and wrong types are errors. Cross-checks that need the catalog happen in the planner.
Result<PlanSpec> parsePlanSpec(const nlohmann::json& doc, const std::string& source);
/// Parses JSON text first; a syntax error names line and column.
Result<PlanSpec> parsePlanSpecText(std::string_view text, const std::string& source);
/// The spec as JSON with every default filled in (the `spec` member of the plan document).
nlohmann::json toJson(const PlanSpec& spec);

/// Name of node `index` (0-based) under the spec's `node_names`: the list entry, or the
/// pattern with index + 1 ("node%03d": node001, ..., node999, node1000).
std::string nodeName(const PlanSpec& spec, int index);

/// What is wrong with a `node_names` pattern, or "" when it is valid. A pattern holds exactly
/// one `%d` or `%0Nd` (N from 1 to 9); `%%` is a literal percent sign. Names may not contain
/// '/', '"', '\\', spaces or control characters (port names are "<node>/<port>").
std::string nodeNamePatternProblem(std::string_view pattern);
/// What is wrong with one node name (the characters rule above), or "" when it is valid.
std::string nodeNameProblem(std::string_view name);

} // namespace railyard::core
