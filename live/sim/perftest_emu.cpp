// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// railyard-perftest-emu: the emulator's stand-in for perftest (linux-rdma/perftest 25.01,
// version string 6.24), so that `live test` runs on the emulated fabric with the production code:
// the agents start it as DIR/tools/<tool> with RAILYARD_SYSFS_ROOT set to the node's emulated sysfs
// root, and Railyard reads its output with the same parser as a real run's.
//
// It is ib_write_bw, ib_read_bw, ib_write_lat or ib_read_lat after argv[0]'s base name (the
// emulator's links) or a first argument `--as TOOL`. Options: those Railyard generates
// (live/client/test_launch.h): -d DEV -i PORT -x GID --use_cuda=N --use_cuda_dmabuf -F
// --report_gbits -q N -a | -s SIZE, -n ITERS | -D SECS, -b, --tclass=N, -p TCPPORT [server-host],
// plus -h and -V; any other is refused as perftest refuses an unknown one (usage, exit 1).
//
// What it does, as perftest does it, with perftest's own messages and formats:
//   - reads the port from RAILYARD_SYSFS_ROOT (class/infiniband/<dev>/ports/<port>/...): a port that
//     is not ACTIVE fails before any connection (" Port number 1 state is Down"); GPU memory
//     (--use_cuda) needs nvidia-peermem (module/nvidia_peermem), with --use_cuda_dmabuf dma-buf
//     support (the node's sim/gpu.json): without it the memory registration fails
//     ("Couldn't allocate MR" / " Couldn't create IB resources", or "DMA-BUF is not supported on
//     this GPU") after the connection, and the other side then fails reading from the socket;
//   - the server prints its banner and waits for one client on TCP TCPPORT; the client connects
//     (retrying for up to 3 s, where real perftest tries once: the agents start both sides at
//     about the same time) or fails with "Couldn't connect to host:port";
//   - the two exchange their port's data rate, link layer, MTU and GPUDirect state, and their QP
//     addresses (LIDs and GIDs from sysfs); both print the header, the local and remote address
//     lines and the results (live/sim/perftest_model.h has the bandwidth and latency model);
//     the server of a one-way bandwidth test prints the client's last row, as perftest does.
// Addresses: each emulated node listens on and is reached at its own loopback address
// (emulatedNodeAddress: 127.F.x.y), so that pairs of different nodes can use one TCP port at once
// when the client is given the server's node name (as test_launch.h makes the command lines); a
// host that is no emulated node is resolved as usual. A server also listens on 127.0.0.1 (the
// address all the emulated nodes' agents share) when no other server has that port there: a
// client given 127.0.0.1 reaches it, unless other emulated servers wait on that port too: then
// the client may be another pair's, and it is turned away with the reason (and "Couldn't connect
// to host:port"), rather than measure the wrong pair.
// Time: a run of -n iterations takes what it would take at the modelled rate, at most about a
// quarter of a second in all (-a included); a -D run lasts its duration, as perftest's does.
// SIGTERM or SIGINT end it at once (exit 143 / 130); the listening socket is closed once the
// client is in, and the process ends when the process that started it has gone.
#include "live/sim/perftest_model.h"
#include "live/sim/perftest_tools.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

using namespace railyard;
namespace fs = std::filesystem;

// perftest_parameters.h / perftest_communication.h (25.01).
#define RESULT_LINE "---------------------------------------------------------------------------------------\n"
#define RESULT_FMT " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]"
#define RESULT_FMT_G " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"
#define RESULT_FMT_LAT                                                                                                 \
    " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   99% "        \
    "percentile[usec]   99.9% percentile[usec] "
#define RESULT_FMT_LAT_DUR " #bytes        #iterations       t_avg[usec]    tps average"
#define REPORT_FMT " %-7lu    %-10" PRIu64 "       %-7.2lf            %-7.2lf\t\t     %-7.6lf"
#define REPORT_FMT_EXT " %-7lu    %" PRIu64 "           %-7.6lf            %-7.6lf            %-7.6lf"
#define REPORT_FMT_LAT                                                                                                 \
    " %-7lu %" PRIu64 "          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f"
#define REPORT_FMT_LAT_DUR " %-7lu       %" PRIu64 "            %-7.2f        %-7.2f"
#define BASIC_ADDR_FMT " %s address: LID %#04x QPN %#06x PSN %#06x"
#define READ_FMT " OUT %#04x"
#define RDMA_FMT " RKey %#08x VAddr %#016llx"
#define PERF_GID_FMT " %s: %02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d:%02d\n"

constexpr const char* kVersion = "6.24";
constexpr std::uint64_t kMaxSize = 8388608; // -a: 2 .. 2^23
constexpr int kDefaultPort = 18515;
constexpr int kOutstandingReads = 16; // mlx5's max_qp_rd_atom
constexpr int kDefaultInlineWriteLat = 220; // DEF_INLINE_WRITE
constexpr auto kRunBudget = std::chrono::milliseconds(250);
constexpr auto kConnectRetry = std::chrono::seconds(3);

// ------------------------------------------------------------------------------------------
// Output: each line straight to its descriptor, so that nothing is lost on a signal and the
// order of stdout and stderr in one pipe is the order they were written.

void writeAll(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        text.remove_prefix(static_cast<std::size_t>(n));
    }
}

__attribute__((format(printf, 1, 2))) std::string format(const char* fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    va_list again;
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, fmt, args);
    va_end(args);
    std::string text(n > 0 ? static_cast<std::size_t>(n) : 0, '\0');
    if (n > 0)
        std::vsnprintf(text.data(), text.size() + 1, fmt, again);
    va_end(again);
    return text;
}

void out(std::string_view text)
{
    writeAll(1, text);
}
void err(std::string_view text)
{
    writeAll(2, text);
}

[[noreturn]] void onStopSignal(int sig)
{
    ::_exit(128 + sig);
}

pid_t g_parent = 0;

/// The process that started this one has gone (the agent, or the emulator around it).
bool orphaned()
{
    return ::getppid() != g_parent;
}

// ------------------------------------------------------------------------------------------
// The tools and their options.

struct Tool {
    std::string_view name;
    bool read;
    bool latency;
    std::string_view verb; ///< testsStr[]: "RDMA_Write", "RDMA_Read"
};
constexpr Tool kTools[] = { { "ib_write_bw", false, false, "RDMA_Write" }, { "ib_read_bw", true, false, "RDMA_Read" },
    { "ib_write_lat", false, true, "RDMA_Write" }, { "ib_read_lat", true, true, "RDMA_Read" } };

const Tool* toolNamed(std::string_view name)
{
    for (const auto& t : kTools)
        if (t.name == name)
            return &t;
    return nullptr;
}

struct Options {
    std::string argv0;
    const Tool* tool = nullptr;
    std::string device;
    int ibPort = 1;
    int gidIndex = -1;
    std::optional<int> cudaDevice;
    bool dmabuf = false;
    bool reportGbits = false;
    int qps = 1;
    bool all = false;
    bool sizeGiven = false;
    std::uint64_t size = 0;
    bool itersGiven = false;
    std::uint64_t iters = 0;
    int duration = 0; ///< -D; 0: iterations
    bool bidirectional = false;
    int trafficClass = -1;
    int tcpPort = kDefaultPort;
    std::string server; ///< the client's server host; empty: this is the server
    bool noPeak = false;

    bool bw() const { return !tool->latency; }
    bool client() const { return !server.empty(); }
};

