// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The perftest output reader against every real perftest output in ../shared/fixtures (fed as
// stored, with their `# source:` line and prompt lines), plus outputs built from perftest's own
// formats for what the fixtures lack (failures, latency rows, MiB/sec, --report-both).
#include "live/common/perftest_output.h"
#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace railyard::live;
using namespace railyard::live::test;

namespace {

/// MiB/s as printed -> Gb/s: 2^20 * 8 / 10^9.
constexpr double kMiB = 0.008388608;

bool hasFinding(const PerftestRun& run, const std::string& code)
{
    return std::any_of(run.findings.begin(), run.findings.end(), [&](const railyard::core::Finding& f) { return f.code == code; });
}

const railyard::core::Finding* finding(const PerftestRun& run, const std::string& code)
{
    for (const auto& f : run.findings)
        if (f.code == code)
            return &f;
    return nullptr;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        out.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

std::string join(const std::vector<std::string>& ls)
{
    std::string out;
    for (const auto& l : ls)
        out += l + "\n";
    return out;
}

std::string trimLeft(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b);
}

const char* const kCudaClient = "perftest-ib_write_bw-cuda-dmabuf-roce-client-a-report_gbits.txt";

// A bandwidth client as perftest prints it (ctx_print_test_info, RESULT_FMT, REPORT_FMT), up to
// its results header; tests add rows and what follows.
const std::string kClientHead = R"(---------------------------------------------------------------------------------------
                    RDMA_Write BW Test
 Dual-port       : OFF		Device         : mlx5_3
 Number of qps   : 2		Transport type : IB
 Connection type : RC		Using SRQ      : OFF
 PCIe relax order: ON		Lock-free      : OFF
 ibv_wr* API     : ON		Using Enhanced Reorder      : OFF
 TX depth        : 128
 CQ Moderation   : 100
 CQE Poll Batch  : 16
 Mtu             : 4096[B]
 Link type       : IB
 Max inline data : 0[B]
 rdma_cm QPs	 : OFF
 Data ex. method : Ethernet
---------------------------------------------------------------------------------------
 local address: LID 0x21 QPN 0x0150 PSN 0x6e2b1f RKey 0x1fff00 VAddr 0x007f5e3a000000
 local address: LID 0x21 QPN 0x0151 PSN 0x2c4d1a RKey 0x1fff00 VAddr 0x007f5e3a800000
 remote address: LID 0x22 QPN 0x0160 PSN 0x9b0c44 RKey 0x1ffe00 VAddr 0x007f11c0000000
 remote address: LID 0x22 QPN 0x0161 PSN 0x1d3e77 RKey 0x1ffe00 VAddr 0x007f11c0800000
---------------------------------------------------------------------------------------
 #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]
)";

} // namespace

// ---------------------------------------------------------------------------------------------
// The fixtures

TEST(PerftestOutput, CudaDmabufRoceClientReportGbits)
{
    const auto r = parsePerftestOutput(sharedFixture(kCudaClient));
    ASSERT_TRUE(r) << r.error().message;
    const PerftestRun& run = *r;
    EXPECT_EQ(run.tool, "ib_write_bw");
    EXPECT_EQ(run.banner, "RDMA_Write BW Test");
    EXPECT_EQ(run.side, "client"); // " TX depth" without -b
    EXPECT_FALSE(run.bidirectional);
    EXPECT_EQ(run.device, "mlx5_0");
    EXPECT_EQ(run.ibPort, 1);
    EXPECT_EQ(run.linkType, "Ethernet");
    EXPECT_EQ(run.transport, "IB");
    ASSERT_TRUE(run.gidIndex.has_value());
    EXPECT_EQ(*run.gidIndex, 5);
    EXPECT_EQ(run.qps, 1);
    EXPECT_EQ(run.connection, "RC");
    EXPECT_EQ(run.mtu, 1024);
    EXPECT_EQ(run.txDepth, 128);
    EXPECT_EQ(run.cqModeration, 100);
    EXPECT_EQ(run.maxInlineData, 0);
    EXPECT_EQ(run.units, "Gb/sec");
    EXPECT_FALSE(run.cuda()); // this copy shows no CUDA line and no command
    EXPECT_FALSE(run.rdmaCm);
    EXPECT_TRUE(run.peakMeasured);
    ASSERT_TRUE(run.local && run.remote);
    EXPECT_EQ(run.local->lid, "0000");
    EXPECT_EQ(run.local->qpn, "0x01ac");
    EXPECT_EQ(run.local->psn, "0xc76db1");
    EXPECT_EQ(run.local->rkey, "0x23beb2");
    EXPECT_EQ(run.local->vaddr, "0x007f26a2c8b000");
    EXPECT_EQ(run.local->gid, "00:00:00:00:00:00:00:00:00:00:255:255:192:168:02:226");
    EXPECT_EQ(run.remote->qpn, "0x01a9");
    EXPECT_EQ(run.remote->gid, "00:00:00:00:00:00:00:00:00:00:255:255:192:168:02:225");
    ASSERT_EQ(run.bwRows.size(), 23u);
    std::uint64_t bytes = 2;
    for (const auto& row : run.bwRows) {
        EXPECT_EQ(row.bytes, bytes);
        EXPECT_EQ(row.iterations, 5000u);
        bytes *= 2;
    }
    EXPECT_DOUBLE_EQ(run.bwRows[0].bwPeakGbps, 0.11); // Gb/sec stays
    EXPECT_DOUBLE_EQ(run.bwRows[0].bwAverageGbps, 0.11);
    EXPECT_DOUBLE_EQ(run.bwRows[0].msgRateMpps, 6.897101);
    EXPECT_EQ(run.bwRows[15].bytes, 65536u);
    EXPECT_DOUBLE_EQ(run.bwRows[15].bwPeakGbps, 92.39);
    EXPECT_DOUBLE_EQ(run.bwRows[15].bwAverageGbps, 92.38);
    EXPECT_DOUBLE_EQ(run.bwRows[15].msgRateMpps, 0.176196);
    EXPECT_DOUBLE_EQ(run.bwRows.back().bwAverageGbps, 92.39);
    EXPECT_EQ(run.bwRows.back().line, 46);
    EXPECT_TRUE(run.complete);
    EXPECT_FALSE(run.failed);
    EXPECT_TRUE(run.findings.empty()) << run.findings.front().message;
    EXPECT_TRUE(run.warnings.empty()) << run.warnings.front();
}

// perftest 25.01 prints the dma-buf registration of GPU memory before the header.
TEST(PerftestOutput, DmabufRegistrationLineIsEvidenceOfCudaDmabuf)
{
    std::string text = sharedFixture(kCudaClient);
    const auto at = text.find("---");
    ASSERT_NE(at, std::string::npos);
    text.insert(at, "Calling ibv_reg_dmabuf_mr(offset=0, size=16777216, addr=0x7f1c40000000, fd=43) for QP #0\n");
    const auto r = parsePerftestOutput(text);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_TRUE(r->cuda());
    EXPECT_TRUE(r->gpuDmabuf);
    EXPECT_TRUE(r->complete);
    EXPECT_TRUE(r->warnings.empty()) << r->warnings.front();
}

