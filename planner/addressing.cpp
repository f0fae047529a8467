// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "planner/addressing.h"

#include "core/text.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <map>
#include <tuple>

namespace railyard::planner {

using core::Device;
using core::DeviceKind;
using core::LinkTier;
using core::SwitchTier;

namespace {

    // Private AS numbers (RFC 6996); the spec reader accepts a base in one of the two ranges.
    constexpr std::uint64_t kPrivateAsn2Last = 65534;
    constexpr std::uint64_t kPrivateAsn4First = 4200000000ULL;
    constexpr std::uint64_t kPrivateAsn4Last = 4294967294ULL;
    constexpr std::uint64_t kIpv4Space = std::uint64_t { 1 } << 32;

    bool railSubnets(const core::Plan& plan) { return plan.spec.addressing.scheme == "rail_subnets"; }

    /// "10.1.2.3" without the temporaries of formatIpv4 (a 128K-GPU plan formats 800K of them).
    std::string ipText(std::uint32_t a)
    {
        char buf[16];
        char* p = buf;
        for (int shift = 24; shift >= 0; shift -= 8) {
            p = std::to_chars(p, buf + sizeof buf, (a >> shift) & 0xFF).ptr;
            if (shift > 0)
                *p++ = '.';
        }
        return std::string(buf, p);
    }

    /// The longest prefix length whose block holds `count` addresses; -1 when not even /0 does.
    int prefixHolding(std::uint64_t count)
    {
        if (count > kIpv4Space)
            return -1;
        if (count <= 1)
            return 32;
        return 32 - static_cast<int>(std::bit_width(count - 1));
    }

    /// AS number offsets from addressing.asn.base, per switch (device index order), and how many.
    std::vector<std::uint32_t> asnOffsets(const core::Plan& plan, std::uint64_t& count)
    {
        const bool perLeaf = plan.spec.addressing.asn.scheme == "per_leaf";
        const bool threeTiers = plan.summary.tiers == 3;
        std::map<std::tuple<int, int, int>, std::uint32_t> shared; // (tier, plane, pod) -> offset
        std::vector<std::uint32_t> out;
        std::uint32_t next = 0;
        for (const Device& d : plan.devices) {
            if (d.kind != DeviceKind::Switch)
                continue;
            if (perLeaf && d.tier == SwitchTier::Leaf) {
                out.push_back(next++);
                continue;
            }
            // per_leaf: one ASN per spine group (the plane's spines in two tiers, a pod's in three)
            // and one per core plane; per_tier: one per tier.
            std::tuple<int, int, int> key { static_cast<int>(d.tier), 0, 0 };
            if (perLeaf)
                key = { static_cast<int>(d.tier), d.plane, d.tier == SwitchTier::Spine && threeTiers ? d.pod : 0 };
            const auto [it, added] = shared.emplace(key, next);
            if (added)
                ++next;
            out.push_back(it->second);
        }
        count = next;
        return out;
    }

    std::uint64_t asnLast(std::uint32_t base) { return base >= kPrivateAsn4First ? kPrivateAsn4Last : kPrivateAsn2Last; }

    /// Node-facing links per leaf (device index -> count), for the subnet size.
    std::map<std::uint32_t, std::uint32_t> leafHosts(const core::Plan& plan)
    {
        std::map<std::uint32_t, std::uint32_t> hosts;
        for (const core::Link& l : plan.links) {
            if (l.tier == LinkTier::NodeLeaf)
                ++hosts[l.b.device];
        }
        return hosts;
    }

    core::Error tooSmall(const std::string& field, const core::Ipv4Prefix& range, std::uint64_t need, const std::string& what)
    {
        const int fits = prefixHolding(need);
        core::Error e;
        e.code = "ADDRESS_RANGE_TOO_SMALL";
        e.where = field;
        e.message = field + " " + range.toString() + " holds " + core::formatCount(static_cast<long long>(range.size()))
            + " addresses, but the plan needs " + core::formatCount(static_cast<long long>(need)) + " (" + what + ")";
        e.hint = fits < 0 ? std::string("no IPv4 range is that large: split the fabric into planes or several fabrics")
                          : "give a /" + std::to_string(fits) + " or larger";
        return e;
    }

    std::string fabricWhat(const AddressNeeds& n)
    {
        std::string what = core::formatCount(static_cast<long long>(n.p2pLinks)) + " links x /31";
        if (n.subnets > 0)
            what += " + " + core::formatCount(static_cast<long long>(n.subnets)) + " leaf subnets x /" + std::to_string(n.subnetPrefix);
        return what;
    }

