// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/speed.h"

#include "core/text.h"

#include <array>
#include <cmath>

namespace railyard::core {

namespace {

    constexpr std::array kWidths124 { 1, 2, 4 };
    constexpr std::array kWidths14 { 1, 4 };
    constexpr std::array kWidths1248 { 1, 2, 4, 8 };

    // fabric-facts.md §4.1. FDR's lane data is 14.0625 x 64/66 = 13.636..., marketed 56 at 4x.
    // HDR and newer: 256b/257b transcoding plus RS(544,514) FEC, so data = signaling x 256/257 x 514/544.
    const std::array<IbGrade, 9> kIbGrades { {
        { IbGeneration::SDR, "SDR", 2.5, 2.0, "NRZ, 8b/10b", kWidths14 },
        { IbGeneration::DDR, "DDR", 5.0, 4.0, "NRZ, 8b/10b", kWidths14 },
        { IbGeneration::QDR, "QDR", 10.0, 8.0, "NRZ, 8b/10b", kWidths14 },
        { IbGeneration::FDR10, "FDR10", 10.3125, 10.0, "NRZ, 64b/66b", kWidths14 },
        { IbGeneration::FDR, "FDR", 14.0625, 14.0625 * 64.0 / 66.0, "NRZ, 64b/66b", kWidths14 },
        { IbGeneration::EDR, "EDR", 25.78125, 25.0, "NRZ, 64b/66b", kWidths14 },
        { IbGeneration::HDR, "HDR", 53.125, 50.0, "PAM4, 256b/257b + RS(544,514)", kWidths124 },
        { IbGeneration::NDR, "NDR", 106.25, 100.0, "PAM4, 256b/257b + RS(544,514)", kWidths1248 },
        { IbGeneration::XDR, "XDR", 212.5, 200.0, "PAM4, 256b/257b + RS(544,514)", kWidths124 },
    } };

    // fabric-facts.md §4.2. 25G NRZ lanes run at 25.78125 Gb/s (64b/66b).
    const std::array<EthernetGrade, 10> kEthernetGrades { {
        { 100, 4, 25.78125, "NRZ" },
        { 100, 2, 53.125, "PAM4" },
        { 100, 1, 106.25, "PAM4" },
        { 200, 4, 53.125, "PAM4" },
        { 200, 2, 106.25, "PAM4" },
        { 400, 8, 53.125, "PAM4" },
        { 400, 4, 106.25, "PAM4" },
        { 800, 8, 106.25, "PAM4" },
        { 800, 4, 212.5, "PAM4" },
        { 1600, 8, 212.5, "PAM4" },
    } };

} // namespace

const IbGrade& ibGrade(IbGeneration generation)
{
    return kIbGrades[static_cast<std::size_t>(generation)];
}

std::span<const IbGrade> ibGrades()
{
    return kIbGrades;
}

std::string_view toString(IbGeneration generation)
{
    return ibGrade(generation).name;
}

std::optional<IbGeneration> parseIbGeneration(std::string_view text)
{
    const std::string t = toLower(text);
    for (const auto& g : kIbGrades) {
        if (toLower(g.name) == t)
            return g.generation;
    }
    return std::nullopt;
}

std::span<const EthernetGrade> ethernetGrades()
{
    return kEthernetGrades;
}

std::optional<EthernetGrade> ethernetGrade(int speedGbps, int lanes)
{
    for (const auto& g : kEthernetGrades) {
        if (g.speedGbps == speedGbps && g.lanes == lanes)
            return g;
    }
    return std::nullopt;
}

std::optional<PortRate> ibRate(IbGeneration generation, int width)
{
    const IbGrade& g = ibGrade(generation);
    bool offered = false;
    for (int w : g.widths)
        offered = offered || w == width;
    if (!offered)
        return std::nullopt;
    PortRate r;
    r.fabric = Fabric::InfiniBand;
    r.generation = generation;
    r.lanes = width;
    r.dataGbps = g.laneDataGbps * width;
    r.signalingGbps = g.laneSignalingGbps * width;
    return r;
}

std::optional<PortRate> ethernetRate(int speedGbps, int lanes)
{
    const auto g = ethernetGrade(speedGbps, lanes);
    if (!g)
        return std::nullopt;
    PortRate r;
    r.fabric = Fabric::RoCEv2;
    r.lanes = lanes;
    r.dataGbps = speedGbps;
    r.signalingGbps = g->laneSignalingGbps * lanes;
    return r;
}

int defaultEthernetLanes(int speedGbps)
{
    return speedGbps >= 800 ? 8 : 4;
}

std::string PortRate::label() const
{
    if (fabric == Fabric::InfiniBand && generation) {
        return std::string(toString(*generation)) + " " + std::to_string(lanes) + "x (" + formatNumber(std::round(dataGbps * 100) / 100)
            + " Gb/s)";
    }
    return std::to_string(speedGbps()) + "GbE " + std::to_string(lanes) + "x" + formatNumber(laneDataGbps()) + "G";
}

bool PortRate::operator==(const PortRate& other) const
{
    return fabric == other.fabric && generation == other.generation && lanes == other.lanes
        && std::abs(dataGbps - other.dataGbps) < 1e-9;
}

} // namespace railyard::core