TEST(PerftestOutput, ServerThatOnlyWaitsIsRecognisedAndIncomplete)
{
    const auto r = parsePerftestOutput(sharedFixture("perftest-ib_write_bw-cuda-dmabuf-roce-server-waiting.txt"));
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->side, "server");
    EXPECT_EQ(r->tool, ""); // nothing names the test
    EXPECT_FALSE(r->complete);
    EXPECT_TRUE(r->bwRows.empty());
    ASSERT_EQ(r->findings.size(), 1u);
    EXPECT_EQ(r->findings[0].code, "PERFTEST_WAITING");
    EXPECT_EQ(r->findings[0].severity, railyard::core::Severity::Error);
    EXPECT_NE(r->findings[0].message.find("no client connected"), std::string::npos) << r->findings[0].message;
    EXPECT_FALSE(hasFinding(*r, "PERFTEST_TRUNCATED"));
}

TEST(PerftestOutput, RdmaCmSixteenQpDurationServerWithCudaDmabuf)
{
    const auto r = parsePerftestOutput(sharedFixture("perftest-ib_write_bw-cuda-roce-rdmacm-16qp-duration-server.txt"));
    ASSERT_TRUE(r) << r.error().message;
    const PerftestRun& run = *r;
    EXPECT_EQ(run.tool, "ib_write_bw");
    EXPECT_EQ(run.side, "server"); // no host in the command; rdma_cm "Waiting for client" block
    EXPECT_EQ(run.device, "mlx5_1");
    EXPECT_EQ(run.qps, 16);
    EXPECT_EQ(run.gidIndex, 3);
    EXPECT_EQ(run.linkType, "Ethernet");
    EXPECT_EQ(run.mtu, 1024); // "Changing to active mtu": -m 4096 was not taken
    EXPECT_EQ(run.tos, 41);
    EXPECT_TRUE(run.rdmaCm);
    EXPECT_TRUE(run.cuda());
    EXPECT_TRUE(run.gpuDmabuf);
    EXPECT_EQ(run.gpuDevice, 0);
    EXPECT_EQ(run.gpuName, "NVIDIA A40");
    EXPECT_FALSE(run.txDepth.has_value());
    EXPECT_FALSE(run.peakMeasured);
    EXPECT_EQ(run.units, "Gb/sec");
    EXPECT_EQ(run.localEndpoints.size(), 16u);
    EXPECT_EQ(run.remoteEndpoints.size(), 16u);
    EXPECT_EQ(run.localEndpoints[4].qpn, "0x00cb");
    EXPECT_EQ(run.remoteEndpoints[15].qpn, "0x00d5");
    EXPECT_EQ(run.remoteEndpoints[15].gid, "00:00:00:00:00:00:00:00:00:00:255:255:10:06:145:33");
    EXPECT_TRUE(run.localEndpoints[0].rkey.empty()); // rdma_cm prints no RKey
    ASSERT_EQ(run.bwRows.size(), 1u);
    EXPECT_EQ(run.bwRows[0].bytes, 65536u);
    EXPECT_EQ(run.bwRows[0].iterations, 10384867u);
    EXPECT_DOUBLE_EQ(run.bwRows[0].bwPeakGbps, 0.0);
    EXPECT_DOUBLE_EQ(run.bwRows[0].bwAverageGbps, 181.46);
    EXPECT_DOUBLE_EQ(run.bwRows[0].msgRateMpps, 0.3461);
    EXPECT_TRUE(run.complete);
    EXPECT_TRUE(run.findings.empty()) << run.findings.front().message;
    EXPECT_TRUE(anyContains(run.warnings, "BW peak won't be measured"));
    EXPECT_TRUE(anyContains(run.warnings, "Requested mtu is higher than active mtu"));
    EXPECT_NE(run.command.find("--use_cuda_dmabuf"), std::string::npos);
}

TEST(PerftestOutput, BidirectionalRocmReportGbitsWithSixDecimalRow)
{
    const auto r = parsePerftestOutput(sharedFixture("perftest-ib_write_bw-bidir-roce-rocm-a-report_gbits.txt"));
    ASSERT_TRUE(r) << r.error().message;
    const PerftestRun& run = *r;
    EXPECT_EQ(run.tool, "ib_write_bw");
    EXPECT_EQ(run.banner, "RDMA_Write Bidirectional BW Test");
    EXPECT_TRUE(run.bidirectional);
    EXPECT_EQ(run.side, "client"); // the invocation that is not sent to /dev/null has "localhost"
    EXPECT_EQ(run.device, "<RDMA-NIC-2>");
    EXPECT_EQ(run.linkType, "Ethernet");
    EXPECT_EQ(run.gidIndex, 3);
    EXPECT_EQ(run.qps, 1);
    EXPECT_EQ(run.gpuMemory, GpuMemory::Rocm);
    EXPECT_FALSE(run.cuda());
    EXPECT_EQ(run.units, "Gb/sec");
    ASSERT_EQ(run.bwRows.size(), 23u);
    EXPECT_EQ(run.bwRows[0].bytes, 2u);
    EXPECT_DOUBLE_EQ(run.bwRows[0].bwPeakGbps, 0.142947);
    EXPECT_DOUBLE_EQ(run.bwRows[0].bwAverageGbps, 0.012281);
    EXPECT_DOUBLE_EQ(run.bwRows[0].msgRateMpps, 0.767588);
    EXPECT_EQ(run.bwRows[18].bytes, 524288u);
    EXPECT_DOUBLE_EQ(run.bwRows[18].bwAverageGbps, 204.56); // the sum of both directions, as printed
    EXPECT_DOUBLE_EQ(run.bwRows.back().bwPeakGbps, 204.59);
    EXPECT_TRUE(run.complete);
    EXPECT_TRUE(run.findings.empty());
    EXPECT_EQ(run.local->gid, "00:00:00:00:00:00:00:00:00:00:255:255:01:01:101:45");
}

TEST(PerftestOutput, Loopback8MServerAndClientInterleaved)
{
    const std::string text = sharedFixture("perftest-ib_write_bw-ib-loopback-8M-server-client-interleaved.txt");
    const auto all = parsePerftestOutputs(text);
    ASSERT_TRUE(all) << all.error().message;
    ASSERT_EQ(all->size(), 2u);
    const PerftestRun& client = (*all)[0];
    const PerftestRun& server = (*all)[1];
    EXPECT_EQ(client.side, "client");
    EXPECT_EQ(server.side, "server");
    for (const PerftestRun* run : { &client, &server }) {
        EXPECT_EQ(run->tool, "ib_write_bw");
        EXPECT_EQ(run->device, "ib0");
        EXPECT_EQ(run->linkType, "IB");
        EXPECT_FALSE(run->gidIndex.has_value());
        EXPECT_EQ(run->units, "MB/sec");
        ASSERT_EQ(run->bwRows.size(), 1u);
        EXPECT_EQ(run->bwRows[0].bytes, 8388608u);
        EXPECT_EQ(run->bwRows[0].iterations, 20000u);
        EXPECT_NEAR(run->bwRows[0].bwPeakGbps, 24056.74 * kMiB, 1e-9);
        EXPECT_NEAR(run->bwRows[0].bwAverageGbps, 201.80239384576, 1e-9); // 24056.72 MiB/s
        EXPECT_DOUBLE_EQ(run->bwRows[0].msgRateMpps, 0.003007);
        EXPECT_TRUE(run->complete);
        EXPECT_TRUE(run->findings.empty());
    }
    EXPECT_EQ(client.txDepth, 128);
    EXPECT_FALSE(server.txDepth.has_value());
    // Each side's local QP is the other's remote one.
    EXPECT_EQ(client.local->qpn, "0x095f");
    EXPECT_EQ(server.local->qpn, "0x095e");
    EXPECT_EQ(client.remote->qpn, server.local->qpn);
    EXPECT_EQ(server.remote->qpn, client.local->qpn);
    EXPECT_EQ(client.local->lid, "0xd06");

    const auto one = parsePerftestOutput(text);
    ASSERT_TRUE(one);
    EXPECT_EQ(one->side, "client");
    EXPECT_TRUE(anyContains(one->warnings, "2 perftest runs"));
}

