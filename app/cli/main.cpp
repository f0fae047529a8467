// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/commands.h"

#include <iostream>

int main(int argc, char** argv)
{
    // Plan documents of large fabrics are tens of megabytes: skip the C stdio sync.
    std::ios::sync_with_stdio(false);
    return railyard::app::cli::runCli(argc, argv);
}
