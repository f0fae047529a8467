// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/live_check.h"

#include "core/plan_json.h"
#include "core/text.h"
#include "live/client/dumps.h"
#include "live/client/host_intent_check.h"
#include "live/common/inventory_json.h"
#include "live/common/text_scan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

namespace railyard::live {

namespace {

    using core::Finding;
    using core::Severity;

    /// The kernel's RoCE header allowance: iboe_get_mtu() (Linux include/rdma/ib_addr.h) takes
    /// IB_GRH_BYTES + IB_UDP_BYTES + IB_BTH_BYTES + IB_EXT_XRC_BYTES + IB_EXT_ATOMICETH_BYTES +
    /// IB_ICRC_BYTES = 40 + 8 + 12 + 4 + 28 + 4 = 96 bytes off the netdev MTU and uses the largest
    /// RDMA MTU (256..4096) that fits in the rest. RDMA MTU 4096 needs a netdev MTU of 4192 or more.
    constexpr int kRoceHeaderBytes = 96;
    constexpr std::array kRdmaMtus { 256, 512, 1024, 2048, 4096 };

    std::string formatGbps(double gbps)
    {
        std::ostringstream out;
        out << (std::abs(gbps - std::round(gbps)) < 1e-6 ? std::round(gbps) : gbps);
        return out.str() + " Gb/s";
    }

    std::string joinList(const std::vector<std::string>& items)
    {
        std::string out;
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (i > 0)
                out += i + 1 == items.size() ? " and " : ", ";
            out += items[i];
        }
        return out;
    }

    std::string priorityList(const std::vector<int>& priorities)
    {
        std::vector<std::string> items;
        for (int p : priorities)
            items.push_back(std::to_string(p));
        return (priorities.size() == 1 ? "priority " : "priorities ") + joinList(items);
    }

    /// "28.39.1002" < "28.40.1000", numerically by component.
    bool versionLess(const std::string& a, const std::string& b)
    {
        std::istringstream sa(a), sb(b);
        std::string pa, pb;
        while (true) {
            const bool ha = static_cast<bool>(std::getline(sa, pa, '.'));
            const bool hb = static_cast<bool>(std::getline(sb, pb, '.'));
            if (!ha || !hb)
                return !ha && hb;
            const bool na = !pa.empty() && std::all_of(pa.begin(), pa.end(), ::isdigit);
            const bool nb = !pb.empty() && std::all_of(pb.begin(), pb.end(), ::isdigit);
            if (na && nb && pa != pb) {
                if (pa.size() != pb.size())
                    return pa.size() < pb.size();
                return pa < pb;
            }
            if (pa != pb)
                return pa < pb;
        }
    }

    bool portActive(const RdmaPort& port) { return port.state == 4 || port.state == 5; }

    std::string physText(const RdmaPort& port)
    {
        if (!port.physStateName.empty())
            return port.physStateName;
        return port.physState == 0 ? std::string("unknown") : std::to_string(port.physState);
    }

    std::string stateText(const RdmaPort& port)
    {
        if (!port.stateName.empty())
            return port.stateName;
        switch (port.state) {
        case 1: return "DOWN";
        case 2: return "INIT";
        case 3: return "ARMED";
        case 4: return "ACTIVE";
        case 5: return "ACTIVE_DEFER";
        default: return port.state == 0 ? "unknown" : std::to_string(port.state);
        }
    }

    /// Collects what the host did not let us read, one info finding per node and topic.
    class Unverified {
    public:
        void add(const std::string& topic, const std::string& item) { m_items[topic].insert(item); }

        void emit(const std::string& node, std::vector<Finding>& out) const
        {
            for (const auto& [topic, items] : m_items) {
                std::vector<std::string> list(items.begin(), items.end());
                out.push_back({ Severity::Info, "CANNOT_VERIFY",
                    node + ": cannot verify " + topic + " (" + joinList(list) + "): " + hintFor(topic), node });
            }
        }

    private:
        static std::string hintFor(const std::string& topic)
        {
            if (topic.rfind("ECN", 0) == 0 || topic.rfind("DCQCN", 0) == 0)
                return "the mlx5 ecn/roce_np and ecn/roce_rp files are not readable on this host (they exist only "
                       "with NVIDIA's driver stack); check the setting by hand";
            if (topic.rfind("PFC", 0) == 0)
                return "the DCB settings were not readable (dcb pfc show / mlnx_qos); check them by hand";
            if (topic.rfind("trust", 0) == 0)
                return "the trust state was not readable (`mlnx_qos -i <netdev>` shows it; `dcb pfc show` does not); "
                       "check it by hand";
            if (topic == "IP addresses" || topic == "policy routing" || topic == "rp_filter and ARP" || topic.rfind("the host's IP", 0) == 0)
                return "the agent did not report it (an agent older than the host checks, or `ip` missing on the node); "
                       "check with `ip -4 addr`, `ip rule`, `ip route show table all` and `sysctl net.ipv4.conf` on the node";
            if (topic == "GID table")
                return "the port's GID table was not readable (gids/ and gid_attrs/ in sysfs); check with `show_gids` or "
                       "`cat /sys/class/infiniband/<dev>/ports/<n>/gids/<i>` by hand";
            if (topic.rfind("GPUDirect", 0) == 0)
                return "neither nvidia-peermem nor dma-buf support could be read; check `lsmod | grep peermem` by hand";
            if (topic.rfind("ACS", 0) == 0)
                return "the bridges' ACS control could not be read (needs root: `lspci -vvv | grep ACSCtl`)";
            if (topic.rfind("GPU", 0) == 0)
                return "the GPU list or its PCI placement was not readable (`nvidia-smi topo -m` shows it)";
            return "the value was not readable on this host; check it by hand";
        }