TEST(PerftestOutput, LoopbackAllSizesShuffledHeaders)
{
    const auto all = parsePerftestOutputs(sharedFixture("perftest-ib_write_bw-ib-loopback-allsizes-interleaved.txt"));
    ASSERT_TRUE(all) << all.error().message;
    ASSERT_EQ(all->size(), 2u);
    const PerftestRun& client = (*all)[0];
    const PerftestRun& server = (*all)[1];
    EXPECT_EQ(client.side, "client");
    EXPECT_EQ(server.side, "server");
    EXPECT_EQ(client.settings.at("CQ Moderation"), "100");
    EXPECT_EQ(server.settings.at("ibv_wr* API"), "ON");
    ASSERT_EQ(client.bwRows.size(), 23u);
    for (std::size_t i = 0; i < client.bwRows.size(); ++i) {
        EXPECT_EQ(client.bwRows[i].bytes, std::uint64_t { 2 } << i);
        EXPECT_EQ(client.bwRows[i].iterations, 2000u);
    }
    EXPECT_EQ(client.bwRows[11].bytes, 4096u);
    EXPECT_NEAR(client.bwRows[11].bwPeakGbps, 84.17146044416, 1e-9); // 10034.02 MiB/s
    EXPECT_NEAR(client.bwRows[11].bwAverageGbps, 9948.41 * kMiB, 1e-9);
    EXPECT_DOUBLE_EQ(client.bwRows[11].msgRateMpps, 2.546793);
    // The server prints the client's last report once, after the client's table.
    ASSERT_EQ(server.bwRows.size(), 1u);
    EXPECT_EQ(server.bwRows[0].bytes, 8388608u);
    EXPECT_NEAR(server.bwRows[0].bwAverageGbps, 194.95695417344, 1e-9);
    EXPECT_TRUE(client.complete);
    EXPECT_TRUE(server.complete);
    EXPECT_EQ(client.local->qpn, "0x092f");
    EXPECT_EQ(client.remote->qpn, "0x092e");
    EXPECT_EQ(server.local->qpn, client.remote->qpn);
    EXPECT_EQ(server.remote->qpn, client.local->qpn);
}

TEST(PerftestOutput, ReadBwPartialDropsTheCutRow)
{
    const auto r = parsePerftestOutput(sharedFixture("perftest-ib_read_bw-ib-mlx5-a-client-PARTIAL.txt"));
    ASSERT_TRUE(r) << r.error().message;
    const PerftestRun& run = *r;
    EXPECT_EQ(run.tool, "ib_read_bw");
    EXPECT_EQ(run.side, "client"); // "ib_read_bw  cn2 ..."
    EXPECT_EQ(run.device, "mlx5_1");
    EXPECT_EQ(run.linkType, "IB");
    EXPECT_FALSE(run.gidIndex.has_value());
    EXPECT_EQ(run.outstandingReads, 16);
    EXPECT_EQ(run.mtu, 4096);
    EXPECT_EQ(run.local->lid, "0x06");
    EXPECT_EQ(run.local->outReads, "0x10");
    EXPECT_EQ(run.remote->qpn, "0x0d24");
    // The excerpt ends mid-row: "2.5525" is cut (perftest prints six decimals), so 3 rows.
    ASSERT_EQ(run.bwRows.size(), 3u);
    EXPECT_EQ(run.bwRows[0].bytes, 2u);
    EXPECT_EQ(run.bwRows[0].iterations, 1000u);
    EXPECT_NEAR(run.bwRows[0].bwPeakGbps, 0.04076863488, 1e-12); // 4.86 MiB/s
    EXPECT_NEAR(run.bwRows[0].bwAverageGbps, 4.67 * kMiB, 1e-12);
    EXPECT_EQ(run.bwRows[2].bytes, 8u);
    EXPECT_FALSE(run.complete);
    const auto* f = finding(run, "PERFTEST_TRUNCATED");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->severity, railyard::core::Severity::Error);
    EXPECT_NE(f->message.find("after the 8-byte row"), std::string::npos) << f->message;
    EXPECT_NE(f->message.find("is cut"), std::string::npos) << f->message;
    EXPECT_TRUE(anyContains(run.warnings, "2.5525"));
}

TEST(PerftestOutput, WriteLatServerEndsInsideTheResultsHeader)
{
    const auto r = parsePerftestOutput(sharedFixture("perftest-ib_write_lat-roce-mlx4-server-cycles-PARTIAL.txt"));
    ASSERT_TRUE(r) << r.error().message;
    const PerftestRun& run = *r;
    EXPECT_EQ(run.tool, "ib_write_lat");
    EXPECT_EQ(run.side, "server");
    EXPECT_EQ(run.device, "mlx4_0");
    EXPECT_EQ(run.linkType, "Ethernet");
    EXPECT_EQ(run.gidIndex, 1);
    EXPECT_EQ(run.maxInlineData, 220);
    EXPECT_EQ(run.latencyUnit, "cycles"); // -C
    EXPECT_TRUE(run.latRows.empty());
    EXPECT_TRUE(run.bwRows.empty());
    EXPECT_FALSE(run.complete);
    const auto* f = finding(run, "PERFTEST_TRUNCATED");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->message.find("inside the results header"), std::string::npos) << f->message;
    EXPECT_FALSE(hasFinding(run, "PERFTEST_WAITING")); // the client did connect
    EXPECT_TRUE(anyContains(run.warnings, "Requested SQ size might be too big"));
}

// ---------------------------------------------------------------------------------------------
// Streaming and cut outputs

TEST(PerftestOutput, StreamingReportsEachRowWhenItsLineArrives)
{
    const auto ls = lines(sharedFixture(kCudaClient));
    PerftestParser parser;
    EXPECT_FALSE(parser.recognised());
    std::vector<std::uint64_t> seen;
    for (std::size_t i = 0; i < ls.size(); ++i) {
        const PerftestFeed f = parser.feed(ls[i]);
        const bool rowLine = i >= 23 && i <= 45; // lines 24..46 of the file
        EXPECT_EQ(static_cast<bool>(f), rowLine) << "line " << i + 1 << ": " << ls[i];
        if (f) {
            ASSERT_NE(f.bwRow, nullptr);
            EXPECT_EQ(f.latRow, nullptr);
            EXPECT_EQ(f.bwRow->line, static_cast<int>(i + 1));
            seen.push_back(f.bwRow->bytes);
        }
        if (i == 2) {
            EXPECT_TRUE(parser.recognised()); // the banner
        }
    }
    ASSERT_EQ(seen.size(), 23u);
    EXPECT_EQ(seen.front(), 2u);
    EXPECT_EQ(seen.back(), 8388608u);
    const PerftestRun run = parser.finish();
    EXPECT_TRUE(run.complete);
    EXPECT_EQ(run.bwRows.size(), 23u);
}

TEST(PerftestOutput, StreamingTwoProcessesNamesTheRunOfEachRow)
{
    PerftestParser parser;
    std::vector<std::size_t> runOfRow;
    for (const auto& l : lines(sharedFixture("perftest-ib_write_bw-ib-loopback-allsizes-interleaved.txt")))
        if (const auto f = parser.feed(l))
            runOfRow.push_back(f.run);
    ASSERT_EQ(runOfRow.size(), 24u);
    EXPECT_EQ(std::count(runOfRow.begin(), runOfRow.end(), 0u), 23);
    EXPECT_EQ(runOfRow.back(), 1u);
    EXPECT_EQ(parser.runCount(), 2u);
}

