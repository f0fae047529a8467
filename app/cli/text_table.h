// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace railyard::app::cli {

/// A plain-text table with aligned columns: text columns left-aligned, number columns right-aligned.
class TextTable {
public:
    enum class Align { Left, Right };

    /// One alignment per column; rows may be shorter (missing cells print empty).
    explicit TextTable(std::vector<Align> columns, std::string indent = "  ");

    void addRow(std::vector<std::string> cells);
    /// A row printed as is, spanning the table (a sub-heading or a note).
    void addNote(std::string text);
    bool empty() const { return m_rows.empty(); }

    void print(std::ostream& out) const;

private:
    struct Row {
        std::vector<std::string> cells;
        bool note = false;
    };
    std::vector<std::size_t> columnWidths() const;

    std::vector<Align> m_align;
    std::string m_indent;
    std::vector<Row> m_rows;
};

} // namespace railyard::app::cli
