// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// railyard-perftest-emu, the emulator's perftest: server and client processes on an emulated
// fabric (degraded port, no GPUDirect, link down) and on a small hand-written RoCE tree; both
// outputs read by Railyard's own perftest parser; the bandwidth and latency model; failures as
// perftest reports them; SIGTERM; the tools folder the emulator links.
#include "live/common/perftest_output.h"
#include "live/common/subprocess.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "live/sim/perftest_model.h"
#include "live/sim/perftest_tools.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace railyard::live {
namespace {

    namespace fs = std::filesystem;
    using namespace std::chrono_literals;

    const std::string kEmulator = RAILYARD_PERFTEST_EMU;
    const std::string kSim = RAILYARD_SIM;

    /// 400G NDR port: 400 * 4096 / 4122 * 0.985.
    constexpr double kNdrPeak = 400.0 * 4096.0 / 4122.0 * 0.985;

    /// A TCP port nothing listens on now (the kernel's pick on 127.0.0.1).
    int freePort()
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        a.sin_port = 0;
        ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        socklen_t length = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &length);
        ::close(fd);
        return ntohs(a.sin_port);
    }

    /// Whether `address`:`port` can be bound (nothing listens there).
    bool canBind(const std::string& address, int port)
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<std::uint16_t>(port));
        ::inet_pton(AF_INET, address.c_str(), &a.sin_addr);
        int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        ::close(fd);
        return ok;
    }

    /// One emulated perftest process, its stdout and stderr in one log.
    struct Proc {
        fs::path log;
        std::unique_ptr<ChildProcess> child;
        std::optional<int> status;

        std::string output() const { return simtest::readText(log); }
        int wait(std::chrono::milliseconds timeout = 15s)
        {
            if (!status)
                status = child->waitFor(timeout);
            return status.value_or(-1);
        }
    };

    /// argv[0] is `program` (a tools-folder link), or the stand-in with --as TOOL.
    Proc start(const fs::path& program, const std::string& tool, const fs::path& sysRoot,
        const std::vector<std::string>& args, const fs::path& log)
    {
        std::vector<std::string> argv { program.string() };
        if (!tool.empty()) {
            argv.push_back("--as");
            argv.push_back(tool);
        }
        argv.insert(argv.end(), args.begin(), args.end());
        SpawnOptions options;
        if (!sysRoot.empty())
            options.env["RAILYARD_SYSFS_ROOT"] = sysRoot.string();
        options.log = log;
        Proc p;
        p.log = log;
        p.child = std::make_unique<ChildProcess>(argv, options);
        EXPECT_TRUE(p.child->started()) << p.child->error();
        return p;
    }

    struct Pair {
        Proc server, client;
        int port = 0;
        PerftestRun serverRun, clientRun;
    };

    /// A fabric folder: node folders DIR/<node>/sys, the tools folder DIR/../tools.
    class Fabric {
    public:
        explicit Fabric(fs::path root)
            : m_root(std::move(root))
        {
        }
        const fs::path& root() const { return m_root; }
        fs::path sys(const std::string& node) const { return m_root / node / "sys"; }

        /// Server on `serverNode`, then (once it waits) the client on `clientNode`; both run to
        /// their end. `args` go to both sides, the client gets the server's node name last.
        Pair run(const std::string& tool, const std::string& serverNode, const std::vector<std::string>& serverArgs,
            const std::string& clientNode, const std::vector<std::string>& clientArgs, const fs::path& logs)
        {
            Pair p;
            p.port = freePort();
            std::vector<std::string> s = serverArgs, c = clientArgs;
            for (auto* v : { &s, &c }) {
                v->push_back("-p");
                v->push_back(std::to_string(p.port));
            }
            c.push_back(serverNode);
            const fs::path serverLog = logs / (tool + "-" + std::to_string(p.port) + "-server.log");
            const fs::path clientLog = logs / (tool + "-" + std::to_string(p.port) + "-client.log");
            p.server = start(kEmulator, tool, sys(serverNode), s, serverLog);
            EXPECT_TRUE(waitForText(*p.server.child, serverLog, "Waiting for client to connect", 10s))
                << p.server.output();
            p.client = start(kEmulator, tool, sys(clientNode), c, clientLog);
            p.client.wait();
            p.server.wait();
            auto serverRun = parsePerftestOutput(p.server.output());
            auto clientRun = parsePerftestOutput(p.client.output());
            EXPECT_TRUE(serverRun) << p.server.output();
            EXPECT_TRUE(clientRun) << p.client.output();
            if (serverRun)
                p.serverRun = *serverRun;
            if (clientRun)
                p.clientRun = *clientRun;
            return p;
        }
        Pair run(const std::string& tool, const std::string& serverNode, const std::string& clientNode,
            const std::vector<std::string>& args, const fs::path& logs)
        {
            return run(tool, serverNode, args, clientNode, args, logs);
        }

    private:
        fs::path m_root;
    };

    std::string findingCodes(const PerftestRun& r)
    {
        std::string codes;
        for (const auto& f : r.findings)
            codes += f.code + ": " + f.message + "\n";
        return codes;
    }

    /// The parser's warnings other than its notes of perftest's own warnings ("perftest warned:
    /// ..."), and other than the "Calling ibv_reg_dmabuf_mr(...)" line that perftest 25.01 prints
    /// with --use_cuda_dmabuf and the parser does not know yet.
    std::string unexpectedWarnings(const PerftestRun& r)
    {
        std::string left;
        for (const auto& w : r.warnings)
            if (w.find("perftest warned: ") == std::string::npos
                && w.find("'Calling ibv_reg_dmabuf_mr(") == std::string::npos)
                left += w + "\n";
        return left;
    }

    bool hasFinding(const PerftestRun& r, const std::string& code)
    {
        return std::any_of(
            r.findings.begin(), r.findings.end(), [&](const core::Finding& f) { return f.code == code; });
    }

    // ----------------------------------------------------------------------------------------
    // The emulated IB fabric: 8 DGX H100 nodes at NDR; rail 1 of node002 trained at 2X; node003
    // without GPUDirect; rail 0 of node004 down. Rail k is NIC k: mlx5_0, mlx5_3, ... (the DGX
    // H100 rail map); rail 1 is mlx5_3. Written once per test program (a few tests, each of
    // several parts, because every test may run in a process of its own).
    struct EmulatedIb {
        simtest::TempDir dir { "perftest-emu" };
        simtest::PlannedFabric planned;
        std::unique_ptr<FabricEmulator> emulator;
        std::unique_ptr<Fabric> fabric;
        std::vector<std::string> railMap;
        fs::path logs; ///< the running part's
    };
    std::unique_ptr<EmulatedIb> g_ib;

    Fabric& fabric()
    {
        return *g_ib->fabric;
    }
    std::string rail(int k)
    {
        return g_ib->railMap.at(static_cast<std::size_t>(k));
    }
    const fs::path& logs()
    {
        return g_ib->logs;
    }

    class PerftestEmuFabric : public ::testing::Test {
    protected:
        static void SetUpTestSuite()
        {
            if (kEmulator.empty())
                return;
            auto ib = std::make_unique<EmulatedIb>();
            ib->planned = simtest::planOf(simtest::kIbSpec);
            auto faults = parseFaults(R"([{ "kind": "degraded", "node": "node002", "rail": 1, "width": 2 },
                                         { "kind": "no_gpudirect", "node": "node003" },
                                         { "kind": "link_down", "node": "node004", "rail": 0 }])",
                "faults.json", ib->planned.plan);
            ASSERT_TRUE(faults) << faults.error().toString();
            EmulatorOptions options;
            options.root = ib->dir.path() / "fabric";
            options.traffic = TrafficKind::Idle;
            auto emulator = FabricEmulator::create(ib->planned.plan, ib->planned.catalog, *faults, options);
            ASSERT_TRUE(emulator) << emulator.error().toString();
            const core::Status written = (*emulator)->writeTree();
            ASSERT_TRUE(written) << written.error().toString();
            ib->railMap = (*emulator)->nodes().front().railMap;
            ib->emulator = std::move(*emulator);
            ib->fabric = std::make_unique<Fabric>(options.root);
            g_ib = std::move(ib);
        }
        static void TearDownTestSuite() { g_ib.reset(); }
        void SetUp() override
        {
            if (kEmulator.empty())
                GTEST_SKIP() << "railyard-perftest-emu not built";
            ASSERT_TRUE(g_ib);
        }

        /// Runs one part of a test with its own log folder.
        static void part(const char* name, void (*body)())
        {
            SCOPED_TRACE(name);
            g_ib->logs = g_ib->dir.path() / "logs" / name;
            fs::create_directories(g_ib->logs);
            body();
        }
    };

    void writeBwBothSidesAreCompleteRunsAtTheModelledRate()
    {
        ASSERT_EQ(rail(1), "mlx5_3");
        // The golden command line of perftest_ib_write_bw_ib_cuda, in host memory.
        const std::vector<std::string> args { "-d", "mlx5_3", "-i", "1", "-F", "--report_gbits", "-q", "4", "-s",
            "1048576", "-n", "5000" };
        Pair p = fabric().run("ib_write_bw", "node001", "node005", args, logs());
        EXPECT_EQ(p.server.wait(), 0) << p.server.output();
        EXPECT_EQ(p.client.wait(), 0) << p.client.output();
        for (const PerftestRun* r : { &p.serverRun, &p.clientRun }) {
            SCOPED_TRACE(r == &p.serverRun ? "server" : "client");
            EXPECT_TRUE(r->complete) << findingCodes(*r);
            EXPECT_FALSE(r->failed);
            EXPECT_TRUE(r->findings.empty()) << findingCodes(*r);
            EXPECT_TRUE(r->warnings.empty()) << ::testing::PrintToString(r->warnings); // every line read
            EXPECT_EQ(r->tool, "ib_write_bw");
            EXPECT_EQ(r->device, "mlx5_3");
            EXPECT_EQ(r->linkType, "IB");
            EXPECT_EQ(r->transport, "IB");
            EXPECT_FALSE(r->gidIndex);
            EXPECT_EQ(r->qps, 4);
            EXPECT_EQ(r->connection, "RC");
            EXPECT_EQ(r->mtu, 4096);
            EXPECT_EQ(r->units, "Gb/sec");
            EXPECT_FALSE(r->cuda());
            EXPECT_FALSE(r->bidirectional);
            ASSERT_EQ(r->bwRows.size(), 1u);
            EXPECT_EQ(r->bwRows[0].bytes, 1048576u);
            EXPECT_EQ(r->bwRows[0].iterations, 20000u); // perftest counts every QP's
            EXPECT_NEAR(r->bwRows[0].bwAverageGbps, kNdrPeak, 2.0); // ~391 Gb/s
            EXPECT_LE(r->bwRows[0].bwAverageGbps, r->bwRows[0].bwPeakGbps);
            ASSERT_EQ(r->localEndpoints.size(), 4u);
            ASSERT_EQ(r->remoteEndpoints.size(), 4u);
        }
        EXPECT_EQ(p.serverRun.side, "server");
        EXPECT_EQ(p.clientRun.side, "client");
        // The server prints the client's figures; each side's remote addresses are the other's local ones.
        EXPECT_DOUBLE_EQ(p.serverRun.bwRows[0].bwAverageGbps, p.clientRun.bwRows[0].bwAverageGbps);
        EXPECT_EQ(p.serverRun.remote->qpn, p.clientRun.local->qpn);
        EXPECT_EQ(p.clientRun.remote->psn, p.serverRun.local->psn);
        EXPECT_NE(p.serverRun.local->lid, p.clientRun.local->lid); // from each node's sysfs
    }

    void degradedPortHalvesTheBandwidthOfItsPair()
    {
        const std::vector<std::string> args { "-d", "mlx5_3", "-i", "1", "-F", "--report_gbits", "-s", "1048576", "-n",
            "5000" };
        Pair healthy = fabric().run("ib_write_bw", "node001", "node005", args, logs());
        Pair degraded = fabric().run("ib_write_bw", "node001", "node002", args, logs()); // node002 rail 1 at 2X NDR
        ASSERT_TRUE(healthy.clientRun.complete && degraded.clientRun.complete) << degraded.client.output();
        const double h = healthy.clientRun.bwRows.at(0).bwAverageGbps,
                     d = degraded.clientRun.bwRows.at(0).bwAverageGbps;
        EXPECT_NEAR(d, kNdrPeak / 2, 1.0) << degraded.client.output();
        EXPECT_NEAR(d / h, 0.5, 0.01);
        // The lower of the two ports counts, whichever side is degraded.
        Pair reversed = fabric().run("ib_write_bw", "node002", "node001", args, logs());
        EXPECT_NEAR(reversed.clientRun.bwRows.at(0).bwAverageGbps, kNdrPeak / 2, 1.0);
        // Another rail of the same node is not degraded.
        const std::vector<std::string> rail0 { "-d", "mlx5_0", "-F", "--report_gbits" };
        Pair other = fabric().run("ib_write_bw", "node001", "node002", rail0, logs());
        EXPECT_NEAR(other.clientRun.bwRows.at(0).bwAverageGbps, kNdrPeak, 2.0);
        EXPECT_EQ(other.clientRun.bwRows.at(0).bytes, 65536u); // perftest's default size
        EXPECT_EQ(other.clientRun.bwRows.at(0).iterations, 5000u); // and iterations
    }

    void readBwAllSizesSweepsTwoBytesToEightMiB()
    {
        // perftest_ib_read_bw_all_sizes.golden, rail 5.
        const std::vector<std::string> args { "-d", rail(5), "-i", "1", "--use_cuda=5", "-F", "--report_gbits", "-q",
            "2", "-a" };
        Pair p = fabric().run("ib_read_bw", "node001", "node006", args, logs());
        EXPECT_EQ(p.client.wait(), 0) << p.client.output();
        EXPECT_EQ(p.server.wait(), 0) << p.server.output();
        const PerftestRun& c = p.clientRun;
        EXPECT_TRUE(c.complete) << findingCodes(c);
        EXPECT_EQ(unexpectedWarnings(c), "");
        EXPECT_EQ(c.tool, "ib_read_bw");
        EXPECT_EQ(c.side, "client");
        EXPECT_EQ(c.device, rail(5));
        EXPECT_EQ(c.qps, 2);
        EXPECT_EQ(c.outstandingReads, 16);
        EXPECT_TRUE(c.cuda());
        EXPECT_FALSE(c.gpuDmabuf);
        EXPECT_EQ(c.gpuDevice, 5);
        EXPECT_NE(c.gpuName.find("H100"), std::string::npos) << c.gpuName;
        ASSERT_EQ(c.bwRows.size(), 23u);
        for (std::size_t i = 0; i < c.bwRows.size(); ++i) {
            EXPECT_EQ(c.bwRows[i].bytes, std::uint64_t { 2 } << i);
            EXPECT_EQ(c.bwRows[i].iterations, 2000u); // 1000 (ib_read_bw's default) per QP
        }
        // Message-rate bound at the small end, link bound at the large end; rows differ.
        EXPECT_LT(c.bwRows.front().bwAverageGbps, 1.0);
        EXPECT_GT(c.bwRows.front().msgRateMpps, 1.0);
        EXPECT_NEAR(c.bwRows.back().bwAverageGbps, kNdrPeak, 2.0);
        std::vector<double> large;
        for (const auto& row : c.bwRows)
            if (row.bytes >= 262144)
                large.push_back(row.bwAverageGbps);
        EXPECT_GT(*std::max_element(large.begin(), large.end()) - *std::min_element(large.begin(), large.end()), 0.005);
        for (std::size_t i = 1; i < 12; ++i)
            EXPECT_GT(c.bwRows[i].bwAverageGbps, c.bwRows[i - 1].bwAverageGbps);
        // The server of a one-way test prints the client's last row only, as perftest does.
        const PerftestRun& s = p.serverRun;
        EXPECT_TRUE(s.complete) << findingCodes(s);
        EXPECT_EQ(s.side, "server");
        ASSERT_EQ(s.bwRows.size(), 1u);
        EXPECT_EQ(s.bwRows[0].bytes, 8388608u);
        EXPECT_DOUBLE_EQ(s.bwRows[0].bwAverageGbps, c.bwRows.back().bwAverageGbps);
    }

    void bidirectionalSumsBothDirectionsInMiBPerSecond()
    {
        const std::vector<std::string> args { "-d", "mlx5_3", "-F", "-b", "-s", "1048576", "-n", "1000" };
        Pair p = fabric().run("ib_write_bw", "node001", "node005", args, logs());
        for (const PerftestRun* r : { &p.serverRun, &p.clientRun }) {
            SCOPED_TRACE(r == &p.serverRun ? "server" : "client");
            EXPECT_TRUE(r->complete) << findingCodes(*r);
            EXPECT_TRUE(r->bidirectional);
            EXPECT_EQ(r->banner, "RDMA_Write Bidirectional BW Test");
            EXPECT_EQ(r->units, "MiB/sec");
            ASSERT_EQ(r->bwRows.size(), 1u);
            EXPECT_NEAR(r->bwRows[0].bwAverageGbps, 2 * kNdrPeak, 4.0); // MiB/s read back as Gb/s
            EXPECT_EQ(r->bwRows[0].iterations, 1000u);
        }
        EXPECT_EQ(p.serverRun.side, "server");
        EXPECT_DOUBLE_EQ(p.serverRun.bwRows[0].bwAverageGbps, p.clientRun.bwRows[0].bwAverageGbps);
        // perftest's output does not tell a bidirectional client's side (both print the TX depth);
        // the agent's transcript with its command line does.
        EXPECT_EQ(p.clientRun.side, "");
        const std::string transcript = "$ ib_write_bw -d mlx5_3 -F -b -s 1048576 -n 1000 -p " + std::to_string(p.port)
            + " node001\n" + p.client.output();
        auto withCommand = parsePerftestOutput(transcript);
        ASSERT_TRUE(withCommand);
        EXPECT_EQ(withCommand->side, "client");
        EXPECT_TRUE(withCommand->complete);
    }

    void durationRunPrintsTotalIterationsAndNoPeak()
    {
        const std::vector<std::string> args { "-d", "mlx5_3", "--use_cuda=1", "--use_cuda_dmabuf", "-F",
            "--report_gbits", "-s", "65536", "-D", "1" };
        const auto t0 = std::chrono::steady_clock::now();
        Pair p = fabric().run("ib_write_bw", "node001", "node005", args, logs());
        EXPECT_GE(std::chrono::steady_clock::now() - t0, 1s); // -D lasts its duration
        const PerftestRun& c = p.clientRun;
        EXPECT_TRUE(c.complete) << findingCodes(c) << p.client.output();
        EXPECT_EQ(unexpectedWarnings(c), "");
        EXPECT_FALSE(c.peakMeasured);
        EXPECT_TRUE(c.cuda());
        EXPECT_TRUE(c.gpuDmabuf);
        EXPECT_EQ(c.gpuDevice, 1);
        ASSERT_EQ(c.bwRows.size(), 1u);
        EXPECT_EQ(c.bwRows[0].bwPeakGbps, 0.0);
        const double bw = c.bwRows[0].bwAverageGbps;
        EXPECT_NEAR(bw, kNdrPeak, 3.0);
        EXPECT_NEAR(static_cast<double>(c.bwRows[0].iterations), bw * 1e9 / (65536 * 8), 1000.0);
        EXPECT_TRUE(p.serverRun.complete) << findingCodes(p.serverRun);
    }

    void writeLatencyFromTheLink()
    {
        // perftest_ib_write_lat.golden.
        const std::vector<std::string> args { "-d", "mlx5_0", "-i", "1", "-F", "-s", "2", "-n", "10000" };
        Pair p = fabric().run("ib_write_lat", "node001", "node005", args, logs());
        for (const PerftestRun* r : { &p.serverRun, &p.clientRun }) {
            SCOPED_TRACE(r == &p.serverRun ? "server" : "client");
            EXPECT_TRUE(r->complete) << findingCodes(*r);
            EXPECT_TRUE(r->warnings.empty()) << ::testing::PrintToString(r->warnings);
            EXPECT_EQ(r->tool, "ib_write_lat");
            EXPECT_EQ(r->maxInlineData, 220);
            ASSERT_EQ(r->latRows.size(), 1u);
            const PerftestLatRow& row = r->latRows[0];
            EXPECT_EQ(row.bytes, 2u);
            EXPECT_EQ(row.iterations, 10000u);
            ASSERT_TRUE(
                row.tTypicalUs && row.tMinUs && row.tMaxUs && row.tAvgUs && row.tStdevUs && row.p99Us && row.p999Us);
            EXPECT_NEAR(*row.tTypicalUs, 1.0, 0.05); // InfiniBand, inline, one switch
            EXPECT_LE(*row.tMinUs, *row.tTypicalUs);
            EXPECT_LE(*row.tTypicalUs, *row.tAvgUs);
            EXPECT_LE(*row.tAvgUs, *row.p99Us);
            EXPECT_LE(*row.p99Us, *row.p999Us);
            EXPECT_LE(*row.p999Us, *row.tMaxUs);
        }
        EXPECT_EQ(p.serverRun.side, "server");
        EXPECT_EQ(p.clientRun.side, "client");
        // All sizes: serialisation at the degraded rate grows the large end.
        const std::vector<std::string> all { "-d", "mlx5_3", "-F", "-a", "-n", "100" };
        Pair healthy = fabric().run("ib_write_lat", "node001", "node005", all, logs());
        Pair degraded = fabric().run("ib_write_lat", "node001", "node002", all, logs());
        ASSERT_EQ(healthy.clientRun.latRows.size(), 23u);
        ASSERT_EQ(degraded.clientRun.latRows.size(), 23u);
        const double h = *healthy.clientRun.latRows.back().tTypicalUs,
                     d = *degraded.clientRun.latRows.back().tTypicalUs;
        EXPECT_NEAR(h, 1.1 + 8388608.0 * 8 / (kNdrPeak * 1000), 3.0);
        EXPECT_NEAR(d / h, 2.0, 0.1);
    }

    void cudaWithoutGpuDirectFailsWhereTheMemoryIsRegistered()
    {
        const std::vector<std::string> args { "-d", "mlx5_3", "-i", "1", "--use_cuda=1", "-F", "--report_gbits", "-s",
            "1048576" };
        Pair p = fabric().run("ib_write_bw", "node001", "node003", args, logs()); // node003: no nvidia-peermem
        EXPECT_EQ(p.client.wait(), 1);
        EXPECT_EQ(p.server.wait(), 1);
        const std::string out = p.client.output();
        EXPECT_NE(out.find("Couldn't allocate MR"), std::string::npos) << out;
        EXPECT_NE(out.find(" Couldn't create IB resources"), std::string::npos) << out;
        EXPECT_TRUE(p.clientRun.failed);
        EXPECT_FALSE(p.clientRun.complete);
        EXPECT_TRUE(p.clientRun.cuda());
        EXPECT_TRUE(hasFinding(p.clientRun, "PERFTEST_FAILED")) << findingCodes(p.clientRun);
        // The server had its memory; it fails when the client goes.
        EXPECT_NE(p.server.output().find("Failed to exchange data between server and clients"), std::string::npos)
            << p.server.output();
        EXPECT_TRUE(hasFinding(p.serverRun, "PERFTEST_FAILED")) << findingCodes(p.serverRun);

        // With dma-buf: the GPU says it has none.
        std::vector<std::string> dmabuf = args;
        dmabuf.insert(dmabuf.begin() + 5, "--use_cuda_dmabuf");
        Pair q = fabric().run("ib_write_bw", "node001", "node003", dmabuf, logs());
        EXPECT_EQ(q.client.wait(), 1);
        EXPECT_NE(q.client.output().find("DMA-BUF is not supported on this GPU"), std::string::npos)
            << q.client.output();
        EXPECT_TRUE(hasFinding(q.clientRun, "PERFTEST_FAILED")) << findingCodes(q.clientRun);

        // A GPU the node does not have.
        Pair g = fabric().run("ib_write_bw", "node001", "node005", { "-d", "mlx5_3", "--use_cuda=8" }, logs());
        EXPECT_EQ(g.client.wait(), 1);
        EXPECT_NE(g.client.output().find("No such device ID (8) exists in system"), std::string::npos)
            << g.client.output();
        EXPECT_TRUE(hasFinding(g.clientRun, "PERFTEST_FAILED")) << findingCodes(g.clientRun);

        // Host memory on that node works.
        const std::vector<std::string> host { "-d", "mlx5_3", "-F", "--report_gbits" };
        Pair h = fabric().run("ib_write_bw", "node001", "node003", host, logs());
        EXPECT_TRUE(h.clientRun.complete) << h.client.output();
    }

    void portDownFailsBeforeConnecting()
    {
        const int port = freePort();
        const std::vector<std::string> args { "-d", "mlx5_0", "-F", "-p", std::to_string(port), "node001" };
        const auto t0 = std::chrono::steady_clock::now();
        Proc client = start(kEmulator, "ib_write_bw", fabric().sys("node004"), args, logs() / "client.log");
        EXPECT_EQ(client.wait(), 1);
        EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s); // no connection attempt
        const std::string out = client.output();
        EXPECT_NE(out.find(" Port number 1 state is Down"), std::string::npos) << out;
        EXPECT_NE(out.find(" Couldn't get context for the device"), std::string::npos) << out;
        auto run = parsePerftestOutput(out);
        ASSERT_TRUE(run);
        EXPECT_TRUE(run->failed);
        EXPECT_TRUE(hasFinding(*run, "PERFTEST_FAILED")) << findingCodes(*run);
        // The same as a server: it never listens.
        Proc server = start(kEmulator, "ib_write_bw", fabric().sys("node004"),
            { "-d", "mlx5_0", "-p", std::to_string(port) }, logs() / "server.log");
        EXPECT_EQ(server.wait(), 1);
        EXPECT_EQ(server.output().find("Waiting for client"), std::string::npos) << server.output();
    }

    void clientWithoutServerCannotConnect()
    {
        const int port = freePort();
        Proc client = start(kEmulator, "ib_write_bw", fabric().sys("node002"),
            { "-d", "mlx5_3", "-F", "-p", std::to_string(port), "node001" }, logs() / "client.log");
        EXPECT_EQ(client.wait(), 1);
        const std::string out = client.output();
        EXPECT_NE(out.find("Couldn't connect to node001:" + std::to_string(port)), std::string::npos) << out;
        auto run = parsePerftestOutput(out);
        ASSERT_TRUE(run);
        EXPECT_EQ(run->side, "client");
        EXPECT_TRUE(hasFinding(*run, "PERFTEST_FAILED")) << findingCodes(*run);
    }

    void sigtermEndsAWaitingServerAtOnceAndFreesItsPort()
    {
        const int port = freePort();
        const auto address = emulatedNodeAddress(fabric().root(), "node001");
        ASSERT_TRUE(address);
        // Run through the tools folder's link, as the agents do.
        const fs::path tools = fabric().root().parent_path() / "tools";
        ASSERT_TRUE(writePerftestTools(tools, kEmulator));
        Proc server = start(tools / "ib_write_bw", "", fabric().sys("node001"),
            { "-d", "mlx5_0", "-p", std::to_string(port) }, logs() / "server.log");
        ASSERT_TRUE(waitForText(*server.child, server.log, "Waiting for client to connect", 10s)) << server.output();
        EXPECT_FALSE(canBind(*address, port)); // it listens on node001's address
        const auto t0 = std::chrono::steady_clock::now();
        server.child->signal(SIGTERM);
        EXPECT_EQ(server.wait(2s), 143);
        EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
        EXPECT_TRUE(canBind(*address, port));
        auto run = parsePerftestOutput(server.output());
        ASSERT_TRUE(run);
        EXPECT_EQ(run->side, "server");
        EXPECT_TRUE(hasFinding(*run, "PERFTEST_WAITING")) << findingCodes(*run);

        // In the middle of a 30 s run, both sides.
        const std::vector<std::string> args { "-d", "mlx5_0", "-F", "-D", "30", "-p", std::to_string(port) };
        Proc s = start(tools / "ib_write_bw", "", fabric().sys("node001"), args, logs() / "s.log");
        ASSERT_TRUE(waitForText(*s.child, s.log, "Waiting for client to connect", 10s)) << s.output();
        std::vector<std::string> c = args;
        c.push_back("node001");
        Proc k = start(tools / "ib_write_bw", "", fabric().sys("node005"), c, logs() / "c.log");
        ASSERT_TRUE(waitForText(*k.child, k.log, "#bytes", 10s)) << k.output();
        const auto t1 = std::chrono::steady_clock::now();
        k.child->signal(SIGTERM);
        s.child->signal(SIGTERM);
        EXPECT_EQ(k.wait(2s), 143);
        EXPECT_EQ(s.wait(2s), 143);
        EXPECT_LT(std::chrono::steady_clock::now() - t1, 1s);
        EXPECT_TRUE(canBind(*address, port));
    }

    void pairsOfDifferentNodesShareOneTcpPort()
    {
        // Two pairs at once on one port, as the rails of different node pairs run on real hosts.
        const int port = freePort();
        const std::vector<std::string> args { "-d", "mlx5_3", "-F", "--report_gbits", "-p", std::to_string(port) };
        Proc s1 = start(kEmulator, "ib_write_bw", fabric().sys("node001"), args, logs() / "s1.log");
        Proc s2 = start(kEmulator, "ib_write_bw", fabric().sys("node006"), args, logs() / "s2.log");
        ASSERT_TRUE(waitForText(*s1.child, s1.log, "Waiting for client", 10s)) << s1.output();
        ASSERT_TRUE(waitForText(*s2.child, s2.log, "Waiting for client", 10s)) << s2.output();
        std::vector<std::string> c1 = args, c2 = args;
        c1.push_back("node001");
        c2.push_back("node006");
        Proc k1 = start(kEmulator, "ib_write_bw", fabric().sys("node005"), c1, logs() / "c1.log");
        Proc k2 = start(kEmulator, "ib_write_bw", fabric().sys("node002"), c2, logs() / "c2.log");
        for (Proc* p : { &k1, &k2, &s1, &s2 })
            EXPECT_EQ(p->wait(), 0) << p->output();
        auto r1 = parsePerftestOutput(k1.output()), r2 = parsePerftestOutput(k2.output());
        ASSERT_TRUE(r1 && r2);
        EXPECT_NEAR(r1->bwRows.at(0).bwAverageGbps, kNdrPeak, 2.0);
        EXPECT_NEAR(r2->bwRows.at(0).bwAverageGbps, kNdrPeak / 2, 1.0); // node002's degraded rail 1
    }

    void clientGivenTheAddressTheAgentsShare()
    {
        // One server on the port: a client given 127.0.0.1 (where every emulated agent is) reaches it.
        const std::vector<std::string> args { "-d", "mlx5_3", "-F", "--report_gbits" };
        Pair p = fabric().run("ib_write_bw", "node001", args, "node005", args, logs());
        ASSERT_TRUE(p.clientRun.complete);
        const int port = freePort();
        std::vector<std::string> common = args;
        common.push_back("-p");
        common.push_back(std::to_string(port));
        Proc server = start(kEmulator, "ib_write_bw", fabric().sys("node001"), common, logs() / "server.log");
        ASSERT_TRUE(waitForText(*server.child, server.log, "Waiting for client", 10s)) << server.output();
        std::vector<std::string> c = common;
        c.push_back("127.0.0.1");
        Proc client = start(kEmulator, "ib_write_bw", fabric().sys("node005"), c, logs() / "client.log");
        EXPECT_EQ(client.wait(), 0) << client.output();
        EXPECT_EQ(server.wait(), 0) << server.output();

        // Two servers on one port: 127.0.0.1 could be either's, and the client is turned away.
        const int shared = freePort();
        common.back() = std::to_string(shared);
        Proc s1 = start(kEmulator, "ib_write_bw", fabric().sys("node001"), common, logs() / "s1.log");
        Proc s2 = start(kEmulator, "ib_write_bw", fabric().sys("node006"), common, logs() / "s2.log");
        ASSERT_TRUE(waitForText(*s1.child, s1.log, "Waiting for client", 10s)) << s1.output();
        ASSERT_TRUE(waitForText(*s2.child, s2.log, "Waiting for client", 10s)) << s2.output();
        c = common;
        c.push_back("127.0.0.1");
        Proc lost = start(kEmulator, "ib_write_bw", fabric().sys("node005"), c, logs() / "lost.log");
        EXPECT_EQ(lost.wait(), 1) << lost.output();
        EXPECT_NE(lost.output().find("give the server's node name as the host"), std::string::npos) << lost.output();
        EXPECT_NE(lost.output().find("Couldn't connect to 127.0.0.1:" + std::to_string(shared)), std::string::npos);
        auto run = parsePerftestOutput(lost.output());
        ASSERT_TRUE(run);
        EXPECT_TRUE(hasFinding(*run, "PERFTEST_FAILED")) << findingCodes(*run);
        // Both servers still wait for their own clients, by node name.
        c.back() = "node001";
        Proc k1 = start(kEmulator, "ib_write_bw", fabric().sys("node005"), c, logs() / "k1.log");
        c.back() = "node006";
        Proc k2 = start(kEmulator, "ib_write_bw", fabric().sys("node002"), c, logs() / "k2.log");
        for (Proc* x : { &k1, &k2, &s1, &s2 })
            EXPECT_EQ(x->wait(), 0) << x->output();
    }

    TEST_F(PerftestEmuFabric, BandwidthAtTheModelledRate)
    {
        part("write_bw", writeBwBothSidesAreCompleteRunsAtTheModelledRate);
        part("degraded", degradedPortHalvesTheBandwidthOfItsPair);
        part("read_bw -a", readBwAllSizesSweepsTwoBytesToEightMiB);
        part("-b", bidirectionalSumsBothDirectionsInMiBPerSecond);
        part("-D", durationRunPrintsTotalIterationsAndNoPeak);
    }

    TEST_F(PerftestEmuFabric, LatencyFromTheLink)
    {
        part("write_lat", writeLatencyFromTheLink);
    }

    TEST_F(PerftestEmuFabric, FailuresAsPerftestReportsThem)
    {
        part("no GPUDirect", cudaWithoutGpuDirectFailsWhereTheMemoryIsRegistered);
        part("port down", portDownFailsBeforeConnecting);
        part("no server", clientWithoutServerCannotConnect);
        part("SIGTERM", sigtermEndsAWaitingServerAtOnceAndFreesItsPort);
    }

    TEST_F(PerftestEmuFabric, AddressesOfTheEmulatedNodes)
    {
        part("one port, two pairs", pairsOfDifferentNodesShareOneTcpPort);
        part("127.0.0.1", clientGivenTheAddressTheAgentsShare);
    }

    // ----------------------------------------------------------------------------------------
    // A hand-written RoCE tree: two nodes, one 400G port each, RoCEv2 GID 3, netdev MTU 9000.

    void writeRocePort(const simtest::TempDir& dir, const std::string& node, const std::string& ipv4Gid, int lastOctet,
        const std::string& rate = "400 Gb/sec (4X)")
    {
        const std::string port = "fabric/" + node + "/sys/class/infiniband/mlx5_0/ports/1/";
        dir.write(port + "state", "4: ACTIVE\n");
        dir.write(port + "phys_state", "5: LinkUp\n");
        dir.write(port + "rate", rate + "\n");
        dir.write(port + "link_layer", "Ethernet\n");
        dir.write(port + "lid", "0x0\n");
        dir.write(port + "gids/0", "fe80:0000:0000:0000:0000:00ff:fe00:00" + std::to_string(10 + lastOctet) + "\n");
        dir.write(port + "gids/3", ipv4Gid + "\n");
        dir.write(port + "gid_attrs/ndevs/0", "enp1s0np0\n");
        dir.write("fabric/" + node + "/sys/class/net/enp1s0np0/mtu", "9000\n");
        dir.write("fabric/" + node + "/sys/module/nvidia_peermem/initstate", "live\n");
        dir.write("fabric/" + node + "/sim/gpu.json",
            R"({ "models": { "0000:18:00.0": "H100 80GB HBM3" }, "dmabuf": "on" })");
    }

    TEST(PerftestEmuRoce, RoceV2PortsWithTheirGidsAndTheEthernetOverhead)
    {
        if (kEmulator.empty())
            GTEST_SKIP() << "railyard-perftest-emu not built";
        simtest::TempDir dir("perftest-emu-roce");
        writeRocePort(dir, "hostA", "0000:0000:0000:0000:0000:ffff:c0a8:0101", 1);
        writeRocePort(dir, "hostB", "0000:0000:0000:0000:0000:ffff:c0a8:0102", 2);
        Fabric fabric(dir.path() / "fabric");
        // perftest_ib_write_bw_roce_dmabuf.golden, 1 s instead of 10.
        const std::vector<std::string> args { "-d", "mlx5_0", "-i", "1", "-x", "3", "--use_cuda=0", "--use_cuda_dmabuf",
            "-F", "--report_gbits", "-q", "1", "-s", "65536", "-n", "5000", "--tclass=106" };
        Pair p = fabric.run("ib_write_bw", "hostA", "hostB", args, dir.path());
        const double peak = 400.0 * 4096.0 / (4096.0 + 82.0) * 0.985; // ~386 Gb/s
        for (const PerftestRun* r : { &p.serverRun, &p.clientRun }) {
            SCOPED_TRACE(r == &p.serverRun ? "server" : "client");
            EXPECT_TRUE(r->complete) << findingCodes(*r);
            EXPECT_EQ(unexpectedWarnings(*r), "");
            EXPECT_EQ(r->linkType, "Ethernet");
            EXPECT_EQ(r->gidIndex, 3);
            EXPECT_EQ(r->mtu, 4096);
            EXPECT_TRUE(r->cuda());
            EXPECT_TRUE(r->gpuDmabuf);
            ASSERT_EQ(r->bwRows.size(), 1u);
            EXPECT_NEAR(r->bwRows[0].bwAverageGbps, peak, 2.0);
            ASSERT_TRUE(r->local && r->remote);
            EXPECT_EQ(r->local->lid, "0000");
        }
        EXPECT_EQ(p.clientRun.local->gid, "00:00:00:00:00:00:00:00:00:00:255:255:192:168:01:02");
        EXPECT_EQ(p.clientRun.remote->gid, "00:00:00:00:00:00:00:00:00:00:255:255:192:168:01:01");
        // Without -x, RoCE uses GID 0 (perftest's default on Ethernet).
        Pair q = fabric.run("ib_write_bw", "hostA", "hostB", { "-d", "mlx5_0", "-F" }, dir.path());
        EXPECT_EQ(q.clientRun.gidIndex, 0);
        ASSERT_TRUE(q.clientRun.local);
        EXPECT_EQ(q.clientRun.local->gid.substr(0, 6), "254:12");
    }

    TEST(PerftestEmuOptions, RefusesWhatPerftestRefuses)
    {
        if (kEmulator.empty())
            GTEST_SKIP() << "railyard-perftest-emu not built";
        simtest::TempDir dir("perftest-emu-options");
        writeRocePort(dir, "hostA", "0000:0000:0000:0000:0000:ffff:c0a8:0101", 1);
        const fs::path sys = dir.path() / "fabric" / "hostA" / "sys";
        auto logs = [&] { return dir.path(); };
        Proc unknown = start(kEmulator, "ib_write_bw", sys, { "-d", "mlx5_0", "-R" }, logs() / "unknown.log");
        EXPECT_EQ(unknown.wait(), 1);
        EXPECT_NE(unknown.output().find("invalid option -- 'R'"), std::string::npos) << unknown.output();
        EXPECT_NE(unknown.output().find(" Invalid Command or flag."), std::string::npos);
        EXPECT_NE(unknown.output().find("Usage:\n  ib_write_bw            start a server and wait for connection"),
            std::string::npos);
        EXPECT_NE(unknown.output().find(" Parser function exited with Error"), std::string::npos);

        Proc unknownLong = start(kEmulator, "ib_read_bw", sys, { "--use_rocm=0" }, logs() / "long.log");
        EXPECT_EQ(unknownLong.wait(), 1);
        EXPECT_NE(unknownLong.output().find("unrecognized option '--use_rocm=0'"), std::string::npos)
            << unknownLong.output();

        Proc latQps = start(kEmulator, "ib_write_lat", sys, { "-q", "2" }, logs() / "latqps.log");
        EXPECT_EQ(latQps.wait(), 1);
        EXPECT_NE(latQps.output().find(" Multiple QPs only available on bw tests"), std::string::npos)
            << latQps.output();

        Proc duration = start(kEmulator, "ib_write_bw", sys, { "-a", "-D", "5" }, logs() / "duration.log");
        EXPECT_EQ(duration.wait(), 1);
        EXPECT_NE(
            duration.output().find("Duration mode currently doesn't support running on all sizes."), std::string::npos);

        Proc dmabufFirst
            = start(kEmulator, "ib_write_bw", sys, { "--use_cuda_dmabuf", "--use_cuda=0" }, logs() / "dmabuf.log");
        EXPECT_EQ(dmabufFirst.wait(), 1);
        EXPECT_NE(dmabufFirst.output().find("CUDA DMA-BUF cannot be used without CUDA"), std::string::npos);

        Proc device = start(kEmulator, "ib_write_bw", sys, { "-d", "mlx5_99" }, logs() / "device.log");
        EXPECT_EQ(device.wait(), 1);
        EXPECT_NE(device.output().find("IB device mlx5_99 not found"), std::string::npos) << device.output();
        auto run = parsePerftestOutput(device.output());
        ASSERT_TRUE(run);
        EXPECT_TRUE(hasFinding(*run, "PERFTEST_FAILED"));

        Proc version = start(kEmulator, "ib_write_bw", sys, { "-V" }, logs() / "version.log");
        EXPECT_EQ(version.wait(), 1);
        EXPECT_EQ(version.output(), "Version: 6.24\n");
    }

    TEST(PerftestEmuOptions, NeedsItsToolNameAndTheSysfsRoot)
    {
        if (kEmulator.empty())
            GTEST_SKIP() << "railyard-perftest-emu not built";
        simtest::TempDir dir("perftest-emu-options");
        writeRocePort(dir, "hostA", "0000:0000:0000:0000:0000:ffff:c0a8:0101", 1);
        auto logs = [&] { return dir.path(); };
        Proc noTool
            = start(kEmulator, "", dir.path() / "fabric" / "hostA" / "sys", { "-d", "mlx5_0" }, logs() / "notool.log");
        EXPECT_EQ(noTool.wait(), 1);
        EXPECT_NE(noTool.output().find("--as TOOL"), std::string::npos) << noTool.output();
        Proc help = start(kEmulator, "", "", { "--help" }, logs() / "help.log");
        EXPECT_EQ(help.wait(), 0);
        EXPECT_EQ(help.output().rfind("Usage: railyard-perftest-emu [--as TOOL]", 0), 0u) << help.output();
        Proc noRoot = start(kEmulator, "ib_write_bw", "", { "-d", "mlx5_0" }, logs() / "noroot.log");
        EXPECT_EQ(noRoot.wait(), 1);
        EXPECT_NE(noRoot.output().find("RAILYARD_SYSFS_ROOT is not set"), std::string::npos) << noRoot.output();
    }

    // ----------------------------------------------------------------------------------------
    // railyard-sim links DIR/tools to the stand-in and its agents run it (POST /v1/tests).

    /// One HTTP request to 127.0.0.1:`port` with a bearer token and a JSON body; the status and
    /// the body, or status 0 when there is no answer within 10 s.
    std::pair<int, std::string> agentRequest(int port, const std::string& method, const std::string& path,
        const std::string& token, const std::string& body = {})
    {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<std::uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
            ::close(fd);
            return { 0, {} };
        }
        std::string request = method + " " + path
            + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer " + token + "\r\n";
        if (!body.empty())
            request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
        request += "\r\n" + body;
        ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
        std::string raw;
        const auto until = std::chrono::steady_clock::now() + 10s;
        char chunk[65536];
        while (std::chrono::steady_clock::now() < until) {
            pollfd p { fd, POLLIN, 0 };
            if (::poll(&p, 1, 100) <= 0)
                continue;
            const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
            if (n <= 0)
                break;
            raw.append(chunk, static_cast<std::size_t>(n));
        }
        ::close(fd);
        const auto space = raw.find(' ');
        const auto bodyAt = raw.find("\r\n\r\n");
        if (space == std::string::npos || bodyAt == std::string::npos)
            return { 0, raw };
        return { std::atoi(raw.c_str() + space + 1), raw.substr(bodyAt + 4) };
    }

    TEST(PerftestEmuSim, TheEmulatorsAgentsRunItFromTheToolsFolder)
    {
        if (kEmulator.empty() || kSim.empty())
            GTEST_SKIP() << "railyard-perftest-emu or railyard-sim not built";
        simtest::TempDir dir("perftest-emu-sim");
        const fs::path spec = dir.write("two.plan.json",
            R"({ "name": "two", "fabric": "infiniband", "nodes": 2, "node_type": "dgx-h100",
                 "link": { "generation": "NDR", "width": 4 } })");
        const fs::path root = dir.path() / "fabric";
        SpawnOptions options;
        options.log = dir.path() / "sim.log";
        ChildProcess sim(
            { kSim, "--plan", spec.string(), "--root", root.string(), "--traffic", "idle", "--seconds", "120" },
            options);
        ASSERT_TRUE(sim.started()) << sim.error();
        ASSERT_TRUE(waitForText(sim, options.log, "nodes serving on", 90s)) << simtest::readText(options.log);
        EXPECT_EQ(simtest::readText(options.log).find("warning"), std::string::npos) << simtest::readText(options.log);
        for (const auto name : kEmulatedPerftestTools) {
            const fs::path link = root / "tools" / std::string(name);
            ASSERT_TRUE(fs::is_symlink(link)) << link;
            EXPECT_EQ(fs::canonical(link), fs::canonical(kEmulator));
        }
        const auto agents = nlohmann::json::parse(simtest::readText(root / "agents.json"));
        const std::string token = simtest::firstLine(root / "token");
        auto agentPort = [&](std::size_t i) {
            const std::string url = agents["agents"][i]["url"];
            return std::stoi(url.substr(url.rfind(':') + 1));
        };
        const int tcpPort = freePort();
        const nlohmann::json args
            = { "-d", "mlx5_0", "-i", "1", "-F", "--report_gbits", "-p", std::to_string(tcpPort) };
        nlohmann::json serverRequest
            = { { "program", "ib_write_bw" }, { "args", args }, { "timeout_s", 60 }, { "role", "server" } };
        const auto posted = agentRequest(agentPort(0), "POST", "/v1/tests", token, serverRequest.dump());
        ASSERT_EQ(posted.first, 201) << posted.second;
        const std::string serverId = nlohmann::json::parse(posted.second)["id"];
        // The test of `agent` once it has ended, or once its output holds `text`.
        auto follow = [&](int agent, const std::string& id, const std::string& text) {
            nlohmann::json t;
            for (int i = 0; i < 200; ++i) {
                const auto got = agentRequest(agent, "GET", "/v1/tests/" + id, token);
                if (got.first != 200)
                    return nlohmann::json { { "error", got.second } };
                t = nlohmann::json::parse(got.second);
                if (t["state"] != "running"
                    || (!text.empty() && t["output"].get<std::string>().find(text) != std::string::npos))
                    break;
                std::this_thread::sleep_for(50ms);
            }
            return t;
        };
        const auto waiting = follow(agentPort(0), serverId, "Waiting for client to connect");
        ASSERT_EQ(waiting["state"], "running") << waiting.dump(1);
        nlohmann::json clientArgs = args;
        clientArgs.push_back("node001"); // the plan's name of the server's node, as test_launch.h gives it
        nlohmann::json clientRequest
            = { { "program", "ib_write_bw" }, { "args", clientArgs }, { "timeout_s", 60 }, { "role", "client" } };
        const auto clientPosted = agentRequest(agentPort(1), "POST", "/v1/tests", token, clientRequest.dump());
        ASSERT_EQ(clientPosted.first, 201) << clientPosted.second;
        const auto client = follow(agentPort(1), nlohmann::json::parse(clientPosted.second)["id"], "");
        const auto server = follow(agentPort(0), serverId, "");
        ASSERT_EQ(client["state"], "exited") << client.dump(1);
        EXPECT_EQ(client["exit_status"], 0) << client.dump(1);
        EXPECT_EQ(server["exit_status"], 0) << server.dump(1);
        const auto clientRun = parsePerftestOutput(client["output"].get<std::string>());
        const auto serverRun = parsePerftestOutput(server["output"].get<std::string>());
        ASSERT_TRUE(clientRun && serverRun);
        EXPECT_TRUE(clientRun->complete) << client["output"];
        EXPECT_TRUE(serverRun->complete) << server["output"];
        EXPECT_EQ(clientRun->side, "client");
        EXPECT_EQ(serverRun->side, "server");
        ASSERT_EQ(clientRun->bwRows.size(), 1u);
        EXPECT_NEAR(clientRun->bwRows[0].bwAverageGbps, kNdrPeak, 2.0);
        sim.signal(SIGTERM);
        EXPECT_EQ(sim.waitFor(30s), 0) << simtest::readText(options.log);
    }

    // ----------------------------------------------------------------------------------------
    // The model and the helpers.

    TEST(PerftestModel, PeakIsTheLineRateLessHeadersAndALittleLoss)
    {
        EXPECT_NEAR(perftestPeakGbps(400, false, 4096), 391.5, 0.1);
        EXPECT_NEAR(perftestPeakGbps(400, true, 4096), 386.3, 0.1);
        EXPECT_NEAR(perftestPeakGbps(200, false, 4096), 195.7, 0.1);
        EXPECT_LT(perftestPeakGbps(400, true, 1024), perftestPeakGbps(400, true, 4096));
        EXPECT_EQ(rocePathMtu(9000), 4096);
        EXPECT_EQ(rocePathMtu(1500), 1024);
        EXPECT_EQ(rocePathMtu(4200), 4096);
        EXPECT_NEAR(perftestDataRateGbps(*parseRateText("40 Gb/sec (4X QDR)")), 32.0, 1e-9);
        EXPECT_NEAR(perftestDataRateGbps(*parseRateText("56 Gb/sec (4X FDR)")), 56.0 * 64 / 66, 1e-9);
        EXPECT_NEAR(perftestDataRateGbps(*parseRateText("400 Gb/sec (4X NDR)")), 400.0, 1e-9);
    }

    TEST(PerftestModel, SmallMessagesAreBoundByTheMessageRate)
    {
        const double peak = perftestPeakGbps(400, false, 4096);
        double previous = 0;
        for (std::uint64_t s = 2; s <= 8388608; s *= 2) {
            const double bw = perftestBandwidthGbps(peak, s, 1, false);
            EXPECT_GT(bw, previous) << s;
            EXPECT_LE(bw, peak);
            previous = bw;
        }
        // 8 Mpps at 2 bytes; within 1 % of the peak from 64 KiB.
        EXPECT_NEAR(perftestBandwidthGbps(peak, 2, 1, false), 8e6 * 16 / 1e9, 1e-3);
        EXPECT_GT(perftestBandwidthGbps(peak, 65536, 1, false), 0.99 * peak);
        EXPECT_LT(perftestBandwidthGbps(peak, 4096, 1, true), perftestBandwidthGbps(peak, 4096, 1, false));
        EXPECT_GT(perftestBandwidthGbps(peak, 4096, 4, false), perftestBandwidthGbps(peak, 4096, 1, false));
        // Jitter: deterministic, small, different per size.
        const auto a = perftestBwRow(peak, 1048576, 1, false, "mlx5_0", 1),
                   b = perftestBwRow(peak, 1048576, 1, false, "mlx5_0", 1);
        EXPECT_EQ(a.averageGbps, b.averageGbps);
        EXPECT_LE(a.averageGbps, a.peakGbps);
        EXPECT_GT(a.averageGbps, 0.995 * peak);
        EXPECT_NE(perftestBwRow(peak, 2097152, 1, false, "mlx5_0", 1).averageGbps,
            perftestBwRow(peak, 4194304, 1, false, "mlx5_0", 1).averageGbps);
    }

    TEST(PerftestModel, LatencyGrowsWithTheSizeAndTheRoceSwitch)
    {
        const double peak = perftestPeakGbps(400, false, 4096);
        const auto small = perftestLatRow(peak, false, 2, false, true, "mlx5_0", 1);
        EXPECT_NEAR(small.tTypical, 1.0, 0.02);
        EXPECT_GT(perftestLatRow(peak, true, 2, false, true, "mlx5_0", 1).tTypical, 1.5);
        EXPECT_NEAR(perftestLatRow(peak, false, 2, true, true, "mlx5_0", 1).tTypical, 1.9, 0.05); // a read's round trip
        const auto large = perftestLatRow(peak, false, 1048576, false, false, "mlx5_0", 1);
        EXPECT_NEAR(large.tTypical, 1.1 + 1048576.0 * 8 / (peak * 1000), 0.3);
        EXPECT_LE(large.tMin, large.tTypical);
        EXPECT_LE(large.p999, large.tMax);
    }

    TEST(PerftestModel, EachNodeFolderHasItsOwnLoopbackAddress)
    {
        simtest::TempDir dir("perftest-emu-address");
        for (const char* node : { "node002", "node001", "node010" })
            fs::create_directories(dir.path() / node / "sys");
        fs::create_directories(dir.path() / "tools");
        const auto a = emulatedNodeAddress(dir.path(), "node001"), b = emulatedNodeAddress(dir.path(), "node002"),
                   c = emulatedNodeAddress(dir.path(), "node010");
        ASSERT_TRUE(a && b && c);
        const std::string fabric = a->substr(0, a->rfind('.', a->rfind('.') - 1) + 1); // "127.F."
        EXPECT_EQ(fabric.rfind("127.", 0), 0u) << *a;
        EXPECT_NE(fabric, "127.0.");
        EXPECT_EQ(*a, fabric + "0.0");
        EXPECT_EQ(*b, fabric + "0.1");
        EXPECT_EQ(*c, fabric + "0.2");
        EXPECT_EQ(emulatedNodeAddress(dir.path() / ".", "node002"), b); // the same folder, however named
        EXPECT_EQ(emulatedNodeAt(dir.path(), *c), "node010");
        EXPECT_FALSE(emulatedNodeAt(dir.path(), fabric + "0.3"));
        EXPECT_FALSE(emulatedNodeAt(dir.path(), "127.0.0.1"));
        EXPECT_FALSE(emulatedNodeAddress(dir.path(), "tools"));
        EXPECT_FALSE(emulatedNodeAddress(dir.path(), "node003"));
        EXPECT_FALSE(emulatedNodeAddress(dir.path(), "../node001"));
    }

    TEST(PerftestTools, LinksEveryPerftestNameToTheStandIn)
    {
        simtest::TempDir dir("perftest-emu-tools");
        const fs::path program = dir.write("bin/railyard-perftest-emu", "#!/bin/sh\n");
        fs::permissions(program, fs::perms::owner_all);
        EXPECT_EQ(perftestEmulatorNextTo(dir.path() / "bin" / "railyard-sim"), program);
        EXPECT_TRUE(perftestEmulatorNextTo(dir.path() / "railyard-sim").empty());
        const fs::path tools = dir.path() / "root" / "tools";
        dir.write("root/tools/ib_write_bw", "stale file of an earlier run");
        ASSERT_TRUE(writePerftestTools(tools, program));
        ASSERT_TRUE(writePerftestTools(tools, program)); // again: replaces its own links
        for (const auto name : kEmulatedPerftestTools) {
            const fs::path link = tools / std::string(name);
            ASSERT_TRUE(fs::is_symlink(link)) << link;
            EXPECT_EQ(fs::read_symlink(link), fs::absolute(program));
        }
    }

    TEST(PerftestTools, AStandInPlaysTheToolOfItsNameOrOfItsFirstAsOption)
    {
        const auto play = [](std::vector<std::string> argv) {
            std::vector<char*> args;
            for (std::string& a : argv)
                args.push_back(a.data());
            std::string tool = standInTool(args);
            std::vector<std::string> left(args.begin(), args.end());
            return std::pair(tool, left);
        };
        using Args = std::vector<std::string>;
        EXPECT_EQ(play({ "/root/tools/ib_write_bw", "-d", "mlx5_0" }), std::pair(std::string("ib_write_bw"), Args { "/root/tools/ib_write_bw", "-d", "mlx5_0" }));
        EXPECT_EQ(play({ "railyard-perftest-emu", "--as", "ib_read_bw", "-s", "1M" }), std::pair(std::string("ib_read_bw"), Args { "ib_read_bw", "-s", "1M" }));
        EXPECT_EQ(play({ "railyard-nccl-tests-emu", "--as=all_reduce_perf", "-b", "8" }), std::pair(std::string("all_reduce_perf"), Args { "all_reduce_perf", "-b", "8" }));
        // Only the first argument: a later --as is the tool's own (and refused by it).
        EXPECT_EQ(play({ "ib_write_bw", "-d", "--as", "x" }).first, "ib_write_bw");
        EXPECT_EQ(play({ "railyard-perftest-emu", "--as" }), std::pair(std::string("railyard-perftest-emu"), Args { "railyard-perftest-emu", "--as" }));
        EXPECT_EQ(play({ "railyard-perftest-emu", "--as=" }), std::pair(std::string("railyard-perftest-emu"), Args { "railyard-perftest-emu" }));
    }

} // namespace
} // namespace railyard::live
