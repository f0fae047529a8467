// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// railyard-nccl-tests-emu: the fabric emulator's stand-in for nccl-tests 2.17 (all_reduce_perf,
// all_gather_perf, reduce_scatter_perf, by argv[0]'s base name or a first argument `--as TOOL`)
// on NCCL 2.27, run as the ranks of an MPI or Slurm job on emulated nodes. The figures and the
// model are in nccl_tests_model.h.
//
// - Rank, size and local rank from Open MPI (OMPI_COMM_WORLD_RANK, _SIZE, _LOCAL_RANK) or Slurm
//   (SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID); neither: one rank. The ranks meet through files
//   in DIR/.nccl-tests-emu/<job>/ (the job: OMPI_MCA_ess_base_jobid, or SLURM_JOB_ID.SLURM_STEP_ID),
//   as NCCL's bootstrap does over TCP: each rank writes what its node shows and waits (at most
//   the -T timeout, default 60 s) for all the others.
// - Options: nccl-tests' (-t -g -b -e -i -f -n -m -w -N -p -c -o -d -r -z -y -T -G -C -a -R and
//   their long forms); others are refused as nccl-tests' getopt does ("invalid option", usage, exit
//   1). The emulator runs one thread and one GPU per rank: -t and -g other than 1 are refused.
// - Rank 0 prints nccl-tests' header, rank lines, table and footer to stdout; every rank prints
//   NCCL's NCCL_DEBUG=INFO lines (NCCL_DEBUG INFO or TRACE; WARN lines with WARN too): NICs,
//   GPUDirect RDMA per HCA, channels via NET/IB/<n>[/GDRDMA], GID index and traffic class.
// - A NIC in use that is not ACTIVE: the job fails at the first size of 1 MiB or more (see the model).
// - The rows are paced: each size takes its modelled time for -w + -n iterations of both
//   columns, at most 150 ms, so that a run can be followed and cancelled. SIGTERM ends it at once;
//   a rank also ends when the process that started it does (the agent's or mpirun's daemon).
//
// As railyard-emu-ssh (the same program under that name: DIR/tools/railyard-emu-ssh), it is the
// ssh that Open MPI's mpirun uses for the emulated nodes (--mca plm_rsh_agent): `railyard-emu-ssh
// [ssh options] NODE COMMAND...` runs COMMAND with /bin/sh on this machine, as ssh would on NODE,
// with that node's environment: RAILYARD_SYSFS_ROOT=DIR/NODE/sys, RAILYARD_SIM_ROOT=DIR,
// DIR/tools first in PATH (the node's installed nccl-tests) and TMPDIR=DIR/NODE/tmp. DIR is the folder above the link's
// tools/ folder (or RAILYARD_SIM_ROOT). An unknown node fails as ssh does (exit 255).
#include "live/sim/nccl_tests_model.h"
#include "live/sim/perftest_model.h"
#include "live/sim/perftest_tools.h"

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <getopt.h>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <sys/prctl.h>
#include <unistd.h>

