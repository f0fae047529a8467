// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// /metrics: the Prometheus text exposition format 0.0.4. Names mirror the node exporter's
// `node_infiniband_*` with a `railyard_` prefix (same units: bytes, not 4-byte words), so the two
// can run side by side on one host and be compared value for value.
#include "live/node/agent_server.h"

#include "live/common/inventory_json.h"

#include <array>
#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace railyard::live {

namespace {

    // One metric family: HELP, TYPE and its samples (already formatted lines), written together.
    struct Family {
        std::string help;
        std::string type; // "counter" or "gauge"
        std::vector<std::string> samples;
    };

    using Labels = std::vector<std::pair<std::string_view, std::string>>;

    std::string escapeLabelValue(std::string_view value)
    {
        std::string out;
        out.reserve(value.size());
        for (const char c : value) {
            if (c == '\\')
                out += "\\\\";
            else if (c == '"')
                out += "\\\"";
            else if (c == '\n')
                out += "\\n";
            else
                out += c;
        }
        return out;
    }

    std::string escapeHelp(std::string_view text)
    {
        std::string out;
        for (const char c : text) {
            if (c == '\\')
                out += "\\\\";
            else if (c == '\n')
                out += "\\n";
            else
                out += c;
        }
        return out;
    }

    std::string formatValue(std::uint64_t value)
    {
        return std::to_string(value);
    }

