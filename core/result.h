// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <cassert>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace railyard::core {

/// A problem that reaches a person: what was wrong, where, and what to do.
/// `code` is stable (tests and translations key on it); `message` is English.
struct Error {
    std::string code;    ///< e.g. "SPEC_FIELD", "CATALOG_FIELD", "STORE_FOREIGN"
    std::string message; ///< e.g. "nodes: must be a positive integer, got -4"
    std::string where;   ///< file, JSON field, host, switch/port; may be empty
    std::string hint;    ///< what to do about it; may be empty

    /// "where: message (hint)" on one line, as the CLI prints it.
    std::string toString() const;
};

using Errors = std::vector<Error>;

/// An expected-like value: either a T or one or more errors (never zero).
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value)
        : m_v(std::move(value))
    {
    }
    Result(Error error)
        : m_v(Errors { std::move(error) })
    {
    }
    Result(Errors errors)
        : m_v(std::move(errors))
    {
        assert(!std::get<Errors>(m_v).empty());
    }

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }

    T& value() & { return std::get<T>(m_v); }
    const T& value() const& { return std::get<T>(m_v); }
    T&& value() && { return std::get<T>(std::move(m_v)); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

    const Error& error() const { return std::get<Errors>(m_v).front(); }
    const Errors& errors() const { return std::get<Errors>(m_v); }

private:
    std::variant<T, Errors> m_v;
};

/// Result of an operation that yields nothing but may fail.
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(Error error)
        : m_errors { std::move(error) }
    {
    }
    Status(Errors errors)
        : m_errors(std::move(errors))
    {
    }
    static Status success() { return {}; }

    bool ok() const { return m_errors.empty(); }
    explicit operator bool() const { return ok(); }
    const Error& error() const { return m_errors.front(); }
    const Errors& errors() const { return m_errors; }

private:
    Errors m_errors;
};

} // namespace railyard::core
