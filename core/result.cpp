// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/result.h"

namespace railyard::core {

std::string Error::toString() const
{
    std::string out;
    if (!where.empty()) {
        out += where;
        out += ": ";
    }
    out += message;
    if (!hint.empty()) {
        out += " (";
        out += hint;
        out += ')';
    }
    return out;
}

} // namespace railyard::core