        std::map<std::string, std::set<std::string>> m_items;
    };

    /// The plan facts the checks need, computed once.
    struct PlanFacts {
        const core::Plan& plan;
        std::vector<std::string> railMap;
        int rails = 0;
        int planes = 1;
        int gpusPerNode = 0;
        bool ib = true;
        std::map<std::tuple<std::uint32_t, std::uint16_t, std::uint8_t>, const core::Link*> nodeLinks;

        std::string plannedRateText() const
        {
            const core::PortRate& r = plan.summary.port;
            if (ib && r.generation)
                return std::to_string(r.lanes) + "x " + std::string(core::toString(*r.generation)) + " (" + formatGbps(r.dataGbps) + ")";
            return formatGbps(r.dataGbps);
        }

        /// "su1-rail3-leaf/7 <-> node007/nic3", or the node port alone when no cable is planned.
        std::string cableText(std::uint32_t node, int rail, int plane) const
        {
            const core::PortRef ref { node, static_cast<std::uint16_t>(rail), static_cast<std::uint8_t>(plane) };
            const auto it = nodeLinks.find({ node, ref.port, ref.plane });
            if (it == nodeLinks.end())
                return plan.portName(ref);
            return plan.portName(it->second->b) + " <-> " + plan.portName(it->second->a);
        }
    };

    /// The device serving `rail`: the rail map's entry by name or PCI address, else the agent's rail.
    const RdmaDevice* railDevice(const Inventory& inventory, const PlanFacts& facts, int rail)
    {
        if (rail < static_cast<int>(facts.railMap.size())) {
            const std::string_view want = facts.railMap[static_cast<std::size_t>(rail)];
            for (const RdmaDevice& d : inventory.devices) {
                if (core::equalsIgnoreCase(d.name, want) || (!d.pciAddress.empty() && core::equalsIgnoreCase(d.pciAddress, want)))
                    return &d;
            }
            // PCI addresses may be written without the domain ("18:00.0").
            for (const RdmaDevice& d : inventory.devices) {
                const std::string_view pci = d.pciAddress;
                if (pci.size() > want.size() && core::equalsIgnoreCase(pci.substr(pci.size() - want.size()), want)
                    && pci[pci.size() - want.size() - 1] == ':')
                    return &d;
            }
            return nullptr;
        }
        for (const RdmaDevice& d : inventory.devices) {
            if (d.rail == rail)
                return &d;
        }
        return nullptr;
    }

    /// The RDMA port of `device` that carries `plane` (port plane+1 when the device has it).
    const RdmaPort* railPort(const RdmaDevice& device, int plane)
    {
        for (const RdmaPort& p : device.ports) {
            if (p.number == plane + 1)
                return &p;
        }
        if (plane == 0 && !device.ports.empty())
            return &device.ports.front();
        return nullptr;
    }

    struct NodeContext {
        const PlanFacts& facts;
        const core::Device& device;
        std::uint32_t index;
        const Inventory& inventory;
        std::vector<Finding>& out;
        Unverified unverified;

        std::string prefix(int rail, const RdmaDevice* nic) const
        {
            std::string s = device.name + " rail " + std::to_string(rail);
            if (nic)
                s += " (" + nic->name + ")";
            return s;
        }
        std::string where(int rail, int plane = 0) const
        {
            return facts.plan.portName({ index, static_cast<std::uint16_t>(rail), static_cast<std::uint8_t>(plane) });
        }
        void add(Severity severity, const char* code, std::string message, std::string at)
        {
            out.push_back({ severity, code, std::move(message), std::move(at) });
        }
    };

    void checkPortState(NodeContext& c, int rail, int plane, const RdmaDevice& nic, const RdmaPort& port)
    {
        const std::string head = c.prefix(rail, &nic) + (nic.ports.size() > 1 ? " port " + std::to_string(port.number) : "");
        const std::string cable = c.facts.cableText(c.index, rail, plane);
        const std::string at = c.where(rail, plane);
        if (port.state == 0) {
            c.unverified.add("link state", nic.name);
            return;
        }
        if (port.state == 1) {
            std::string message = head + ": link is DOWN, physical state " + physText(port);
            if (port.physState == 3 && port.linkLayer == LinkLayer::Ethernet)
                message += " (administratively off): enable it (`ip link set " + (nic.netdev.empty() ? std::string("<netdev>") : nic.netdev)
                    + " up`, and the switch port), then check the cable " + cable;
            else if (port.physState == 3)
                message += " (administratively off): enable it (`mlxlink -d " + nic.name + " -p " + std::to_string(port.number)
                    + " -a UP`; if the subnet manager or the switch disabled it, `ibportstate` from the SM host), then check the cable " + cable;
            else if (port.physState == 2)
                message += " (no cable or no peer: the NIC sees no signal): plug in or replace the cable " + cable
                    + " and check that the switch port is enabled";
            else
                message += ": check the cable " + cable + " and the switch port";
            c.add(Severity::Error, "LINK_DOWN", std::move(message), at);
            return;
        }
        if ((port.state == 2 || port.state == 3) && port.linkLayer != LinkLayer::Ethernet) {
            std::string message = head + ": port is " + stateText(port) + " with physical state " + physText(port);
            if (port.state == 2)
                message += ": no subnet manager has brought it to ACTIVE: start OpenSM (or UFM) on the fabric and check "
                           "that it sees this port (`sminfo`, `ibstat " + nic.name + "`)";
            else
                message += ": the subnet manager configured it but did not activate it: check the subnet manager's log";
            c.add(Severity::Error, "NO_SUBNET_MANAGER", std::move(message), at);
            return;
        }
        if (!portActive(port))
            c.add(Severity::Error, "LINK_DOWN",
                head + ": port is " + stateText(port) + " (physical state " + physText(port) + "), not ACTIVE: check the cable " + cable
                    + " and the switch port",
                at);
    }

