// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// What the network could have delivered to a collective (nccl-tests) or a perftest run, from the
// plan: the bound, the network share of what was measured, and a verdict.
//
// The collective model (nccl-tests issues #40, #159, #164, #274 ask for it). A run has N nodes of
// g ranks each, n = N*g ranks; nccl-tests reports algbw = S / time and busbw = algbw * B(n) with
// B = 2(n-1)/n for all_reduce, (n-1)/n for all_gather, reduce_scatter and alltoall, 1 for
// broadcast and reduce. Per node the NICs must carry at least algbw * F bytes per second, where F
// depends on the collective and on NCCL's algorithm:
//   all_reduce      ring: 2(n-1)/n; tree, NVLS, NVLS-tree (hierarchical) or not known: 2(N-1)/N;
//                   CollNet (SHARP in the switches): (N-1)/N, half of the hierarchical figure
//   all_gather, reduce_scatter   ring: (n-1)/n; otherwise (N-1)/N
//   broadcast, reduce            1 (every node but the root receives, or sends, the whole buffer)
//   alltoall                     g(N-1)/N (each rank sends S(n-g)/n off its node)
// ("not known" takes the smallest factor, so the bound is never too low.) The network bounds
// algbw at C / F, where C is the node's NIC aggregate after encoding and packet headers:
//   C = rails * data rate of a rail port (plan summary.port.data_gbps, encoding already removed)
//       * MTU / (MTU + per-packet overhead) / 8   [GB/s, 10^9 bytes as nccl-tests counts]
//   overhead: InfiniBand LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 bytes at a 4096-byte MTU;
//             RoCEv2 preamble+SFD 8 + Ethernet 14 + FCS 4 + inter-frame gap 12 + IPv4 20 + UDP 8
//             + BTH 12 + ICRC 4 = 82 bytes at the plan's RDMA MTU (lossless.mtu).
// When the run spans SUs and the leaves are oversubscribed, rail traffic between SUs shares the
// uplinks: C is divided by the leaf oversubscription (worst case: every ring neighbour in another SU).
// A single-node run crosses no NIC (F = 0): NVLink only, no network bound.
//
// perftest: one rail NIC per side; the bound is the port's data rate times the same header
// efficiency, in Gb/s, twice that with -b (perftest sums both directions).
//
// Verdicts compare the bandwidth-bound end of the run (the best row at or above 64 MiB, or the
// largest message when the run stops below that) with the bound, against thresholds that the
// caller may change (defaults: 90 % meets, 75 % below, less is low).
#pragma once

#include "core/plan.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

enum class Collective { AllReduce, AllGather, ReduceScatter, Broadcast, Reduce, AllToAll, Unknown };
/// "all_reduce_perf" (or "all_reduce", "allreduce") -> AllReduce; Unknown otherwise.
Collective collectiveOfTool(std::string_view tool);
std::string_view toString(Collective collective); ///< "all_reduce", ...

/// The algorithm NCCL ran, as far as its log tells.
enum class NcclAlgorithm { Unknown, Ring, Tree, Nvls, NvlsTree, CollNet };
/// "ring", "tree", "nvls", "nvlstree", "collnet" / "collnetdirect" / "collnetchain" / "sharp" (any case).
NcclAlgorithm ncclAlgorithmOf(std::string_view name);
std::string_view toString(NcclAlgorithm algorithm); ///< "ring", ..., "unknown"

/// nccl-tests' busbw / algbw for `ranks` ranks.
double busbwFactor(Collective collective, int ranks);
/// Bytes per node over the NICs per byte of algbw (F above); 0 when nodes <= 1.
double networkFactor(Collective collective, NcclAlgorithm algorithm, int nodes, int ranks);

/// Payload share of the wire for one RDMA packet of `mtu` payload bytes on `fabric`.
double headerEfficiency(core::Fabric fabric, int mtu);
/// The RDMA path MTU the plan implies: 4096 on InfiniBand; on RoCEv2 the lossless profile's MTU
/// when it is a path MTU, else the largest path MTU that fits in that Ethernet MTU.
int rdmaMtuOf(const core::Plan& plan);

