// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `railyard-cli results import FILE --kind nccl-tests|perftest|nccl-log [--plan SPEC] [--json] [--project P]`:
// the output of a run made outside Railyard, with the plan's expected figures when a plan is given;
// `results list --project P` and `results show ID --project P`: the runs stored in a project file
// (by --project of the live commands and of import).
#include "app/cli/commands.h"

#include "core/text.h"

#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/output_file.h"
#include "app/cli/progress_printer.h"
#include "app/cli/reading_notes.h"
#include "app/cli/run_store.h"
#include "app/cli/text_table.h"
#include "live/client/live_check.h"
#include "live/client/results_import.h"
#include "live/client/run_results.h"
#include "planner/planner.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

namespace railyard::app::cli {

namespace {

    struct ResultsImportOptions {
        InputOptions input;
        std::string file;
        std::string kind;
        bool json = false;
        std::string out;
        std::string project;
        live::VerdictThresholds thresholds;
    };

    struct ResultsListOptions {
        std::string project;
        std::string plan;
        bool json = false;
        std::int64_t id = 0; ///< show
    };

    /// One line for lists: the tool, complete or not, and the verdict.
    std::string importSummary(const nlohmann::json& doc)
    {
        std::string s = doc.value("tool", "run") + (doc.value("complete", false) ? ", complete" : ", incomplete");
        const nlohmann::json* verdict = doc.contains("expected") && doc["expected"].contains("verdict") ? &doc["expected"]["verdict"]
            : doc.contains("verdict")                                                                 ? &doc["verdict"]
                                                                                                      : nullptr;
        if (verdict && verdict->is_object()) {
            s += ", " + verdict->value("status", "");
            if (verdict->contains("percent_of_bound") && (*verdict)["percent_of_bound"].is_number())
                s += " (" + core::formatFixed((*verdict)["percent_of_bound"].get<double>(), 0) + " % of the bound)";
        }
        if (doc.contains("avg_busbw_gbs") && doc["avg_busbw_gbs"].is_number())
            s += ", avg busbw " + core::formatFixed(doc["avg_busbw_gbs"].get<double>(), 1) + " GB/s";
        return s;
    }

    void printFindings(const nlohmann::json& doc, std::ostream& out);

    core::Result<core::store::ProjectStore> openExisting(const std::string& path)
    {
        return core::store::ProjectStore::open(path);
    }

    int runResultsList(const ResultsListOptions& options)
    {
        auto store = openExisting(options.project);
        if (!store) {
            printErrors(store.errors());
            return kExitBadInput;
        }
        auto runs = options.plan.empty() ? store->listRuns() : store->listRuns(options.plan);
        if (!runs) {
            printErrors(runs.errors());
            return kExitBadInput;
        }
        if (options.json) {
            nlohmann::json doc = nlohmann::json::array();
            for (const auto& r : *runs)
                doc.push_back({ { "id", r.id }, { "plan", r.plan }, { "kind", r.kind }, { "started_at", r.startedAt },
                    { "finished_at", r.finishedAt }, { "exit_status", r.exitStatus }, { "complete", r.complete },
                    { "summary", r.summary }, { "result_bytes", r.resultBytes } });
            std::cout << doc.dump(2) << '\n';
            return kExitOk;
        }
        if (runs->empty()) {
            std::cout << "no runs stored in " << options.project << (options.plan.empty() ? "" : " for plan " + options.plan) << '\n';
            return kExitOk;
        }
        using A = TextTable::Align;
        TextTable table({ A::Right, A::Left, A::Left, A::Left, A::Left, A::Left }, "");
        table.addRow({ "id", "started (UTC)", "plan", "kind", "status", "summary" });
        for (const auto& r : *runs)
            table.addRow({ std::to_string(r.id), r.startedAt, r.plan, r.kind,
                std::to_string(r.exitStatus) + (r.complete ? "" : " (incomplete)"), r.summary });
        table.print(std::cout);
        return kExitOk;
    }

