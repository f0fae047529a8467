// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/node/pci_topology.h"

#include "core/text.h"

#include <algorithm>
#include <cctype>

namespace railyard::live::pci {

namespace {

bool isHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

/// "pci0000:00" (host bridge / root complex folder in /sys/devices).
bool isHostBridge(std::string_view text)
{
    return text.size() == 10 && text.substr(0, 3) == "pci" && isHex(text[3]) && isHex(text[4]) && isHex(text[5])
        && isHex(text[6]) && text[7] == ':' && isHex(text[8]) && isHex(text[9]);
}

std::uint32_t le32(std::span<const std::uint8_t> bytes, std::size_t offset)
{
    return static_cast<std::uint32_t>(bytes[offset]) | static_cast<std::uint32_t>(bytes[offset + 1]) << 8
        | static_cast<std::uint32_t>(bytes[offset + 2]) << 16 | static_cast<std::uint32_t>(bytes[offset + 3]) << 24;
}

std::uint16_t le16(std::span<const std::uint8_t> bytes, std::size_t offset)
{
    return static_cast<std::uint16_t>(bytes[offset] | bytes[offset + 1] << 8);
}

} // namespace

bool isAddress(std::string_view t)
{
    // dddd:bb:dd.f
    if (t.size() != 12)
        return false;
    for (const std::size_t i : { 0u, 1u, 2u, 3u, 5u, 6u, 8u, 9u })
        if (!isHex(t[i]))
            return false;
    return t[4] == ':' && t[7] == ':' && t[10] == '.' && t[11] >= '0' && t[11] <= '7';
}

std::string normalizeAddress(std::string_view text)
{
    std::string out = core::toLower(text);
    if (!isAddress(out) && isAddress("0000:" + out))
        out = "0000:" + out;
    return out;
}

std::optional<Placement> placementFromPath(const std::filesystem::path& path)
{
    Placement placement;
    placement.path = path;
    std::vector<std::string> functions;
    for (const auto& part : path) {
        const std::string name = part.string();
        if (isHostBridge(name)) {
            placement.hostBridge = name;
            functions.clear(); // only what is below the root complex counts
        } else if (isAddress(name)) {
            functions.push_back(name);
        }
    }
    if (functions.empty() || !isAddress(path.filename().string()))
        return std::nullopt;
    placement.address = functions.back();
    functions.pop_back();
    placement.bridges = std::move(functions);
    return placement;
}

Relation relate(const Placement& a, const Placement& b)
{
    Relation relation;
    if (a.hostBridge != b.hostBridge || a.hostBridge.empty()) {
        const bool sameNode = a.numaNode == b.numaNode;
        relation.word = sameNode ? "NODE" : "SYS";
        relation.rank = sameNode ? 3 : 4;
        relation.bridgesOnPath = a.bridges;
        relation.bridgesOnPath.insert(relation.bridgesOnPath.end(), b.bridges.begin(), b.bridges.end());
        relation.hops = static_cast<int>(relation.bridgesOnPath.size());
        return relation;
    }
    std::size_t common = 0;
    while (common < a.bridges.size() && common < b.bridges.size() && a.bridges[common] == b.bridges[common])
        ++common;
    relation.bridgesOnPath.assign(a.bridges.begin() + static_cast<std::ptrdiff_t>(common), a.bridges.end());
    relation.bridgesOnPath.insert(relation.bridgesOnPath.end(), b.bridges.begin() + static_cast<std::ptrdiff_t>(common), b.bridges.end());
    relation.hops = static_cast<int>(relation.bridgesOnPath.size());
    if (common == 0) {
        relation.word = "PHB";
        relation.rank = 2;
    } else if (relation.hops <= 2) {
        relation.word = "PIX";
        relation.rank = 0;
    } else {
        relation.word = "PXB";
        relation.rank = 1;
    }
    return relation;
}

Tri acsRedirect(std::span<const std::uint8_t> config)
{
    constexpr std::size_t kExtendedStart = 0x100;
    constexpr std::uint16_t kAcsId = 0x000D;
    constexpr std::uint16_t kRedirectBits = (1u << 2) | (1u << 3) | (1u << 5);
    if (config.size() < kExtendedStart + 4)
        return Tri::Unknown;
    std::size_t offset = kExtendedStart;
    // The list is at most (4096 - 256) / 4 entries long; the bound also stops a looping list.
    for (int guard = 0; guard < 960 && offset >= kExtendedStart && offset + 4 <= config.size(); ++guard) {
        const std::uint32_t header = le32(config, offset);
        if (header == 0 || header == 0xffffffffu)
            return Tri::Off; // no extended capabilities
        const auto id = static_cast<std::uint16_t>(header & 0xffffu);
        if (id == kAcsId) {
            if (offset + 8 > config.size())
                return Tri::Unknown;
            const std::uint16_t control = le16(config, offset + 6);
            return (control & kRedirectBits) != 0 ? Tri::On : Tri::Off;
        }
        const std::size_t next = (header >> 20) & 0xffcu;
        if (next == 0)
            return Tri::Off;
        offset = next;
    }
    // The list points past what was read: the rest is not known.
    return offset + 4 > config.size() ? Tri::Unknown : Tri::Off;
}

Tri combineAcs(std::span<const Tri> states)
{
    bool unknown = false;
    for (const Tri state : states) {
        if (state == Tri::On)
            return Tri::On;
        if (state == Tri::Unknown)
            unknown = true;
    }
    return unknown ? Tri::Unknown : Tri::Off;
}

} // namespace railyard::live::pci
