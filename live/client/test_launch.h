// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `live test`: the command lines of the tests operators already trust, built from the plan.
//   - perftest (ib_write_bw, ib_read_bw, ib_write_lat, ib_read_lat) between the same rail of two
//     nodes, GPU k with NIC k, GPUDirect through --use_cuda=<gpu> (and --use_cuda_dmabuf);
//   - nccl-tests (all_reduce_perf, all_gather_perf, reduce_scatter_perf) across a set of nodes,
//     launched through Open MPI's mpirun (with a generated hostfile) or Slurm's srun, with the NCCL
//     environment an operator would set (NCCL_IB_HCA = the rail NICs, NCCL_DEBUG=INFO so that NCCL's
//     own log says whether GPUDirect RDMA is used on every rail, GID index and traffic class on RoCE).
//
// The invocations and the checks of their parameters (ToolInvocation, the whitelist, validate*,
// checkInvocation, displayCommand) are in live/common/tool_invocation.h, which the agent shares;
// this file builds the invocations from the plan. Pure functions: no I/O, nothing is started here.
//
// Error codes: LAUNCH_PARAM (a parameter refused), LAUNCH_TOOL (a tool or launcher not in the
// whitelist, or not of the kind asked for), LAUNCH_NODE (a node not in the plan, listed twice, or
// whose plan name is no valid host name), LAUNCH_RAIL (a rail out of range), LAUNCH_RAIL_MAP (the
// node type has no rail map, or it names NIC k by PCI address rather than by device name).
//
// How the NCCL environment reaches the ranks (decided here, the same for both launchers): the values
// live in ToolInvocation::env only, and the launcher is told the names to forward, never the values:
// mpirun gets one bare `-x NAME` per variable (Open MPI's man page advises exporting variables set in
// the environment rather than defining them through -x, whose parser knows no quoting; NCCL_IB_HCA's
// value itself begins with '='), and srun gets `--export=ALL,NAME,...` (Slurm splits --export on
// commas, and NCCL_IB_HCA's value holds commas). Whoever runs the invocation must set `env` in the
// launcher's environment; displayCommand() shows the equivalent command line for a person.
#pragma once

#include "core/catalog.h"
#include "core/plan.h"
#include "core/result.h"
#include "live/common/tool_invocation.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace railyard::live {

// --- perftest

/// One perftest run between two hosts. Both sides get the same options (perftest requires it),
/// except the device and the GPU; the client also gets the server host as its last argument.
struct PerftestParams {
    std::string tool = "ib_write_bw";   ///< ib_write_bw, ib_read_bw, ib_write_lat or ib_read_lat
    std::string serverHost, clientHost; ///< validateHostName
    std::string serverDevice, clientDevice; ///< validateRdmaDevice ("mlx5_0")
    int ibPort = 1;                      ///< -i, 1..255
    std::optional<int> gidIndex;         ///< -x, 0..64 (perftest's limit); RoCE
    std::optional<int> serverGpu, clientGpu; ///< --use_cuda=<gpu>, 0..63; unset: host memory on that side
    bool dmabuf = false;                 ///< --use_cuda_dmabuf on every side that has a GPU (needs one)
    bool allSizes = false;               ///< -a (all sizes from 2 to 2^23); `size` is then ignored
    std::uint64_t size = 1 << 20;        ///< -s, 1..2^31-1 bytes (perftest's limit)
    std::optional<int> iterations;       ///< -n, 5..2^31-1 (perftest's minimum is 5)
    std::optional<int> durationS;        ///< -D, 1..86400; not with `iterations` nor `allSizes`
    int qps = 1;                         ///< -q, 1..64 (bandwidth tools; latency tools take 1 only)
    int tcpPort = 18515;                 ///< -p, 1..65535: the out-of-band TCP port
    bool reportGbits = true;             ///< --report_gbits (bandwidth tools)
    bool bidirectional = false;          ///< -b (bandwidth tools only)
    std::optional<int> trafficClass;     ///< --tclass=N, 0..255 (GRH traffic class: DSCP << 2 | ECN on RoCE)
};

/// [server, client]. Arguments, in this order:
///   -d DEV -i PORT [-x GID] [--use_cuda=GPU] [--use_cuda_dmabuf] -F [--report_gbits] [-q QPS]
///   [-a | -s SIZE] [-n ITER | -D SEC] [-b] [--tclass=N] -p TCPPORT [SERVERHOST (client only)]
/// (--report_gbits and -q only for the bandwidth tools; -F always: do not fail on cpufreq scaling).
/// Errors: LAUNCH_TOOL for a tool that is not perftest, LAUNCH_PARAM for any refused parameter
/// (all problems found are returned).
core::Result<std::vector<ToolInvocation>> perftestPair(const PerftestParams& params);

