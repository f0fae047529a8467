// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The output of NVIDIA's nccl-tests (all_reduce_perf, all_gather_perf, reduce_scatter_perf,
// broadcast_perf, reduce_perf, alltoall_perf, gather_perf, scatter_perf, sendrecv_perf, ...), read
// line by line while the tool runs (`live test`) or as a whole file (`results import --kind
// nccl-tests`). Tested against the real outputs in ../shared/fixtures (every format from 2019 to
// nccl-tests 2.17: the `error` float column, `#wrong`, `Group`, `side_work`, the version and
// "Collective test starting/concluded" lines).
//
// What the parser accepts (one rule for all formats):
// - LF or CRLF line ends, tabs or spaces, and `#` prefixes present or stripped.
// - A launcher's label before every line: srun's "0: ", Open MPI's "[1,0]<stdout>:", or any
//   one-word "host: " prefix in front of a line that is nccl-tests output once removed.
// - Lines of other programs anywhere: NCCL's own (`host:pid:tid [0] NCCL INFO ...`, `NCCL WARN`,
//   `NCCL version`), MPI and Slurm messages, job banners, a shell or dstack CLI transcript. They
//   are skipped; those that tell of a failure become findings (below). A command line that runs a
//   test ("mpirun ... ./build/all_reduce_perf -b 8") names the tool.
// - The column layout is read from the table's header line, so every version's columns are
//   placed right: `size count type redop root time algbw busbw #wrong` (x2) since 2.13, the older
//   `size count type [redop] [root] time algbw busbw error`, the oldest `bytes N type op time
//   algbw busbw res` (times in ms, converted to us), `cputime`, the per-iteration `i_*` columns
//   and a trailing `timestamp`. Without a header line, the layout is guessed from the first row
//   (with a warning).
// - A row counts only when every column is there and well formed, so a line cut by the end of
//   the input (or a dying tool) never gives a row.
// - A row cut in two by another rank's NCCL line: mpirun forwards each rank's output in pieces
//   that need not end at a line's end, so rank 0's "   268435456  67108864  float  " can be
//   followed on the same line by "node005:2170:2170 [5] NCCL INFO ..." and the row's rest come at
//   the start of rank 0's next line. The two pieces are read as one row (with a warning); a piece
//   whose rest never comes is left out (with a warning). Where the host name is glued to the
//   piece, the rank lines' and NCCL lines' hosts tell where it begins, else the longest share of
//   the word that makes a row.
//
// Findings (`core::Finding`, codes stable):
// - NCCL_TESTS_WRONG (error): a `#wrong` above 0, an old `error` above the tool's tolerance, or
//   the footer's "Out of bounds values : N FAILED".
// - NCCL_TESTS_TRUNCATED (error): no footer ("Avg bus bandwidth"); says after which size.
// - NCCL_TESTS_RANK_FAILED (error): mpirun / srun / slurmstepd reports of a dead or failed
//   process, "Test NCCL failure", "Test CUDA failure", "Test timeout", crashes. `NCCL WARN` lines
//   (grouped by text) are warnings, raised to errors when a failure follows them.
// - NCCL_TESTS_DUPLICATED (warning): the header, the table header or a rank printed twice: a
//   binary built without MPI=1 runs one single-rank job per process.
// - NCCL_TESTS_AVG_BW_FAILED (error): "Avg bus bandwidth : X FAILED" (the `-a` check).
// - NCCL_TESTS_NCCL_ERROR (warning): the "# error: ..." line nccl-tests prints at its end.
// - NCCL_TESTS_VALIDATION_OFF (info): `validation: 0` (`-c 0`): results were not checked.
// - NCCL_TESTS_SINGLE_RANK (info): one rank: bus bandwidth is 0 by definition.
#pragma once

#include "core/plan.h"
#include "core/result.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// One half of a row (out-of-place or in-place).
struct NcclTestsResult {
    double timeUs = 0;   ///< "time" (us; the oldest format's ms converted), or "cputime"
    double algbwGBs = 0; ///< GB/s (10^9 bytes/s) as printed
    double busbwGBs = 0;
    /// `#wrong`; nullopt for "N/A" (validation off, or not checked). With the old float `error`
    /// column: 1 when the error is above nccl-tests' own pass mark (DeltaMaxValue(type) x
    /// (ranks-1): 1e-5 x (ranks-1) for float, 1e-2 for half/bfloat16, 1e-12 for double, any
    /// nonzero for integers), else 0; the footer's count is authoritative.
    std::optional<long long> wrong;
    std::optional<double> error; ///< the old float `error` column; nullopt for "N/A" or newer formats
    std::optional<double> iterMinUs, iterMaxUs, iterP99Us, iterCvPct; ///< `-I 1` per-iteration columns
};

struct NcclTestsRow {
    std::uint64_t bytes = 0; ///< "size" (B)
    std::uint64_t count = 0; ///< "count" (elements, per rank for all_gather/reduce_scatter/alltoall/gather/scatter)
    std::string type;        ///< "float", "half", "bfloat16", "int8", ...
    std::string redop;       ///< "sum", "prod", "min", "max", "avg"; "none" for non-reducing tests
                             ///< (also when the old format has no redop column or a blank one)
    int root = -1;           ///< -1 when not rooted or no root column
    NcclTestsResult outOfPlace, inPlace;
    bool hasInPlace = false; ///< the layout has the in-place columns
    std::string timestamp;   ///< `-S 1`: "2025-06-01 12:00:00"; empty otherwise
    int line = 0;            ///< line number in the input (1-based)
};

