// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/examples.h"

#include <ostream>

namespace railyard::app::cli {

using core::builtinExamples;
using core::Example;
using core::findExample;
using core::kDefaultExample;

/// Prints one line per example: its name and the design it reproduces (the spec's `name`).
void printExampleList(std::ostream& out);

} // namespace railyard::app::cli
