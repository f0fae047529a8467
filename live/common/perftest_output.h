// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The output of the perftest tools (ib_write_bw, ib_read_bw, ib_send_bw, ib_atomic_bw, ib_write_lat,
// ib_read_lat, ib_send_lat, ib_atomic_lat; server and client sides), read line by line while the
// tool runs (PerftestParser) or from a whole file (`results import --kind perftest`). Tested
// against the real outputs in ../shared/fixtures (perftest-*.txt).
//
// What the reader accepts:
// - LF or CRLF line ends; tabs or spaces wherever perftest prints whitespace; lines with their
//   leading spaces stripped, or with one more (as documentation copies have them).
// - A transcript around the output: blank lines, '#' comments (the fixtures' `# source:` line),
//   and the shell command that started the tool ("$ ib_write_bw -d mlx5_0 host",
//   "[root@h ~]# ib_read_bw ..."). The command is read: it tells the side (a host argument makes
//   the client, none the server; -P/-Z say so), and -b, -C, -R, -d, -i, -x, -q, --use_cuda*,
//   --use_rocm, --use_musa and perftest's other memory options where the output does not.
// - perftest's notices and warnings ("WARNING: ...", "Conflicting CPU frequency values detected",
//   "Requested SQ size might be too big", "Requested mtu is higher than active mtu") and the GPU
//   set-up lines (CUDA, dma-buf, ROCm, MUSA, MLU, Neuron, Gaudi, OpenCL): kept in `warnings` or read into the run.
// - Lines of another program between perftest's lines: skipped, with a warning that quotes them.
// - Two perftest processes writing into one log (a loopback test: server and client output
//   interleaved line by line, headers duplicated and in shuffled order): each line is given to the
//   run whose output it continues (see parsePerftestOutputs).
// - A cut output: a results row that is cut (its last figure has fewer decimals than perftest
//   prints, or a field is missing) is never a row; the run is incomplete and a finding says where
//   it stopped.
// Anything perftest prints that is not read (histograms, usage text) is skipped with a warning.
#pragma once

#include "core/plan.h"
#include "core/result.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// perftest's memory types for the test buffers (perftest_parameters.h MEMORY_*, the accelerators
/// its --use_* options name): host memory, NVIDIA (CUDA), AMD (ROCm), Moore Threads (MUSA),
/// Cambricon (MLU), AWS Neuron, Intel Gaudi (--use_hl) and OpenCL.
enum class GpuMemory { Host, Cuda, Rocm, Musa, Mlu, Neuron, Gaudi, OpenCl };

/// "host", "cuda", "rocm", "musa", "mlu", "neuron", "gaudi", "opencl".
std::string_view gpuMemoryName(GpuMemory memory);

/// One row of a bandwidth table. Bandwidths in Gb/s (10^9 bit/s): perftest's "MB/sec" (and the
/// newer "MiB/sec") is MiB/s, 2^20 bytes/s, so Gb/s = value * 2^20 * 8 / 10^9; "Gb/sec"
/// (--report_gbits) stays as printed. In a bidirectional run (-b) the figures are perftest's sum
/// of both directions.
struct PerftestBwRow {
    std::uint64_t bytes = 0;
    std::uint64_t iterations = 0;
    double bwPeakGbps = 0;    ///< 0 when perftest did not measure the peak (-D, -N)
    double bwAverageGbps = 0;
    double msgRateMpps = 0;   ///< 0 when the table has no MsgRate column (old perftest)
    std::optional<int> serviceLevel;                 ///< "#sl" column (QoS runs)
    std::optional<double> bwPort1Gbps, msgRatePort1Mpps; ///< --report-per-port
    std::optional<double> bwPort2Gbps, msgRatePort2Mpps;
    std::optional<double> cpuUtilPercent;            ///< --cpu_util
    int line = 0;                                    ///< 1-based line of the input
};

