// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/bearer_token.h"

#include <cstdio>

namespace railyard::live {

core::Result<std::string> parseBearerToken(std::string_view text, const std::string& where)
{
    std::string_view line = text.substr(0, text.find('\n'));
    constexpr std::string_view kBlanks = " \t\r\f\v";
    const std::size_t begin = line.find_first_not_of(kBlanks);
    if (begin == std::string_view::npos)
        return core::Error { "TOKEN_FILE", "the first line is empty: no token", where,
            "write the token on the first line (for example from: openssl rand -hex 32)" };
    line = line.substr(0, line.find_last_not_of(kBlanks) + 1);
    for (std::size_t i = begin; i < line.size(); ++i) {
        const auto byte = static_cast<unsigned char>(line[i]);
        if (byte >= 0x21 && byte <= 0x7e)
            continue;
        const std::string column = "column " + std::to_string(i + 1) + " of the first line";
        if (byte == ' ' || byte == '\t')
            return core::Error { "TOKEN_FILE", "the token has a blank at " + column, where,
                "a bearer token is one word: write it without blanks" };
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", byte);
        return core::Error { "TOKEN_FILE",
            std::string("the token has a byte that is no visible ASCII character (") + hex + ") at " + column, where,
            "a bearer token is letters, digits and punctuation only (for example from: openssl rand -hex 32)" };
    }
    return std::string(line.substr(begin));
}

} // namespace railyard::live
