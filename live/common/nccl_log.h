// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The analyser of NCCL's own log (NCCL_DEBUG=INFO, WARN or TRACE), NCCL 2.4 to 2.29, for
// `results import --kind nccl-log` (interfaces.md §4). Tested against the real logs in
// ../shared/fixtures (nccl-debug-*.txt, nccl-warn-*.txt).
//
// What it reads:
// - NCCL's lines "host:pid:tid [dev] NCCL INFO msg", "host:pid:tid [dev] file.cc:123 NCCL WARN msg"
//   and "host:pid:tid [dev] 12.345 func:67 NCCL TRACE msg", from any number of hosts and ranks,
//   interleaved in any order. A prefix before the host (a "[2026-03-03 12:35:26] " timestamp, an
//   srun "0: " label, mpirun's "[1,0]<stdout>:") is allowed; the host may be missing
//   (":22901:22901 [0] NCCL INFO ...", a poster removed it: the host is then ""). The bare
//   "NCCL version 2.16.5+cuda11.8" line of older releases counts too.
// - Everything else (nccl-tests' table, MPI, the application, shell lines) is read over; a
//   warning gives the count. Two NCCL messages run together on one line (processes writing at
//   once) are read as two.
// - Streaming: feed() one line at a time (a line end, LF or CRLF, is optional); memory grows with
//   what the log says (hosts, NICs, distinct errors), not with its length. The last line may be
//   cut anywhere: it is used as far as it reads; a cut line that no longer says anything is
//   dropped with a warning. When the very first line lost its first characters (a paste or a
//   log tail: "pgds-aihub0007:196831:..." before "tpgds-aihub0007:196831:..."), its host is
//   taken from the same process's later lines, with a warning.
// - Messages whose wording changed between releases are read in every form seen in NCCL's
//   history (see nccl_log.cpp, one comment per message); numbers whose meaning depends on the
//   release (the HCA id of the GPU/HCA GDR line, the GPU named there, PCI distances) are
//   interpreted with the printed version, or by their form when no version is printed.
//
// What the log can and cannot show:
// - A host's NICs and their link layer come from "NET/IB : Using [0]mlx5_0:1/RoCE ...". Without
//   that line a NIC is known only by NCCL's index ("via NET/IB/4"): its name stays "".
// - GPUDirect RDMA per NIC: "Enabled" or "Disabled" lines (per HCA, and per GPU/HCA pair with
//   the PCI distance), channels "via NET/IB/n/GDRDMA" or without "/GDRDMA", and "Connected all
//   rings, use ring PXN p GDR g". NCCL says nothing when dma-buf is missing, so dmaBuf is only
//   ever true ("DMA-BUF is available on GPU device N") or false (NCCL_DMABUF_ENABLE=0).
// - Rails: only where both ends of one network connection are in the log (the "[send]" line on
//   one host and the "[receive]" line of the same channel and ranks on the other) does the log
//   show the NIC on each side; the two differ (by name, or by index when unnamed) when the
//   connection crosses rails. With one host's log only, a connection between GPU i and GPU j != i
//   (NCCL 2.19+ prints device indices in "a[i] -> b[j]") is a likely crossing on a
//   rail-optimised fabric, no more: that is counted apart (netPeerOtherGpu) and reported as info.
//
// Findings (`where` is the host, host/HCA, or "" for the whole log; "" is also the host a poster
// removed):
// - NCCL_GDR_DISABLED (error): GPUDirect RDMA off for an HCA (no nvidia-peermem, no dma-buf), or
//   for a GPU that has it with no HCA at all (PCI distance beyond NCCL_NET_GDR_LEVEL); names both.
// - NCCL_NET_NO_GDRDMA (warning): network connections without "/GDRDMA", or "use ring ... GDR 0";
//   info when only sends go without it while receives use it (GDR read off, NCCL's pre-Ampere default).
// - NCCL_IB_COMPLETION_ERROR (error): one per host, HCA, status and vendor error, with what the
//   status means and what usually causes it.
// - NCCL_SOCKET_TRANSPORT (warning; info with nNodes 1): TCP sockets instead of IB/RoCE.
// - NCCL_RING_CROSSES_RAILS (warning) / NCCL_CROSS_RAIL_LIKELY (info): see "Rails" above.
// - NCCL_WARN (warning): other WARN lines, one per host and message (the first 12 distinct).
// - NCCL_INIT_INCOMPLETE (warning): "Init START" without "Init COMPLETE".
#pragma once

#include "core/plan.h"
#include "core/result.h"

