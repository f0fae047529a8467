// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What every fuzz target shares: the input as text, its lines as a tool's reader gets them, a
// check that stops the run with a message (libFuzzer then keeps the input as a crash), and the
// JSON dump the CLI does (strict UTF-8: an invalid byte that reaches a document throws there).
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::fuzz {

inline std::string_view asText(const std::uint8_t* data, std::size_t size)
{
    return { reinterpret_cast<const char*>(data), size };
}

/// A property that does not hold: printed, then abort() (libFuzzer reports a deadly signal and
/// writes the input to crash-<sha1>).
[[noreturn]] inline void fail(const char* target, const std::string& what)
{
    std::fprintf(stderr, "%s: check failed: %s\n", target, what.c_str());
    std::abort();
}

#define RAILYARD_FUZZ_CHECK(target, condition, what)                                                              \
    do {                                                                                                          \
        if (!(condition))                                                                                         \
            ::railyard::fuzz::fail(target, std::string(#condition) + ": " + (what));                             \
    } while (false)

/// The lines of `text` split at '\n' (the line ends dropped, a '\r' before them kept: the readers
/// take it off), as a tool's output reaches a streaming reader. A last line without its line end
/// is included.
inline std::vector<std::string_view> lines(std::string_view text)
{
    std::vector<std::string_view> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos)
            end = text.size();
        out.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

/// The document as the CLI prints it (`doc.dump(2)`, strict: invalid UTF-8 throws type_error 316,
/// which no caller of a parser expects). Returns the text.
inline std::string dumpAsCli(const nlohmann::json& doc)
{
    return doc.dump(2);
}

} // namespace railyard::fuzz
