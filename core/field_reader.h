// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// Internal to railyard_core: typed access to JSON members that collects every problem as an
// Error naming the member's path ("link.width: ..."). Used by the catalog reader, the plan
// spec reader and the plan document reader.
namespace railyard::core::detail {

/// Where an error names the member it is about.
enum class PathPlace {
    /// At the start of the message: "link.width: must be ...", Error::where the source.
    Message,
    /// At the end of Error::where: "<source>: modes[0].ports", the message "must be ..."
    /// (the source alone when the path is empty).
    Where,
};

class FieldReader {
public:
    /// `source` becomes Error::where; `code` the code of field errors, `unknownCode` that of
    /// unknown members.
    explicit FieldReader(std::string source, std::string code = "SPEC_FIELD",
        std::string unknownCode = "SPEC_UNKNOWN_FIELD", PathPlace pathPlace = PathPlace::Message);

    /// The source of the errors reported from now on (a reader that has just read an entry's
    /// id names it in the rest of the entry's errors).
    void setSource(std::string source) { m_source = std::move(source); }
    const std::string& source() const { return m_source; }

    void fail(const std::string& path, const std::string& what, std::string hint = {});
    /// Adds an error made elsewhere (it counts towards the cap like the others).
    void addError(Error error);
    /// "<path>: must be <expected>, got <value>"
    void mustBe(const std::string& path, std::string_view expected, const nlohmann::json& got);

    /// Reports every member of `obj` not in `known` (`path` is the object's own path, "" at the top)
    /// as "unknown <noun>", with a hint: the near miss or the `known` <noun>s.
    void checkKeys(const nlohmann::json& obj, const std::string& path, std::span<const std::string_view> known,
        std::string_view noun = "field");
    /// True when `v` is an object; then checks its keys.
    bool object(const nlohmann::json& v, const std::string& path, std::span<const std::string_view> known);

    /// An integer from `min` to `max` (an integral number like 32.0 counts). Above `max` the
    /// message is "must be at most <max>", unless `expected` already states the range.
    std::optional<long long> integer(const nlohmann::json& v, const std::string& path, long long min,
        long long max, std::string_view expected, bool expectedStatesRange = false);
    /// A finite number from `min` to `max`.
    std::optional<double> number(const nlohmann::json& v, const std::string& path, double min, double max,
        std::string_view expected);
    std::optional<std::string> string(const nlohmann::json& v, const std::string& path, std::string_view expected,
        bool allowEmpty);
    std::optional<bool> boolean(const nlohmann::json& v, const std::string& path);
    /// One of `choices`, exactly.
    std::optional<std::string> choice(const nlohmann::json& v, const std::string& path,
        std::span<const std::string_view> choices);

    /// The errors so far; a last entry says how many were left out when there were very many.
    Errors errors() const;
    bool ok() const { return m_errors.empty(); }

private:
    Error makeError(const std::string& code, const std::string& path, const std::string& what, std::string hint) const;

    std::string m_source;
    std::string m_code;
    std::string m_unknownCode;
    PathPlace m_pathPlace = PathPlace::Message;
    Errors m_errors;
    long long m_leftOut = 0;
};

/// A member given twice in one JSON object (nlohmann keeps the last one).
struct DuplicateMember {
    std::string path; ///< its path, elements of a list written "[]": "racks[].slack_m"
    std::string key;  ///< the member's own name: "slack_m"
};

/// Parses JSON text and appends each member given twice in one object to `duplicates`, in the
/// order of the text. Throws nlohmann::json::exception where the text is not JSON.
nlohmann::json parseJsonNotingDuplicates(std::string_view text, std::vector<DuplicateMember>& duplicates);

/// Parses JSON text. Syntax errors (code `syntaxCode`) name line and column; a member given
/// twice in one object is an error (code `fieldCode`) naming its path.
Result<nlohmann::json> parseJsonStrict(std::string_view text, const std::string& source,
    const std::string& syntaxCode, const std::string& fieldCode);

} // namespace railyard::core::detail