    int runResultsShow(const ResultsListOptions& options)
    {
        auto store = openExisting(options.project);
        if (!store) {
            printErrors(store.errors());
            return kExitBadInput;
        }
        auto run = store->loadRun(options.id);
        if (!run) {
            printErrors(run.errors());
            return kExitBadInput;
        }
        const auto doc = nlohmann::json::parse(run->resultJson, nullptr, false);
        if (options.json || doc.is_discarded()) {
            std::cout << (doc.is_discarded() ? run->resultJson : doc.dump(2)) << '\n';
            return kExitOk;
        }
        std::cout << "run " << run->id << ": " << run->kind << " against " << (run->plan.empty() ? "(no plan)" : run->plan)
                  << ", " << run->startedAt << " to " << (run->finishedAt.empty() ? "(did not finish)" : run->finishedAt)
                  << ", exit status " << run->exitStatus << (run->complete ? "" : ", incomplete") << '\n';
        if (!run->summary.empty())
            std::cout << run->summary << '\n';
        if (doc.contains("findings"))
            printFindings(doc, std::cout);
        if (run->kind == "check")
            if (const auto table = live::runTableOf(run->kind, doc))
                printReadingNotes(table->notes, std::cout);
        return kExitOk;
    }


    std::string cell(const nlohmann::json& v, int digits = 2)
    {
        return v.is_number() ? core::formatFixed(v.get<double>(), digits) : std::string("-");
    }

    std::string padLeft(const std::string& s, std::size_t width)
    {
        return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
    }

    void printFindings(const nlohmann::json& doc, std::ostream& out)
    {
        if (doc["findings"].empty()) {
            out << "no findings\n";
            return;
        }
        for (const auto& f : doc["findings"])
            out << "  " << f["severity"].get<std::string>() << ' ' << f["code"].get<std::string>() << ": "
                << f["message"].get<std::string>() << '\n';
    }

    /// The verdict in one line; a low or below verdict's reasons are in its finding, printed after.
    void printVerdict(const nlohmann::json& verdict, std::ostream& out)
    {
        const std::string status = verdict.value("status", "");
        out << "verdict: " << status;
        if (verdict.contains("percent_of_bound"))
            out << ", " << core::formatFixed(verdict["percent_of_bound"].get<double>(), 0) << " % of the bound at " << verdict.value("bytes", 0ull)
                << " bytes";
        if (status != "below" && status != "low")
            out << ": " << verdict.value("message", "");
        out << '\n';
    }

    void printNcclTests(const nlohmann::json& doc, std::ostream& out)
    {
        out << doc.value("tool", "nccl-tests") << ": " << doc.value("ranks", 0) << " ranks";
        if (doc.contains("expected"))
            out << " on " << doc["expected"].value("nodes", 0) << " nodes";
        out << (doc.value("complete", false) ? ", complete" : ", incomplete") << '\n';
        const bool model = doc.contains("expected");
        out << padLeft("bytes", 14) << padLeft("algbw GB/s", 12) << padLeft("busbw GB/s", 12);
        if (model)
            out << padLeft("net_bw GB/s", 13) << padLeft("% of bound", 12);
        out << padLeft("#wrong", 8) << '\n';
        for (const auto& r : doc["rows"]) {
            // The better of out-of-place and in-place, as the model judges.
            const auto& oop = r["out_of_place"];
            const bool inPlace = r.contains("in_place") && r["in_place"].is_object()
                && r["in_place"].value("algbw_gbs", 0.0) > oop.value("algbw_gbs", 0.0);
            const auto& best = inPlace ? r["in_place"] : oop;
            out << padLeft(std::to_string(r.value("bytes", 0ull)), 14) << padLeft(cell(best["algbw_gbs"]), 12)
                << padLeft(cell(best["busbw_gbs"]), 12);
            if (model)
                out << padLeft(cell(r["net_bw_gbs"]), 13) << padLeft(cell(r["percent_of_bound"], 1), 12);
            out << padLeft(best.contains("wrong") && best["wrong"].is_number() ? std::to_string(best["wrong"].get<long long>()) : "N/A", 8)
                << '\n';
        }
        if (doc.contains("avg_busbw_gbs") && doc["avg_busbw_gbs"].is_number())
            out << "avg busbw: " << core::formatFixed(doc["avg_busbw_gbs"].get<double>(), 2) << " GB/s\n";
        if (model) {
            const auto& e = doc["expected"];
            out << "network: " << e["node_capacity"].value("basis", "") << " = " << cell(e["node_capacity"]["gbs"]) << " GB/s per node\n";
            if (e["bound_algbw_gbs"].is_number())
                out << "bound: algbw " << cell(e["bound_algbw_gbs"]) << " GB/s, busbw " << cell(e["bound_busbw_gbs"])
                    << " GB/s (" << e.value("collective", "") << ", algorithm " << e.value("algorithm", "") << ", network factor "
                    << cell(e["network_factor"], 3) << ")\n";
            printVerdict(e["verdict"], out);
        }
    }

