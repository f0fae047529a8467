// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `results import`: the output of a run made outside Railyard (nccl-tests, perftest, an
// NCCL_DEBUG=INFO log) as the results document of interfaces.md §4, with the plan's expected
// figures and verdicts when a plan is given (bandwidth_model.h).
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"
#include "live/client/bandwidth_model.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

enum class ResultsKind { NcclTests, Perftest, NcclLog };
/// "nccl-tests", "perftest", "nccl-log"; nullopt otherwise.
std::optional<ResultsKind> resultsKindOf(std::string_view name);
std::string_view toString(ResultsKind kind);
/// Which of the kinds `text` is: nccl-tests when it has a results table, else perftest when it
/// has perftest's banner or table, else nccl-log when it has NCCL lines; nullopt when none.
std::optional<ResultsKind> detectResultsKind(std::string_view text);

/// The plan a run is judged against.
struct PlanContext {
    const core::Plan* plan = nullptr;
    std::vector<std::string> railMap; ///< the node type's (railMapOf)
    VerdictThresholds thresholds;
};

struct ImportedResults {
    ResultsKind kind = ResultsKind::NcclTests;
    nlohmann::json document;             ///< interfaces.md §4 shape, plus "expected" with a plan
    std::vector<core::Finding> findings; ///< the parser's and the model's, as in document["findings"]
    bool complete = false;               ///< a complete run (exit 0), else incomplete or failed (exit 1)
};

/// Parses `text` as `kind`. For nccl-tests output that carries NCCL's own log lines (NCCL_DEBUG=INFO
/// on the same run) the log is read too: its algorithm hints feed the model, and the document gets
/// it under "nccl". Errors (code "TOOL_OUTPUT") when the text is not output of that kind.
core::Result<ImportedResults> importResults(std::string_view text, ResultsKind kind, const PlanContext& context = {});

} // namespace railyard::live
