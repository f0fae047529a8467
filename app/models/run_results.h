// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// live/client/run_results.h for Qt code: the engine is Qt-free and free to name a member
// `signals` (telemetry.h, through run_results.h), which Qt's keywords turn into a macro, so they
// are lifted around its header here, once.
#pragma once

#pragma push_macro("slots")
#pragma push_macro("signals")
#undef slots
#undef signals
#include "live/client/run_results.h"
#pragma pop_macro("signals")
#pragma pop_macro("slots")
