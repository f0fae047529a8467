// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/examples.h"

#include "app/cli/text_table.h"

namespace railyard::app::cli {

void printExampleList(std::ostream& out)
{
    TextTable table({ TextTable::Align::Left, TextTable::Align::Left }, "");
    for (const Example& example : builtinExamples())
        table.addRow({ example.name, example.name == kDefaultExample ? example.title + " (default)" : example.title });
    table.print(out);
}

} // namespace railyard::app::cli
