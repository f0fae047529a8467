// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/text_scan.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace railyard::live::text {

bool allDigits(std::string_view s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), isDigit);
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && isSpace(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back()))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> splitWs(std::string_view s)
{
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && isSpace(s[i]))
            ++i;
        const std::size_t b = i;
        while (i < s.size() && !isSpace(s[i]))
            ++i;
        if (i > b)
            out.push_back(s.substr(b, i - b));
    }
    return out;
}

std::vector<std::string_view> split(std::string_view s, char sep)
{
    std::vector<std::string_view> out;
    std::size_t b = 0;
    for (;;) {
        const auto e = s.find(sep, b);
        out.push_back(s.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b));
        if (e == std::string_view::npos)
            break;
        b = e + 1;
    }
    return out;
}

std::string quoteLine(std::string_view line, std::size_t max)
{
    line = trim(line);
    std::string out = "'";
    out += line.size() > max ? std::string(line.substr(0, max)) + "..." : std::string(line);
    out += "'";
    return out;
}

nlohmann::json withValidUtf8(nlohmann::json doc)
{
    // dump() is the check (it throws at the first invalid byte); only then is the document
    // rebuilt, through nlohmann's own replacement.
    try {
        (void)doc.dump();
        return doc;
    } catch (const nlohmann::json::type_error&) {
        return nlohmann::json::parse(doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
}

} // namespace railyard::live::text
