// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The emulator's model of each node (devices, PCI tree, names, rates, faults), the tree writer
// and the counter updates. Formats follow the kernel (drivers/infiniband/core/sysfs.c,
// drivers/pci/pci-sysfs.c, the mlx5 driver) and the tools (mlnx_qos, ethtool -S, lldpctl -f
// keyvalue) as the fixtures in ../shared/fixtures show them.
#include "live/sim/emulator.h"

#include "core/plan_spec.h"
#include "live/sim/file_writer.h"
#include "planner/exporters.h"
#include "planner/host_config.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include <fcntl.h>
#include <unistd.h>

namespace railyard::live {

namespace fs = std::filesystem;

namespace {

    constexpr unsigned kMellanoxVendor = 0x15b3;
    constexpr unsigned kNvidiaVendor = 0x10de;
    constexpr int kMaxPairs = 14;            ///< GPU/NIC pairs laid out per node (host bridges 0x10 ... 0xe0)
    constexpr double kAllReduceEfficiency = 0.92; ///< bus bandwidth over line rate of a well-tuned ring
    constexpr double kXmitWaitTicksPerSecond = 1e6; ///< PortXmitWait ticks per second of full stall
    constexpr std::uint64_t kMax32 = 0xffffffffULL;

    std::uint64_t splitmix(std::uint64_t x)
    {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }

    std::string hex(unsigned value, int digits)
    {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%0*x", digits, value);
        return buf;
    }

    std::string pciAddress(unsigned bus, unsigned dev, unsigned fn)
    {
        char buf[16];
        std::snprintf(buf, sizeof buf, "0000:%02x:%02x.%x", bus & 0xff, dev & 0x1f, fn & 7);
        return buf;
    }

    struct NicInfo {
        unsigned pciId;
        const char* hcaType;
        const char* boardId;
        const char* firmware;
        double pcieGts;
    };

    NicInfo nicInfo(std::string_view id)
    {
        if (id == "connectx-6")
            return { 0x101b, "MT4123", "MT_0000000223", "20.39.1002", 16.0 };
        if (id == "connectx-8")
            return { 0x1023, "MT4131", "MT_0000001093", "40.43.1014", 64.0 };
        if (id == "bluefield-3")
            return { 0xa2dc, "MT41692", "MT_0000000884", "32.39.1002", 32.0 };
        return { 0x1021, "MT4129", "MT_0000000838", "28.39.1002", 32.0 }; // ConnectX-7
    }

    struct GpuInfo {
        const char* name;
        unsigned pciId;
        double pcieGts;
    };

    /// GPU model of a node type (the names nvidia-smi prints). Node types without a known GPU
    /// get an H100 as the stand-in.
    GpuInfo gpuInfo(std::string_view nodeType)
    {
        if (nodeType == "dgx-a100")
            return { "NVIDIA A100-SXM4-80GB", 0x20b2, 16.0 };
        if (nodeType == "dgx-h200")
            return { "NVIDIA H200", 0x2335, 32.0 };
        if (nodeType == "dgx-b200")
            return { "NVIDIA B200", 0x2901, 32.0 };
        if (nodeType == "dgx-b300")
            return { "NVIDIA B300 SXM6 AC", 0x3182, 32.0 };
        return { "NVIDIA H100 80GB HBM3", 0x2330, 32.0 };
    }

    std::string gtsText(double gts)
    {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.1f GT/s PCIe", gts);
        return buf;
    }

    int gtsCode(double gts)
    {
        if (gts >= 64)
            return 6;
        if (gts >= 32)
            return 5;
        if (gts >= 16)
            return 4;
        if (gts >= 8)
            return 3;
        if (gts >= 5)
            return 2;
        return 1;
    }

    enum PcieType { Endpoint = 0, RootPort = 4, Upstream = 5, Downstream = 6 };

    struct Pci {
        std::string address;
        std::string rel; ///< folder relative to the sysfs root: "devices/pci0000:10/0000:10:01.0/..."
        unsigned vendor = 0, device = 0, cls = 0, subVendor = 0, subDevice = 0;
        int numa = 0;
        PcieType type = Endpoint;
        double gts = 32, maxGts = 32;
        int width = 16, maxWidth = 16;
    };

    /// PCI configuration space (4 KiB, as root reads it): header, the PCI Express capability with
    /// link capabilities and status, and on switch downstream ports the ACS extended capability
    /// (present, all controls off, as a GPU server for GPUDirect is set up).
    std::string configSpace(const Pci& pci)
    {
        std::string c(4096, '\0');
        auto put16 = [&](std::size_t at, unsigned v) {
            c[at] = static_cast<char>(v & 0xff);
            c[at + 1] = static_cast<char>((v >> 8) & 0xff);
        };
        auto put32 = [&](std::size_t at, std::uint32_t v) {
            put16(at, v & 0xffff);
            put16(at + 2, v >> 16);
        };
        const bool bridge = pci.type != Endpoint;
        put16(0x00, pci.vendor);
        put16(0x02, pci.device);
        put16(0x04, 0x0406);
        put16(0x06, 0x0010); // capabilities list
        c[0x09] = static_cast<char>(pci.cls & 0xff);
        c[0x0a] = static_cast<char>((pci.cls >> 8) & 0xff);
        c[0x0b] = static_cast<char>((pci.cls >> 16) & 0xff);
        c[0x0e] = bridge ? 0x01 : 0x00;
        if (!bridge) {
            put16(0x2c, pci.subVendor);
            put16(0x2e, pci.subDevice);
        }
        c[0x34] = 0x40;
        c[0x40] = 0x10; // PCI Express capability, last in the list
        put16(0x42, 0x0002u | (static_cast<unsigned>(pci.type) << 4));
        put32(0x4c, static_cast<std::uint32_t>(gtsCode(pci.maxGts)) | (static_cast<std::uint32_t>(pci.maxWidth) << 4));
        put16(0x52, static_cast<unsigned>(gtsCode(pci.gts)) | (static_cast<unsigned>(pci.width) << 4));
        if (pci.type == Downstream) {
            put32(0x100, 0x000dU | (1U << 16)); // ACS, version 1, no next capability
            put16(0x104, 0x001f);               // SV, TB, RR, CR, UF supported
            put16(0x106, 0x0000);               // none enabled
        }
        return c;
    }

    /// An accumulating counter: whole units plus the fraction carried to the next update.
    struct Acc {
        std::uint64_t whole = 0;
        double frac = 0;
        void add(double x)
        {
            if (x <= 0)
                return;
            frac += x;
            const double w = std::floor(frac);
            whole += static_cast<std::uint64_t>(w);
            frac -= w;
        }
    };

    struct CounterFile {
        std::string path;
        std::uint64_t written = ~0ULL;
    };

    struct Port {
        int number = 1;
        int plane = 0; ///< 0-based
        std::string netdev;
        bool ethernet = false;
        bool rail = true;
        int state = 4, physState = 5;
        std::string rateText;
        double capacityGbps = 0;
        int lid = 0;
        std::uint64_t portGuid = 0;
        std::string leaf; ///< as cabled (after swaps); empty when unplugged
        int leafPort = 0;
        std::uint32_t leafDevice = 0;
        std::array<std::uint8_t, 6> mac {};
        std::string ipv4; ///< RoCE rail ports
        int prefixLength = 16;
        /// Routed RoCEv2 plans: what the plan wants on this port (address, table, gateway); a healthy
        /// port carries exactly it.
        std::optional<planner::NicIntent> intent;
        // Host settings faults (faults.h).
        bool wrongTrust = false, pfcWrongPriority = false, mtuSmall = false, rpStrict = false, gidShifted = false;

        // per-second rates
        double txBps = 0, rxBps = 0, mgmtBps = 0, mgmtPps = 0;
        double xmitWaitPs = 0, ecnPs = 0, cnpSentPs = 0, cnpHandledPs = 0, pausePs = 0, pauseUsPs = 0, oosPs = 0;

        // counters (bytes and packets; words are derived)
        Acc txBytes, rxBytes, txPkts, rxPkts, mgmtTxBytes, mgmtRxBytes, mgmtTxPkts, mgmtRxPkts;
        Acc xmitWait, rxWrite, rxRead, ecn, cnpSent, cnpHandled, pause, pauseUs, oos;

        // files written by the updates
        CounterFile fXmitData, fRcvData, fXmitPkts, fRcvPkts, fUcastX, fUcastR, fXmitWait, fRxWrite, fRxRead, fEcn,
            fCnpSent, fCnpHandled, fOos;
        std::string ethtoolPath;
    };

    struct Nic {
        std::string name;
        int rail = -1;
        Pci pci;
        std::uint64_t nodeGuid = 0;
        bool ethernet = false;
        std::vector<Port> ports;
    };

    struct Node {
        EmulatedNode info;
        std::uint32_t device = 0;
        int index = 0;
        std::vector<Nic> nics;
        std::vector<Pci> pci; ///< every PCI function: bridges, NICs, GPUs
        std::vector<std::string> gpus;
        GpuInfo gpu {};
        bool gpudirect = true;
        bool noPfc = false;
        bool noEcn = false;
    };

