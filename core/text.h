// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <string>
#include <string_view>

namespace railyard::core {

/// ASCII lower-case copy (identifiers and keywords only; not for prose).
std::string toLower(std::string_view text);
/// True when `a` and `b` differ only in the case of ASCII letters (HTTP header names, device
/// names, PCI addresses); copies nothing.
bool equalsIgnoreCase(std::string_view a, std::string_view b);
/// True when `text` begins with `prefix`, ignoring the case of ASCII letters ("HTTP://", "Bearer ").
bool startsWithIgnoreCase(std::string_view text, std::string_view prefix);
/// Shortest decimal form of a number to six decimals: 400, 54.54, 0.5 (no trailing zeros).
std::string formatNumber(double value);
/// `value` with exactly `digits` decimals, as printf's %.*f in the C locale: formatFixed(62.94, 1)
/// -> "62.9". Both write a decimal point whatever C locale is in force (the app runs under the user's).
std::string formatFixed(double value, int digits = 1);
/// `value` with thousands separators: 131072 -> "131,072".
std::string formatCount(long long value);
/// The first `maxBytes` bytes of `text`, or fewer so that the cut does not split a UTF-8
/// character (a message that quotes a cut line must stay UTF-8, or printing it as JSON throws).
std::string_view utf8Prefix(std::string_view text, std::size_t maxBytes);
/// Natural order: digit runs compare as numbers ("2" < "10", "mlx5_2" < "mlx5_10",
/// "dgx-h100-superpod-2su" < "...-16su"), leading zeros aside; the rest byte by byte.
bool naturalLess(std::string_view a, std::string_view b);

/// True when a CSV field must be quoted (RFC 4180: a comma, a quote or a line break in it).
bool csvNeedsQuotes(std::string_view field);
/// Appends one CSV field to `row`, quoted and with doubled quotes when csvNeedsQuotes().
void appendCsvField(std::string& row, std::string_view field);

} // namespace railyard::core
