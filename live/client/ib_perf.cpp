// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/ib_perf.h"

#include "live/common/sysfs_counters.h"

#include <infiniband/mad.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <map>
#include <memory>

namespace railyard::live {

namespace {

    // PMA ClassPortInfo CapabilityMask bits (IBA vol. 1, 16.1.3.1; the ones perfquery checks).
    constexpr unsigned kExtendedWidth = 1u << 9;        ///< IsExtendedWidthSupported
    constexpr unsigned kExtendedWidthNoIetf = 1u << 10; ///< IsExtendedWidthSupportedNoIETF
    constexpr unsigned kXmitWait = 1u << 12;            ///< PortCountersXmitWaitSupported

    struct PortCloser {
        void operator()(ibmad_port* p) const { mad_rpc_close_port(p); }
    };

    std::uint64_t field(const std::array<std::uint8_t, 1024>& buf, enum MAD_FIELDS f)
    {
        std::uint64_t v = 0;
        mad_decode_field(const_cast<std::uint8_t*>(buf.data()), f, &v);
        return v;
    }

    std::uint32_t field32(const std::array<std::uint8_t, 1024>& buf, enum MAD_FIELDS f)
    {
        std::uint32_t v = 0;
        mad_decode_field(const_cast<std::uint8_t*>(buf.data()), f, &v);
        return v;
    }

    std::int64_t nowMs()
    {
        return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count();
    }

} // namespace

std::vector<SwitchTarget> switchTargets(const IbFabric& fabric, const std::vector<SwitchMatch>& matches)
{
    std::map<std::uint64_t, std::string> named;
    for (const SwitchMatch& m : matches)
        if (!m.name.empty())
            named[m.guid] = m.name;
    std::map<std::uint64_t, std::vector<int>> linked;
    for (const IbLink& l : fabric.links)
        for (const IbLinkEnd* end : { &l.a, &l.b })
            linked[end->guid].push_back(end->port);
    std::vector<SwitchTarget> out;
    for (const IbNode& n : fabric.nodes) {
        if (n.type != IbNodeType::Switch || n.lid <= 0)
            continue;
        SwitchTarget t;
        t.guid = n.guid;
        t.lid = n.lid;
        const auto it = named.find(n.guid);
        t.name = it != named.end() ? it->second : n.description;
        t.ports = linked[n.guid];
        std::sort(t.ports.begin(), t.ports.end());
        t.ports.erase(std::unique(t.ports.begin(), t.ports.end()), t.ports.end());
        out.push_back(std::move(t));
    }
    return out;
}

core::Result<SwitchCounterSweep> querySwitchCounters(const std::vector<SwitchTarget>& targets, const PmaOptions& options)
{
    int classes[] = { IB_SMI_CLASS, IB_SMI_DIRECT_CLASS, IB_SA_CLASS, IB_PERFORMANCE_CLASS };
    std::string ca = options.caName;
    std::unique_ptr<ibmad_port, PortCloser> port(
        mad_rpc_open_port(ca.empty() ? nullptr : ca.data(), options.caPort, classes, static_cast<int>(std::size(classes))));
    if (!port)
        return core::Error { "IB_PMA",
            "cannot open an InfiniBand port for performance queries" + (ca.empty() ? std::string() : " on " + ca),
            "--switches",
            "run on a host of the subnet with a umad device (and read access to /dev/infiniband/umad*), or under ibsim with "
            "libumad2sim.so preloaded" };
    if (options.timeoutMs > 0)
        mad_rpc_set_timeout(port.get(), static_cast<int>(options.timeoutMs));
    if (options.retries > 0)
        mad_rpc_set_retries(port.get(), options.retries);
    const unsigned timeout = options.timeoutMs;

    SwitchCounterSweep sweep;
    std::array<std::uint8_t, 1024> buf {};
    for (const SwitchTarget& t : targets) {
        ib_portid_t id {};
        ib_portid_set(&id, t.lid, 0, 0);
        // What the PMA offers: 64-bit data counters (else PortCounters' 32-bit ones, which
        // saturate) and PortXmitWait.
        buf.fill(0);
        ++sweep.mads;
        if (!pma_query_via(buf.data(), &id, 1, timeout, CLASS_PORT_INFO, port.get())) {
            sweep.failures.push_back(t.name + ": no answer to ClassPortInfo (LID " + std::to_string(t.lid) + ")");
            continue;
        }
        const unsigned cap = field32(buf, IB_CPI_CAPMASK_F);
        const bool extended = (cap & (kExtendedWidth | kExtendedWidthNoIetf)) != 0;
        const bool xmitWait = (cap & kXmitWait) != 0;
        CounterSnapshot snap;
        snap.node = t.name;
        snap.timestampMs = nowMs();
        for (const int p : t.ports) {
            PortCounters pc;
            pc.device = t.name;
            pc.port = p;
            buf.fill(0);
            ++sweep.mads;
            if (!pma_query_via(buf.data(), &id, p, timeout, IB_GSI_PORT_COUNTERS, port.get())) {
                sweep.failures.push_back(t.name + " port " + std::to_string(p) + ": no answer to PortCounters");
                continue;
            }
            auto put = [&](const char* name, std::uint64_t value) { pc.counters[name] = sysfs::portCounter(name, value); };
            put("symbol_error", field(buf, IB_PC_ERR_SYM_F));
            put("link_error_recovery", field(buf, IB_PC_LINK_RECOVERS_F));
            put("link_downed", field(buf, IB_PC_LINK_DOWNED_F));
            put("port_rcv_errors", field(buf, IB_PC_ERR_RCV_F));
            put("port_xmit_discards", field(buf, IB_PC_XMT_DISCARDS_F));
            if (xmitWait)
                put("port_xmit_wait", field(buf, IB_PC_XMT_WAIT_F));
            if (!extended) {
                // 32-bit PortCounters data: a saturating counter, not the 64-bit one.
                Counter data = sysfs::portCounter("port_xmit_data", field(buf, IB_PC_XMT_BYTES_F));
                Counter rcv = sysfs::portCounter("port_rcv_data", field(buf, IB_PC_RCV_BYTES_F));
                for (Counter* c : { &data, &rcv }) {
                    c->widthBits = 32;
                    c->saturated = c->value >= 0xffffffffULL;
                }
                pc.counters["port_xmit_data"] = data;
                pc.counters["port_rcv_data"] = rcv;
                put("port_xmit_packets", field(buf, IB_PC_XMT_PKTS_F));
                put("port_rcv_packets", field(buf, IB_PC_RCV_PKTS_F));
            } else {
                buf.fill(0);
                ++sweep.mads;
                if (!pma_query_via(buf.data(), &id, p, timeout, IB_GSI_PORT_COUNTERS_EXT, port.get())) {
                    sweep.failures.push_back(t.name + " port " + std::to_string(p) + ": no answer to PortCountersExtended");
                    continue;
                }
                put("port_xmit_data", field(buf, IB_PC_EXT_XMT_BYTES_F));
                put("port_rcv_data", field(buf, IB_PC_EXT_RCV_BYTES_F));
                put("port_xmit_packets", field(buf, IB_PC_EXT_XMT_PKTS_F));
                put("port_rcv_packets", field(buf, IB_PC_EXT_RCV_PKTS_F));
            }
            snap.ports.push_back(std::move(pc));
        }
        if (!snap.ports.empty())
            sweep.snapshots.push_back(std::move(snap));
    }
    return sweep;
}

} // namespace railyard::live
