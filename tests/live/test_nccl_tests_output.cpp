// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// nccl-tests output: every format in ../shared/fixtures (nccl-*.txt, not the NCCL logs), read
// whole and line by line, cut at many points, dressed in launcher labels and CRLF, with the
// failures that launchers and NCCL print around it.
#include "live/common/nccl_tests_output.h"
#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <regex>
#include <sstream>

using namespace railyard;
using namespace railyard::live;
using namespace railyard::live::test;

namespace {

constexpr const char* kAllReduceA100 = "nccl-allreduce-1node-8xA100-pre2.13-format-validation0.txt";
constexpr const char* kAllGatherA100 = "nccl-allgather-1node-8xA100-pre2.13-format-no-redop.txt";
constexpr const char* kDgxH100 = "nccl-allreduce-dgx-h100-8gpu-sidework-header.txt";
constexpr const char* kNebius = "nccl-allreduce-2node-16xH100-ib-nebius-dstack.txt";
constexpr const char* kLambda = "nccl-allreduce-2node-16xB200-ib-lambda-v2.17.6-dstack.txt";
constexpr const char* kP5 = "nccl-allreduce-2node-p5-efa-srun-label-prefixed.txt";
constexpr const char* kV100Failed = "nccl-allgather-8xV100-old-format-out-of-bounds-FAILED.txt";
constexpr const char* k2080Ti = "nccl-allreduce-4x2080Ti-pre2.13-format-nonzero-error-column-PARTIAL.txt";
constexpr const char* kMisbuilt = "nccl-allreduce-2node-mpi-misbuilt-duplicated-headers-PARTIAL.txt";
constexpr const char* kBroadcast = "nccl-broadcast-2node-socket-nccl2.9.6-warn-lines-validation0-PARTIAL.txt";
constexpr const char* kAlltoall = "nccl-alltoall-1gpu-rtx5090-2025-inplace-NA-avgbw-zero.txt";

NcclTestsRun parse(const std::string& text, std::string hint = {})
{
    auto r = parseNcclTestsOutput(text, std::move(hint));
    EXPECT_TRUE(r) << (r ? "" : r.error().message);
    return r ? std::move(r).value() : NcclTestsRun {};
}

NcclTestsRun parseFixture(const char* name, std::string hint = {}) { return parse(sharedFixture(name), std::move(hint)); }

std::vector<std::string> codes(const NcclTestsRun& run)
{
    std::vector<std::string> out;
    for (const auto& f : run.findings)
        out.push_back(f.code);
    return out;
}

const core::Finding* findingOf(const NcclTestsRun& run, const std::string& code, std::size_t nth = 0)
{
    for (const auto& f : run.findings)
        if (f.code == code && nth-- == 0)
            return &f;
    return nullptr;
}

std::size_t countCode(const NcclTestsRun& run, const std::string& code)
{
    return static_cast<std::size_t>(std::count_if(run.findings.begin(), run.findings.end(), [&](const auto& f) { return f.code == code; }));
}

bool hasError(const NcclTestsRun& run)
{
    return std::any_of(run.findings.begin(), run.findings.end(), [](const auto& f) { return f.severity == core::Severity::Error; });
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

std::string join(const std::vector<std::string>& ls)
{
    std::string out;
    for (const auto& l : ls)
        out += l + "\n";
    return out;
}

/// The fixture without the lines that contain `part`.
std::string without(const std::string& text, const std::string& part)
{
    std::vector<std::string> kept;
    for (const auto& l : lines(text))
        if (l.find(part) == std::string::npos)
            kept.push_back(l);
    return join(kept);
}

std::string replaceAll(std::string s, const std::string& from, const std::string& to)
{
    for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
        s.replace(p, from.size(), to);
    return s;
}

} // namespace

// ---------------------------------------------------------------------------------------------
// One test (or more) per fixture

TEST(NcclTestsOutput, AllReduceA100OldFormatValidationOff)
{
    const auto run = parseFixture(kAllReduceA100);
    EXPECT_EQ(run.tool, "all_reduce_perf");
    EXPECT_TRUE(run.toolInferred);
    ASSERT_EQ(run.rows.size(), 34u); // the stray "NCCL INFO Launch mode Parallel" line is no row
    EXPECT_EQ(run.rows.front().bytes, 0u);
    EXPECT_EQ(run.rows[2].bytes, 4u);
    EXPECT_EQ(run.rows[2].count, 1u);
    const auto& last = run.rows.back();
    EXPECT_EQ(last.bytes, 8589934592u);
    EXPECT_EQ(last.count, 2147483648u);
    EXPECT_EQ(last.type, "float");
    EXPECT_EQ(last.redop, "sum");
    EXPECT_EQ(last.root, -1);
    EXPECT_DOUBLE_EQ(last.outOfPlace.timeUs, 63896);
    EXPECT_DOUBLE_EQ(last.outOfPlace.algbwGBs, 134.44);
    EXPECT_DOUBLE_EQ(last.outOfPlace.busbwGBs, 235.26);
    EXPECT_TRUE(last.hasInPlace);
    EXPECT_DOUBLE_EQ(last.inPlace.busbwGBs, 235.03);
    EXPECT_FALSE(last.outOfPlace.wrong); // N/A
    EXPECT_FALSE(last.outOfPlace.error);
    EXPECT_DOUBLE_EQ(run.rows[22].outOfPlace.timeUs, 112.0); // 4194304 B
    EXPECT_EQ(run.rows[22].bytes, 4194304u);
    EXPECT_EQ(run.ranks, 8);
    EXPECT_EQ(run.ranksSource, "rank_lines");
    ASSERT_EQ(run.rankList.size(), 8u);
    EXPECT_EQ(run.rankList[7].rank, 7);
    EXPECT_EQ(run.rankList[7].device, 7);
    EXPECT_EQ(run.rankList[7].pid, 112424);
    EXPECT_EQ(run.rankList[7].group, -1);
    EXPECT_EQ(run.rankList[7].host, "localhost");
    EXPECT_EQ(run.rankList[7].busId, "0x00");
    EXPECT_EQ(run.rankList[7].gpu, "A100-SXM4-40GB");
    EXPECT_EQ(run.nThread, 1);
    EXPECT_EQ(run.nGpus, 8);
    EXPECT_EQ(run.minBytes, 1u);
    EXPECT_EQ(run.maxBytes, 8589934592u);
    EXPECT_EQ(run.step, 2u);
    EXPECT_EQ(run.stepKind, "factor");
    EXPECT_EQ(run.warmupIters, 5);
    EXPECT_EQ(run.iters, 20);
    EXPECT_EQ(run.validation, 0);
    ASSERT_TRUE(run.avgBusbwGBs);
    EXPECT_DOUBLE_EQ(*run.avgBusbwGBs, 68.4048);
    EXPECT_EQ(run.outOfBounds, 0);
    EXPECT_FALSE(run.outOfBoundsFailed);
    EXPECT_TRUE(run.complete);
    EXPECT_EQ(codes(run), std::vector<std::string> { "NCCL_TESTS_VALIDATION_OFF" });
    EXPECT_EQ(run.findings.front().severity, core::Severity::Info);
}

TEST(NcclTestsOutput, AllGatherA100OldFormatWithoutRedopColumn)
{
    const auto run = parseFixture(kAllGatherA100);
    EXPECT_EQ(run.tool, "all_gather_perf");
    ASSERT_EQ(run.rows.size(), 34u);
    EXPECT_EQ(run.rows[5].bytes, 32u);
    EXPECT_EQ(run.rows[5].count, 1u); // per rank: 32 B = 1 float x 8 ranks
    EXPECT_EQ(run.rows[5].redop, "none");
    EXPECT_EQ(run.rows[5].type, "float");
    const auto& last = run.rows.back();
    EXPECT_EQ(last.bytes, 8589934592u);
    EXPECT_EQ(last.count, 268435456u);
    EXPECT_DOUBLE_EQ(last.outOfPlace.algbwGBs, 255.31);
    EXPECT_DOUBLE_EQ(last.outOfPlace.busbwGBs, 223.39);
    EXPECT_DOUBLE_EQ(last.inPlace.timeUs, 32669);
    EXPECT_DOUBLE_EQ(last.inPlace.algbwGBs, 262.94);
    EXPECT_EQ(run.ranks, 8);
    EXPECT_DOUBLE_EQ(run.avgBusbwGBs.value_or(0), 58.2651);
    EXPECT_TRUE(run.complete);
    EXPECT_EQ(codes(run), std::vector<std::string> { "NCCL_TESTS_VALIDATION_OFF" });
}

TEST(NcclTestsOutput, DgxH100SideWorkHeader)
{
    const auto run = parseFixture(kDgxH100);
    EXPECT_EQ(run.tool, "all_reduce_perf"); // busbw/algbw 1.75 = 2(8-1)/8, sum, root -1
    ASSERT_EQ(run.rows.size(), 32u);
    EXPECT_EQ(run.rows.front().bytes, 8u);
    EXPECT_EQ(run.rows.front().count, 2u);
    EXPECT_EQ(run.rows.back().bytes, 17179869184u);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlace.busbwGBs, 479.90);
    EXPECT_DOUBLE_EQ(run.rows.back().inPlace.busbwGBs, 479.99);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlace.timeUs, 62648);
    EXPECT_EQ(run.rows.back().outOfPlace.wrong, 0);
    EXPECT_EQ(run.rows.back().inPlace.wrong, 0);
    EXPECT_DOUBLE_EQ(run.rows[2].outOfPlace.timeUs, 68.14);
    EXPECT_EQ(run.aggIters, 1);
    EXPECT_EQ(run.graph, 0);
    EXPECT_EQ(run.validation, 1);
    EXPECT_EQ(run.maxBytes, 17179869184u);
    EXPECT_EQ(run.otherParams.at("side_work"), "0");
    EXPECT_EQ(run.otherParams.at("work_sms"), "0");
    EXPECT_EQ(run.otherParams.at("direction"), "H2D");
    EXPECT_EQ(run.ranks, 8);
    ASSERT_EQ(run.rankList.size(), 8u);
    EXPECT_EQ(run.rankList[3].group, 0);
    EXPECT_EQ(run.rankList[3].pid, 1006017);
    EXPECT_EQ(run.rankList[3].busId, "0000:66:00");
    EXPECT_EQ(run.rankList[3].gpu, "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(run.rankList[3].host, "pool0-01806");
    EXPECT_DOUBLE_EQ(run.avgBusbwGBs.value_or(0), 159.151);
    EXPECT_TRUE(run.complete);
    EXPECT_TRUE(run.findings.empty()) << run.findings.front().message;
}

