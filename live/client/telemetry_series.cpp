// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/telemetry_series.h"

namespace railyard::live {

namespace {

    using Samples = std::vector<core::store::TelemetrySample>;

    void port(Samples& out, const std::string& series, const PortRates& p, bool roce)
    {
        if (p.txGbps)
            out.push_back({ series, "tx_gbps", *p.txGbps });
        if (p.rxGbps)
            out.push_back({ series, "rx_gbps", *p.rxGbps });
        if (p.xmitWaitPerS)
            out.push_back({ series, "xmit_wait_per_s", *p.xmitWaitPerS });
        if (roce) {
            out.push_back({ series, "ecn_marked_per_s", p.ecnMarkedPerS });
            out.push_back({ series, "cnp_sent_per_s", p.cnpSentPerS });
            out.push_back({ series, "pfc_pause_per_s", p.pfcPausePerS });
            out.push_back({ series, "retransmits_per_s", p.retransmitsPerS });
        }
        out.push_back({ series, "link_errors", static_cast<double>(p.linkErrors) });
    }

    void group(Samples& out, const GroupRates& g)
    {
        out.push_back({ g.name, "tx_gbps", g.txGbps });
        out.push_back({ g.name, "rx_gbps", g.rxGbps });
        out.push_back({ g.name, "xmit_wait_per_s", g.xmitWaitPerS });
        out.push_back({ g.name, "ecn_marked_per_s", g.ecnMarkedPerS });
        out.push_back({ g.name, "pfc_pause_per_s", g.pfcPausePerS });
        out.push_back({ g.name, "health", static_cast<double>(static_cast<int>(g.health)) });
    }

} // namespace

std::vector<core::store::TelemetrySample> telemetrySamples(const Sweep& sweep)
{
    Samples out;
    out.reserve(sweep.ports.size() * 8 + (sweep.rails.size() + sweep.leaves.size()) * 6);
    for (const PortRates& p : sweep.ports) {
        // A RoCE port: one whose congestion shows as ECN/PFC, i.e. one without XmitWait.
        port(out, p.node + "/" + p.device + "/" + std::to_string(p.port), p, !p.xmitWaitPerS);
    }
    for (const GroupRates& g : sweep.rails)
        group(out, g);
    for (const GroupRates& g : sweep.leaves)
        group(out, g);
    return out;
}

std::vector<core::store::TelemetrySample> telemetrySamples(const std::vector<SwitchRates>& switches)
{
    Samples out;
    for (const SwitchRates& s : switches) {
        for (const SwitchPortRates& p : s.ports)
            port(out, s.name + "/" + std::to_string(p.rates.port), p.rates, false);
        out.push_back({ s.name, "uplink_tx_gbps", s.uplinkTxGbps });
        out.push_back({ s.name, "uplink_rx_gbps", s.uplinkRxGbps });
        out.push_back({ s.name, "busiest_uplink_percent", s.busiestUplinkPercent });
        out.push_back({ s.name, "health", static_cast<double>(static_cast<int>(s.health)) });
    }
    return out;
}

} // namespace railyard::live
