// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The Live workspace's exports: the bring-up report as a PDF (the plan's summary, the fabric's
// status, the last check's findings, every test's measured against expected and its findings;
// the planner's report layout, writeHtmlPdf), and one run's results as CSV (live::writeRunCsv) or
// as its JSON document (what `railyard-cli live ... --json` prints for that run, as stored).
#pragma once

#include "app/models/live_frame.h"
#include "core/plan.h"
#include "core/store/project_store.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace railyard::app {

struct BringUpReport {
    std::shared_ptr<const core::Plan> plan;
    QString source; ///< "demo fabric", the agents.json
    std::shared_ptr<const LiveFrame> frame; ///< the fabric's status; null when not connected
    std::optional<core::store::RunRecord> check;
    std::vector<core::store::RunRecord> tests;
};

/// The report's HTML, as the PDF lays it out: the plan's summary, the fabric's status, the last
/// check (with its findings and reading notes) and the tests.
QString bringUpReportHtml(const BringUpReport& report);
/// Writes `report` to `path` (A4 PDF, replaced atomically). Safe on a worker thread. Returns an
/// empty string, or the error naming the file.
QString writeBringUpReportPdf(const BringUpReport& report, const QString& path);
/// The run's table and findings as CSV; empty string or the error.
QString writeRunCsvFile(const core::store::RunRecord& run, const QString& path);
/// The run's JSON document, indented; empty string or the error.
QString writeRunJsonFile(const core::store::RunRecord& run, const QString& path);

} // namespace railyard::app