    void checkPortRate(NodeContext& c, int rail, int plane, const RdmaDevice& nic, const RdmaPort& port)
    {
        const core::PortRate& planned = c.facts.plan.summary.port;
        const std::string cable = c.facts.cableText(c.index, rail, plane);
        const std::string head = c.prefix(rail, &nic) + (nic.ports.size() > 1 ? " port " + std::to_string(port.number) : "");
        if (port.rateGbps <= 0 && port.width == 0 && port.generation.empty()) {
            c.unverified.add("link rate", nic.name);
            return;
        }
        if (c.facts.ib) {
            const std::optional<core::IbGeneration> seenGen = core::parseIbGeneration(port.generation);
            const bool narrower = port.width > 0 && port.width < planned.lanes;
            const bool slowerGen = seenGen && planned.generation && *seenGen < *planned.generation;
            const bool slowerRate = port.width == 0 && !seenGen && port.rateGbps > 0 && port.rateGbps + 0.5 < planned.dataGbps;
            if (!narrower && !slowerGen && !slowerRate)
                return;
            std::string seen;
            if (port.width > 0)
                seen = std::to_string(port.width) + "x";
            if (!port.generation.empty())
                seen += (seen.empty() ? "" : " ") + port.generation;
            seen += (seen.empty() ? "" : " ") + ("(" + formatGbps(port.rateGbps) + ")");
            std::string message = head + ": link trained at " + seen + ", planned " + c.facts.plannedRateText() + ": ";
            if (slowerGen)
                message += "check that the cable, its transceivers and the switch port support "
                    + std::string(core::toString(*planned.generation)) + ", then reseat or replace the cable " + cable;
            else
                message += "reseat or replace the cable " + cable + " (a lane did not come up: dirty or damaged connector, or a bad transceiver)";
            c.add(Severity::Error, "LINK_DEGRADED", std::move(message), c.where(rail, plane));
            return;
        }
        if (port.rateGbps > 0 && port.rateGbps + 0.5 < planned.dataGbps)
            c.add(Severity::Error, "LINK_DEGRADED",
                head + ": link runs at " + formatGbps(port.rateGbps) + ", planned " + c.facts.plannedRateText()
                    + ": check the switch port's speed and auto-negotiation, then reseat or replace the cable " + cable,
                c.where(rail, plane));
    }

    void checkPcie(NodeContext& c, const std::string& head, const PcieLink& link, const std::string& at, bool speedToo,
        const std::string& fix)
    {
        const bool slow = speedToo && link.speedGts > 0 && link.maxSpeedGts > 0 && link.speedGts + 0.01 < link.maxSpeedGts;
        const bool narrow = link.width > 0 && link.maxWidth > 0 && link.width < link.maxWidth;
        if (!slow && !narrow)
            return;
        std::ostringstream s;
        s << head << ": PCIe link at " << link.speedGts << " GT/s x" << link.width << ", the device supports " << link.maxSpeedGts
          << " GT/s x" << link.maxWidth << ": " << fix;
        c.add(Severity::Warning, "PCIE_DEGRADED", s.str(), at);
    }

    /// The priorities RoCE traffic runs on: the PFC priorities, or (lossy) the DSCP's class.
    std::vector<int> roCePriorities(const core::LosslessProfile& profile)
    {
        if (profile.mode != "lossy" && !profile.pfcPriorities.empty())
            return profile.pfcPriorities;
        return { profile.roceDscp >> 3 };
    }

