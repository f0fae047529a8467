// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The emulator's stand-in for nccl-tests (railyard-nccl-tests-emu, live/sim/nccl_tests_emu.cpp):
// what one rank reads from its emulated node, the fabric facts railyard-sim leaves for it, and
// the figures the job reports. Pure functions apart from the file reads; the program does the rest.
//
// Where a rank finds its node: RAILYARD_SYSFS_ROOT, the node's sysfs tree (DIR/<node>/sys, set by
// the agent for the tests it starts and by the emulator's ssh stand-in for the ranks mpirun starts
// on an emulated node); the node is that tree's parent folder, the fabric DIR its parent (or
// RAILYARD_SIM_ROOT when set). railyard-sim writes DIR/tools/nccl-tests-fabric.json: every node's SU
// and rail leaves, and the uplink capacity left on each congested leaf (faults "congested").
//
// Bandwidth model (GB/s = 10^9 bytes/s, as nccl-tests counts):
//   per NIC    r = data rate of the port (`rate` file, perftestDataRateGbps) * perftestPacketEfficiency
//                  (headers at the path MTU) * 0.985 (kPerftestNicEfficiency) / 8
//                  * 0.60 when the node has no GPUDirect RDMA (neither nvidia-peermem nor dma-buf:
//                    NCCL stages every chunk through host memory, which costs the copy and the
//                    host memory bandwidth; measured setups lose 30-50 %)
//                  * the leaf's uplink capacity (total - N + N * factor) / total when the job spans
//                    SUs and the NIC's leaf is congested (the emulator's traffic model uses the same)
//   per node   C = NICs used * the slowest r of any NIC of any node: NCCL spreads its channels evenly
//                  over the NICs (NCCL_IB_HCA, in its order), so the slowest rail gates every ring
//   network    algbw = 0.93 * C / F, F = networkFactor() of live/client/bandwidth_model.h for the
//                  algorithm (NCCL_ALGO when set; else the hierarchical figure 2(N-1)/N, what NCCL's
//                  tree/NVLS algorithms reach on rail-optimised nodes); 0.93: what NCCL's Simple
//                  protocol loses to chunking, flags and the reduction. On a healthy fabric this is
//                  about 91 % of the bound modelCollective() gives (the same C before the 0.985 and
//                  the 0.93).
//   one node   algbw = 370 / busbwFactor(n) (NVLink 4, about 370 GB/s bus bandwidth); no NIC is used
//   no NIC     (NCCL_IB_HCA matches none): NCCL falls back to TCP sockets, C = 1.2 GB/s
//   time(S)    = t0 + S / algbw, t0 = 20 us + 1 us per rank across nodes, 8 us + 1 us per rank in one
//                node; in place 0.3 % faster; up to 1 % deterministic jitter per size (hash of the
//                size, the tool and the column), so the same fabric gives the same figures.
//   busbw      = algbw * busbwFactor(collective, n), as nccl-tests prints it.
// Failures: a NIC in NCCL_IB_HCA that is not ACTIVE on some node (link_down, unplugged) breaks the
// rings through it: the job fails at the first size of at least 1 MiB with NCCL's completion
// error (status=12, IBV_WC_RETRY_EXC_ERR, vendor err 129) on that node and "Test NCCL failure".
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "live/sim/faults.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// One HCA port a rank uses, as its node's sysfs tree shows it.
struct NcclEmuHca {
    std::string device; ///< "mlx5_0"
    int port = 1;
    bool active = false;  ///< state 4 (ACTIVE)
    double dataGbps = 0;  ///< the data rate of the `rate` file
    bool ethernet = false;
    int mtu = 4096;       ///< path MTU
    int rail = -1;        ///< the NIC's rail on the node (its position in the node's rail map), -1 not a rail NIC
};

/// What one rank tells the others at start-up (NCCL's bootstrap exchange, here through files).
struct NcclEmuRank {
    int rank = 0;
    int localRank = 0;
    int pid = 0;
    std::string node;  ///< "node001"
    std::string busId; ///< "0000:14:00"
    std::string gpu;   ///< "NVIDIA H100 80GB HBM3"
    bool peermem = false, dmabuf = false;
    std::vector<NcclEmuHca> hcas; ///< NCCL_IB_HCA's choice among the node's devices, in its order
};