TEST(NcclTestsOutput, NebiusTwoNodesDstackTranscriptWithoutHashes)
{
    const auto run = parseFixture(kNebius);
    EXPECT_EQ(run.tool, "all_reduce_perf"); // "Collective test concluded: all_reduce_perf"
    EXPECT_FALSE(run.toolInferred);
    ASSERT_EQ(run.rows.size(), 31u);
    EXPECT_EQ(run.rows.front().bytes, 8u);
    EXPECT_DOUBLE_EQ(run.rows.front().outOfPlace.timeUs, 45.72);
    EXPECT_EQ(run.rows.back().bytes, 8589934592u);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlace.timeUs, 34448.4);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlace.algbwGBs, 249.36);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlace.busbwGBs, 467.54);
    EXPECT_DOUBLE_EQ(run.rows.back().inPlace.busbwGBs, 468.46);
    EXPECT_EQ(run.ranks, 16); // 2 nodes x 8 GPUs: no rank lines, busbw/algbw = 2(16-1)/16
    EXPECT_EQ(run.ranksSource, "busbw_ratio");
    EXPECT_DOUBLE_EQ(run.avgBusbwGBs.value_or(0), 125.499);
    EXPECT_TRUE(run.complete);
    EXPECT_TRUE(run.findings.empty());
    EXPECT_TRUE(anyContains(run.warnings, "before the nccl-tests output began"));
}

TEST(NcclTestsOutput, LambdaB200VersionLineAndCollectiveStarting)
{
    const auto run = parseFixture(kLambda);
    EXPECT_EQ(run.tool, "all_reduce_perf");
    EXPECT_FALSE(run.toolInferred);
    EXPECT_EQ(run.testsVersion, "2.17.6");
    EXPECT_EQ(run.ncclVersion, "2.26.2"); // nccl-library=22602
    ASSERT_EQ(run.rows.size(), 29u);
    EXPECT_EQ(run.rows.back().bytes, 2147483648u);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlace.busbwGBs, 696.06);
    EXPECT_DOUBLE_EQ(run.rows.back().inPlace.busbwGBs, 702.91);
    EXPECT_EQ(run.rows[16].bytes, 524288u);
    EXPECT_DOUBLE_EQ(run.rows[16].outOfPlace.timeUs, 240.71);
    EXPECT_DOUBLE_EQ(run.rows[16].outOfPlace.algbwGBs, 2.18);
    EXPECT_EQ(run.ranks, 16);
    EXPECT_DOUBLE_EQ(run.avgBusbwGBs.value_or(0), 137.179);
    EXPECT_TRUE(run.complete);
    EXPECT_TRUE(run.findings.empty());
}

TEST(NcclTestsOutput, P5SrunLabelPrefixedTableOnlyIsTruncated)
{
    const auto run = parseFixture(kP5);
    EXPECT_EQ(run.tool, "all_reduce_perf");
    EXPECT_TRUE(run.toolInferred);
    ASSERT_EQ(run.rows.size(), 32u);
    EXPECT_EQ(run.rows.front().bytes, 8u);
    EXPECT_DOUBLE_EQ(run.rows.front().outOfPlace.timeUs, 69.12);
    EXPECT_EQ(run.rows.back().bytes, 17179869184u);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlace.algbwGBs, 259.78);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlace.busbwGBs, 487.09);
    EXPECT_EQ(run.ranks, 16); // 2 x p5.48xlarge
    EXPECT_FALSE(run.avgBusbwGBs);
    EXPECT_FALSE(run.complete); // the README elided the footer
    const auto* t = findingOf(run, "NCCL_TESTS_TRUNCATED");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->severity, core::Severity::Error);
    EXPECT_NE(t->message.find("17179869184"), std::string::npos) << t->message;
    EXPECT_EQ(t->where, "after size 17179869184");
}

