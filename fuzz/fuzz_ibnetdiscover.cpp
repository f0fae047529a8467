// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// ibnetdiscover output (live/client/ibnet_parse.h), both formats: the full topology and the
// ports report (-p). Checked on an accepted fabric: links sorted by their `a` end with a < b, no
// port pair twice, find()/indexOf() agree with the node list, every GUID reads back from
// formatGuid, and every description is UTF-8 (it goes into `live cabling --json`). Not checked: one peer per port. The reader keeps two cables at one port as the
// text lists them (the real -p fixture ibnetdiscover-ports-hdr-qdr-treydock.txt does so), and
// the cabling check reports what it finds there.
#include "live/client/ibnet_parse.h"
#include "live/common/text_scan.h"
#include "fuzz/fuzz_support.h"

#include <tuple>

using namespace railyard;

namespace {
constexpr const char* kTarget = "fuzz_ibnetdiscover";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    auto parsed = live::parseIbnetdiscover(fuzz::asText(data, size), "fuzz.ibnet");
    if (!parsed)
        return 0;
    const live::IbFabric& fabric = *parsed;
    for (std::size_t i = 0; i < fabric.nodes.size(); ++i) {
        const std::uint64_t guid = fabric.nodes[i].guid;
        RAILYARD_FUZZ_CHECK(kTarget, live::text::isValidUtf8(fabric.nodes[i].description), "the description of " + live::formatGuid(guid) + " is no UTF-8");
        RAILYARD_FUZZ_CHECK(kTarget, live::parseGuid(live::formatGuid(guid)) == guid, live::formatGuid(guid));
        RAILYARD_FUZZ_CHECK(kTarget, fabric.indexOf(guid) == i, "node " + live::formatGuid(guid) + " listed twice");
        RAILYARD_FUZZ_CHECK(kTarget, fabric.find(guid) == &fabric.nodes[i], "find() misses " + live::formatGuid(guid));
    }
    for (std::size_t i = 0; i < fabric.links.size(); ++i) {
        const live::IbLink& l = fabric.links[i];
        const std::string name = live::formatGuid(l.a.guid) + "[" + std::to_string(l.a.port) + "] - " + live::formatGuid(l.b.guid)
            + "[" + std::to_string(l.b.port) + "]";
        RAILYARD_FUZZ_CHECK(kTarget, std::tie(l.a.guid, l.a.port) <= std::tie(l.b.guid, l.b.port), "ends not ordered: " + name);
        if (i > 0) {
            const live::IbLink& p = fabric.links[i - 1];
            RAILYARD_FUZZ_CHECK(kTarget, std::tie(p.a.guid, p.a.port, p.b.guid, p.b.port) < std::tie(l.a.guid, l.a.port, l.b.guid, l.b.port),
                "links not sorted or listed twice: " + name);
        }
    }
    return 0;
}
