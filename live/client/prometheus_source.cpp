// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/prometheus_source.h"

#include "core/text.h"
#include "live/client/agent_client.h"
#include "live/common/json_fields.h"
#include "live/common/text_scan.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

namespace railyard::live {

namespace {

    using nlohmann::json;

    /// What a query's values become in PortRates.
    enum class Field { Tx, Rx, XmitWait, Fresh, HwCounter, PfcFrames, PfcDuration, LinkErrors };

    struct Query {
        std::string promql;
        Field field;
    };

    constexpr const char* kLinkErrorMetrics[] = { "symbol_error_total", "link_error_recovery_total", "link_downed_total",
        "port_errors_received_total", "port_discards_transmitted_total", "local_link_integrity_errors_total",
        "excessive_buffer_overrun_errors_total" };

    std::string preview(std::string_view text)
    {
        std::string out(core::utf8Prefix(text, 160));
        for (char& c : out)
            if (c == '\n' || c == '\r')
                c = ' ';
        return text.size() > 160 ? out + "..." : out;
    }

    /// RFC 3986 percent-encoding of a query parameter value.
    std::string percentEncode(std::string_view text)
    {
        static constexpr char kHex[] = "0123456789ABCDEF";
        std::string out;
        for (const char c : text) {
            const auto u = static_cast<unsigned char>(c);
            if (std::isalnum(u) || c == '-' || c == '_' || c == '.' || c == '~') {
                out += c;
            } else {
                out += '%';
                out += kHex[u >> 4];
                out += kHex[u & 15];
            }
        }
        return out;
    }

    /// A sample value: a JSON string ("1.5", "NaN", "+Inf", "-Inf"), as the API writes them.
    std::optional<double> sampleValue(const json& v)
    {
        if (!v.is_string())
            return std::nullopt;
        std::string_view s = v.get_ref<const std::string&>();
        if (s == "NaN")
            return std::nan("");
        if (s == "+Inf" || s == "Inf")
            return HUGE_VAL;
        if (s == "-Inf")
            return -HUGE_VAL;
        double out = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        if (ec != std::errc() || end != s.data() + s.size())
            return std::nullopt;
        return out;
    }

    /// [time, "value"] -> (time, value).
    std::optional<std::pair<double, double>> samplePair(const json& pair)
    {
        if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number())
            return std::nullopt;
        const std::optional<double> v = sampleValue(pair[1]);
        if (!v)
            return std::nullopt;
        return std::make_pair(pair[0].get<double>(), *v);
    }

    core::Error malformed(const std::string& where, const std::string& what)
    {
        return { "PROMETHEUS_MALFORMED", "not a Prometheus API answer: " + what, where,
            "check that --prometheus is the server's base URL (http://HOST:9090), not a page or another service" };
    }

    /// The transport error of a query as the user of Prometheus needs it (the agent client words
    /// its errors for agents).
    core::Error transportError(const AgentReply& reply, const std::string& url, const std::string& query)
    {
        const core::Error& e = *reply.error;
        const std::string code = e.code;
        if (code == agent_error::kBadUrl)
            return { "PROMETHEUS_URL", "cannot use the Prometheus URL \"" + url + "\": " + e.message, "--prometheus",
                "give the server's base URL, http://HOST:PORT (Prometheus listens on 9090 by default)" };
        if (code == agent_error::kUnreachable)
            return { "PROMETHEUS_UNREACHABLE", "Prometheus at " + url + " is not reachable: " + e.message, "--prometheus",
                "check the URL and that the server runs (curl " + url + "/-/ready)" };
        if (code == agent_error::kTimedOut)
            return { "PROMETHEUS_TIMEOUT", "Prometheus at " + url + " did not answer in time: " + e.message, query,
                "raise --timeout-ms, or shorten --window; a loaded server may need --query.timeout" };
        if (code == agent_error::kTokenRefused)
            return { "PROMETHEUS_REFUSED", "Prometheus at " + url + " refused the query (HTTP " + std::to_string(reply.status) + ")",
                "--prometheus", "a proxy in front of it wants credentials: give --token-file with its bearer token" };
        return { "PROMETHEUS_MALFORMED", "Prometheus at " + url + ": " + e.message, query,
            "check that --prometheus is the server's base URL (http://HOST:9090)" };
    }