/// One row of a latency table, in microseconds as printed; absent where the table has no such
/// column (old perftest prints t_min, t_max, t_typical only; a duration run (-D) prints t_avg and
/// "tps average"). With -C (--report-cycles) perftest prints CPU cycles under the same headers:
/// PerftestRun::latencyUnit is then "cycles".
struct PerftestLatRow {
    std::uint64_t bytes = 0;
    std::uint64_t iterations = 0;
    std::optional<double> tMinUs, tMaxUs, tTypicalUs, tAvgUs, tStdevUs, p99Us, p999Us;
    std::optional<double> tpsAverage;     ///< duration runs
    std::optional<double> cpuUtilPercent; ///< --cpu_util
    int line = 0;
};

/// One "local address:" / "remote address:" line (one per QP) and its "GID:" line, as printed.
struct PerftestEndpoint {
    std::string lid;   ///< "0xd06", "0000"
    std::string qpn;   ///< "0x095f"
    std::string psn;
    std::string rkey;  ///< empty where not printed (rdma_cm, send)
    std::string vaddr;
    std::string outReads; ///< "OUT 0x10" (read and atomic tests)
    std::string gid;      ///< "00:00:...:192:168:02:226"; empty on IB without GRH
};

/// One perftest process's output.
struct PerftestRun {
    std::string tool;   ///< "ib_write_bw", "ib_read_lat", ... from the banner (or the command); "" unknown
    std::string banner; ///< as printed: "RDMA_Write Bidirectional BW Test"
    std::string side;   ///< "server" | "client" | "" (a bidirectional run without command or banner tells neither)
    bool bidirectional = false; ///< -b: "Bidirectional" in the banner, or -b in the command
    std::string device;         ///< "Device" ("mlx5_0")
    int ibPort = 1;             ///< not printed by perftest: -i/--ib-port from the command, else perftest's default 1
    std::string linkType;       ///< "Link type": "IB" | "Ethernet"
    std::string transport;      ///< "Transport type": "IB"
    std::optional<int> gidIndex; ///< "GID index" (printed only when set)
    int qps = 0;                ///< "Number of qps"; 0 when not printed
    std::string connection;     ///< "Connection type": "RC", "UC", "UD", "XRC", "DC", "SRD", "RawEth"
    int mtu = 0;                ///< "Mtu", bytes; 0 when not printed
    std::optional<int> txDepth, rxDepth, cqModeration, maxInlineData, outstandingReads, tos;
    std::map<std::string, std::string> settings; ///< every "Key : value" of the header, as printed
    std::string units;          ///< the table's bandwidth unit as printed: "MB/sec", "MiB/sec", "Gb/sec"; "" no table
    std::string latencyUnit = "usec"; ///< "cycles" with -C
    /// Whose memory the buffers were in: the command (--use_cuda, --use_rocm, --use_musa, ...),
    /// the header ("Use ROCm memory : ON") or the set-up lines of perftest's memory backends.
    GpuMemory gpuMemory = GpuMemory::Host;
    bool gpuDmabuf = false;     ///< --use_cuda_dmabuf (--use_rocm_dmabuf, ...) or "using DMA-BUF" lines
    std::optional<int> gpuDevice; ///< "Picking device No. 0" / "Picking GPU number 0" / --use_cuda=N
    std::string gpuName;        ///< "[pid = 1, dev = 0] device name = [NVIDIA A40]"
    bool cuda() const { return gpuMemory == GpuMemory::Cuda; }
    bool rdmaCm = false;        ///< "rdma_cm QPs : ON" or "Data ex. method : rdma_cm" (-R) or -R/-z
    bool peakMeasured = true;   ///< false after "WARNING: BW peak won't be measured in this run." (-D, -N)
    std::optional<PerftestEndpoint> local, remote;           ///< the first QP's
    std::vector<PerftestEndpoint> localEndpoints, remoteEndpoints; ///< every QP's
    std::vector<PerftestBwRow> bwRows;   ///< the results table (bandwidth tests)
    std::vector<PerftestBwRow> localBwRows, remoteBwRows; ///< --report-both: " Local results:" / " Remote results:"
    std::vector<PerftestLatRow> latRows; ///< the results table (latency tests)
    bool complete = false;  ///< the results table was closed by perftest's dashed line
    bool failed = false;    ///< perftest reported a failure (PERFTEST_FAILED)
    std::string command;    ///< the command line that started this run, when the transcript shows it
    int firstLine = 0, lastLine = 0; ///< 1-based lines of the input this run spans
    /// PERFTEST_TRUNCATED (error): stopped before the table was closed (says after which size);
    /// PERFTEST_FAILED (error): perftest reported an error (connection, device, QP state,
    /// completion status named as ibv_wc_status_str does, CQ polling, GPU memory, options);
    /// PERFTEST_WAITING (error): a server that only waited for its client.
    std::vector<core::Finding> findings;
    std::vector<std::string> warnings; ///< in words, "perftest: line 3: ..."
};

