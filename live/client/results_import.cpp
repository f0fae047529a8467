// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/client/results_import.h"

#include "core/plan_json.h"

#include "live/common/nccl_log.h"
#include "live/common/nccl_tests_output.h"
#include "live/common/perftest_output.h"
#include "live/common/text_scan.h"

#include <algorithm>

namespace railyard::live {

namespace {

    /// The document's findings: the parser's, then the model's.
    void addFindings(ImportedResults& out, std::vector<core::Finding> more)
    {
        for (core::Finding& f : more)
            out.findings.push_back(std::move(f));
        nlohmann::json list = nlohmann::json::array();
        for (const core::Finding& f : out.findings)
            list.push_back(core::toJson(f));
        out.document["findings"] = std::move(list);
    }

    /// The algorithm the log says NCCL runs all-reduce with: NCCL_ALGO when the environment set one
    /// algorithm, else CollNet (SHARP) or NVLS when connected across nodes; unknown otherwise (the
    /// model then takes the smallest network factor).
    NcclAlgorithm algorithmOf(const NcclLogReport& log)
    {
        const NcclTopologyHints& t = log.topology;
        if (!t.algorithm.empty() && t.algorithm.find(',') == std::string::npos && t.algorithm.find(';') == std::string::npos)
            return ncclAlgorithmOf(t.algorithm);
        if (t.collnet.value_or(false))
            return NcclAlgorithm::CollNet;
        if (t.nvls.value_or(false))
            return t.nNodes.value_or(1) > 1 ? NcclAlgorithm::NvlsTree : NcclAlgorithm::Nvls;
        return NcclAlgorithm::Unknown;
    }

    ImportedResults importNcclTests(const NcclTestsRun& run, std::string_view text, const PlanContext& context)
    {
        ImportedResults out { ResultsKind::NcclTests, {}, {}, false };
        out.document = toJson(run);
        out.complete = run.complete;
        out.findings = run.findings;

        std::optional<NcclLogReport> log;
        if (auto parsed = parseNcclLog(text); parsed && parsed->ncclLines > 0) {
            log = std::move(parsed).value();
            nlohmann::json nccl = toJson(*log);
            nccl.erase("findings");
            out.document["nccl"] = std::move(nccl);
        }
        std::vector<core::Finding> more;
        if (log)
            for (const core::Finding& f : log->findings)
                more.push_back(f);

        if (context.plan) {
            CollectiveRun facts;
            facts.collective = collectiveOfTool(run.tool);
            facts.algorithm = log ? algorithmOf(*log) : NcclAlgorithm::Unknown;
            facts.ranks = run.ranks;
            if (log && log->topology.nNodes)
                facts.nodes = *log->topology.nNodes;
            for (const NcclTestsRank& r : run.rankList)
                if (!r.host.empty())
                    facts.hosts.push_back(r.host);
            std::vector<MeasuredCollectiveRow> rows;
            for (const NcclTestsRow& r : run.rows) {
                const NcclTestsResult& best
                    = r.hasInPlace && r.inPlace.algbwGBs > r.outOfPlace.algbwGBs ? r.inPlace : r.outOfPlace;
                rows.push_back({ r.bytes, best.algbwGBs, best.busbwGBs });
            }
            const CollectiveModel model = modelCollective(*context.plan, facts, rows, context.thresholds);
            out.document["expected"] = toJson(model);
            // Per row beside the measured figures, as the issue asks: net_bw and % of the bound.
            auto& docRows = out.document["rows"];
            for (std::size_t i = 0; i < model.rows.size() && i < docRows.size(); ++i) {
                docRows[i]["net_bw_gbs"] = out.document["expected"]["rows"][i]["net_bw_gbs"];
                docRows[i]["percent_of_bound"] = out.document["expected"]["rows"][i]["percent_of_bound"];
            }
            for (const core::Finding& f : model.findings)
                more.push_back(f);
        }
        addFindings(out, std::move(more));
        return out;
    }