void usage(const Options& o)
{
    const bool bw = !o.tool->latency, lat = o.tool->latency, read = o.tool->read, write = !read;
    const char* a0 = o.argv0.c_str();
    std::string u = "Usage:\n";
    u += format("  %s            start a server and wait for connection\n", a0);
    u += format("  %s <host>     connect to server at <host>\n", a0);
    u += "\nOptions:\n";
    u += "  -a, --all  Run sizes from 2 till 2^23\n";
    if (bw)
        u += "  -b, --bidirectional  Measure bidirectional bandwidth (default unidirectional)\n";
    u += write ? "  -c, --connection=<RC/XRC/UC/DC>  Connection type RC/XRC/UC/DC (default RC)\n"
               : "  -c, --connection=<RC/XRC/DC>  Connection type RC/XRC/DC (default RC)\n";
    if (lat)
        u += "  -C, --report-cycles  report times in cpu cycle units (default microseconds)\n";
    u += "  -d, --ib-dev=<dev>  Use IB device <dev> (default first device found)\n";
    u += "  -D, --duration  Run test for a customized period of seconds.\n";
    if (read) {
        u += "  -e, --events  Sleep on CQ events (default poll)\n";
        u += "  -X, --vector=<completion vector>  Set <completion vector> used for events\n";
    }
    u += "  -f, --margin  measure results within margins. (default=2sec)\n";
    u += "  -F, --CPU-freq  Do not show a warning even if cpufreq_ondemand module is loaded, and cpu-freq is not on "
         "max.\n";
    u += "  -h, --help  Show this help screen.\n";
    if (lat)
        u += "  -H, --report-histogram  Print out all results (default print summary only)\n";
    u += "  -i, --ib-port=<port>  Use port <port> of IB device (default 1)\n";
    if (write)
        u += "  -I, --inline_size=<size>  Max size of message to be sent in inline\n";
    if (bw) {
        u += "  -l, --post_list=<list size>\n Post list of send WQEs of <list size> size (instead of single post)\n";
        u += "      --recv_post_list=<list size> Post list of receive WQEs of <list size> size (instead of single "
             "post)\n";
    }
    u += "  -L, --hop_limit=<hop_limit>  Set hop limit value (ttl for IPv4 RawEth QP). Values 0-255 (default 64)\n";
    u += "  -m, --mtu=<mtu>  MTU size : 256 - 4096 (default port mtu)\n";
    u += format("  -n, --iters=<iters>  Number of exchanges (at least 5, default %d)\n", write && bw ? 5000 : 1000);
    if (bw)
        u += "  -N, --noPeak Cancel peak-bw calculation (default with peak up to iters=20000)\n";
    if (read)
        u += "  -o, --outs=<num>  num of outstanding read/atom(default max of device)\n";
    if (bw)
        u += "  -O, --dualport  Run test in dual-port mode.\n";
    u += "  -p, --port=<port>  Listen on/connect to port <port> (default 18515)\n";
    if (bw) {
        u += "  -q, --qp=<num of qp's>  Num of qp's(default 1)\n";
        u += "  -Q, --cq-mod  Generate Cqe only after <--cq-mod> completion\n";
    }
    u += "  -R, --rdma_cm  Connect QPs with rdma_cm and run test on those QPs\n";
    u += format("  -s, --size=<size>  Size of message to exchange (default %d)\n", lat ? 2 : 65536);
    u += "  -S, --sl=<sl>  SL (default 0)\n";
    if (bw)
        u += "  -t, --tx-depth=<dep>  Size of tx queue (default 128)\n";
    u += "  -T, --tos=<tos value>  Set <tos_value> to RDMA-CM QPs. available only with -R flag. values 0-256 (default "
         "off)\n";
    u += "  -u, --qp-timeout=<timeout>  QP timeout, timeout value is 4 usec * 2 ^(timeout), default 14\n";
    if (lat)
        u += "  -U, --report-unsorted  (implies -H) print out unsorted results (default sorted)\n";
    u += "  -V, --version  Display version number\n";
    if (bw)
        u += "  -w, --limit_bw=<value>  Set verifier limit for bandwidth\n";
    u += "  -W, --report-counters=<list of counter names>  Report performance counter change (example: "
         "\"counters/port_xmit_data,hw_counters/out_of_buffer\")\n";
    u += "  -x, --gid-index=<index>  Test uses GID with GID index\n";
    if (bw)
        u += "  -y, --limit_msgrate=<value>  Set verifier limit for Msg Rate\n";
    u += "  -z, --comm_rdma_cm  Communicate with rdma_cm module to exchange data - use regular QPs\n";
    u += "\n";
    u += "      --out_json  Save the report in a json file\n";
    u += "      --out_json_file=<file>  Name of the report json file. (Default: perftest_out.json in the working "
         "directory) \n";
    u += "      --cpu_util  Show CPU Utilization in report, valid only in Duration mode \n";
    u += "      --dlid  Set a Destination LID instead of getting it from the other side.\n";
    u += "      --dont_xchg_versions  Do not exchange versions and MTU with other side \n";
    u += "      --force-link=<value>  Force the link(s) to a specific type: IB or Ethernet.\n";
    u += "      --no_lock  No lock in IO, including post send, post recv, post srq recv and poll cq \n";
    u += "      --no_ddp  Disable the receiver capability to consume out-of-order WRs. \n";
    u += "      --ipv6  Use IPv6 GID. Default is IPv4\n";
    u += "      --ipv6-addr=<IPv6>  Use IPv6 address for parameters negotiation. Default is IPv4\n";
    u += "      --bind_source_ip  Source IP of the interface used for connection establishment. By default taken from "
         "routing "
         "table.\n";
    if (lat)
        u += "      --latency_gap=<delay_time>  delay time between each post send\n";
    u += "      --mmap=file  Use an mmap'd file as the buffer for testing P2P transfers.\n";
    u += "      --mmap-offset=<offset>  Use an mmap'd file as the buffer for testing P2P transfers.\n";
    if (bw)
        u += "      --mr_per_qp  Create memory region for each qp.\n";
    u += "      --odp  Use On Demand Paging instead of Memory Registration.\n";
    u += "      --output=<units> Set verbosity output level: bandwidth , message_rate, latency \n";
    if (!(write && lat))
        u += "      --payload_file_path=<payload_txt_file_path> Set the payload by passing a txt file containing a "
             "pattern in "
             "the next form(little endian): '0xaaaaaaaa, 0xbbbbbbbb, ...' .\n";
    u += " Latency measurement is Average calculation \n";
    u += "      --use_old_post_send Use old post send flow (ibv_post_send).\n";
    u += "      --perform_warm_up Perform some iterations before start measuring in order to warming-up memory cache, "
         "valid "
         "in Atomic, Read and Write BW tests\n";
    u += "      --pkey_index=<pkey index> PKey index to use for QP\n";
    if (bw) {
        u += "      --report-both  Report RX & TX results separately on Bidirectional BW tests\n";
        u += "      --report_gbits  Report Max/Average BW of test in Gbit/sec (instead of MiB/sec)\n";
        u += "        Note: MiB=2^20 byte, while Gb=10^9 bits. Use these formulas for conversion:\n";
        u += "        Factor=10^9/(2^20*8)=119.2; MiB=Gb_result * factor; Gb=MiB_result / factor\n";
        u += "      --report-per-port  Report BW data on both ports when running Dualport and Duration mode\n";
        u += "      --reversed  Reverse traffic direction - Server send to client\n";
        u += "      --run_infinitely  Run test forever, print results every <duration> seconds\n";
    }
    u += "      --retry_count=<value>  Set retry count value in rdma_cm mode\n";
    u += "      --tclass=<value>  Set the Traffic Class in GRH (if GRH is in use)\n";
    u += "      --flow_label=<fl0,fl1,fl2,...>  Set the flow_label in GRH for each qp in roundrobin method(if GRH is "
         "in use)\n";
    u += "      --use_cuda=<cuda device id> Use CUDA specific device for GPUDirect RDMA testing\n";
    u += "      --use_cuda_bus_id=<cuda full BUS id> Use CUDA specific device, based on its full PCIe address, for "
         "GPUDirect "
         "RDMA testing\n";
    u += "      --use_cuda_dmabuf Use CUDA DMA-BUF for GPUDirect RDMA testing\n";
    u += "      --use_hugepages  Use Hugepages instead of contig, memalign allocations.\n";
    u += "      --use-null-mr  Allocate a null memory region for the client with ibv_alloc_null_mr.\n";
    if (bw) {
        u += "      --wait_destroy=<seconds>  Wait <seconds> before destroying allocated resources (QP/CQ/PD/MR..)\n";
        u += "      --disable_pcie_relaxed Disable PCIe relaxed ordering\n";
        u += "\n Rate Limiter:\n";
        u += "      --burst_size=<size> Set the amount of messages to send in a burst when using rate limiter\n";
        u += "      --typical_pkt_size=<bytes> Set the size of packet to send in a burst. Only supports PP rate "
             "limiter\n";
        u += "      --rate_limit=<rate> Set the maximum rate of sent packages. default unit is [Gbps]. use "
             "--rate_units to "
             "change that.\n";
        u += "      --rate_units=<units> [Mgp] Set the units for rate limit to MiBps (M), Gbps (g) or pps (p). default "
             "is Gbps "
             "(g).\n";
        u += "        Note (1): pps not supported with HW limit.\n";
        u += "        Note (2): When using PP rate_units is forced to Kbps.\n";
        u += "      --rate_limit_type=<type> [HW/SW/PP] Limit the QP's by HW, PP or by SW. Disabled by default. When "
             "rate_limit is not specified HW limit is Default.\n";
        u += "        Note: in Latency under load test SW rate limit is forced\n";
    }
    u += "      --use_ooo  Use out of order data placement\n";
    if (write)
        u += "      --write_with_imm  Use write-with-immediate verb instead of write\n";
    u += "\n";
    out(u);
}

