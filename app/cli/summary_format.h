// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <string>

namespace railyard::app::cli {

// Small number formats shared by the summary sections.

/// 1016 -> "1,016"
std::string count(long long value);
/// "3 spines", "1 spine"
std::string plural(long long value, const std::string& one, const std::string& many);
/// 1.0 -> "1:1", 2.0 -> "2:1", 1.333 -> "1.33:1"
std::string ratio(double value);
/// One decimal at most, with thousands separators: 26214.43 -> "26,214.4", 400 -> "400"
std::string decimal(double value);
/// Gb/s below 10 Tb/s ("400 Gb/s", "6,400 Gb/s"), Tb/s above ("203.2 Tb/s")
std::string bandwidth(double gbps);
/// Metres: "3 m", "2.5 m"
std::string metres(double value);

} // namespace railyard::app::cli
