// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include "core/result.h"
#include "core/speed.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// Field readers for catalog entries: each keeps the first problem of an entry with the file,
// entry and field it is about. Internal to railyard_core (catalog_json.cpp uses them).
namespace railyard::core::detail {

/// A JSON value as written, cut short when long: `-4`, `"x"`, `[1,2]`.
std::string describeValue(const nlohmann::json& value);

/// The file and entry being read, and the first problem found in it.
class EntryContext {
public:
    EntryContext(std::string file, std::string section, std::size_t index);
    /// Top-level context (no entry): errors read `file: field: message`.
    explicit EntryContext(std::string file);

    void setId(std::string id) { m_id = std::move(id); }
    void fail(const std::string& field, std::string message, std::string hint = {});
    bool failed() const { return m_error.has_value(); }
    const std::optional<Error>& error() const { return m_error; }
    std::string where(const std::string& field) const;

private:
    std::string m_file;
    std::string m_section;
    std::size_t m_index = 0;
    std::string m_id;
    std::optional<Error> m_error;
};

enum class Need { Required, Optional };

/// Reads the fields of one JSON object; `path` is its place in the entry ("" or "modes[0]").
class ObjectReader {
public:
    ObjectReader(const nlohmann::json& value, std::string path, EntryContext& ctx);

    bool ok() const { return m_object != nullptr; }
    std::string field(std::string_view key) const;
    const nlohmann::json* find(std::string_view key) const;
    /// Reports the first key not in `known` ("colour: unknown field").
    void rejectUnknown(std::span<const std::string_view> known, std::string_view noun = "field");

    std::string text(std::string_view key, Need need);
    std::string id(std::string_view key, Need need);
    int integer(std::string_view key, Need need, int fallback, int min, int max);
    double number(std::string_view key, Need need, double fallback, bool allowZero);
    std::optional<double> optionalNumber(std::string_view key);
    bool flag(std::string_view key, bool fallback);
    /// The array at `key`, or nullptr (missing when optional, or wrong type: reported).
    const nlohmann::json* array(std::string_view key, Need need);
    std::optional<Fabric> fabric(std::string_view key);
    std::vector<Fabric> fabrics(std::string_view key);

    EntryContext& context() { return m_ctx; }

private:
    const nlohmann::json* m_object = nullptr;
    std::string m_path;
    EntryContext& m_ctx;
};

/// `path[index]`, the place of one array element.
std::string elementPath(const std::string& path, std::size_t index);

/// A port rate: `{"generation":"NDR","width":4}` (InfiniBand) or `{"speed_gbps":400,"lanes":4}`.
std::optional<PortRate> readRate(const nlohmann::json& value, const std::string& path, Fabric fabric, EntryContext& ctx);

} // namespace railyard::core::detail