    void printPerftest(const nlohmann::json& doc, std::ostream& out)
    {
        out << doc.value("tool", "perftest");
        if (doc.contains("side"))
            out << " (" << doc["side"].get<std::string>() << ")";
        if (doc.contains("device"))
            out << " on " << doc["device"].get<std::string>();
        if (doc.contains("link_type"))
            out << ", link " << doc["link_type"].get<std::string>();
        out << (doc.value("bidirectional", false) ? ", bidirectional" : "") << (doc.value("complete", false) ? ", complete" : ", incomplete")
            << '\n';
        const bool model = doc.contains("expected");
        if (!doc["rows"].empty()) {
            out << padLeft("bytes", 10) << padLeft("iterations", 12) << padLeft("peak Gb/s", 11) << padLeft("avg Gb/s", 11)
                << padLeft("Mpps", 10);
            if (model)
                out << padLeft("% of bound", 12);
            out << '\n';
            for (const auto& r : doc["rows"]) {
                out << padLeft(std::to_string(r.value("bytes", 0ull)), 10) << padLeft(std::to_string(r.value("iterations", 0ull)), 12)
                    << padLeft(cell(r["bw_peak_gbps"]), 11) << padLeft(cell(r["bw_average_gbps"]), 11)
                    << padLeft(cell(r["msg_rate_mpps"], 3), 10);
                if (model)
                    out << padLeft(cell(r["percent_of_bound"], 1), 12);
                out << '\n';
            }
        }
        if (doc.contains("latency_rows") && !doc["latency_rows"].empty())
            out << doc["latency_rows"].size() << " latency rows (see --json)\n";
        if (model)
            printVerdict(doc["expected"]["verdict"], out);
    }

    void printNcclLog(const nlohmann::json& doc, std::ostream& out)
    {
        out << "NCCL " << doc.value("version", std::string("(version not printed)")) << '\n';
        if (doc.contains("hosts"))
            for (const auto& h : doc["hosts"]) {
                out << "  " << h.value("host", "") << ':';
                if (h.contains("nics"))
                    for (const auto& n : h["nics"]) {
                        out << ' ' << n.value("name", "?") << ':' << n.value("port", 1) << '/' << n.value("link", "?");
                        if (n.contains("gdr") && n["gdr"].is_boolean())
                            out << (n["gdr"].get<bool>() ? " (GDR)" : " (no GDR)");
                    }
                out << '\n';
            }
        if (doc.contains("channels"))
            out << "channels over the network: " << doc["channels"].dump() << '\n';
        if (doc.contains("gid_index") && !doc["gid_index"].is_null())
            out << "GID index " << doc["gid_index"].dump() << '\n';
        if (doc.contains("traffic_class") && !doc["traffic_class"].is_null())
            out << "traffic class " << doc["traffic_class"].dump() << '\n';
    }

