// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The small text helpers every tool-output reader of live/common uses (tool_parsers, the
// nccl-tests, perftest and NCCL log readers): one implementation of each.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <vector>

namespace railyard::live::text {

inline bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }
/// Non-empty and only the digits 0-9.
bool allDigits(std::string_view s);

std::string_view trim(std::string_view s);
inline bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
inline bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}
inline bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

/// The words of `s` between runs of whitespace.
std::vector<std::string_view> splitWs(std::string_view s);
/// The fields of `s` between each `sep` (empty fields kept).
std::vector<std::string_view> split(std::string_view s, char sep);

/// A line for a message: trimmed, cut at `max` characters ("..."), in single quotes.
std::string quoteLine(std::string_view line, std::size_t max = 100);

/// `doc` with every string made valid UTF-8 (a byte that is not, replaced by U+FFFD). The readers
/// copy a tool's text as it came, and one stray byte (a Latin-1 host name, a line cut inside a
/// character, a dying process's garbage) would make every dump() of their document throw
/// (nlohmann type_error 316): `results import --json` and the project store failed on such a log.
/// Costs one walk over the strings; only those that are not UTF-8 are copied.
nlohmann::json withValidUtf8(nlohmann::json doc);
/// Well-formed UTF-8 as nlohmann's strict dump() takes it (no overlong form, surrogate or code
/// point past U+10FFFF).
bool isValidUtf8(std::string_view s);
/// `s` made valid UTF-8 the way withValidUtf8 does it: each maximal part that is not, replaced by
/// U+FFFD. `s` itself when it is valid.
std::string validUtf8(std::string s);

/// The whole of `s` (trimmed) as a number of type T; nullopt when anything else is in it.
/// Integers in `base` (base 16 also with "0x"); floating point in fixed or exponent form, with an
/// optional leading "+" (printf's %+e).
template <class T>
std::optional<T> toNumber(std::string_view s, int base = 10)
{
    s = trim(s);
    if (base == 16 && (startsWith(s, "0x") || startsWith(s, "0X")))
        s.remove_prefix(2);
    if (std::is_floating_point_v<T> && startsWith(s, "+"))
        s.remove_prefix(1);
    if (s.empty())
        return std::nullopt;
    T v {};
    std::from_chars_result r {};
    if constexpr (std::is_floating_point_v<T>)
        r = std::from_chars(s.data(), s.data() + s.size(), v);
    else
        r = std::from_chars(s.data(), s.data() + s.size(), v, base);
    if (r.ec != std::errc {} || r.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

} // namespace railyard::live::text
