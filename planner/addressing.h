// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/plan.h"
#include "core/result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

// Addressing and routing of a routed (L3) RoCEv2 fabric, from the plan and its spec's
// `addressing` (defaults when the spec gives none): a /31 per link or a subnet per leaf, a
// loopback per switch, eBGP AS numbers. The switch and host configuration generators, the cable
// map and the address exports all read one AddressPlan. README "Addressing" documents the layout.
namespace railyard::planner {

/// The address of one NIC port of a node.
struct NicAddress {
    std::string node;        ///< "node007"
    int rail = 0;            ///< 0-based
    int plane = 0;           ///< 1-based on a plan with planes, 0 otherwise (as core::Device::plane)
    std::string address;     ///< "10.0.0.13"
    int prefixLength = 31;   ///< 31 (p2p31) or the leaf subnet's length (rail_subnets)
    std::string gateway;     ///< the leaf's address on that link or subnet
    std::string leaf;        ///< "su1-rail3-leaf"
    std::string leafPort;    ///< "su1-rail3-leaf/7"
};

/// The two ends of one link. p2p31: a /31, b (the upper tier: the leaf of a NIC link, the spine
/// of a leaf uplink) has the even address. rail_subnets, NIC links: a the NIC's address, b the
/// leaf's gateway address, prefixLength the subnet's.
struct LinkAddresses {
    std::size_t link = 0; ///< index into Plan::links
    std::string aAddress, bAddress;
    int prefixLength = 31;
};

/// A switch's loopback (/32, also its BGP router id) and AS number.
struct SwitchAddressing {
    std::string device;
    std::uint32_t asn = 0;
    std::string loopback;
};

/// rail_subnets: the subnet of one leaf's NIC ports (the leaf routes it on a VLAN interface).
struct LeafSubnet {
    std::string leaf;
    int rail = 0;
    int plane = 0; ///< as NicAddress::plane
    int su = 0;
    std::string network; ///< "10.0.0.0"
    int prefixLength = 26;
    std::string gateway; ///< the leaf's address: the first after the network address
};

/// Everything planAddresses() assigns. `links` has one entry per Plan::links entry, in that order
/// (links[i].link == i); `nics` one per node NIC port in plan link order; `switches` one per switch
/// in device order; `subnets` one per leaf with rail_subnets, empty with p2p31.
struct AddressPlan {
    std::vector<LinkAddresses> links;
    std::vector<NicAddress> nics;
    std::vector<SwitchAddressing> switches;
    std::vector<LeafSubnet> subnets;
    std::string scheme; ///< the spec's addressing.scheme
};

/// One generated configuration file (a switch's or a node's).
struct ConfigFile {
    std::string device;   ///< the switch or node it configures
    std::string fileName; ///< "su1-rail0-leaf.nvue.sh", "node001.sh": the device name and a suffix
    std::string text;
};
/// Receives generated files one at a time (a 128K-GPU fabric's SONiC files are about 1 GB in all);
/// a failed Status stops the generation and is returned.
using ConfigSink = std::function<core::Status(ConfigFile&&)>;

/// What a plan takes out of its ranges (for the range checks and the rules' findings).
struct AddressNeeds {
    std::uint64_t p2pLinks = 0;       ///< links that get a /31
    std::uint64_t subnets = 0;        ///< rail_subnets: one per leaf
    int subnetPrefix = 32;            ///< rail_subnets: the length that fits the fullest leaf
    std::uint64_t fabricAddresses = 0; ///< addresses of addressing.fabric used
    std::uint64_t loopbacks = 0;      ///< switches
    std::uint64_t asns = 0;           ///< AS numbers under the ASN scheme
};

/// The needs of `plan` under its spec's addressing (every link and device, installed or planned
/// for grow_to, so that addresses stay put when the fabric grows).
AddressNeeds addressNeeds(const core::Plan& plan);

/// The problems of `needs` against the spec's ranges: ADDRESS_RANGE_TOO_SMALL (addressing.fabric
/// or addressing.loopbacks) and ASN_RANGE_TOO_SMALL (addressing.asn.base), each saying how many
/// were needed and how many the range holds, and what to give instead. Empty when everything fits.
core::Errors addressRangeProblems(const core::Plan& plan, const AddressNeeds& needs);

/// Assigns every address and AS number of a RoCEv2 plan (the spec's `addressing`, or its defaults).
/// Deterministic for a plan. NIC ports are numbered rail by rail (plane, rail, SU, leaf, port), so a
/// rail's addresses are contiguous; then leaf-spine links, then spine-core links, in plan order.
/// Errors: ADDRESSING_NOT_ROCE (an InfiniBand plan), ADDRESSING_NO_FABRIC (a plan that could not be
/// sized), and those of addressRangeProblems().
core::Result<AddressPlan> planAddresses(const core::Plan& plan);

/// True when the plan is a routed RoCEv2 fabric: its spec gives `addressing` (then the cable map
/// carries each link's two addresses).
bool isRouted(const core::Plan& plan);

/// One row of the address plan as a table (the CSV below and the desktop's Network intent view):
/// switches, then subnets, then links. Empty strings where a column does not apply.
struct AddressRow {
    std::string kind;    ///< "switch", "subnet", "link"
    std::string name;    ///< the switch, the leaf, or the link's a end port ("node001/nic0")
    std::string address; ///< loopback, network, or the a end's address
    int prefixLength = 32;
    std::string peer;        ///< link: the b end port
    std::string peerAddress; ///< subnet: the gateway; link: the b end's address
    std::string asn;         ///< switch: its AS number
    std::string rail;        ///< subnet, node-leaf link: the rail (0-based)
    std::string plane;       ///< 1-based on plans with planes
    std::string tier;        ///< subnet: node_leaf; link: its tier
};
/// Rows of addressRow(): switches + subnets + links.
std::size_t addressRowCount(const AddressPlan& addresses);
/// Row `row` (< addressRowCount()), made on demand: a 128K-GPU plan has about 400,000.
AddressRow addressRow(const core::Plan& plan, const AddressPlan& addresses, std::size_t row);

/// The address plan as CSV (RFC 4180, LF), one row per switch, subnet and link:
/// kind,name,address,prefix_length,peer,peer_address,asn,rail,plane,tier.
///   switch: name the switch, address its loopback (/32), asn its AS number;
///   subnet: name the leaf, address the network, peer_address the gateway;
///   link:   name the a end's port, peer the b end's port, their addresses, tier of the link.
/// Rail and plane are empty where they do not apply.
void writeAddressesCsv(const core::Plan& plan, const AddressPlan& addresses, std::ostream& out);
/// The address plan as JSON: { "plan", "scheme", "fabric", "loopbacks", "asn_scheme", "switches":
/// [{device, asn, loopback}], "subnets": [...], "nics": [{node, rail, plane, address,
/// prefix_length, gateway, leaf, leaf_port}], "links": [{link, a, b, a_address, b_address,
/// prefix_length, tier}] } (members named as the structs above, in snake case).
void writeAddressesJson(const core::Plan& plan, const AddressPlan& addresses, std::ostream& out);

/// The cable map (exporters.h writeCablesCsv / writeCablesXlsx) with two more columns at the end,
/// a_address and b_address ("10.0.0.1/31"), from `addresses`. The overloads without an address
/// plan add them on their own when isRouted(plan), empty when planAddresses() fails (the plan's
/// ADDRESS_RANGE_TOO_SMALL finding says why).
void writeCablesCsv(const core::Plan& plan, std::ostream& out, const AddressPlan& addresses);
core::Status writeCablesXlsx(const core::Plan& plan, const std::string& path, const AddressPlan& addresses);

} // namespace railyard::planner
