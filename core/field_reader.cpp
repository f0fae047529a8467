// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/field_reader.h"

#include "core/json_text.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <set>
#include <vector>

namespace railyard::core::detail {

namespace {

    using nlohmann::json;

    constexpr std::size_t kMaxErrors = 200;

    std::size_t editDistance(std::string_view a, std::string_view b)
    {
        std::vector<std::size_t> row(b.size() + 1);
        for (std::size_t j = 0; j <= b.size(); ++j)
            row[j] = j;
        for (std::size_t i = 1; i <= a.size(); ++i) {
            std::size_t diag = row[0];
            row[0] = i;
            for (std::size_t j = 1; j <= b.size(); ++j) {
                const std::size_t up = row[j];
                row[j] = std::min({ row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1) });
                diag = up;
            }
        }
        return row[b.size()];
    }

    std::string unknownHint(std::string_view key, std::span<const std::string_view> known, std::string_view noun)
    {
        std::string_view best;
        std::size_t bestDistance = 3;
        for (const auto k : known) {
            const std::size_t d = editDistance(key, k);
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        if (!best.empty())
            return "did you mean \"" + std::string(best) + "\"?";
        std::string list;
        for (const auto k : known)
            list += (list.empty() ? "" : ", ") + std::string(k);
        return "known " + std::string(noun) + "s: " + list;
    }

    std::string join(const std::string& path, std::string_view key)
    {
        return path.empty() ? std::string(key) : path + "." + std::string(key);
    }

    /// Tracks the object members seen while parsing, to find duplicates.
    struct DuplicateFinder {
        struct Frame {
            std::string path;
            bool object = false;
            std::set<std::string> keys;
        };
        std::vector<Frame> frames;
        std::string lastKey;
        std::vector<DuplicateMember>& duplicates;

        std::string childPath() const
        {
            if (frames.empty())
                return {};
            return frames.back().object ? join(frames.back().path, lastKey) : frames.back().path + "[]";
        }

        bool operator()(int, json::parse_event_t event, json& parsed)
        {
            switch (event) {
            case json::parse_event_t::object_start:
            case json::parse_event_t::array_start:
                frames.push_back({ childPath(), event == json::parse_event_t::object_start, {} });
                break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                if (!frames.empty())
                    frames.pop_back();
                break;
            case json::parse_event_t::key:
                lastKey = parsed.get<std::string>();
                if (!frames.empty() && !frames.back().keys.insert(lastKey).second)
                    duplicates.push_back({ join(frames.back().path, lastKey), lastKey });
                break;
            case json::parse_event_t::value:
                break;
            }
            return true;
        }
    };

} // namespace

FieldReader::FieldReader(std::string source, std::string code, std::string unknownCode, PathPlace pathPlace)
    : m_source(std::move(source))
    , m_code(std::move(code))
    , m_unknownCode(std::move(unknownCode))
    , m_pathPlace(pathPlace)
{
}

Error FieldReader::makeError(const std::string& code, const std::string& path, const std::string& what,
    std::string hint) const
{
    if (m_pathPlace == PathPlace::Message)
        return Error { code, path + ": " + what, m_source, std::move(hint) };
    return Error { code, what, path.empty() ? m_source : m_source + ": " + path, std::move(hint) };
}

void FieldReader::fail(const std::string& path, const std::string& what, std::string hint)
{
    addError(makeError(m_code, path, what, std::move(hint)));
}

void FieldReader::addError(Error error)
{
    if (m_errors.size() >= kMaxErrors) {
        ++m_leftOut;
        return;
    }
    m_errors.push_back(std::move(error));
}

void FieldReader::mustBe(const std::string& path, std::string_view expected, const json& got)
{
    fail(path, "must be " + std::string(expected) + ", got " + describeJson(got));
}

void FieldReader::checkKeys(const json& obj, const std::string& path, std::span<const std::string_view> known,
    std::string_view noun)
{
    for (const auto& [key, value] : obj.items()) {
        if (std::find(known.begin(), known.end(), key) == known.end())
            addError(makeError(m_unknownCode, join(path, key), "unknown " + std::string(noun), unknownHint(key, known, noun)));
    }
}

bool FieldReader::object(const json& v, const std::string& path, std::span<const std::string_view> known)
{
    if (!v.is_object()) {
        fail(path, "must be an object, got " + describeJson(v));
        return false;
    }
    checkKeys(v, path, known);
    return true;
}

std::optional<long long> FieldReader::integer(const json& v, const std::string& path, long long min, long long max,
    std::string_view expected, bool expectedStatesRange)
{
    std::optional<long long> value;
    bool tooBig = false;
    if (v.is_number_unsigned()) {
        const auto u = v.get<unsigned long long>();
        tooBig = u > static_cast<unsigned long long>(max);
        value = tooBig ? max : static_cast<long long>(u);
    } else if (v.is_number_integer()) {
        value = v.get<long long>();
    } else if (v.is_number_float() && std::trunc(v.get<double>()) == v.get<double>() && std::abs(v.get<double>()) < 1e15) {
        value = static_cast<long long>(v.get<double>());
    }
    tooBig = tooBig || (value && *value > max);
    if (!value || *value < min || (tooBig && expectedStatesRange)) {
        mustBe(path, expected, v);
        return std::nullopt;
    }
    if (tooBig) {
        fail(path, "must be at most " + std::to_string(max) + ", got " + describeJson(v));
        return std::nullopt;
    }
    return value;
}

std::optional<double> FieldReader::number(const json& v, const std::string& path, double min, double max,
    std::string_view expected)
{
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < min || v.get<double>() > max) {
        mustBe(path, expected, v);
        return std::nullopt;
    }
    return v.get<double>();
}

