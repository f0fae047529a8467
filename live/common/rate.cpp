// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/rate.h"

#include <cctype>
#include <charconv>

namespace railyard::live {

std::optional<LinkRate> parseRateText(std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
        ++i;
    LinkRate rate;
    const char* first = text.data() + i;
    const auto [end, ec] = std::from_chars(first, text.data() + text.size(), rate.gbps);
    if (ec != std::errc {} || rate.gbps < 0)
        return std::nullopt;
    const std::string_view rest = text.substr(static_cast<std::size_t>(end - text.data()));
    // "(4X NDR)": the width before 'X', then an optional generation word.
    const auto open = rest.find('(');
    if (open == std::string_view::npos)
        return rate;
    const auto close = rest.find(')', open);
    std::string_view inner = rest.substr(open + 1, close == std::string_view::npos ? std::string_view::npos : close - open - 1);
    int width = 0;
    const auto [wend, wec] = std::from_chars(inner.data(), inner.data() + inner.size(), width);
    if (wec == std::errc {} && width > 0 && wend < inner.data() + inner.size() && (*wend == 'X' || *wend == 'x')) {
        rate.width = width;
        inner.remove_prefix(static_cast<std::size_t>(wend - inner.data()) + 1);
    }
    while (!inner.empty() && std::isspace(static_cast<unsigned char>(inner.front())))
        inner.remove_prefix(1);
    while (!inner.empty() && std::isspace(static_cast<unsigned char>(inner.back())))
        inner.remove_suffix(1);
    rate.generation = std::string(inner);
    return rate;
}

} // namespace railyard::live
