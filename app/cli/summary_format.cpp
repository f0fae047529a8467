// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/summary_format.h"

#include "core/text.h"

#include <cmath>
#include <cstdlib>

namespace railyard::app::cli {

namespace {

    constexpr double kTbps = 1000.0;

    double roundTo(double value, double step)
    {
        return std::round(value / step) * step;
    }

} // namespace

std::string count(long long value)
{
    return core::formatCount(value);
}

std::string plural(long long value, const std::string& one, const std::string& many)
{
    return count(value) + " " + (value == 1 ? one : many);
}

std::string ratio(double value)
{
    return core::formatNumber(roundTo(value, 0.01)) + ":1";
}

std::string decimal(double value)
{
    const double rounded = roundTo(value, 0.1);
    const long long whole = static_cast<long long>(rounded);
    const long long tenth = std::llround((rounded - static_cast<double>(whole)) * 10);
    return count(whole) + (tenth != 0 ? "." + std::to_string(std::abs(tenth)) : "");
}

std::string bandwidth(double gbps)
{
    if (gbps >= 10 * kTbps)
        return decimal(gbps / kTbps) + " Tb/s";
    return decimal(gbps) + " Gb/s";
}

std::string metres(double value)
{
    return decimal(value) + " m";
}

} // namespace railyard::app::cli
