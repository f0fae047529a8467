// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/common/text_scan.h"

#include "core/text.h"

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
    out += line.size() > max ? std::string(core::utf8Prefix(line, max)) + "..." : std::string(line);
    out += "'";
    return out;
}

bool isValidUtf8(std::string_view s)
{
    // Unicode's well-formed byte sequences (The Unicode Standard, table 3-7): no overlong form, no
    // surrogate, nothing past U+10FFFF. nlohmann's decoder (Hoehrmann's) takes exactly these.
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        unsigned char low = 0x80;
        unsigned char high = 0xBF; // the range of the byte after the lead; the others are 80..BF
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            low = c == 0xE0 ? 0xA0 : 0x80;
            high = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            low = c == 0xF0 ? 0x90 : 0x80;
            high = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            return false;
        }
        if (n - i < length)
            return false;
        const auto second = static_cast<unsigned char>(s[i + 1]);
        if (second < low || second > high)
            return false;
        for (std::size_t k = 2; k < length; ++k) {
            const auto next = static_cast<unsigned char>(s[i + k]);
            if (next < 0x80 || next > 0xBF)
                return false;
        }
        i += length;
    }
    return true;
}

std::string validUtf8(std::string s)
{
    if (isValidUtf8(s))
        return s;
    // nlohmann's own replacement (U+FFFD for each maximal part that is not UTF-8), so that the
    // rule stays the library's.
    return nlohmann::json::parse(nlohmann::json(std::move(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
        .get<std::string>();
}

namespace {

    void makeValidUtf8(nlohmann::json& j)
    {
        if (j.is_string()) {
            auto& s = j.get_ref<std::string&>();
            s = validUtf8(std::move(s));
        } else if (j.is_array()) {
            for (auto& e : j)
                makeValidUtf8(e);
        } else if (j.is_object()) {
            bool keysValid = true;
            for (auto it = j.begin(); it != j.end() && keysValid; ++it)
                keysValid = isValidUtf8(it.key());
            if (!keysValid) {
                // Keys cannot change in place: the object is built again. Two keys that become
                // the same keep the later value, as parsing the replaced dump did.
                nlohmann::json rebuilt = nlohmann::json::object();
                for (auto it = j.begin(); it != j.end(); ++it)
                    rebuilt[validUtf8(it.key())] = std::move(it.value());
                j = std::move(rebuilt);
            }
            for (auto& value : j)
                makeValidUtf8(value);
        }
    }

} // namespace

nlohmann::json withValidUtf8(nlohmann::json doc)
{
    // One walk over the strings; only a string that is not UTF-8 is rebuilt.
    makeValidUtf8(doc);
    return doc;
}

} // namespace railyard::live::text