enum class Parsed { Ok, Failure, Help, Version };

/// strtol as perftest's CHECK_VALUE reads a number: the whole text, any base prefix.
bool checkValue(const char* name, const char* type, long long& value)
{
    char* end = nullptr;
    value = std::strtoll(optarg, &end, 0);
    if (*end != '\0') {
        err(format(" %s argument %s should be %s\n", name, optarg, type));
        return false;
    }
    return true;
}

/// perftest's parser() and force_dependencies() for the options the stand-in knows.
Parsed parseOptions(std::vector<char*>& argv, Options& o)
{
    static int reportGbitsFlag = 0, useCudaFlag = 0, useCudaDmabufFlag = 0, tclassFlag = 0;
    static const option kLong[] = { { "port", 1, nullptr, 'p' }, { "ib-dev", 1, nullptr, 'd' },
        { "ib-port", 1, nullptr, 'i' }, { "size", 1, nullptr, 's' }, { "iters", 1, nullptr, 'n' },
        { "gid-index", 1, nullptr, 'x' }, { "all", 0, nullptr, 'a' }, { "CPU-freq", 0, nullptr, 'F' },
        { "qp", 1, nullptr, 'q' }, { "help", 0, nullptr, 'h' }, { "bidirectional", 0, nullptr, 'b' },
        { "version", 0, nullptr, 'V' }, { "duration", 1, nullptr, 'D' }, { "report_gbits", 0, &reportGbitsFlag, 1 },
        { "use_cuda", 1, &useCudaFlag, 1 }, { "use_cuda_dmabuf", 0, &useCudaDmabufFlag, 1 },
        { "tclass", 1, &tclassFlag, 1 }, { nullptr, 0, nullptr, 0 } };
    std::set<std::string> seen;
    const int argc = static_cast<int>(argv.size()) - 1;
    long long v = 0;
    for (;;) {
        int index = -1;
        const int c = ::getopt_long(argc, argv.data(), "p:d:i:s:n:x:q:D:aFbhV", kLong, &index);
        if (c == -1)
            break;
        if (c == 0 || (c > 0 && c != '?')) {
            const std::string key
                = c == 0 ? std::string("--") + kLong[index].name : std::string("-") + static_cast<char>(c);
            if (!seen.insert(key).second) {
                err(c == 0 ? format(" Duplicated argument: %s \n", kLong[index].name)
                           : format(" Duplicated argument: -%c \n", c));
                return Parsed::Failure;
            }
        }
        switch (c) {
        case 'p':
            if (!checkValue("Port", "int", v))
                return Parsed::Failure;
            o.tcpPort = static_cast<int>(v);
            break;
        case 'd':
            o.device = optarg;
            break;
        case 'i':
            if (!checkValue("IB Port", "uint8_t", v))
                return Parsed::Failure;
            o.ibPort = static_cast<std::uint8_t>(v);
            if (o.ibPort < 1) {
                err("IB Port can't be less than 1\n");
                return Parsed::Failure;
            }
            break;
        case 'n':
            if (!checkValue("Iteration num", "uint64_t", v))
                return Parsed::Failure;
            if (v < 5 || v > 4294967296LL) {
                err(" Iteration num should be between 5 and 4294967296\n");
                return Parsed::Failure;
            }
            o.iters = static_cast<std::uint64_t>(v);
            o.itersGiven = true;
            break;
        case 'x':
            if (!checkValue("Gid index", "uint8_t", v))
                return Parsed::Failure;
            v = static_cast<std::uint8_t>(v);
            if (v > 64) {
                err(" Gid index should be between 0 and 64\n");
                return Parsed::Failure;
            }
            o.gidIndex = static_cast<int>(v);
            break;
        case 'q':
            if (o.tool->latency) {
                err(" Multiple QPs only available on bw tests\n");
                return Parsed::Failure;
            }
            if (!checkValue("num of Qps", "int", v))
                return Parsed::Failure;
            if (v < 1 || v > 16384) {
                err(" num of Qps should be between 1 and 16384\n");
                return Parsed::Failure;
            }
            o.qps = static_cast<int>(v);
            break;
        case 'D':
            if (!checkValue("Duration period", "int", v))
                return Parsed::Failure;
            if (v <= 0) {
                err(" Duration period must be positive\n");
                return Parsed::Failure;
            }
            o.duration = static_cast<int>(std::min<long long>(v, INT_MAX));
            break;
        case 'a':
            o.all = true;
            break;
        case 'F':
            break;
        case 'b':
            o.bidirectional = true;
            if (o.tool->latency) {
                err(" Bidirectional is only available in BW test\n");
                return Parsed::Failure;
            }
            break;
        case 'h':
            usage(o);
            return Parsed::Help;
        case 'V':
            out(format("Version: %s\n", kVersion));
            return Parsed::Version;
        case 's': {
            std::string text = optarg;
            std::uint64_t factor = 1;
            if (!text.empty() && text.back() == 'K') {
                text.pop_back();
                factor = 1024;
            }
            if (!text.empty() && text.back() == 'M') {
                text.pop_back();
                factor = 1024 * 1024;
            }
            const long long n = std::strtol(text.c_str(), nullptr, 0);
            if (n < 1 || static_cast<std::uint64_t>(n) * factor > UINT_MAX / 2) {
                err(format(" Message Size should be between %d and %d\n", 1, static_cast<int>(UINT_MAX / 2)));
                return Parsed::Failure;
            }
            o.size = static_cast<std::uint64_t>(n) * factor;
            o.sizeGiven = true;
            break;
        }
        case 0:
            if (reportGbitsFlag) {
                o.reportGbits = true;
                reportGbitsFlag = 0;
            }
            if (useCudaFlag) {
                if (!checkValue("CUDA device", "int", v))
                    return Parsed::Failure;
                if (v < 0) {
                    err(" CUDA device must be non-negative int\n");
                    return Parsed::Failure;
                }
                o.cudaDevice = static_cast<int>(v);
                useCudaFlag = 0;
            }
            if (useCudaDmabufFlag) {
                if (!o.cudaDevice) {
                    err("CUDA DMA-BUF cannot be used without CUDA\n");
                    return Parsed::Failure;
                }
                o.dmabuf = true;
                useCudaDmabufFlag = 0;
            }
            if (tclassFlag) {
                if (!checkValue("traffic class", "uint16_t", v))
                    return Parsed::Failure;
                o.trafficClass = static_cast<std::uint16_t>(v);
                tclassFlag = 0;
            }
            break;
        default:
            err(" Invalid Command or flag.\n");
            err(" Please check command line and run again.\n\n");
            usage(o);
            err("railyard-perftest-emu: the emulator's perftest knows only the options Railyard uses: -d -i -x "
                "--use_cuda "
                "--use_cuda_dmabuf -F --report_gbits -q -a -s -n -D -b --tclass -p -h -V\n");
            return Parsed::Failure;
        }
    }
    if (optind == argc - 1) {
        o.server = argv[static_cast<std::size_t>(optind)];
    } else if (optind < argc) {
        err(" Invalid Command line. Please check command rerun \n");
        return Parsed::Failure;
    }

    // force_dependencies(), the parts that apply.
    if (!o.itersGiven)
        o.iters = (o.bw() && !o.tool->read) ? 5000 : 1000;
    if (!o.sizeGiven)
        o.size = o.tool->latency ? 2 : 65536;
    if (o.duration > 0) {
        if (o.bw() && !o.noPeak)
            out(" WARNING: BW peak won't be measured in this run.\n");
        o.noPeak = true;
        if (o.all) {
            out(RESULT_LINE);
            err("Duration mode currently doesn't support running on all sizes.\n");
            return Parsed::Failure;
        }
    }
    if (o.all)
        o.size = kMaxSize;
    if (o.duration == 0 && o.iters > 20000 && !o.noPeak && o.bw()) {
        out(" WARNING: BW peak won't be measured in this run.\n");
        o.noPeak = true;
    }
    return Parsed::Ok;
}

