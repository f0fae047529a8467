// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Stored runs read back (live/client/run_results.h): the summary and status a run is stored with,
// the measured-against-expected table of a perftest, nccl-tests and check document, two runs
// compared, the CSV, and documents of the wrong shape refused with a reason.
#include "live/client/run_results.h"

#include <gtest/gtest.h>

#include <sstream>

namespace railyard::live {
namespace {

    const nlohmann::json kAllReduce = nlohmann::json::parse(R"({
      "tool": "all_reduce_perf", "nodes": ["node001", "node005"], "complete": true,
      "runs": [{ "rail": null, "command": "mpirun ...", "exit_status": 0, "cancelled": false, "timed_out": false, "error": null,
                 "tests": { "rows": [
                     { "bytes": 1048576, "out_of_place": { "busbw_gbs": 100.5 }, "in_place": { "busbw_gbs": 101.0 } },
                     { "bytes": 268435456, "out_of_place": { "busbw_gbs": 340.0 }, "in_place": null } ] },
                 "expected": { "bound_busbw_gbs": 745.3, "verdict": { "status": "low" } } },
               { "rail": 3, "exit_status": 1, "error": "rank 3 died", "tests": { "rows": [] },
                 "expected": { "bound_busbw_gbs": 93.2, "verdict": { "status": "low" } } }],
      "findings": [{ "severity": "error", "code": "ALLREDUCE_LOW", "message": "busbw 46 % of the bound: node005 rail 3 at 200 Gb/s",
                     "where": "node005/nic3" }] })");

    TEST(RunResults, SummaryAndStatusAsResultsListShowsThem)
    {
        std::vector<core::Finding> findings { { core::Severity::Error, "A", "a", "x" }, { core::Severity::Warning, "B", "b", "y" },
            { core::Severity::Info, "C", "c", "z" } };
        RunSummary s = summarizeRun("all_reduce_perf: 1 runs; ", true, findings);
        EXPECT_EQ(s.summary, "all_reduce_perf: 1 runs; 1 errors, 1 warnings");
        EXPECT_EQ(s.exitStatus, kRunFindings);
        s = summarizeRun("x: ", false, {});
        EXPECT_EQ(s.summary, "x: 0 errors, 0 warnings, incomplete");
        EXPECT_EQ(s.exitStatus, kRunIncomplete);
        EXPECT_EQ(summarizeRun("x: ", true, { findings[1] }).exitStatus, kRunOk);
        const core::store::RunRecord r = makeRunRecord("p", "allreduce", "2026-12-01T10:00:00.000Z", true, s, kAllReduce);
        EXPECT_EQ(r.id, 0);
        EXPECT_EQ(r.kind, "allreduce");
        EXPECT_EQ(r.exitStatus, kRunIncomplete);
        EXPECT_EQ(r.finishedAt.size(), 24u) << r.finishedAt; // 2026-12-01T10:00:00.000Z
        EXPECT_EQ(nlohmann::json::parse(r.resultJson), kAllReduce);
    }

    TEST(RunResults, CollectiveDocumentIsReadPerLaunchAndSize)
    {
        auto t = runTableOf("allreduce", kAllReduce);
        ASSERT_TRUE(t) << t.error().toString();
        EXPECT_EQ(t->unit, "GB/s busbw");
        ASSERT_EQ(t->rows.size(), 3u);
        EXPECT_EQ(t->rows[0].key, "all rails: 1 MiB");
        EXPECT_DOUBLE_EQ(*t->rows[0].measured, 101.0); // the better of out-of-place and in-place
        EXPECT_EQ(t->rows[0].bytes, 1048576u);
        EXPECT_EQ(t->rows[1].key, "all rails: 256 MiB");
        EXPECT_DOUBLE_EQ(*t->rows[1].expected, 745.3);
        EXPECT_DOUBLE_EQ(*t->rows[1].percent, 45.6);
        EXPECT_EQ(t->rows[1].verdict, "low");
        EXPECT_EQ(t->rows[2].key, "rail 3"); // a launch that failed before any size
        EXPECT_EQ(t->rows[2].rail, 3);
        EXPECT_FALSE(t->rows[2].measured);
        EXPECT_EQ(t->rows[2].verdict, "failed");
        ASSERT_EQ(t->findings.size(), 1u);
        EXPECT_EQ(t->findings[0].severity, core::Severity::Error);
        EXPECT_EQ(t->findings[0].where, "node005/nic3");
    }

