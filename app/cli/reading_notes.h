// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "live/client/live_check.h"

#include <ostream>
#include <vector>

namespace railyard::app::cli {

/// A check's reading notes (live::readingNotes), as `live check` and `results show` print them
/// after the findings: each note once with the nodes that gave it (10 named at most), 40 notes at
/// most. Nothing when there is none.
void printReadingNotes(const std::vector<live::ReadingNote>& notes, std::ostream& out);

} // namespace railyard::app::cli