    std::string macText(const std::array<std::uint8_t, 6>& m)
    {
        char buf[24];
        std::snprintf(buf, sizeof buf, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
        return buf;
    }

    std::string linkLocalGid(const std::array<std::uint8_t, 6>& m)
    {
        char buf[48];
        std::snprintf(buf, sizeof buf, "fe80:0000:0000:0000:%02x%02x:%02xff:fe%02x:%02x%02x", m[0] ^ 2, m[1], m[2], m[3],
            m[4], m[5]);
        return buf;
    }

    /// A GID holding an IPv4 address in its last 32 bits, after `upper` (six groups): "::ffff:a.b.c.d"
    /// for the address itself, or the IPv6 unique local address "fd00::a.b.c.d" derived from it (the
    /// wrong_gid_index fault: an IPv6 address configured before the IPv4 one takes GID indexes 2 and
    /// 3, as on a real port).
    std::string gidHoldingIpv4(const char* upper, const std::string& ip)
    {
        const std::uint32_t a = core::parseIpv4(ip).value_or(0);
        char buf[48];
        std::snprintf(buf, sizeof buf, "%s:%04x:%04x", upper, a >> 16, a & 0xffff);
        return buf;
    }
    constexpr const char* kIpv4Mapped = "0000:0000:0000:0000:0000:ffff";
    constexpr const char* kUniqueLocal = "fd00:0000:0000:0000:0000:0000";

    /// "10.0.0.13" with prefix 31 -> "10.0.0.12/31".
    std::string networkOf(const std::string& ip, int prefixLength)
    {
        const std::uint32_t mask = prefixLength <= 0 ? 0 : ~std::uint32_t { 0 } << (32 - std::min(prefixLength, 32));
        return core::Ipv4Prefix { core::parseIpv4(ip).value_or(0) & mask, prefixLength }.toString();
    }

    std::string u64(std::uint64_t v)
    {
        return std::to_string(v);
    }

    /// The RoCE priority RDMA traffic lands on, and the one CNPs use.
    struct Priorities {
        int roce = 3;
        int cnp = 6;
        std::array<bool, 8> pfc {};
        std::string trust = "dscp";
    };

    Priorities prioritiesOf(const core::PlanSpec& spec)
    {
        Priorities p;
        const auto& l = spec.lossless;
        p.trust = l.trust;
        if (l.trust == "dscp") {
            p.roce = std::clamp(l.roceDscp / 8, 0, 7);
            p.cnp = std::clamp(l.cnpDscp / 8, 0, 7);
        } else if (!l.pfcPriorities.empty()) {
            p.roce = std::clamp(l.pfcPriorities.front(), 0, 7);
        }
        if (l.mode != "lossy")
            for (int prio : l.pfcPriorities)
                if (prio >= 0 && prio < 8)
                    p.pfc[static_cast<std::size_t>(prio)] = true;
        return p;
    }

    std::string mlnxQosText(const std::string& trust, const std::array<bool, 8>& pfc)
    {
        std::string t = "DCBX mode: OS controlled\nPriority trust state: " + trust + "\n";
        if (trust == "dscp") {
            t += "dscp2prio mapping:\n";
            for (int prio = 0; prio < 8; ++prio) {
                t += "        prio:" + std::to_string(prio) + " dscp:";
                for (int d = 7; d >= 0; --d) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "%02d,", prio * 8 + d);
                    t += buf;
                }
                t += "\n";
            }
        }
        t += "Cable len: 7\nPFC configuration:\n        priority    0   1   2   3   4   5   6   7\n        enabled     ";
        for (bool on : pfc)
            t += on ? "1   " : "0   ";
        t += "\n";
        for (int tc = 0; tc < 8; ++tc) {
            const int prio = tc == 0 ? 1 : tc == 1 ? 0 : tc;
            t += "tc: " + std::to_string(tc) + " ratelimit: unlimited, tsa: vendor\n         priority:  " + std::to_string(prio)
                + "\n";
        }
        return t;
    }

    /// Appends "     name: value\n" (the indentation `ethtool -S` prints).
    void stat(std::string& out, std::string_view name, std::uint64_t value)
    {
        out += "     ";
        out += name;
        out += ": ";
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, value);
        out.append(buf, r.ptr);
        out += '\n';
    }

    std::string ethtoolText(const Port& p, const Priorities& prio, bool pfcOn)
    {
        std::string t;
        t.reserve(4096);
        t += "NIC statistics:\n";
        const std::uint64_t rdmaTxB = p.txBytes.whole, rdmaRxB = p.rxBytes.whole;
        const std::uint64_t rdmaTxP = p.txPkts.whole, rdmaRxP = p.rxPkts.whole;
        stat(t, "rx_packets", p.mgmtRxPkts.whole);
        stat(t, "rx_bytes", p.mgmtRxBytes.whole);
        stat(t, "tx_packets", p.mgmtTxPkts.whole);
        stat(t, "tx_bytes", p.mgmtTxBytes.whole);
        stat(t, "rx_out_of_buffer", 0);
        stat(t, "link_down_events_phy", 0);
        stat(t, "rx_vport_rdma_unicast_packets", rdmaRxP);
        stat(t, "rx_vport_rdma_unicast_bytes", rdmaRxB);
        stat(t, "tx_vport_rdma_unicast_packets", rdmaTxP);
        stat(t, "tx_vport_rdma_unicast_bytes", rdmaTxB);
        stat(t, "rx_packets_phy", rdmaRxP + p.mgmtRxPkts.whole + p.cnpHandled.whole);
        stat(t, "rx_bytes_phy", rdmaRxB + p.mgmtRxBytes.whole + 64 * p.cnpHandled.whole);
        stat(t, "tx_packets_phy", rdmaTxP + p.mgmtTxPkts.whole + p.cnpSent.whole);
        stat(t, "tx_bytes_phy", rdmaTxB + p.mgmtTxBytes.whole + 64 * p.cnpSent.whole);
        stat(t, "rx_discards_phy", 0);
        stat(t, "tx_discards_phy", 0);
        stat(t, "rx_pause_ctrl_phy", pfcOn ? p.pause.whole : 0);
        stat(t, "tx_pause_ctrl_phy", 0);
        char name[40];
        for (int q = 0; q < 8; ++q) {
            std::uint64_t rxB = 0, rxP = 0, txB = 0, txP = 0;
            if (q == prio.roce) {
                rxB += rdmaRxB;
                rxP += rdmaRxP;
                txB += rdmaTxB;
                txP += rdmaTxP;
            }
            if (q == 0) {
                rxB += p.mgmtRxBytes.whole;
                rxP += p.mgmtRxPkts.whole;
                txB += p.mgmtTxBytes.whole;
                txP += p.mgmtTxPkts.whole;
            }
            if (q == prio.cnp) {
                rxB += 64 * p.cnpHandled.whole;
                rxP += p.cnpHandled.whole;
                txB += 64 * p.cnpSent.whole;
                txP += p.cnpSent.whole;
            }
            std::snprintf(name, sizeof name, "rx_prio%d_bytes", q);
            stat(t, name, rxB);
            std::snprintf(name, sizeof name, "rx_prio%d_packets", q);
            stat(t, name, rxP);
            std::snprintf(name, sizeof name, "rx_prio%d_discards", q);
            stat(t, name, 0);
            std::snprintf(name, sizeof name, "tx_prio%d_bytes", q);
            stat(t, name, txB);
            std::snprintf(name, sizeof name, "tx_prio%d_packets", q);
            stat(t, name, txP);
        }
        if (pfcOn) {
            for (int q = 0; q < 8; ++q) {
                if (!prio.pfc[static_cast<std::size_t>(q)])
                    continue;
                const bool carries = q == prio.roce;
                std::snprintf(name, sizeof name, "rx_prio%d_pause", q);
                stat(t, name, carries ? p.pause.whole : 0);
                std::snprintf(name, sizeof name, "rx_prio%d_pause_duration", q);
                stat(t, name, carries ? p.pauseUs.whole : 0);
                std::snprintf(name, sizeof name, "tx_prio%d_pause", q);
                stat(t, name, 0);
                std::snprintf(name, sizeof name, "tx_prio%d_pause_duration", q);
                stat(t, name, 0);
                std::snprintf(name, sizeof name, "rx_prio%d_pause_transition", q);
                stat(t, name, carries ? p.pause.whole / 2 : 0);
            }
        }
        return t;
    }

    const std::array<const char*, 12> kErrorCounters { "symbol_error", "link_error_recovery", "link_downed",
        "port_rcv_errors", "port_rcv_remote_physical_errors", "port_rcv_switch_relay_errors", "port_xmit_discards",
        "port_xmit_constraint_errors", "port_rcv_constraint_errors", "local_link_integrity_errors",
        "excessive_buffer_overrun_errors", "VL15_dropped" };

    const std::array<const char*, 24> kQCounters { "rx_atomic_requests", "rx_dct_connect", "out_of_buffer",
        "duplicate_request", "rnr_nak_retry_err", "packet_seq_err", "implied_nak_seq_err", "local_ack_timeout_err",
        "resp_local_length_error", "resp_cqe_error", "req_cqe_error", "req_remote_invalid_request",
        "req_remote_access_errors", "resp_remote_access_errors", "resp_cqe_flush_error", "req_cqe_flush_error",
        "roce_adp_retrans", "roce_adp_retrans_to", "roce_slow_restart", "roce_slow_restart_cnps",
        "roce_slow_restart_trans", "rx_icrc_encapsulated", "req_transport_retries_exceeded", "req_rnr_retries_exceeded" };

} // namespace

std::string sysfsGuid(std::uint64_t guid)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%04x:%04x:%04x:%04x", static_cast<unsigned>((guid >> 48) & 0xffff),
        static_cast<unsigned>((guid >> 32) & 0xffff), static_cast<unsigned>((guid >> 16) & 0xffff),
        static_cast<unsigned>(guid & 0xffff));
    return buf;
}

std::string sysfsRateText(const core::PortRate& rate)
{
    // Per-lane rate in tenths of Gb/s and the speed name, as core/sysfs.c rate_show() prints them.
    int deci = 0;
    std::string name;
    if (rate.fabric == core::Fabric::InfiniBand && rate.generation) {
        switch (*rate.generation) {
        case core::IbGeneration::SDR: deci = 25; name = "SDR"; break;
        case core::IbGeneration::DDR: deci = 50; name = "DDR"; break;
        case core::IbGeneration::QDR: deci = 100; name = "QDR"; break;
        case core::IbGeneration::FDR10: deci = 100; name = "FDR10"; break;
        case core::IbGeneration::FDR: deci = 140; name = "FDR"; break;
        case core::IbGeneration::EDR: deci = 250; name = "EDR"; break;
        case core::IbGeneration::HDR: deci = 500; name = "HDR"; break;
        case core::IbGeneration::NDR: deci = 1000; name = "NDR"; break;
        case core::IbGeneration::XDR: deci = 2000; name = "XDR"; break;
        }
    } else {
        // mlx5 maps the Ethernet lane rate onto an InfiniBand lane speed.
        const double lane = rate.laneDataGbps();
        if (lane >= 200) { deci = 2000; name = "XDR"; }
        else if (lane >= 100) { deci = 1000; name = "NDR"; }
        else if (lane >= 50) { deci = 500; name = "HDR"; }
        else if (lane >= 25) { deci = 250; name = "EDR"; }
        else { deci = 100; name = "QDR"; }
    }
    const int total = deci * rate.lanes;
    std::string out = std::to_string(total / 10);
    if (total % 10)
        out += ".5";
    out += " Gb/sec (" + std::to_string(rate.lanes) + "X " + name + ")";
    return out;
}

namespace {
    class TreeWriter;
} // namespace

