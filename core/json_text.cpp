// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/json_text.h"

#include "core/text.h"

#include <charconv>
#include <cmath>

namespace railyard::core::detail {

namespace {

    constexpr std::size_t kDescribeMax = 60;

    bool needsEscape(unsigned char c)
    {
        return c < 0x20 || c == '"' || c == '\\';
    }

    void appendEscapedChar(std::string& out, unsigned char c)
    {
        static constexpr char kHex[] = "0123456789abcdef";
        switch (c) {
        case '"': out += "\\\""; return;
        case '\\': out += "\\\\"; return;
        case '\n': out += "\\n"; return;
        case '\r': out += "\\r"; return;
        case '\t': out += "\\t"; return;
        case '\b': out += "\\b"; return;
        case '\f': out += "\\f"; return;
        default: break;
        }
        out += "\\u00";
        out += kHex[c >> 4];
        out += kHex[c & 0xf];
    }

    template <class T>
    void appendShortest(std::string& out, T value)
    {
        if (!std::isfinite(value)) {
            out += "null";
            return;
        }
        char buf[64];
        const auto res = std::to_chars(buf, buf + sizeof buf, value);
        out.append(buf, res.ptr);
    }

} // namespace

void appendJsonEscaped(std::string& out, std::string_view text)
{
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (!needsEscape(c))
            continue;
        out.append(text.data() + start, i - start);
        appendEscapedChar(out, c);
        start = i + 1;
    }
    out.append(text.data() + start, text.size() - start);
}

void appendJsonString(std::string& out, std::string_view text)
{
    out += '"';
    appendJsonEscaped(out, text);
    out += '"';
}

void appendJsonInt(std::string& out, long long value)
{
    char buf[24];
    const auto res = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, res.ptr);
}

void appendJsonNumber(std::string& out, double value)
{
    appendShortest(out, value);
}

void appendJsonNumber(std::string& out, float value)
{
    appendShortest(out, value);
}

std::string shortestNumber(double value)
{
    std::string out;
    appendShortest(out, value);
    return out;
}

std::string describeJson(const nlohmann::json& value)
{
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > kDescribeMax)
        text = std::string(utf8Prefix(text, kDescribeMax - 3)) + "...";
    return text;
}

std::string jsonTypeName(const nlohmann::json& value)
{
    if (value.is_object())
        return "an object";
    if (value.is_array())
        return "a list";
    if (value.is_string())
        return "a string";
    if (value.is_boolean())
        return "a boolean";
    if (value.is_number_integer())
        return "an integer";
    if (value.is_number())
        return "a number";
    return "null";
}

std::string jsonSyntaxMessage(const nlohmann::json::exception& error)
{
    // nlohmann: "[json.exception.parse_error.101] parse error at line 3, column 7: syntax error ..."
    std::string text = error.what();
    if (const auto close = text.find("] "); text.starts_with("[json.exception.") && close != std::string::npos)
        text.erase(0, close + 2);
    for (std::string_view prefix : { "parse error at ", "parse error: " }) {
        if (text.starts_with(prefix)) {
            text.erase(0, prefix.size());
            break;
        }
    }
    return text;
}

std::string jsonSyntaxReason(const nlohmann::json::exception& error)
{
    std::string text = jsonSyntaxMessage(error);
    if (const auto colon = text.find(": "); text.starts_with("line ") && colon != std::string::npos)
        text.erase(0, colon + 2);
    return text;
}

TextPosition jsonErrorPosition(std::string_view text, const nlohmann::json::parse_error& error)
{
    // nlohmann's `byte` is the 1-based offset of the character that stopped the parser.
    const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    TextPosition at;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++at.line;
            at.column = 1;
        } else {
            ++at.column;
        }
    }
    return at;
}

} // namespace railyard::core::detail
