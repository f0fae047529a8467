// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/builtin_resources.h"

namespace railyard::core {

std::vector<BuiltinFile> builtinFilesIn(std::string_view folder)
{
    std::vector<BuiltinFile> out;
    for (const BuiltinFile& f : builtinFiles()) {
        if (f.path.size() > folder.size() && f.path.substr(0, folder.size()) == folder && f.path[folder.size()] == '/')
            out.push_back(f);
    }
    return out;
}

} // namespace railyard::core