#include <nlohmann/json_fwd.hpp>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// One network device NCCL uses.
struct NcclNic {
    std::string name;     ///< "mlx5_0"; "" when the log names it only by index
    int port = 1;         ///< the HCA port ("mlx5_0:1")
    std::string link;     ///< "IB" or "RoCE" as NCCL prints it; "" unknown
    std::optional<bool> gdr;  ///< true: GPUDirect RDMA used or enabled for some GPU with this HCA;
                              ///< false: disabled (why in gdrReason); nullopt: the log does not say
    std::string gdrReason;    ///< words, for gdr == false ("no nvidia-peermem and no dma-buf", ...)
    int index = -1;           ///< NCCL's [i] ("NET/IB/i"); -1 when not printed
    std::optional<int> speedMbps; ///< NCCL_DEBUG_SUBSYS=NET probe lines ("speed=400000")
    std::optional<int> rail;      ///< "[0]mlx5_0:1:3/IB": NCCL's rail id, when printed
    bool sharp = false;           ///< "/IB/SHARP" (HPC-X's plugin): SHARP capable
};

/// One "GPU Direct RDMA Enabled|Disabled for GPU g / HCA h (distance d <= l)" statement.
struct NcclGdrPath {
    std::string gpu;        ///< as printed: "2[2]" (2.4: cudaDev[nvmlDev]), "81000" (2.5-2.23: PCI
                            ///< bus id), "1" (2.24+: the rank); see gpuIsRank
    bool gpuIsRank = false; ///< the GPU is named by its rank (NCCL 2.24 and later)
    int hca = -1;           ///< NCCL's NIC index
    bool enabled = false;
    std::optional<int> distance; ///< NCCL's PCI path type number
    std::optional<int> limit;    ///< NCCL_NET_GDR_LEVEL (the largest distance allowed; 2.4/2.5: the first refused)
    std::string distanceName;    ///< "PXB", "SYS", ... when the release is known; "" otherwise
    std::string limitName;
    std::string reason;          ///< disabled for a reason other than distance ("no module ...")
};

/// What the log says about one host.
struct NcclHostReport {
    std::string host;        ///< as printed before ":pid:tid"; "" when the poster removed it
    std::vector<NcclNic> nics; ///< in NCCL's index order (unindexed ones last)
    std::set<int> ranks;     ///< global ranks seen on this host
    std::set<int> gpus;      ///< local CUDA devices (the "[dev]" of the line prefix)
    int netChannelsGdr = 0;  ///< network connection lines "via NET/.../GDRDMA" (one per rank, channel, direction)
    int netChannelsNoGdr = 0;   ///< network connection lines without "/GDRDMA" (socket ones included)
    int netChannelsSocket = 0;  ///< of those, "via NET/Socket/..."
    std::vector<NcclGdrPath> gdrPaths; ///< distinct GPU/HCA statements
    std::optional<bool> dmaBuf;     ///< true: "DMA-BUF is available"; false: NCCL_DMABUF_ENABLE=0
    std::optional<bool> peermem;    ///< false: "(no module)"; the log never says it is loaded
    std::string netPlugin;          ///< "Using network IB" -> "IB"
    std::string oob;                ///< "enp25s0np0:10.99.91.63<0>" (the NET/IB OOB interface)
    std::vector<std::string> socketInterfaces; ///< "NET/Socket : Using [0]eth0:10.0.0.1<0>"
    std::optional<bool> ringGdr;    ///< "Connected all rings, use ring PXN p GDR g"
    std::optional<bool> ringPxn;
};

/// One distinct IB completion error ("Got completion from peer ... with status=12 ... vendor err 129").
struct NcclError {
    int status = 0;                ///< ibv_wc_status number
    std::string statusName;        ///< "IBV_WC_RETRY_EXC_ERR"
    std::optional<int> vendorErr;  ///< as NCCL prints it (decimal: 129 = 0x81)
    std::optional<int> opcode;
    std::string hca;               ///< "mlx5_0" (NCCL 2.22+ print it); "" when not printed
    std::string host;
    std::string peer;              ///< "10.99.91.63<36473>"
    std::string direction;         ///< "Send" or "Recv" when printed
    std::string localGid, remoteGid;
    std::string line;              ///< the first line that said it
    int lineNumber = 0;
    int count = 1;                 ///< lines that said exactly this
    std::string meaning;           ///< what the status means and what usually causes it
};