struct FabricEmulator::Impl {
    const core::Catalog* catalog = nullptr;
    core::Plan plan;   ///< cabling faults applied
    std::vector<Fault> faults;
    EmulatorOptions options;
    std::vector<Node> nodes;
    std::vector<EmulatedNode> infos;
    std::unique_ptr<AtomicWriter> writer;
    Priorities prio;
    /// Routed RoCEv2 plans: each NIC port's intent by (node, rail, plane), from the plan as planned
    /// (before the cabling faults), and the QoS intent.
    std::map<std::tuple<std::string, int, int>, planner::NicIntent> intents;
    std::optional<planner::QosIntent> qosIntent;
    std::uint64_t tick = 0;
    std::size_t ports = 0;
    std::set<std::string> madeDirs; ///< folders created while writing the tree
    bool running = false;           ///< the tree is written: agents may read it, files are replaced atomically

    core::Status injectLinkFault(Node& node, const Fault& fault);
    core::Status injectHostFault(Node& node, const Fault& fault);
    core::Status writePortState(const Node& node, const Nic& nic, const Port& port);

    core::Status layout();
    core::Status writeNode(const Node& node);
    core::Status writeNic(const Node& node, const Nic& nic);
    core::Status writePort(const Node& node, const Nic& nic, Port& port);
    core::Status writeSim(const Node& node);
    core::Status writeNetwork(TreeWriter& t, const Node& node);
    core::Status writeGids(TreeWriter& t, const Nic& nic, const Port& p);
    int mtuOf(const Port& p) const;
    void rates();

    /// InfiniBand switch ports: rates from the host ports' traffic, counters accumulated by
    /// update() (what the switches' PMAs report; railyard-sim hands them to ibsim).
    struct SwitchPort {
        std::uint32_t device = 0;
        int port = 0;
        double txBps = 0, rxBps = 0, xmitWaitPs = 0;
        Acc tx, rx, txPkts, rxPkts, xmitWait;
    };
    std::vector<SwitchPort> switchPorts;
    void switchRates();
};

namespace {

    /// The node-leaf link of NIC `rail` of node `device` in plane `plane` (0-based), or -1.
    long findNodeLink(const core::Plan& plan, std::uint32_t device, int rail, int plane)
    {
        for (std::size_t i = 0; i < plan.links.size(); ++i) {
            const auto& l = plan.links[i];
            if (l.tier != core::LinkTier::NodeLeaf)
                break;
            if (l.a.device == device && l.a.port == rail && l.a.plane == plane)
                return static_cast<long>(i);
        }
        return -1;
    }

    int planeCount(const core::Plan& plan)
    {
        return std::max({ 1, plan.spec.planes, plan.summary.planes });
    }

    /// LIDs as the ibnetdiscover export assigns them (switches, then adapters in link order).
    std::map<std::tuple<std::uint32_t, int, int>, int> exportLids(const core::Plan& plan, int plane)
    {
        std::map<std::tuple<std::uint32_t, int, int>, int> lids;
        const bool planes = planeCount(plan) > 1;
        std::set<std::uint32_t> switches;
        for (std::uint32_t d = 0; d < plan.devices.size(); ++d) {
            const auto& dev = plan.devices[d];
            if (dev.kind == core::DeviceKind::Switch && dev.installed && (!planes || dev.plane == plane))
                switches.insert(d);
        }
        int next = static_cast<int>(switches.size()) + 1;
        auto isSwitch = [&](std::uint32_t d) { return plan.devices[d].kind == core::DeviceKind::Switch; };
        for (const auto& l : plan.links) {
            if (!l.installed)
                continue;
            const bool aS = isSwitch(l.a.device), bS = isSwitch(l.b.device);
            if (!aS && !bS)
                continue;
            if ((aS && !switches.contains(l.a.device)) || (bS && !switches.contains(l.b.device)))
                continue;
            for (const auto* end : { &l.a, &l.b }) {
                if (isSwitch(end->device))
                    continue;
                const auto key = std::make_tuple(end->device, static_cast<int>(end->port), static_cast<int>(end->plane));
                if (!lids.contains(key)) {
                    lids.emplace(key, next <= 0xBFFF ? next : 0);
                    ++next;
                }
            }
        }
        return lids;
    }

} // namespace

void FabricEmulator::Impl::rates()
{
    const auto& spec = plan.spec;
    const auto& planned = plan.summary.port;
    int railZeroLeaves = 0;
    for (const auto& d : plan.devices)
        if (d.kind == core::DeviceKind::Switch && d.tier == core::SwitchTier::Leaf && d.rail == 0 && d.installed
            && (planeCount(plan) == 1 || d.plane == 1))
            ++railZeroLeaves;
    const bool crossLeaf = railZeroLeaves > 1;
    double share = options.traffic == TrafficKind::AllReduce ? kAllReduceEfficiency : 0;
    if (crossLeaf) {
        share *= std::min(1.0, 1.0 / std::max(1e-9, spec.leafOversubscription.value()));
        if (plan.summary.tiers >= 3)
            share *= std::min(1.0, 1.0 / std::max(1e-9, spec.spineOversubscription.value()));
    }
    // Uplink capacity left on each congested leaf.
    std::map<std::uint32_t, double> leafCapacity;
    for (const auto& f : faults) {
        if (f.kind != FaultKind::Congested)
            continue;
        const double total = static_cast<double>(uplinksOf(plan, f.switchDevice).size());
        if (total > 0)
            leafCapacity[f.switchDevice] = (total - f.uplinks + f.uplinks * f.factor) / total;
    }
    const bool roce = spec.fabric == core::Fabric::RoCEv2;
    for (auto& node : nodes) {
        for (auto& nic : node.nics) {
            for (auto& p : nic.ports) {
                // Recomputed from scratch: faults injected while running change them.
                p.txBps = p.rxBps = 0;
                p.xmitWaitPs = p.ecnPs = p.cnpSentPs = p.cnpHandledPs = p.pausePs = p.pauseUsPs = p.oosPs = 0;
                if (p.state != 4)
                    continue;
                // Management traffic: MADs (IB) or LLDP/ARP (Ethernet), a few per second.
                p.mgmtPps = roce || !p.rail ? 2 : 4;
                p.mgmtBps = p.mgmtPps * (roce || !p.rail ? 128 : 256);
                if (!p.rail || share <= 0)
                    continue;
                double gbps = std::min(p.capacityGbps, planned.dataGbps * share);
                double capacity = 1;
                if (crossLeaf)
                    if (const auto it = leafCapacity.find(p.leafDevice); it != leafCapacity.end())
                        capacity = it->second;
                gbps *= capacity;
                p.txBps = p.rxBps = gbps * 1e9 / 8;
                const double deficit = 1 - capacity;
                if (deficit <= 0)
                    continue;
                if (!roce) {
                    p.xmitWaitPs = deficit * kXmitWaitTicksPerSecond;
                } else {
                    const double rxPps = p.rxBps / 4096;
                    p.ecnPs = deficit * 0.1 * rxPps;
                    p.cnpSentPs = node.noEcn ? 0 : p.ecnPs * 0.05;
                    p.cnpHandledPs = node.noEcn ? 0 : p.ecnPs * 0.05;
                    const bool pfc = !node.noPfc && prio.pfc[static_cast<std::size_t>(prio.roce)];
                    p.pausePs = pfc ? deficit * 1e4 : 0;
                    p.pauseUsPs = p.pausePs * 20;
                    p.oosPs = pfc ? 0 : deficit * 1e-4 * rxPps;
                }
            }
        }
    }
    switchRates();
}

// The switch side of the same traffic (InfiniBand):
//   - a leaf's downlink port carries what its host port sends and receives (management traffic
//     included), in the other direction;
//   - a leaf's uplinks carry the share of that traffic that leaves the leaf: (L - 1) / L of it,
//     L the leaves of the rail (and plane) (a rail-aligned collective spreads evenly over the
//     rail's leaves), spread over the uplinks; the first N uplinks of a `congested` leaf carry
//     `factor` of a healthy uplink's share and stall the rest of the time (PortXmitWait at the
//     stalled share of kXmitWaitTicksPerSecond);
//   - a spine's port facing a leaf mirrors that leaf's uplink. Spine-to-core links carry no
//     modelled traffic (idle in the model: a 3-tier plan's cores are not emulated under load).
void FabricEmulator::Impl::switchRates()
{
    for (auto& sp : switchPorts)
        sp.txBps = sp.rxBps = sp.xmitWaitPs = 0;
    if (plan.spec.fabric != core::Fabric::InfiniBand)
        return;
    std::map<std::pair<std::uint32_t, int>, std::size_t> index;
    for (std::size_t i = 0; i < switchPorts.size(); ++i)
        index.emplace(std::make_pair(switchPorts[i].device, switchPorts[i].port), i);
    auto portOf = [&](std::uint32_t device, int port) -> SwitchPort& {
        const auto [it, fresh] = index.try_emplace({ device, port }, switchPorts.size());
        if (fresh) {
            SwitchPort sp;
            sp.device = device;
            sp.port = port;
            switchPorts.push_back(sp);
        }
        return switchPorts[it->second];
    };
    std::map<std::uint32_t, std::pair<double, double>> leafTraffic; // leaf -> (from hosts, to hosts)
    for (const auto& node : nodes)
        for (const auto& nic : node.nics)
            for (const auto& p : nic.ports) {
                if (!p.rail || p.leaf.empty() || p.leafPort <= 0)
                    continue;
                auto& sp = portOf(p.leafDevice, p.leafPort);
                const double up = p.state == 4 ? p.txBps + p.mgmtBps : 0;
                const double down = p.state == 4 ? p.rxBps + p.mgmtBps : 0;
                sp.rxBps += up;
                sp.txBps += down;
                auto& t = leafTraffic[p.leafDevice];
                t.first += p.state == 4 ? p.txBps : 0;
                t.second += p.state == 4 ? p.rxBps : 0;
            }
    std::map<std::pair<int, int>, int> leavesOfRail; // (rail, plane) -> leaves
    for (const auto& d : plan.devices)
        if (d.kind == core::DeviceKind::Switch && d.tier == core::SwitchTier::Leaf && d.installed)
            ++leavesOfRail[{ d.rail, d.plane }];
    for (const auto& [leaf, traffic] : leafTraffic) {
        const auto& dev = plan.devices[leaf];
        const int leaves = leavesOfRail[{ dev.rail, dev.plane }];
        if (leaves <= 1)
            continue;
        const double crossing = static_cast<double>(leaves - 1) / leaves;
        const auto ups = uplinksOf(plan, leaf);
        if (ups.empty())
            continue;
        const Fault* congested = nullptr;
        for (const auto& f : faults)
            if (f.kind == FaultKind::Congested && f.switchDevice == leaf)
                congested = &f;
        std::vector<double> weight(ups.size(), 1.0);
        if (congested)
            for (std::size_t i = 0; i < ups.size() && static_cast<int>(i) < congested->uplinks; ++i)
                weight[i] = congested->factor;
        double total = 0;
        for (const double w : weight)
            total += w;
        if (total <= 0)
            continue;
        for (std::size_t i = 0; i < ups.size(); ++i) {
            const auto& link = plan.links[ups[i]];
            const double share = weight[i] / total;
            auto& mine = portOf(link.a.device, link.a.port);
            mine.txBps += traffic.first * crossing * share;
            mine.rxBps += traffic.second * crossing * share;
            if (weight[i] < 1)
                mine.xmitWaitPs += (1 - weight[i]) * kXmitWaitTicksPerSecond;
            auto& far = portOf(link.b.device, link.b.port);
            far.rxBps += traffic.first * crossing * share;
            far.txBps += traffic.second * crossing * share;
        }
    }
}

