// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The emulator's stand-in for perftest (railyard-perftest-emu, live/sim/perftest_emu.cpp): what it
// reads from an emulated node's sysfs tree, the figures it reports, and the loopback address of
// each emulated node. Pure functions apart from the file reads; the program does the rest.
//
// Bandwidth model (per direction, Gb/s = 10^9 bit/s):
//   line   = the lower of the two ports' data rates: the `rate` file's figure ("200 Gb/sec (2X NDR)"
//            -> 200), less the line encoding where the kernel prints the signalling rate
//            (SDR/DDR/QDR 8b/10b: x 0.8; FDR/FDR10 64b/66b)
//   peak   = line * MTU / (MTU + per-packet overhead) * 0.985
//            overhead: InfiniBand LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 bytes; RoCEv2 preamble+SFD 8
//            + Ethernet 14 + FCS 4 + inter-frame gap 12 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 = 82
//            bytes (the figures of live/client/bandwidth_model.h); MTU: the path MTU (4096 on IB;
//            on RoCE the largest IB MTU that fits in the netdev MTU less 96 bytes, as mlx5 does);
//            0.985: what a real NIC loses to acknowledgements, doorbells and PCIe on top of the
//            headers (a 400G NDR port reports about 391 Gb/s).
//   bw(s)  = peak * r / (1 + r^4)^(1/4), r = 8 * s * M / peak: small messages are bound by the
//            message rate M (writes 8 Mpps per QP, reads 2.5 Mpps per QP, up to 8 QPs), large ones
//            by the link; the fourth-power knee is as sharp as measured curves (a 200G port reaches
//            ~93 % at 4 KiB and ~64 % at 2 KiB, the ROCm fixture's ib_write_bw -a).
//   jitter = the peak is bw * (1 - 0.05 % * u'), the average the peak * (1 - 0.4 % * u), u and u'
//            in [0, 1) from a hash of the sender's device and port, the size and the column: the
//            same tree gives the same figures, and rows differ.
//   -b: each side sends at bw(s) and perftest prints the sum of both directions.
// Latency model (ib_write_lat: half the round trip; ib_read_lat: the whole round trip, as perftest
// reports them), microseconds:
//   t_typical = base + (not inline ? 0.10 : 0) + 8 * s / (peak * 1000)
//     base: InfiniBand 1.00 (both HCAs and one leaf switch), RoCEv2 1.60 (an Ethernet switch, and
//     the UDP/IP work in the NICs); ib_read_lat 2 * base - 0.10. Inline: writes of up to 220 bytes
//     from host memory (perftest's default inline size; none with --use_cuda).
//   t_min = 0.97 t, t_avg = 1.01 t + 0.01, t_stdev = 0.02 + 0.01 t, 99 % = 1.04 t + 0.05,
//   99.9 % = 1.10 t + 0.30, t_max = 1.6 t + 2 (one scheduling outlier), each with up to 1 % jitter.
#pragma once

#include "live/common/rate.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live {

/// One RDMA port as the emulated perftest sees it (sysfs class/infiniband/<dev>/ports/<n>/).
struct EmulatedRdmaPort {
    int state = 0; ///< `state`'s number: 4 = ACTIVE (ibv_port_state)
    int physState = 0; ///< `phys_state`'s number: 5 = LinkUp
    std::string rateText; ///< as written: "400 Gb/sec (4X NDR)"
    double dataGbps = 0; ///< perftestDataRateGbps(rate)
    bool ethernet = false; ///< link_layer "Ethernet" (RoCE)
    int lid = 0; ///< `lid` (0 on RoCE)
    int mtu = 4096; ///< active path MTU
    std::string netdev; ///< RoCE: gid_attrs/ndevs/0
};

/// RDMA device names under <sysRoot>/class/infiniband, sorted.
std::vector<std::string> emulatedRdmaDevices(const std::filesystem::path& sysRoot);
/// The port, or nullopt when the device has no such port.
std::optional<EmulatedRdmaPort> readEmulatedRdmaPort(
    const std::filesystem::path& sysRoot, const std::string& device, int port);
/// gids/<index> as 16 bytes; nullopt when there is no such entry.
std::optional<std::array<std::uint8_t, 16>> readEmulatedGid(
    const std::filesystem::path& sysRoot, const std::string& device, int port, int index);

/// What a node offers GPUDirect RDMA: nvidia-peermem (module/nvidia_peermem or nv_peer_mem) for
/// plain --use_cuda, dma-buf (the emulator's <node>/sim/gpu.json "dmabuf": "on") for
/// --use_cuda_dmabuf, and the GPUs (gpu.json "models", in PCI address order).
struct EmulatedGpus {
    bool peermem = false;
    bool dmabuf = false;
    struct Gpu {
        std::string pciAddress; ///< "0000:14:00.0"
        std::string name; ///< "H100 80GB HBM3"
    };
    std::vector<Gpu> gpus;
};
EmulatedGpus readEmulatedGpus(const std::filesystem::path& sysRoot);

/// The data rate of a port from its `rate` text (see the model above); 0 when unreadable.
double perftestDataRateGbps(const LinkRate& rate);
/// Payload share of the wire for one packet of `mtu` bytes.
double perftestPacketEfficiency(bool ethernet, int mtu);
/// The RoCE path MTU for a netdev MTU (largest of 256..4096 that fits in netdevMtu - 96).
int rocePathMtu(int netdevMtu);

inline constexpr double kPerftestNicEfficiency = 0.985;

/// peak above, Gb/s, for the lower of the two ports' data rates.
double perftestPeakGbps(double lineGbps, bool ethernet, int mtu);
/// bw(s) above, before jitter.
double perftestBandwidthGbps(double peakGbps, std::uint64_t size, int qps, bool read);
/// A number in [0, 1) from the device, port, size and a salt (direction, column).
double perftestJitter(std::string_view device, int port, std::uint64_t size, std::string_view salt);

struct PerftestBwFigures {
    double peakGbps = 0;
    double averageGbps = 0;
};
/// One direction of a bandwidth row with its jitter (sender's device and port).
PerftestBwFigures perftestBwRow(
    double peakGbps, std::uint64_t size, int qps, bool read, std::string_view device, int port);

struct PerftestLatFigures {
    double tMin = 0, tMax = 0, tTypical = 0, tAvg = 0, tStdev = 0, p99 = 0, p999 = 0;
};
/// One latency row (see the model above).
PerftestLatFigures perftestLatRow(
    double peakGbps, bool ethernet, std::uint64_t size, bool read, bool inlined, std::string_view device, int port);

/// The loopback address an emulated node's perftest listens on and is reached at, so that the
/// pairs of different nodes can use the same TCP port at once, as they do on real hosts:
/// 127.F.H.L, F = 1 + a hash of `root`'s path mod 254 (two emulated fabrics on one machine rarely
/// share it), H.L = the index of `node` among the node folders of `root` (folders with a sys/
/// folder inside, as railyard-sim writes them) in name order. nullopt when `node` is no node
/// folder of `root`, or past the 65,536th.
std::optional<std::string> emulatedNodeAddress(const std::filesystem::path& root, const std::string& node);
/// The node whose emulatedNodeAddress is `address` ("127.F.H.L"); nullopt when none is.
std::optional<std::string> emulatedNodeAt(const std::filesystem::path& root, const std::string& address);

/// The IPv4 addresses with a TCP socket listening on `port` in this network namespace
/// (/proc/net/tcp), dotted.
std::vector<std::string> tcpListenersOn(int port);

} // namespace railyard::live