    /// `intent`: the node's host intent on a routed plan; then the trust, PFC and MTU fixes are the
    /// host script's own commands (planner/host_config.h).
    void checkLossless(NodeContext& c, int rail, const RdmaDevice& nic, const planner::HostIntent* intent)
    {
        const core::LosslessProfile& profile = c.facts.plan.spec.lossless;
        const std::string head = c.prefix(rail, &nic);
        const std::string dev = nic.netdev.empty() ? std::string("<netdev>") : nic.netdev;
        const std::string at = c.where(rail);
        const QosConfig& q = nic.qos;

        // PFC on exactly the planned priorities (none in lossy mode).
        std::vector<int> expected;
        if (profile.mode != "lossy")
            expected = profile.pfcPriorities;
        if (!q.pfcKnown) {
            c.unverified.add("PFC", nic.name);
        } else {
            std::vector<int> missing, extra;
            for (int p = 0; p < 8; ++p) {
                const bool want = std::find(expected.begin(), expected.end(), p) != expected.end();
                if (want && !q.pfcEnabled[static_cast<std::size_t>(p)])
                    missing.push_back(p);
                if (!want && q.pfcEnabled[static_cast<std::size_t>(p)])
                    extra.push_back(p);
            }
            std::string pfcVector;
            std::string dcbMap = "all:off";
            for (int p = 0; p < 8; ++p) {
                const bool want = std::find(expected.begin(), expected.end(), p) != expected.end();
                pfcVector += std::string(p ? "," : "") + (want ? "1" : "0");
                if (want)
                    dcbMap += " " + std::to_string(p) + ":on";
            }
            // Without NVIDIA's tools (the inbox driver), iproute2's dcb sets the same (dcb-pfc(8)).
            const std::string fix = intent ? "`" + planner::hostQosCommand(intent->qos, dev) + "` (and the same on its switch port)"
                                           : "`mlnx_qos -i " + dev + " --pfc " + pfcVector + "` or `dcb pfc set dev " + dev + " prio-pfc "
                    + dcbMap + "` (and the same on its switch port)";
            if (!missing.empty())
                c.add(Severity::Error, "PFC_MISSING",
                    head + ": PFC is off on " + priorityList(missing) + ", the plan's lossless "
                        + (missing.size() == 1 ? "priority" : "priorities") + ": RoCE packets will be dropped under congestion: "
                        + fix,
                    at);
            if (!extra.empty())
                c.add(Severity::Warning, "PFC_EXTRA_PRIORITY",
                    head + ": PFC is also on " + priorityList(extra) + ", which the plan keeps lossy"
                        + (profile.mode == "lossy" ? " (mode lossy: no PFC at all)" : "")
                        + ": pauses there can spread congestion (head-of-line blocking): " + fix,
                    at);
        }

        // Trust mode: how the NIC maps packets to priorities.
        if (profile.mode != "lossy") {
            if (q.trust.empty())
                c.unverified.add("trust mode", nic.name);
            else if (!core::equalsIgnoreCase(q.trust, profile.trust))
                c.add(Severity::Error, "TRUST_MISMATCH",
                    head + ": trust mode is " + q.trust + ", planned " + profile.trust + ": RoCE traffic (DSCP "
                        + std::to_string(profile.roceDscp) + ") does not reach the lossless queue: `"
                        + (intent ? planner::hostQosCommand(intent->qos, dev) : "mlnx_qos -i " + dev + " --trust " + profile.trust) + "`",
                    at);
        }

        // ECN notification point and DCQCN reaction point on the RoCE priorities.
        const std::vector<int> priorities = roCePriorities(profile);
        auto checkTri = [&](const std::array<Tri, 8>& values, bool wanted, const char* code, const char* topic, const char* file,
                            const char* what) {
            if (!wanted)
                return;
            std::vector<int> off;
            bool unknown = false;
            for (int p : priorities) {
                if (p < 0 || p > 7)
                    continue;
                const Tri v = values[static_cast<std::size_t>(p)];
                if (v == Tri::Off)
                    off.push_back(p);
                else if (v == Tri::Unknown)
                    unknown = true;
            }
            if (unknown)
                c.unverified.add(topic, nic.name);
            if (off.empty())
                return;
            std::string commands;
            for (int p : off)
                commands += std::string(commands.empty() ? "" : "; ") + "`echo 1 > /sys/class/net/" + dev + "/ecn/" + file + "/enable/"
                    + std::to_string(p) + "`";
            c.add(Severity::Error, code, head + ": " + what + " is off on " + priorityList(off) + ": " + commands, at);
        };
        checkTri(q.ecnNp, profile.ecn, "ECN_DISABLED", "ECN (notification point)", "roce_np",
            "ECN notification point (the NIC answers ECN-marked packets with CNPs)");
        checkTri(q.ecnRp, profile.dcqcn, "DCQCN_DISABLED", "DCQCN (reaction point)", "roce_rp",
            "DCQCN reaction point (the NIC slows down when it receives CNPs)");

        // MTU: the netdev MTU bounds the RDMA path MTU.
        if (nic.mtu <= 0) {
            c.unverified.add("MTU", nic.name);
            return;
        }
        const int planned = profile.mtu;
        const bool rdmaMtu = std::find(kRdmaMtus.begin(), kRdmaMtus.end(), planned) != kRdmaMtus.end();
        const int needed = rdmaMtu ? planned + kRoceHeaderBytes : planned;
        if (nic.mtu >= needed)
            return;
        std::string message = head + ": " + dev + " MTU is " + std::to_string(nic.mtu);
        if (rdmaMtu) {
            int usable = 0;
            for (int m : kRdmaMtus) {
                if (m + kRoceHeaderBytes <= nic.mtu)
                    usable = m;
            }
            message += ", so RoCE runs at an RDMA MTU of " + (usable ? std::to_string(usable) : std::string("less than 256"))
                + ", planned " + std::to_string(planned) + " (the kernel keeps " + std::to_string(kRoceHeaderBytes)
                + " bytes for RoCE headers): set the MTU to " + std::to_string(needed) + " or more (9000 is usual) on " + dev
                + " and its switch port";
        } else {
            message += ", planned " + std::to_string(planned) + ": set it on " + dev + " and its switch port";
        }
        if (intent)
            message += ": `" + planner::hostMtuCommand(intent->qos, dev) + "`";
        c.add(Severity::Warning, "MTU_TOO_SMALL", std::move(message), at);
    }