    TEST(RunResults, BandwidthAndCheckDocuments)
    {
        const nlohmann::json bw = nlohmann::json::parse(R"({ "bound_gbps": 392.5, "low_gbps": 294.4, "complete": false,
          "rounds": [{ "purpose": "rails", "tests": [
              { "server": "node001", "client": "node002", "rail": 0, "gbps": 390.1 },
              { "server": "node001", "client": "node002", "rail": 1, "gbps": 180.0 },
              { "server": "node001", "client": "node002", "rail": 2, "gbps": null, "error": { "code": "TEST_FAILED", "message": "x" } }] }],
          "retests": [{ "server": "node003", "client": "node002", "rail": 1, "gbps": 181.0 }], "findings": [] })");
        auto t = runTableOf("write_bw", bw);
        ASSERT_TRUE(t) << t.error().toString();
        ASSERT_EQ(t->rows.size(), 4u);
        EXPECT_EQ(t->rows[0].key, "rail 0: node002 -> node001");
        EXPECT_EQ(t->rows[0].verdict, "ok");
        EXPECT_EQ(t->rows[1].verdict, "low");
        EXPECT_EQ(t->rows[2].verdict, "failed");
        EXPECT_EQ(t->rows[3].key, "retest rail 1: node002 -> node003");
        EXPECT_FALSE(t->complete);