core::Status FabricEmulator::Impl::layout()
{
    const auto& spec = plan.spec;
    const bool roce = spec.fabric == core::Fabric::RoCEv2;
    const core::NodeType* type = catalog->findNodeType(spec.nodeType);
    const int rails = plan.summary.rails;
    const int gpus = type ? type->gpus : rails;
    const int pairs = std::max(rails, gpus);
    if (pairs > kMaxPairs)
        return core::Error { "SIM_LAYOUT", "the node type has " + std::to_string(pairs) + " GPU/NIC pairs; the emulator lays out at most "
                + std::to_string(kMaxPairs),
            "spec: node_type", "" };
    std::vector<std::string> railMap;
    for (int k = 0; k < rails; ++k) {
        std::string name = "mlx5_" + std::to_string(k);
        if (type && k < static_cast<int>(type->railMap.size()) && type->railMap[static_cast<std::size_t>(k)].rfind("mlx5_", 0) == 0)
            name = type->railMap[static_cast<std::size_t>(k)];
        railMap.push_back(name);
    }
    // Devices below the highest rail device that the rail map skips are non-rail NICs (storage,
    // in-band management: mlx5_1, 2, 7, 8 on a DGX H100).
    int highest = -1;
    std::set<int> railIndexes;
    for (const auto& name : railMap) {
        const int n = std::atoi(name.c_str() + 5);
        railIndexes.insert(n);
        highest = std::max(highest, n);
    }
    std::vector<std::string> nonRail;
    for (int n = 0; n < highest; ++n)
        if (!railIndexes.contains(n))
            nonRail.push_back("mlx5_" + std::to_string(n));

    const NicInfo nic = nicInfo(spec.nic);
    const GpuInfo gpu = gpuInfo(spec.nodeType);
    const auto& planned = plan.summary.port;
    const int planes = planeCount(plan);
    std::vector<std::map<std::tuple<std::uint32_t, int, int>, int>> lids;
    if (!roce)
        for (int p = 1; p <= planes; ++p)
            lids.push_back(exportLids(plan, p));

    std::map<std::pair<std::uint32_t, int>, const Fault*> linkFault;
    for (const auto& f : faults) {
        if (f.kind == FaultKind::LinkDown || f.kind == FaultKind::Unplugged || f.kind == FaultKind::Degraded)
            linkFault[{ f.nic.device, f.nic.rail }] = &f;
    }

    int index = 0;
    for (std::uint32_t d = 0; d < plan.devices.size(); ++d) {
        const auto& dev = plan.devices[d];
        if (dev.kind != core::DeviceKind::Node || !dev.installed)
            continue;
        Node node;
        node.device = d;
        node.index = index++;
        node.info.name = dev.name;
        node.info.nodeType = spec.nodeType;
        node.info.sysRoot = options.root / dev.name / "sys";
        node.info.simDir = options.root / dev.name / "sim";
        node.info.railMap = railMap;
        node.gpu = gpu;
        for (const auto& f : faults) {
            if (f.nic.device != d)
                continue;
            if (f.kind == FaultKind::NoGpuDirect)
                node.gpudirect = false;
            else if (f.kind == FaultKind::NoPfc)
                node.noPfc = true;
            else if (f.kind == FaultKind::NoEcn)
                node.noEcn = true;
        }
        for (int k = 0; k < pairs; ++k) {
            const unsigned hb = 0x10u * static_cast<unsigned>(k + 1);
            const int numa = k < pairs / 2 ? 0 : 1;
            Pci root { pciAddress(hb, 1, 0), "", 0x8086, 0x352a, 0x060400, 0, 0, numa, RootPort, 32, 32, 16, 16 };
            root.rel = "devices/pci0000:" + hex(hb, 2) + "/" + root.address;
            Pci up { pciAddress(hb + 1, 0, 0), root.rel + "/" + pciAddress(hb + 1, 0, 0), 0x1000, 0xc030, 0x060400, 0, 0, numa,
                Upstream, 32, 32, 16, 16 };
            node.pci.push_back(root);
            node.pci.push_back(up);
            if (k < rails) {
                Pci down { pciAddress(hb + 2, 0, 0), up.rel + "/" + pciAddress(hb + 2, 0, 0), 0x1000, 0xc030, 0x060400, 0, 0,
                    numa, Downstream, nic.pcieGts, nic.pcieGts, 16, 16 };
                Pci fn { pciAddress(hb + 3, 0, 0), down.rel + "/" + pciAddress(hb + 3, 0, 0), kMellanoxVendor, nic.pciId,
                    roce ? 0x020000u : 0x020700u, kMellanoxVendor, 0x0023, numa, Endpoint, nic.pcieGts, nic.pcieGts, 16, 16 };
                node.pci.push_back(down);
                node.pci.push_back(fn);
                Nic n;
                n.name = railMap[static_cast<std::size_t>(k)];
                n.rail = k;
                n.pci = fn;
                n.ethernet = roce;
                n.nodeGuid = planner::ibnetdiscoverGuid(plan, { d, static_cast<std::uint16_t>(k), 0 }, 1);
                for (int pl = 0; pl < planes; ++pl) {
                    Port port;
                    port.number = pl + 1;
                    port.plane = pl;
                    port.ethernet = roce;
                    const unsigned bus = hb + 3;
                    port.netdev = roce ? "enp" + std::to_string(bus) + "s0np" + std::to_string(pl)
                                       : "ibp" + std::to_string(bus) + "s0" + (pl ? "d" + std::to_string(pl) : "");
                    port.portGuid = planner::ibnetdiscoverGuid(plan, { d, static_cast<std::uint16_t>(k), static_cast<std::uint8_t>(pl) }, pl + 1) + 1;
                    port.mac = { 0x02, static_cast<std::uint8_t>(d >> 16), static_cast<std::uint8_t>(d >> 8),
                        static_cast<std::uint8_t>(d), static_cast<std::uint8_t>(k), static_cast<std::uint8_t>(pl) };
                    port.ipv4 = "10." + std::to_string(k + 16 * pl + 1) + "." + std::to_string((node.index + 1) >> 8) + "."
                        + std::to_string((node.index + 1) & 0xff);
                    if (const auto it = intents.find({ dev.name, k, planes > 1 ? pl + 1 : 0 }); roce && it != intents.end()) {
                        port.intent = it->second;
                        port.ipv4 = it->second.address;
                        port.prefixLength = it->second.prefixLength;
                    }
                    for (const auto& f : faults) {
                        if (f.nic.device != d || f.nic.rail != k)
                            continue;
                        port.wrongTrust = port.wrongTrust || f.kind == FaultKind::WrongTrust;
                        port.pfcWrongPriority = port.pfcWrongPriority || f.kind == FaultKind::PfcWrongPriority;
                        port.mtuSmall = port.mtuSmall || f.kind == FaultKind::MtuMismatch;
                        port.rpStrict = port.rpStrict || f.kind == FaultKind::RpFilterStrict;
                        port.gidShifted = port.gidShifted || f.kind == FaultKind::WrongGidIndex;
                    }
                    core::PortRate rate = planned;
                    const auto fit = linkFault.find({ d, k });
                    const Fault* fault = fit == linkFault.end() ? nullptr : fit->second;
                    const long link = findNodeLink(plan, d, k, pl);
                    const bool cabled = link >= 0 && plan.links[static_cast<std::size_t>(link)].installed;
                    if (fault && fault->kind == FaultKind::LinkDown) {
                        port.state = 1;
                        port.physState = 3;
                    } else if (!cabled) {
                        port.state = 1;
                        port.physState = 2;
                    } else if (fault && fault->kind == FaultKind::Degraded) {
                        if (auto r = degradedRate(planned, *fault))
                            rate = *r;
                    }
                    if (port.state == 4) {
                        port.rateText = sysfsRateText(rate);
                        port.capacityGbps = rate.dataGbps;
                    } else {
                        port.rateText = roce ? "40 Gb/sec (4X QDR)" : "10 Gb/sec (4X SDR)";
                    }
                    if (cabled) {
                        const auto& l = plan.links[static_cast<std::size_t>(link)];
                        port.leafDevice = l.b.device;
                        port.leaf = plan.devices[l.b.device].name;
                        port.leafPort = l.b.port;
                    }
                    if (!roce && port.state == 4) {
                        const auto& table = lids[static_cast<std::size_t>(pl)];
                        const auto it = table.find({ d, k, pl });
                        port.lid = it == table.end() ? 0 : it->second;
                    }
                    n.ports.push_back(std::move(port));
                    ++ports;
                }
                node.nics.push_back(std::move(n));
            }
            if (k < gpus) {
                Pci down { pciAddress(hb + 2, 1, 0), up.rel + "/" + pciAddress(hb + 2, 1, 0), 0x1000, 0xc030, 0x060400, 0, 0,
                    numa, Downstream, gpu.pcieGts, gpu.pcieGts, 16, 16 };
                Pci fn { pciAddress(hb + 4, 0, 0), down.rel + "/" + pciAddress(hb + 4, 0, 0), kNvidiaVendor, gpu.pciId, 0x030200,
                    kNvidiaVendor, 0x16c1, numa, Endpoint, gpu.pcieGts, gpu.pcieGts, 16, 16 };
                node.pci.push_back(down);
                node.pci.push_back(fn);
                node.gpus.push_back(fn.address);
            }
        }
        // Non-rail NICs: Ethernet, 200G, idle, each under its own root port of host bridge 0xf0.
        for (std::size_t i = 0; i < nonRail.size() && i < 14; ++i) {
            const unsigned hb = 0xf0;
            const unsigned dv = static_cast<unsigned>(i) + 1;
            Pci root { pciAddress(hb, dv, 0), "", 0x8086, 0x352a, 0x060400, 0, 0, 0, RootPort, 32, 32, 16, 16 };
            root.rel = "devices/pci0000:" + hex(hb, 2) + "/" + root.address;
            const unsigned bus = hb + dv;
            Pci fn { pciAddress(bus, 0, 0), root.rel + "/" + pciAddress(bus, 0, 0), kMellanoxVendor, nic.pciId, 0x020000,
                kMellanoxVendor, 0x0023, 0, Endpoint, nic.pcieGts, nic.pcieGts, 16, 16 };
            node.pci.push_back(root);
            node.pci.push_back(fn);
            Nic n;
            n.name = nonRail[i];
            n.rail = -1;
            n.pci = fn;
            n.ethernet = true;
            n.nodeGuid = (0x5259ULL << 48) | (0xffULL << 40) | (static_cast<std::uint64_t>(d) << 8) | (0x80 + i);
            Port port;
            port.rail = false;
            port.ethernet = true;
            port.netdev = "enp" + std::to_string(bus) + "s0np0";
            port.portGuid = n.nodeGuid;
            port.mac = { 0x02, static_cast<std::uint8_t>(d >> 16), static_cast<std::uint8_t>(d >> 8),
                static_cast<std::uint8_t>(d), static_cast<std::uint8_t>(0x80 + i), 0 };
            port.rateText = "200 Gb/sec (4X HDR)";
            port.capacityGbps = 200;
            n.ports.push_back(std::move(port));
            node.nics.push_back(std::move(n));
        }
        infos.push_back(node.info);
        nodes.push_back(std::move(node));
    }
    if (nodes.empty())
        return core::Error { "SIM_LAYOUT", "the plan has no installed nodes to emulate", "spec: nodes", "" };
    rates();
    return {};
}

