// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/plan_spec.h"
#include "core/result.h"

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace railyard::app::cli {

/// What every planning command reads: a spec file or a built-in example, and extra catalog files.
struct InputOptions {
    std::string specPath;
    std::string example;
    std::vector<std::string> catalogFiles;
};

/// Adds SPEC, --example NAME and --catalog FILE (repeatable) to `command`.
void addInputOptions(CLI::App& command, InputOptions& options);

/// The spec and the catalog it is planned against.
struct Input {
    std::string source; ///< names the input in messages: the file path, or "examples/<name>.plan.json"
    core::Catalog catalog;
    core::PlanSpec spec;
};

/// The built-in catalog plus each --catalog file of `options`, in order.
core::Result<core::Catalog> loadCatalog(const InputOptions& options);

/// Reads the catalog (built-in, then each --catalog file) and the spec.
core::Result<Input> loadInput(const InputOptions& options);

/// Loads the input and plans it; progress goes to stderr when it is a terminal.
/// On failure `source` still names the input, for printErrors.
core::Result<core::Plan> planInput(const InputOptions& options, std::string& source);

/// Prints each error on its own line on stderr, naming `source` when the error does not already.
void printErrors(const core::Errors& errors, const std::string& source = {});

/// `--ibsim`: discovery and PMA queries must run with libumad2sim preloaded (live/common/umad2sim.h).
/// Returns nullopt when the command may go on (no --ibsim, or already under it); otherwise runs
/// this program again under the library (`library`, or the one Debian installs) and returns only
/// when that fails, with the exit status to end with (the reason is printed, naming `command`).
std::optional<int> reexecForIbsim(bool ibsim, const std::string& library, const std::string& command);

} // namespace railyard::app::cli