TEST(PerftestOutput, CutAtEveryByteNeverYieldsABogusRow)
{
    const std::string text = sharedFixture(kCudaClient);
    const auto full = parsePerftestOutput(text);
    ASSERT_TRUE(full);
    // Where each row line's text ends, where the banner line ends, where the closing line ends.
    std::vector<std::size_t> rowEnds;
    std::size_t bannerEnd = 0;
    std::size_t closingEnd = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const auto end = text.find('\n', pos);
        const std::string l = text.substr(pos, end - pos);
        const std::string t = trimLeft(l);
        if (!t.empty() && std::isdigit(static_cast<unsigned char>(t[0])))
            rowEnds.push_back(end);
        if (t.find("RDMA_Write BW Test") == 0)
            bannerEnd = end;
        if (!rowEnds.empty() && t.find("----") == 0 && closingEnd == 0) {
            closingEnd = end;
            ASSERT_EQ(t.size(), 87u);
        }
        pos = end + 1;
    }
    ASSERT_EQ(rowEnds.size(), 23u);
    ASSERT_GT(bannerEnd, 0u);
    ASSERT_GT(closingEnd, 0u);
    for (std::size_t cut = 0; cut <= text.size(); ++cut) {
        const auto r = parsePerftestOutput(std::string_view(text).substr(0, cut));
        ASSERT_EQ(static_cast<bool>(r), cut > bannerEnd) << "cut at " << cut;
        if (!r) {
            EXPECT_EQ(r.error().code, "TOOL_OUTPUT");
            continue;
        }
        const std::size_t expected = static_cast<std::size_t>(std::count_if(rowEnds.begin(), rowEnds.end(), [&](std::size_t e) { return e <= cut; }));
        ASSERT_EQ(r->bwRows.size(), expected) << "cut at " << cut;
        for (std::size_t i = 0; i < expected; ++i) {
            EXPECT_EQ(r->bwRows[i].bytes, full->bwRows[i].bytes);
            EXPECT_DOUBLE_EQ(r->bwRows[i].bwAverageGbps, full->bwRows[i].bwAverageGbps);
            EXPECT_DOUBLE_EQ(r->bwRows[i].msgRateMpps, full->bwRows[i].msgRateMpps);
        }
        EXPECT_EQ(r->complete, cut >= closingEnd) << "cut at " << cut;
        if (!r->complete) {
            EXPECT_TRUE(hasFinding(*r, "PERFTEST_TRUNCATED")) << "cut at " << cut;
        } else {
            EXPECT_TRUE(r->findings.empty()) << "cut at " << cut;
        }
    }
}

TEST(PerftestOutput, TruncationFindingSaysWhere)
{
    const auto ls = lines(sharedFixture(kCudaClient));
    const auto at = [&](std::size_t n) {
        const auto r = parsePerftestOutput(join(std::vector<std::string>(ls.begin(), ls.begin() + static_cast<std::ptrdiff_t>(n))));
        EXPECT_TRUE(r);
        const auto* f = r ? finding(*r, "PERFTEST_TRUNCATED") : nullptr;
        return f ? f->message : std::string("(no PERFTEST_TRUNCATED)");
    };
    EXPECT_NE(at(8).find("inside the test settings"), std::string::npos) << at(8);
    EXPECT_NE(at(19).find("after the connection was set up"), std::string::npos) << at(19);
    EXPECT_NE(at(23).find("after the results header, before the first row"), std::string::npos) << at(23);
    EXPECT_NE(at(34).find("after the 2048-byte row (11 rows)"), std::string::npos) << at(34);
    EXPECT_NE(at(46).find("after the 8388608-byte row (23 rows)"), std::string::npos) << at(46);
    EXPECT_EQ(at(47), "(no PERFTEST_TRUNCATED)");
}

// ---------------------------------------------------------------------------------------------
// Tolerance

TEST(PerftestOutput, CrlfTabsSpacesAndForeignLinesReadTheSame)
{
    const std::string text = sharedFixture(kCudaClient);
    const auto clean = parsePerftestOutput(text);
    ASSERT_TRUE(clean);
    std::vector<std::string> ls = lines(text);
    std::vector<std::string> mangled;
    for (std::size_t i = 0; i < ls.size(); ++i) {
        std::string l = ls[i];
        if (i % 3 == 0)
            l = trimLeft(l); // a publisher stripped the indentation
        else if (i % 3 == 1)
            l = "\t " + l; // and another added some
        for (auto& c : l)
            if (c == ' ' && i % 2 == 0 && &c != &l.front())
                c = '\t';
        mangled.push_back(l + "\r");
        if (i == 25)
            mangled.push_back("srun: Job step 4242.0 created\r");
        if (i == 30)
            mangled.push_back(" Conflicting CPU frequency values detected: 2900.000000 != 3500.000000. CPU Frequency is not max.\r");
    }
    const auto r = parsePerftestOutput(join(mangled));
    ASSERT_TRUE(r) << r.error().message;
    ASSERT_EQ(r->bwRows.size(), clean->bwRows.size());
    for (std::size_t i = 0; i < r->bwRows.size(); ++i) {
        EXPECT_EQ(r->bwRows[i].bytes, clean->bwRows[i].bytes);
        EXPECT_DOUBLE_EQ(r->bwRows[i].bwPeakGbps, clean->bwRows[i].bwPeakGbps);
    }
    EXPECT_EQ(r->device, "mlx5_0");
    EXPECT_EQ(r->gidIndex, 5);
    EXPECT_EQ(r->side, "client");
    EXPECT_EQ(r->local->gid, clean->local->gid);
    EXPECT_TRUE(r->complete);
    EXPECT_TRUE(r->findings.empty());
    EXPECT_TRUE(anyContains(r->warnings, "srun: Job step"));
    EXPECT_TRUE(anyContains(r->warnings, "Conflicting CPU frequency"));
}

TEST(PerftestOutput, GarbageIsAnError)
{
    for (const std::string& text : { std::string(), std::string("\n\n"), std::string("hello world\n1 2 3\nfoo: bar\n"),
             std::string("Failed to open something\nError: no\n"), sharedFixture("nccl-allreduce-2node-16xH100-ib-nebius-dstack.txt"),
             sharedFixture("ibstat-cx7-ndr-400-ib-h20-PARTIAL.txt") }) {
        const auto r = parsePerftestOutput(text);
        ASSERT_FALSE(r) << text.substr(0, 80);
        EXPECT_EQ(r.error().code, "TOOL_OUTPUT");
        const auto all = parsePerftestOutputs(text);
        ASSERT_FALSE(all);
        EXPECT_EQ(all.error().code, "TOOL_OUTPUT");
    }
    PerftestParser parser;
    parser.feed("nothing here");
    EXPECT_FALSE(parser.recognised());
    EXPECT_TRUE(parser.finish().tool.empty());
}

// ---------------------------------------------------------------------------------------------
// Failures (perftest's own messages)