namespace {

    class TreeWriter {
    public:
        /// `atomic`: replace files through it (a tree the agents already read); null: plain writes.
        TreeWriter(std::set<std::string>& made, fs::path root, AtomicWriter* atomic = nullptr)
            : m_root(std::move(root))
            , m_made(made)
            , m_atomic(atomic)
        {
        }
        /// Writes a file; plainly into a tree no reader sees yet (the agents start after the tree
        /// is written), atomically into one they read.
        core::Status file(const std::string& rel, std::string_view content)
        {
            const fs::path path = m_root / rel;
            if (auto s = dir(path.parent_path()); !s)
                return s;
            if (m_atomic)
                return m_atomic->write(path.string(), content);
            const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
            bool ok = fd >= 0;
            if (ok)
                ok = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size());
            if (fd >= 0 && ::close(fd) != 0)
                ok = false;
            if (!ok)
                return core::Error { "SIM_WRITE", std::string("cannot write: ") + std::strerror(errno), path.string(),
                    "check that the emulator's --root is writable and not full" };
            return {};
        }
        core::Status line(const std::string& rel, const std::string& value) { return file(rel, value + "\n"); }
        core::Status link(const std::string& rel, const std::string& target)
        {
            const fs::path path = m_root / rel;
            if (auto s = dir(path.parent_path()); !s)
                return s;
            return makeSymlink(target, path);
        }
        core::Status dir(const fs::path& path)
        {
            if (m_made.contains(path.string()))
                return {};
            if (auto s = makeDirs(path); !s)
                return s;
            m_made.insert(path.string());
            return {};
        }
        const fs::path& root() const { return m_root; }

    private:
        fs::path m_root;
        std::set<std::string>& m_made; ///< folders known to exist
        AtomicWriter* m_atomic = nullptr;

    };

    /// "../../" for a link at depth 2 below the root, to reach the root.
    std::string up(int levels)
    {
        std::string out;
        for (int i = 0; i < levels; ++i)
            out += "../";
        return out;
    }

    core::Status writePci(TreeWriter& t, const Pci& pci)
    {
        const std::string& r = pci.rel;
        core::Status s;
        auto put = [&](const std::string& name, const std::string& value) {
            if (s)
                s = t.line(r + "/" + name, value);
        };
        put("vendor", "0x" + hex(pci.vendor, 4));
        put("device", "0x" + hex(pci.device, 4));
        put("class", "0x" + hex(pci.cls, 6));
        put("subsystem_vendor", "0x" + hex(pci.subVendor, 4));
        put("subsystem_device", "0x" + hex(pci.subDevice, 4));
        put("numa_node", std::to_string(pci.numa));
        put("local_cpulist", pci.numa == 0 ? "0-55,112-167" : "56-111,168-223");
        put("enable", "1");
        put("current_link_speed", gtsText(pci.gts));
        put("max_link_speed", gtsText(pci.maxGts));
        put("current_link_width", std::to_string(pci.width));
        put("max_link_width", std::to_string(pci.maxWidth));
        if (s)
            s = t.file(r + "/config", configSpace(pci));
        if (s)
            s = t.link("bus/pci/devices/" + pci.address, up(3) + r);
        return s;
    }

} // namespace

namespace {
    const char* const kStates[] = { "NOP", "DOWN", "INIT", "ARMED", "ACTIVE", "ACTIVE_DEFER" };
    const char* const kPhys[] = { "<unknown>", "Sleep", "Polling", "Disabled", "PortConfigurationTraining", "LinkUp" };
} // namespace

core::Status FabricEmulator::Impl::writePort(const Node& node, const Nic& nic, Port& p)
{
    TreeWriter t(madeDirs, node.info.sysRoot);
    const bool roce = p.ethernet;
    const std::string ibdir = nic.pci.rel + "/infiniband/" + nic.name;
    const std::string dir = ibdir + "/ports/" + std::to_string(p.number);
    core::Status s;
    auto put = [&](const std::string& name, const std::string& value) {
        if (s)
            s = t.line(dir + "/" + name, value);
    };
    put("state", std::to_string(p.state) + ": " + kStates[p.state]);
    put("phys_state", std::to_string(p.physState) + ": " + kPhys[p.physState]);
    put("rate", p.rateText);
    put("link_layer", roce ? "Ethernet" : "InfiniBand");
    char lid[16];
    std::snprintf(lid, sizeof lid, "0x%x", roce ? 0 : (p.state == 4 ? p.lid : 0xffff));
    put("lid", lid);
    put("sm_lid", !roce && p.state == 4 ? "0x1" : "0x0");
    put("lid_mask_count", "0");
    put("sm_sl", "0");
    put("cap_mask", roce ? "0x00010000" : "0xa651e848");
    put("pkeys/0", "0xffff");
    if (!roce) {
        put("gids/0", "fe80:0000:0000:0000:" + sysfsGuid(p.portGuid));
        put("gid_attrs/types/0", "IB/RoCE v1");
    } else if (s) {
        s = writeGids(t, nic, p);
    }
    if (!s)
        return s;

    // Counters, from values a machine that has been up a while might show.
    const std::uint64_t seed = splitmix((static_cast<std::uint64_t>(node.index) << 16) ^ (static_cast<std::uint64_t>(nic.rail + 1) << 4) ^ static_cast<std::uint64_t>(p.plane));
    if (p.rail && p.state == 4) {
        p.txBytes.whole = (seed % 1000000000ULL) * 4096;
        p.rxBytes.whole = (splitmix(seed) % 1000000000ULL) * 4096;
        p.txPkts.whole = p.txBytes.whole / 4096;
        p.rxPkts.whole = p.rxBytes.whole / 4096;
        // A request counter close to its 32-bit wrap, so that traffic wraps it within minutes.
        p.rxWrite.whole = kMax32 - (seed % (1ULL << 24));
        p.rxRead.whole = seed % 100000;
    }
    const std::string cdir = (node.info.sysRoot / dir / "counters").string() + "/";
    const std::string hdir = (node.info.sysRoot / dir / "hw_counters").string() + "/";
    p.fXmitData.path = cdir + "port_xmit_data";
    p.fRcvData.path = cdir + "port_rcv_data";
    p.fXmitPkts.path = cdir + "port_xmit_packets";
    p.fRcvPkts.path = cdir + "port_rcv_packets";
    p.fUcastX.path = cdir + "unicast_xmit_packets";
    p.fUcastR.path = cdir + "unicast_rcv_packets";
    p.fXmitWait.path = cdir + "port_xmit_wait";
    p.fRxWrite.path = hdir + "rx_write_requests";
    p.fRxRead.path = hdir + "rx_read_requests";
    p.fEcn.path = hdir + "np_ecn_marked_roce_packets";
    p.fCnpSent.path = hdir + "np_cnp_sent";
    p.fCnpHandled.path = hdir + "rp_cnp_handled";
    p.fOos.path = hdir + "out_of_sequence";
    for (const char* name : kErrorCounters)
        put(std::string("counters/") + name, "0");
    put("counters/multicast_xmit_packets", "0");
    put("counters/multicast_rcv_packets", "0");
    for (const char* name : kQCounters)
        put(std::string("hw_counters/") + name, "0");
    put("hw_counters/lifespan", "10");
    if (roce)
        put("hw_counters/rp_cnp_ignored", "0");
    if (!s)
        return s;
    const std::uint64_t words = 4;
    std::vector<std::pair<CounterFile*, std::uint64_t>> initial {
        { &p.fXmitData, (p.txBytes.whole + p.mgmtTxBytes.whole) / words },
        { &p.fRcvData, (p.rxBytes.whole + p.mgmtRxBytes.whole) / words },
        { &p.fXmitPkts, p.txPkts.whole + p.mgmtTxPkts.whole },
        { &p.fRcvPkts, p.rxPkts.whole + p.mgmtRxPkts.whole },
        { &p.fUcastX, p.txPkts.whole + p.mgmtTxPkts.whole },
        { &p.fUcastR, p.rxPkts.whole + p.mgmtRxPkts.whole },
        { &p.fXmitWait, 0 },
        { &p.fRxWrite, p.rxWrite.whole & kMax32 },
        { &p.fRxRead, p.rxRead.whole & kMax32 },
        { &p.fOos, 0 },
    };
    if (roce) {
        initial.push_back({ &p.fEcn, 0 });
        initial.push_back({ &p.fCnpSent, 0 });
        initial.push_back({ &p.fCnpHandled, 0 });
    }
    for (auto& [file, value] : initial) {
        if (auto st = t.file(fs::path(file->path).lexically_relative(node.info.sysRoot).string(), u64(value) + "\n"); !st)
            return st;
        file->written = value;
    }
    return s;
}

int FabricEmulator::Impl::mtuOf(const Port& p) const
{
    if (!p.ethernet)
        return 4092;
    if (p.mtuSmall)
        return 1500;
    if (p.intent && qosIntent)
        return qosIntent->interfaceMtu;
    const int planned = plan.spec.lossless.mtu;
    if (!p.rail)
        return 9000;
    return (planned == 256 || planned == 512 || planned == 1024 || planned == 2048 || planned == 4096) ? 9000 : planned;
}