/// DIR/tools/nccl-tests-fabric.json: the facts of the emulated fabric a rank cannot read from its node.
struct NcclEmuFabric {
    bool roce = false;
    struct Node {
        int su = 0;
        std::vector<std::string> leaves; ///< rail k's leaf
    };
    std::map<std::string, Node> nodes;
    std::map<std::string, double> leafCapacity; ///< congested leaves: uplink capacity left (0..1)
    std::vector<std::string> railMap;           ///< device of NIC k
};

/// From the cabled plan and the faults (railyard-sim).
NcclEmuFabric ncclEmuFabricOf(const core::Plan& plan, const std::vector<Fault>& faults, const std::vector<std::string>& railMap);
core::Status writeNcclEmuFabric(const std::filesystem::path& path, const NcclEmuFabric& fabric);
core::Result<NcclEmuFabric> readNcclEmuFabric(const std::filesystem::path& path);

/// NCCL_IB_HCA's filter ("=mlx5_0:1,mlx5_3:1", "mlx5", "^mlx5_1") applied to `devices` (sorted
/// names), as NCCL reads it: '^' excludes, '=' matches names exactly, otherwise by prefix; a
/// ":port" picks that port (1 otherwise). Empty filter: every device. Result in the filter's order
/// for exact lists, else in device order.
std::vector<std::pair<std::string, int>> ncclHcaSelection(std::string_view filter, const std::vector<std::string>& devices);

/// The rank's own node: its GPU (local rank k: the k-th GPU of gpu.json), GPUDirect, and the HCAs
/// NCCL_IB_HCA selects with their ports' state and rate. `railMap`: from the fabric file.
NcclEmuRank readNcclEmuRank(const std::filesystem::path& sysRoot, const std::string& node, int rank, int localRank,
    std::string_view hcaFilter, const std::vector<std::string>& railMap);

/// The rendezvous record of a rank (JSON), and back.
std::string toJsonText(const NcclEmuRank& rank);
std::optional<NcclEmuRank> ncclEmuRankFromJson(std::string_view text);

enum class NcclEmuCollective { AllReduce, AllGather, ReduceScatter };
std::optional<NcclEmuCollective> ncclEmuCollectiveOf(std::string_view tool); ///< "all_reduce_perf", ...
std::string_view toolName(NcclEmuCollective collective);

/// The job's figures, from every rank's record.
struct NcclEmuJobModel {
    int ranks = 0, nodes = 0, ranksPerNode = 0;
    int nicsPerNode = 0;
    double perNicGBs = 0;   ///< the slowest NIC's r
    std::string slowestNic; ///< "node007/mlx5_5"
    double nodeGBs = 0;     ///< C
    double networkFactor = 0;
    double busbwFactor = 0;
    double peakAlgbwGBs = 0; ///< large-message algbw
    std::string algorithm;   ///< "tree", "ring", ... as modelled
    /// The first NIC in use that is not ACTIVE ("node007" and its device), when any.
    std::optional<std::pair<std::string, std::string>> downNic;
    std::vector<std::string> nodesWithoutGdr;
    bool spansSus = false;
};

/// `algorithm`: NCCL_ALGO's value ("" unset).
NcclEmuJobModel modelNcclEmuJob(NcclEmuCollective collective, const std::vector<NcclEmuRank>& ranks,
    const NcclEmuFabric& fabric, std::string_view algorithm);

/// One size's figures.
struct NcclEmuRow {
    std::uint64_t bytes = 0, count = 0;
    double timeUs = 0, algbwGBs = 0, busbwGBs = 0;
    double inPlaceTimeUs = 0, inPlaceAlgbwGBs = 0, inPlaceBusbwGBs = 0;
};
/// `bytes` as nccl-tests rounds it (a multiple of the element size, times the ranks for all_gather
/// and reduce_scatter), `typeSize` bytes per element.
NcclEmuRow ncclEmuRow(const NcclEmuJobModel& job, NcclEmuCollective collective, std::uint64_t bytes, int typeSize);

/// nccl-tests' size sweep: min..max by factor (stepFactor > 1) or by stepBytes.
std::vector<std::uint64_t> ncclEmuSizes(std::uint64_t minBytes, std::uint64_t maxBytes, std::uint64_t stepFactor,
    std::uint64_t stepBytes);

} // namespace railyard::live
