// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The address plan as CSV and JSON (railyard-cli export addresses). Plan names are validated
// (no quotes, commas or control characters in node names; switch names are generated), but the
// CSV still quotes by RFC 4180 so that a future name rule cannot break a row.
#include "planner/addressing.h"

#include "core/text.h"

#include <nlohmann/json.hpp>

#include <string_view>

namespace railyard::planner {

namespace {

    constexpr std::string_view kHeader = "kind,name,address,prefix_length,peer,peer_address,asn,rail,plane,tier\n";
    constexpr std::size_t kChunkBytes = std::size_t { 1 } << 20;

    std::string planeText(int plane) { return plane > 0 ? std::to_string(plane) : std::string(); }

} // namespace

std::size_t addressRowCount(const AddressPlan& addresses)
{
    return addresses.switches.size() + addresses.subnets.size() + addresses.links.size();
}

AddressRow addressRow(const core::Plan& plan, const AddressPlan& addresses, std::size_t row)
{
    AddressRow r;
    if (row < addresses.switches.size()) {
        const SwitchAddressing& s = addresses.switches[row];
        r.kind = "switch";
        r.name = s.device;
        r.address = s.loopback;
        r.prefixLength = 32;
        r.asn = std::to_string(s.asn);
        return r;
    }
    row -= addresses.switches.size();
    if (row < addresses.subnets.size()) {
        const LeafSubnet& s = addresses.subnets[row];
        r.kind = "subnet";
        r.name = s.leaf;
        r.address = s.network;
        r.prefixLength = s.prefixLength;
        r.peerAddress = s.gateway;
        r.rail = std::to_string(s.rail);
        r.plane = planeText(s.plane);
        r.tier = "node_leaf";
        return r;
    }
    row -= addresses.subnets.size();
    const LinkAddresses& l = addresses.links.at(row);
    const core::Link& link = plan.links[l.link];
    r.kind = "link";
    r.name = plan.portName(link.a);
    r.address = l.aAddress;
    r.prefixLength = l.prefixLength;
    r.peer = plan.portName(link.b);
    r.peerAddress = l.bAddress;
    if (link.tier == core::LinkTier::NodeLeaf)
        r.rail = std::to_string(link.a.port);
    if (plan.summary.planes > 1)
        r.plane = std::to_string(link.a.plane + 1);
    r.tier = core::toString(link.tier);
    return r;
}

void writeAddressesCsv(const core::Plan& plan, const AddressPlan& addresses, std::ostream& out)
{
    std::string b(kHeader);
    const std::size_t rows = addressRowCount(addresses);
    for (std::size_t i = 0; i < rows; ++i) {
        const AddressRow r = addressRow(plan, addresses, i);
        b += r.kind;
        b += ',';
        core::appendCsvField(b, r.name);
        b += ',' + r.address + ',' + std::to_string(r.prefixLength) + ',';
        core::appendCsvField(b, r.peer);
        b += ',' + r.peerAddress + ',' + r.asn + ',' + r.rail + ',' + r.plane + ',' + r.tier + '\n';
        if (b.size() >= kChunkBytes) {
            out.write(b.data(), static_cast<std::streamsize>(b.size()));
            b.clear();
        }
    }
    out.write(b.data(), static_cast<std::streamsize>(b.size()));
}

void writeAddressesJson(const core::Plan& plan, const AddressPlan& addresses, std::ostream& out)
{
    using nlohmann::json;
    const auto& spec = plan.spec.addressing;
    json doc = json::object();
    doc["plan"] = plan.spec.name;
    doc["scheme"] = addresses.scheme;
    doc["fabric"] = spec.fabric.toString();
    doc["loopbacks"] = spec.loopbacks.toString();
    doc["asn_scheme"] = spec.asn.scheme;
    json& switches = doc["switches"] = json::array();
    for (const SwitchAddressing& s : addresses.switches)
        switches.push_back({ { "device", s.device }, { "asn", s.asn }, { "loopback", s.loopback } });
    json& subnets = doc["subnets"] = json::array();
    for (const LeafSubnet& s : addresses.subnets) {
        subnets.push_back({ { "leaf", s.leaf }, { "rail", s.rail }, { "plane", s.plane }, { "su", s.su }, { "network", s.network },
            { "prefix_length", s.prefixLength }, { "gateway", s.gateway } });
    }
    json& nics = doc["nics"] = json::array();
    for (const NicAddress& n : addresses.nics) {
        nics.push_back({ { "node", n.node }, { "rail", n.rail }, { "plane", n.plane }, { "address", n.address },
            { "prefix_length", n.prefixLength }, { "gateway", n.gateway }, { "leaf", n.leaf }, { "leaf_port", n.leafPort } });
    }
    json& links = doc["links"] = json::array();
    for (const LinkAddresses& l : addresses.links) {
        const core::Link& link = plan.links[l.link];
        links.push_back({ { "link", l.link }, { "a", plan.portName(link.a) }, { "b", plan.portName(link.b) }, { "a_address", l.aAddress },
            { "b_address", l.bAddress }, { "prefix_length", l.prefixLength }, { "tier", std::string(core::toString(link.tier)) } });
    }
    out << doc.dump(1, ' ', false, json::error_handler_t::replace) << '\n';
}

} // namespace railyard::planner
