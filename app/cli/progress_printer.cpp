// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/progress_printer.h"

#include <algorithm>

#include <unistd.h>

namespace railyard::app::cli {

namespace {

    constexpr auto kShowAfter = std::chrono::milliseconds(300);
    constexpr auto kRedrawEvery = std::chrono::milliseconds(100);
    constexpr int kBarWidth = 30;

} // namespace

ProgressPrinter::ProgressPrinter(std::FILE* stream)
    : m_stream(stream)
    , m_enabled(stream != nullptr && ::isatty(::fileno(stream)) == 1)
    , m_start(Clock::now())
{
}

ProgressPrinter::~ProgressPrinter()
{
    finish();
}

void ProgressPrinter::progress(double fraction, std::string_view phase)
{
    if (!m_enabled)
        return;
    const Clock::time_point now = Clock::now();
    const bool phaseChanged = phase != m_lastPhase;
    if (now - m_start < kShowAfter || (!phaseChanged && now - m_lastDraw < kRedrawEvery))
        return;
    m_lastDraw = now;
    m_lastPhase = std::string(phase);
    fraction = std::clamp(fraction, 0.0, 1.0);
    const int filled = static_cast<int>(fraction * kBarWidth);
    const std::string bar = std::string(static_cast<std::size_t>(filled), '#')
        + std::string(static_cast<std::size_t>(kBarWidth - filled), '.');
    std::fprintf(m_stream, "\r\033[K[%s] %3d%%  %.*s", bar.c_str(), static_cast<int>(fraction * 100),
        static_cast<int>(phase.size()), phase.data());
    std::fflush(m_stream);
    m_shown = true;
}

void ProgressPrinter::finish()
{
    if (m_shown) {
        std::fputs("\r\033[K", m_stream);
        std::fflush(m_stream);
        m_shown = false;
    }
}

} // namespace railyard::app::cli