core::Status FabricEmulator::Impl::writeGids(TreeWriter& t, const Nic& nic, const Port& p)
{
    // The table a RoCE port shows: link-local v1 and v2, then each address's v1 and v2 entries in the
    // order the addresses were added (the IPv4 rail address's v2 entry at 3, kRoceV2Ipv4GidIndex).
    const std::string ll = linkLocalGid(p.mac);
    std::vector<std::pair<std::string, std::string>> gids { { ll, "IB/RoCE v1" }, { ll, "RoCE v2" } };
    if (!p.ipv4.empty() && p.rail) {
        if (p.gidShifted) {
            gids.emplace_back(gidHoldingIpv4(kUniqueLocal, p.ipv4), "IB/RoCE v1");
            gids.emplace_back(gidHoldingIpv4(kUniqueLocal, p.ipv4), "RoCE v2");
        }
        gids.emplace_back(gidHoldingIpv4(kIpv4Mapped, p.ipv4), "IB/RoCE v1");
        gids.emplace_back(gidHoldingIpv4(kIpv4Mapped, p.ipv4), "RoCE v2");
    }
    const std::string dir = nic.pci.rel + "/infiniband/" + nic.name + "/ports/" + std::to_string(p.number) + "/";
    for (std::size_t i = 0; i < gids.size(); ++i) {
        const std::string n = std::to_string(i);
        const std::array<std::pair<std::string, std::string>, 3> files { { { "gids/" + n, gids[i].first },
            { "gid_attrs/types/" + n, gids[i].second }, { "gid_attrs/ndevs/" + n, p.netdev } } };
        for (const auto& [rel, value] : files)
            if (auto st = t.line(dir + rel, value); !st)
                return st;
    }
    return {};
}

core::Status FabricEmulator::Impl::writeNetwork(TreeWriter& t, const Node& node)
{
    // What `ip -j -4 addr show`, `ip -j -4 rule show` and `ip -j -4 route show table all` print on
    // the node, and its net.ipv4.conf sysctls: on a routed plan's healthy node exactly what the
    // plan's host script sets (hostScript), elsewhere the kernel's defaults.
    using nlohmann::json;
    json addrs = json::array();
    json rules = json::array({ { { "priority", 0 }, { "src", "all" }, { "table", "local" } } });
    json routes = json::array();
    addrs.push_back({ { "ifindex", 1 }, { "ifname", "lo" }, { "flags", { "LOOPBACK", "UP", "LOWER_UP" } }, { "mtu", 65536 },
        { "operstate", "UNKNOWN" },
        { "addr_info", json::array({ { { "family", "inet" }, { "local", "127.0.0.1" }, { "prefixlen", 8 }, { "scope", "host" }, { "label", "lo" } } }) } });
    auto sysctls = [&](const std::string& name, int rp, int ignore, int announce) -> core::Status {
        const std::string dir = "proc/sys/net/ipv4/conf/" + name + "/";
        const std::array<std::pair<const char*, int>, 4> files { { { "rp_filter", rp }, { "arp_ignore", ignore },
            { "arp_announce", announce }, { "arp_filter", 0 } } };
        for (const auto& [file, value] : files)
            if (auto st = t.line(dir + file, std::to_string(value)); !st)
                return st;
        return {};
    };
    const bool routed = qosIntent.has_value();
    core::Status s = sysctls("all", 0, routed ? 1 : 0, routed ? 2 : 0);
    if (s)
        s = sysctls("default", 0, 0, 0);
    if (s)
        s = sysctls("lo", 0, 0, 0);
    int ifindex = 2;
    for (const auto& nic : node.nics) {
        for (const auto& p : nic.ports) {
            if (!s)
                return s;
            if (!p.ethernet)
                continue;
            json info = json::array();
            if (p.rail && !p.ipv4.empty()) {
                info.push_back({ { "family", "inet" }, { "local", p.ipv4 }, { "prefixlen", p.prefixLength }, { "scope", "global" },
                    { "label", p.netdev } });
                routes.push_back({ { "dst", networkOf(p.ipv4, p.prefixLength) }, { "dev", p.netdev }, { "protocol", "kernel" },
                    { "scope", "link" }, { "prefsrc", p.ipv4 }, { "flags", json::array() } });
                routes.push_back({ { "type", "local" }, { "dst", p.ipv4 }, { "dev", p.netdev }, { "table", "local" }, { "protocol", "kernel" },
                    { "scope", "host" }, { "prefsrc", p.ipv4 }, { "flags", json::array() } });
            }
            addrs.push_back({ { "ifindex", ifindex++ }, { "ifname", p.netdev }, { "flags", { "BROADCAST", "MULTICAST", "UP", "LOWER_UP" } },
                { "mtu", mtuOf(p) }, { "operstate", p.state == 4 ? "UP" : "DOWN" }, { "addr_info", std::move(info) } });
            if (p.intent) {
                const planner::NicIntent& n = *p.intent;
                const std::string table = std::to_string(n.table);
                rules.push_back({ { "priority", n.table }, { "src", n.address }, { "table", table } });
                routes.push_back({ { "dst", "default" }, { "gateway", n.gateway }, { "dev", p.netdev }, { "table", table },
                    { "prefsrc", n.address }, { "flags", json::array() } });
                routes.push_back({ { "dst", n.network + "/" + std::to_string(n.prefixLength) }, { "dev", p.netdev }, { "table", table },
                    { "scope", "link" }, { "prefsrc", n.address }, { "flags", json::array() } });
                s = sysctls(p.netdev, p.rpStrict ? 1 : 2, 1, 2);
            } else {
                s = sysctls(p.netdev, p.rpStrict ? 1 : 0, 0, 0);
            }
        }
    }
    rules.push_back({ { "priority", 32766 }, { "src", "all" }, { "table", "main" } });
    rules.push_back({ { "priority", 32767 }, { "src", "all" }, { "table", "default" } });
    if (s)
        s = t.file("ip/addr.json", addrs.dump() + "\n");
    if (s)
        s = t.file("ip/rule.json", rules.dump() + "\n");
    if (s)
        s = t.file("ip/route.json", routes.dump() + "\n");
    return s;
}

core::Status FabricEmulator::Impl::writeNic(const Node& node, const Nic& nic)
{
    TreeWriter t(madeDirs, node.info.sysRoot);
    const std::string ibdir = nic.pci.rel + "/infiniband/" + nic.name;
    const NicInfo info = nicInfo(plan.spec.nic);
    core::Status s;
    auto put = [&](const std::string& name, const std::string& value) {
        if (s)
            s = t.line(ibdir + "/" + name, value);
    };
    put("node_type", "1: CA");
    put("node_guid", sysfsGuid(nic.nodeGuid));
    put("sys_image_guid", sysfsGuid(nic.nodeGuid));
    put("fw_ver", info.firmware);
    put("hca_type", info.hcaType);
    put("hw_rev", "0x0");
    put("board_id", info.boardId);
    put("node_desc", node.info.name + " " + nic.name);
    if (s)
        s = t.link(ibdir + "/device", "../../../" + nic.pci.address);
    if (s)
        s = t.link("class/infiniband/" + nic.name, up(2) + ibdir);
    for (const auto& p : nic.ports) {
        if (!s)
            break;
        const std::string ndir = nic.pci.rel + "/net/" + p.netdev;
        auto nput = [&](const std::string& name, const std::string& value) {
            if (s)
                s = t.line(ndir + "/" + name, value);
        };
        const bool up4 = p.state == 4;
        nput("mtu", std::to_string(mtuOf(p)));
        nput("operstate", up4 ? "up" : "down");
        nput("carrier", up4 ? "1" : "0");
        nput("type", p.ethernet ? "1" : "32");
        nput("dev_port", std::to_string(p.number - 1));
        if (p.ethernet) {
            nput("address", macText(p.mac));
            nput("speed", up4 ? std::to_string(static_cast<long long>(p.capacityGbps * 1000)) : "-1");
        } else {
            nput("address", "00:00:10:87:fe:80:00:00:00:00:00:00:" + [&] {
                std::string g;
                for (int b = 7; b >= 0; --b) {
                    char buf[4];
                    std::snprintf(buf, sizeof buf, "%02x", static_cast<unsigned>((p.portGuid >> (8 * b)) & 0xff));
                    g += buf;
                    if (b)
                        g += ':';
                }
                return g;
            }());
        }
        if (p.ethernet) {
            const bool ecnOn = !node.noEcn && (p.rail ? plan.spec.lossless.ecn : false);
            const bool rpOn = !node.noEcn && (p.rail ? plan.spec.lossless.dcqcn : false);
            for (int q = 0; q < 8; ++q) {
                nput("ecn/roce_np/enable/" + std::to_string(q), ecnOn ? "1" : "0");
                nput("ecn/roce_rp/enable/" + std::to_string(q), rpOn ? "1" : "0");
            }
        }
        if (s)
            s = t.link(ndir + "/device", "../../../" + nic.pci.address);
        if (s)
            s = t.link("class/net/" + p.netdev, up(2) + ndir);
    }
    return s;
}

