// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Bring-up runs as the project file keeps them (core/store/project_store.h, table live_runs) and as
// a person reads them, for railyard-cli and the desktop app alike, so that a run stored by either
// reads the same in the other:
//   - the stored row of a `live check` or `live test` run: its JSON document (the one --json
//     prints), its one-line summary for lists and its exit status (interfaces.md §4);
//   - a stored document read back as a table of measured against expected (per test of a perftest
//     run, per rail and message size of an nccl-tests run, per node of a check) with its findings;
//   - two such tables compared (before and after recabling): measured A and B per row and the
//     change, and the findings and reading notes only in A and only in B.
#pragma once

#include "core/plan.h"
#include "core/store/project_store.h"
#include "live/client/collective_runner.h"
#include "live/client/live_check.h"
#include "live/client/test_runner.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace railyard::live {

/// UTC now, ISO 8601 with milliseconds ("2026-12-01T10:00:00.000Z"), as runs are stamped.
std::string utcNow();

/// The exit statuses a stored run carries (interfaces.md §4; railyard-cli's exit_codes.h).
inline constexpr int kRunOk = 0, kRunFindings = 1, kRunIncomplete = 3;

/// What `results list` shows of a run besides its kind and times.
struct RunSummary {
    int exitStatus = kRunOk;
    std::string summary;
};

/// `head` + "E errors, W warnings[, incomplete]"; the status: incomplete, else findings when an
/// error was found, else ok.
RunSummary summarizeRun(std::string head, bool complete, const std::vector<core::Finding>& findings);
/// `live check`: "N nodes; E errors, W warnings".
RunSummary checkRunSummary(const LiveCheckReport& report);
/// `live test --kind write_bw|read_bw` (`kind`): "ib_write_bw: T tests, L low; E errors, ...".
RunSummary bandwidthRunSummary(const std::string& kind, const BandwidthTestReport& report);
/// `live test --kind allreduce|...`: "all_reduce_perf: R runs; E errors, ...".
RunSummary collectiveRunSummary(const CollectiveTestReport& report);

/// The document of a bandwidth test: toJson(report), plus the routes the schedule was chosen from
/// ("paths") and each test's route when the schedule covered the inter-switch ports.
nlohmann::json bandwidthTestDocument(const BandwidthTestReport& report);

/// A run to store: started at `startedAt`, finished now.
core::store::RunRecord makeRunRecord(const std::string& plan, const std::string& kind, const std::string& startedAt, bool complete,
    const RunSummary& summary, const nlohmann::json& document);

/// True for the kinds whose document is an nccl-tests report (toJson(CollectiveTestReport)).
bool isCollectiveKind(const std::string& kind);
/// True for the kinds whose document is a perftest report (toJson(BandwidthTestReport)).
bool isBandwidthKind(const std::string& kind);
/// The nccl-tests program of a collective kind: "allreduce" -> all_reduce_perf, "allgather" (or
/// "all_gather") -> all_gather_perf, "reduce_scatter" -> reduce_scatter_perf; empty for any other.
std::string ncclTestsToolOf(const std::string& kind);

/// One row of a run read back: one perftest pair on a rail, one message size of one nccl-tests
/// launch, or one node of a check.
struct RunRow {
    std::string key;                 ///< stable across runs of the same test: what compare matches
    std::optional<int> rail;         ///< the rail, when the row is about one
    std::optional<double> measured;  ///< Gb/s (perftest), busbw GB/s (nccl-tests), errors (check)
    std::optional<double> expected;  ///< the plan's bound in the same unit
    std::optional<double> percent;   ///< measured / expected, in %
    std::string verdict;             ///< "ok", "low", "failed", "below", ...
    std::optional<std::uint64_t> bytes; ///< nccl-tests: the message size
};

struct RunTable {
    std::string kind;
    std::string unit;        ///< "Gb/s", "GB/s busbw", "errors"
    std::string measuredName, expectedName; ///< column titles
    std::vector<RunRow> rows;
    std::vector<core::Finding> findings;
    std::vector<ReadingNote> notes; ///< a check's: what the nodes' sysfs or outputs did not give
    bool complete = true;
};

/// The table of a stored document of kind `kind`; an error (RUN_DOCUMENT) when the document is not
/// of that kind's shape.
core::Result<RunTable> runTableOf(const std::string& kind, const nlohmann::json& document);

struct RunComparisonRow {
    std::string key;
    std::optional<int> rail;
    std::optional<double> a, b;
    std::optional<double> expected;      ///< B's, else A's
    std::optional<double> changePercent; ///< (b - a) / a, when both were measured
};

struct RunComparison {
    std::string unit;
    std::vector<RunComparisonRow> rows; ///< A's rows in A's order, then the rows only in B
    std::vector<core::Finding> onlyA, onlyB; ///< by code and place (messages carry figures that move)
    /// Checks' reading notes by text and node: each note with the nodes that gave it in one run
    /// and not in the other (a node that still cannot be read is in neither).
    std::vector<ReadingNote> notesOnlyA, notesOnlyB;
};

RunComparison compareRuns(const RunTable& a, const RunTable& b);

/// The table as CSV (RFC 4180): key, rail, measured, expected, percent, verdict; then one line per
/// finding (severity, code, where, message) after a blank line, and one per reading note
/// ("note", no code, its nodes separated by spaces, its text).
void writeRunCsv(const RunTable& table, std::ostream& out);

} // namespace railyard::live
