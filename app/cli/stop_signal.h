// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <atomic>

namespace railyard::app::cli {

/// While alive, SIGINT and SIGTERM set the flag instead of ending the program, so that a long
/// live command stops cleanly (it stops its tests, prints what it saw); the default handlers come
/// back with the destructor.
class StopOnSignal {
public:
    StopOnSignal();
    ~StopOnSignal();
    StopOnSignal(const StopOnSignal&) = delete;
    StopOnSignal& operator=(const StopOnSignal&) = delete;

    /// Set once a signal came.
    const std::atomic<bool>& flag() const;
    bool requested() const { return flag().load(); }
};

} // namespace railyard::app::cli