TEST(NcclTestsOutput, V100AllGatherOutOfBoundsFailed)
{
    const auto run = parseFixture(kV100Failed);
    EXPECT_EQ(run.tool, "all_gather_perf"); // from "all_gather_perf -g 8 ..." above the table
    ASSERT_EQ(run.rows.size(), 1u);
    const auto& row = run.rows.front();
    EXPECT_EQ(row.bytes, 4294967296u);
    EXPECT_EQ(row.count, 134217728u);
    EXPECT_DOUBLE_EQ(row.outOfPlace.timeUs, 29122);
    EXPECT_DOUBLE_EQ(row.outOfPlace.algbwGBs, 129.05);
    EXPECT_DOUBLE_EQ(row.inPlace.busbwGBs, 128.84);
    ASSERT_TRUE(row.outOfPlace.error);
    EXPECT_DOUBLE_EQ(*row.outOfPlace.error, 1.0);
    EXPECT_EQ(row.outOfPlace.wrong, 1);
    EXPECT_EQ(row.inPlace.wrong, 1);
    EXPECT_EQ(run.outOfBounds, 2);
    EXPECT_TRUE(run.outOfBoundsFailed);
    EXPECT_DOUBLE_EQ(run.avgBusbwGBs.value_or(0), 128.942);
    EXPECT_EQ(run.ranks, 8); // bytes = 8 x count x 4
    EXPECT_EQ(run.ranksSource, "bytes_per_count");
    EXPECT_TRUE(run.complete); // the footer is there and no process failed ...
    const auto* w = findingOf(run, "NCCL_TESTS_WRONG"); // ... but the data are wrong
    ASSERT_TRUE(w);
    EXPECT_EQ(w->severity, core::Severity::Error);
    EXPECT_NE(w->message.find("Out of bounds values : 2 FAILED"), std::string::npos) << w->message;
    EXPECT_EQ(w->where, "size 4294967296");
    EXPECT_FALSE(findingOf(run, "NCCL_TESTS_TRUNCATED"));
}

TEST(NcclTestsOutput, RTX2080TiSmallErrorsPassAndCutRowIsDropped)
{
    const auto run = parseFixture(k2080Ti);
    EXPECT_EQ(run.tool, "all_reduce_perf");
    ASSERT_EQ(run.rows.size(), 3u); // the 64-byte row is cut after its in-place time
    EXPECT_EQ(run.rows.back().bytes, 32u);
    ASSERT_TRUE(run.rows.front().outOfPlace.error);
    EXPECT_DOUBLE_EQ(*run.rows.front().outOfPlace.error, 1e-07);
    EXPECT_EQ(run.rows.front().outOfPlace.wrong, 0); // under 1e-5 x (4-1)
    EXPECT_DOUBLE_EQ(run.rows.front().inPlace.error.value_or(-1), 0.0);
    EXPECT_DOUBLE_EQ(run.rows.front().inPlace.timeUs, 62.08);
    EXPECT_EQ(run.ranks, 4);
    EXPECT_EQ(run.rankList[0].host, "gpu9");
    EXPECT_EQ(run.rankList[0].gpu, "NVIDIA GeForce RTX 2080 Ti");
    EXPECT_FALSE(findingOf(run, "NCCL_TESTS_WRONG"));
    EXPECT_FALSE(run.complete);
    const auto* t = findingOf(run, "NCCL_TESTS_TRUNCATED");
    ASSERT_TRUE(t);
    EXPECT_NE(t->message.find("32-byte row"), std::string::npos) << t->message;
    EXPECT_NE(t->message.find("cut row"), std::string::npos) << t->message;
}

TEST(NcclTestsOutput, MisbuiltBinaryDuplicatedHeaders)
{
    const auto run = parseFixture(kMisbuilt);
    EXPECT_EQ(run.tool, "all_reduce_perf"); // from the mpirun command line
    EXPECT_TRUE(run.rows.empty());
    ASSERT_EQ(run.rankList.size(), 2u);
    EXPECT_EQ(run.ranks, 1); // two single-rank jobs: Rank 0 twice
    EXPECT_EQ(run.rankList[1].host, "ip-172-31-22-230");
    const auto* d = findingOf(run, "NCCL_TESTS_DUPLICATED");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->severity, core::Severity::Warning);
    EXPECT_NE(d->message.find("MPI=1"), std::string::npos) << d->message;
    EXPECT_NE(d->message.find("Rank 0"), std::string::npos) << d->message;
    EXPECT_FALSE(findingOf(run, "NCCL_TESTS_SINGLE_RANK"));
    EXPECT_TRUE(findingOf(run, "NCCL_TESTS_TRUNCATED"));
    EXPECT_FALSE(run.complete);
    EXPECT_EQ(run.minBytes, 1310720000u);
    EXPECT_EQ(run.stepKind, "bytes");
}

TEST(NcclTestsOutput, BroadcastRootColumnAndNcclWarnLines)
{
    const auto run = parseFixture(kBroadcast);
    EXPECT_EQ(run.tool, "broadcast_perf");
    ASSERT_EQ(run.rows.size(), 1u);
    EXPECT_EQ(run.rows[0].bytes, 8u);
    EXPECT_EQ(run.rows[0].root, 0);
    EXPECT_EQ(run.rows[0].redop, "none");
    EXPECT_DOUBLE_EQ(run.rows[0].outOfPlace.timeUs, 45.82);
    EXPECT_DOUBLE_EQ(run.rows[0].inPlace.timeUs, 38.17);
    EXPECT_FALSE(run.rows[0].outOfPlace.wrong);
    EXPECT_EQ(run.ranks, 2);
    EXPECT_EQ(run.ncclVersion, "2.9.6+cuda11.2");
    EXPECT_EQ(run.warmupIters, 10);
    EXPECT_EQ(run.iters, 100);
    ASSERT_EQ(countCode(run, "NCCL_TESTS_RANK_FAILED"), 1u); // two WARN lines, one text
    const auto* w = findingOf(run, "NCCL_TESTS_RANK_FAILED");
    EXPECT_EQ(w->severity, core::Severity::Warning); // no failure follows it
    EXPECT_NE(w->message.find("libibverbs"), std::string::npos);
    EXPECT_NE(w->where.find("v100-gpu-5"), std::string::npos) << w->where;
    EXPECT_TRUE(findingOf(run, "NCCL_TESTS_VALIDATION_OFF"));
    EXPECT_TRUE(findingOf(run, "NCCL_TESTS_TRUNCATED"));
    EXPECT_FALSE(run.complete);

    // Without the command line the table still says broadcast: no redop column, a root, bytes = count x 4.
    const auto bare = parse(without(sharedFixture(kBroadcast), "mpirun"));
    EXPECT_EQ(bare.tool, "broadcast_perf");
    EXPECT_TRUE(anyContains(bare.warnings, "inferred from the table"));
}

