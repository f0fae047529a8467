// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/progress.h"

#include <chrono>
#include <cstdio>
#include <string>

namespace railyard::app::cli {

/// Shows engine progress on one line of a terminal. Silent unless the stream is a TTY,
/// and silent for calls that finish quickly: the line appears only once a job has run
/// for a moment, so small plans print nothing.
class ProgressPrinter final : public core::ProgressSink {
public:
    explicit ProgressPrinter(std::FILE* stream = stderr);
    ~ProgressPrinter() override;
    ProgressPrinter(const ProgressPrinter&) = delete;
    ProgressPrinter& operator=(const ProgressPrinter&) = delete;

    void progress(double fraction, std::string_view phase) override;
    /// Clears the progress line (also done by the destructor).
    void finish();

private:
    using Clock = std::chrono::steady_clock;
    std::FILE* m_stream;
    bool m_enabled;
    bool m_shown = false;
    Clock::time_point m_start;
    Clock::time_point m_lastDraw;
    std::string m_lastPhase;
};

} // namespace railyard::app::cli