// ------------------------------------------------------------------------------------------
// The socket to the other side: one line per message.

class Peer {
public:
    explicit Peer(int fd)
        : m_fd(fd)
    {
    }
    ~Peer()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Peer(const Peer&) = delete;
    Peer& operator=(const Peer&) = delete;

    bool send(const std::string& line)
    {
        std::string_view text = line;
        std::string withEnd;
        if (text.empty() || text.back() != '\n') {
            withEnd = line + "\n";
            text = withEnd;
        }
        while (!text.empty()) {
            const ssize_t n = ::send(m_fd, text.data(), text.size(), MSG_NOSIGNAL);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return false;
            }
            text.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }

    /// The next line (without its end); nullopt when the other side closed or failed.
    std::optional<std::string> receive()
    {
        for (;;) {
            const auto end = m_buffer.find('\n');
            if (end != std::string::npos) {
                std::string line = m_buffer.substr(0, end);
                m_buffer.erase(0, end + 1);
                return line;
            }
            pollfd p { m_fd, POLLIN, 0 };
            const int r = ::poll(&p, 1, 200);
            if (r < 0 && errno != EINTR)
                return std::nullopt;
            if (r <= 0) {
                if (orphaned())
                    return std::nullopt;
                continue;
            }
            char chunk[4096];
            const ssize_t n = ::recv(m_fd, chunk, sizeof chunk, 0);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return std::nullopt;
            m_buffer.append(chunk, static_cast<std::size_t>(n));
        }
    }

    /// Sends `line` and receives the other side's line of the same kind (both sides do the same).
    std::optional<std::string> exchange(const std::string& line)
    {
        if (!send(line))
            return std::nullopt;
        return receive();
    }

private:
    int m_fd = -1;
    std::string m_buffer;
};

/// "key=value" fields of a message.
std::string field(const std::string& line, const std::string& key)
{
    std::istringstream words(line);
    std::string w;
    while (words >> w)
        if (w.size() > key.size() && w.compare(0, key.size(), key) == 0 && w[key.size()] == '=')
            return w.substr(key.size() + 1);
    return {};
}

/// perftest's way to report a broken exchange (ethernet_read_keys, ctx_hand_shake, main).
[[noreturn]] void exchangeFailed()
{
    err("ethernet_read_keys: Couldn't read remote address\n");
    err(" Unable to read from socket/rdma_cm\n");
    err(" Failed to exchange data between server and clients\n");
    std::exit(1);
}

std::optional<sockaddr_in> ipv4(const std::string& address, int port)
{
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::inet_pton(AF_INET, address.c_str(), &a.sin_addr) != 1)
        return std::nullopt;
    return a;
}

/// The server's listening socket on `address`:`port`; -1 on failure.
int listenOn(const std::string& address, int port)
{
    const auto a = ipv4(address, port);
    if (!a)
        return -1;
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, reinterpret_cast<const sockaddr*>(&*a), sizeof *a) != 0 || ::listen(fd, 1) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

/// Waits for one client on any of `listenFds`; -1 on failure. `from`: the index of the listener
/// it came to.
int acceptOne(const std::vector<int>& listenFds, std::size_t& from)
{
    std::vector<pollfd> polls;
    for (const int l : listenFds)
        polls.push_back({ l, POLLIN, 0 });
    for (;;) {
        const int r = ::poll(polls.data(), polls.size(), 200);
        if (r < 0 && errno != EINTR)
            return -1;
        for (std::size_t i = 0; r > 0 && i < polls.size(); ++i) {
            if (!(polls[i].revents & POLLIN))
                continue;
            const int fd = ::accept4(polls[i].fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd >= 0) {
                from = i;
                return fd;
            }
            if (errno != EINTR && errno != ECONNABORTED && errno != EAGAIN)
                return -1;
        }
        if (orphaned()) {
            err("railyard-perftest-emu: the process that started this server has gone; stopping\n");
            return -1;
        }
    }
}

/// The other emulated nodes of `root` whose servers listen on `port` now.
std::vector<std::string> otherServersOn(const fs::path& root, const std::string& self, int port)
{
    std::vector<std::string> nodes;
    for (const auto& address : railyard::live::tcpListenersOn(port))
        if (const auto node = railyard::live::emulatedNodeAt(root, address); node && *node != self)
            nodes.push_back(*node);
    return nodes;
}