    void checkGpus(NodeContext& c, const std::vector<const RdmaDevice*>& nics)
    {
        const Inventory& inv = c.inventory;
        const std::string& node = c.device.name;
        if (inv.gpus.empty()) {
            c.unverified.add("GPUs and GPU-NIC affinity", "no GPU list");
        } else {
            const int expected = c.facts.gpusPerNode;
            for (int k = 0; k < expected; ++k) {
                const auto gpu = std::find_if(inv.gpus.begin(), inv.gpus.end(), [k](const Gpu& g) { return g.index == k; });
                const std::string at = k < c.facts.rails ? c.where(k) : node;
                if (gpu == inv.gpus.end()) {
                    c.add(Severity::Error, "GPU_MISSING",
                        node + " GPU " + std::to_string(k) + ": not found (the node shows " + std::to_string(inv.gpus.size()) + " of "
                            + std::to_string(expected)
                            + " GPUs): check `nvidia-smi` and the kernel log (a GPU that fell off the bus needs a reseat or a replacement)",
                        at);
                    continue;
                }
                const std::string head = node + " GPU " + std::to_string(k) + (gpu->pciAddress.empty() ? "" : " (" + gpu->pciAddress + ")");
                checkPcie(c, head, gpu->pcie, at, false, "reseat the GPU board or check its slot, riser and the BIOS PCIe settings");
                if (k >= c.facts.rails)
                    continue;
                const RdmaDevice* nic = nics[static_cast<std::size_t>(k)];
                if (!nic)
                    continue;
                if (gpu->closestNic.empty()) {
                    c.unverified.add("GPU-NIC affinity", "GPU " + std::to_string(k));
                } else if (gpu->closestNic != nic->name) {
                    c.add(Severity::Warning, "GPU_NIC_AFFINITY",
                        head + ": its closest NIC is " + gpu->closestNic + (gpu->pathToNic.empty() ? "" : " (path " + gpu->pathToNic + ")")
                            + ", but rail " + std::to_string(k) + " is " + nic->name
                            + ": GPU " + std::to_string(k)
                            + "'s traffic crosses the CPU: fix the node type's rail_map (NIC k must be the NIC nearest GPU k), or cable "
                            + gpu->closestNic + " to rail " + std::to_string(k),
                        at);
                }
                if (gpu->acsOnPath == Tri::On)
                    c.add(Severity::Warning, "ACS_ENABLED",
                        head + ": ACS is enabled on a PCIe bridge between it and " + nic->name
                            + ": GPUDirect RDMA traffic is redirected through the root complex: disable ACS on those bridges (BIOS setting, or "
                              "`setpci` at boot)",
                        at);
                else if (gpu->acsOnPath == Tri::Unknown)
                    c.unverified.add("ACS on the GPU-NIC paths", "GPU " + std::to_string(k));
            }
        }

        const GpuDirect& gd = inv.gpuDirect;
        if (gd.possible())
            return;
        if (gd.peermem == Tri::Off && gd.dmabuf == Tri::Off)
            c.add(Severity::Error, "NO_GPUDIRECT",
                node + ": GPUDirect RDMA is not possible: nvidia-peermem is not loaded and there is no dma-buf support: load "
                       "nvidia-peermem (`modprobe nvidia-peermem`, and add it to /etc/modules-load.d), or use a GPU driver and kernel with "
                       "dma-buf (open kernel modules, Linux 5.12 or later)",
                node);
        else
            c.unverified.add("GPUDirect RDMA", "nvidia-peermem " + std::string(toString(gd.peermem)) + ", dma-buf "
                    + std::string(toString(gd.dmabuf)));
    }

    NodeStatus statusOf(const NodeObservation& o, const Inventory* inv, const PlanFacts& facts, bool planned)
    {
        NodeStatus s;
        s.node = o.node;
        s.source = o.source;
        s.planned = planned;
        s.reachable = inv != nullptr;
        if (o.error)
            s.error = o.error->toString();
        if (!inv)
            return s;
        s.hostname = inv->hostname;
        s.gpus = static_cast<int>(inv->gpus.size());
        s.warnings = inv->warnings;
        // Each rail's device, looked up once (the highest rail wins where two name the same one).
        std::map<const RdmaDevice*, int> railOf;
        for (int r = 0; r < facts.rails; ++r)
            if (const RdmaDevice* d = railDevice(*inv, facts, r))
                railOf[d] = r;
        for (const RdmaDevice& d : inv->devices) {
            DeviceSeen seen;
            seen.device = d.name;
            if (const auto it = railOf.find(&d); it != railOf.end())
                seen.rail = it->second;
            seen.firmware = d.fwVersion;
            seen.mtu = d.mtu;
            if (const RdmaPort* p = railPort(d, 0)) {
                seen.linkLayer = std::string(toString(p->linkLayer));
                seen.state = stateText(*p);
                seen.physState = physText(*p);
                seen.rate = p->rateText;
            }
            s.devices.push_back(std::move(seen));
        }
        return s;
    }

    std::string observationFindingCode(const core::Error& error)
    {
        if (error.code == agent_error::kTokenRefused)
            return "TOKEN_REFUSED";
        if (error.code == agent_error::kUnreachable || error.code == agent_error::kTimedOut || error.code == agent_error::kBadUrl
            || error.code == "DUMP_MISSING")
            return "NODE_UNREACHABLE";
        return "AGENT_ERROR";
    }

    struct FirmwareEntry {
        std::size_t nodeOrder;
        std::string node;
        int rail;
        std::string device;
        std::string where;
        std::string version;
    };