TEST(NcclTestsOutput, AlltoallSingleGpuInPlaceNA)
{
    const auto run = parseFixture(kAlltoall);
    EXPECT_EQ(run.tool, "alltoall_perf"); // "sudo ./build/./alltoall_perf"
    ASSERT_EQ(run.rows.size(), 1u);
    const auto& row = run.rows[0];
    EXPECT_EQ(row.bytes, 33554432u);
    EXPECT_EQ(row.count, 8388608u);
    EXPECT_EQ(row.redop, "none");
    EXPECT_EQ(row.root, -1);
    EXPECT_DOUBLE_EQ(row.outOfPlace.algbwGBs, 1715.44);
    EXPECT_DOUBLE_EQ(row.outOfPlace.busbwGBs, 0.0);
    EXPECT_EQ(row.outOfPlace.wrong, 0);
    EXPECT_DOUBLE_EQ(row.inPlace.timeUs, 0.78);
    EXPECT_DOUBLE_EQ(row.inPlace.algbwGBs, 43046.10);
    EXPECT_FALSE(row.inPlace.wrong); // N/A
    EXPECT_EQ(run.ranks, 1);
    EXPECT_EQ(run.rankList[0].gpu, "NVIDIA GeForce RTX 5090");
    ASSERT_TRUE(run.avgBusbwGBs);
    EXPECT_DOUBLE_EQ(*run.avgBusbwGBs, 0.0);
    EXPECT_TRUE(run.complete);
    EXPECT_EQ(codes(run), std::vector<std::string> { "NCCL_TESTS_SINGLE_RANK" });
}

TEST(NcclTestsOutput, AlltoallWithoutItsNameIsAmbiguousUnlessHinted)
{
    const std::string text = without(sharedFixture(kAlltoall), "alltoall_perf");
    const auto run = parse(text);
    EXPECT_EQ(run.tool, "nccl-tests"); // all_gather and alltoall print the same table on 1 rank
    EXPECT_NE(std::find(run.toolCandidates.begin(), run.toolCandidates.end(), "alltoall_perf"), run.toolCandidates.end());
    EXPECT_NE(std::find(run.toolCandidates.begin(), run.toolCandidates.end(), "all_gather_perf"), run.toolCandidates.end());
    EXPECT_EQ(std::find(run.toolCandidates.begin(), run.toolCandidates.end(), "all_reduce_perf"), run.toolCandidates.end());
    EXPECT_TRUE(anyContains(run.warnings, "left as \"nccl-tests\""));
    EXPECT_EQ(parse(text, "alltoall").tool, "alltoall_perf");
    EXPECT_EQ(parse(text, "./build/alltoall_perf_mpi").tool, "alltoall_perf");
}

// ---------------------------------------------------------------------------------------------
// Streaming and truncation

TEST(NcclTestsOutput, StreamingRowsAppearInOrder)
{
    const auto all = lines(sharedFixture(kNebius));
    NcclTestsParser parser;
    std::vector<std::uint64_t> seen;
    bool recognisedBeforeTable = true;
    for (const auto& line : all) {
        if (line.find("out-of-place") != std::string::npos)
            recognisedBeforeTable = parser.recognised();
        const NcclTestsRow* row = parser.feed(line + "\r"); // CRLF tolerated
        if (row) {
            seen.push_back(row->bytes);
            EXPECT_EQ(parser.finish().rows.size(), seen.size());
        }
    }
    EXPECT_FALSE(recognisedBeforeTable); // the dstack transcript is no nccl-tests output
    EXPECT_TRUE(parser.recognised());
    ASSERT_EQ(seen.size(), 31u);
    for (std::size_t i = 0; i < seen.size(); ++i)
        EXPECT_EQ(seen[i], 8ull << i);
    const auto run = parser.finish();
    EXPECT_TRUE(run.complete);
    EXPECT_EQ(run.tool, "all_reduce_perf");
}

// mpirun forwards each rank's output in pieces that need not end at a line's end: another rank's
// NCCL line can land inside one of rank 0's rows, the row's rest following on the next line of
// rank 0's. Every row of a two-node output cut at every character that way reads as it was, line
// by line too, and the run says how many rows it put together; a row whose rest never comes is
// left out and said so. The host that begins NCCL's line is known from the rank lines (the DGX
// output) or not (the dstack transcript of two nodes has none).
TEST(NcclTestsOutput, ARowCutByAnotherRanksNcclLineIsPutTogether)
{
    for (const char* name : { kDgxH100, kNebius }) {
    const std::string text = sharedFixture(name);
    const auto all = lines(text);
    const auto whole = parse(text);
    ASSERT_GE(whole.rows.size(), 20u) << name;
    const std::string host = whole.rankList.empty() ? "gpu-node-2" : whole.rankList.back().host;
    const std::string foreign = host + ":21700:21700 [5] NCCL INFO comm 0x55d0a00d3400 rank 13 nranks 16 - Init COMPLETE";
    const std::string other = host + ":21698:21698 [4] NCCL INFO Connected all rings, use ring PXN 0 GDR 1";
    for (const std::size_t r : { std::size_t { 0 }, std::size_t { 17 }, whole.rows.size() - 1 }) {
        const std::string row = all[static_cast<std::size_t>(whole.rows[r].line - 1)];
        for (std::size_t cut = 1; cut <= row.size(); ++cut) {
            std::vector<std::string> dressed(all.begin(), all.begin() + whole.rows[r].line - 1);
            dressed.push_back(row.substr(0, cut) + foreign);
            dressed.push_back(other);
            dressed.push_back(row.substr(cut));
            dressed.insert(dressed.end(), all.begin() + whole.rows[r].line, all.end());
            NcclTestsParser parser;
            std::size_t streamed = 0;
            for (const auto& line : dressed)
                streamed += parser.feed(line) != nullptr;
            const auto run = parser.finish();
            const std::string where = std::string(name) + ": row " + std::to_string(r) + " cut at " + std::to_string(cut) + ": '" + row.substr(0, cut) + "'";
            EXPECT_EQ(streamed, whole.rows.size()) << where;
            ASSERT_EQ(run.rows.size(), whole.rows.size()) << where;
            EXPECT_EQ(run.rows[r].bytes, whole.rows[r].bytes) << where;
            EXPECT_EQ(run.rows[r].count, whole.rows[r].count) << where;
            EXPECT_DOUBLE_EQ(run.rows[r].outOfPlace.busbwGBs, whole.rows[r].outOfPlace.busbwGBs) << where;
            EXPECT_DOUBLE_EQ(run.rows[r].inPlace.busbwGBs, whole.rows[r].inPlace.busbwGBs) << where;
            EXPECT_EQ(run.rows[r].inPlace.wrong, whole.rows[r].inPlace.wrong) << where;
            const bool piece = row.find_first_not_of(' ') < cut; // a piece with more than blanks
            EXPECT_EQ(run.rows[r].line, whole.rows[r].line + (piece ? 0 : 2)) << where; // else the row is whole on its own line
            EXPECT_TRUE(run.complete) << where;
            const std::string said = "read 1 row that another rank's NCCL line had cut in two (mpirun forwards each rank's output in pieces; first: lines "
                + std::to_string(whole.rows[r].line) + " and " + std::to_string(whole.rows[r].line + 2) + ")";
            EXPECT_EQ(std::count(run.warnings.begin(), run.warnings.end(), said), piece ? 1 : 0) << where;
            for (const auto& w : run.warnings)
                EXPECT_TRUE(w == said || std::count(whole.warnings.begin(), whole.warnings.end(), w)) << where << ": " << w;
        }
    }
    }

    // The rest never comes: the next line of rank 0's is the footer.
    const std::string text = sharedFixture(kDgxH100);
    const auto all = lines(text);
    const auto whole = parse(text);
    const std::string foreign = whole.rankList.back().host + ":21700:21700 [5] NCCL INFO comm 0x55d0a00d3400 rank 13 nranks 16 - Init COMPLETE";
    const std::string row = all[static_cast<std::size_t>(whole.rows.back().line - 1)];
    std::vector<std::string> cutOff(all.begin(), all.begin() + whole.rows.back().line - 1);
    cutOff.push_back(row.substr(0, 40) + foreign);
    cutOff.insert(cutOff.end(), all.begin() + whole.rows.back().line, all.end());
    const auto lost = parse(join(cutOff));
    EXPECT_EQ(lost.rows.size(), whole.rows.size() - 1);
    EXPECT_TRUE(std::any_of(lost.warnings.begin(), lost.warnings.end(), [&](const std::string& w) {
        return w == "1 row was cut off by another rank's NCCL line and never went on (first: line " + std::to_string(whole.rows.back().line) + "); not read";
    })) << ::testing::PrintToString(lost.warnings);
}

