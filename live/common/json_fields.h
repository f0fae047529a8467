// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Fields of JSON documents that come from elsewhere (an agent, a Prometheus server, a stored
// run): the value when it is there with the expected type, the fallback otherwise. nlohmann's
// own `value(key, fallback)` throws type_error when the key holds another type, which in a
// document from the network is a crash waiting for a broken or hostile peer.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace railyard::live {

/// The value at `key`; null when `j` is not an object or has no `key`.
inline const nlohmann::json& memberOf(const nlohmann::json& j, std::string_view key)
{
    static const nlohmann::json null;
    if (!j.is_object())
        return null;
    const auto it = j.find(key);
    return it != j.end() ? *it : null;
}

/// The string at `key`; `fallback` when `j` is not an object, has no `key` or holds no string there.
inline std::string stringField(const nlohmann::json& j, std::string_view key, std::string fallback = {})
{
    if (!j.is_object())
        return fallback;
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

/// The number at `key` (integer or not); nullopt as stringField.
inline std::optional<double> numberField(const nlohmann::json& j, std::string_view key)
{
    if (!j.is_object())
        return std::nullopt;
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? std::optional<double>(it->get<double>()) : std::nullopt;
}

/// The non-negative integer at `key`; nullopt when absent, negative, fractional or not a number.
inline std::optional<std::uint64_t> unsignedField(const nlohmann::json& j, std::string_view key)
{
    if (!j.is_object())
        return std::nullopt;
    const auto it = j.find(key);
    if (it == j.end())
        return std::nullopt;
    if (it->is_number_unsigned())
        return it->get<std::uint64_t>();
    if (it->is_number_integer() && it->get<std::int64_t>() >= 0)
        return static_cast<std::uint64_t>(it->get<std::int64_t>());
    return std::nullopt;
}

/// The integer at `key` when it lies in [min, max] (a rail, a port); nullopt otherwise.
inline std::optional<int> intField(const nlohmann::json& j, std::string_view key, int min, int max)
{
    const nlohmann::json& v = memberOf(j, key);
    if (!v.is_number_integer() && !v.is_number_unsigned())
        return std::nullopt;
    if (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(max) : v.get<std::int64_t>() < min || v.get<std::int64_t>() > max)
        return std::nullopt;
    return static_cast<int>(v.get<std::int64_t>());
}

/// The boolean at `key`; `fallback` as stringField.
inline bool boolField(const nlohmann::json& j, std::string_view key, bool fallback)
{
    if (!j.is_object())
        return fallback;
    const auto it = j.find(key);
    return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

} // namespace railyard::live
