// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The NCCL_DEBUG=INFO log (live/common/nccl_log.h), whole and line by line as the collective
// runner feeds it. Checked: both give the same report, and the JSON document dumps as the CLI
// prints it.
#include "live/common/nccl_log.h"
#include "fuzz/fuzz_support.h"

using namespace railyard;

namespace {
constexpr const char* kTarget = "fuzz_nccl_log";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    auto whole = live::parseNcclLog(text);

    live::NcclLogParser parser;
    const auto split = fuzz::lines(text);
    for (const std::string_view line : split)
        parser.feed(line);
    RAILYARD_FUZZ_CHECK(kTarget, whole.ok() == parser.recognised(), "whole and streamed readers disagree on recognising the text");
    live::NcclLogReport streamed = parser.finish();
    const nlohmann::json streamedDoc = live::toJson(streamed);
    (void)fuzz::dumpAsCli(streamedDoc);
    if (whole) {
        RAILYARD_FUZZ_CHECK(kTarget, live::toJson(*whole) == streamedDoc, "whole and streamed reports differ");
    }
    return 0;
}