std::optional<std::string> FieldReader::string(const json& v, const std::string& path, std::string_view expected,
    bool allowEmpty)
{
    if (!v.is_string() || (!allowEmpty && v.get_ref<const std::string&>().empty())) {
        mustBe(path, expected, v);
        return std::nullopt;
    }
    return v.get<std::string>();
}

std::optional<bool> FieldReader::boolean(const json& v, const std::string& path)
{
    if (!v.is_boolean()) {
        mustBe(path, "true or false", v);
        return std::nullopt;
    }
    return v.get<bool>();
}

std::optional<std::string> FieldReader::choice(const json& v, const std::string& path,
    std::span<const std::string_view> choices)
{
    if (v.is_string() && std::find(choices.begin(), choices.end(), v.get_ref<const std::string&>()) != choices.end())
        return v.get<std::string>();
    std::string list;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        if (i > 0)
            list += i + 1 == choices.size() ? " or " : ", ";
        list += "\"" + std::string(choices[i]) + "\"";
    }
    mustBe(path, list, v);
    return std::nullopt;
}

Errors FieldReader::errors() const
{
    Errors out = m_errors;
    if (m_leftOut > 0)
        out.push_back(Error { m_code, std::to_string(m_leftOut) + " more problems not shown", m_source, {} });
    return out;
}

json parseJsonNotingDuplicates(std::string_view text, std::vector<DuplicateMember>& duplicates)
{
    DuplicateFinder finder { {}, {}, duplicates };
    return json::parse(text.begin(), text.end(), std::ref(finder));
}

Result<json> parseJsonStrict(std::string_view text, const std::string& source, const std::string& syntaxCode,
    const std::string& fieldCode)
{
    std::vector<DuplicateMember> duplicates;
    json doc;
    try {
        doc = parseJsonNotingDuplicates(text, duplicates);
    } catch (const json::exception& e) {
        return Error { syntaxCode, jsonSyntaxMessage(e), source, "check the JSON syntax at that place" };
    }
    if (duplicates.empty())
        return doc;
    Errors errors;
    for (const auto& d : duplicates)
        errors.push_back(Error { fieldCode, d.path + ": given twice; give each field once", source, {} });
    return errors;
}

} // namespace railyard::core::detail