    class Assigner {
    public:
        Assigner(const core::Plan& plan, const AddressNeeds& needs)
            : m_plan(plan)
            , m_needs(needs)
            , m_next(plan.spec.addressing.fabric.address)
            , m_planes(plan.summary.planes > 1)
        {
        }

        AddressPlan run()
        {
            AddressPlan out;
            out.scheme = m_plan.spec.addressing.scheme;
            out.links.resize(m_plan.links.size());
            for (std::size_t i = 0; i < out.links.size(); ++i)
                out.links[i].link = i;
            nodeLinks(out);
            for (std::size_t i = 0; i < m_plan.links.size(); ++i) {
                if (m_plan.links[i].tier != LinkTier::NodeLeaf)
                    p2p(out.links[i]);
            }
            switches(out);
            return out;
        }

    private:
        void p2p(LinkAddresses& l)
        {
            l.bAddress = ipText(m_next);
            l.aAddress = ipText(m_next + 1);
            l.prefixLength = 31;
            m_next += 2;
        }

        /// Node-facing links leaf by leaf, the leaves in (plane, rail, SU) order, each leaf's by port.
        /// Bucketed rather than sorted: a 128K-GPU plan has 131K of them.
        std::vector<std::size_t> nicOrder() const
        {
            std::vector<std::vector<std::size_t>> byLeaf(m_plan.devices.size());
            std::vector<std::uint32_t> leaves;
            for (std::size_t i = 0; i < m_plan.links.size(); ++i) {
                const core::Link& l = m_plan.links[i];
                if (l.tier != LinkTier::NodeLeaf)
                    continue;
                if (byLeaf[l.b.device].empty())
                    leaves.push_back(l.b.device);
                byLeaf[l.b.device].push_back(i);
            }
            std::sort(leaves.begin(), leaves.end(), [&](std::uint32_t x, std::uint32_t y) {
                const Device& a = m_plan.devices[x];
                const Device& b = m_plan.devices[y];
                return std::tie(a.plane, a.rail, a.su, x) < std::tie(b.plane, b.rail, b.su, y);
            });
            std::vector<std::size_t> order;
            order.reserve(m_plan.links.size());
            for (const std::uint32_t leaf : leaves) {
                auto& links = byLeaf[leaf];
                // Node ports come in port order; management ports were placed from the top down.
                std::sort(links.begin(), links.end(), [&](std::size_t x, std::size_t y) { return m_plan.links[x].b.port < m_plan.links[y].b.port; });
                order.insert(order.end(), links.begin(), links.end());
            }
            return order;
        }

        void nodeLinks(AddressPlan& out)
        {
            // Where each NIC goes in out.nics: plan link order (node, rail, plane), as AddressPlan promises.
            std::vector<std::size_t> slot(m_plan.links.size(), 0);
            std::size_t nics = 0;
            for (std::size_t i = 0; i < m_plan.links.size(); ++i) {
                const core::Link& l = m_plan.links[i];
                if (l.tier == LinkTier::NodeLeaf && m_plan.devices[l.a.device].kind == DeviceKind::Node)
                    slot[i] = nics++;
            }
            out.nics.resize(nics);
            const bool subnets = railSubnets(m_plan);
            const std::uint32_t size = subnets ? static_cast<std::uint32_t>(std::uint64_t { 1 } << (32 - m_needs.subnetPrefix)) : 0;
            std::uint32_t leaf = ~std::uint32_t { 0 };
            std::uint32_t network = 0, host = 0;
            for (const std::size_t i : nicOrder()) {
                const core::Link& link = m_plan.links[i];
                LinkAddresses& l = out.links[i];
                if (!subnets) {
                    p2p(l);
                } else {
                    if (link.b.device != leaf) {
                        leaf = link.b.device;
                        network = m_next;
                        host = network + 2;
                        m_next += size;
                        addSubnet(out, leaf, network);
                    }
                    l.aAddress = ipText(host++);
                    l.bAddress = out.subnets.back().gateway;
                    l.prefixLength = m_needs.subnetPrefix;
                }
                if (m_plan.devices[link.a.device].kind == DeviceKind::Node)
                    addNic(out.nics[slot[i]], link, l);
            }
        }

        void addSubnet(AddressPlan& out, std::uint32_t leaf, std::uint32_t network)
        {
            const Device& d = m_plan.devices[leaf];
            out.subnets.push_back({ d.name, d.rail, d.plane, d.su, ipText(network), m_needs.subnetPrefix, ipText(network + 1) });
        }

        void addNic(NicAddress& n, const core::Link& link, const LinkAddresses& l)
        {
            n.node = m_plan.devices[link.a.device].name;
            n.rail = link.a.port;
            n.plane = m_planes ? link.a.plane + 1 : 0;
            n.address = l.aAddress;
            n.prefixLength = l.prefixLength;
            n.gateway = l.bAddress;
            n.leaf = m_plan.devices[link.b.device].name;
            n.leafPort = m_plan.portName(link.b);
        }

