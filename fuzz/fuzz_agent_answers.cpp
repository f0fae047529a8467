// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What the client reads from an agent or a Prometheus server, i.e. from the network: the agent's
// JSON (/v1/inventory, /v1/counters, /v1/health; live/common/inventory_json.h), its compact
// counters (/v1/counters?format=compact; live/common/counters_compact.h), a Prometheus HTTP API
// answer (live/client/prometheus_source.h) and the identity file (live/client/identity.h). The
// first byte picks the reader:
//   0 inventory JSON  1 counters JSON  2 health JSON  3 compact counters  4 Prometheus answer
//   5 a Prometheus duration  6 identity JSON
// Checked: every accepted document written back (toJson, toCompactText) reads back to the same;
// compact counters and their JSON form are the same snapshot; a Prometheus answer's series have
// the result type's shape.
#include "live/client/identity.h"
#include "live/client/prometheus_source.h"
#include "live/common/counters_compact.h"
#include "live/common/inventory_json.h"
#include "fuzz/fuzz_support.h"

#include <cmath>

using namespace railyard;

namespace {

constexpr const char* kTarget = "fuzz_agent_answers";

nlohmann::json parseJson(std::string_view text)
{
    return nlohmann::json::parse(text, nullptr, false);
}

/// from(doc) accepted -> toJson -> from again must be accepted and write the same JSON.
template <typename From>
void roundTrip(std::string_view text, From from, const char* what)
{
    const nlohmann::json doc = parseJson(text);
    if (doc.is_discarded())
        return;
    auto read = from(doc, "fuzz");
    if (!read)
        return;
    const nlohmann::json written = live::toJson(*read);
    (void)fuzz::dumpAsCli(written);
    auto again = from(written, "written");
    RAILYARD_FUZZ_CHECK(kTarget, again.ok(), std::string(what) + " as written is refused: " + (again ? std::string() : again.error().toString()));
    RAILYARD_FUZZ_CHECK(kTarget, live::toJson(*again) == written, std::string(what) + " reads back different: " + written.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void compact(std::string_view text)
{
    auto read = live::countersFromCompact(text, "fuzz");
    if (!read)
        return;
    const nlohmann::json asJson = live::toJson(*read);
    auto written = live::toCompactText(*read);
    RAILYARD_FUZZ_CHECK(kTarget, written.ok(), "compact counters do not write back: " + (written ? std::string() : written.error().toString()));
    auto again = live::countersFromCompact(*written, "written");
    RAILYARD_FUZZ_CHECK(kTarget, again.ok(), "compact counters as written are refused: " + (again ? std::string() : again.error().toString()));
    RAILYARD_FUZZ_CHECK(kTarget, live::toJson(*again) == asJson, "compact counters read back different");
    auto viaJson = live::countersFromJson(asJson, "json");
    RAILYARD_FUZZ_CHECK(kTarget, viaJson.ok(), "compact counters' JSON form is refused: " + (viaJson ? std::string() : viaJson.error().toString()));
    RAILYARD_FUZZ_CHECK(kTarget, live::toJson(*viaJson) == asJson, "compact counters and their JSON form differ");
}

void prometheus(std::string_view text)
{
    auto answer = live::parsePrometheusAnswer(text, "fuzz query");
    if (!answer)
        return;
    const std::string& type = answer->resultType;
    RAILYARD_FUZZ_CHECK(kTarget, type == "vector" || type == "matrix" || type == "scalar", "result type " + type);
    for (const live::PromSeries& s : answer->series) {
        if (type == "vector" || type == "scalar")
            RAILYARD_FUZZ_CHECK(kTarget, s.samples.size() == 1, type + " series with " + std::to_string(s.samples.size()) + " samples");
        if (type == "scalar")
            RAILYARD_FUZZ_CHECK(kTarget, s.labels.empty(), "a scalar with labels");
    }
}

void duration(std::string_view text)
{
    if (const auto seconds = live::promDurationSeconds(text))
        RAILYARD_FUZZ_CHECK(kTarget, std::isfinite(*seconds) && *seconds >= 0, std::string(text));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view text = fuzz::asText(data + 1, size - 1);
    switch (data[0] % 7) {
    case 0: roundTrip(text, [](const nlohmann::json& d, std::string_view w) { return live::inventoryFromJson(d, w); }, "inventory"); break;
    case 1: roundTrip(text, [](const nlohmann::json& d, std::string_view w) { return live::countersFromJson(d, w); }, "counters"); break;
    case 2: roundTrip(text, [](const nlohmann::json& d, std::string_view w) { return live::healthFromJson(d, w); }, "health"); break;
    case 3: compact(text); break;
    case 4: prometheus(text); break;
    case 5: duration(text); break;
    default: roundTrip(text, [](const nlohmann::json& d, std::string_view w) { return live::identityFromJson(d, w); }, "identity"); break;
    }
    return 0;
}
