// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/inputs.h"

#include "app/cli/examples.h"
#include "app/cli/exit_codes.h"
#include "app/cli/progress_printer.h"
#include "live/common/umad2sim.h"
#include "planner/planner.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <optional>
#include <filesystem>
#include <iostream>
#include <sstream>

namespace railyard::app::cli {

namespace {

    core::Result<std::string> readFile(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        if (!in)
            return core::Error { "FILE_UNREADABLE", std::string("cannot read the spec: ") + std::strerror(errno),
                path, "check the path" };
        std::ostringstream text;
        text << in.rdbuf();
        if (in.bad())
            return core::Error { "FILE_UNREADABLE", "read error", path, "" };
        return text.str();
    }

    core::Result<core::PlanSpec> loadSpec(const InputOptions& options, const std::string& source)
    {
        if (!options.example.empty()) {
            const std::optional<Example> example = findExample(options.example);
            if (!example)
                return core::Error { "EXAMPLE_UNKNOWN", "no built-in example called '" + options.example + "'",
                    "--example", "railyard-cli plan --list-examples lists them" };
            return core::parsePlanSpecText(example->content, source);
        }
        core::Result<std::string> text = readFile(options.specPath);
        if (!text)
            return text.errors();
        return core::parsePlanSpecText(*text, source);
    }

    // Errors about the catalog, the command line or an output name their own input.
    bool namesSpec(const core::Error& error)
    {
        for (std::string_view prefix : { "CATALOG", "CLI_", "EXAMPLE_", "FILE_", "OUTPUT_" }) {
            if (error.code.rfind(prefix, 0) == 0)
                return false;
        }
        return true;
    }

    std::string sourceName(const InputOptions& options)
    {
        if (!options.example.empty())
            return "examples/" + options.example + ".plan.json";
        return options.specPath;
    }

} // namespace

void addInputOptions(CLI::App& command, InputOptions& options)
{
    CLI::Option* spec = command.add_option("SPEC", options.specPath, "Plan spec file (*.plan.json)")->type_name("FILE");
    command.add_option("--example", options.example, "Use the built-in example NAME instead of SPEC")
        ->type_name("NAME")
        ->excludes(spec);
    command.add_option("--catalog", options.catalogFiles,
               "Add the parts of a catalog FILE to the built-in catalog (repeatable)")
        ->type_name("FILE")
        ->take_last()
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
}

core::Result<core::Catalog> loadCatalog(const InputOptions& options)
{
    core::Result<core::Catalog> catalog = core::Catalog::builtin();
    if (!catalog)
        return catalog;
    core::Errors errors;
    for (const std::string& file : options.catalogFiles) {
        const core::Status added = catalog->addFile(file);
        errors.insert(errors.end(), added.errors().begin(), added.errors().end());
    }
    if (!errors.empty())
        return errors;
    return catalog;
}

core::Result<Input> loadInput(const InputOptions& options)
{
    const std::string source = sourceName(options);
    if (options.specPath.empty() && options.example.empty())
        return core::Error { "CLI_USAGE", "no plan spec given", "SPEC", "give a SPEC file or --example NAME" };
    core::Result<core::Catalog> catalog = loadCatalog(options);
    if (!catalog)
        return catalog.errors();
    core::Result<core::PlanSpec> spec = loadSpec(options, source);
    if (!spec)
        return spec.errors();
    return Input { source, std::move(catalog).value(), std::move(spec).value() };
}

core::Result<core::Plan> planInput(const InputOptions& options, std::string& source)
{
    source = sourceName(options);
    core::Result<Input> input = loadInput(options);
    if (!input)
        return input.errors();
    ProgressPrinter progress(stderr);
    return planner::makePlan(input->spec, input->catalog, progress);
}

void printErrors(const core::Errors& errors, const std::string& source)
{
    for (const core::Error& error : errors) {
        std::string line = error.toString();
        if (!source.empty() && namesSpec(error) && line.find(source) == std::string::npos)
            line = source + ": " + line;
        std::cerr << "error: " << line << '\n';
    }
    std::cerr.flush();
}

std::optional<int> reexecForIbsim(bool ibsim, const std::string& library, const std::string& command)
{
    if (!ibsim || live::umad2simLoaded() || live::reexecutedUnderUmad2sim())
        return std::nullopt;
    const auto found = library.empty() ? live::findUmad2sim() : std::optional<std::filesystem::path>(library);
    if (!found) {
        std::cerr << command << " --ibsim: libumad2sim.so not found (Debian package libumad2sim0); give --umad2sim PATH\n";
        return kExitIncomplete;
    }
    live::reexecUnderUmad2sim(*found);
    std::cerr << command << ": cannot run again with LD_PRELOAD=" << found->string() << "\n";
    return kExitIncomplete;
}

} // namespace railyard::app::cli