        const nlohmann::json check = nlohmann::json::parse(R"({ "complete": true,
          "nodes": [{ "node": "node001", "reachable": true, "warnings": ["lldp.txt: missing", "ibstat.txt.bak: not read"] },
                    { "node": "node002", "reachable": false, "warnings": "not a list" },
                    { "node": "node003", "reachable": true, "warnings": ["lldp.txt: missing", 7, "lldp.txt: missing"] }],
          "findings": [{ "severity": "error", "code": "PORT_DOWN", "message": "m", "where": "node001/nic2" },
                       { "severity": "info", "code": "NOTE", "message": "m", "where": "node001" }] })");
        auto c = runTableOf("check", check);
        ASSERT_TRUE(c) << c.error().toString();
        ASSERT_EQ(c->rows.size(), 3u);
        EXPECT_DOUBLE_EQ(*c->rows[0].measured, 1); // the info finding is not counted
        EXPECT_EQ(c->rows[0].verdict, "findings");
        EXPECT_EQ(c->rows[1].verdict, "unreachable");
        // The nodes' reading notes, each once with its nodes in order; what is not a string is passed over.
        ASSERT_EQ(c->notes.size(), 2u);
        EXPECT_EQ(c->notes[0].text, "lldp.txt: missing");
        EXPECT_EQ(c->notes[0].nodes, (std::vector<std::string> { "node001", "node003" }));
        EXPECT_EQ(c->notes[1].text, "ibstat.txt.bak: not read");
        EXPECT_EQ(c->notes[1].nodes, (std::vector<std::string> { "node001" }));
    }

    TEST(RunResults, WrongShapesAreRefusedWithAReason)
    {
        auto t = runTableOf("allreduce", nlohmann::json::parse(R"({ "rounds": [] })"));
        ASSERT_FALSE(t);
        EXPECT_EQ(t.error().code, "RUN_DOCUMENT");
        EXPECT_NE(t.error().message.find("runs"), std::string::npos) << t.error().message;
        EXPECT_FALSE(runTableOf("write_bw", nlohmann::json::array()));
        auto w = runTableOf("watch", nlohmann::json::object());
        ASSERT_FALSE(w);
        EXPECT_NE(w.error().message.find("watch"), std::string::npos);
    }

    TEST(RunResults, BeforeAndAfterCompared)
    {
        RunTable a, b;
        a.unit = b.unit = "Gb/s";
        a.rows = { { "rail 0", 0, 400.0, 400.0, 100.0, "ok", std::nullopt }, { "rail 1", 1, 200.0, 400.0, 50.0, "low", std::nullopt },
            { "rail 2", 2, 390.0, 400.0, 97.5, "ok", std::nullopt } };
        b.rows = { { "rail 0", 0, 400.0, 400.0, 100.0, "ok", std::nullopt }, { "rail 1", 1, 398.0, 400.0, 99.5, "ok", std::nullopt },
            { "rail 9", 9, 10.0, 400.0, 2.5, "low", std::nullopt } };
        a.findings = { { core::Severity::Error, "LOW_BANDWIDTH_PORT", "node003 rail 1 at 200 Gb/s", "node003/nic1" },
            { core::Severity::Warning, "X", "figures 1", "node001" } };
        b.findings = { { core::Severity::Warning, "X", "figures 2", "node001" }, { core::Severity::Error, "Y", "m", "node009" } };
        const RunComparison c = compareRuns(a, b);
        ASSERT_EQ(c.rows.size(), 4u);
        EXPECT_EQ(c.rows[1].key, "rail 1");
        EXPECT_DOUBLE_EQ(*c.rows[1].changePercent, 99.0);
        EXPECT_FALSE(c.rows[2].b); // rail 2 only in A
        EXPECT_FALSE(c.rows[2].changePercent);
        EXPECT_EQ(c.rows[3].key, "rail 9"); // only in B, last
        EXPECT_FALSE(c.rows[3].a);
        ASSERT_EQ(c.onlyA.size(), 1u); // X is the same finding with other figures
        EXPECT_EQ(c.onlyA[0].code, "LOW_BANDWIDTH_PORT");
        ASSERT_EQ(c.onlyB.size(), 1u);
        EXPECT_EQ(c.onlyB[0].code, "Y");
        EXPECT_TRUE(c.notesOnlyA.empty());
        EXPECT_TRUE(c.notesOnlyB.empty());
    }

    TEST(RunResults, ReadingNotesComparedByTextAndNode)
    {
        RunTable a, b;
        a.notes = { { "lldp.txt: missing", { "node001", "node002", "node003" } }, { "route.json: not read", { "node004" } } };
        b.notes = { { "route.json: not read", { "node004" } }, { "lldp.txt: missing", { "node002" } },
            { "ibstat.txt: missing", { "node001" } } };
        const RunComparison c = compareRuns(a, b);
        // node002 still lacks lldp.txt and node004 route.json: neither is a change.
        ASSERT_EQ(c.notesOnlyA.size(), 1u);
        EXPECT_EQ(c.notesOnlyA[0].text, "lldp.txt: missing");
        EXPECT_EQ(c.notesOnlyA[0].nodes, (std::vector<std::string> { "node001", "node003" }));
        ASSERT_EQ(c.notesOnlyB.size(), 1u);
        EXPECT_EQ(c.notesOnlyB[0].text, "ibstat.txt: missing");
        EXPECT_EQ(c.notesOnlyB[0].nodes, (std::vector<std::string> { "node001" }));
        // The same text on another node is another note.
        b.notes = { { "lldp.txt: missing", { "node009" } } };
        const RunComparison moved = compareRuns(a, b);
        ASSERT_EQ(moved.notesOnlyA.size(), 2u);
        EXPECT_EQ(moved.notesOnlyA[0].nodes.size(), 3u);
        ASSERT_EQ(moved.notesOnlyB.size(), 1u);
        EXPECT_EQ(moved.notesOnlyB[0].nodes, (std::vector<std::string> { "node009" }));
    }

    TEST(RunResults, CsvQuotesWhatNeedsIt)
    {
        RunTable t;
        t.unit = "Gb/s";
        t.rows = { { "rail 0: a, b", 0, 390.123, 400.0, 97.5, "ok", std::nullopt } };
        t.findings = { { core::Severity::Error, "LOW", "said \"low\"", "node001/nic0" } };
        t.notes = { { "lldp.txt: missing, not read", { "node001", "node002" } } };
        std::ostringstream out;
        writeRunCsv(t, out);
        EXPECT_EQ(out.str(), "key,rail,measured (Gb/s),expected (Gb/s),percent,verdict\r\n"
                             "\"rail 0: a, b\",0,390.12,400.00,97.5,ok\r\n"
                             "\r\nseverity,code,where,message\r\n"
                             "error,LOW,node001/nic0,\"said \"\"low\"\"\"\r\n"
                             "note,,node001 node002,\"lldp.txt: missing, not read\"\r\n");
    }

} // namespace
} // namespace railyard::live