/// What the log says about how the collectives will run (for a bandwidth model).
struct NcclTopologyHints {
    std::optional<int> nRanks;      ///< of the largest communicator ("nRanks 16", "nranks 16")
    std::optional<int> nNodes;      ///< "nNodes 2"
    std::optional<int> localRanks;  ///< "localRanks 8"
    int communicators = 0;          ///< distinct commId values
    std::optional<bool> nvls;       ///< NVLS multicast: "NVLS multicast support is available", NVLS channels, NCCL_NVLS_ENABLE
    std::optional<int> nvlsChannels;
    std::optional<int> collChannels; ///< "16 coll channels, ..."
    std::optional<int> p2pChannels;
    std::optional<bool> collnet;    ///< CollNet/SHARP connected ("CollNet 00/0 ... via COLLNET", "Connected CollNet"), or disabled
    bool sharp = false;             ///< SHARP named (a NIC "/SHARP", a SHARP collnet plugin)
    std::string algorithm;          ///< NCCL_ALGO as set by the environment ("Ring")
    std::string protocol;           ///< NCCL_PROTO as set by the environment ("Simple")
    bool trees = false;             ///< tree graphs built ("Trees [0] ...", "Tree 0 : ...")
    std::optional<int> ringChannels; ///< "Channel 00/16 :  0 7 6 ..." -> 16
    std::optional<bool> pxn;        ///< "use ring PXN 1"
    std::optional<int> crossNic;    ///< NCCL_CROSS_NIC, or the largest "Pattern p, crossNic c"
    std::optional<bool> crossesRails; ///< from connections seen at both ends; nullopt: none seen at both ends
    int crossRailPairs = 0;         ///< connections whose two ends use different NICs
    int sameRailPairs = 0;
    int netPeerOtherGpu = 0;        ///< NET connection lines from GPU i to GPU j != i (device indices only)
    int netPeerGpuKnown = 0;        ///< NET connection lines where both device indices are printed
};

struct NcclLogReport {
    std::string version;  ///< "2.27.5" from "NCCL version 2.27.5+cuda12.9"; "" when not printed
    std::string cuda;     ///< "12.9"
    std::vector<NcclHostReport> hosts; ///< in the order first seen
    std::vector<NcclNic> nics;         ///< the union over hosts (by name and port; unnamed ones by index); gdr is
                                       ///< false when false on any host, else true when true on any
    int netChannelsGdr = 0;            ///< the hosts' sums
    int netChannelsNoGdr = 0;
    std::optional<int> gidIndex;       ///< NCCL_IB_GID_INDEX, or "GID n" of the QP lines
    std::optional<int> trafficClass;   ///< NCCL_IB_TC
    std::optional<int> serviceLevel;   ///< NCCL_IB_SL
    std::string netPlugin;             ///< "IB", "Socket", "AWS Libfabric", ... ("Using network X"; the last one)
    std::vector<std::string> pluginsLoaded; ///< "NET/Plugin: Loaded net plugin X", GIN/RMA plugins
    std::map<std::string, std::string> env; ///< "NCCL_X set by environment to Y." and "NCCL_IB_HCA set to ..."
    NcclTopologyHints topology;
    int initStarted = 0;    ///< "... - Init START" lines
    int initCompleted = 0;  ///< "... - Init COMPLETE" lines
    std::vector<NcclError> errors;
    std::vector<std::string> hints; ///< NCCL's own "HINT: ..." lines (2.28+), distinct
    std::vector<core::Finding> findings;
    std::vector<std::string> warnings;
    int ncclLines = 0;   ///< lines read as NCCL's
    int otherLines = 0;  ///< lines read over

    /// At least one Init COMPLETE, every Init START completed, and no completion error.
    bool complete() const;
};

/// The streaming analyser: feed() each line, then finish() once.
class NcclLogParser {
public:
    NcclLogParser();
    ~NcclLogParser();
    NcclLogParser(const NcclLogParser&) = delete;
    NcclLogParser& operator=(const NcclLogParser&) = delete;
    NcclLogParser(NcclLogParser&&) noexcept;
    NcclLogParser& operator=(NcclLogParser&&) noexcept;

    /// One line, with or without its line end.
    void feed(std::string_view line);
    /// Whether any line so far was NCCL's.
    bool recognised() const;
    /// The report, findings included. The parser is spent afterwards.
    NcclLogReport finish();

private:
    struct State;
    std::unique_ptr<State> m_state;
};

/// The whole text at once. Error code "TOOL_OUTPUT" when no line is NCCL's.
core::Result<NcclLogReport> parseNcclLog(std::string_view text);

/// interfaces.md §4 `results import --kind nccl-log --json`: {"tool": "nccl", "version", "cuda",
/// "complete", "nics": [{name, port, link, gdr, index, and gdr_reason, speed_mbps, rail, sharp when
/// known}], "channels": {"net_gdrdma",
/// "net_no_gdrdma"}, "gid_index", "traffic_class", "service_level" (null when not set),
/// "net_plugin", "plugins", "env", "topology": {...}, "init": {"started", "completed"},
/// "errors": [{status, status_name, vendor_err, vendor_err_hex, opcode, hca, host, peer, direction,
/// local_gid, remote_gid, count, line, line_number, meaning}], "hints", "findings":
/// [{severity, code, message, where}], "warnings", "hosts": [{host, ranks, gpus, nics, channels:
/// {net_gdrdma, net_no_gdrdma, net_socket}, gdr_paths, dmabuf, peermem, net_plugin, oob,
/// socket_interfaces, ring_gdr, ring_pxn}]}.
/// What the log does not say: a string key is left out (version, cuda, a NIC's name or link, an
/// error's hca, net_plugin, oob, topology.algorithm/protocol), a number or a boolean is null.
nlohmann::json toJson(const NcclLogReport& report);

} // namespace railyard::live
