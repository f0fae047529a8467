// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

namespace railyard::app::cli {

/// Exit statuses of railyard-cli (interfaces.md §2).
constexpr int kExitOk = 0;       ///< done; the plan has no error findings
constexpr int kExitFindings = 1; ///< the plan has error findings
constexpr int kExitBadInput = 2; ///< unreadable file, bad spec, bad option, unknown example, bad catalog
constexpr int kExitIncomplete = 3; ///< live commands: could not finish (unreachable agents, tool failure)

} // namespace railyard::app::cli