/// The client's connection: the emulated node's loopback address, else the host resolved;
/// retried until kConnectRetry has passed. -1 on failure, after perftest's messages.
int connectTo(const fs::path& root, const Options& o)
{
    std::vector<sockaddr_storage> targets;
    std::vector<socklen_t> lengths;
    if (const auto node = railyard::live::emulatedNodeAddress(root, o.server)) {
        const auto a = ipv4(*node, o.tcpPort);
        sockaddr_storage s {};
        std::memcpy(&s, &*a, sizeof *a);
        targets.push_back(s);
        lengths.push_back(sizeof *a);
    } else {
        addrinfo hints {};
        hints.ai_family = AF_INET;
        hints.ai_socktype = SOCK_STREAM;
        addrinfo* res = nullptr;
        const std::string service = std::to_string(o.tcpPort);
        const int rc = ::getaddrinfo(o.server.c_str(), service.c_str(), &hints, &res);
        if (rc != 0) {
            err(format("%s for %s:%d\n", ::gai_strerror(rc), o.server.c_str(), o.tcpPort));
            err("Problem in resolving basic address and port\n");
            return -1;
        }
        for (addrinfo* t = res; t; t = t->ai_next) {
            sockaddr_storage s {};
            std::memcpy(&s, t->ai_addr, t->ai_addrlen);
            targets.push_back(s);
            lengths.push_back(t->ai_addrlen);
        }
        ::freeaddrinfo(res);
    }
    const auto deadline = std::chrono::steady_clock::now() + kConnectRetry;
    for (;;) {
        for (std::size_t i = 0; i < targets.size(); ++i) {
            const int fd = ::socket(targets[i].ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
            if (fd < 0)
                continue;
            if (::connect(fd, reinterpret_cast<const sockaddr*>(&targets[i]), lengths[i]) == 0)
                return fd;
            ::close(fd);
        }
        if (std::chrono::steady_clock::now() >= deadline || orphaned())
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    err(format("Couldn't connect to %s:%d\n", o.server.c_str(), o.tcpPort));
    return -1;
}

// ------------------------------------------------------------------------------------------
// The run.

struct Endpoint {
    unsigned lid = 0, qpn = 0, psn = 0, rkey = 0, outReads = 0;
    unsigned long long vaddr = 0;
    std::array<std::uint8_t, 16> gid {};

    std::string encode() const
    {
        std::string g;
        for (const auto b : gid)
            g += format("%02x", b);
        return format("dest lid=%u qpn=%u psn=%u rkey=%u out=%u vaddr=%llu gid=%s", lid, qpn, psn, rkey, outReads,
            vaddr, g.c_str());
    }
    static std::optional<Endpoint> decode(const std::string& line)
    {
        if (line.rfind("dest ", 0) != 0)
            return std::nullopt;
        Endpoint e;
        e.lid = static_cast<unsigned>(std::strtoul(field(line, "lid").c_str(), nullptr, 10));
        e.qpn = static_cast<unsigned>(std::strtoul(field(line, "qpn").c_str(), nullptr, 10));
        e.psn = static_cast<unsigned>(std::strtoul(field(line, "psn").c_str(), nullptr, 10));
        e.rkey = static_cast<unsigned>(std::strtoul(field(line, "rkey").c_str(), nullptr, 10));
        e.outReads = static_cast<unsigned>(std::strtoul(field(line, "out").c_str(), nullptr, 10));
        e.vaddr = std::strtoull(field(line, "vaddr").c_str(), nullptr, 10);
        const std::string g = field(line, "gid");
        for (std::size_t i = 0; i < 16 && 2 * i + 1 < g.size(); ++i)
            e.gid[i] = static_cast<std::uint8_t>(std::strtoul(g.substr(2 * i, 2).c_str(), nullptr, 16));
        return e;
    }
};

std::string printEndpoint(const Endpoint& e, const char* side, const Options& o)
{
    std::string line = format(BASIC_ADDR_FMT, side, e.lid, e.qpn, e.psn);
    if (o.tool->read)
        line += format(READ_FMT, e.outReads);
    line += format(RDMA_FMT, e.rkey, e.vaddr);
    line += "\n";
    if (o.gidIndex > -1) {
        const auto& g = e.gid;
        line += format(PERF_GID_FMT, "GID", g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8], g[9], g[10], g[11],
            g[12], g[13], g[14], g[15]);
    }
    return line;
}

struct BwRow {
    std::uint64_t size = 0;
    std::uint64_t iters = 0;
    double peakGbps = 0, averageGbps = 0, msgRateMpps = 0;

    std::string encode(const char* kind) const
    {
        return format("%s size=%" PRIu64 " iters=%" PRIu64 " peak=%.9g avg=%.9g mpps=%.9g", kind, size, iters, peakGbps,
            averageGbps, msgRateMpps);
    }
    static std::optional<BwRow> decode(const std::string& line, const char* kind)
    {
        if (line.rfind(std::string(kind) + " ", 0) != 0)
            return std::nullopt;
        BwRow r;
        r.size = std::strtoull(field(line, "size").c_str(), nullptr, 10);
        r.iters = std::strtoull(field(line, "iters").c_str(), nullptr, 10);
        r.peakGbps = std::strtod(field(line, "peak").c_str(), nullptr);
        r.averageGbps = std::strtod(field(line, "avg").c_str(), nullptr);
        r.msgRateMpps = std::strtod(field(line, "mpps").c_str(), nullptr);
        return r;
    }
};

/// print_full_bw_report: MiB/s (2^20 bytes) or Gb/s (--report_gbits).
std::string formatBwRow(const BwRow& r, const Options& o)
{
    const double factor = o.reportGbits ? 1.0 : 1e9 / 8.0 / 1048576.0;
    const double peak = r.peakGbps * factor, avg = r.averageGbps * factor;
    const bool moreDecimals = avg < 0.1 && o.reportGbits;
    return format(moreDecimals ? REPORT_FMT_EXT : REPORT_FMT, static_cast<unsigned long>(r.size), r.iters, peak, avg,
               r.msgRateMpps)
        + "\n";
}

/// A deterministic stream of numbers for the QP addresses (seeded by device, port and side).
class Numbers {
public:
    explicit Numbers(const std::string& seed)
    {
        for (const char c : seed) {
            m_state ^= static_cast<unsigned char>(c);
            m_state *= 1099511628211ULL;
        }
    }
    std::uint64_t next()
    {
        std::uint64_t x = (m_state += 0x9e3779b97f4a7c15ULL);
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    }

private:
    std::uint64_t m_state = 1469598103934665603ULL;
};

struct Run {
    Options o;
    fs::path sysRoot, root;
    std::string node;
    railyard::live::EmulatedRdmaPort port;
    railyard::live::EmulatedGpus gpus;
    int inlineSize = 0;
    unsigned long long gpuBuffer = 0;
    std::uint64_t bufferSize = 0;

    bool cuda() const { return o.cudaDevice.has_value(); }

    std::string header(int cqMod, int mtu) const
    {
        std::string h = RESULT_LINE;
        h += "                    " + std::string(o.tool->verb) + " ";
        if (!o.tool->latency) {
            if (o.bidirectional)
                h += "Bidirectional ";
            h += "BW ";
        } else {
            h += "Latency ";
        }
        h += "Test\n";
        h += format(" Dual-port       : %s\t\tDevice         : %s\n", "OFF", o.device.c_str());
        h += format(" Number of qps   : %d\t\tTransport type : %s\n", o.qps, "IB");
        h += format(" Connection type : %s\t\tUsing SRQ      : %s\n", "RC", "OFF");
        h += format(" PCIe relax order: %s\t\tLock-free      : %s\n", "ON", "OFF");
        h += format(" ibv_wr* API     : %s\t\tUsing DDP      : %s\n", "ON", "OFF");
        if (o.client() || o.bidirectional) {
            const std::uint64_t txDepth
                = o.tool->latency ? 1 : (o.duration == 0 ? std::min<std::uint64_t>(128, o.iters) : 128);
            h += format(" TX depth        : %" PRIu64 "\n", txDepth);
        }
        if (!o.tool->latency)
            h += format(" CQ Moderation   : %d\n", cqMod);
        h += format(" Mtu             : %d[B]\n", mtu);
        h += format(" Link type       : %s\n", port.ethernet ? "Ethernet" : "IB");
        if (o.gidIndex != -1)
            h += format(" GID index       : %d\n", o.gidIndex);
        if (!o.tool->read)
            h += format(" Max inline data : %d[B]\n", inlineSize);
        else
            h += format(" Outstand reads  : %d\n", kOutstandingReads);
        h += format(" rdma_cm QPs\t : %s\n", "OFF");
        h += format(" Data ex. method : %s", "Ethernet");
        h += "\n";
        h += RESULT_LINE;
        return h;
    }

    /// cuda_memory.c and perftest_resources.c: GPU memory set up and registered; false after
    /// perftest's messages when that fails.
    bool setUpMemory()
    {
        if (!cuda())
            return true;
        auto failed = [](bool gpuContext) {
            if (gpuContext)
                err("Couldn't init GPU context: 1\n");
            err("Failed to init memory\n");
            err(" Couldn't create IB resources\n");
            return false;
        };
        const int id = *o.cudaDevice;
        out("initializing CUDA\n");
        if (gpus.gpus.empty()) {
            out("There are no available device(s) that support CUDA\n");
            return failed(true);
        }
        if (id >= static_cast<int>(gpus.gpus.size())) {
            err(format("No such device ID (%d) exists in system\n", id));
            return failed(true);
        }
        out("Listing all CUDA devices in system:\n");
        for (std::size_t i = 0; i < gpus.gpus.size(); ++i) {
            unsigned domain = 0, bus = 0, device = 0, function = 0;
            std::sscanf(gpus.gpus[i].pciAddress.c_str(), "%x:%x:%x.%x", &domain, &bus, &device, &function);
            out(format("CUDA device %zu: PCIe address is %02X:%02X\n", i, bus, device));
        }
        out(format("\nPicking device No. %d\n", id));
        std::string name = gpus.gpus[static_cast<std::size_t>(id)].name;
        if (name.rfind("NVIDIA", 0) != 0)
            name = "NVIDIA " + name;
        out(format("[pid = %d, dev = %d] device name = [%s]\n", static_cast<int>(::getpid()), id, name.c_str()));
        out("creating CUDA Ctx\n");
        out("making it the current CUDA Ctx\n");
        if (o.dmabuf && !gpus.dmabuf) {
            err("DMA-BUF is not supported on this GPU\n");
            return failed(false);
        }
        out("CUDA device integrated: 0\n");
        out(format("cuMemAlloc() of a %" PRIu64 " bytes GPU buffer\n", bufferSize));
        out(format(
            "allocated GPU buffer address at %016llx pointer=%p\n", gpuBuffer, reinterpret_cast<void*>(gpuBuffer)));
        if (o.dmabuf) {
            out(format("using DMA-BUF for GPU buffer address at %#llx aligned at %#llx with aligned size %" PRIu64 "\n",
                gpuBuffer, gpuBuffer, bufferSize));
            out(format("Calling ibv_reg_dmabuf_mr(offset=%d, size=%" PRIu64 ", addr=%p, fd=%d) for QP #%d\n", 0,
                bufferSize, reinterpret_cast<void*>(gpuBuffer), 7, 0));
        } else if (!gpus.peermem) {
            // ibv_reg_mr of GPU memory without nvidia-peermem: EFAULT.
            err("Couldn't allocate MR\n");
            err("failed to create mr\n");
            err("Failed to create MR\n");
            err(" Couldn't create IB resources\n");
            return false;
        }
        return true;
    }

    void tearDownMemory() const
    {
        if (!cuda())
            return;
        out(format("deallocating GPU buffer %016llx\n", gpuBuffer));
        out("destroying current CUDA Ctx\n");
    }
};

std::string describe(const Options& o)
{
    std::string d = std::string(o.tool->name);
    if (o.bidirectional)
        d += " -b";
    d += format(" -q %d", o.qps);
    d += o.all ? std::string(" -a") : format(" -s %" PRIu64, o.size);
    d += o.duration > 0 ? format(" -D %d", o.duration) : format(" -n %" PRIu64, o.iters);
    return d;
}

/// The first message: the test as asked (both sides must run the same) and this side's port and
/// GPUDirect state (exchange_versions, check_mtu and negotiate_params in perftest).
std::string hello(const Run& r)
{
    std::string test = describe(r.o);
    std::replace(test.begin(), test.end(), ' ', '_');
    std::string gpudirect = r.gpus.peermem ? "peermem" : "";
    if (r.gpus.dmabuf)
        gpudirect += gpudirect.empty() ? "dmabuf" : ",dmabuf";
    return format("hello version=%s test=%s rate=%.6g link=%s mtu=%d gpudirect=%s", kVersion, test.c_str(),
        r.port.dataGbps, r.port.ethernet ? "Ethernet" : "IB", r.port.mtu,
        gpudirect.empty() ? "none" : gpudirect.c_str());
}

/// Sleeps, in steps, until `seconds` have passed or the process that started this one has gone.
void sleepFor(double seconds)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point until = Clock::now()
        + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(std::max(0.0, seconds)));
    for (auto now = Clock::now(); now < until && !orphaned(); now = Clock::now())
        std::this_thread::sleep_for(std::min<Clock::duration>(until - now, std::chrono::milliseconds(200)));
}