TEST(NcclTestsOutput, StreamingCutLastLineGivesNoRow)
{
    NcclTestsParser parser("all_reduce_perf");
    for (const auto& line : lines(sharedFixture(kDgxH100))) {
        if (line.find("  8589934592") != std::string::npos) {
            // The tool dies while printing this row: every cut of it short of its end gives nothing.
            for (std::size_t cut = 1; cut < line.size(); ++cut) {
                NcclTestsParser probe = NcclTestsParser("all_reduce_perf");
                EXPECT_EQ(probe.feed(std::string_view(line).substr(0, cut)), nullptr) << "cut at " << cut;
            }
            EXPECT_EQ(parser.feed(std::string_view(line).substr(0, line.size() - 8)), nullptr);
            break;
        }
        parser.feed(line);
    }
    const auto run = parser.finish();
    ASSERT_EQ(run.rows.size(), 30u);
    EXPECT_EQ(run.rows.back().bytes, 4294967296u);
    EXPECT_FALSE(run.complete);
    const auto* t = findingOf(run, "NCCL_TESTS_TRUNCATED");
    ASSERT_TRUE(t);
    EXPECT_NE(t->message.find("4294967296-byte row"), std::string::npos) << t->message;
    EXPECT_NE(t->message.find("cut row"), std::string::npos) << t->message;
}

TEST(NcclTestsOutput, EveryCutOfARowGivesNoRow)
{
    // The first full row of each format (N/A, 0, the old "3e-08" error column), cut at every character.
    for (const char* name : { kAllReduceA100, k2080Ti, kDgxH100, kBroadcast, kAlltoall, kV100Failed }) {
        const auto all = lines(sharedFixture(name));
        std::size_t first = 0;
        {
            NcclTestsParser p;
            while (first < all.size() && !p.feed(all[first]))
                ++first;
        }
        ASSERT_LT(first, all.size()) << name;
        std::string row = all[first];
        while (!row.empty() && (row.back() == ' ' || row.back() == '\r'))
            row.pop_back();
        for (std::size_t cut = 0; cut < row.size(); ++cut) {
            NcclTestsParser p;
            for (std::size_t i = 0; i < first; ++i)
                p.feed(all[i]);
            const std::string_view part = std::string_view(row).substr(0, cut);
            // A cut between words leaves words out; a cut inside the last word leaves it malformed.
            EXPECT_EQ(p.feed(part), nullptr) << name << " cut at " << cut << " '" << part << "'";
        }
    }
}

