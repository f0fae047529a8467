// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace railyard::test {

using Row = std::vector<std::string>;

/// A strict RFC 4180 reader (LF or CRLF line ends), enough to check what the writer quotes.
inline std::vector<Row> parseCsv(const std::string& text)
{
    std::vector<Row> rows;
    Row row;
    std::string field;
    bool quoted = false, any = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(std::exchange(field, {}));
        } else if (c == '\n') {
            row.push_back(std::exchange(field, {}));
            rows.push_back(std::exchange(row, {}));
        } else if (c != '\r') {
            field += c;
        }
        any = true;
    }
    if (any && (!field.empty() || !row.empty())) {
        row.push_back(field);
        rows.push_back(row);
    }
    return rows;
}

} // namespace railyard::test