int runTest(Run& r)
{
    Options& o = r.o;
    const bool server = !o.client();

    // The connection (establish_connection).
    int fd = -1;
    if (server) {
        // The node's own address; also 127.0.0.1 while no other server has this port there, for
        // a client given the address every emulated node's agent shares.
        const auto nodeAddress = railyard::live::emulatedNodeAddress(r.root, r.node);
        std::vector<int> listenFds;
        const int listenFd = listenOn(nodeAddress.value_or("0.0.0.0"), o.tcpPort);
        if (listenFd >= 0) {
            listenFds.push_back(listenFd);
            if (nodeAddress)
                if (const int shared = listenOn("127.0.0.1", o.tcpPort); shared >= 0)
                    listenFds.push_back(shared);
        }
        out("\n************************************\n");
        out("* Waiting for client to connect... *\n");
        out("************************************\n");
        if (listenFd < 0) {
            err(format("Couldn't listen to port %d\n", o.tcpPort));
            err("Unable to open file descriptor for socket connection\n");
            err(" Unable to init the socket connection\n");
            return 1;
        }
        for (;;) {
            std::size_t from = 0;
            fd = acceptOne(listenFds, from);
            if (fd < 0 || from == 0)
                break;
            // Through 127.0.0.1: fine unless another emulated server waits on this port too, when
            // the client may be another pair's. It is turned away, with the reason.
            const auto others = otherServersOn(r.root, r.node, o.tcpPort);
            if (others.empty())
                break;
            std::string names;
            for (const auto& n : others)
                names += (names.empty() ? "" : ",") + n;
            {
                Peer refused(fd);
                refused.send("ambiguous port=" + std::to_string(o.tcpPort) + " servers=" + r.node + "," + names);
                // Close gracefully: read what the client sends until it goes (at most 2 s), so
                // that no reset throws away the reason before the client has read it.
                ::shutdown(fd, SHUT_WR);
                for (int i = 0; i < 20; ++i) {
                    pollfd p { fd, POLLIN, 0 };
                    char chunk[512];
                    if (::poll(&p, 1, 100) > 0 && ::recv(fd, chunk, sizeof chunk, 0) <= 0)
                        break;
                }
            }
            err("railyard-perftest-emu: turned away a client that came to 127.0.0.1:" + std::to_string(o.tcpPort)
                + ": the servers of " + r.node + " and " + names
                + " wait on that port, and the client may be another's; give the client this server's node name\n");
            ::close(listenFds.back()); // 127.0.0.1 no more
            listenFds.pop_back();
            fd = -1;
        }
        for (const int l : listenFds)
            ::close(l);
        if (fd < 0) {
            err("accept() failed\n");
            err("Unable to open file descriptor for socket connection\n");
            err(" Unable to init the socket connection\n");
            return 1;
        }
    } else {
        fd = connectTo(r.root, o);
        if (fd < 0) {
            err("Unable to open file descriptor for socket connection\n");
            err(" Unable to init the socket connection\n");
            return 1;
        }
    }
    Peer peer(fd);

    // exchange_versions, check_mtu, negotiate_params.
    const auto theirs = peer.exchange(hello(r));
    if (theirs && theirs->rfind("ambiguous ", 0) == 0) {
        std::string servers = field(*theirs, "servers");
        std::replace(servers.begin(), servers.end(), ',', ' ');
        err("railyard-perftest-emu: " + o.server + ":" + std::to_string(o.tcpPort)
            + " is where the emulated servers of " + servers
            + " all wait: give the server's node name as the host, so that each client reaches its own server\n");
        err(format("Couldn't connect to %s:%d\n", o.server.c_str(), o.tcpPort));
        err("Unable to open file descriptor for socket connection\n");
        err(" Unable to init the socket connection\n");
        return 1;
    }
    if (!theirs || theirs->rfind("hello ", 0) != 0) {
        err(" Failed to negotiate parameters\n");
        return 1;
    }
    const std::string mine = hello(r);
    if (field(*theirs, "test") != field(mine, "test")) {
        std::string other = field(*theirs, "test");
        std::replace(other.begin(), other.end(), '_', ' ');
        err("railyard-perftest-emu: the other side runs " + other + ", this side " + describe(o)
            + ": give both sides the same test and options\n");
        err(" Failed to negotiate parameters\n");
        return 1;
    }
    const double remoteGbps = std::strtod(field(*theirs, "rate").c_str(), nullptr);
    const bool remoteEthernet = field(*theirs, "link") == "Ethernet";
    const int remoteMtu = std::atoi(field(*theirs, "mtu").c_str());
    const int mtu = remoteMtu > 0 ? std::min(r.port.mtu, remoteMtu) : r.port.mtu;

    // ctx_init: memory (GPU memory and its registration).
    if (!r.setUpMemory())
        return 1;

    // ctx_print_test_info.
    // CQ moderation: 100, off (1) for messages over 8 KiB (not with -a), at most the TX depth.
    const std::uint64_t txDepth = o.duration == 0 ? std::min<std::uint64_t>(128, o.iters) : 128;
    const int cqMod = (o.size > 8192 && !o.all) ? 1 : static_cast<int>(std::min<std::uint64_t>(100, txDepth));
    out(r.header(cqMod, mtu));

    // The QPs' addresses (set_up_connection, ctx_hand_shake).
    std::vector<Endpoint> local(static_cast<std::size_t>(o.qps));
    Numbers numbers(o.device + "/" + std::to_string(o.ibPort) + "/" + (server ? "server" : "client") + "/" + r.node);
    std::optional<std::array<std::uint8_t, 16>> gid;
    if (o.gidIndex > -1) {
        gid = railyard::live::readEmulatedGid(r.sysRoot, o.device, o.ibPort, o.gidIndex);
        if (!gid) {
            err(" Unable to set up socket connection\n");
            return 1;
        }
    }
    const unsigned qpnBase = 0x100 + static_cast<unsigned>(numbers.next() % 0x3000);
    const unsigned long long vaddrBase
        = r.cuda() ? r.gpuBuffer : 0x7f0000000000ULL + ((numbers.next() % 0xffffffULL) << 12);
    const unsigned rkeyBase = 0x080000 + static_cast<unsigned>(numbers.next() % 0x7000);
    for (std::size_t i = 0; i < local.size(); ++i) {
        Endpoint& e = local[i];
        e.lid = static_cast<unsigned>(r.port.lid);
        e.qpn = qpnBase + static_cast<unsigned>(i);
        e.psn = static_cast<unsigned>(numbers.next() & 0xffffff);
        e.rkey = rkeyBase + static_cast<unsigned>(i) * 0x101;
        e.outReads = kOutstandingReads;
        e.vaddr = vaddrBase + i * (r.bufferSize / static_cast<unsigned long long>(o.qps));
        if (gid)
            e.gid = *gid;
    }
    for (const auto& e : local)
        if (!peer.send(e.encode()))
            exchangeFailed();
    std::vector<Endpoint> remote;
    for (std::size_t i = 0; i < local.size(); ++i) {
        const auto line = peer.receive();
        const auto e = line ? Endpoint::decode(*line) : std::nullopt;
        if (!e)
            exchangeFailed();
        remote.push_back(*e);
    }
    // ctx_connect: both ends must be of one link layer.
    if (remoteEthernet != r.port.ethernet) {
        err(format("Failed to modify QP %d to RTR\n", local[0].qpn));
        err(" Unable to Connect the HCA's through the link\n");
        return 1;
    }
    for (const auto& e : local)
        out(printEndpoint(e, "local", o));
    for (const auto& e : remote)
        out(printEndpoint(e, "remote", o));
    if (!peer.exchange("sync"))
        exchangeFailed();

    // The test.
    const double peak = railyard::live::perftestPeakGbps(std::min(r.port.dataGbps, remoteGbps), r.port.ethernet, mtu);
    std::vector<std::uint64_t> sizes;
    if (o.all)
        for (int i = 1; i < 24; ++i)
            sizes.push_back(std::uint64_t { 1 } << i);
    else
        sizes.push_back(o.size);
    const double rowBudget = std::chrono::duration<double>(kRunBudget).count() / static_cast<double>(sizes.size());
    auto closeConnection = [&] {
        if (!peer.exchange("close"))
            exchangeFailed();
    };

    if (o.tool->latency) {
        const bool readLatServer = o.tool->read && server; // "Only Client post read request."
        if (readLatServer) {
            closeConnection();
            out(RESULT_LINE);
            r.tearDownMemory();
            return 0;
        }
        out(RESULT_LINE);
        out(std::string(o.duration == 0 ? RESULT_FMT_LAT : RESULT_FMT_LAT_DUR) + "\n");
        for (const auto size : sizes) {
            const bool inlined = !o.tool->read && !r.cuda() && static_cast<int>(size) <= r.inlineSize;
            const auto f = railyard::live::perftestLatRow(
                peak, r.port.ethernet, size, o.tool->read, inlined, o.device, o.ibPort);
            const double roundTripUs = o.tool->read ? f.tAvg : 2 * f.tAvg;
            if (o.duration > 0) {
                sleepFor(o.duration);
                const double tps = 1e6 / roundTripUs;
                const auto iters = static_cast<std::uint64_t>(tps * o.duration);
                out(format(REPORT_FMT_LAT_DUR, static_cast<unsigned long>(size), iters, f.tAvg, tps) + "\n");
            } else {
                sleepFor(std::min(rowBudget, static_cast<double>(o.iters) * roundTripUs * 1e-6));
                out(format(REPORT_FMT_LAT, static_cast<unsigned long>(size), o.iters, f.tMin, f.tMax, f.tTypical,
                        f.tAvg, f.tStdev, f.p99, f.p999)
                    + "\n");
            }
            if (!o.tool->read && !peer.exchange("lat"))
                exchangeFailed(); // a ping-pong: the two sides move in step
        }
        out(RESULT_LINE);
        closeConnection();
        r.tearDownMemory();
        return 0;
    }

    // Bandwidth: this side's direction of a row.
    auto measure = [&](std::uint64_t size) {
        const auto f = railyard::live::perftestBwRow(peak, size, o.qps, o.tool->read, o.device, o.ibPort);
        BwRow row;
        row.size = size;
        row.averageGbps = f.averageGbps;
        row.peakGbps = o.noPeak ? 0.0 : f.peakGbps;
        const double perMessageBits = 8.0 * static_cast<double>(size);
        if (o.duration > 0) {
            sleepFor(o.duration);
            row.iters = static_cast<std::uint64_t>(f.averageGbps * 1e9 * o.duration / perMessageBits);
        } else {
            row.iters = o.iters * static_cast<std::uint64_t>(o.qps);
            sleepFor(std::min(rowBudget, static_cast<double>(row.iters) * perMessageBits / (f.averageGbps * 1e9)));
        }
        row.msgRateMpps = f.averageGbps * 1e9 / perMessageBits / 1e6;
        return row;
    };
    out(RESULT_LINE);
    out(std::string(o.reportGbits ? RESULT_FMT_G : RESULT_FMT) + "\n");
    if (server && !o.bidirectional) {
        // "For half duplex tests, server just waits for client to exit": the client's last row.
        const auto line = peer.receive();
        const auto row = line ? BwRow::decode(*line, "report") : std::nullopt;
        if (!row) {
            err(" Failed to exchange data between server and clients\n");
            return 1;
        }
        out(formatBwRow(*row, o));
        closeConnection();
        out(RESULT_LINE);
        r.tearDownMemory();
        return 0;
    }
    BwRow last;
    for (const auto size : sizes) {
        last = measure(size);
        if (o.bidirectional) {
            const auto line = peer.exchange(last.encode("row"));
            const auto theirRow = line ? BwRow::decode(*line, "row") : std::nullopt;
            if (!theirRow) {
                err("Failed to sync between server and client between different msg sizes\n");
                return 1;
            }
            BwRow sum = last;
            sum.peakGbps += theirRow->peakGbps;
            sum.averageGbps += theirRow->averageGbps;
            sum.msgRateMpps += theirRow->msgRateMpps;
            out(formatBwRow(sum, o));
        } else {
            out(formatBwRow(last, o));
        }
    }
    out(RESULT_LINE);
    if (!o.bidirectional && !peer.send(last.encode("report")))
        exchangeFailed();
    closeConnection();
    r.tearDownMemory();
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    struct sigaction stop { };
    stop.sa_handler = onStopSignal;
    sigemptyset(&stop.sa_mask);
    ::sigaction(SIGTERM, &stop, nullptr);
    ::sigaction(SIGINT, &stop, nullptr);
    ::signal(SIGPIPE, SIG_IGN);
    g_parent = ::getppid();

    // Which tool: argv[0]'s base name, or --as TOOL.
    std::vector<char*> args(argv, argv + argc);
    Options o;
    const std::string toolName = live::standInTool(args);
    o.argv0 = args.empty() ? "" : args[0];
    o.tool = toolNamed(toolName);
    if (!o.tool && argc == 2 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "--version")) {
        if (std::string_view(argv[1]) == "--version") {
            out(std::string("railyard-perftest-emu ") + RAILYARD_VERSION + " (perftest " + kVersion
                + " on emulated nodes)\n");
            return 0;
        }
        out("Usage: railyard-perftest-emu [--as TOOL] [perftest options] [server-host]\n"
            "The fabric emulator's stand-in for perftest: ib_write_bw, ib_read_bw, ib_write_lat and ib_read_lat on "
            "the\n"
            "emulated node whose sysfs tree RAILYARD_SYSFS_ROOT names (DIR/<node>/sys of railyard-sim), with "
            "perftest's\n"
            "options, output and errors. railyard-sim links DIR/tools/<tool> to it for its agents (POST /v1/tests).\n\n"
            "  --as TOOL    behave as TOOL (default: the name this program was started under)\n"
            "  --help       show this text\n"
            "  --version    show the version\n");
        return 0;
    }
    if (!o.tool) {
        err("railyard-perftest-emu: the emulator's stand-in for perftest; run it as ib_write_bw, ib_read_bw, "
            "ib_write_lat or "
            "ib_read_lat (a link of that name, as railyard-sim makes in DIR/tools), or give --as TOOL first (not '"
            + toolName + "')\n");
        return 1;
    }
    args.push_back(nullptr);

    switch (parseOptions(args, o)) {
    case Parsed::Ok:
        break;
    case Parsed::Failure:
        err(" Parser function exited with Error\n");
        return 1;
    case Parsed::Help:
    case Parsed::Version:
        return 1; // perftest returns FAILURE after both
    }

    const char* sysRootEnv = std::getenv("RAILYARD_SYSFS_ROOT");
    if (!sysRootEnv || !*sysRootEnv) {
        err("railyard-perftest-emu: RAILYARD_SYSFS_ROOT is not set: it names the emulated node's sysfs root "
            "(DIR/<node>/sys "
            "of railyard-sim), which the emulator's agents set when they start a test\n");
        return 1;
    }
    Run r;
    r.o = o;
    r.sysRoot = fs::path(sysRootEnv).lexically_normal();
    if (r.sysRoot.filename().empty())
        r.sysRoot = r.sysRoot.parent_path();
    r.node = r.sysRoot.parent_path().filename().string();
    r.root = r.sysRoot.parent_path().parent_path();
    Options& opt = r.o;

    // ctx_find_dev.
    const auto devices = railyard::live::emulatedRdmaDevices(r.sysRoot);
    if (opt.device.empty()) {
        if (devices.empty()) {
            err(" Did not detect devices \n");
            err(" If device exists, check if driver is up\n");
            err(" Unable to find the Infiniband/RoCE device\n");
            return 1;
        }
        opt.device = devices.front();
    } else if (std::find(devices.begin(), devices.end(), opt.device) == devices.end()) {
        if (devices.empty())
            err("No IB devices found\n");
        else
            err(format("IB device %s not found\n", opt.device.c_str()));
        err(" Unable to find the Infiniband/RoCE device\n");
        return 1;
    }

    // check_link: the port must be ACTIVE.
    const auto port = railyard::live::readEmulatedRdmaPort(r.sysRoot, opt.device, opt.ibPort);
    if (!port) {
        err(format(" Unable to query port %d attributes\n", opt.ibPort));
        err(" Couldn't set the link layer\n");
        err(" Couldn't get context for the device\n");
        return 1;
    }
    r.port = *port;
    if (r.port.state != 4) {
        static const char* const kPortStates[] = { "Nop", "Down", "Init", "Armed", "", "Active Defer" };
        const char* state = r.port.state >= 0 && r.port.state <= 5 ? kPortStates[r.port.state] : "";
        err(format(" Port number %d state is %s\n", opt.ibPort, state));
        err(" Couldn't set the link layer\n");
        err(" Couldn't get context for the device\n");
        return 1;
    }
    if (r.port.ethernet && opt.gidIndex == -1)
        opt.gidIndex = 0;
    // ctx_set_max_inline.
    if (!opt.tool->read) {
        if (opt.cudaDevice) {
            r.inlineSize = 0;
            out("Perftest doesn't supports CUDA tests with inline messages: inline size set to 0\n");
        } else {
            r.inlineSize = opt.tool->latency ? kDefaultInlineWriteLat : 0;
        }
    }
    r.gpus = railyard::live::readEmulatedGpus(r.sysRoot);
    const std::uint64_t page = 4096;
    r.bufferSize = ((std::max(opt.size, page) + page - 1) / page * page) * 2 * static_cast<std::uint64_t>(opt.qps);
    Numbers gpuAddress(r.node + "/" + opt.device + "/gpu");
    r.gpuBuffer = 0x7f0000000000ULL + ((gpuAddress.next() % 0xffffULL) << 21);
    return runTest(r);
}
