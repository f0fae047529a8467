// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/stop_signal.h"

#include <csignal>

namespace railyard::app::cli {

namespace {
    std::atomic<bool> g_stop { false };
    static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
    extern "C" void onStopSignal(int) { g_stop.store(true); }
} // namespace

StopOnSignal::StopOnSignal()
{
    g_stop.store(false);
    std::signal(SIGINT, onStopSignal);
    std::signal(SIGTERM, onStopSignal);
}

StopOnSignal::~StopOnSignal()
{
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
}

const std::atomic<bool>& StopOnSignal::flag() const
{
    return g_stop;
}

} // namespace railyard::app::cli