/// What feed() saw: a results row that the line completed (pointers valid until the next feed()).
struct PerftestFeed {
    const PerftestBwRow* bwRow = nullptr;
    const PerftestLatRow* latRow = nullptr;
    std::size_t run = 0; ///< index of the run the row belongs to (see finishAll)
    explicit operator bool() const { return bwRow != nullptr || latRow != nullptr; }
};

/// Streaming reader: feed() each line as the tool prints it (without or with its line end), then
/// finish(). A row is reported by the feed() of its line; a line the stream stopped inside of is
/// given to feedPartial(), which takes only what cannot be bogus (a row whose figures are all
/// there, a full dashed line, an error line).
class PerftestParser {
public:
    PerftestParser();
    ~PerftestParser();
    PerftestParser(PerftestParser&&) noexcept;
    PerftestParser& operator=(PerftestParser&&) noexcept;

    PerftestFeed feed(std::string_view line);
    PerftestFeed feedPartial(std::string_view line);

    /// A perftest line was seen (banner, settings, addresses, results header, the server's
    /// "Waiting for client to connect", a perftest error such as "Couldn't connect to h:p", or a
    /// perftest command line).
    bool recognised() const;
    std::size_t runCount() const;

    /// The run that stands for the input: the only one, or, of several (processes writing into one
    /// log, or runs one after the other), a client's with results, the one with most rows, the
    /// later on a tie (a warning says which were left out). Not recognised: an empty run whose warnings
    /// say so. finish() and finishAll() end the parse.
    PerftestRun finish();
    /// Every run, in the order their first line came.
    std::vector<PerftestRun> finishAll();

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

/// The whole output of one perftest process (or a log with several: the run finish() picks).
/// Error "TOOL_OUTPUT" when nothing in the text is perftest's.
core::Result<PerftestRun> parsePerftestOutput(std::string_view text);

/// Several runs in one file: server and client output interleaved in one log (a loopback test), or
/// runs one after the other. Each line goes to the run whose output it continues: the banner to a
/// run that has none yet (else a new run), a header line to the oldest run still in its header that
/// lacks that key, an address line to the oldest run that lacks one (up to "Number of qps"), the
/// results header to the oldest run with none, a row to the oldest open table it fits (same
/// columns, and a larger size than its last row, or its first row; else the same size again), the
/// closing dashed line to the oldest open table with rows. The
/// side of each run comes from its command, from "Waiting for client rdma_cm QP to connect", from
/// " TX depth" (printed by the client only, unless -b), or from "Waiting for client to connect".
/// Runs in the order their first line came. Error "TOOL_OUTPUT" when there is none.
core::Result<std::vector<PerftestRun>> parsePerftestOutputs(std::string_view text);

/// interfaces.md §4 `results import --json` shape: {"tool", "complete", "rows": [{"bytes",
/// "iterations", "bw_peak_gbps", "bw_average_gbps", "msg_rate_mpps"}], "findings": [...]} plus
/// "bidirectional", "side", "banner", "device", "ib_port", "link_type", "transport", "gid_index",
/// "qps", "connection", "mtu", "units_printed", "cuda", "cuda_dmabuf", "cuda_device", "rocm"
/// (as before other backends were read), "gpu_memory" (gpuMemoryName), "gpu_dmabuf", "gpu_device",
/// "gpu_name", "rdma_cm",
/// "peak_measured", "local"/"remote" endpoints, "latency_rows" (keys "t_min_us" ... "p999_us", or
/// "*_cycles" with -C), "local_rows"/"remote_rows" (--report-both), "warnings". Absent values are
/// left out (no nulls).
nlohmann::json toJson(const PerftestRun& run);

} // namespace railyard::live