    void checkFirmware(const std::map<std::string, std::vector<FirmwareEntry>>& byType,
        std::vector<std::pair<std::size_t, Finding>>& out)
    {
        for (const auto& [type, entries] : byType) {
            std::map<std::string, int> counts;
            for (const FirmwareEntry& e : entries)
                ++counts[e.version];
            if (counts.size() < 2)
                continue;
            // The majority; a tie goes to the newest version.
            auto best = counts.begin();
            for (auto it = counts.begin(); it != counts.end(); ++it) {
                if (it->second > best->second || (it->second == best->second && versionLess(best->first, it->first)))
                    best = it;
            }
            const std::string& majority = best->first;
            std::set<std::string> oddNodes;
            for (const FirmwareEntry& e : entries) {
                if (e.version != majority)
                    oddNodes.insert(e.node);
            }
            std::vector<std::string> oddList(oddNodes.begin(), oddNodes.end());
            if (oddList.size() > 8) {
                const std::size_t more = oddList.size() - 8;
                oddList.resize(8);
                oddList.push_back(std::to_string(more) + " more");
            }
            const std::string typeName = type.empty() ? std::string("rail NICs of unknown type") : type + " NICs";
            for (const FirmwareEntry& e : entries) {
                if (e.version == majority)
                    continue;
                out.push_back({ e.nodeOrder,
                    { Severity::Warning, "FIRMWARE_MISMATCH",
                        e.node + " rail " + std::to_string(e.rail) + " (" + e.device + "): firmware " + e.version + ", while "
                            + std::to_string(best->second) + " of " + std::to_string(entries.size()) + " " + typeName + " run " + majority
                            + " (the majority; odd nodes: " + joinList(oddList) + "): update it to " + majority
                            + " (`mlxfwmanager` or `flint`) so that every node runs the same firmware",
                        e.where } });
            }
        }
    }

} // namespace

bool LiveCheckReport::hasErrors() const
{
    return count(Severity::Error) > 0;
}

int LiveCheckReport::count(core::Severity severity) const
{
    return static_cast<int>(std::count_if(findings.begin(), findings.end(), [severity](const Finding& f) { return f.severity == severity; }));
}

std::vector<std::string> railMapOf(const core::Plan& plan, const core::Catalog& catalog)
{
    if (const core::NodeType* type = catalog.findNodeType(plan.spec.nodeType))
        return type->railMap;
    return {};
}