core::Status FabricEmulator::Impl::writeSim(const Node& node)
{
    TreeWriter t(madeDirs, node.info.simDir, running ? writer.get() : nullptr);
    const bool roce = plan.spec.fabric == core::Fabric::RoCEv2;
    core::Status s = t.dir(node.info.simDir);
    std::string lldp;
    int rid = 1;
    for (const auto& nic : node.nics) {
        for (const auto& p : nic.ports) {
            if (!s)
                return s;
            if (!p.ethernet)
                continue;
            std::array<bool, 8> pfc = prio.pfc;
            std::string trust = prio.trust;
            if (p.wrongTrust)
                trust = trust == "dscp" ? "pcp" : "dscp";
            if (p.pfcWrongPriority) {
                // PFC moved to the next priority that is neither the plan's nor the CNPs'.
                std::array<bool, 8> moved {};
                for (int q = 0; q < 8; ++q) {
                    if (!pfc[static_cast<std::size_t>(q)])
                        continue;
                    int to = (q + 1) % 8;
                    while (pfc[static_cast<std::size_t>(to)] || to == prio.cnp)
                        to = (to + 1) % 8;
                    moved[static_cast<std::size_t>(to)] = true;
                }
                pfc = moved;
            }
            if (node.noPfc || !p.rail || !roce)
                pfc = {};
            if (!p.rail || !roce)
                trust = "pcp";
            s = t.file("qos/" + p.netdev + ".mlnx_qos", mlnxQosText(trust, pfc));
            if (s)
                s = t.file("ethtool/" + p.netdev + ".txt", ethtoolText(p, prio, p.rail && roce && !node.noPfc));
            if (roce && p.rail && !p.leaf.empty()) {
                const std::string k = "lldp." + p.netdev + ".";
                const auto& leaf = plan.devices[p.leafDevice];
                const auto* model = catalog->findSwitch(leaf.model);
                const std::string modelName = model ? model->name : leaf.model;
                char mac[24];
                std::snprintf(mac, sizeof mac, "1c:34:da:%02x:%02x:%02x", (p.leafDevice >> 16) & 0xff, (p.leafDevice >> 8) & 0xff,
                    p.leafDevice & 0xff);
                lldp += k + "via=LLDP\n" + k + "rid=" + std::to_string(rid++) + "\n" + k + "age=0 day, 00:05:00\n";
                lldp += k + "chassis.mac=" + mac + "\n" + k + "chassis.name=" + p.leaf + "\n";
                lldp += k + "chassis.descr=Cumulus Linux version 5.9.1 running on " + modelName + "\n";
                lldp += k + "chassis.ttl=120\n" + k + "chassis.Bridge.enabled=on\n" + k + "chassis.Router.enabled=on\n";
                lldp += k + "port.ifname=swp" + std::to_string(p.leafPort) + "\n";
                lldp += k + "port.descr=swp" + std::to_string(p.leafPort) + "\n";
                lldp += k + "port.mfs=9216\n";
            }
        }
    }
    if (s && roce)
        s = t.file("lldp.keyvalue", lldp);
    // Every Linux host has `ip` and /proc/sys/net/ipv4/conf, an InfiniBand node too (its Ethernet
    // NICs'); the agent reads them wherever a port runs Ethernet.
    if (s)
        s = writeNetwork(t, node);
    if (s) {
        nlohmann::json gpu;
        gpu["models"] = nlohmann::json::object();
        for (const auto& address : node.gpus)
            gpu["models"][address] = node.gpu.name;
        gpu["dmabuf"] = node.gpudirect ? "on" : "off";
        s = t.file("gpu.json", gpu.dump(2) + "\n");
    }
    return s;
}

core::Status FabricEmulator::Impl::writeNode(const Node& node)
{
    TreeWriter t(madeDirs, node.info.sysRoot);
    core::Status s;
    for (const auto& pci : node.pci) {
        if (!(s = writePci(t, pci)))
            return s;
    }
    auto& mutableNode = const_cast<Node&>(node);
    for (auto& nic : mutableNode.nics) {
        if (!(s = writeNic(node, nic)))
            return s;
        for (auto& p : nic.ports)
            if (!(s = writePort(node, nic, p)))
                return s;
    }
    s = t.line("module/nvidia/version", "550.127.05");
    if (s)
        s = t.line("module/nvidia/initstate", "live");
    if (s)
        s = t.line("module/mlx5_ib/initstate", "live");
    if (s && node.gpudirect)
        s = t.line("module/nvidia_peermem/initstate", "live");
    if (s)
        s = writeSim(node);
    return s;
}

FabricEmulator::FabricEmulator()
    : m_impl(std::make_unique<Impl>())
{
}

FabricEmulator::~FabricEmulator() = default;

core::Result<std::unique_ptr<FabricEmulator>> FabricEmulator::create(const core::Plan& plan, const core::Catalog& catalog,
    std::vector<Fault> faults, EmulatorOptions options)
{
    std::unique_ptr<FabricEmulator> emulator(new FabricEmulator());
    auto& impl = *emulator->m_impl;
    impl.catalog = &catalog;
    impl.plan = plan;
    impl.faults = std::move(faults);
    impl.options = std::move(options);
    impl.options.slowEvery = std::max(1, impl.options.slowEvery);
    impl.prio = prioritiesOf(plan.spec);
    // A routed RoCEv2 plan's host intent, from the plan as planned: the cabling faults below move
    // cables, not the addresses the hosts were given. Without a rail map (or addresses) the nodes
    // carry the unrouted defaults, and live check says it cannot derive the intent.
    if (plan.spec.fabric == core::Fabric::RoCEv2 && plan.spec.addressingGiven) {
        const core::NodeType* type = catalog.findNodeType(plan.spec.nodeType);
        if (auto addresses = planner::planAddresses(plan); addresses && type) {
            if (auto hosts = planner::hostIntents(plan, *addresses, type->railMap); hosts && !hosts->empty()) {
                impl.qosIntent = hosts->front().qos;
                for (const auto& h : *hosts)
                    for (const auto& n : h.nics)
                        impl.intents.emplace(std::make_tuple(h.node, n.rail, n.plane), n);
            }
        }
    }
    // Cabling faults: swapped leaf ends, unplugged links.
    for (const auto& f : impl.faults) {
        const int planes = planeCount(plan);
        for (int pl = 0; pl < planes; ++pl) {
            if (f.kind == FaultKind::Swap) {
                const long a = findNodeLink(impl.plan, f.nic.device, f.nic.rail, pl);
                const long b = findNodeLink(impl.plan, f.other.device, f.other.rail, pl);
                if (a >= 0 && b >= 0)
                    std::swap(impl.plan.links[static_cast<std::size_t>(a)].b, impl.plan.links[static_cast<std::size_t>(b)].b);
            } else if (f.kind == FaultKind::Unplugged) {
                const long a = findNodeLink(impl.plan, f.nic.device, f.nic.rail, pl);
                if (a >= 0)
                    impl.plan.links[static_cast<std::size_t>(a)].installed = false;
            }
        }
    }
    if (auto s = impl.layout(); !s)
        return s.errors();
    return emulator;
}

core::Status FabricEmulator::writeTree()
{
    auto& impl = *m_impl;
    if (auto s = makeDirs(impl.options.root); !s)
        return s;
    impl.writer = std::make_unique<AtomicWriter>(impl.options.root / ".tmp");
    for (const auto& node : impl.nodes) {
        std::error_code ec;
        fs::remove_all(impl.options.root / node.info.name, ec);
        const auto s = impl.writeNode(node);
        impl.madeDirs.clear();
        if (!s)
            return s;
    }
    impl.running = true;
    if (impl.plan.spec.fabric == core::Fabric::InfiniBand) {
        for (int plane = 1; plane <= planeCount(impl.plan); ++plane) {
            std::ostringstream text;
            planner::writeIbnetdiscover(impl.plan, text, planner::IbnetdiscoverOptions { plane, planner::IbnetSpeeds::Ibsim });
            const fs::path path = impl.options.root / (plane == 1 ? "fabric.ibnet" : "fabric-p" + std::to_string(plane) + ".ibnet");
            if (auto s = impl.writer->write(path.string(), text.str()); !s)
                return s;
        }
    }
    return {};
}

core::Result<UpdateStats> FabricEmulator::update(double seconds)
{
    auto& impl = *m_impl;
    if (!impl.writer)
        return core::Error { "SIM_STATE", "update before the tree was written", impl.options.root.string(), "" };
    UpdateStats stats;
    const std::uint64_t tick = impl.tick++;
    const auto every = static_cast<std::uint64_t>(impl.options.slowEvery);
    const bool roce = impl.plan.spec.fabric == core::Fabric::RoCEv2;
    char buf[24];
    auto put = [&](CounterFile& f, std::uint64_t value) -> bool {
        if (value == f.written)
            return true;
        const auto r = std::to_chars(buf, buf + sizeof buf - 1, value);
        *r.ptr = '\n';
        if (!impl.writer->writeFast(f.path.c_str(), std::string_view(buf, static_cast<std::size_t>(r.ptr - buf) + 1)))
            return false;
        f.written = value;
        ++stats.filesWritten;
        return true;
    };
    auto fail = [&](const std::string& path) {
        return core::Error { "SIM_WRITE", std::string("cannot write: ") + std::strerror(errno), path,
            "check that the emulator's --root is writable and not full" };
    };
    std::uint64_t portIndex = 0;
    for (auto& node : impl.nodes) {
        const bool pfcOn = roce && !node.noPfc;
        for (auto& nic : node.nics) {
            for (auto& p : nic.ports) {
                ++portIndex;
                if (p.state != 4 || !p.rail)
                    continue;
                p.txBytes.add(p.txBps * seconds);
                p.rxBytes.add(p.rxBps * seconds);
                p.txPkts.add(p.txBps * seconds / 4096);
                p.rxPkts.add(p.rxBps * seconds / 4096);
                p.mgmtTxBytes.add(p.mgmtBps * seconds);
                p.mgmtRxBytes.add(p.mgmtBps * seconds);
                p.mgmtTxPkts.add(p.mgmtPps * seconds);
                p.mgmtRxPkts.add(p.mgmtPps * seconds);
                p.xmitWait.add(p.xmitWaitPs * seconds);
                p.rxWrite.add(p.rxBps * seconds / 65536);
                p.rxRead.add(p.rxBps * seconds / 16777216);
                p.ecn.add(p.ecnPs * seconds);
                p.cnpSent.add(p.cnpSentPs * seconds);
                p.cnpHandled.add(p.cnpHandledPs * seconds);
                p.pause.add(p.pausePs * seconds);
                p.pauseUs.add(p.pauseUsPs * seconds);
                p.oos.add(p.oosPs * seconds);
                ++stats.portsUpdated;
                const std::uint64_t txP = p.txPkts.whole + p.mgmtTxPkts.whole;
                const std::uint64_t rxP = p.rxPkts.whole + p.mgmtRxPkts.whole;
                if (!put(p.fXmitData, (p.txBytes.whole + p.mgmtTxBytes.whole) / 4))
                    return fail(p.fXmitData.path);
                if (!put(p.fRcvData, (p.rxBytes.whole + p.mgmtRxBytes.whole) / 4))
                    return fail(p.fRcvData.path);
                if (p.xmitWaitPs > 0 && !put(p.fXmitWait, std::min(p.xmitWait.whole, kMax32)))
                    return fail(p.fXmitWait.path);
                if (p.ecnPs > 0) {
                    if (!put(p.fEcn, p.ecn.whole))
                        return fail(p.fEcn.path);
                    if (!put(p.fCnpSent, p.cnpSent.whole))
                        return fail(p.fCnpSent.path);
                    if (!put(p.fCnpHandled, p.cnpHandled.whole))
                        return fail(p.fCnpHandled.path);
                }
                if (p.oosPs > 0 && !put(p.fOos, p.oos.whole & kMax32))
                    return fail(p.fOos.path);
                const bool slowTurn = (tick + portIndex) % every == 0;
                if (slowTurn) {
                    if (!put(p.fXmitPkts, txP))
                        return fail(p.fXmitPkts.path);
                    if (!put(p.fRcvPkts, rxP))
                        return fail(p.fRcvPkts.path);
                    if (!put(p.fUcastX, txP))
                        return fail(p.fUcastX.path);
                    if (!put(p.fUcastR, rxP))
                        return fail(p.fUcastR.path);
                    if (!put(p.fRxWrite, p.rxWrite.whole & kMax32))
                        return fail(p.fRxWrite.path);
                    if (!put(p.fRxRead, p.rxRead.whole & kMax32))
                        return fail(p.fRxRead.path);
                }
                if (p.ethernet && (slowTurn || p.pausePs > 0 || p.ecnPs > 0)) {
                    if (p.ethtoolPath.empty())
                        p.ethtoolPath = (node.info.simDir / "ethtool" / (p.netdev + ".txt")).string();
                    const std::string text = ethtoolText(p, impl.prio, pfcOn);
                    if (!impl.writer->writeFast(p.ethtoolPath.c_str(), text))
                        return fail(p.ethtoolPath);
                    ++stats.filesWritten;
                }
            }
        }
    }
    for (auto& sp : impl.switchPorts) {
        sp.tx.add(sp.txBps * seconds);
        sp.rx.add(sp.rxBps * seconds);
        sp.txPkts.add(sp.txBps * seconds / 4096);
        sp.rxPkts.add(sp.rxBps * seconds / 4096);
        sp.xmitWait.add(sp.xmitWaitPs * seconds);
    }
    return stats;
}

