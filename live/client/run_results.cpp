// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/run_results.h"

#include "core/plan_json.h"
#include "core/plan_json_parts.h"
#include "core/text.h"
#include "live/common/json_fields.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <set>
#include <string_view>
#include <utility>

namespace railyard::live {

std::string utcNow()
{
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm {};
    ::gmtime_r(&t, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
        tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    return buf;
}

namespace {

    /// Rails in a stored run: anything else in the document is not a rail.
    constexpr int kMaxRail = 1023;

    std::pair<int, int> errorsAndWarnings(const std::vector<core::Finding>& findings)
    {
        int errors = 0, warnings = 0;
        for (const core::Finding& f : findings) {
            errors += f.severity == core::Severity::Error;
            warnings += f.severity == core::Severity::Warning;
        }
        return { errors, warnings };
    }

    /// 1048576 -> "1 MiB"; sizes that are not a whole unit in bytes.
    std::string bytesLabel(std::uint64_t bytes)
    {
        static const char* const kUnits[] = { "B", "KiB", "MiB", "GiB", "TiB" };
        int unit = 0;
        while (unit < 4 && bytes >= 1024 && bytes % 1024 == 0) {
            bytes /= 1024;
            ++unit;
        }
        return std::to_string(bytes) + " " + kUnits[unit];
    }

    std::vector<core::Finding> findingsOf(const nlohmann::json& doc)
    {
        std::vector<core::Finding> out;
        const auto it = doc.find("findings");
        if (it == doc.end() || !it->is_array())
            return out;
        for (const nlohmann::json& f : *it) {
            core::Finding finding;
            finding.severity = core::detail::severityFromName(stringField(f, "severity")).value_or(core::Severity::Info);
            finding.code = stringField(f, "code");
            finding.message = stringField(f, "message");
            finding.where = stringField(f, "where");
            out.push_back(std::move(finding));
        }
        return out;
    }

    std::optional<double> percentOf(const std::optional<double>& measured, const std::optional<double>& expected)
    {
        if (!measured || !expected || *expected <= 0)
            return std::nullopt;
        return std::round(*measured / *expected * 1000) / 10;
    }

    core::Error shapeError(const std::string& kind, const std::string& what)
    {
        return core::Error { "RUN_DOCUMENT", "the stored document of this " + kind + " run has no " + what, "live_runs",
            "the run was stored by another program or version; show it with railyard-cli results show --json" };
    }

    void bandwidthRows(const nlohmann::json& tests, const std::string& prefix, std::optional<double> bound, double lowGbps,
        std::vector<RunRow>& rows)
    {
        if (!tests.is_array())
            return;
        for (const nlohmann::json& t : tests) {
            RunRow row;
            row.rail = intField(t, "rail", 0, kMaxRail);
            row.key = prefix + "rail " + (row.rail ? std::to_string(*row.rail) : std::string("?")) + ": " + stringField(t, "client") + " -> "
                + stringField(t, "server");
            row.measured = numberField(t, "gbps");
            row.expected = bound;
            row.percent = percentOf(row.measured, row.expected);
            row.verdict = !row.measured ? "failed" : *row.measured < lowGbps ? "low" : "ok";
            rows.push_back(std::move(row));
        }
    }

    void csvField(std::ostream& out, const std::string& text)
    {
        std::string field;
        core::appendCsvField(field, text);
        out << field;
    }

    std::string optionalText(const std::optional<double>& v, int digits)
    {
        return v ? core::formatFixed(*v, digits) : std::string();
    }

    /// `notes` less, per note, the nodes that gave the same text in `other`; notes left with no
    /// node are dropped.
    std::vector<ReadingNote> notesNotIn(const std::vector<ReadingNote>& notes, const std::vector<ReadingNote>& other)
    {
        std::set<std::pair<std::string_view, std::string_view>> inOther;
        for (const ReadingNote& n : other)
            for (const std::string& node : n.nodes)
                inOther.emplace(n.text, node);
        std::vector<ReadingNote> out;
        for (const ReadingNote& n : notes) {
            ReadingNote left { n.text, {} };
            for (const std::string& node : n.nodes)
                if (!inOther.count({ n.text, node }))
                    left.nodes.push_back(node);
            if (!left.nodes.empty())
                out.push_back(std::move(left));
        }
        return out;
    }

} // namespace

RunSummary summarizeRun(std::string head, bool complete, const std::vector<core::Finding>& findings)
{
    const auto [errors, warnings] = errorsAndWarnings(findings);
    head += std::to_string(errors) + " errors, " + std::to_string(warnings) + " warnings" + (complete ? "" : ", incomplete");
    return { !complete ? kRunIncomplete : errors > 0 ? kRunFindings : kRunOk, std::move(head) };
}

RunSummary checkRunSummary(const LiveCheckReport& report)
{
    const auto [errors, warnings] = errorsAndWarnings(report.findings);
    return { !report.complete ? kRunIncomplete : report.hasErrors() ? kRunFindings : kRunOk,
        std::to_string(report.nodes.size()) + " nodes; " + std::to_string(errors) + " errors, " + std::to_string(warnings) + " warnings" };
}

RunSummary bandwidthRunSummary(const std::string& kind, const BandwidthTestReport& report)
{
    std::size_t tests = 0, low = 0;
    for (const auto& round : report.rounds)
        for (const PairOutcome& o : round) {
            ++tests;
            if (o.gbps && *o.gbps < report.lowGbps)
                ++low;
        }
    return summarizeRun("ib_" + kind + ": " + std::to_string(tests) + " tests, " + std::to_string(low) + " low; ", report.complete,
        report.findings);
}

RunSummary collectiveRunSummary(const CollectiveTestReport& report)
{
    return summarizeRun(report.tool + ": " + std::to_string(report.runs.size()) + " runs; ", report.complete, report.findings);
}

nlohmann::json bandwidthTestDocument(const BandwidthTestReport& report)
{
    nlohmann::json doc = toJson(report);
    if (report.schedule.links > 0) {
        // The routes the schedule was chosen from, with each test's.
        doc["paths"] = toJson(report.schedule)["paths"];
        for (std::size_t i = 0; i < report.rounds.size(); ++i)
            for (std::size_t j = 0; j < report.rounds[i].size(); ++j)
                doc["rounds"][i]["tests"][j]["route"] = report.rounds[i][j].test.route;
    }
    return doc;
}

core::store::RunRecord makeRunRecord(const std::string& plan, const std::string& kind, const std::string& startedAt, bool complete,
    const RunSummary& summary, const nlohmann::json& document)
{
    return { 0, plan, kind, startedAt, utcNow(), summary.exitStatus, complete, summary.summary, document.dump() };
}

bool isCollectiveKind(const std::string& kind)
{
    return kind == "allreduce" || kind == "allgather" || kind == "all_gather" || kind == "reduce_scatter";
}

bool isBandwidthKind(const std::string& kind)
{
    return kind == "write_bw" || kind == "read_bw";
}

std::string ncclTestsToolOf(const std::string& kind)
{
    if (kind == "allreduce")
        return "all_reduce_perf";
    if (kind == "allgather" || kind == "all_gather")
        return "all_gather_perf";
    if (kind == "reduce_scatter")
        return "reduce_scatter_perf";
    return {};
}

core::Result<RunTable> runTableOf(const std::string& kind, const nlohmann::json& doc)
{
    if (!doc.is_object())
        return shapeError(kind, "JSON object");
    RunTable table;
    table.kind = kind;
    table.findings = findingsOf(doc);
    table.complete = boolField(doc, "complete", true);
    if (isBandwidthKind(kind)) {
        const auto rounds = doc.find("rounds");
        if (rounds == doc.end() || !rounds->is_array())
            return shapeError(kind, "rounds");
        table.unit = "Gb/s";
        table.measuredName = "measured Gb/s";
        table.expectedName = "plan's bound Gb/s";
        const double low = numberField(doc, "low_gbps").value_or(0);
        const std::optional<double> bound = numberField(doc, "bound_gbps"); // one figure for every test
        for (const nlohmann::json& round : *rounds)
            bandwidthRows(memberOf(round, "tests"), "", bound, low, table.rows);
        bandwidthRows(memberOf(doc, "retests"), "retest ", bound, low, table.rows);
        return table;
    }
    if (isCollectiveKind(kind)) {
        const auto runs = doc.find("runs");
        if (runs == doc.end() || !runs->is_array())
            return shapeError(kind, "runs");
        table.unit = "GB/s busbw";
        table.measuredName = "busbw GB/s";
        table.expectedName = "plan's bound GB/s";
        for (const nlohmann::json& run : *runs) {
            const std::optional<int> rail = intField(run, "rail", 0, kMaxRail);
            const std::string scope = rail ? "rail " + std::to_string(*rail) : std::string("all rails");
            const nlohmann::json& expected = memberOf(run, "expected");
            const std::optional<double> bound = numberField(expected, "bound_busbw_gbs");
            const std::string verdict = stringField(memberOf(expected, "verdict"), "status");
            const nlohmann::json& rows = memberOf(memberOf(run, "tests"), "rows");
            const nlohmann::json sizes = rows.is_array() ? rows : nlohmann::json::array();
            const nlohmann::json& exitStatus = memberOf(run, "exit_status");
            const bool failed = !memberOf(run, "error").is_null() || boolField(run, "cancelled", false) || boolField(run, "timed_out", false)
                || (!exitStatus.is_null() && exitStatus != 0);
            if (sizes.empty()) {
                table.rows.push_back({ scope, rail, std::nullopt, bound, std::nullopt, failed ? "failed" : verdict, std::nullopt });
                continue;
            }
            for (const nlohmann::json& size : sizes) {
                RunRow row;
                row.rail = rail;
                row.bytes = unsignedField(size, "bytes").value_or(0);
                row.key = scope + ": " + bytesLabel(*row.bytes);
                std::optional<double> best = numberField(memberOf(size, "out_of_place"), "busbw_gbs");
                if (const auto inPlace = numberField(memberOf(size, "in_place"), "busbw_gbs"); inPlace && (!best || *inPlace > *best))
                    best = inPlace;
                row.measured = best;
                row.expected = bound;
                row.percent = percentOf(row.measured, row.expected);
                row.verdict = failed ? "failed" : verdict;
                table.rows.push_back(std::move(row));
            }
        }
        return table;
    }
    if (kind == "check") {
        const auto nodes = doc.find("nodes");
        if (nodes == doc.end() || !nodes->is_array())
            return shapeError(kind, "nodes");
        table.unit = "findings";
        table.measuredName = "errors and warnings";
        table.expectedName = "expected";
        std::map<std::string, int> atNode;
        for (const core::Finding& f : table.findings)
            if (f.severity != core::Severity::Info)
                ++atNode[f.where.substr(0, f.where.find('/'))];
        std::vector<NodeStatus> seen; // what readingNotes needs of each node: its name and warnings
        for (const nlohmann::json& n : *nodes) {
            const std::string node = stringField(n, "node");
            const int found = atNode.count(node) ? atNode[node] : 0;
            table.rows.push_back({ node, std::nullopt, static_cast<double>(found), 0.0, std::nullopt,
                !boolField(n, "reachable", true) ? "unreachable" : found > 0 ? "findings" : "ok", std::nullopt });
            NodeStatus& s = seen.emplace_back();
            s.node = node;
            if (const nlohmann::json& warnings = memberOf(n, "warnings"); warnings.is_array())
                for (const nlohmann::json& w : warnings)
                    if (w.is_string())
                        s.warnings.push_back(w.get<std::string>());
        }
        table.notes = readingNotes(seen);
        return table;
    }
    return core::Error { "RUN_DOCUMENT", "runs of kind " + kind + " have no measured-against-expected table", "live_runs",
        "open it with railyard-cli results show" };
}

RunComparison compareRuns(const RunTable& a, const RunTable& b)
{
    RunComparison out;
    out.unit = a.unit.empty() ? b.unit : a.unit;
    std::map<std::string, const RunRow*> inB;
    for (const RunRow& r : b.rows)
        inB.emplace(r.key, &r);
    std::set<std::string> seen;
    for (const RunRow& r : a.rows) {
        if (!seen.insert(r.key).second)
            continue;
        RunComparisonRow row { r.key, r.rail, r.measured, std::nullopt, r.expected, std::nullopt };
        if (const auto it = inB.find(r.key); it != inB.end()) {
            row.b = it->second->measured;
            if (it->second->expected)
                row.expected = it->second->expected;
        }
        if (row.a && row.b && *row.a != 0)
            row.changePercent = std::round((*row.b - *row.a) / *row.a * 1000) / 10;
        out.rows.push_back(std::move(row));
    }
    for (const RunRow& r : b.rows)
        if (seen.insert(r.key).second)
            out.rows.push_back({ r.key, r.rail, std::nullopt, r.measured, r.expected, std::nullopt });
    auto identity = [](const core::Finding& f) { return f.code + "\x1f" + f.where; };
    std::set<std::string> idsA, idsB;
    for (const core::Finding& f : a.findings)
        idsA.insert(identity(f));
    for (const core::Finding& f : b.findings)
        idsB.insert(identity(f));
    for (const core::Finding& f : a.findings)
        if (!idsB.count(identity(f)))
            out.onlyA.push_back(f);
    for (const core::Finding& f : b.findings)
        if (!idsA.count(identity(f)))
            out.onlyB.push_back(f);
    out.notesOnlyA = notesNotIn(a.notes, b.notes);
    out.notesOnlyB = notesNotIn(b.notes, a.notes);
    return out;
}

void writeRunCsv(const RunTable& table, std::ostream& out)
{
    out << "key,rail,measured (" << table.unit << "),expected (" << table.unit << "),percent,verdict\r\n";
    for (const RunRow& r : table.rows) {
        csvField(out, r.key);
        out << ',' << (r.rail ? std::to_string(*r.rail) : std::string()) << ',' << optionalText(r.measured, 2) << ','
            << optionalText(r.expected, 2) << ',' << optionalText(r.percent, 1) << ',';
        csvField(out, r.verdict);
        out << "\r\n";
    }
    out << "\r\nseverity,code,where,message\r\n";
    for (const core::Finding& f : table.findings) {
        out << core::toString(f.severity) << ',';
        csvField(out, f.code);
        out << ',';
        csvField(out, f.where);
        out << ',';
        csvField(out, f.message);
        out << "\r\n";
    }
    for (const ReadingNote& n : table.notes) {
        std::string nodes;
        for (const std::string& node : n.nodes)
            nodes += (nodes.empty() ? "" : " ") + node;
        out << "note,,";
        csvField(out, nodes);
        out << ',';
        csvField(out, n.text);
        out << "\r\n";
    }
}

} // namespace railyard::live