LiveCheckReport checkFabric(const core::Plan& plan, const core::Catalog& catalog, const std::vector<NodeObservation>& observed)
{
    PlanFacts facts { plan, railMapOf(plan, catalog), 0, 1, 0, true, {} };
    facts.rails = plan.summary.rails;
    facts.planes = std::max(1, plan.summary.planes);
    facts.ib = plan.spec.fabric == core::Fabric::InfiniBand;
    facts.gpusPerNode = plan.spec.gpusPerNode.value_or(0);
    if (facts.gpusPerNode == 0) {
        const core::NodeType* type = catalog.findNodeType(plan.spec.nodeType);
        facts.gpusPerNode = type ? type->gpus : facts.rails;
    }
    for (const core::Link& link : plan.links) {
        if (link.tier == core::LinkTier::NodeLeaf)
            facts.nodeLinks[{ link.a.device, link.a.port, link.a.plane }] = &link;
    }

    std::map<std::string, const NodeObservation*> byNode;
    for (const NodeObservation& o : observed)
        byNode.emplace(o.node, &o);

    LiveCheckReport report;
    // A routed RoCEv2 plan: what each node's IP setup must be (the host script's intent).
    std::map<std::string, planner::HostIntent> hostIntents;
    if (!facts.ib && plan.spec.addressingGiven) {
        std::optional<core::Error> problem;
        if (auto addresses = planner::planAddresses(plan); !addresses) {
            problem = addresses.errors().front();
        } else if (auto hosts = planner::hostIntents(plan, *addresses, facts.railMap); !hosts) {
            problem = hosts.errors().front();
        } else {
            for (planner::HostIntent& h : *hosts)
                hostIntents.emplace(h.node, std::move(h));
        }
        if (problem) {
            const core::Error& e = *problem;
            report.findings.push_back({ Severity::Warning, "HOST_INTENT_UNAVAILABLE",
                "the hosts' addresses, routing and ARP settings were not checked: the plan's host intent cannot be made: " + e.message
                    + (e.hint.empty() ? "" : " (" + e.hint + ")"),
                e.where.empty() ? plan.spec.nodeType : e.where });
        }
    }
    std::vector<std::pair<std::size_t, Finding>> ordered; // (node order, finding)
    std::map<std::string, std::vector<FirmwareEntry>> firmware;
    std::set<std::string> plannedNames;
    std::size_t order = 0;

    for (std::uint32_t index = 0; index < plan.devices.size(); ++index) {
        const core::Device& device = plan.devices[index];
        if (device.kind != core::DeviceKind::Node || !device.installed)
            continue;
        plannedNames.insert(device.name);
        const std::size_t nodeOrder = order++;
        std::vector<Finding> found;
        const auto it = byNode.find(device.name);
        if (it == byNode.end()) {
            NodeObservation none { device.name, "", std::nullopt, std::nullopt };
            NodeStatus status = statusOf(none, nullptr, facts, true);
            status.error = "not listed";
            report.nodes.push_back(std::move(status));
            report.complete = false;
            ordered.push_back({ nodeOrder,
                { Severity::Error, "NODE_UNREACHABLE",
                    device.name + ": no agent (or dump folder) is listed for this planned node, so it was not checked: add it to "
                                  "agents.json (or collect its outputs into the dumps folder)",
                    device.name } });
            continue;
        }
        const NodeObservation& o = *it->second;
        const Inventory* inv = o.inventory ? &*o.inventory : nullptr;
        report.nodes.push_back(statusOf(o, inv, facts, true));
        if (!inv) {
            report.complete = false;
            const core::Error error = o.error.value_or(core::Error { "NO_INVENTORY", "no inventory", o.source, "" });
            const std::string code = observationFindingCode(error);
            const bool agent = error.code.rfind("AGENT_", 0) == 0;
            std::string message = device.name + ": " + (code == "NODE_UNREACHABLE" && agent ? "not reachable, not checked: " : "not checked: ")
                + error.message + (error.where.empty() ? "" : " (" + error.where + ")") + (error.hint.empty() ? "" : ": " + error.hint);
            ordered.push_back({ nodeOrder, { Severity::Error, code, std::move(message), device.name } });
            continue;
        }

        NodeContext c { facts, device, index, *inv, found, {} };
        const auto intentIt = hostIntents.find(device.name);
        const planner::HostIntent* hostIntent = intentIt == hostIntents.end() ? nullptr : &intentIt->second;
        if (!inv->node.empty() && inv->node != device.name)
            c.add(Severity::Warning, "NODE_NAME_MISMATCH",
                device.name + ": the agent at " + o.source + " says it is " + inv->node
                    + ": fix the node's entry in agents.json or the agent's --node, then check again (the node was checked as "
                    + device.name + ")",
                device.name);

        std::vector<const RdmaDevice*> nics(static_cast<std::size_t>(std::max(0, facts.rails)), nullptr);
        for (int rail = 0; rail < facts.rails; ++rail) {
            const RdmaDevice* nic = railDevice(*inv, facts, rail);
            nics[static_cast<std::size_t>(rail)] = nic;
            if (!nic) {
                const std::string expected = rail < static_cast<int>(facts.railMap.size()) ? facts.railMap[static_cast<std::size_t>(rail)]
                                                                                            : "the rail " + std::to_string(rail) + " NIC";
                std::vector<std::string> present;
                for (const RdmaDevice& d : inv->devices)
                    present.push_back(d.name);
                c.add(Severity::Error, "RAIL_NIC_MISSING",
                    c.prefix(rail, nullptr) + ": " + expected + " (the node type " + plan.spec.nodeType + "'s rail " + std::to_string(rail)
                        + " NIC) is not present (the node shows " + (present.empty() ? std::string("no RDMA devices") : joinList(present))
                        + "): check that the NIC is seated and its driver (mlx5_core) is loaded, or fix the rail map of the node type",
                    c.where(rail));
                continue;
            }
            if (!nic->fwVersion.empty())
                firmware[nic->hcaType].push_back({ nodeOrder, device.name, rail, nic->name, c.where(rail), nic->fwVersion });
            checkPcie(c, c.prefix(rail, nic) + (nic->pciAddress.empty() ? "" : " at " + nic->pciAddress), nic->pcie, c.where(rail), true,
                "reseat the NIC or check its slot, riser and the BIOS PCIe settings (a NIC below its PCIe rate cannot fill its link)");

            bool ethernetSeen = false;
            for (int plane = 0; plane < facts.planes; ++plane) {
                const RdmaPort* port = railPort(*nic, plane);
                if (!port && nic->ports.empty()) {
                    c.unverified.add("link state", nic->name); // the source listed the device but not its ports
                    continue;
                }
                if (!port) {
                    c.add(Severity::Error, "RAIL_NIC_MISSING",
                        c.prefix(rail, nic) + ": has no port " + std::to_string(plane + 1) + " for plane " + std::to_string(plane + 1)
                            + ": check the NIC model (the plan needs " + std::to_string(facts.planes) + " ports per NIC)",
                        c.where(rail, plane));
                    continue;
                }
                const LinkLayer want = facts.ib ? LinkLayer::InfiniBand : LinkLayer::Ethernet;
                if (port->linkLayer != LinkLayer::Unknown && port->linkLayer != want) {
                    c.add(Severity::Error, "LINK_LAYER_MISMATCH",
                        c.prefix(rail, nic) + ": port " + std::to_string(port->number) + " runs " + std::string(toString(port->linkLayer))
                            + ", the plan is " + (facts.ib ? "InfiniBand" : "RoCEv2 (Ethernet)") + ": set the port type (`mlxconfig -d "
                            + (nic->pciAddress.empty() ? nic->name : nic->pciAddress) + " set LINK_TYPE_P" + std::to_string(port->number) + "="
                            + (facts.ib ? "1" : "2") + "`) and reboot",
                        c.where(rail, plane));
                    continue;
                }
                ethernetSeen = ethernetSeen || port->linkLayer == LinkLayer::Ethernet || !facts.ib;
                checkPortState(c, rail, plane, *nic, *port);
                if (portActive(*port))
                    checkPortRate(c, rail, plane, *nic, *port);
            }
            if (!facts.ib && ethernetSeen)
                checkLossless(c, rail, *nic, hostIntent);
        }
        if (hostIntent) {
            std::vector<HostNicSeen> seen;
            for (const planner::NicIntent& n : hostIntent->nics) {
                const int planeIndex = n.plane > 0 ? n.plane - 1 : 0;
                const RdmaDevice* nic = n.rail < static_cast<int>(nics.size()) ? nics[static_cast<std::size_t>(n.rail)] : nullptr;
                const RdmaPort* port = nic ? railPort(*nic, planeIndex) : nullptr;
                if (port && port->linkLayer == LinkLayer::Ethernet)
                    seen.push_back({ &n, nic, port, c.where(n.rail, planeIndex), c.prefix(n.rail, nic) });
            }
            HostCheckResult host = checkHostIntent(*hostIntent, *inv, seen);
            for (Finding& f : host.findings)
                found.push_back(std::move(f));
            for (const auto& [topic, item] : host.unverified)
                c.unverified.add(topic, item);
        }
        checkGpus(c, nics);
        c.unverified.emit(device.name, found);
        for (Finding& f : found)
            ordered.push_back({ nodeOrder, std::move(f) });
    }

    // Listed nodes the plan does not have.
    for (const NodeObservation& o : observed) {
        if (plannedNames.count(o.node))
            continue;
        report.nodes.push_back(statusOf(o, o.inventory ? &*o.inventory : nullptr, facts, false));
        ordered.push_back({ order,
            { Severity::Warning, "UNPLANNED_NODE",
                o.node + ": listed (" + o.source + ") but not in the plan, so it was not checked: remove it from the list or check that the plan is the right one",
                o.node } });
    }

    checkFirmware(firmware, ordered);
    std::stable_sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [_, f] : ordered)
        report.findings.push_back(std::move(f));
    return report;
}