TEST(PerftestOutput, ClientThatCannotConnect)
{
    const auto r = parsePerftestOutput("$ ib_write_bw -d mlx5_0 -x 3 -q 4 10.0.0.2\n"
                                       "Couldn't connect to 10.0.0.2:18515\n"
                                       "Unable to open file descriptor for socket connection Unable to init the socket connection\n");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->tool, "ib_write_bw");
    EXPECT_EQ(r->side, "client");
    EXPECT_EQ(r->device, "mlx5_0"); // from the command: no header was printed
    EXPECT_EQ(r->gidIndex, 3);
    EXPECT_EQ(r->qps, 4);
    EXPECT_FALSE(r->complete);
    EXPECT_TRUE(r->failed);
    ASSERT_EQ(r->findings.size(), 1u);
    EXPECT_EQ(r->findings[0].code, "PERFTEST_FAILED");
    EXPECT_EQ(r->findings[0].severity, railyard::core::Severity::Error);
    EXPECT_NE(r->findings[0].message.find("could not connect to the server at 10.0.0.2:18515"), std::string::npos)
        << r->findings[0].message;
    EXPECT_NE(r->findings[0].message.find("start the server side first"), std::string::npos);
    EXPECT_EQ(r->findings[0].where, "line 2");
    // Without the command line, "Couldn't connect to" alone still makes a (client) run.
    const auto bare = parsePerftestOutput("Couldn't connect to node7:18515\n");
    ASSERT_TRUE(bare);
    EXPECT_EQ(bare->side, "client");
    EXPECT_TRUE(hasFinding(*bare, "PERFTEST_FAILED"));
}

TEST(PerftestOutput, CompletionErrorNamesTheStatus)
{
    struct Case {
        std::string line;
        int status;
        std::string name;
    };
    for (const auto& c : { Case { " Failed status 12: wr_id 0 syndrom 0x81", 12, "transport retry counter exceeded" },
             Case { " Failed status-Work Request Flushed Error (5): wr_id 3 syndrom 0xf9", 5, "Work Request Flushed Error" },
             Case { "Failed status transport retry counter exceeded: 12", 12, "transport retry counter exceeded" },
             Case { " Failed status 4: wr_id 0 syndrom 0x0", 4, "local protection error" } }) {
        const std::string text = kClientHead + " 65536      5000             46000.00            45990.12\t\t     0.735842\n"
            + " Completion with error at client\n" + c.line + "\n" + "scnt=128, ccnt=0\n"
            + " Failed to complete run_iter_bw function successfully\n";
        const auto r = parsePerftestOutput(text);
        ASSERT_TRUE(r) << r.error().message;
        EXPECT_EQ(r->side, "client");
        EXPECT_EQ(r->bwRows.size(), 1u);
        EXPECT_FALSE(r->complete);
        EXPECT_TRUE(r->failed);
        ASSERT_EQ(r->findings.size(), 1u) << c.line; // one burst, one finding; no PERFTEST_TRUNCATED
        const auto& f = r->findings[0];
        EXPECT_EQ(f.code, "PERFTEST_FAILED");
        EXPECT_NE(f.message.find("status " + std::to_string(c.status) + " (" + c.name + ")"), std::string::npos) << f.message;
        EXPECT_NE(f.message.find("after the 65536-byte row"), std::string::npos) << f.message;
        EXPECT_NE(f.message.find("ib_write_bw client"), std::string::npos) << f.message;
    }
}

TEST(PerftestOutput, ABurstIsNamedByItsFirstStatusWithThatLinesSyndrome)
{
    // The queue pair failed with 12; the work request after it was flushed (5). The finding names the
    // cause, with its own syndrome, never one line's status with another line's syndrome.
    const std::string head = kClientHead + " 65536      5000             46000.00            45990.12\t\t     0.735842\n"
        + " Completion with error at client\n";
    struct Case {
        std::string first; ///< the burst's first status line; then " Failed status 5: wr_id 1 syndrom 0xf9"
        std::string named;
        std::string notNamed;
    };
    for (const auto& c : { Case { " Failed status 12: wr_id 0 syndrom 0x81", "status 12 (transport retry counter exceeded), vendor syndrome 0x81",
                               "vendor syndrome 0xf9" },
             // The first status line has no syndrome: none is named.
             Case { "Failed status transport retry counter exceeded: 12", "status 12 (transport retry counter exceeded)", "vendor syndrome" } }) {
        const auto r = parsePerftestOutput(head + c.first + "\n Failed status 5: wr_id 1 syndrom 0xf9\n");
        ASSERT_TRUE(r) << r.error().message;
        ASSERT_EQ(r->findings.size(), 1u) << c.first;
        EXPECT_NE(r->findings[0].message.find(c.named), std::string::npos) << r->findings[0].message;
        EXPECT_EQ(r->findings[0].message.find(c.notNamed), std::string::npos) << r->findings[0].message;
    }
}

TEST(PerftestOutput, SetupFailures)
{
    struct Case {
        std::string text;
        std::string says;
    };
    for (const auto& c : { Case { kClientHead.substr(0, kClientHead.find(" local address")) + "Failed to modify QP 336 to RTR\n"
                                      + " Unable to Connect the HCA's through the link\n",
                               "queue pair to RTR" },
             Case { "$ ib_send_bw -d mlx5_9\nCouldn't get device\n", "could not open the RDMA device mlx5_9" },
             Case { "$ ib_send_bw -d mlx5_9\nIB device mlx5_9 not found\n Unable to find the Infiniband/RoCE device\n",
                 "could not open the RDMA device" },
             Case { kClientHead + " 65536      5000             46000.00            45990.12\t\t     0.735842\n ibv_poll_cq failed\n",
                 "failed to poll its completion queue" } }) {
        const auto r = parsePerftestOutput(c.text);
        ASSERT_TRUE(r) << c.text;
        const auto* f = finding(*r, "PERFTEST_FAILED");
        ASSERT_NE(f, nullptr) << c.text;
        EXPECT_NE(f->message.find(c.says), std::string::npos) << f->message;
        EXPECT_FALSE(hasFinding(*r, "PERFTEST_TRUNCATED"));
        EXPECT_FALSE(r->complete);
    }
}

// ---------------------------------------------------------------------------------------------
// Formats the fixtures lack, built from perftest's format strings

TEST(PerftestOutput, MiBPerSecAndReportBothTables)
{
    const std::string text = kClientHead
        + " 65536      5000             46000.00            45990.12\t\t     0.735842\n"
          "---------------------------------------------------------------------------------------\n"
          "\n Local results: \n"
          "---------------------------------------------------------------------------------------\n"
          " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n"
          " 65536      5000             23000.00            22995.06\t\t     0.367921\n"
          "---------------------------------------------------------------------------------------\n"
          "\n Remote results: \n"
          "---------------------------------------------------------------------------------------\n"
          " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]\n"
          " 65536      5000             23000.00            22995.06\t\t     0.367921\n"
          "---------------------------------------------------------------------------------------\n";
    const auto r = parsePerftestOutput(text);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->units, "MiB/sec");
    EXPECT_EQ(r->qps, 2);
    EXPECT_EQ(r->localEndpoints.size(), 2u);
    EXPECT_EQ(r->remoteEndpoints[1].qpn, "0x0161");
    ASSERT_EQ(r->bwRows.size(), 1u);
    EXPECT_NEAR(r->bwRows[0].bwAverageGbps, 385.79308855296, 1e-9); // 45990.12 MiB/s
    ASSERT_EQ(r->localBwRows.size(), 1u);
    ASSERT_EQ(r->remoteBwRows.size(), 1u);
    EXPECT_NEAR(r->remoteBwRows[0].bwAverageGbps, 22995.06 * kMiB, 1e-9);
    EXPECT_TRUE(r->complete);
    const auto j = toJson(*r);
    EXPECT_EQ(j["local_rows"].size(), 1u);
    EXPECT_EQ(j["remote_rows"].size(), 1u);

    // Cut inside the remote table: incomplete.
    const auto cut = parsePerftestOutput(text.substr(0, text.rfind(" 65536")));
    ASSERT_TRUE(cut);
    EXPECT_FALSE(cut->complete);
    const auto* f = finding(*cut, "PERFTEST_TRUNCATED");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->message.find("remote results table"), std::string::npos) << f->message;
}