    std::string formatValue(double value)
    {
        // Shortest text that reads back as the same double (like Go's strconv 'g' -1).
        std::array<char, 64> buf {};
        const auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), value);
        if (ec != std::errc())
            return "NaN";
        return std::string(buf.data(), end);
    }

    class Exposition {
    public:
        template <class V>
        void add(const std::string& name, std::string_view type, std::string_view help, const Labels& labels, V value)
        {
            Family& f = m_families[name];
            if (f.type.empty()) {
                f.type = std::string(type);
                f.help = std::string(help);
            }
            std::string line = name;
            if (!labels.empty()) {
                line += '{';
                bool first = true;
                for (const auto& [key, val] : labels) {
                    if (!first)
                        line += ',';
                    first = false;
                    line += key;
                    line += "=\"";
                    line += escapeLabelValue(val);
                    line += '"';
                }
                line += '}';
            }
            line += ' ';
            line += formatValue(value);
            f.samples.push_back(std::move(line));
        }

        std::string text() const
        {
            std::string out;
            for (const auto& [name, f] : m_families) {
                out += "# HELP " + name + ' ' + escapeHelp(f.help) + '\n';
                out += "# TYPE " + name + ' ' + f.type + '\n';
                for (const std::string& s : f.samples) {
                    out += s;
                    out += '\n';
                }
            }
            return out;
        }

    private:
        std::map<std::string, Family> m_families; // sorted by name, as the node exporter writes them
    };

    struct CounterMetric {
        std::string_view file;  // ports/<n>/counters/<file>
        std::string_view name;  // railyard_infiniband_<name>
        std::string_view help;
        bool words4 = false;    // counts 4-byte words: exported as bytes
    };

    // The node exporter's names (collector/infiniband_linux.go) for the kernel's counter files.
    constexpr std::array<CounterMetric, 21> kPortCounters { {
        { "port_xmit_data", "port_data_transmitted_bytes_total", "Number of data octets transmitted on all links (port_xmit_data x 4)", true },
        { "port_rcv_data", "port_data_received_bytes_total", "Number of data octets received on all links (port_rcv_data x 4)", true },
        { "port_xmit_packets", "port_packets_transmitted_total", "Number of packets transmitted on all VLs from this port (including errors)" },
        { "port_rcv_packets", "port_packets_received_total", "Number of packets received on all VLs by this port (including errors)" },
        { "unicast_xmit_packets", "unicast_packets_transmitted_total", "Number of unicast packets transmitted (including errors)" },
        { "unicast_rcv_packets", "unicast_packets_received_total", "Number of unicast packets received (including errors)" },
        { "multicast_xmit_packets", "multicast_packets_transmitted_total", "Number of multicast packets transmitted (including errors)" },
        { "multicast_rcv_packets", "multicast_packets_received_total", "Number of multicast packets received (including errors)" },
        { "port_xmit_wait", "port_transmit_wait_total", "Number of ticks during which the port had data to transmit but no data was sent during the entire tick" },
        { "port_xmit_discards", "port_discards_transmitted_total", "Number of outbound packets discarded by the port because the port is down or congested" },
        { "port_rcv_errors", "port_errors_received_total", "Number of packets containing an error that were received on this port" },
        { "port_rcv_constraint_errors", "port_constraint_errors_received_total", "Number of packets received on the switch physical port that are discarded" },
        { "port_xmit_constraint_errors", "port_constraint_errors_transmitted_total", "Number of packets not transmitted from the switch physical port" },
        { "port_rcv_remote_physical_errors", "port_receive_remote_physical_errors_total", "Number of packets marked with the EBP (End of Bad Packet) delimiter received on the port" },
        { "port_rcv_switch_relay_errors", "port_receive_switch_relay_errors_total", "Number of packets that could not be forwarded by the switch" },
        { "symbol_error", "symbol_error_total", "Number of minor link errors detected on one or more physical lanes" },
        { "link_downed", "link_downed_total", "Number of times the link failed to recover from an error state and went down" },
        { "link_error_recovery", "link_error_recovery_total", "Number of times the link successfully recovered from an error state" },
        { "local_link_integrity_errors", "local_link_integrity_errors_total", "Number of times that the count of local physical errors exceeded the threshold specified by LocalPhyErrors" },
        { "excessive_buffer_overrun_errors", "excessive_buffer_overrun_errors_total", "Number of times that OverrunErrors consecutive flow control update periods occurred, each having at least one overrun error" },
        { "VL15_dropped", "vl15_dropped_total", "Number of incoming VL15 packets dropped due to resource limitations" },
    } };

    const CounterMetric* findCounterMetric(std::string_view file)
    {
        for (const CounterMetric& m : kPortCounters) {
            if (m.file == file)
                return &m;
        }
        return nullptr;
    }

    Labels portLabels(std::string_view node, std::string_view device, int port, int rail)
    {
        Labels l { { "node", std::string(node) }, { "device", std::string(device) }, { "port", std::to_string(port) } };
        if (rail >= 0)
            l.emplace_back("rail", std::to_string(rail));
        return l;
    }

    Labels withLabel(Labels labels, std::string_view key, std::string value)
    {
        labels.emplace_back(key, std::move(value));
        return labels;
    }

    void addInventory(Exposition& e, const Inventory& inv)
    {
        for (const RdmaDevice& d : inv.devices) {
            Labels info { { "node", inv.node }, { "device", d.name }, { "board_id", d.boardId },
                { "firmware_version", d.fwVersion }, { "hca_type", d.hcaType } };
            // Labels the node exporter does not have: only when known (an empty label is an absent one).
            for (const auto& [key, value] : { std::pair<std::string_view, const std::string&> { "node_guid", d.nodeGuid },
                     { "netdev", d.netdev }, { "pci_address", d.pciAddress } }) {
                if (!value.empty())
                    info.emplace_back(key, value);
            }
            if (d.rail >= 0)
                info.emplace_back("rail", std::to_string(d.rail));
            e.add("railyard_infiniband_info", "gauge", "Non-numeric data from /sys/class/infiniband/<device>, value is always 1", info,
                std::uint64_t { 1 });
            for (const RdmaPort& p : d.ports) {
                const Labels l = portLabels(inv.node, d.name, p.number, d.rail);
                e.add("railyard_infiniband_state_id", "gauge",
                    "State of the InfiniBand port (0: no change, 1: down, 2: init, 3: armed, 4: active, 5: act defer)", l,
                    static_cast<std::uint64_t>(p.state < 0 ? 0 : p.state));
                e.add("railyard_infiniband_physical_state_id", "gauge",
                    "Physical state of the InfiniBand port (0: no change, 1: sleep, 2: polling, 3: disable, 4: shift, 5: link up, 6: link error recover, 7: phytest)",
                    l, static_cast<std::uint64_t>(p.physState < 0 ? 0 : p.physState));
                e.add("railyard_infiniband_rate_bytes_per_second", "gauge", "Maximum signal transfer rate (the rate file, in bytes per second)",
                    l, p.rateGbps * 1e9 / 8);
                e.add("railyard_infiniband_port_info", "gauge",
                    "Non-numeric data of one port (link layer, the rate file as is), value is always 1",
                    withLabel(withLabel(l, "link_layer", std::string(toString(p.linkLayer))), "rate", p.rateText),
                    std::uint64_t { 1 });
                if (p.width > 0) {
                    e.add("railyard_infiniband_link_width_lanes", "gauge", "Lanes the link trained at (4 for 4X)", l,
                        static_cast<std::uint64_t>(p.width));
                }
            }
        }
    }

    void addPortCounters(Exposition& e, std::string_view node, const PortCounters& pc)
    {
        const Labels l = portLabels(node, pc.device, pc.port, pc.rail);
        std::uint64_t saturated = 0;
        for (const auto& [file, c] : pc.counters) {
            if (const CounterMetric* m = findCounterMetric(file)) {
                const std::string name = "railyard_infiniband_" + std::string(m->name);
                const bool words = m->words4 || c.kind == CounterKind::Words4;
                if (words && c.value > std::numeric_limits<std::uint64_t>::max() / 4)
                    e.add(name, "counter", m->help, l, static_cast<double>(c.value) * 4);
                else
                    e.add(name, "counter", m->help, l, words ? c.value * 4 : c.value);
            } else {
                e.add("railyard_infiniband_port_counters_total", "counter",
                    "A file of ports/<n>/counters that has no metric of its own, by file name", withLabel(l, "counter", file),
                    c.value);
            }
            if (c.kind == CounterKind::Saturating && c.saturated) {
                ++saturated;
                e.add("railyard_infiniband_port_counters_saturated", "gauge",
                    "Present (value 1) for each IB PMA error counter that stopped at its maximum: it never wraps, reset the "
                    "counters to see new errors",
                    withLabel(l, "counter", file), std::uint64_t { 1 });
            }
        }
        e.add("railyard_infiniband_saturated_counters", "gauge",
            "IB PMA error counters of the port that stopped at their maximum (see railyard_infiniband_port_counters_saturated)", l,
            saturated);
        for (const auto& [file, c] : pc.hwCounters) {
            if (file == "lifespan") {
                // Not a counter: how long the driver caches hw_counters values.
                e.add("railyard_rdma_hw_counters_lifespan_seconds", "gauge",
                    "How long the driver caches hw_counters values (the lifespan file)", l, static_cast<double>(c.value) / 1000);
                continue;
            }
            e.add("railyard_rdma_hw_counters_total", "counter",
                "A file of ports/<n>/hw_counters (mlx5: 32-bit Q counters wrap, congestion counters are 64-bit), by file name",
                withLabel(l, "counter", file), c.value);
        }
    }

    // "rx_prio3_pause" -> {direction "rx", priority 3, rest "pause"}; false when not per-priority.
    bool splitPrioStat(std::string_view name, std::string_view& direction, int& priority, std::string_view& rest)
    {
        if (name.size() < 10 || name[2] != '_' || name.substr(3, 4) != "prio" || (name.substr(0, 2) != "rx" && name.substr(0, 2) != "tx"))
            return false;
        const char digit = name[7];
        if (digit < '0' || digit > '7' || name[8] != '_')
            return false;
        direction = name.substr(0, 2);
        priority = digit - '0';
        rest = name.substr(9);
        return true;
    }

    void addEthtool(Exposition& e, std::string_view node, const PortCounters& pc)
    {
        const Labels base = withLabel(portLabels(node, pc.device, pc.port, pc.rail), "netdev", pc.netdev);
        for (const auto& [name, value] : pc.ethtool) {
            std::string_view direction;
            std::string_view rest;
            int priority = 0;
            if (!splitPrioStat(name, direction, priority, rest)) {
                if (name == "rx_discards_phy" || name == "tx_discards_phy" || name == "tx_pause_storm_warning_events"
                    || name == "tx_pause_storm_error_events" || name == "rx_out_of_buffer" || name == "rx_ecn_mark") {
                    e.add("railyard_ethtool_" + name + "_total", "counter",
                        "The netdev statistic " + name + " (ethtool -S)", base, value);
                }
                continue;
            }
            const Labels l = withLabel(withLabel(base, "direction", std::string(direction)), "priority", std::to_string(priority));
            if (rest == "pause") {
                e.add("railyard_pfc_pause_frames_total", "counter",
                    "PFC pause frames per priority, received (rx) or sent (tx) (ethtool -S <dir>_prio<p>_pause)", l, value);
            } else if (rest == "pause_duration") {
                e.add("railyard_pfc_pause_duration_seconds_total", "counter",
                    "Time paused by PFC per priority (ethtool -S <dir>_prio<p>_pause_duration, microseconds, here seconds)", l,
                    static_cast<double>(value) / 1e6);
            } else if (rest == "pause_transition") {
                e.add("railyard_pfc_pause_transitions_total", "counter",
                    "Transitions between paused and not paused per priority (ethtool -S <dir>_prio<p>_pause_transition)", l, value);
            } else if (rest == "discards" || rest == "buf_discard" || rest == "cong_discard") {
                e.add("railyard_prio_discards_total", "counter",
                    "Packets discarded per priority, by reason (ethtool -S <dir>_prio<p>_{discards,buf_discard,cong_discard})",
                    withLabel(l, "reason", std::string(rest)), value);
            } else if (rest == "marked") {
                e.add("railyard_prio_ecn_marked_packets_total", "counter",
                    "Packets ECN-marked by the device per priority (ethtool -S <dir>_prio<p>_marked)", l, value);
            } else if (rest == "bytes" || rest == "packets") {
                e.add("railyard_prio_" + std::string(rest) + "_total", "counter",
                    "Traffic per priority (ethtool -S <dir>_prio<p>_" + std::string(rest) + ")", l, value);
            }
        }
    }

} // namespace

std::string prometheusText(const Inventory& inventory, const CounterSnapshot& counters)
{
    Exposition e;
    addInventory(e, inventory);
    const std::string& node = counters.node.empty() ? inventory.node : counters.node;
    for (const PortCounters& pc : counters.ports) {
        addPortCounters(e, node, pc);
        addEthtool(e, node, pc);
    }
    return e.text();
}

} // namespace railyard::live
