// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `results import` (live/client/results_import.h: nccl-tests, perftest and NCCL log files, judged
// against a plan) and the emulator's faults file (live/sim/faults.h, checked against a plan). The
// first byte picks: bits 0-1 the reader (0 nccl-tests, 1 perftest, 2 nccl-log, 3 the kind
// detectResultsKind finds), bit 2 with or without the plan, bit 3 the InfiniBand or the RoCEv2
// plan, bit 4 the faults file instead. Checked: the document dumps as the CLI prints it; a kind
// detectResultsKind finds is one importResults reads; every fault names a device of the plan and
// a share of line rate in 0..1.
#include "live/client/results_import.h"
#include "live/sim/faults.h"
#include "fuzz/fuzz_plans.h"

#include <array>

using namespace railyard;

namespace {

constexpr const char* kTarget = "fuzz_results_faults";

void faults(std::string_view text, const core::Plan& plan)
{
    auto parsed = live::parseFaults(text, "faults.json", plan);
    if (!parsed)
        return;
    for (const live::Fault& f : *parsed) {
        const std::string which = "fault " + std::to_string(f.index) + " (" + std::string(live::toString(f.kind)) + ")";
        RAILYARD_FUZZ_CHECK(kTarget, f.nic.device < plan.devices.size() && f.other.device < plan.devices.size(), which + ": no such device");
        RAILYARD_FUZZ_CHECK(kTarget, f.switchDevice < plan.devices.size(), which + ": no such switch");
        RAILYARD_FUZZ_CHECK(kTarget, f.factor >= 0 && f.factor <= 1, which + ": factor " + std::to_string(f.factor));
    }
}

void import(std::string_view text, int reader, const fuzz::FuzzPlan* planned)
{
    live::PlanContext context;
    if (planned) {
        context.plan = &planned->plan;
        context.railMap = planned->railMap;
    }
    std::optional<live::ResultsKind> kind;
    if (reader == 3) {
        kind = live::detectResultsKind(text);
        if (!kind)
            return;
    } else {
        kind = std::array { live::ResultsKind::NcclTests, live::ResultsKind::Perftest, live::ResultsKind::NcclLog }[static_cast<std::size_t>(reader)];
    }
    auto imported = live::importResults(text, *kind, context);
    if (reader == 3)
        RAILYARD_FUZZ_CHECK(kTarget, imported.ok(), "detected as " + std::string(live::toString(*kind)) + " but refused: "
            + (imported ? std::string() : imported.error().toString()));
    if (imported)
        (void)fuzz::dumpAsCli(imported->document);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    (void)fuzz::fuzzPlans(kTarget);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::uint8_t selector = data[0];
    const std::string_view text = fuzz::asText(data + 1, size - 1);
    const fuzz::FuzzPlan& planned = fuzz::fuzzPlans(kTarget).plans[(selector >> 3) & 1];
    if (selector & 0x10)
        faults(text, planned.plan);
    else
        import(text, selector & 3, (selector & 4) ? &planned : nullptr);
    return 0;
}