/// "#  Rank  3 Group  0 Pid 1006017 on pool0-01806 device  3 [0000:66:00] NVIDIA H100 80GB HBM3"
/// (Group since 2.13.4, Pid since 2019; "-g N" prints one line per GPU of the process).
struct NcclTestsRank {
    int rank = 0;
    int group = -1; ///< -1 when not printed
    int pid = -1;   ///< -1 when not printed
    std::string host;
    int device = -1;
    std::string busId; ///< "0000:66:00" or "0x66", without brackets
    std::string gpu;   ///< "NVIDIA H100 80GB HBM3"
    int line = 0;
};

struct NcclTestsRun {
    /// "all_reduce_perf", ... From "Collective test starting/concluded:" when printed, else the
    /// caller's hint, else a command line in the input, else inferred from the table; "nccl-tests"
    /// when none of these settles it (toolCandidates then lists what fits, and a warning says so).
    std::string tool = "nccl-tests";
    bool toolInferred = false; ///< the tool was not printed by nccl-tests itself
    std::vector<std::string> toolCandidates;
    std::string testsVersion; ///< "2.17.6" ("# nccl-tests version ...")
    std::string ncclVersion;  ///< "2.26.2" (from nccl-library=22602) or as NCCL printed it ("2.9.6+cuda11.2")

    /// Distinct (group, rank) pairs of the rank lines. Without rank lines: inferred from the
    /// table (bytes per element count, or busbw/algbw for the tool), ranksSource says how; 0 when
    /// unknown.
    int ranks = 0;
    std::string ranksSource; ///< "rank_lines", "bytes_per_count", "busbw_ratio", or "" (unknown)
    std::vector<NcclTestsRank> rankList; ///< every rank line, duplicates included, in input order

    /// The "# nThread 1 nGpus 8 minBytes 8 maxBytes ... step: 2(factor) warmup iters: 5 iters: 20
    /// agg iters: 1 validation: 1 graph: 0" line, where printed.
    std::optional<int> nThread, nGpus;
    std::optional<std::uint64_t> minBytes, maxBytes, step;
    std::string stepKind; ///< "factor" or "bytes"
    std::optional<int> warmupIters, iters, aggIters, validation, graph;
    std::map<std::string, std::string> otherParams; ///< side_work, work_sms, direction, unalign, ...

    /// The table's times are "cputime" (-C 1: host time per iteration, launch included), and the
    /// bandwidths nccl-tests printed were figured from them; GPU (CUDA event) time otherwise.
    bool cpuTime = false;
    std::vector<NcclTestsRow> rows;
    std::optional<double> avgBusbwGBs;   ///< footer "Avg bus bandwidth"
    bool avgBusbwFailed = false;         ///< footer "Avg bus bandwidth : X FAILED" (`-a`)
    std::optional<long long> outOfBounds; ///< footer "Out of bounds values : N OK|FAILED"
    bool outOfBoundsFailed = false;
    bool footerSeen = false; ///< the "Avg bus bandwidth" line was read
    bool complete = false;   ///< footer seen and no process failed
    std::vector<core::Finding> findings; ///< errors first, then warnings, then info
    std::vector<std::string> warnings;   ///< what was skipped, guessed or inferred, in words
};

/// Streaming reader: feed() each line as the tool prints it, finish() when it has ended.
class NcclTestsParser {
public:
    /// `toolHint`: the test the caller ran ("all_reduce_perf", "allreduce", "./build/all_reduce_perf"),
    /// used when the output does not print it; empty when not known.
    explicit NcclTestsParser(std::string toolHint = {});
    ~NcclTestsParser();
    NcclTestsParser(NcclTestsParser&&) noexcept;
    NcclTestsParser& operator=(NcclTestsParser&&) noexcept;

    /// One line without its line end (a trailing '\r' is tolerated). Returns the row this line
    /// completed, or nullptr; the pointer is valid until the next feed().
    const NcclTestsRow* feed(std::string_view line);
    /// Whether any line so far was nccl-tests' own (header, rank, table header, row, footer);
    /// NCCL's log lines alone do not count.
    bool recognised() const;
    /// Whether the last line fed was understood: an nccl-tests line, an NCCL log line, or a
    /// launcher's failure report. False for other programs' lines and for a row cut short.
    bool lastLineRead() const;
    /// The run as read so far: tool and ranks resolved, `complete` and `findings` set. Does not
    /// change the parser; more lines may be fed and finish() called again.
    NcclTestsRun finish() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

/// The whole text through NcclTestsParser. An unterminated last line that is not a complete
/// nccl-tests line is reported as cut (a warning). Error (code "TOOL_OUTPUT", message starting
/// "nccl-tests: ") when no line at all is nccl-tests output.
core::Result<NcclTestsRun> parseNcclTestsOutput(std::string_view text, std::string toolHint = {});

/// The interfaces.md §4 `results import --json` document: tool, ranks (null when unknown),
/// complete, rows [{bytes, count, type, redop, root, out_of_place {time_us, algbw_gbs, busbw_gbs,
/// wrong (integer or null)[, error]}, in_place {...} or null}], avg_busbw_gbs (null when no footer),
/// findings [{severity, code, message, where}], plus tool_inferred, tool_candidates, ranks_source,
/// cpu_time,
/// nccl_tests_version, nccl_version, hosts, rank_list, params, out_of_bounds,
/// out_of_bounds_failed, warnings.
nlohmann::json toJson(const NcclTestsRun& run);

} // namespace railyard::live