    const char* fieldName(Field field)
    {
        switch (field) {
        case Field::Tx: return "transmit rate";
        case Field::Rx: return "receive rate";
        case Field::XmitWait: return "XmitWait rate";
        case Field::Fresh: return "last sample time";
        case Field::HwCounter: return "hw_counters rate";
        case Field::PfcFrames: return "PFC pause frame rate";
        case Field::PfcDuration: return "PFC pause time";
        case Field::LinkErrors: return "link error increase";
        }
        return "value";
    }

    std::string hostOf(const std::string& instance)
    {
        if (!instance.empty() && instance.front() == '[')
            return instance.substr(1, instance.find(']') - 1);
        return instance.substr(0, instance.rfind(':'));
    }

} // namespace

core::Result<PromAnswer> parsePrometheusAnswer(std::string_view body, const std::string& where)
{
    const json doc = json::parse(body, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return malformed(where, "not JSON (" + preview(body) + ")");
    const std::string status = stringField(doc, "status");
    if (status == "error") {
        const std::string type = stringField(doc, "errorType");
        const std::string message = stringField(doc, "error");
        std::string hint = "check the PromQL: --window must be a duration (30s, 2m), --selector label matchers (job=\"railyard\")";
        if (type == "timeout" || type == "canceled")
            hint = "the server gave up: shorten --window or narrow --selector, or raise the server's --query.timeout";
        else if (type == "unavailable")
            hint = "the server is starting or shutting down: try again";
        return core::Error { "PROMETHEUS_QUERY", "Prometheus refused the query: " + (type.empty() ? "" : type + ": ") + message, where, hint };
    }
    if (status != "success")
        return malformed(where, "no \"status\": \"success\" (" + preview(body) + ")");
    const auto data = doc.find("data");
    if (data == doc.end() || !data->is_object() || !data->contains("resultType") || !data->contains("result"))
        return malformed(where, "no data.resultType and data.result");
    PromAnswer out;
    out.resultType = stringField(*data, "resultType");
    if (const auto w = doc.find("warnings"); w != doc.end() && w->is_array())
        for (const json& text : *w)
            if (text.is_string())
                out.warnings.push_back(text.get<std::string>());
    const json& result = (*data)["result"];
    if (out.resultType == "scalar") {
        const auto s = samplePair(result);
        if (!s)
            return malformed(where, "a scalar that is not [time, \"value\"]");
        out.series.push_back({ {}, { *s } });
        return out;
    }
    if (out.resultType != "vector" && out.resultType != "matrix")
        return malformed(where, "result type \"" + out.resultType + "\", not a vector or matrix of numbers");
    if (!result.is_array())
        return malformed(where, "data.result is not a list");
    for (const json& item : result) {
        if (!item.is_object() || !item.contains("metric") || !item["metric"].is_object())
            return malformed(where, "a series without \"metric\" labels");
        PromSeries series;
        for (const auto& [key, value] : item["metric"].items())
            if (value.is_string())
                series.labels[key] = value.get<std::string>();
        if (out.resultType == "vector") {
            const auto s = item.contains("value") ? samplePair(item["value"]) : std::nullopt;
            if (!s)
                return malformed(where, "a vector sample that is not [time, \"value\"]");
            series.samples.push_back(*s);
        } else {
            if (!item.contains("values") || !item["values"].is_array())
                return malformed(where, "a matrix series without \"values\"");
            for (const json& pair : item["values"]) {
                const auto s = samplePair(pair);
                if (!s)
                    return malformed(where, "a matrix sample that is not [time, \"value\"]");
                series.samples.push_back(*s);
            }
        }
        out.series.push_back(std::move(series));
    }
    return out;
}

std::optional<double> promDurationSeconds(std::string_view duration)
{
    // PromQL durations: one or more <number><unit>, units from y to ms, each at most once, in that order.
    static constexpr std::pair<std::string_view, double> kUnits[] = { { "y", 365 * 86400.0 }, { "w", 7 * 86400.0 },
        { "d", 86400.0 }, { "h", 3600.0 }, { "ms", 0.001 }, { "m", 60.0 }, { "s", 1.0 } };
    if (duration.empty())
        return std::nullopt;
    double total = 0;
    std::size_t i = 0;
    while (i < duration.size()) {
        std::size_t j = i;
        while (j < duration.size() && text::isDigit(duration[j]))
            ++j;
        if (j == i)
            return std::nullopt;
        const double value = static_cast<double>(text::toNumber<long long>(duration.substr(i, j - i)).value_or(0));
        bool matched = false;
        for (const auto& [unit, seconds] : kUnits) {
            if (duration.substr(j, unit.size()) == unit && !(unit == "m" && duration.substr(j, 2) == "ms")) {
                total += value * seconds;
                i = j + unit.size();
                matched = true;
                break;
            }
        }
        if (!matched)
            return std::nullopt;
    }
    return total > 0 ? std::optional<double>(total) : std::nullopt;
}

PrometheusSource::PrometheusSource(const core::Plan& plan, PrometheusOptions options, std::map<std::string, int> railOfDevice)
    : m_plan(&plan)
    , m_options(std::move(options))
    , m_railOfDevice(std::move(railOfDevice))
    , m_leafOf(railLeaves(plan))
    , m_windowSeconds(promDurationSeconds(m_options.window).value_or(0))
{
}

core::Status PrometheusSource::validate() const
{
    core::Errors errors;
    if (!text::startsWith(m_options.url, "http://") || m_options.url.size() <= 7)
        errors.push_back({ "PROMETHEUS_URL", "the Prometheus URL must start with http://, got \"" + m_options.url + "\"", "--prometheus",
            "give the server's base URL, http://HOST:9090 (https needs a proxy on this host)" });
    if (m_windowSeconds <= 0)
        errors.push_back({ "CLI_USAGE", "not a PromQL duration: \"" + m_options.window + "\"", "--window",
            "give a duration such as 30s, 2m or 1m30s (at least two scrape intervals)" });
    // The selector goes inside {...}: refuse what would close it and start another expression
    // (parentheses and brackets stay allowed: regular expressions in =~ matchers have them).
    if (m_options.selector.find_first_of("{}\n") != std::string::npos)
        errors.push_back({ "CLI_USAGE", "only label matchers, got \"" + m_options.selector + "\"", "--selector",
            "give matchers as inside {...}: job=\"railyard\",cluster=~\"a|b\"" });
    if (errors.empty())
        return core::Status::success();
    return errors;
}

namespace {

    std::vector<Query> buildQueries(const PrometheusOptions& o)
    {
        const bool railyard = o.metrics == PrometheusMetrics::Railyard;
        const std::string prefix = railyard ? "railyard_infiniband_" : "node_infiniband_";
        const std::string sel = o.selector;
        auto matchers = [&](const std::string& own) {
            const std::string both = own.empty() ? sel : sel.empty() ? own : own + "," + sel;
            return both.empty() ? std::string() : "{" + both + "}";
        };
        auto rate = [&](const std::string& metric, const std::string& own = {}) {
            return "rate(" + metric + matchers(own) + "[" + o.window + "])";
        };
        std::vector<Query> q {
            { rate(prefix + "port_data_transmitted_bytes_total"), Field::Tx },
            { rate(prefix + "port_data_received_bytes_total"), Field::Rx },
            { rate(prefix + "port_transmit_wait_total"), Field::XmitWait },
            { "timestamp(" + prefix + "port_data_transmitted_bytes_total" + matchers({}) + ")", Field::Fresh },
        };
        if (railyard) {
            q.push_back({ rate("railyard_rdma_hw_counters_total",
                              "counter=~\"np_ecn_marked_roce_packets|np_cnp_sent|rp_cnp_handled|out_of_sequence|packet_seq_err|roce_adp_retrans\""),
                Field::HwCounter });
            q.push_back({ "sum without (priority) (" + rate("railyard_pfc_pause_frames_total", "direction=\"rx\"") + ")", Field::PfcFrames });
            q.push_back({ "sum without (priority) (" + rate("railyard_pfc_pause_duration_seconds_total", "direction=\"rx\"") + ")",
                Field::PfcDuration });
        }
        for (const char* m : kLinkErrorMetrics)
            q.push_back({ "increase(" + prefix + m + matchers({}) + "[" + o.window + "])", Field::LinkErrors });
        return q;
    }

    /// The instant an answer was evaluated at: its samples' latest time (an instant vector's
    /// samples all carry it); 0 for an answer with no samples.
    double evaluationTime(const PromAnswer& answer)
    {
        double at = 0;
        for (const PromSeries& s : answer.series)
            if (!s.samples.empty())
                at = std::max(at, s.samples.back().first);
        return at;
    }

} // namespace

std::vector<std::string> PrometheusSource::queries() const
{
    std::vector<std::string> out;
    for (const Query& q : buildQueries(m_options))
        out.push_back(q.promql);
    return out;
}

core::Result<PrometheusReading> PrometheusSource::read() const
{
    if (core::Status ok = validate(); !ok)
        return ok.errors();
    const std::vector<Query> queries = buildQueries(m_options);
    FetchOptions fetch;
    fetch.deadline = m_options.deadline;
    fetch.maxInFlight = 8;
    fetch.token = m_options.token;
    std::vector<PromAnswer> answers;
    // Queries [from, to), each evaluated at `time` (Prometheus' parameter; empty: the server's now).
    auto ask = [&](std::size_t from, std::size_t to, const std::string& time) -> core::Status {
        std::vector<AgentRequest> requests;
        for (std::size_t i = from; i < to; ++i)
            requests.push_back({ { "prometheus", m_options.url }, "GET",
                "/api/v1/query?query=" + percentEncode(queries[i].promql) + (time.empty() ? "" : "&time=" + time), {} });
        const std::vector<AgentReply> replies = requestAll(requests, fetch);
        for (std::size_t k = 0; k < replies.size(); ++k) {
            const AgentReply& r = replies[k];
            const std::string& promql = queries[from + k].promql;
            // The API answers its own errors (bad PromQL 400, execution 422, unavailable 503) with a JSON body.
            const bool apiError = r.error && r.error->code == agent_error::kHttpStatus && !r.body.empty();
            if (r.error && !apiError)
                return transportError(r, m_options.url, promql);
            core::Result<PromAnswer> a = parsePrometheusAnswer(r.body, promql);
            if (!a)
                return a.errors();
            if (apiError)
                return core::Error { "PROMETHEUS_MALFORMED", "Prometheus answered HTTP " + std::to_string(r.status) + " with a success document",
                    promql, "" };
            answers.push_back(std::move(*a));
        }
        return core::Status::success();
    };
    // One instant for the whole round: the first query is evaluated at the server's now and the
    // others at the time its answer names, so a scrape that lands between two queries cannot
    // give a port a transmit rate and a receive rate (or a last-sample time) of different moments.
    if (core::Status ok = ask(0, 1, ""); !ok)
        return ok.errors();
    const double at = evaluationTime(answers.front());
    if (core::Status ok = ask(1, queries.size(), at > 0 ? core::formatFixed(at, 3) : std::string()); !ok)
        return ok.errors();
    return merge(answers);
}

core::Result<PrometheusReading> PrometheusSource::merge(const std::vector<PromAnswer>& answers) const
{
    const std::vector<Query> queries = buildQueries(m_options);
    if (answers.size() != queries.size())
        return core::Error { "PROMETHEUS_MALFORMED", std::to_string(answers.size()) + " answers to " + std::to_string(queries.size()) + " queries", "", "" };
    PrometheusReading out;
    std::set<std::string> planned;
    for (const core::Device& d : m_plan->devices)
        if (d.kind == core::DeviceKind::Node)
            planned.insert(d.name);

    std::map<std::string, PortRates> ports; // "node/device/port"
    std::map<std::string, double> lastSample;
    std::set<std::string> unplanned, duplicated, unmapped;
    std::map<std::pair<std::size_t, std::string>, bool> seen; // (query, port) already taken
    const double evalTime = evaluationTime(answers.front());
    if (answers.front().series.empty() || evalTime <= 0)
        return core::Error { "PROMETHEUS_NO_DATA", "no data: the server has no " + queries.front().promql + " series", m_options.url,
            "check that it scrapes the agents (its /targets page; the file_sd file of `railyard-cli export file-sd`), "
            "that --selector matches their job, and that --window " + m_options.window + " spans at least two scrapes" };
    out.timestampMs = static_cast<std::int64_t>(std::llround(evalTime * 1000));

    for (std::size_t qi = 0; qi < queries.size(); ++qi) {
        for (const std::string& w : answers[qi].warnings)
            out.notes.push_back("Prometheus: " + w);
        for (const PromSeries& s : answers[qi].series) {
            if (s.samples.empty())
                continue;
            const double value = s.samples.back().second; // a matrix: its latest sample
            auto label = [&](const char* name) {
                const auto it = s.labels.find(name);
                return it == s.labels.end() ? std::string() : it->second;
            };
            std::string node = label("node");
            if (node.empty())
                node = hostOf(label("instance"));
            const std::string device = label("device");
            const int port = text::toNumber<int>(label("port")).value_or(1);
            if (!planned.count(node)) {
                unplanned.insert(node);
                continue;
            }
            const std::string key = node + "/" + device + "/" + std::to_string(port);
            const std::string counter = label("counter");
            if (seen[{ qi, key + "/" + counter }]) {
                duplicated.insert(key);
                continue;
            }
            seen[{ qi, key + "/" + counter }] = true;
            if (queries[qi].field == Field::Fresh) {
                lastSample[key] = value;
                continue;
            }
            PortRates& p = ports[key];
            if (p.node.empty()) {
                p.node = node;
                p.device = device;
                p.port = port;
                p.seconds = m_windowSeconds;
                if (const auto rail = text::toNumber<int>(label("rail")))
                    p.rail = *rail;
                else if (const auto it = m_railOfDevice.find(device); it != m_railOfDevice.end())
                    p.rail = it->second;
                else
                    unmapped.insert(node + " " + device);
                if (const auto leaf = m_leafOf.find(node + "/" + std::to_string(p.rail)); leaf != m_leafOf.end())
                    p.leaf = leaf->second;
                else
                    p.leaf = label("leaf");
            }
            if (!std::isfinite(value)) {
                p.notes.push_back(std::string(fieldName(queries[qi].field)) + " is "
                    + (std::isnan(value) ? "NaN" : value > 0 ? "+Inf" : "-Inf") + " in Prometheus' answer: left out");
                continue;
            }
            switch (queries[qi].field) {
            case Field::Tx: p.txGbps = value * 8 / 1e9; break;
            case Field::Rx: p.rxGbps = value * 8 / 1e9; break;
            case Field::XmitWait: p.xmitWaitPerS = value; break;
            case Field::HwCounter:
                if (counter == "np_ecn_marked_roce_packets")
                    p.ecnMarkedPerS = value;
                else if (counter == "np_cnp_sent")
                    p.cnpSentPerS = value;
                else if (counter == "rp_cnp_handled")
                    p.cnpHandledPerS = value;
                else if (counter == "roce_adp_retrans")
                    p.retransmitsPerS = value;
                else
                    p.outOfSequencePerS += value; // out_of_sequence and packet_seq_err, as from the agents
                break;
            case Field::PfcFrames: p.pfcPausePerS += value; break;
            case Field::PfcDuration: p.pfcPauseUsPerS += value * 1e6; break;
            case Field::LinkErrors: p.linkErrors += static_cast<std::uint64_t>(std::llround(std::max(0.0, value))); break;
            case Field::Fresh: break;
            }
        }
    }

    const double staleAfter = m_options.staleAfter.count() > 0 ? static_cast<double>(m_options.staleAfter.count()) / 1000 : m_windowSeconds;
    std::vector<std::string> stale;
    for (auto& [key, p] : ports) {
        const auto last = lastSample.find(key);
        if (last != lastSample.end() && evalTime - last->second > staleAfter) {
            stale.push_back(p.node + " " + p.device + " (last sample " + core::formatFixed(evalTime - last->second, 0) + " s ago)");
            continue;
        }
        out.ports.push_back(std::move(p));
    }
    auto listed = [](const auto& names) {
        std::string text;
        std::size_t n = 0;
        for (const std::string& name : names) {
            if (n++ == 5) {
                text += " and " + std::to_string(names.size() - 5) + " more";
                break;
            }
            text += (text.empty() ? "" : ", ") + name;
        }
        return text;
    };
    if (!stale.empty())
        out.notes.push_back(std::to_string(stale.size()) + " stale port(s) left out, their targets stopped answering: " + listed(stale));
    if (!unplanned.empty())
        out.notes.push_back("series of " + std::to_string(unplanned.size()) + " node(s) not in the plan left out (--selector picks this fabric's job): "
            + listed(unplanned));
    if (!duplicated.empty())
        out.notes.push_back(std::to_string(duplicated.size()) + " port(s) scraped by more than one target, the first taken: " + listed(duplicated)
            + " (narrow --selector to one job)");
    if (!unmapped.empty())
        out.notes.push_back(std::to_string(unmapped.size()) + " device(s) with no rail (no rail label, not in the node type's rail map): "
            + listed(unmapped));
    return out;
}

} // namespace railyard::live
