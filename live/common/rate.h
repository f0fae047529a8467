// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The link rate as the kernel and the IB tools print it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace railyard::live {

/// "400 Gb/sec (4X NDR)" (sysfs `rate`, ibstat "Rate: 400" plus width), "200 Gb/sec (2X NDR)",
/// "100 Gb/sec (4X EDR)", "25 Gb/sec (1X EDR)", "10 Gb/sec (4X SDR)", Ethernet "400 Gb/sec (4X)" or
/// "40 Gb/sec (4X QDR)" as mlx5 RoCE ports report it.
struct LinkRate {
    double gbps = 0;
    int width = 0;          ///< lanes; 0 when the text does not say
    std::string generation; ///< "SDR".."XDR"; empty when the text does not say
};

/// Reads a `rate` text; nullopt when it has no leading number.
std::optional<LinkRate> parseRateText(std::string_view text);

} // namespace railyard::live