    ImportedResults importPerftest(const std::vector<PerftestRun>& runs, const PlanContext& context)
    {
        ImportedResults out { ResultsKind::Perftest, {}, {}, false };
        // The document is the run with the results: the client's when there is one with rows,
        // else the first with rows, else the first. The others go under "runs".
        std::size_t main = 0;
        bool chosen = false;
        for (std::size_t i = 0; i < runs.size() && !chosen; ++i)
            if (runs[i].side == "client" && (!runs[i].bwRows.empty() || !runs[i].latRows.empty())) {
                main = i;
                chosen = true;
            }
        for (std::size_t i = 0; i < runs.size() && !chosen; ++i)
            if (!runs[i].bwRows.empty() || !runs[i].latRows.empty()) {
                main = i;
                chosen = true;
            }
        const PerftestRun& run = runs[main];
        out.document = toJson(run);
        out.complete = run.complete && !run.failed;
        out.findings = run.findings;
        if (runs.size() > 1) {
            nlohmann::json others = nlohmann::json::array();
            for (std::size_t i = 0; i < runs.size(); ++i)
                if (i != main) {
                    others.push_back(toJson(runs[i]));
                    if (runs[i].failed)
                        out.complete = false;
                }
            out.document["runs"] = std::move(others);
        }
        std::vector<core::Finding> more;
        if (context.plan && !run.bwRows.empty()) {
            std::vector<MeasuredPerftestRow> rows;
            for (const PerftestBwRow& r : run.bwRows)
                rows.push_back({ r.bytes, r.bwAverageGbps });
            const PerftestModel model
                = modelPerftest(*context.plan, context.railMap, run.device, run.bidirectional, rows, context.thresholds);
            out.document["expected"] = toJson(model);
            auto& docRows = out.document["rows"];
            for (std::size_t i = 0; i < model.percentOfBound.size() && i < docRows.size(); ++i)
                docRows[i]["percent_of_bound"] = out.document["expected"]["percent_of_bound"][i];
            more = model.findings;
        }
        addFindings(out, std::move(more));
        return out;
    }

    ImportedResults importNcclLog(const NcclLogReport& log)
    {
        ImportedResults out { ResultsKind::NcclLog, {}, {}, false };
        out.document = toJson(log);
        out.complete = log.complete();
        out.findings = log.findings;
        addFindings(out, {});
        return out;
    }

} // namespace

std::optional<ResultsKind> resultsKindOf(std::string_view name)
{
    if (name == "nccl-tests")
        return ResultsKind::NcclTests;
    if (name == "perftest")
        return ResultsKind::Perftest;
    if (name == "nccl-log")
        return ResultsKind::NcclLog;
    return std::nullopt;
}

std::string_view toString(ResultsKind kind)
{
    switch (kind) {
    case ResultsKind::NcclTests: return "nccl-tests";
    case ResultsKind::Perftest: return "perftest";
    case ResultsKind::NcclLog: return "nccl-log";
    }
    return "nccl-tests";
}

std::optional<ResultsKind> detectResultsKind(std::string_view text)
{
    if (auto run = parseNcclTestsOutput(text); run && (!run->rows.empty() || !run->rankList.empty()))
        return ResultsKind::NcclTests;
    if (parsePerftestOutputs(text))
        return ResultsKind::Perftest;
    if (auto log = parseNcclLog(text); log && log->ncclLines > 0)
        return ResultsKind::NcclLog;
    return std::nullopt;
}

core::Result<ImportedResults> importResults(std::string_view text, ResultsKind kind, const PlanContext& context)
{
    // The document quotes the input as it came (the parsers' findings, the model's notes): made
    // valid UTF-8 as a whole, so that it always dumps (found by fuzz/fuzz_results_faults).
    const auto valid = [](ImportedResults r) {
        r.document = text::withValidUtf8(std::move(r.document));
        return r;
    };
    switch (kind) {
    case ResultsKind::NcclTests:
        if (auto run = parseNcclTestsOutput(text); run)
            return valid(importNcclTests(*run, text, context));
        else
            return run.errors();
    case ResultsKind::Perftest:
        if (auto runs = parsePerftestOutputs(text); runs)
            return valid(importPerftest(*runs, context));
        else
            return runs.errors();
    case ResultsKind::NcclLog:
        if (auto log = parseNcclLog(text); log)
            return valid(importNcclLog(*log));
        else
            return log.errors();
    }
    return core::Error { "TOOL_OUTPUT", "unknown results kind", "", "" };
}

} // namespace railyard::live
