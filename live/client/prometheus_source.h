// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Per-port rates read from a Prometheus server instead of the agents (`live watch --prometheus
// URL`): the path for clusters too large to poll from a desktop. One round of instant queries
// (HTTP API /api/v1/query, sent in parallel through the agent client, each with its deadline)
// gives the same PortRates the agents' snapshots give (telemetry.h); aggregateSweep() turns them
// into the same per-rail and per-leaf Sweep, with the same verdicts.
//
// PromQL, with W the window and S the --selector matchers (e.g. job="railyard"):
//   tx, rx (Gb/s)      rate(railyard_infiniband_port_data_{transmitted,received}_bytes_total{S}[W]) x 8 / 1e9
//   XmitWait (ticks/s) rate(railyard_infiniband_port_transmit_wait_total{S}[W])
//   ECN, CNP, OOS, retransmits (per s)
//                      rate(railyard_rdma_hw_counters_total{counter=~"np_ecn_marked_roce_packets|np_cnp_sent|
//                           rp_cnp_handled|out_of_sequence|packet_seq_err|roce_adp_retrans",S}[W])
//   PFC (per s, us/s)  sum without (priority) (rate(railyard_pfc_pause_{frames,duration_seconds}_total{direction="rx",S}[W]))
//   link errors        increase(railyard_infiniband_<symbol_error|link_error_recovery|link_downed|
//                           port_errors_received|port_discards_transmitted|local_link_integrity_errors|
//                           excessive_buffer_overrun_errors>_total{S}[W]), one query each (rate() over
//                           several names would give series with the same labels, which PromQL refuses)
//   freshness          timestamp(railyard_infiniband_port_data_transmitted_bytes_total{S})
// The node exporter's node_infiniband_* (PrometheusMetrics::NodeExporter) has the data, XmitWait and
// link-error counters under the same names, but no hw_counters or PFC statistics, and no node or
// rail label: the node is the `node` label when the scrape config sets one, else the host part of
// `instance`; the rail comes from the device name through the plan's rail map.
//
// Differences from polling the agents: the rates are over W (Prometheus extrapolates rate() to the
// window's ends), not over one interval; link errors are increases over W. A port whose last sample
// is older than `staleAfter` is left out with a note (its target stopped answering, but rate() still
// finds the older samples in the window).
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "live/client/telemetry.h"

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// One series of a Prometheus answer: its labels and (time in seconds, value) samples; NaN and
/// +-Inf are kept as such.
struct PromSeries {
    std::map<std::string, std::string> labels;
    std::vector<std::pair<double, double>> samples;
};

/// A parsed /api/v1/query (or query_range) answer.
struct PromAnswer {
    std::string resultType; ///< "vector", "matrix" or "scalar" (a scalar is one series without labels)
    std::vector<PromSeries> series;
    std::vector<std::string> warnings;
};

/// Parses a Prometheus HTTP API answer. Errors: PROMETHEUS_QUERY (status "error": the server's
/// errorType and message), PROMETHEUS_MALFORMED (not the API's JSON shape, or a value that is no
/// number); `where` names the query.
core::Result<PromAnswer> parsePrometheusAnswer(std::string_view body, const std::string& where);

enum class PrometheusMetrics {
    Railyard,     ///< the agents' railyard_* series
    NodeExporter, ///< the node exporter's node_infiniband_* series
};

struct PrometheusOptions {
    std::string url;                              ///< the server's base URL, "http://prometheus:9090" (a path prefix is kept)
    std::string window = "30s";                   ///< W of rate(...[W]): at least two scrape intervals, better four
    std::string selector;                         ///< extra label matchers, `job="railyard",cluster="a"`
    PrometheusMetrics metrics = PrometheusMetrics::Railyard;
    std::chrono::milliseconds deadline { 10000 }; ///< per query
    std::chrono::milliseconds staleAfter { 0 };   ///< a port's last sample older than this is left out; 0: the window
    std::string token;                            ///< sent as a bearer token when not empty (a proxy in front of Prometheus)
};

/// One round of queries: the ports' rates and when Prometheus evaluated them.
struct PrometheusReading {
    std::vector<PortRates> ports; ///< leaf from the plan; seconds = the window
    std::int64_t timestampMs = 0; ///< evaluation time
    std::vector<std::string> notes; ///< ports left out (stale, not in the plan), server warnings
};

class PrometheusSource {
public:
    /// `railOfDevice`: device name -> rail, for NodeExporter series that have no rail label (the
    /// node type's rail map); unused for Railyard series.
    PrometheusSource(const core::Plan& plan, PrometheusOptions options, std::map<std::string, int> railOfDevice = {});

    /// Checks the URL, the window and the selector; an error names the option.
    core::Status validate() const;
    /// The PromQL queries of one round, in the order sent.
    std::vector<std::string> queries() const;
    /// Sends one round, every query evaluated at the instant the first one was (the server's
    /// now), and merges the answers per port. Errors: PROMETHEUS_URL, PROMETHEUS_UNREACHABLE,
    /// PROMETHEUS_TIMEOUT, PROMETHEUS_REFUSED (401/403), PROMETHEUS_QUERY, PROMETHEUS_MALFORMED,
    /// PROMETHEUS_NO_DATA (no data series at all: Prometheus does not scrape the agents, or not for W yet).
    core::Result<PrometheusReading> read() const;

    /// The same merge from answers already parsed, in queries() order (what read() does once the
    /// answers are in; public for tests). The evaluation time is the data answers' sample time.
    core::Result<PrometheusReading> merge(const std::vector<PromAnswer>& answers) const;

private:
    const core::Plan* m_plan;
    PrometheusOptions m_options;
    std::map<std::string, int> m_railOfDevice;
    std::map<std::string, std::string> m_leafOf;
    double m_windowSeconds = 0;
};

/// Seconds of a PromQL duration ("30s", "1m30s", "500ms"); nullopt when it is not one.
std::optional<double> promDurationSeconds(std::string_view text);

} // namespace railyard::live