namespace {

using namespace railyard;
using namespace railyard::live;
namespace fs = std::filesystem;

constexpr const char* kNcclVersion = "2.27.5+cuda12.9";
constexpr const char* kTestsVersion = "2.17.6 nccl-headers=22705 nccl-library=22705";

void out(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

void err(const std::string& text)
{
    std::fwrite(text.data(), 1, text.size(), stderr);
    std::fflush(stderr);
}

std::string envOr(const char* name, std::string fallback = {})
{
    const char* v = std::getenv(name);
    return v ? std::string(v) : fallback;
}

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

// --- railyard-emu-ssh

int runSsh(int argc, char** argv)
{
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; ++i) {
        const std::string_view o = argv[i];
        if ((o == "-o" || o == "-p" || o == "-l" || o == "-i" || o == "-F") && i + 1 < argc)
            ++i; // options with a value; the rest (-x, -T, -q, ...) are flags
    }
    if (i + 1 >= argc) {
        err("usage: railyard-emu-ssh [ssh options] NODE COMMAND...\n");
        return 255;
    }
    const std::string host = argv[i++];
    std::string command;
    for (; i < argc; ++i)
        command += (command.empty() ? "" : " ") + std::string(argv[i]);
    fs::path root = envOr("RAILYARD_SIM_ROOT");
    if (root.empty())
        root = fs::absolute(fs::path(argv[0])).parent_path().parent_path();
    std::error_code ec;
    if (host.find('/') != std::string::npos || !fs::is_directory(root / host / "sys", ec)) {
        err("ssh: Could not resolve hostname " + host + ": Name or service not known (no emulated node " + host + " in "
            + root.string() + ")\r\n");
        return 255;
    }
    ::setenv("RAILYARD_SYSFS_ROOT", (root / host / "sys").c_str(), 1);
    ::setenv("RAILYARD_SIM_ROOT", root.c_str(), 1);
    ::setenv("PATH", ((root / "tools").string() + ":" + envOr("PATH", "/usr/bin:/bin")).c_str(), 1);
    // Each emulated node its own temporary folder, as separate hosts have: Open MPI's session
    // folders (TMPDIR/ompi.<host>.<uid>) of the daemons on one machine would otherwise meet.
    const fs::path tmp = root / host / "tmp";
    fs::create_directories(tmp, ec);
    ::setenv("TMPDIR", tmp.c_str(), 1);
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    err(std::string("railyard-emu-ssh: cannot run /bin/sh: ") + std::strerror(errno) + "\n");
    return 255;
}

// --- the test

struct Options {
    NcclEmuCollective collective = NcclEmuCollective::AllReduce;
    std::string argv0;
    int nThreads = 1, nGpus = 1;
    std::uint64_t minBytes = 32 << 20, maxBytes = 32 << 20, stepBytes = 1 << 20, stepFactor = 1;
    int iters = 20, aggIters = 1, warmup = 5, cycles = 1, parallelInit = 0, check = 1, root = 0, blocking = 0, streamNull = 0;
    int timeoutS = 0, graph = 0, cputime = 0, average = 1, localRegister = 0;
    std::string op = "sum", type = "float";
    int typeSize = 4;
};

std::uint64_t parseSize(const char* value)
{
    // nccl-tests' parsesize: the number times K, M or G found anywhere in the text (powers of 1024).
    double units = 1;
    if (std::strchr(value, 'G'))
        units = 1024.0 * 1024 * 1024;
    else if (std::strchr(value, 'M'))
        units = 1024.0 * 1024;
    else if (std::strchr(value, 'K'))
        units = 1024.0;
    return static_cast<std::uint64_t>(std::atof(value) * units);
}

void usage(const std::string& argv0)
{
    out("USAGE: " + argv0
        + " \n\t"
          "[-t,--nthreads <num threads>] \n\t"
          "[-g,--ngpus <gpus per thread>] \n\t"
          "[-b,--minbytes <min size in bytes>] \n\t"
          "[-e,--maxbytes <max size in bytes>] \n\t"
          "[-i,--stepbytes <increment size>] \n\t"
          "[-f,--stepfactor <increment factor>] \n\t"
          "[-n,--iters <iteration count>] \n\t"
          "[-m,--agg_iters <aggregated iteration count>] \n\t"
          "[-w,--warmup_iters <warmup iteration count>] \n\t"
          "[-N,--run_cycles <cycle count> run & print each cycle (default: 1; 0=infinite)] \n\t"
          "[-p,--parallel_init <0/1>] \n\t"
          "[-c,--check <check iteration count>] \n\t"
          "[-o,--op <sum/prod/min/max/avg/mulsum/all>] \n\t"
          "[-d,--datatype <nccltype/all>] \n\t"
          "[-r,--root <root>] \n\t"
          "[-z,--blocking <0/1>] \n\t"
          "[-y,--stream_null <0/1>] \n\t"
          "[-T,--timeout <time in seconds>] \n\t"
          "[-G,--cudagraph <num graph launches>] \n\t"
          "[-C,--report_cputime <0/1>] \n\t"
          "[-a,--average <0/1/2/3> report average iteration time <0=RANK0/1=AVG/2=MIN/3=MAX>] \n\t"
          "[-R,--local_register <0/1/2> enable local (1) or symmetric (2) buffer registration on send/recv buffers (default: disable (0))] \n\t"
          "[-h,--help]\n");
}

int typeSizeOf(const std::string& type)
{
    static const std::pair<const char*, int> kTypes[] = { { "int8", 1 }, { "uint8", 1 }, { "int32", 4 }, { "uint32", 4 }, { "int64", 8 },
        { "uint64", 8 }, { "half", 2 }, { "float", 4 }, { "double", 8 }, { "bfloat16", 2 } };
    for (const auto& [name, size] : kTypes)
        if (type == name)
            return size;
    return 0;
}

/// 0: go on; 1: refused (usage printed); 2: --help.
int parseOptions(int argc, char** argv, Options& o)
{
    static const option kLong[] = { { "nthreads", required_argument, nullptr, 't' }, { "ngpus", required_argument, nullptr, 'g' },
        { "minbytes", required_argument, nullptr, 'b' }, { "maxbytes", required_argument, nullptr, 'e' },
        { "stepbytes", required_argument, nullptr, 'i' }, { "stepfactor", required_argument, nullptr, 'f' },
        { "iters", required_argument, nullptr, 'n' }, { "agg_iters", required_argument, nullptr, 'm' },
        { "warmup_iters", required_argument, nullptr, 'w' }, { "run_cycles", required_argument, nullptr, 'N' },
        { "parallel_init", required_argument, nullptr, 'p' }, { "check", required_argument, nullptr, 'c' },
        { "op", required_argument, nullptr, 'o' }, { "datatype", required_argument, nullptr, 'd' },
        { "root", required_argument, nullptr, 'r' }, { "blocking", required_argument, nullptr, 'z' },
        { "stream_null", required_argument, nullptr, 'y' }, { "timeout", required_argument, nullptr, 'T' },
        { "cudagraph", required_argument, nullptr, 'G' }, { "report_cputime", required_argument, nullptr, 'C' },
        { "average", required_argument, nullptr, 'a' }, { "local_register", required_argument, nullptr, 'R' },
        { "help", no_argument, nullptr, 'h' }, { nullptr, 0, nullptr, 0 } };
    opterr = 1;
    for (;;) {
        int index = 0;
        const int c = getopt_long(argc, argv, "t:g:b:e:i:f:n:m:w:N:p:c:o:d:r:z:y:T:hG:C:a:R:", kLong, &index);
        if (c == -1)
            break;
        switch (c) {
        case 't':
            o.nThreads = std::atoi(optarg);
            break;
        case 'g':
            o.nGpus = std::atoi(optarg);
            break;
        case 'b':
            o.minBytes = parseSize(optarg);
            break;
        case 'e':
            o.maxBytes = parseSize(optarg);
            break;
        case 'i':
            o.stepBytes = std::strtoull(optarg, nullptr, 0);
            o.stepFactor = 1;
            break;
        case 'f':
            o.stepFactor = std::strtoull(optarg, nullptr, 0);
            break;
        case 'n':
            o.iters = std::atoi(optarg);
            break;
        case 'm':
            o.aggIters = std::atoi(optarg);
            break;
        case 'w':
            o.warmup = std::atoi(optarg);
            break;
        case 'N':
            o.cycles = std::atoi(optarg);
            break;
        case 'p':
            o.parallelInit = std::atoi(optarg);
            break;
        case 'c':
            o.check = std::atoi(optarg);
            break;
        case 'o':
            o.op = optarg;
            break;
        case 'd':
            o.type = optarg;
            break;
        case 'r':
            o.root = std::atoi(optarg);
            break;
        case 'z':
            o.blocking = std::atoi(optarg);
            break;
        case 'y':
            o.streamNull = std::atoi(optarg);
            break;
        case 'T':
            o.timeoutS = std::atoi(optarg);
            break;
        case 'G':
            o.graph = std::atoi(optarg);
            break;
        case 'C':
            o.cputime = std::atoi(optarg);
            break;
        case 'a':
            o.average = std::atoi(optarg);
            break;
        case 'R':
            o.localRegister = std::atoi(optarg);
            break;
        case 'h':
            usage(o.argv0);
            return 2;
        default:
            out("invalid option \n");
            usage(o.argv0);
            return 1;
        }
    }
    if (optind < argc) {
        out(std::string("invalid argument '") + argv[optind] + "'\n");
        usage(o.argv0);
        return 1;
    }
    static const char* kOps[] = { "sum", "prod", "max", "min", "avg", "mulsum", "all" };
    if (std::none_of(std::begin(kOps), std::end(kOps), [&](const char* op) { return o.op == op; })) {
        out("invalid op '" + o.op + "'\n");
        return 1;
    }
    o.typeSize = typeSizeOf(o.type);
    if (o.typeSize == 0) {
        out("invalid type '" + o.type + "'\n");
        return 1;
    }
    if (o.nThreads != 1 || o.nGpus != 1) {
        err(o.argv0 + ": the emulator runs one thread with one GPU per rank (-t 1 -g 1), as Railyard launches it\n");
        return 1;
    }
    if (o.minBytes > o.maxBytes) {
        out(format("invalid sizes for 'minbytes' and 'maxbytes': %llu > %llu\n", static_cast<unsigned long long>(o.minBytes),
            static_cast<unsigned long long>(o.maxBytes)));
        return 1;
    }
    if (o.iters < 1 || o.warmup < 0) {
        out("invalid iteration counts\n");
        return 1;
    }
    return 0;
}

struct Job {
    int rank = 0, size = 1, localRank = 0;
    std::string key; ///< the job's rendezvous name; "" for one rank
};

Job jobFromEnvironment()
{
    Job j;
    if (const char* r = std::getenv("OMPI_COMM_WORLD_RANK")) {
        j.rank = std::atoi(r);
        j.size = std::atoi(envOr("OMPI_COMM_WORLD_SIZE", "1").c_str());
        j.localRank = std::atoi(envOr("OMPI_COMM_WORLD_LOCAL_RANK", "0").c_str());
        j.key = "ompi-" + envOr("OMPI_MCA_ess_base_jobid");
    } else if (const char* p = std::getenv("SLURM_PROCID")) {
        j.rank = std::atoi(p);
        j.size = std::atoi(envOr("SLURM_NTASKS", "1").c_str());
        j.localRank = std::atoi(envOr("SLURM_LOCALID", "0").c_str());
        j.key = "slurm-" + envOr("SLURM_JOB_ID") + "." + envOr("SLURM_STEP_ID");
    }
    if (j.size <= 1)
        j.key.clear();
    return j;
}

bool writeAtomically(const fs::path& path, const std::string& text)
{
    const fs::path tmp = path.string() + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f << text;
        if (!f)
            return false;
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    return !ec;
}

std::optional<std::string> readWhole(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool present(const fs::path& p)
{
    std::error_code ec;
    return fs::exists(p, ec);
}

/// NCCL's log line prefix: "host:pid:tid [dev] NCCL INFO ".
struct Logger {
    std::string prefix;
    bool info = false, warn = false;
    void infoLine(const std::string& msg) const
    {
        if (info)
            out(prefix + "NCCL INFO " + msg + "\n");
    }
};

std::string upper(std::string s)
{
    for (char& c : s)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

std::string hex(std::uint64_t v) { return format("0x%llx", static_cast<unsigned long long>(v)); }

/// The local rank that drives NIC `nic` of `hcas` (GPU k with NIC k on a rail-optimised node).
int driverOf(const std::vector<NcclEmuHca>& hcas, int nic, int ranksPerNode)
{
    const int rail = hcas[static_cast<std::size_t>(nic)].rail;
    if (static_cast<int>(hcas.size()) == ranksPerNode)
        return nic;
    if (rail >= 0 && rail < ranksPerNode)
        return rail;
    return nic % std::max(1, ranksPerNode);
}

void printInit(const Logger& log, const Job& job, const NcclEmuRank& me, const std::vector<NcclEmuRank>& all,
    const NcclEmuJobModel& model, const fs::path& simRoot, bool roce)
{
    const std::string address = emulatedNodeAddress(simRoot, me.node).value_or("127.0.0.1");
    const std::uint64_t comm = 0x55d0a0000000ULL + static_cast<std::uint64_t>(me.rank) * 0x10400;
    const std::uint64_t commId = 0x1b2c3d4e5f607182ULL ^ std::hash<std::string> {}(job.key);
    std::string busShort = me.busId.size() >= 7 ? me.busId.substr(5, 2) + "000" : "0";
    const std::string initTail = format("rank %d nranks %d cudaDev %d nvmlDev %d busId %s commId %s", me.rank, job.size, me.localRank,
        me.localRank, busShort.c_str(), hex(commId).c_str());
    log.infoLine("Bootstrap: Using lo:" + address + "<0>");
    log.infoLine(std::string("NCCL version ") + kNcclVersion);
    log.infoLine("ncclCommInitRank comm " + hex(comm) + " " + initTail + " - Init START");
    for (const char* name : { "NCCL_IB_GID_INDEX", "NCCL_IB_TC", "NCCL_IB_SL", "NCCL_ALGO", "NCCL_PROTO" })
        if (const char* v = std::getenv(name))
            log.infoLine(std::string(name) + " set by environment to " + v + ".");
    if (const char* v = std::getenv("NCCL_IB_HCA"))
        log.infoLine(std::string("NCCL_IB_HCA set to ") + v);
    if (me.hcas.empty()) {
        log.infoLine("NET/IB : No device found.");
        log.infoLine("NET/Socket : Using [0]lo:" + address + "<0>");
        log.infoLine("Using network Socket");
    } else {
        std::string using_ = "NET/IB : Using";
        for (std::size_t i = 0; i < me.hcas.size(); ++i)
            using_ += format(" [%zu]%s:%d/%s", i, me.hcas[i].device.c_str(), me.hcas[i].port, roce || me.hcas[i].ethernet ? "RoCE" : "IB");
        log.infoLine(using_ + " [RO]; OOB lo:" + address + "<0>");
        log.infoLine("Using network IB");
    }
    if (me.dmabuf)
        log.infoLine(format("DMA-BUF is available on GPU device %d", me.localRank));
    log.infoLine(format("comm %s rank %d nRanks %d nNodes %d localRanks %d localRank %d MNNVL 0", hex(comm).c_str(), me.rank, job.size,
        model.nodes, model.ranksPerNode, me.localRank));
    const bool gdr = me.peermem || me.dmabuf;
    const int nics = static_cast<int>(me.hcas.size());
    for (int i = 0; i < nics; ++i)
        if (driverOf(me.hcas, i, model.ranksPerNode) == me.localRank)
            log.infoLine(format("NET/IB : GPU Direct RDMA %s for HCA %d '%s'", gdr ? "Enabled" : "Disabled", i,
                me.hcas[static_cast<std::size_t>(i)].device.c_str()));

    // Rings: channel c runs over NIC c % nics; on each node the GPU that drives that NIC sends to the
    // same GPU of the next node (rail-aligned rings) and receives from the previous node's.
    if (model.nodes > 1 && nics > 0) {
        std::vector<std::string> nodeOrder;
        for (const NcclEmuRank& r : all)
            if (std::find(nodeOrder.begin(), nodeOrder.end(), r.node) == nodeOrder.end())
                nodeOrder.push_back(r.node);
        const auto myNode = static_cast<std::size_t>(std::find(nodeOrder.begin(), nodeOrder.end(), me.node) - nodeOrder.begin());
        auto rankAt = [&](const std::string& node, int local) {
            for (const NcclEmuRank& r : all)
                if (r.node == node && r.localRank == local)
                    return r.rank;
            return -1;
        };
        const int channels = 2 * nics;
        for (int c = 0; c < channels; ++c) {
            const int nic = c % nics;
            const int local = driverOf(me.hcas, nic, model.ranksPerNode);
            if (local != me.localRank)
                continue;
            const std::string& next = nodeOrder[(myNode + 1) % nodeOrder.size()];
            const std::string& prev = nodeOrder[(myNode + nodeOrder.size() - 1) % nodeOrder.size()];
            const std::string via = format("via NET/IB/%d%s", nic, gdr ? "/GDRDMA" : "");
            log.infoLine(format("Channel %02d/0 : %d[%d] -> %d[%d] [receive] %s", c, rankAt(prev, local), local, me.rank, local, via.c_str()));
            log.infoLine(format("Channel %02d/0 : %d[%d] -> %d[%d] [send] %s", c, me.rank, local, rankAt(next, local), local, via.c_str()));
        }
        log.infoLine(format("Connected all rings, use ring PXN 0 GDR %d", gdr ? 1 : 0));
    }
    log.infoLine("comm " + hex(comm) + " " + initTail + " - Init COMPLETE");
}

std::string headerLines(const Options& o, const Job& job, const std::vector<NcclEmuRank>& all)
{
    std::string h;
    h += std::string("# nccl-tests version ") + kTestsVersion + "\n";
    h += std::string("# Collective test starting: ") + std::string(toolName(o.collective)) + "\n";
    const bool factor = o.stepFactor > 1;
    h += format("# nThread %d nGpus %d minBytes %llu maxBytes %llu step: %llu(%s) warmup iters: %d iters: %d agg iters: %d "
                "validation: %d graph: %d\n",
        o.nThreads, o.nGpus, static_cast<unsigned long long>(o.minBytes), static_cast<unsigned long long>(o.maxBytes),
        static_cast<unsigned long long>(factor ? o.stepFactor : o.stepBytes), factor ? "factor" : "bytes", o.warmup, o.iters, o.aggIters,
        o.check, o.graph);
    h += "#\n# Using devices\n";
    for (const NcclEmuRank& r : all)
        h += format("#  Rank %2d Group  0 Pid %6d on %10s device %2d [%s] %s\n", r.rank, r.pid, r.node.c_str(), r.localRank,
            r.busId.c_str(), r.gpu.c_str());
    (void)job;
    h += "#\n";
    h += "#                                                              out-of-place                       in-place          \n";
    h += "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong \n";
    h += "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)  (GB/s)         \n";
    return h;
}

std::string timeText(double us) { return us >= 10000 ? format("%7.0f", us) : format("%7.2f", us); }

int runTest(Options& o)
{
    const Job job = jobFromEnvironment();
    const std::string sysEnv = envOr("RAILYARD_SYSFS_ROOT");
    if (sysEnv.empty()) {
        err(o.argv0 + ": RAILYARD_SYSFS_ROOT is not set: the emulator's stand-in runs on an emulated node (DIR/<node>/sys of "
                      "railyard-sim; its agents and railyard-emu-ssh set it)\n");
        return 1;
    }
    const fs::path sysRoot = fs::absolute(sysEnv);
    const std::string node = sysRoot.parent_path().filename().string();
    const fs::path simRoot = envOr("RAILYARD_SIM_ROOT").empty() ? sysRoot.parent_path().parent_path() : fs::path(envOr("RAILYARD_SIM_ROOT"));
    NcclEmuFabric fabric;
    if (auto f = readNcclEmuFabric(simRoot / "tools" / "nccl-tests-fabric.json"))
        fabric = std::move(*f);
    NcclEmuRank me = readNcclEmuRank(sysRoot, node, job.rank, job.localRank, envOr("NCCL_IB_HCA"), fabric.railMap);
    me.pid = static_cast<int>(::getpid());

    const std::string debug = upper(envOr("NCCL_DEBUG"));
    Logger log;
    log.prefix = format("%s:%d:%d [%d] ", node.c_str(), me.pid, me.pid, me.localRank);
    log.info = debug == "INFO" || debug == "TRACE";
    log.warn = log.info || debug == "WARN";

    // Bootstrap: every rank's record, through the job's folder.
    std::vector<NcclEmuRank> all;
    const int timeoutS = o.timeoutS > 0 ? o.timeoutS : 60;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeoutS);
    fs::path jobDir;
    if (!job.key.empty()) {
        jobDir = simRoot / ".nccl-tests-emu" / job.key;
        std::error_code ec;
        fs::create_directories(jobDir, ec);
        if (!writeAtomically(jobDir / ("rank" + std::to_string(job.rank) + ".json"), toJsonText(me))) {
            err(o.argv0 + ": cannot write to " + jobDir.string() + " (the emulated bootstrap)\n");
            return 1;
        }
        for (;;) {
            all.clear();
            for (int r = 0; r < job.size; ++r)
                if (auto text = readWhole(jobDir / ("rank" + std::to_string(r) + ".json")))
                    if (auto rec = ncclEmuRankFromJson(*text))
                        all.push_back(std::move(*rec));
            if (static_cast<int>(all.size()) == job.size)
                break;
            if (std::chrono::steady_clock::now() > deadline) {
                if (log.warn)
                    out(log.prefix + "bootstrap.cc:1192 NCCL WARN Bootstrap : timed out after " + std::to_string(timeoutS)
                        + " s waiting for " + std::to_string(job.size - static_cast<int>(all.size())) + " of " + std::to_string(job.size)
                        + " ranks\n");
                out(format("%s: Test NCCL failure common.cu:1151 'internal error - please report this issue to the NCCL developers / "
                           "Bootstrap timeout'\n",
                    node.c_str()));
                return 1;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    } else {
        all.push_back(me);
    }
    const NcclEmuJobModel model = modelNcclEmuJob(o.collective, all, fabric, envOr("NCCL_ALGO"));

    if (job.rank == 0)
        out(headerLines(o, job, all));
    printInit(log, job, me, all, model, simRoot, fabric.roce);

    // The failing rank: the GPU that drives the NIC that is down.
    int failingRank = -1;
    std::string failingDevice;
    if (model.downNic) {
        for (const NcclEmuRank& r : all) {
            if (r.node != model.downNic->first)
                continue;
            for (std::size_t i = 0; i < r.hcas.size(); ++i)
                if (r.hcas[i].device == model.downNic->second && driverOf(r.hcas, static_cast<int>(i), model.ranksPerNode) == r.localRank) {
                    failingRank = r.rank;
                    failingDevice = r.hcas[i].device;
                }
        }
    }
    const fs::path abortMark = jobDir.empty() ? fs::path() : jobDir / "abort";
    const fs::path doneMark = jobDir.empty() ? fs::path() : jobDir / "done";
    // Rank 0 removes the bootstrap folder once every other rank has left its exit record there, or
    // when `wait` is up.
    auto removeJobWhenOthersExit = [&](std::chrono::seconds wait) {
        if (jobDir.empty())
            return;
        const auto until = std::chrono::steady_clock::now() + wait;
        for (int r = 1; r < job.size && std::chrono::steady_clock::now() < until;)
            if (!present(jobDir / ("exit" + std::to_string(r))))
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            else
                ++r;
        std::error_code ignored;
        fs::remove_all(jobDir, ignored);
    };
    auto failHere = [&]() {
        std::string peerNode = me.node;
        for (const NcclEmuRank& r : all)
            if (r.node != me.node) {
                peerNode = r.node;
                break;
            }
        const std::string local = emulatedNodeAddress(simRoot, me.node).value_or("127.0.0.1");
        const std::string peer = emulatedNodeAddress(simRoot, peerNode).value_or("127.0.0.1");
        if (log.warn)
            out(log.prefix
                + format("transport/net_ib.cc:1696 NCCL WARN NET/IB: Got completion from peer %s<48513> with status=12 opcode=0 len=0 "
                         "vendor err 129 (Send) localGid ::ffff:%s remoteGids::ffff:%s hca %s\n",
                    peer.c_str(), local.c_str(), peer.c_str(), failingDevice.c_str()));
        out(format("%s: Test NCCL failure common.cu:1151 'remote process exited or there was a network error / '\n", node.c_str()));
        out(format(" .. %s pid %d: Test failure common.cu:1026\n", node.c_str(), me.pid));
    };

    if (job.rank != 0) {
        // Wait for rank 0 to finish (or to reach the failure), as the ranks of a real job run together;
        // then say so (rank 0 removes the job's folder once every rank has: the records stay until
        // then, for a rank that is slow to read them).
        while (!present(doneMark) && !present(abortMark) && present(jobDir))
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const bool aborted = present(abortMark);
        if (aborted && job.rank == failingRank) {
            failHere();
            // As NCCL's abort takes a while: the launcher forwards these lines before it ends the job.
            std::this_thread::sleep_for(std::chrono::milliseconds(300));
        } else if (aborted) {
            // The others hang in the broken ring until the failing rank has said why and gone.
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
            while (failingRank > 0 && !present(jobDir / ("exit" + std::to_string(failingRank))) && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
        }
        writeAtomically(jobDir / ("exit" + std::to_string(job.rank)), "exit\n");
        return aborted ? 1 : 0;
    }

    // Rank 0: the table.
    const std::vector<std::uint64_t> sizes = ncclEmuSizes(o.minBytes, o.maxBytes, o.stepFactor, o.stepBytes);
    double busSum = 0;
    int busCount = 0;
    bool failed = false;
    const char* wrong = o.check ? "0" : "N/A";
    for (const std::uint64_t s : sizes) {
        if (model.downNic && s >= (1u << 20)) {
            failed = true;
            break;
        }
        const NcclEmuRow row = ncclEmuRow(model, o.collective, s, o.typeSize);
        const double pace = std::min(0.150, (o.warmup + o.iters) * (row.timeUs + row.inPlaceTimeUs) * 1e-6);
        std::this_thread::sleep_for(std::chrono::duration<double>(pace));
        const std::string redop = o.collective == NcclEmuCollective::AllGather ? "none" : o.op;
        out(format("%12llu  %12llu  %8s  %6s  %6d  %s  %6.2f  %6.2f  %6s  %s  %6.2f  %6.2f  %6s\n",
            static_cast<unsigned long long>(row.bytes), static_cast<unsigned long long>(row.count), o.type.c_str(), redop.c_str(), -1,
            timeText(row.timeUs).c_str(), row.algbwGBs, row.busbwGBs, wrong, timeText(row.inPlaceTimeUs).c_str(), row.inPlaceAlgbwGBs,
            row.inPlaceBusbwGBs, wrong));
        busSum += row.busbwGBs + row.inPlaceBusbwGBs;
        busCount += 2;
    }
    if (failed) {
        if (!jobDir.empty()) {
            writeAtomically(abortMark, "abort\n");
            // Let the failing rank say why first, as the first error of a real job comes from there.
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(2);
            while (failingRank > 0 && !present(jobDir / ("exit" + std::to_string(failingRank)))
                && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (failingRank == 0)
            failHere();
        else
            out(format("%s: Test NCCL failure common.cu:1151 'remote process exited or there was a network error / '\n", node.c_str()));
        // The launcher usually ends the others first; if not, their records go once they have read the abort.
        removeJobWhenOthersExit(std::chrono::seconds(5));
        return 1;
    }
    out(format("# Out of bounds values : 0 OK\n# Avg bus bandwidth    : %g \n#\n", busCount ? busSum / busCount : 0.0));
    out(std::string("# Collective test concluded: ") + std::string(toolName(o.collective)) + "\n#\n\n");
    if (!jobDir.empty())
        writeAtomically(doneMark, "done\n");
    removeJobWhenOthersExit(std::chrono::seconds(timeoutS));
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    std::signal(SIGPIPE, SIG_IGN);
    // A rank goes with the daemon that started it (the agent's test, mpirun's orted).
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    const std::string self = fs::path(argc > 0 ? argv[0] : "").filename().string();
    if (self == "railyard-emu-ssh")
        return runSsh(argc, argv);

    std::vector<char*> args(argv, argv + argc);
    const std::string name = standInTool(args);
    Options o;
    const auto collective = ncclEmuCollectiveOf(name);
    if (!collective) {
        if (argc == 2 && std::string_view(argv[1]) == "--version") {
            out(std::string("railyard-nccl-tests-emu ") + RAILYARD_VERSION + " (nccl-tests " + kTestsVersion + ", NCCL " + kNcclVersion
                + " on emulated nodes)\n");
            return 0;
        }
        if (argc == 2 && std::string_view(argv[1]) == "--help") {
            out("Usage: railyard-nccl-tests-emu [--as TOOL] [nccl-tests options]\n"
                "The fabric emulator's stand-in for nccl-tests: all_reduce_perf, all_gather_perf and reduce_scatter_perf as the\n"
                "ranks of an Open MPI or Slurm job on the emulated nodes (RAILYARD_SYSFS_ROOT = DIR/<node>/sys of railyard-sim),\n"
                "with nccl-tests' options and output and NCCL's NCCL_DEBUG=INFO log. Under the name railyard-emu-ssh it is the\n"
                "ssh that mpirun uses to reach the emulated nodes (--mca plm_rsh_agent DIR/tools/railyard-emu-ssh).\n\n"
                "  --as TOOL    behave as TOOL (default: the name this program was started under)\n"
                "  --help       show this text\n"
                "  --version    show the version\n");
            return 0;
        }
        err("railyard-nccl-tests-emu: run it as all_reduce_perf, all_gather_perf or reduce_scatter_perf (a link of that name, as "
            "railyard-sim makes in DIR/tools), as railyard-emu-ssh, or give --as TOOL first (not '"
            + name + "')\n");
        return 1;
    }
    o.collective = *collective;
    o.argv0 = name;
    args[0] = o.argv0.data();
    args.push_back(nullptr);
    switch (parseOptions(static_cast<int>(args.size()) - 1, args.data(), o)) {
    case 0:
        break;
    case 2:
        return 0;
    default:
        return 1;
    }
    return runTest(o);
}