struct VerdictThresholds {
    double meetsPercent = 90; ///< at or above: "meets"
    double belowPercent = 75; ///< at or above (and under meets): "below"; under it: "low"
};

/// What the plan says one node (or one NIC) can carry.
struct NetworkCapacity {
    int rails = 0;
    double portDataGbps = 0;     ///< per rail port
    int mtu = 0;                 ///< RDMA path MTU used for the header overhead
    double efficiency = 1;       ///< payload share after headers
    double oversubscription = 1; ///< divisor applied (leaf oversubscription when the run spans SUs)
    double nodeGBs = 0;          ///< C: per node, GB/s (10^9 bytes)
    std::string basis;           ///< how C was found, in words
};
/// `spansSus`: the run's nodes are in more than one SU of the plan.
NetworkCapacity nodeCapacity(const core::Plan& plan, bool spansSus);

/// The facts of a collective run the model needs.
struct CollectiveRun {
    Collective collective = Collective::Unknown;
    NcclAlgorithm algorithm = NcclAlgorithm::Unknown;
    int ranks = 0;
    int nodes = 0;                   ///< 0: not known (then ranks / the plan's GPUs per node)
    std::vector<std::string> hosts;  ///< host names of the ranks, when printed (matched to plan nodes)
};

/// One measured size (nccl-tests prints out-of-place and in-place; the better of the two is used).
struct MeasuredCollectiveRow {
    std::uint64_t bytes = 0;
    double algbwGBs = 0;
    double busbwGBs = 0;
};

struct ModelledCollectiveRow {
    std::uint64_t bytes = 0;
    double algbwGBs = 0, busbwGBs = 0;
    double netGBs = 0;          ///< network share: algbw * F, per node over its NICs
    double percentOfBound = 0;  ///< algbw / bound
};

/// "meets", "below", "low", "no-network" (single node) or "unknown" (nothing to judge).
struct Verdict {
    std::string status;
    double percentOfBound = 0;
    std::uint64_t bytes = 0;   ///< the row judged
    std::string message;       ///< in words, with the likely cause to look at when low
};

struct CollectiveModel {
    Collective collective = Collective::Unknown;
    NcclAlgorithm algorithm = NcclAlgorithm::Unknown;
    int ranks = 0, nodes = 0, ranksPerNode = 0;
    bool spansSus = false;
    std::vector<std::string> unmatchedHosts; ///< hosts that are no node of the plan
    NetworkCapacity capacity;
    double networkFactor = 0;
    double busbwFactor = 0;
    std::optional<double> boundAlgbwGBs; ///< none for a single-node run
    std::optional<double> boundBusbwGBs;
    std::vector<ModelledCollectiveRow> rows;
    Verdict verdict;
    std::vector<core::Finding> findings;
};

CollectiveModel modelCollective(const core::Plan& plan, const CollectiveRun& run,
    const std::vector<MeasuredCollectiveRow>& rows, const VerdictThresholds& thresholds = {});

struct MeasuredPerftestRow {
    std::uint64_t bytes = 0;
    double bwAverageGbps = 0;
};

struct PerftestModel {
    NetworkCapacity capacity;    ///< rails = 1: one NIC
    bool bidirectional = false;
    double boundGbps = 0;        ///< per direction, times 2 when bidirectional
    int rail = -1;               ///< the device's rail in the node type's rail map; -1 not known
    std::vector<double> percentOfBound; ///< per row
    Verdict verdict;
    std::vector<core::Finding> findings;
};

/// `railMap`: the node type's rail map (live::railMapOf), to name the rail of `device`.
PerftestModel modelPerftest(const core::Plan& plan, const std::vector<std::string>& railMap, const std::string& device,
    bool bidirectional, const std::vector<MeasuredPerftestRow>& rows, const VerdictThresholds& thresholds = {});

/// `expected` objects for the results documents (results import --json).
nlohmann::json toJson(const CollectiveModel& model);
nlohmann::json toJson(const PerftestModel& model);
nlohmann::json toJson(const Verdict& verdict);

} // namespace railyard::live
