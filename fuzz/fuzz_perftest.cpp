// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// perftest output (live/common/perftest_output.h): ib_write_bw and the other bandwidth and latency
// tools, server or client, one process or two interleaved in one log; read whole (`results import`)
// and line by line as `live test` feeds it. Checked: feeding the lines with their line ends gives
// the runs that feeding them without gives (the reader says it takes either); every row feed()
// reported is a row of the run it named; the JSON documents dump as the CLI prints them.
#include "live/common/perftest_output.h"
#include "fuzz/fuzz_support.h"

using namespace railyard;

namespace {

constexpr const char* kTarget = "fuzz_perftest";

std::size_t rowsOf(const live::PerftestRun& run)
{
    return run.bwRows.size() + run.localBwRows.size() + run.remoteBwRows.size() + run.latRows.size();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text = fuzz::asText(data, size);
    auto one = live::parsePerftestOutput(text);
    auto all = live::parsePerftestOutputs(text);
    RAILYARD_FUZZ_CHECK(kTarget, one.ok() == all.ok(), "parsePerftestOutput and parsePerftestOutputs disagree on recognising the text");
    if (one)
        (void)fuzz::dumpAsCli(live::toJson(*one));

    // The same lines with their line ends, and the rows feed() reports, per run.
    live::PerftestParser parser;
    std::vector<std::size_t> reported;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t end = text.find('\n', pos);
        const live::PerftestFeed fed = end == std::string_view::npos ? parser.feedPartial(text.substr(pos)) : parser.feed(text.substr(pos, end + 1 - pos));
        if (fed) {
            if (reported.size() <= fed.run)
                reported.resize(fed.run + 1, 0);
            ++reported[fed.run];
        }
        if (end == std::string_view::npos)
            break;
        pos = end + 1;
    }
    std::vector<live::PerftestRun> runs = parser.finishAll();
    RAILYARD_FUZZ_CHECK(kTarget, reported.size() <= runs.size(), "a row was reported for run " + std::to_string(reported.size() - 1)
        + " of " + std::to_string(runs.size()));
    for (std::size_t r = 0; r < reported.size(); ++r)
        RAILYARD_FUZZ_CHECK(kTarget, reported[r] <= rowsOf(runs[r]), "run " + std::to_string(r) + ": feed() reported "
            + std::to_string(reported[r]) + " rows, the run has " + std::to_string(rowsOf(runs[r])));
    if (all) {
        RAILYARD_FUZZ_CHECK(kTarget, all->size() == runs.size(), "line ends change the number of runs");
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const nlohmann::json doc = live::toJson((*all)[r]);
            (void)fuzz::dumpAsCli(doc);
            RAILYARD_FUZZ_CHECK(kTarget, doc == live::toJson(runs[r]), "line ends change run " + std::to_string(r));
        }
    }
    return 0;
}