    int runResultsImport(const ResultsImportOptions& options)
    {
        std::optional<RunStore> runStore = RunStore::open(options.project);
        if (!runStore)
            return kExitBadInput;
        std::string text;
        if (options.file == "-") {
            text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
        } else {
            std::ifstream in(options.file, std::ios::binary);
            if (!in) {
                std::cerr << options.file << ": cannot read the results file\n";
                return kExitBadInput;
            }
            std::ostringstream all;
            all << in.rdbuf();
            text = all.str();
        }

        std::optional<live::ResultsKind> kind;
        if (!options.kind.empty()) {
            kind = live::resultsKindOf(options.kind);
        } else {
            kind = live::detectResultsKind(text);
            if (!kind) {
                std::cerr << options.file << ": not the output of nccl-tests, perftest or an NCCL_DEBUG=INFO log\n";
                return kExitBadInput;
            }
        }

        live::PlanContext context;
        context.thresholds = options.thresholds;
        std::optional<core::Plan> plan;
        if (!options.input.specPath.empty() || !options.input.example.empty()) {
            core::Result<Input> input = loadInput(options.input);
            if (!input) {
                printErrors(input.errors(), options.input.example.empty() ? options.input.specPath : "examples/" + options.input.example + ".plan.json");
                return kExitBadInput;
            }
            core::Result<core::Plan> planned = [&] {
                ProgressPrinter progress(stderr);
                return planner::makePlan(input->spec, input->catalog, progress);
            }();
            if (!planned) {
                printErrors(planned.errors(), input->source);
                return kExitBadInput;
            }
            plan = std::move(planned).value();
            context.plan = &*plan;
            context.railMap = live::railMapOf(*plan, input->catalog);
        }

        core::Result<live::ImportedResults> imported = live::importResults(text, *kind, context);
        if (!imported) {
            printErrors(imported.errors(), options.file);
            return kExitBadInput;
        }
        const nlohmann::json& doc = imported->document;
        const core::Status written = writeOutput(options.out, [&](std::ostream& out) {
            if (options.json) {
                out << doc.dump(2) << '\n';
                return;
            }
            switch (imported->kind) {
            case live::ResultsKind::NcclTests: printNcclTests(doc, out); break;
            case live::ResultsKind::Perftest: printPerftest(doc, out); break;
            case live::ResultsKind::NcclLog: printNcclLog(doc, out); break;
            }
            printFindings(doc, out);
        });
        if (!written) {
            printErrors(written.errors());
            return kExitBadInput;
        }
        const int status = imported->complete ? kExitOk : kExitFindings;
        if (!runStore->save(plan ? plan->spec.name : std::string(), "import:" + std::string(live::toString(imported->kind)),
                status, imported->complete, importSummary(doc), doc))
            return kExitIncomplete;
        return status;
    }

} // namespace

Command addResultsCommand(CLI::App& root)
{
    CLI::App* results = root.add_subcommand("results", "Results of bandwidth and all-reduce runs");
    results->require_subcommand(1);
    auto options = std::make_shared<ResultsImportOptions>();
    CLI::App* cmd = results->add_subcommand("import", "Read the output of a run made outside Railyard");
    cmd->add_option("file", options->file, "The tool's output (\"-\": standard input)")->required()->type_name("FILE");
    cmd->add_option("--kind", options->kind, "What FILE holds (default: detected)")
        ->check(CLI::IsMember({ "nccl-tests", "perftest", "nccl-log" }))
        ->type_name("nccl-tests|perftest|nccl-log");
    CLI::Option* plan = cmd->add_option("--plan", options->input.specPath, "Judge the run against this plan spec")->type_name("SPEC");
    cmd->add_option("--example", options->input.example, "Judge the run against the built-in example NAME")->type_name("NAME")->excludes(plan);
    cmd->add_option("--catalog", options->input.catalogFiles, "Add the parts of a catalog FILE to the built-in catalog (repeatable)")
        ->type_name("FILE")
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    cmd->add_flag("--json", options->json, "Print the results document (interfaces.md §4) as JSON");
    cmd->add_option("--out", options->out, "Write to FILE instead of standard output")->type_name("FILE");
    cmd->add_option("--project", options->project, "Also store the run in this project file (created when missing)")->type_name("FILE");
    cmd->add_option("--meets-percent", options->thresholds.meetsPercent, "Verdict 'meets' at or above this % of the bound")
        ->check(CLI::Range(1.0, 100.0))
        ->capture_default_str();
    cmd->add_option("--below-percent", options->thresholds.belowPercent, "Verdict 'below' at or above this % (under it: 'low')")
        ->check(CLI::Range(1.0, 100.0))
        ->capture_default_str();
    cmd->footer("With a plan, each size gets the network share (net_bw: algbw x the bytes per node the collective puts on the\n"
                "NICs) and its % of what the plan's NICs can carry, and the run a verdict (meets / below / low).\n"
                "Exit status: 0 a complete run; 1 an incomplete or failed run (findings say why); 2 not a recognisable\n"
                "output, or bad input.");
    cmd->callback([options] {
        if (options->thresholds.belowPercent > options->thresholds.meetsPercent)
            throw CLI::ValidationError("--below-percent", "must not be above --meets-percent");
    });
    return { cmd, [options] { return runResultsImport(*options); } };
}

std::vector<Command> addResultsStoreCommands(CLI::App& root)
{
    CLI::App* results = root.get_subcommand("results");
    auto options = std::make_shared<ResultsListOptions>();
    CLI::App* list = results->add_subcommand("list", "The runs stored in a project file");
    list->add_option("--project", options->project, "The project file")->required()->type_name("FILE");
    list->add_option("--plan", options->plan, "Only the runs against this plan (its name)")->type_name("NAME");
    list->add_flag("--json", options->json, "Print the list as JSON");
    CLI::App* show = results->add_subcommand("show", "One stored run: what it was and its findings (--json: its whole document)");
    show->add_option("id", options->id, "The run's number (results list)")->required()->check(CLI::PositiveNumber);
    show->add_option("--project", options->project, "The project file")->required()->type_name("FILE");
    show->add_flag("--json", options->json, "Print the run's stored JSON document");
    return { { list, [options] { return runResultsList(*options); } }, { show, [options] { return runResultsShow(*options); } } };
}

} // namespace railyard::app::cli
