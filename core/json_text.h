// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

// Small helpers shared by the catalog reader, the spec reader and the plan document reader/writer.
// Internal to railyard_core: not part of the engine's public API.
namespace railyard::core::detail {

/// Appends `text` JSON-escaped, without the surrounding quotes. Bytes >= 0x80 pass through.
void appendJsonEscaped(std::string& out, std::string_view text);
/// Appends `text` as a JSON string literal (quoted and escaped).
void appendJsonString(std::string& out, std::string_view text);
void appendJsonInt(std::string& out, long long value);
/// Shortest form that reads back to the same double; `null` when not finite.
void appendJsonNumber(std::string& out, double value);
/// Shortest form that reads back to the same float; `null` when not finite.
void appendJsonNumber(std::string& out, float value);
/// Shortest decimal form of a double that reads back exactly ("1.5", "4", "0.3333333333333333").
std::string shortestNumber(double value);

/// A JSON value as a person would write it, cut short when long: `-4`, `"2-1"`, `[1,2]`.
std::string describeJson(const nlohmann::json& value);
/// "a string", "an integer", "an object"... for messages about wrong types.
std::string jsonTypeName(const nlohmann::json& value);

/// The message of a JSON syntax error without nlohmann's prefix: "line 3, column 7: syntax error ...".
std::string jsonSyntaxMessage(const nlohmann::json::exception& error);
/// jsonSyntaxMessage without the place either: "syntax error while parsing value - ...".
std::string jsonSyntaxReason(const nlohmann::json::exception& error);

/// A place in a text: line and column, both from 1.
struct TextPosition {
    std::size_t line = 1;
    std::size_t column = 1;
};
/// The place in `text` of the character that stopped the parser. Unlike nlohmann's own
/// "line, column", a newline that stops it counts as the last character of its line.
TextPosition jsonErrorPosition(std::string_view text, const nlohmann::json::parse_error& error);

} // namespace railyard::core::detail
