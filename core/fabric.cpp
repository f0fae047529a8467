// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/fabric.h"

#include "core/text.h"

namespace railyard::core {

std::string_view toString(Fabric fabric)
{
    return fabric == Fabric::InfiniBand ? "infiniband" : "rocev2";
}

std::optional<Fabric> parseFabric(std::string_view text)
{
    const std::string t = toLower(text);
    if (t == "infiniband" || t == "ib")
        return Fabric::InfiniBand;
    if (t == "rocev2" || t == "roce")
        return Fabric::RoCEv2;
    return std::nullopt;
}

} // namespace railyard::core
