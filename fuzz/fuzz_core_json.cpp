// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The JSON documents core/ reads from files a person hands in: the plan spec
// (core/plan_spec_parse.cpp), a catalog document (core/catalog_json.cpp) and the plan document
// read back (core/plan_json_read.cpp). The first byte picks the reader, the rest is the file.
// Checked beyond "no crash": an accepted spec written out (toJson) reads back to the same JSON;
// an accepted plan document written out (writePlanJson) reads back and writes the same bytes; a
// catalog document's entries all carry the source name they were read under.
#include "core/catalog.h"
#include "core/catalog_json.h"
#include "core/plan.h"
#include "core/plan_json.h"
#include "core/plan_spec.h"
#include "fuzz/fuzz_support.h"

#include <sstream>

using namespace railyard;

namespace {

constexpr const char* kTarget = "fuzz_core_json";

void spec(std::string_view text)
{
    auto parsed = core::parsePlanSpecText(text, "fuzz.plan.json");
    if (!parsed)
        return;
    const nlohmann::json written = core::toJson(*parsed);
    auto again = core::parsePlanSpec(written, "written.plan.json");
    RAILYARD_FUZZ_CHECK(kTarget, again.ok(), "the spec as written is refused: " + (again ? std::string() : again.error().toString()));
    RAILYARD_FUZZ_CHECK(kTarget, core::toJson(*again) == written, "the spec reads back different: " + written.dump());
}

void catalog(std::string_view text)
{
    auto parsed = core::detail::parseCatalogDocument(text, "fuzz.catalog.json");
    if (!parsed)
        return;
    for (const auto& s : parsed->switches)
        RAILYARD_FUZZ_CHECK(kTarget, s.source == "fuzz.catalog.json", "switch source " + s.source);
    for (const auto& n : parsed->nics)
        RAILYARD_FUZZ_CHECK(kTarget, n.source == "fuzz.catalog.json", "nic source " + n.source);
}

std::string write(const core::Plan& plan)
{
    std::ostringstream out;
    core::writePlanJson(plan, out);
    return out.str();
}

void planDocument(std::string_view text)
{
    auto parsed = core::readPlanJson(text, "fuzz.json");
    if (!parsed)
        return;
    const std::string first = write(*parsed);
    auto again = core::readPlanJson(first, "written.json");
    RAILYARD_FUZZ_CHECK(kTarget, again.ok(), "the plan document as written is refused: " + (again ? std::string() : again.error().toString()));
    RAILYARD_FUZZ_CHECK(kTarget, write(*again) == first, "the plan document reads back different");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view text = fuzz::asText(data + 1, size - 1);
    switch (data[0] % 3) {
    case 0: spec(text); break;
    case 1: catalog(text); break;
    default: planDocument(text); break;
    }
    return 0;
}