TEST(PerftestOutput, SendLatencyClientRowsWithFrequencyWarnings)
{
    const std::string text = R"(---------------------------------------------------------------------------------------
                    Send Latency Test
 Dual-port       : OFF		Device         : mlx5_2
 Number of qps   : 1		Transport type : IB
 Connection type : RC		Using SRQ      : OFF
 PCIe relax order: OFF		Lock-free      : OFF
 ibv_wr* API     : ON		Using Enhanced Reorder      : OFF
 TX depth        : 1
 Mtu             : 4096[B]
 Link type       : IB
 Max inline data : 236[B]
 rdma_cm QPs	 : OFF
 Data ex. method : Ethernet
---------------------------------------------------------------------------------------
 local address: LID 0x11 QPN 0x0122 PSN 0x4bd0aa
 remote address: LID 0x12 QPN 0x0123 PSN 0x7c1e03
---------------------------------------------------------------------------------------
 #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] 
Conflicting CPU frequency values detected: 2900.000000 != 3500.000000. CPU Frequency is not max.
 2       1000          1.05           4.21         1.09     	       1.10        	0.04		1.32 		4.21   
Conflicting CPU frequency values detected: 2900.000000 != 3500.000000. CPU Frequency is not max.
 4       1000          1.06           3.90         1.10     	       1.11        	0.03		1.30 		3.9
)";
    const auto r = parsePerftestOutput(text);
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->tool, "ib_send_lat");
    EXPECT_EQ(r->side, "client");
    EXPECT_EQ(r->latencyUnit, "usec");
    EXPECT_TRUE(r->bwRows.empty());
    ASSERT_EQ(r->latRows.size(), 1u); // the second row's last figure is cut ("3.9")
    const PerftestLatRow& row = r->latRows[0];
    EXPECT_EQ(row.bytes, 2u);
    EXPECT_EQ(row.iterations, 1000u);
    EXPECT_DOUBLE_EQ(*row.tMinUs, 1.05);
    EXPECT_DOUBLE_EQ(*row.tMaxUs, 4.21);
    EXPECT_DOUBLE_EQ(*row.tTypicalUs, 1.09);
    EXPECT_DOUBLE_EQ(*row.tAvgUs, 1.10);
    EXPECT_DOUBLE_EQ(*row.tStdevUs, 0.04);
    EXPECT_DOUBLE_EQ(*row.p99Us, 1.32);
    EXPECT_DOUBLE_EQ(*row.p999Us, 4.21);
    EXPECT_FALSE(row.tpsAverage.has_value());
    EXPECT_FALSE(r->complete);
    const auto* f = finding(*r, "PERFTEST_TRUNCATED");
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->message.find("after the 2-byte row"), std::string::npos) << f->message;
    EXPECT_TRUE(anyContains(r->warnings, "Conflicting CPU frequency"));

    const auto whole = parsePerftestOutput(text.substr(0, text.rfind("3.9")) + "3.90   \n"
        + "---------------------------------------------------------------------------------------\n");
    ASSERT_TRUE(whole);
    EXPECT_EQ(whole->latRows.size(), 2u);
    EXPECT_TRUE(whole->complete);
    const auto j = toJson(*whole);
    ASSERT_EQ(j["latency_rows"].size(), 2u);
    EXPECT_DOUBLE_EQ(j["latency_rows"][1]["p999_us"].get<double>(), 3.90);
    EXPECT_DOUBLE_EQ(j["latency_rows"][0]["t_typical_us"].get<double>(), 1.09);
    EXPECT_EQ(j["rows"].size(), 0u);
}

TEST(PerftestOutput, LatencyDurationTable)
{
    const auto r = parsePerftestOutput("                    RDMA_Read Latency Test\n"
                                       " Dual-port       : OFF\t\tDevice         : mlx5_0\n"
                                       " Data ex. method : Ethernet\n"
                                       " #bytes        #iterations       t_avg[usec]    tps average\n"
                                       " 2       1234567            1.62        616512.04\n"
                                       "---------------------------------------------------------------------------------------\n");
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->tool, "ib_read_lat");
    EXPECT_EQ(r->side, "server"); // no TX depth
    ASSERT_EQ(r->latRows.size(), 1u);
    EXPECT_EQ(r->latRows[0].iterations, 1234567u);
    EXPECT_DOUBLE_EQ(*r->latRows[0].tAvgUs, 1.62);
    EXPECT_DOUBLE_EQ(*r->latRows[0].tpsAverage, 616512.04);
    EXPECT_FALSE(r->latRows[0].tMinUs.has_value());
    EXPECT_TRUE(r->complete);
}

TEST(PerftestOutput, CommandLineSide)
{
    const std::string body = kClientHead.substr(0, kClientHead.find(" TX depth")) + " Data ex. method : Ethernet\n";
    struct Case {
        std::string command;
        std::string side;
    };
    for (const auto& c : { Case { "[root@h1 ~]# ib_write_bw -d mlx5_3 -F h2", "client" },
             Case { "$ sudo ib_write_bw -d mlx5_3 -q 2", "server" }, Case { "$ ib_write_bw -Z -d mlx5_3", "server" },
             Case { "$ ib_write_bw --client -d mlx5_3", "client" },
             Case { "$ (ib_write_bw -d mlx5_3 > /dev/null &); ib_write_bw -d mlx5_3 127.0.0.1", "client" },
             Case { "+ ib_write_bw -b --ib-dev=mlx5_3 -i 2 node9", "client" },
             Case { "$ mpirun -np 1 --host n1 ib_write_bw -d mlx5_3 n2", "client" }, Case { "# ib_write_bw -d mlx5_3", "server" },
             Case { "# source: a post (ib_write_bw node9 client)", "server" }, // a comment: the content tells
             Case { "$ echo ib_write_bw node9", "server" },
             Case { "$ 'ib_write_'bw -d mlx5_3 \"no\"de9", "client" }, // quotes the shell takes out
             Case { "$ \"ib_write_bw\" -d 'mlx5_3'", "server" } }) {
        const auto r = parsePerftestOutput(c.command + "\n" + body);
        ASSERT_TRUE(r) << c.command;
        EXPECT_EQ(r->side, c.side) << c.command;
        EXPECT_EQ(r->tool, "ib_write_bw") << c.command;
    }
    const auto r = parsePerftestOutput("+ ib_write_bw -b --ib-dev=mlx5_3 -i 2 node9\n" + body);
    ASSERT_TRUE(r);
    EXPECT_TRUE(r->bidirectional);
    EXPECT_EQ(r->ibPort, 2);
    EXPECT_EQ(r->command, "ib_write_bw -b --ib-dev=mlx5_3 -i 2 node9");
    // perftest's usage text is no command line.
    const auto usage = parsePerftestOutput(" Usage:\n  ib_write_bw            start a server and wait for connection\n"
                                           "  ib_write_bw <host>     connect to server at <host>\n");
    EXPECT_FALSE(usage);
}

// ---------------------------------------------------------------------------------------------
// JSON

