// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/reading_notes.h"

#include "app/cli/summary_format.h"

namespace railyard::app::cli {

void printReadingNotes(const std::vector<live::ReadingNote>& notes, std::ostream& out)
{
    constexpr std::size_t kNotesShown = 40;
    constexpr std::size_t kNodesNamed = 10;
    if (notes.empty())
        return;
    out << "reading notes (what the nodes' outputs did not give; --json lists them per node, under nodes[].warnings)\n";
    for (std::size_t i = 0; i < notes.size() && i < kNotesShown; ++i) {
        const live::ReadingNote& note = notes[i];
        out << "  " << note.text << "\n    on ";
        if (note.nodes.size() > 1)
            out << note.nodes.size() << " nodes: ";
        for (std::size_t k = 0; k < note.nodes.size() && k < kNodesNamed; ++k)
            out << (k ? ", " : "") << note.nodes[k];
        if (note.nodes.size() > kNodesNamed)
            out << ", ...";
        out << '\n';
    }
    if (notes.size() > kNotesShown)
        out << "  ... and " << plural(static_cast<long long>(notes.size() - kNotesShown), "more note", "more notes") << '\n';
}

} // namespace railyard::app::cli