/// The same rail of two plan nodes: devices from the node type's rail map (railMapOf), GPU k with
/// NIC k (base's GPUs are replaced by `rail`), the TCP port offset by the rail (base.tcpPort + rail)
/// so that the rails of a node pair can run in parallel. On RoCEv2 the GID index defaults to 3 (the
/// RoCEv2 IPv4 GID on mlx5) and the traffic class to the plan's lossless class (see
/// ncclTrafficClass), unless `base` sets them. Host names are the plan's node names. On a two-plane
/// plan base.ibPort picks the plane (port p = plane p).
/// Errors: LAUNCH_NODE (node not in the plan, or both nodes the same), LAUNCH_RAIL (rail outside
/// 0..rails-1, or no GPU k on the node type), LAUNCH_RAIL_MAP, then whatever perftestPair refuses.
core::Result<std::vector<ToolInvocation>> perftestRailPair(const core::Plan& plan, const core::Catalog& catalog,
    const std::string& serverNode, const std::string& clientNode, int rail, PerftestParams base);

// --- nccl-tests

struct NcclTestsParams {
    std::string tool = "all_reduce_perf"; ///< all_reduce_perf, all_gather_perf or reduce_scatter_perf
    std::vector<std::string> nodes;       ///< plan node names, each once; the rank order follows this list
    int gpusPerNode = 0;                  ///< ranks (one GPU each) per node, 1..64; 0 = the plan's
    std::string minBytes = "8", maxBytes = "8G"; ///< -b / -e (parseByteSize); minBytes <= maxBytes
    std::string stepFactor = "2";         ///< -f, an integer 2..1024
    int iters = 20;                       ///< -n, 1..1000000
    int warmupIters = 5;                  ///< -w, 0..1000000
    bool check = true;                    ///< -c 1 / -c 0
    std::optional<int> isolateRail;       ///< NCCL_IB_HCA = that rail's NIC only
    std::string launcher = "mpirun";      ///< "mpirun" or "srun"
    std::string hostfilePath = "hostfile"; ///< mpirun's --hostfile (validateFilePath)
    /// mpirun: `--host A:G,B:G,...` instead of a hostfile (where no file can be written first: an
    /// agent starts the launcher); NcclTestsLaunch::hostfile is then empty.
    bool hostList = false;
    /// mpirun: `--mca plm_rsh_agent PATH` (validateFilePath), the program mpirun reaches the other
    /// nodes with instead of ssh (the emulator's railyard-emu-ssh); empty: Open MPI's default.
    std::string rshAgent;
    /// mpirun: `--bind-to` policy: core, socket, numa, none, hwthread, l3cache, board or package,
    /// optionally ":overload-allowed". numa keeps each rank near its GPU and NIC; the emulator's
    /// nodes share this machine's cores, where 8 ranks per numa domain would overload it: none.
    std::string bindTo = "numa";
    /// mpirun: `--allow-run-as-root` (Open MPI refuses to start as root without it).
    bool allowRunAsRoot = false;
    /// More NCCL_* variables (validateNcclEnv). One with the name of a generated variable replaces
    /// its value in place (NCCL_IB_GID_INDEX=1 for an IPv6 GID, say); others are appended.
    std::vector<std::pair<std::string, std::string>> extraEnv;
};

struct NcclTestsLaunch {
    ToolInvocation launcher; ///< mpirun or srun, host "", role "launcher"
    std::string hostfile;    ///< mpirun: "node001 slots=8\n..." to write at hostfilePath; srun: ""
};

/// The traffic class NCCL_IB_TC (and perftest's --tclass) should carry on a RoCEv2 plan:
/// roce_dscp << 2, plus 2 (ECT(0)) when the lossless profile has ECN on. 26 with ECN: 106.
int ncclTrafficClass(const core::LosslessProfile& profile);

/// nccl-tests across `params.nodes`, G = gpusPerNode ranks per node, N = nodes x G ranks, one GPU
/// per rank (-g 1). The environment (ToolInvocation::env, in this order): NCCL_DEBUG=INFO,
/// NCCL_DEBUG_SUBSYS=INIT,NET, NCCL_IB_HCA==<rail NICs as DEV:1, rail order; DEV:1,DEV:2 on a
/// two-plane plan, port p = plane p> (or the isolated rail's NIC only), and on RoCEv2 NCCL_IB_GID_INDEX=3 and NCCL_IB_TC=ncclTrafficClass(...), then extraEnv.
///   mpirun [--allow-run-as-root] --hostfile FILE|--host A:G,B:G -np N --map-by ppr:G:node
///          --bind-to numa -x NAME... --mca pml ob1 --mca btl tcp,self [--mca plm_rsh_agent PATH]
///          TOOL -b MIN -e MAX -f F -g 1 -n ITERS -w WARMUP -c 0|1
///   (nccl-tests uses MPI only to start the ranks and exchange NCCL's id: pml ob1 with the tcp and
///   self BTLs keeps MPI's own traffic off the rail NICs under test, so that a broken RDMA or
///   GPUDirect setup shows up in NCCL's log rather than as an MPI start-up failure.)
///   srun --nodes=N --ntasks-per-node=G --gpus-per-node=G --mpi=pmix --nodelist=A,B,...
///        --export=ALL,NAME,... TOOL <same test arguments>
/// Errors: LAUNCH_TOOL, LAUNCH_NODE, LAUNCH_RAIL, LAUNCH_RAIL_MAP, LAUNCH_PARAM (all found).
core::Result<NcclTestsLaunch> ncclTestsLaunch(const core::Plan& plan, const core::Catalog& catalog,
    const NcclTestsParams& params);

} // namespace railyard::live