        void switches(AddressPlan& out)
        {
            std::uint64_t count = 0;
            const std::vector<std::uint32_t> asn = asnOffsets(m_plan, count);
            const auto& spec = m_plan.spec.addressing;
            std::uint32_t loopback = spec.loopbacks.address + (spec.loopbacks.length < 32 ? 1 : 0);
            std::size_t k = 0;
            for (const Device& d : m_plan.devices) {
                if (d.kind != DeviceKind::Switch)
                    continue;
                out.switches.push_back({ d.name, spec.asn.base + asn[k++], ipText(loopback++) });
            }
        }

        const core::Plan& m_plan;
        const AddressNeeds& m_needs;
        std::uint32_t m_next;
        bool m_planes;
    };

} // namespace

bool isRouted(const core::Plan& plan)
{
    return plan.spec.fabric == core::Fabric::RoCEv2 && plan.spec.addressingGiven;
}

AddressNeeds addressNeeds(const core::Plan& plan)
{
    AddressNeeds n;
    const bool subnets = railSubnets(plan);
    for (const core::Link& l : plan.links) {
        if (!subnets || l.tier != LinkTier::NodeLeaf)
            ++n.p2pLinks;
    }
    if (subnets) {
        std::uint32_t most = 0;
        const auto hosts = leafHosts(plan);
        for (const auto& [leaf, count] : hosts)
            most = std::max(most, count);
        n.subnets = hosts.size();
        // The network address, the gateway, the hosts and the broadcast address.
        n.subnetPrefix = std::max(0, prefixHolding(std::uint64_t { most } + 3));
    }
    n.fabricAddresses = 2 * n.p2pLinks + n.subnets * (std::uint64_t { 1 } << (32 - n.subnetPrefix));
    for (const Device& d : plan.devices)
        n.loopbacks += d.kind == DeviceKind::Switch ? 1 : 0;
    asnOffsets(plan, n.asns);
    return n;
}

core::Errors addressRangeProblems(const core::Plan& plan, const AddressNeeds& needs)
{
    const auto& spec = plan.spec.addressing;
    core::Errors out;
    if (needs.fabricAddresses > spec.fabric.size())
        out.push_back(tooSmall("addressing.fabric", spec.fabric, needs.fabricAddresses, fabricWhat(needs)));
    // A loopback range wider than /32 keeps its first (network) address unused.
    const std::uint64_t loopbacks = spec.loopbacks.size() - (spec.loopbacks.length < 32 ? 1 : 0);
    if (needs.loopbacks > loopbacks) {
        core::Error e = tooSmall("addressing.loopbacks", spec.loopbacks, needs.loopbacks + 1,
            core::formatCount(static_cast<long long>(needs.loopbacks)) + " switches x /32, and the unused network address");
        out.push_back(std::move(e));
    }
    const std::uint64_t asns = asnLast(spec.asn.base) - spec.asn.base + 1;
    if (needs.asns > asns) {
        const bool two = spec.asn.base <= kPrivateAsn2Last;
        out.push_back(core::Error { "ASN_RANGE_TOO_SMALL",
            "addressing.asn.base " + std::to_string(spec.asn.base) + " leaves " + core::formatCount(static_cast<long long>(asns))
                + " private AS numbers up to " + std::to_string(asnLast(spec.asn.base)) + ", but the " + spec.asn.scheme
                + " scheme needs " + core::formatCount(static_cast<long long>(needs.asns)),
            "addressing.asn.base",
            two ? "use the 4-byte private range (base 4200000000), or the per_tier scheme"
                : "give a lower base (from 4200000000), or use the per_tier scheme" });
    }
    return out;
}

core::Result<AddressPlan> planAddresses(const core::Plan& plan)
{
    if (plan.spec.fabric != core::Fabric::RoCEv2)
        return core::Error { "ADDRESSING_NOT_ROCE", "the plan is an InfiniBand fabric; IP addressing is for RoCEv2 fabrics",
            "fabric", "InfiniBand ports are addressed by the subnet manager (LIDs)" };
    if (plan.links.empty())
        return core::Error { "ADDRESSING_NO_FABRIC", "the plan has no links to address: it could not be sized", "",
            "railyard-cli validate lists the error findings; fix those first" };
    const AddressNeeds needs = addressNeeds(plan);
    if (core::Errors problems = addressRangeProblems(plan, needs); !problems.empty())
        return problems;
    return Assigner(plan, needs).run();
}

} // namespace railyard::planner