TEST(NcclTestsOutput, CompleteOutputsCutAnywhere)
{
    for (const char* name : { kDgxH100, kNebius, kAllReduceA100, kAllGatherA100 }) {
        const std::string text = sharedFixture(name);
        const auto whole = parse(text);
        ASSERT_TRUE(whole.complete) << name;
        const std::size_t footer = text.find("Avg bus bandwidth");
        ASSERT_NE(footer, std::string::npos);
        // Where each row's text ends (its last column), in the whole text.
        std::vector<std::size_t> rowEnds;
        for (const auto& row : whole.rows) {
            std::size_t pos = 0;
            for (int l = 1; l < row.line; ++l)
                pos = text.find('\n', pos) + 1;
            std::size_t end = text.find('\n', pos);
            while (end > pos && (text[end - 1] == ' ' || text[end - 1] == '\r'))
                --end;
            rowEnds.push_back(end);
        }
        for (std::size_t cut = rowEnds.front() - 20; cut < footer; cut += 37) {
            const auto r = parseNcclTestsOutput(std::string_view(text).substr(0, cut));
            ASSERT_TRUE(r) << name << " cut at " << cut;
            const std::size_t expected = static_cast<std::size_t>(std::count_if(rowEnds.begin(), rowEnds.end(), [&](std::size_t e) { return e <= cut; }));
            ASSERT_EQ(r->rows.size(), expected) << name << " cut at " << cut;
            for (std::size_t i = 0; i < expected; ++i) {
                EXPECT_EQ(r->rows[i].bytes, whole.rows[i].bytes);
                EXPECT_DOUBLE_EQ(r->rows[i].inPlace.busbwGBs, whole.rows[i].inPlace.busbwGBs);
            }
            EXPECT_FALSE(r->complete) << name << " cut at " << cut;
            const auto* t = findingOf(*r, "NCCL_TESTS_TRUNCATED");
            ASSERT_TRUE(t) << name << " cut at " << cut;
            if (expected > 0) {
                EXPECT_NE(t->message.find(std::to_string(whole.rows[expected - 1].bytes) + "-byte row"), std::string::npos) << t->message;
            }
            // Early cuts may leave too little to tell the test (all_reduce and sendrecv print the same small rows).
            if (expected == 0) {
                EXPECT_EQ(r->tool, "nccl-tests") << name << " cut at " << cut; // nothing to tell it by
            } else if (r->tool != whole.tool) {
                EXPECT_EQ(r->tool, "nccl-tests") << name << " cut at " << cut;
                EXPECT_NE(std::find(r->toolCandidates.begin(), r->toolCandidates.end(), whole.tool), r->toolCandidates.end()) << name << " cut at " << cut;
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Dressings: labels, CRLF, tabs, stripped '#', no header

TEST(NcclTestsOutput, LabelsCrlfTabsAndStrippedHashesReadTheSame)
{
    const std::string text = sharedFixture(kDgxH100);
    const auto plain = parse(text);
    std::vector<std::string> srun, ompi, pdsh, stamped;
    std::string crlfTabsNoHash;
    for (const auto& l : lines(text)) {
        srun.push_back(" 0: " + l);
        ompi.push_back("[1,0]<stdout>:" + l);
        pdsh.push_back("node001: " + l);
        stamped.push_back("2025-06-01T12:00:00.123456789Z " + l);
        std::string t = std::regex_replace(l, std::regex("^#+"), "");
        t = std::regex_replace(t, std::regex("  +"), "\t");
        crlfTabsNoHash += t + "\r\n";
    }
    for (const std::string& variant : { join(srun), join(ompi), join(pdsh), join(stamped), crlfTabsNoHash }) {
        const auto run = parse(variant);
        ASSERT_EQ(run.rows.size(), plain.rows.size()) << variant.substr(0, 400);
        EXPECT_DOUBLE_EQ(run.rows.back().inPlace.busbwGBs, 479.99);
        EXPECT_EQ(run.ranks, 8);
        EXPECT_EQ(run.rankList[7].gpu, "NVIDIA H100 80GB HBM3");
        EXPECT_EQ(run.otherParams.at("direction"), "H2D");
        EXPECT_TRUE(run.complete);
        EXPECT_EQ(run.tool, "all_reduce_perf");
    }
}

TEST(NcclTestsOutput, RowsWithoutAnyHeaderLine)
{
    std::vector<std::string> rows;
    for (const auto& l : lines(sharedFixture(kNebius)))
        if (!l.empty() && std::isdigit(static_cast<unsigned char>(l.find_first_not_of(' ') == std::string::npos ? 'x' : l[l.find_first_not_of(' ')])))
            rows.push_back(l);
    ASSERT_EQ(rows.size(), 31u);
    const auto run = parse(join(rows));
    ASSERT_EQ(run.rows.size(), 31u);
    EXPECT_DOUBLE_EQ(run.rows.back().outOfPlace.busbwGBs, 467.54);
    EXPECT_EQ(run.rows.back().outOfPlace.wrong, 0);
    EXPECT_EQ(run.tool, "all_reduce_perf");
    EXPECT_TRUE(anyContains(run.warnings, "no table header"));
    EXPECT_TRUE(findingOf(run, "NCCL_TESTS_TRUNCATED"));
}

TEST(NcclTestsOutput, OldestFormatInMilliseconds)
{
    const std::string text = "nThread 1 nGpus 2 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n"
                             "# Using devices\n"
                             "#   Rank  0 on     node01 device  0 [0x06] Tesla P100-SXM2-16GB\n"
                             "#   Rank  1 on     node01 device  1 [0x07] Tesla P100-SXM2-16GB\n"
                             "#                                 out-of-place                    in-place\n"
                             "#      bytes             N    type      op     time  algbw  busbw      res     time  algbw  busbw      res\n"
                             "     1048576        262144   float     sum    0.120   8.74   8.74    0e+00    0.118   8.89   8.89    0e+00\n"
                             "     2097152        524288   float     sum    0.210   9.99   9.99    2e-01    0.205  10.23  10.23    0e+00\n"
                             " Out of bounds values : 1 FAILED\n"
                             " Avg bus bandwidth    : 9.4625 \n";
    const auto run = parse(text);
    ASSERT_EQ(run.rows.size(), 2u);
    EXPECT_NEAR(run.rows[0].outOfPlace.timeUs, 120.0, 1e-9);
    EXPECT_NEAR(run.rows[1].inPlace.timeUs, 205.0, 1e-9);
    EXPECT_EQ(run.rows[1].outOfPlace.wrong, 1);
    EXPECT_EQ(run.rows[1].inPlace.wrong, 0);
    EXPECT_EQ(run.ranks, 2);
    EXPECT_EQ(run.rankList[1].pid, -1);
    EXPECT_EQ(run.rankList[1].busId, "0x07");
    EXPECT_EQ(run.tool, "all_reduce_perf"); // 2 ranks: busbw = algbw = 2(2-1)/2
    EXPECT_TRUE(run.complete);
    EXPECT_TRUE(findingOf(run, "NCCL_TESTS_WRONG"));
}

TEST(NcclTestsOutput, PerIterationAndTimestampColumns)
{
    const std::string text =
        "# Collective test starting: all_reduce_perf\n"
        "#       size         count      type   redop    root     time   algbw   busbw #wrong    i_min    i_max    i_p99    i_cv%     time   algbw   busbw #wrong    i_min    i_max    i_p99    i_cv%           timestamp\n"
        "     1048576        262144     float     sum      -1    20.00   52.43   91.75      0    19.50    21.00    20.90     1.20    19.80   52.96   92.68      0    19.40    20.50    20.40     1.10 2025-06-01 12:00:00\n"
        "# Out of bounds values : 0 OK\n"
        "# Avg bus bandwidth    : 92.215 \n"
        "#\n"
        "# Collective test concluded: all_reduce_perf\n";
    const auto run = parse(text);
    ASSERT_EQ(run.rows.size(), 1u);
    EXPECT_DOUBLE_EQ(run.rows[0].inPlace.busbwGBs, 92.68);
    EXPECT_DOUBLE_EQ(run.rows[0].outOfPlace.iterP99Us.value_or(0), 20.90);
    EXPECT_DOUBLE_EQ(run.rows[0].inPlace.iterCvPct.value_or(0), 1.10);
    EXPECT_EQ(run.rows[0].timestamp, "2025-06-01 12:00:00");
    EXPECT_TRUE(run.complete);
    const auto j = toJson(run);
    EXPECT_DOUBLE_EQ(j["rows"][0]["out_of_place"]["iter_min_us"].get<double>(), 19.50);
}

TEST(NcclTestsOutput, CpuTimeColumnsAreSaidToBeHostTime)
{
    // nccl-tests 2.19.6, `-C 1` (util.cu writeResultHeader: "cputime" for "time").
    const std::string text =
        "# nccl-tests version 2.19.6 nccl-headers=22803 nccl-library=22803\n"
        "# Collective test starting: all_reduce_perf\n"
        "#\n"
        "#                                                              out-of-place                       in-place          \n"
        "#       size         count      type   redop    root  cputime   algbw   busbw  #wrong  cputime   algbw   busbw  #wrong \n"
        "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         \n"
        "     1048576        262144     float     sum      -1    31.40   33.39   58.44       0    30.95   33.88   59.29       0\n"
        "# Out of bounds values : 0 OK\n"
        "# Avg bus bandwidth    : 58.865 \n"
        "#\n"
        "# Collective test concluded: all_reduce_perf\n";
    const auto run = parse(text);
    ASSERT_EQ(run.rows.size(), 1u);
    EXPECT_TRUE(run.cpuTime);
    EXPECT_DOUBLE_EQ(run.rows[0].outOfPlace.timeUs, 31.40);
    EXPECT_TRUE(run.complete);
    EXPECT_EQ(toJson(run)["cpu_time"], true);
    EXPECT_FALSE(parse(sharedFixture(kLambda)).cpuTime);
    EXPECT_EQ(toJson(parse(sharedFixture(kLambda)))["cpu_time"], false);
}

TEST(NcclTestsOutput, ToolAndRanksInferredFromTheTable)
{
    // reduce_scatter: a reduction op, root -1, bytes = 8 x count x 4, busbw/algbw = 7/8.
    const std::string rs = "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong\n"
                           "   268435456       8388608     float     sum      -1   1500.0  178.96  156.59      0   1490.0  180.16  157.64      0\n";
    const auto r = parse(rs);
    EXPECT_EQ(r.tool, "reduce_scatter_perf");
    EXPECT_EQ(r.ranks, 8);
    EXPECT_EQ(r.ranksSource, "bytes_per_count");
    // The same numbers said to be all_reduce: kept (the caller knows), with a warning that they do not fit.
    const auto hinted = parse(rs, "all_reduce_perf");
    EXPECT_EQ(hinted.tool, "all_reduce_perf");
    EXPECT_TRUE(anyContains(hinted.warnings, "does not look like all_reduce_perf"));
    // A printed name wins over the hint.
    const auto lambda = parse(sharedFixture(kLambda), "all_gather_perf");
    EXPECT_EQ(lambda.tool, "all_reduce_perf");
    EXPECT_TRUE(anyContains(lambda.warnings, "as the caller said"));
}

// ---------------------------------------------------------------------------------------------
// Failures around the output

TEST(NcclTestsOutput, WrongCountInNewFormat)
{
    std::string text = sharedFixture(kDgxH100);
    const std::string row = "  1073741824     268435456     float     sum      -1   4029.4  266.48  466.33      0";
    ASSERT_NE(text.find(row), std::string::npos);
    text.replace(text.find(row), row.size(), "  1073741824     268435456     float     sum      -1   4029.4  266.48  466.33     17");
    text = replaceAll(text, "Out of bounds values : 0 OK", "Out of bounds values : 1 FAILED");
    const auto run = parse(text);
    EXPECT_EQ(run.rows[27].outOfPlace.wrong, 17);
    const auto* w = findingOf(run, "NCCL_TESTS_WRONG");
    ASSERT_TRUE(w);
    EXPECT_EQ(w->where, "size 1073741824");
    EXPECT_NE(w->message.find("#wrong 17"), std::string::npos) << w->message;
    EXPECT_TRUE(run.complete);
    EXPECT_TRUE(hasError(run));
}

TEST(NcclTestsOutput, MpirunKilledRankAfterTheFooter)
{
    const std::string text = sharedFixture(kDgxH100)
        + "--------------------------------------------------------------------------\n"
          "Primary job  terminated normally, but 1 process returned\n"
          "a non-zero exit code. Per user-direction, the job has been aborted.\n"
          "--------------------------------------------------------------------------\n"
          "mpirun noticed that process rank 3 with PID 0 on node pool0-01807 exited on signal 9 (Killed).\n";
    const auto run = parse(text);
    EXPECT_EQ(run.rows.size(), 32u);
    EXPECT_FALSE(run.complete);
    ASSERT_EQ(countCode(run, "NCCL_TESTS_RANK_FAILED"), 2u);
    bool killed = false;
    for (const auto& f : run.findings) {
        if (f.code != "NCCL_TESTS_RANK_FAILED")
            continue;
        EXPECT_EQ(f.severity, core::Severity::Error);
        if (f.message.find("signal 9") != std::string::npos) {
            killed = true;
            EXPECT_EQ(f.where, "rank 3 on pool0-01807");
            EXPECT_NE(f.message.find("out-of-memory"), std::string::npos);
        }
    }
    EXPECT_TRUE(killed);
}

TEST(NcclTestsOutput, NcclWarnFollowedByTestFailureIsAnError)
{
    std::string text;
    for (const auto& l : lines(sharedFixture(kDgxH100))) {
        text += l + "\n";
        if (l.find("  1048576") == 0 || l.find("     1048576") != std::string::npos) {
            text += "pool0-01806:1006102:1006300 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<45321> with status=12 opcode=0 len=0 vendor err 129 (Recv) localGid ::ffff:10.0.0.1 remoteGidsfe80::1 hca mlx5_3\n"
                    "pool0-01806:1006102:1006300 [0] NCCL INFO transport/net.cc:1302 -> 6\n"
                    "pool0-01806: Test NCCL failure common.cu:1009 'remote process exited or there was a network error / '\n"
                    " .. pool0-01806 pid 1006102: Test failure common.cu:891\n"
                    "srun: error: pool0-01806: task 0: Exited with exit code 3\n";
            break;
        }
    }
    const auto run = parse(text);
    EXPECT_EQ(run.rows.back().bytes, 1048576u);
    EXPECT_FALSE(run.complete);
    ASSERT_EQ(countCode(run, "NCCL_TESTS_RANK_FAILED"), 3u); // WARN, Test NCCL failure, srun (not the relay)
    for (const auto& f : run.findings) {
        if (f.code == "NCCL_TESTS_RANK_FAILED") {
            EXPECT_EQ(f.severity, core::Severity::Error) << f.message;
        }
    }
    EXPECT_TRUE(std::any_of(run.findings.begin(), run.findings.end(), [](const auto& f) {
        return f.message.find("status=12") != std::string::npos && f.message.find("likely cause") != std::string::npos;
    }));
    EXPECT_TRUE(std::any_of(run.findings.begin(), run.findings.end(), [](const auto& f) {
        return f.message.find("remote process exited") != std::string::npos && f.where == "pool0-01806";
    }));
    const auto* t = findingOf(run, "NCCL_TESTS_TRUNCATED");
    ASSERT_TRUE(t);
    EXPECT_NE(t->message.find("NCCL_TESTS_RANK_FAILED"), std::string::npos);
    // Findings come errors first.
    EXPECT_EQ(run.findings.front().severity, core::Severity::Error);
}

TEST(NcclTestsOutput, TwoSingleRankJobsInterleavedLineByLine)
{
    // A binary without MPI=1 under mpirun -np 2: each process prints a whole single-rank run.
    std::vector<std::string> job;
    for (const auto& l : lines(sharedFixture(kDgxH100))) {
        if (l.find("Rank  ") != std::string::npos && l.find("Rank  0") == std::string::npos)
            continue;
        if (l.rfind("# source:", 0) != 0)
            job.push_back(l);
    }
    std::string text;
    for (const auto& l : job)
        text += l + "\n" + replaceAll(l, "pool0-01806", "pool0-01807") + "\n";
    const auto run = parse(text);
    EXPECT_EQ(run.ranks, 1);
    EXPECT_EQ(run.rankList.size(), 2u);
    EXPECT_EQ(run.rows.size(), 64u); // both jobs' rows, as printed
    EXPECT_TRUE(run.complete);
    const auto* d = findingOf(run, "NCCL_TESTS_DUPLICATED");
    ASSERT_TRUE(d);
    EXPECT_NE(d->message.find("pool0-01807"), std::string::npos) << d->message;
    EXPECT_FALSE(findingOf(run, "NCCL_TESTS_SINGLE_RANK"));
}

TEST(NcclTestsOutput, UnterminatedLastLine)
{
    const std::string text = sharedFixture(kDgxH100);
    const std::string noFinalNewline = text.substr(0, text.find("# Avg bus bandwidth") + std::string("# Avg bus bandwidth    : 159.151").size());
    const auto complete = parse(noFinalNewline);
    EXPECT_TRUE(complete.complete); // a file without its last line end is fine
    EXPECT_FALSE(anyContains(complete.warnings, "may be cut"));
    const std::size_t lastRow = text.find(" 17179869184    4294967296");
    ASSERT_NE(lastRow, std::string::npos);
    const std::string cut = text.substr(0, lastRow + 40);
    const auto r = parse(cut);
    EXPECT_EQ(r.rows.size(), 31u);
    EXPECT_TRUE(anyContains(r.warnings, "may be cut"));
    NcclTestsParser parser;
    parser.feed("#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong");
    EXPECT_TRUE(parser.lastLineRead());
    EXPECT_FALSE(parser.feed("           8             2     float     sum      -1    13.67    0.00    0.00      0    13.03    0.00"));
    EXPECT_FALSE(parser.lastLineRead());
}

TEST(NcclTestsOutput, SecondRunAfterTheFooterIsNotMixedIn)
{
    const std::string text = sharedFixture(kDgxH100) + sharedFixture(kAllGatherA100);
    const auto run = parse(text);
    EXPECT_EQ(run.rows.size(), 32u);
    EXPECT_EQ(run.tool, "all_reduce_perf");
    EXPECT_TRUE(run.complete);
    EXPECT_TRUE(anyContains(run.warnings, "another run"));
    EXPECT_FALSE(findingOf(run, "NCCL_TESTS_DUPLICATED"));
}

// ---------------------------------------------------------------------------------------------
// Not nccl-tests output, and the JSON document

TEST(NcclTestsOutput, GarbageAndOtherToolsAreErrors)
{
    for (const std::string& text : { std::string(), std::string("# source: nothing\n\n"), std::string("hello world\n1 2 3\n"),
             std::string("\x01\x02\xff garbage \n\n\r\n") }) {
        const auto r = parseNcclTestsOutput(text);
        ASSERT_FALSE(r) << text;
        EXPECT_EQ(r.error().code, "TOOL_OUTPUT");
        EXPECT_EQ(r.error().message.rfind("nccl-tests: ", 0), 0u) << r.error().message;
    }
    EXPECT_NE(parseNcclTestsOutput("").error().message.find("empty"), std::string::npos);
    for (const char* other : { "perftest-ib_write_bw-ib-loopback-allsizes-interleaved.txt", "ibstat-4ca-cx4lx-roce-plus-cx6-hdr-ib-mixed-nccl-tests-350.txt",
             "nccl-debug-info-2node-roce-8rail-gdrdma-dmabuf-gid3-tc106-v2.27.5.txt", "nvidia-smi-topo-m-8xB200-NV18-16nic-2numa-complete-with-legend.txt" }) {
        const auto r = parseNcclTestsOutput(sharedFixture(other));
        ASSERT_FALSE(r) << other;
        EXPECT_EQ(r.error().code, "TOOL_OUTPUT");
        EXPECT_NE(r.error().message.find('\''), std::string::npos) << r.error().message; // quotes a line
    }
    NcclTestsParser parser;
    EXPECT_EQ(parser.feed("host:1:1 [0] NCCL INFO NCCL version 2.21.5+cuda12.4"), nullptr);
    EXPECT_FALSE(parser.recognised()); // NCCL's log is not nccl-tests output
}

TEST(NcclTestsOutput, JsonShape)
{
    const auto j = toJson(parseFixture(kDgxH100));
    EXPECT_EQ(j["tool"], "all_reduce_perf");
    EXPECT_EQ(j["ranks"], 8);
    EXPECT_EQ(j["complete"], true);
    ASSERT_EQ(j["rows"].size(), 32u);
    const auto& last = j["rows"][31];
    EXPECT_EQ(last["bytes"].get<std::uint64_t>(), 17179869184u);
    EXPECT_EQ(last["count"].get<std::uint64_t>(), 4294967296u);
    EXPECT_EQ(last["type"], "float");
    EXPECT_EQ(last["redop"], "sum");
    EXPECT_DOUBLE_EQ(last["out_of_place"]["time_us"].get<double>(), 62648);
    EXPECT_DOUBLE_EQ(last["out_of_place"]["algbw_gbs"].get<double>(), 274.23);
    EXPECT_DOUBLE_EQ(last["in_place"]["busbw_gbs"].get<double>(), 479.99);
    EXPECT_TRUE(last["in_place"]["wrong"].is_number_integer());
    EXPECT_EQ(last["in_place"]["wrong"], 0);
    EXPECT_FALSE(last["in_place"].contains("error"));
    EXPECT_DOUBLE_EQ(j["avg_busbw_gbs"].get<double>(), 159.151);
    EXPECT_TRUE(j["findings"].is_array());
    EXPECT_EQ(j["hosts"], nlohmann::json::array({ "pool0-01806" }));
    EXPECT_EQ(j["params"]["direction"], "H2D");

    const auto na = toJson(parseFixture(kAlltoall));
    EXPECT_TRUE(na["rows"][0]["in_place"]["wrong"].is_null());
    EXPECT_EQ(na["rows"][0]["out_of_place"]["wrong"], 0);
    EXPECT_EQ(na["findings"][0]["severity"], "info");
    EXPECT_EQ(na["findings"][0]["code"], "NCCL_TESTS_SINGLE_RANK");
    EXPECT_TRUE(na["findings"][0].contains("where"));
    EXPECT_TRUE(na["findings"][0].contains("message"));

    const auto old = toJson(parseFixture(kV100Failed));
    EXPECT_DOUBLE_EQ(old["rows"][0]["out_of_place"]["error"].get<double>(), 1.0);
    EXPECT_EQ(old["rows"][0]["out_of_place"]["wrong"], 1);
    EXPECT_EQ(old["out_of_bounds"], 2);
    EXPECT_EQ(old["findings"][0]["code"], "NCCL_TESTS_WRONG");
    EXPECT_EQ(old["findings"][0]["severity"], "error");

    const auto cut = toJson(parseFixture(kP5));
    EXPECT_EQ(cut["complete"], false);
    EXPECT_TRUE(cut["avg_busbw_gbs"].is_null());
    EXPECT_EQ(cut["ranks"], 16);
}

// Found by fuzz/fuzz_nccl_tests (fuzz/regressions/fuzz_nccl_tests/invalid-utf8-in-json-document):
// a byte that is not UTF-8 in a rank line's host name made the document's dump() throw, so
// `results import --json` failed with an internal error.
TEST(NcclTestsOutput, AByteThatIsNotUtf8StillGivesADocumentThatDumps)
{
    const std::string text = "#  Rank  0 Group  0 Pid 1006017 on h\xb9st device  0 [0x1b] NVIDIA H100 80GB HBM3\n"
        + sharedFixture(kDgxH100);
    auto run = parseNcclTestsOutput(text);
    ASSERT_TRUE(run.ok()) << run.error().toString();
    std::string dumped;
    ASSERT_NO_THROW(dumped = toJson(*run).dump(2));
    EXPECT_NE(dumped.find("h\xef\xbf\xbdst"), std::string::npos) << "the byte is shown as U+FFFD";
}
