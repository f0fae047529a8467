// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/fabric.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace railyard::core {

/// InfiniBand speed generations (IBTA), oldest first.
enum class IbGeneration { SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR, XDR };

/// Per-lane facts of one InfiniBand generation (fabric-facts.md §4.1).
struct IbGrade {
    IbGeneration generation;
    std::string_view name;     ///< "NDR"
    double laneSignalingGbps;  ///< raw lane rate, e.g. 106.25
    double laneDataGbps;       ///< nominal lane data rate after encoding, e.g. 100
    std::string_view encoding; ///< line code, e.g. "PAM4, 256b/257b + RS(544,514)"
    std::span<const int> widths; ///< widths this generation is offered at (1, 2, 4, 8)
};

const IbGrade& ibGrade(IbGeneration generation);
std::span<const IbGrade> ibGrades();
std::string_view toString(IbGeneration generation);
/// Case-insensitive; accepts "NDR", "ndr", also "NDR200"/"HDR100" are *not* generations (use width 2).
std::optional<IbGeneration> parseIbGeneration(std::string_view text);

/// One Ethernet port speed at one lane count (fabric-facts.md §4.2).
struct EthernetGrade {
    int speedGbps;            ///< 100, 200, 400, 800
    int lanes;                ///< 1, 2, 4, 8
    double laneSignalingGbps; ///< 25.78125 (25G NRZ), 53.125 (50G PAM4), 106.25 (100G PAM4)
    std::string_view modulation; ///< "NRZ" or "PAM4"
};

std::span<const EthernetGrade> ethernetGrades();
/// The grade at `speedGbps` over `lanes`, if such a PHY exists.
std::optional<EthernetGrade> ethernetGrade(int speedGbps, int lanes);

/// The rate of one logical fabric port: the thing two ends of a link must agree on.
struct PortRate {
    Fabric fabric = Fabric::InfiniBand;
    std::optional<IbGeneration> generation; ///< InfiniBand only
    int lanes = 4;                          ///< IB width or Ethernet lane count
    double dataGbps = 0;                    ///< nominal data rate (NDR 4x = 400)
    double signalingGbps = 0;               ///< raw rate before encoding (NDR 4x = 425)

    double laneDataGbps() const { return dataGbps / lanes; }
    double laneSignalingGbps() const { return signalingGbps / lanes; }
    /// Integer Gb/s for naming (FDR 4x gives 54).
    int speedGbps() const { return static_cast<int>(dataGbps); }
    /// "NDR 4x (400 Gb/s)", "400GbE 4x100G"
    std::string label() const;
    /// Two ports can link up at full rate: same fabric, generation, lanes and rate.
    bool operator==(const PortRate& other) const;
};

/// Rate of an InfiniBand port; nullopt if the width is not offered for that generation.
std::optional<PortRate> ibRate(IbGeneration generation, int width);
/// Rate of an Ethernet port; nullopt if no PHY runs `speedGbps` over `lanes`.
std::optional<PortRate> ethernetRate(int speedGbps, int lanes);
/// Lane count used when neither the spec nor the NIC says: 100G and 200G over 4 lanes,
/// 400G over 4 x 100G (ConnectX-7, BlueField-3), 800G over 8 x 100G.
int defaultEthernetLanes(int speedGbps);

} // namespace railyard::core