TEST(PerftestOutput, JsonShape)
{
    const auto bidir = parsePerftestOutput(sharedFixture("perftest-ib_write_bw-bidir-roce-rocm-a-report_gbits.txt"));
    ASSERT_TRUE(bidir);
    const auto j = toJson(*bidir);
    EXPECT_EQ(j["tool"], "ib_write_bw");
    EXPECT_EQ(j["complete"], true);
    EXPECT_EQ(j["bidirectional"], true);
    EXPECT_EQ(j["side"], "client");
    EXPECT_EQ(j["device"], "<RDMA-NIC-2>");
    EXPECT_EQ(j["link_type"], "Ethernet");
    EXPECT_EQ(j["gid_index"], 3);
    EXPECT_EQ(j["qps"], 1);
    EXPECT_EQ(j["units_printed"], "Gb/sec");
    EXPECT_EQ(j["cuda"], false);
    ASSERT_EQ(j["rows"].size(), 23u);
    const auto& row = j["rows"][0];
    EXPECT_EQ(row["bytes"], 2);
    EXPECT_EQ(row["iterations"], 5000);
    EXPECT_DOUBLE_EQ(row["bw_peak_gbps"].get<double>(), 0.142947);
    EXPECT_DOUBLE_EQ(row["bw_average_gbps"].get<double>(), 0.012281);
    EXPECT_DOUBLE_EQ(row["msg_rate_mpps"].get<double>(), 0.767588);
    EXPECT_TRUE(j["findings"].is_array());
    EXPECT_TRUE(j["findings"].empty());
    EXPECT_FALSE(j.contains("latency_rows"));

    const auto read = parsePerftestOutput(sharedFixture("perftest-ib_read_bw-ib-mlx5-a-client-PARTIAL.txt"));
    ASSERT_TRUE(read);
    const auto k = toJson(*read);
    EXPECT_FALSE(k.contains("bidirectional"));
    EXPECT_FALSE(k.contains("gid_index"));
    EXPECT_EQ(k["complete"], false);
    EXPECT_NEAR(k["rows"][0]["bw_peak_gbps"].get<double>(), 0.04076863488, 1e-12);
    ASSERT_EQ(k["findings"].size(), 1u);
    EXPECT_EQ(k["findings"][0]["code"], "PERFTEST_TRUNCATED");
    EXPECT_EQ(k["findings"][0]["severity"], "error");
    EXPECT_EQ(k["findings"][0]["where"], "line 25");
    EXPECT_EQ(k["local"]["out_reads"], "0x10");

    const auto cuda = parsePerftestOutput(sharedFixture("perftest-ib_write_bw-cuda-roce-rdmacm-16qp-duration-server.txt"));
    ASSERT_TRUE(cuda);
    const auto c = toJson(*cuda);
    EXPECT_EQ(c["cuda"], true);
    EXPECT_EQ(c["cuda_dmabuf"], true);
    EXPECT_EQ(c["peak_measured"], false);
    EXPECT_EQ(c["local_qps"].size(), 16u);
}

// perftest 2026's other GPU backends print CUDA's set-up lines with their own name
// (musa_memory.c, mlu_memory.c copy cuda_memory.c): "Picking device No." and "[pid = ...] device
// name" are not evidence of CUDA when MUSA or MLU said so first, or the command or header did.
TEST(PerftestOutput, GpuMemoryOfEveryBackendNotJustCuda)
{
    const std::string table = sharedFixture("perftest-ib_write_bw-cuda-dmabuf-roce-client-a-report_gbits.txt");
    const std::string body = table.substr(table.find('\n') + 1); // the copy without its command and CUDA lines
    const auto withLines = [&](const std::string& before) {
        const auto r = parsePerftestOutput(before + body);
        EXPECT_TRUE(r) << r.error().message;
        return r ? *r : PerftestRun {};
    };

    const PerftestRun musa = withLines("initializing MUSA\nListing all MUSA devices in system:\nMUSA device 0: PCIe address is 1A:00\n"
                                       "\nPicking device No. 0\n[pid = 4711, dev = 0] device name = [MTT S4000]\ncreating MUSA Ctx\n"
                                       "making it the current MUSA Ctx\nusing DMA-BUF for GPU buffer address at 0x7f00 aligned at 0x7f00 "
                                       "with aligned size 8388608\n");
    EXPECT_EQ(musa.gpuMemory, GpuMemory::Musa);
    EXPECT_FALSE(musa.cuda());
    EXPECT_TRUE(musa.gpuDmabuf);
    EXPECT_EQ(musa.gpuDevice, 0);
    EXPECT_EQ(musa.gpuName, "MTT S4000");
    EXPECT_TRUE(musa.warnings.empty()) << musa.warnings.front();
    const nlohmann::json m = toJson(musa);
    EXPECT_EQ(m["cuda"], false);
    EXPECT_FALSE(m.contains("cuda_dmabuf"));
    EXPECT_FALSE(m.contains("cuda_device"));
    EXPECT_EQ(m["gpu_memory"], "musa");
    EXPECT_EQ(m["gpu_dmabuf"], true);
    EXPECT_EQ(m["gpu_device"], 0);
    EXPECT_EQ(m["gpu_name"], "MTT S4000");
    ASSERT_EQ(musa.bwRows.size(), 23u);

    const PerftestRun mlu = withLines("initializing MLU\nPicking device No. 1\n[pid = 7, dev = 1] device name = [MLU590]\n"
                                      "cnMalloc() of a 8388608 bytes MLU buffer\n");
    EXPECT_EQ(mlu.gpuMemory, GpuMemory::Mlu);
    EXPECT_EQ(mlu.gpuDevice, 1);
    EXPECT_FALSE(mlu.gpuDmabuf);

    // The lines every backend prints alike, with nothing else: CUDA, as perftest printed them first.
    const PerftestRun unnamed = withLines("\nPicking device No. 2\n[pid = 9, dev = 2] device name = [NVIDIA H100 80GB HBM3]\n");
    EXPECT_TRUE(unnamed.cuda());
    EXPECT_EQ(toJson(unnamed)["cuda_device"], 2);
    EXPECT_EQ(toJson(unnamed)["gpu_memory"], "cuda");

    // The command names the backend where the output does not; its device index where one is given.
    EXPECT_EQ(withLines("$ ib_write_bw -d mlx5_0 --use_mlu=3 --use_mlu_dmabuf --report_gbits -a 10.0.0.2\n").gpuMemory, GpuMemory::Mlu);
    EXPECT_EQ(withLines("$ ib_write_bw -d mlx5_0 --use_mlu=3 --report_gbits -a 10.0.0.2\n").gpuDevice, 3);
    EXPECT_TRUE(withLines("$ ib_write_bw -d mlx5_0 --use_rocm=1 --use_rocm_dmabuf -a 10.0.0.2\n").gpuDmabuf);
    const PerftestRun gaudi = withLines("$ ib_write_bw -d mlx5_0 --use_hl=0000:33:00.0 -a 10.0.0.2\n");
    EXPECT_EQ(gaudi.gpuMemory, GpuMemory::Gaudi);
    EXPECT_FALSE(gaudi.gpuDevice.has_value()); // a PCI address, not an index
    EXPECT_EQ(withLines("$ ib_write_bw -d mlx5_0 --use_neuron=4 -a 10.0.0.2\n").gpuMemory, GpuMemory::Neuron);
    EXPECT_EQ(withLines("$ ib_write_bw -d mlx5_0 --use_opencl=0 -a 10.0.0.2\n").gpuMemory, GpuMemory::OpenCl);
    EXPECT_EQ(withLines("$ ib_write_bw -d mlx5_0 -a 10.0.0.2\n").gpuMemory, GpuMemory::Host);
    EXPECT_FALSE(toJson(withLines("")).contains("gpu_memory"));

    // The header's "Use MUSA memory : ON" (printed by a perftest built with MUSA) says so too.
    std::string header = body;
    header.insert(header.find(" Data ex. method"), " Use MUSA memory : ON\n");
    const auto onHeader = parsePerftestOutput(header);
    ASSERT_TRUE(onHeader) << onHeader.error().message;
    EXPECT_EQ(onHeader->gpuMemory, GpuMemory::Musa);
    EXPECT_TRUE(onHeader->warnings.empty()) << onHeader->warnings.front();

    // A GPU failure's advice is about the backend the run used.
    const auto rocmFailed = parsePerftestOutput("$ ib_write_bw -d mlx5_0 --use_rocm=0 -a 10.0.0.2\nCouldn't initialize ROCm device\n");
    ASSERT_TRUE(rocmFailed) << rocmFailed.error().message;
    ASSERT_FALSE(rocmFailed->findings.empty());
    EXPECT_NE(rocmFailed->findings[0].message.find("check the ROCm driver and runtime, the device given to --use_rocm"), std::string::npos)
        << rocmFailed->findings[0].message;
    EXPECT_EQ(rocmFailed->findings[0].message.find("CUDA"), std::string::npos) << rocmFailed->findings[0].message;
}