std::vector<SwitchPortCounters> FabricEmulator::switchPortCounters() const
{
    std::vector<SwitchPortCounters> out;
    out.reserve(m_impl->switchPorts.size());
    for (const auto& sp : m_impl->switchPorts)
        out.push_back({ sp.device, sp.port, sp.tx.whole, sp.rx.whole, sp.txPkts.whole, sp.rxPkts.whole, sp.xmitWait.whole });
    std::sort(out.begin(), out.end(),
        [](const SwitchPortCounters& a, const SwitchPortCounters& b) { return std::tie(a.device, a.port) < std::tie(b.device, b.port); });
    return out;
}

core::Status FabricEmulator::Impl::writePortState(const Node& node, const Nic& nic, const Port& p)
{
    // Only the files a link change moves, each replaced atomically: the agents are reading.
    TreeWriter t(madeDirs, node.info.sysRoot, writer.get());
    const std::string dir = nic.pci.rel + "/infiniband/" + nic.name + "/ports/" + std::to_string(p.number);
    const std::string ndir = nic.pci.rel + "/net/" + p.netdev;
    const bool up4 = p.state == 4;
    char lid[16];
    std::snprintf(lid, sizeof lid, "0x%x", p.ethernet ? 0 : (up4 ? p.lid : 0xffff));
    const std::vector<std::pair<std::string, std::string>> files {
        { dir + "/state", std::to_string(p.state) + ": " + kStates[p.state] },
        { dir + "/phys_state", std::to_string(p.physState) + ": " + kPhys[p.physState] },
        { dir + "/rate", p.rateText },
        { dir + "/lid", lid },
        { dir + "/sm_lid", !p.ethernet && up4 ? "0x1" : "0x0" },
        { ndir + "/operstate", up4 ? "up" : "down" },
        { ndir + "/carrier", up4 ? "1" : "0" },
    };
    for (const auto& [rel, value] : files)
        if (auto s = t.line(rel, value); !s)
            return s;
    if (p.ethernet)
        return t.line(ndir + "/speed", up4 ? std::to_string(static_cast<long long>(p.capacityGbps * 1000)) : "-1");
    return {};
}

core::Status FabricEmulator::Impl::injectLinkFault(Node& node, const Fault& fault)
{
    const bool roce = plan.spec.fabric == core::Fabric::RoCEv2;
    for (auto& nic : node.nics) {
        if (nic.rail != fault.nic.rail)
            continue;
        for (auto& p : nic.ports) {
            if (fault.kind == FaultKind::LinkDown) {
                p.state = 1;
                p.physState = 3;
            } else if (fault.kind == FaultKind::Unplugged) {
                p.state = 1;
                p.physState = 2;
                p.leaf.clear();
                const long link = findNodeLink(plan, node.device, nic.rail, p.plane);
                if (link >= 0)
                    plan.links[static_cast<std::size_t>(link)].installed = false;
            } else if (p.state == 4) {
                const auto rate = degradedRate(plan.summary.port, fault);
                if (!rate)
                    return core::Error { "SIM_FAULT", "the degraded rate does not exist for the plan's link", node.info.name + "/rail " + std::to_string(nic.rail),
                        "give a width or generation the plan's link can train at" };
                p.rateText = sysfsRateText(*rate);
                p.capacityGbps = rate->dataGbps;
            }
            if (p.state != 4)
                p.rateText = roce ? "40 Gb/sec (4X QDR)" : "10 Gb/sec (4X SDR)";
            if (auto s = writePortState(node, nic, p); !s)
                return s;
        }
        // The LLDP neighbour of an unplugged RoCE port is gone.
        return fault.kind == FaultKind::Unplugged && roce ? writeSim(node) : core::Status {};
    }
    return core::Error { "SIM_FAULT", "the node has no NIC on rail " + std::to_string(fault.nic.rail), node.info.name,
        "choose a rail of the plan" };
}

core::Status FabricEmulator::Impl::injectHostFault(Node& node, const Fault& fault)
{
    for (auto& nic : node.nics) {
        if (nic.rail != fault.nic.rail)
            continue;
        TreeWriter t(madeDirs, node.info.sysRoot, writer.get());
        for (auto& p : nic.ports) {
            core::Status s;
            switch (fault.kind) {
            case FaultKind::WrongTrust: p.wrongTrust = true; break;
            case FaultKind::PfcWrongPriority: p.pfcWrongPriority = true; break;
            case FaultKind::RpFilterStrict: p.rpStrict = true; break;
            case FaultKind::MtuMismatch:
                p.mtuSmall = true;
                s = t.line(nic.pci.rel + "/net/" + p.netdev + "/mtu", std::to_string(mtuOf(p)));
                break;
            case FaultKind::WrongGidIndex:
                p.gidShifted = true;
                s = writeGids(t, nic, p);
                break;
            default: break;
            }
            if (!s)
                return s;
        }
        // mlnx_qos, the sysctls and ip's view (the MTU in `ip addr`) are in the node's sim folder.
        return writeSim(node);
    }
    return core::Error { "SIM_FAULT", "the node has no NIC on rail " + std::to_string(fault.nic.rail), node.info.name,
        "choose a rail of the plan" };
}

core::Status FabricEmulator::injectFault(const Fault& fault)
{
    auto& impl = *m_impl;
    if (!impl.running)
        return core::Error { "SIM_STATE", "fault injected before the tree was written", impl.options.root.string(),
            "call writeTree() first, or give the fault to create()" };
    if (fault.kind == FaultKind::Swap)
        return core::Error { "SIM_FAULT", "a swap rewires two cables, which cannot happen to a running emulation",
            fault.nic.node + "/rail " + std::to_string(fault.nic.rail), "give the swap in the faults file when the emulator starts" };
    if (fault.kind == FaultKind::Congested) {
        impl.faults.push_back(fault);
        impl.rates();
        return {};
    }
    auto node = std::find_if(impl.nodes.begin(), impl.nodes.end(), [&](const Node& n) { return n.device == fault.nic.device; });
    if (node == impl.nodes.end())
        return core::Error { "SIM_FAULT", "no such emulated node", fault.nic.node.empty() ? std::to_string(fault.nic.device) : fault.nic.node,
            "name a node of the plan that is installed" };
    core::Status s;
    switch (fault.kind) {
    case FaultKind::LinkDown:
    case FaultKind::Unplugged:
    case FaultKind::Degraded:
        s = impl.injectLinkFault(*node, fault);
        break;
    case FaultKind::NoPfc:
        node->noPfc = true;
        s = impl.writeSim(*node); // mlnx_qos without PFC; the ethtool files follow in update()
        break;
    case FaultKind::NoEcn: {
        node->noEcn = true;
        TreeWriter t(impl.madeDirs, node->info.sysRoot, impl.writer.get());
        for (const auto& nic : node->nics)
            for (const auto& p : nic.ports)
                for (int q = 0; s && p.ethernet && q < 8; ++q) {
                    const std::string ndir = nic.pci.rel + "/net/" + p.netdev + "/ecn/";
                    s = t.line(ndir + "roce_np/enable/" + std::to_string(q), "0");
                    if (s)
                        s = t.line(ndir + "roce_rp/enable/" + std::to_string(q), "0");
                }
        break;
    }
    case FaultKind::NoGpuDirect: {
        node->gpudirect = false;
        std::error_code ec;
        fs::remove_all(node->info.sysRoot / "module/nvidia_peermem", ec);
        if (ec)
            return core::Error { "SIM_WRITE", "cannot remove nvidia_peermem: " + ec.message(), (node->info.sysRoot / "module/nvidia_peermem").string(), "" };
        s = impl.writeSim(*node); // gpu.json: dma-buf off
        break;
    }
    case FaultKind::WrongTrust:
    case FaultKind::PfcWrongPriority:
    case FaultKind::MtuMismatch:
    case FaultKind::RpFilterStrict:
    case FaultKind::WrongGidIndex:
        s = impl.injectHostFault(*node, fault);
        break;
    case FaultKind::Swap:
    case FaultKind::Congested:
        break;
    }
    impl.madeDirs.clear();
    if (!s)
        return s;
    impl.faults.push_back(fault);
    impl.rates();
    return {};
}

const std::vector<EmulatedNode>& FabricEmulator::nodes() const
{
    return m_impl->infos;
}

const core::Plan& FabricEmulator::cabledPlan() const
{
    return m_impl->plan;
}

std::filesystem::path FabricEmulator::ibnetPath() const
{
    if (m_impl->plan.spec.fabric != core::Fabric::InfiniBand)
        return {};
    return m_impl->options.root / "fabric.ibnet";
}

std::size_t FabricEmulator::portCount() const
{
    return m_impl->ports;
}

core::Status writeAgentsJson(const std::filesystem::path& path, const std::string& tokenFile,
    const std::vector<AgentListing>& agents)
{
    nlohmann::json doc;
    if (!tokenFile.empty())
        doc["token_file"] = tokenFile;
    doc["agents"] = nlohmann::json::array();
    for (const auto& a : agents)
        doc["agents"].push_back({ { "node", a.node }, { "url", a.url } });
    AtomicWriter writer(path.parent_path() / ".tmp");
    return writer.write(path.string(), doc.dump(2) + "\n");
}

} // namespace railyard::live
