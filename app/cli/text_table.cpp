// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/text_table.h"

#include <algorithm>

namespace railyard::app::cli {

namespace {

    constexpr std::size_t kColumnGap = 3;

    // Display width of UTF-8 text: code points, not bytes (names and labels may carry "–" or "×").
    std::size_t displayWidth(const std::string& text)
    {
        return static_cast<std::size_t>(std::count_if(text.begin(), text.end(),
            [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
    }

} // namespace

TextTable::TextTable(std::vector<Align> columns, std::string indent)
    : m_align(std::move(columns))
    , m_indent(std::move(indent))
{
}

void TextTable::addRow(std::vector<std::string> cells)
{
    cells.resize(std::max(cells.size(), m_align.size()));
    m_rows.push_back({ std::move(cells), false });
}

void TextTable::addNote(std::string text)
{
    m_rows.push_back({ { std::move(text) }, true });
}

std::vector<std::size_t> TextTable::columnWidths() const
{
    std::vector<std::size_t> widths(m_align.size(), 0);
    for (const Row& row : m_rows) {
        if (row.note)
            continue;
        for (std::size_t i = 0; i < row.cells.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], displayWidth(row.cells[i]));
    }
    return widths;
}

void TextTable::print(std::ostream& out) const
{
    const std::vector<std::size_t> widths = columnWidths();
    for (const Row& row : m_rows) {
        if (row.note) {
            out << m_indent << row.cells.front() << '\n';
            continue;
        }
        std::string line = m_indent;
        bool first = true;
        for (std::size_t i = 0; i < widths.size(); ++i) {
            if (widths[i] == 0)
                continue; // a column left empty in every row takes no room
            const std::string& cell = row.cells[i];
            const std::string pad(widths[i] - displayWidth(cell), ' ');
            if (!first)
                line += std::string(kColumnGap, ' ');
            first = false;
            line += m_align[i] == Align::Right ? pad + cell : cell + pad;
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << '\n';
    }
}

} // namespace railyard::app::cli
