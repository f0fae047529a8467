// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/result.h"

#include <functional>
#include <ostream>
#include <string>

namespace railyard::app::cli {

/// True when `path` means standard output: empty or "-".
bool isStdout(const std::string& path);

/// Writes what `write` produces to `path` atomically (a temp file in the same folder,
/// fsync, rename over the target), or to standard output when isStdout(path).
/// On failure the target is left as it was; the error names the path.
core::Status writeOutput(const std::string& path, const std::function<void(std::ostream&)>& write);

/// For writers that need a file name (XLSX): `write` fills a temp file in the target's
/// folder, which is then synced and renamed over `path`. Standard output is refused.
core::Status writeOutputFile(const std::string& path,
    const std::function<core::Status(const std::string& tempPath)>& write);

} // namespace railyard::app::cli
