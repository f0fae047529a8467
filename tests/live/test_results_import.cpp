// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// results import's document (live/client/results_import.h) on input the fuzzer found.
#include "live/client/results_import.h"

#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace railyard::live;
using namespace railyard::live::test;

// Found by fuzz/fuzz_results_faults (fuzz/regressions/fuzz_results_faults/): the findings the
// document is given quote the input as it came, so a host name that is not UTF-8 in a duplicated
// rank line made the document's dump() throw (`results import --json`: an internal error).
TEST(ResultsImport, FindingsThatQuoteBytesThatAreNotUtf8StillDump)
{
    std::string text = sharedFixture("nccl-allreduce-2node-mpi-misbuilt-duplicated-headers-PARTIAL.txt");
    for (std::size_t at = text.find(" on "); at != std::string::npos; at = text.find(" on ", at + 1))
        text.insert(at + 4, "\x94\xd2");
    auto imported = importResults(text, ResultsKind::NcclTests);
    ASSERT_TRUE(imported.ok()) << imported.error().toString();
    ASSERT_FALSE(imported->document["findings"].empty());
    std::string dumped;
    ASSERT_NO_THROW(dumped = imported->document.dump(2));
    EXPECT_NE(dumped.find("\xef\xbf\xbd"), std::string::npos) << "the bytes are shown as U+FFFD";
}
