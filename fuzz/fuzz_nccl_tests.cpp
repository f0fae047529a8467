// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// nccl-tests output (live/common/nccl_tests_output.h), read whole (`results import`) and line by
// line as `live test` feeds it while the tool runs. The first byte picks the caller's tool hint.
// Checked: the streaming reader gives the same run as the whole-text reader (when the text ends
// with a line end, so that no cut last line makes a difference); every row feed() reported is in
// the run, in order; finish() in the middle of the stream changes nothing; the JSON document
// dumps as the CLI prints it.
#include "live/common/nccl_tests_output.h"
#include "fuzz/fuzz_support.h"

#include <array>

using namespace railyard;

namespace {

constexpr const char* kTarget = "fuzz_nccl_tests";
constexpr std::array<const char*, 5> kHints { "", "all_reduce_perf", "./build/all_gather_perf", "reduce_scatter", "alltoall_perf" };

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string hint = kHints[data[0] % kHints.size()];
    const std::string_view text = fuzz::asText(data + 1, size - 1);

    auto whole = live::parseNcclTestsOutput(text, hint);

    live::NcclTestsParser parser(hint);
    std::vector<int> fedRows; // the line of every row feed() reported
    const auto split = fuzz::lines(text);
    for (std::size_t i = 0; i < split.size(); ++i) {
        if (const live::NcclTestsRow* row = parser.feed(split[i]))
            fedRows.push_back(row->line);
        if (i == split.size() / 2)
            (void)parser.finish(); // what a progress display does mid-run: must not change the parser
    }
    const live::NcclTestsRun streamed = parser.finish();
    RAILYARD_FUZZ_CHECK(kTarget, streamed.rows.size() == fedRows.size(),
        std::to_string(streamed.rows.size()) + " rows, feed() reported " + std::to_string(fedRows.size()));
    for (std::size_t i = 0; i < fedRows.size(); ++i)
        RAILYARD_FUZZ_CHECK(kTarget, streamed.rows[i].line == fedRows[i], "row " + std::to_string(i) + " is not the one feed() reported");
    RAILYARD_FUZZ_CHECK(kTarget, whole.ok() == parser.recognised(), "whole and streamed readers disagree on recognising the text");

    const nlohmann::json streamedDoc = live::toJson(streamed);
    (void)fuzz::dumpAsCli(streamedDoc);
    if (whole) {
        const nlohmann::json wholeDoc = live::toJson(*whole);
        (void)fuzz::dumpAsCli(wholeDoc);
        if (text.empty() || text.back() == '\n')
            RAILYARD_FUZZ_CHECK(kTarget, wholeDoc == streamedDoc, "whole and streamed runs differ");
    }
    return 0;
}