TEST(PerftestOutput, OlderShorterDashedLinesAndRunsOneAfterTheOther)
{
    const std::string dashes(66, '-');
    const std::string run = dashes + "\n                    RDMA_Write BW Test\n"
        + " Dual-port       : OFF\t\tDevice         : mlx4_0\n Number of qps   : 1\t\tTransport type : IB\n"
          " Connection type : RC\t\tUsing SRQ      : OFF\n TX depth        : 128\n CQ Moderation   : 100\n"
          " Mtu             : 2048[B]\n Link type       : IB\n Max inline data : 0[B]\n rdma_cm QPs\t : OFF\n"
          " Data ex. method : Ethernet\n"
        + dashes + "\n local address: LID 0x03 QPN 0x004a PSN 0x2b9d5a RKey 0x28010300 VAddr 0x007f47a6b4a000\n"
        + " remote address: LID 0x01 QPN 0x0052 PSN 0xa2b0b1 RKey 0x30010100 VAddr 0x007f8e05fa3000\n" + dashes
        + "\n #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]\n";
    // The closing line is the output's last, without a line end: whole at this perftest's length.
    const auto one = parsePerftestOutput(run + " 65536      5000           3247.07            3246.98            0.051952\n" + dashes);
    ASSERT_TRUE(one) << one.error().message;
    EXPECT_TRUE(one->complete);
    EXPECT_EQ(one->mtu, 2048);
    EXPECT_NEAR(one->bwRows.at(0).bwAverageGbps, 3246.98 * kMiB, 1e-9);
    const auto cut = parsePerftestOutput(run + " 65536      5000           3247.07            3246.98            0.051952\n" + dashes.substr(0, 40));
    ASSERT_TRUE(cut);
    EXPECT_FALSE(cut->complete);

    // Two runs of the same client, one after the other: both, and the later stands for the file.
    const std::string two = run + " 65536      5000           3247.07            3246.98            0.051952\n" + dashes + "\n" + run
        + " 65536      5000           3100.00            3099.50            0.049592\n" + dashes + "\n";
    const auto all = parsePerftestOutputs(two);
    ASSERT_TRUE(all);
    ASSERT_EQ(all->size(), 2u);
    EXPECT_TRUE((*all)[0].complete && (*all)[1].complete);
    const auto last = parsePerftestOutput(two);
    ASSERT_TRUE(last);
    EXPECT_NEAR(last->bwRows.at(0).bwAverageGbps, 3099.50 * kMiB, 1e-9);
    EXPECT_TRUE(anyContains(last->warnings, "2 perftest runs"));
}

TEST(PerftestOutput, TwoProcessesPrintingTheSameSizesAlternate)
{
    // ib_send_bw loopback: the client prints " TX depth", the server " RX depth"; both measure.
    const std::vector<std::string> client = { "                    Send BW Test", " Dual-port       : OFF\t\tDevice         : mlx5_0",
        " Number of qps   : 1\t\tTransport type : IB", " Connection type : RC\t\tUsing SRQ      : OFF", " TX depth        : 128",
        " Mtu             : 4096[B]", " Link type       : IB", " Data ex. method : Ethernet",
        " local address: LID 0x05 QPN 0x0a01 PSN 0x111111", " remote address: LID 0x05 QPN 0x0a02 PSN 0x222222",
        " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]" };
    std::vector<std::string> server = client;
    server[4] = " RX depth        : 512";
    server[8] = " local address: LID 0x05 QPN 0x0a02 PSN 0x222222";
    server[9] = " remote address: LID 0x05 QPN 0x0a01 PSN 0x111111";
    std::string text = "************************************\n* Waiting for client to connect... *\n";
    for (std::size_t i = 0; i < client.size(); ++i)
        text += client[i] + "\n" + server[i] + "\n";
    text += " 2          1000             10.00              9.90               5.190000\n"
            " 2          1000             10.00              9.80               5.140000\n"
            " 4          1000             20.00              19.90              5.220000\n"
            " 4          1000             20.00              19.70              5.160000\n"
            "---------------------------------------------------------------------------------------\n"
            "---------------------------------------------------------------------------------------\n";
    const auto all = parsePerftestOutputs(text);
    ASSERT_TRUE(all) << all.error().message;
    ASSERT_EQ(all->size(), 2u);
    const PerftestRun& a = (*all)[0];
    const PerftestRun& b = (*all)[1];
    EXPECT_EQ(a.tool, "ib_send_bw");
    EXPECT_EQ(a.side, "client");
    EXPECT_EQ(b.side, "server");
    ASSERT_EQ(a.bwRows.size(), 2u);
    ASSERT_EQ(b.bwRows.size(), 2u);
    EXPECT_NEAR(a.bwRows[0].bwAverageGbps, 9.90 * kMiB, 1e-12);
    EXPECT_NEAR(b.bwRows[0].bwAverageGbps, 9.80 * kMiB, 1e-12);
    EXPECT_NEAR(a.bwRows[1].bwAverageGbps, 19.90 * kMiB, 1e-12);
    EXPECT_NEAR(b.bwRows[1].bwAverageGbps, 19.70 * kMiB, 1e-12);
    EXPECT_EQ(a.local->qpn, b.remote->qpn);
    EXPECT_TRUE(a.complete && b.complete);
}

// Found by fuzz/fuzz_perftest (fuzz/regressions/fuzz_perftest/invalid-utf8-in-json-document): a
// byte that is not UTF-8 in the output made the document's dump() throw.
TEST(PerftestOutput, AByteThatIsNotUtf8StillGivesADocumentThatDumps)
{
    std::string text = sharedFixture("perftest-ib_read_bw-ib-mlx5-a-client-PARTIAL.txt");
    const std::size_t at = text.find("mlx5_1");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 6, "mlx5_\xff");
    auto run = parsePerftestOutput(text);
    ASSERT_TRUE(run.ok()) << run.error().toString();
    std::string dumped;
    ASSERT_NO_THROW(dumped = toJson(*run).dump(2));
    EXPECT_NE(dumped.find("mlx5_\xef\xbf\xbd"), std::string::npos) << "the byte is shown as U+FFFD";
}