std::vector<NodeObservation> observeAgents(const std::vector<AgentEndpoint>& agents, const FetchOptions& options)
{
    const std::vector<AgentReply> replies = fetchAll(agents, "/v1/inventory", options);
    std::vector<NodeObservation> out;
    out.reserve(replies.size());
    for (const AgentReply& reply : replies) {
        NodeObservation o { reply.agent.node, reply.agent.url, std::nullopt, reply.error };
        if (!reply.error) {
            const std::string where = reply.agent.url + "/v1/inventory";
            nlohmann::json doc = nlohmann::json::parse(reply.body, nullptr, false);
            if (doc.is_discarded()) {
                o.error = core::Error { agent_error::kMalformed, "the inventory is not valid JSON", where,
                    "check that " + reply.agent.url + " is a railyard-agent" };
            } else {
                core::Result<Inventory> inv = inventoryFromJson(doc, where);
                if (inv)
                    o.inventory = std::move(inv).value();
                else
                    o.error = inv.error();
            }
        }
        out.push_back(std::move(o));
    }
    return out;
}

core::Result<std::vector<NodeObservation>> observeDumps(const core::Plan& plan, const core::Catalog& catalog,
    const std::filesystem::path& dir)
{
    core::Result<std::vector<std::string>> folders = dumpNodes(dir);
    if (!folders)
        return folders.errors();
    const std::vector<std::string> railMap = railMapOf(plan, catalog);
    std::set<std::string> present(folders->begin(), folders->end());
    std::vector<NodeObservation> out;
    std::set<std::string> planned;
    // Folder names are bytes; the report names the node and its folder in UTF-8 (it prints as JSON).
    auto read = [&](const std::string& folderName) {
        const std::filesystem::path folder = dir / folderName;
        const std::string node = text::validUtf8(folderName);
        NodeObservation o { node, text::validUtf8(folder.string()), std::nullopt, std::nullopt };
        core::Result<Inventory> inv = inventoryFromDumps(folder, node, railMap);
        if (inv)
            o.inventory = std::move(inv).value();
        else
            o.error = inv.error();
        out.push_back(std::move(o));
    };
    for (const core::Device& device : plan.devices) {
        if (device.kind != core::DeviceKind::Node || !device.installed)
            continue;
        planned.insert(device.name);
        if (present.count(device.name)) {
            read(device.name);
            continue;
        }
        const std::string folder = text::validUtf8((dir / device.name).string());
        out.push_back({ device.name, folder, std::nullopt,
            core::Error { "DUMP_MISSING", "no folder of command outputs", folder,
                "collect ibstat, ibdev2netdev, nvidia-smi topo -m, lldpctl and ethtool -S outputs of the node there" } });
    }
    for (const std::string& node : *folders) {
        if (!planned.count(node))
            read(node);
    }
    return out;
}

std::vector<ReadingNote> readingNotes(const std::vector<NodeStatus>& nodes)
{
    std::vector<ReadingNote> notes;
    std::map<std::string, std::size_t> index; // text -> its place in `notes`
    for (const NodeStatus& s : nodes) {
        for (const std::string& w : s.warnings) {
            const auto [it, added] = index.try_emplace(w, notes.size());
            if (added)
                notes.push_back({ w, {} });
            std::vector<std::string>& at = notes[it->second].nodes;
            if (at.empty() || at.back() != s.node)
                at.push_back(s.node);
        }
    }
    return notes;
}

nlohmann::json toJson(const LiveCheckReport& report)
{
    nlohmann::json nodes = nlohmann::json::array();
    for (const NodeStatus& s : report.nodes) {
        nlohmann::json devices = nlohmann::json::array();
        for (const DeviceSeen& d : s.devices) {
            devices.push_back({ { "device", d.device }, { "rail", d.rail >= 0 ? nlohmann::json(d.rail) : nlohmann::json(nullptr) },
                { "link_layer", d.linkLayer }, { "state", d.state }, { "phys_state", d.physState }, { "rate", d.rate },
                { "firmware", d.firmware }, { "mtu", d.mtu } });
        }
        nlohmann::json node { { "node", s.node }, { "source", s.source }, { "planned", s.planned }, { "reachable", s.reachable },
            { "hostname", s.hostname }, { "gpus", s.gpus }, { "devices", devices }, { "warnings", s.warnings } };
        if (!s.error.empty())
            node["error"] = s.error;
        nodes.push_back(std::move(node));
    }
    nlohmann::json findings = nlohmann::json::array();
    for (const Finding& f : report.findings)
        findings.push_back(core::toJson(f));
    int planned = 0, reachable = 0;
    for (const NodeStatus& s : report.nodes) {
        planned += s.planned ? 1 : 0;
        reachable += s.planned && s.reachable ? 1 : 0;
    }
    return { { "nodes", nodes }, { "findings", findings }, { "complete", report.complete },
        { "summary",
            { { "nodes_planned", planned }, { "nodes_reachable", reachable },
                { "findings", { { "error", report.count(Severity::Error) }, { "warning", report.count(Severity::Warning) },
                                  { "info", report.count(Severity::Info) } } } } } };
}

} // namespace railyard::live
