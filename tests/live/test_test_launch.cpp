// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The generated test command lines (perftest pairs, nccl-tests through mpirun or srun) against the
// golden files in tests/fixtures/launch/, and the refusal of crafted parameters. Debian's perftest
// is built without CUDA and nccl-tests is not packaged, so nothing is run here: the goldens are
// the reviewed command lines. RAILYARD_UPDATE_GOLDEN=1 rewrites them (review the diff after).
#include "core/catalog.h"
#include "core/examples.h"
#include "core/plan_spec.h"
#include "live/client/test_launch.h"
#include "planner/planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace railyard::live {
namespace {

    struct Fixture {
        core::Catalog catalog;
        core::Plan plan;
    };

    Fixture makeFixture(std::string_view specText, const std::string& source, const std::string& extraCatalog = {})
    {
        core::Result<core::Catalog> catalog = core::Catalog::builtin();
        EXPECT_TRUE(catalog);
        if (!extraCatalog.empty()) {
            const core::Status added = catalog->addJson(extraCatalog, "test-catalog.json");
            EXPECT_TRUE(added) << added.error().toString();
        }
        core::Result<core::PlanSpec> spec = core::parsePlanSpecText(specText, source);
        EXPECT_TRUE(spec) << spec.error().toString();
        core::Result<core::Plan> plan = planner::makePlan(*spec, *catalog);
        EXPECT_TRUE(plan) << plan.error().toString();
        return { std::move(catalog).value(), std::move(plan).value() };
    }

    Fixture exampleFixture(const std::string& name)
    {
        const std::optional<core::Example> example = core::findExample(name);
        EXPECT_TRUE(example.has_value()) << name;
        return makeFixture(example->content, example->path);
    }

    /// DGX H100, NDR InfiniBand, 31 nodes (rail map mlx5_0, 3, 4, 5, 6, 9, 10, 11).
    const Fixture& ibPlan()
    {
        static const Fixture f = exampleFixture("dgx-h100-superpod-1su");
        return f;
    }

    /// RoCEv2 400G, lossless profile with ECN, DSCP 26 (traffic class 106).
    const Fixture& rocePlan()
    {
        static const Fixture f = exampleFixture("roce-lossless-demo");
        return f;
    }

    // --- Goldens

    std::vector<std::string> linesOf(const std::string& text)
    {
        std::vector<std::string> out;
        std::istringstream in(text);
        for (std::string line; std::getline(in, line);)
            out.push_back(line);
        return out;
    }

    /// A line diff of expected against actual ("-" only in the golden, "+" only generated, " " both;
    /// long unchanged runs shown as "..."), or nullopt when they are equal.
    std::optional<std::string> goldenMismatch(const std::string& expected, const std::string& actual)
    {
        if (expected == actual)
            return std::nullopt;
        const std::vector<std::string> a = linesOf(expected), b = linesOf(actual);
        // Longest common subsequence table, from the ends.
        std::vector<std::vector<int>> lcs(a.size() + 1, std::vector<int>(b.size() + 1, 0));
        for (std::size_t i = a.size(); i-- > 0;)
            for (std::size_t j = b.size(); j-- > 0;)
                lcs[i][j] = a[i] == b[j] ? lcs[i + 1][j + 1] + 1 : std::max(lcs[i + 1][j], lcs[i][j + 1]);
        std::vector<std::string> marked;
        std::size_t i = 0, j = 0;
        while (i < a.size() || j < b.size()) {
            if (i < a.size() && j < b.size() && a[i] == b[j]) {
                marked.push_back("  " + a[i++]);
                ++j;
            } else if (i < a.size() && (j == b.size() || lcs[i + 1][j] >= lcs[i][j + 1])) {
                marked.push_back("- " + a[i++]);
            } else {
                marked.push_back("+ " + b[j++]);
            }
        }
        std::string out;
        for (std::size_t k = 0; k < marked.size(); ++k) {
            auto changedNear = [&](std::size_t at) {
                for (std::size_t d = (at >= 2 ? at - 2 : 0); d <= at + 2 && d < marked.size(); ++d)
                    if (marked[d][0] != ' ')
                        return true;
                return false;
            };
            if (changedNear(k))
                out += marked[k] + "\n";
            else if (out.size() < 4 || out.substr(out.size() - 4) != "...\n")
                out += "...\n";
        }
        if (out.empty() || out == "...\n")
            out = "(the texts differ only in their line ends or final newline)\n";
        return out;
    }

    /// Compares `actual` with tests/fixtures/launch/<name>.golden, or rewrites the golden when
    /// RAILYARD_UPDATE_GOLDEN=1.
    void expectGolden(const std::string& name, const std::string& actual)
    {
        const std::filesystem::path path = std::filesystem::path(RAILYARD_TEST_DATA_DIR) / "launch" / (name + ".golden");
        const char* update = std::getenv("RAILYARD_UPDATE_GOLDEN");
        if (update && std::string_view(update) == "1") {
            std::filesystem::create_directories(path.parent_path());
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out << actual;
            EXPECT_TRUE(out.good()) << "could not write " << path;
            return;
        }
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            ADD_FAILURE() << "missing golden file " << path << "; RAILYARD_UPDATE_GOLDEN=1 creates it (review it before committing)";
            return;
        }
        std::ostringstream expected;
        expected << in.rdbuf();
        if (const std::optional<std::string> diff = goldenMismatch(expected.str(), actual))
            ADD_FAILURE() << "generated text differs from " << path << " (- golden, + generated):\n"
                          << *diff << "RAILYARD_UPDATE_GOLDEN=1 rewrites the golden if the change is intended";
    }

    /// One invocation as the goldens hold it: argv one per line, then the env lines, then the
    /// command as a person would type it.
    std::string render(const ToolInvocation& t)
    {
        std::string out = "== " + t.role + " @ " + (t.host.empty() ? std::string("(local)") : t.host) + "\nargv:\n" + t.program + "\n";
        for (const std::string& a : t.args)
            out += a + "\n";
        out += "env:\n";
        for (const auto& [name, value] : t.env)
            out += name + "=" + value + "\n";
        out += "shell: " + displayCommand(t) + "\n";
        return out;
    }

    std::string header(const std::string& what)
    {
        return "# " + what + "\n# generated by tests/live/test_test_launch.cpp; RAILYARD_UPDATE_GOLDEN=1 rewrites this file\n";
    }

    std::string renderPair(const std::string& what, const std::vector<ToolInvocation>& pair)
    {
        std::string out = header(what);
        for (const ToolInvocation& t : pair)
            out += render(t);
        return out;
    }

    std::string renderLaunch(const std::string& what, const NcclTestsLaunch& launch)
    {
        return header(what) + render(launch.launcher) + "hostfile:\n" + launch.hostfile;
    }

    void expectAllPass(const std::vector<ToolInvocation>& list)
    {
        for (const ToolInvocation& t : list) {
            const core::Status s = checkInvocation(t);
            EXPECT_TRUE(s) << s.error().toString();
        }
    }

    /// The error codes of a failed result, for EXPECT messages.
    template <class T>
    std::string codes(const core::Result<T>& r)
    {
        if (r)
            return "(no error)";
        std::string out;
        for (const core::Error& e : r.errors())
            out += e.code + ": " + e.message + "\n";
        return out;
    }

    template <class T>
    bool hasError(const core::Result<T>& r, const std::string& code, const std::string& part = {})
    {
        if (r)
            return false;
        for (const core::Error& e : r.errors())
            if (e.code == code && e.message.find(part) != std::string::npos)
                return true;
        return false;
    }

} // namespace

// --- The golden helper itself

TEST(TestLaunchGolden, DiffShowsWhatChanged)
{
    EXPECT_FALSE(goldenMismatch("a\nb\nc\n", "a\nb\nc\n"));
    const std::optional<std::string> d = goldenMismatch("a\nb\nc\n", "a\nx\nc\n");
    ASSERT_TRUE(d);
    EXPECT_NE(d->find("- b\n"), std::string::npos) << *d;
    EXPECT_NE(d->find("+ x\n"), std::string::npos) << *d;
    EXPECT_NE(d->find("  a\n"), std::string::npos) << *d;
    const std::optional<std::string> appended = goldenMismatch("a\n", "a\n-x\n3\n");
    ASSERT_TRUE(appended);
    EXPECT_NE(appended->find("+ -x\n+ 3\n"), std::string::npos) << *appended;
    EXPECT_TRUE(goldenMismatch("a\n", "a"));
}

// --- perftest goldens

TEST(TestLaunchGolden, IbWriteBwInfiniBandRailWithCuda)
{
    PerftestParams base;
    base.qps = 4;
    base.iterations = 5000;
    const auto pair = perftestRailPair(ibPlan().plan, ibPlan().catalog, "node001", "node002", 1, base);
    ASSERT_TRUE(pair) << codes(pair);
    ASSERT_EQ(pair->size(), 2u);
    EXPECT_EQ((*pair)[0].host, "node001");
    EXPECT_EQ((*pair)[0].role, "server");
    EXPECT_EQ((*pair)[1].host, "node002");
    EXPECT_EQ((*pair)[1].role, "client");
    EXPECT_EQ((*pair)[1].args.back(), "node001");
    expectAllPass(*pair);
    expectGolden("perftest_ib_write_bw_ib_cuda",
        renderPair("ib_write_bw, DGX H100 NDR plan, rail 1 (mlx5_3, GPU 1), node001 -> node002, 4 QPs", *pair));
}

TEST(TestLaunchGolden, IbWriteBwRoceRailWithDmabufGidAndTrafficClass)
{
    PerftestParams base;
    base.dmabuf = true;
    base.durationS = 10;
    base.size = 65536;
    const auto pair = perftestRailPair(rocePlan().plan, rocePlan().catalog, "node003", "node004", 2, base);
    ASSERT_TRUE(pair) << codes(pair);
    expectAllPass(*pair);
    const std::vector<std::string>& server = (*pair)[0].args;
    EXPECT_NE(std::find(server.begin(), server.end(), "--tclass=106"), server.end());
    EXPECT_NE(std::find(server.begin(), server.end(), "--use_cuda_dmabuf"), server.end());
    expectGolden("perftest_ib_write_bw_roce_dmabuf",
        renderPair("ib_write_bw, RoCEv2 lossless plan, rail 2 (mlx5_2, GPU 2), dma-buf, GID 3, tclass 106, 10 s", *pair));
}

TEST(TestLaunchGolden, IbReadBwAllSizes)
{
    PerftestParams base;
    base.tool = "ib_read_bw";
    base.allSizes = true;
    base.qps = 2;
    const auto pair = perftestRailPair(ibPlan().plan, ibPlan().catalog, "node017", "node031", 5, base);
    ASSERT_TRUE(pair) << codes(pair);
    expectAllPass(*pair);
    for (const ToolInvocation& t : *pair) {
        EXPECT_NE(std::find(t.args.begin(), t.args.end(), "-a"), t.args.end());
        EXPECT_EQ(std::find(t.args.begin(), t.args.end(), "-s"), t.args.end());
    }
    expectGolden("perftest_ib_read_bw_all_sizes",
        renderPair("ib_read_bw -a, DGX H100 NDR plan, rail 5 (mlx5_9, GPU 5), node017 -> node031, TCP port 18515 + 5", *pair));
}

TEST(TestLaunchGolden, IbWriteLatHostMemory)
{
    PerftestParams p;
    p.tool = "ib_write_lat";
    p.serverHost = "10.0.0.1";
    p.clientHost = "10.0.0.2";
    p.serverDevice = "mlx5_0";
    p.clientDevice = "mlx5_1";
    p.size = 2;
    p.iterations = 10000;
    const auto pair = perftestPair(p);
    ASSERT_TRUE(pair) << codes(pair);
    expectAllPass(*pair);
    for (const ToolInvocation& t : *pair) {
        EXPECT_EQ(std::find(t.args.begin(), t.args.end(), "-q"), t.args.end()) << "latency tools take no -q";
        EXPECT_EQ(std::find(t.args.begin(), t.args.end(), "--report_gbits"), t.args.end());
    }
    expectGolden("perftest_ib_write_lat", renderPair("ib_write_lat, host memory, 2 bytes, 10000 iterations, IPv4 hosts", *pair));
}

// --- nccl-tests goldens

TEST(TestLaunchGolden, MpirunTwoNodesInfiniBand)
{
    NcclTestsParams p;
    p.nodes = { "node001", "node002" };
    const auto launch = ncclTestsLaunch(ibPlan().plan, ibPlan().catalog, p);
    ASSERT_TRUE(launch) << codes(launch);
    expectAllPass({ launch->launcher });
    EXPECT_EQ(launch->hostfile, "node001 slots=8\nnode002 slots=8\n");
    const auto hca = std::find_if(launch->launcher.env.begin(), launch->launcher.env.end(),
        [](const auto& e) { return e.first == "NCCL_IB_HCA"; });
    ASSERT_NE(hca, launch->launcher.env.end());
    EXPECT_EQ(hca->second, "=mlx5_0:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_9:1,mlx5_10:1,mlx5_11:1");
    expectGolden("nccl_mpirun_ib_2nodes", renderLaunch("all_reduce_perf via mpirun, DGX H100 NDR plan, node001 + node002", *launch));
}

TEST(TestLaunchGolden, MpirunRocePlan)
{
    NcclTestsParams p;
    p.nodes = { "node001", "node002", "node065", "node066" };
    p.hostfilePath = "/shared/jobs/railyard/hostfile";
    const auto launch = ncclTestsLaunch(rocePlan().plan, rocePlan().catalog, p);
    ASSERT_TRUE(launch) << codes(launch);
    expectAllPass({ launch->launcher });
    const auto& env = launch->launcher.env;
    EXPECT_NE(std::find(env.begin(), env.end(), std::pair<std::string, std::string>("NCCL_IB_TC", "106")), env.end());
    EXPECT_NE(std::find(env.begin(), env.end(), std::pair<std::string, std::string>("NCCL_IB_GID_INDEX", "3")), env.end());
    expectGolden("nccl_mpirun_roce",
        renderLaunch("all_reduce_perf via mpirun, RoCEv2 lossless plan (DSCP 26, ECN: TC 106), 4 nodes in 2 SUs", *launch));
}

TEST(TestLaunchGolden, SrunInfiniBand)
{
    NcclTestsParams p;
    p.tool = "reduce_scatter_perf";
    p.launcher = "srun";
    p.nodes = { "node001", "node002", "node003", "node004" };
    p.minBytes = "1M";
    p.maxBytes = "16G";
    p.check = false;
    const auto launch = ncclTestsLaunch(ibPlan().plan, ibPlan().catalog, p);
    ASSERT_TRUE(launch) << codes(launch);
    expectAllPass({ launch->launcher });
    EXPECT_EQ(launch->hostfile, "");
    expectGolden("nccl_srun_ib", renderLaunch("reduce_scatter_perf via srun, DGX H100 NDR plan, 4 nodes, -c 0", *launch));
}

TEST(TestLaunchGolden, MpirunIsolatedRail)
{
    NcclTestsParams p;
    p.tool = "all_gather_perf";
    p.nodes = { "node005", "node006" };
    p.isolateRail = 3;
    p.extraEnv = { { "NCCL_IB_TIMEOUT", "22" } };
    const auto launch = ncclTestsLaunch(ibPlan().plan, ibPlan().catalog, p);
    ASSERT_TRUE(launch) << codes(launch);
    expectAllPass({ launch->launcher });
    const auto& env = launch->launcher.env;
    EXPECT_NE(std::find(env.begin(), env.end(), std::pair<std::string, std::string>("NCCL_IB_HCA", "=mlx5_5:1")), env.end());
    expectGolden("nccl_mpirun_isolate_rail3",
        renderLaunch("all_gather_perf via mpirun, DGX H100 NDR plan, rail 3 only (mlx5_5), NCCL_IB_TIMEOUT added", *launch));
}

TEST(TestLaunchGolden, SrunRoceWithGidOverride)
{
    NcclTestsParams p;
    p.launcher = "srun";
    p.nodes = { "node010", "node011" };
    p.gpusPerNode = 4;
    p.extraEnv = { { "NCCL_IB_GID_INDEX", "5" } };
    const auto launch = ncclTestsLaunch(rocePlan().plan, rocePlan().catalog, p);
    ASSERT_TRUE(launch) << codes(launch);
    expectAllPass({ launch->launcher });
    int gidEntries = 0;
    for (const auto& [name, value] : launch->launcher.env)
        if (name == "NCCL_IB_GID_INDEX") {
            ++gidEntries;
            EXPECT_EQ(value, "5");
        }
    EXPECT_EQ(gidEntries, 1) << "an extraEnv entry replaces the generated value in place";
    expectGolden("nccl_srun_roce_gid_override",
        renderLaunch("all_reduce_perf via srun, RoCEv2 plan, 2 nodes x 4 GPUs, NCCL_IB_GID_INDEX=5 (IPv6 GID) replacing 3", *launch));
}

// --- What the generated lines promise

TEST(TestLaunch, RailPairUsesRailMapGpuAndPortOffset)
{
    const auto pair = perftestRailPair(ibPlan().plan, ibPlan().catalog, "node001", "node002", 7, PerftestParams {});
    ASSERT_TRUE(pair) << codes(pair);
    const std::vector<std::string>& a = (*pair)[0].args;
    ASSERT_GE(a.size(), 2u);
    EXPECT_EQ(a[0], "-d");
    EXPECT_EQ(a[1], "mlx5_11");
    EXPECT_NE(std::find(a.begin(), a.end(), "--use_cuda=7"), a.end());
    const auto port = std::find(a.begin(), a.end(), "-p");
    ASSERT_NE(port, a.end());
    EXPECT_EQ(*(port + 1), "18522");
    EXPECT_EQ(std::find(a.begin(), a.end(), "-x"), a.end()) << "no GID index on InfiniBand unless asked";
}

TEST(TestLaunch, TwoPlanesListBothPortsOfEachNic)
{
    const Fixture f = exampleFixture("dgx-b300-spectrum4-2su");
    ASSERT_EQ(f.plan.summary.planes, 2);
    NcclTestsParams p;
    p.nodes = { "node001", "node002" };
    p.isolateRail = 4;
    const auto launch = ncclTestsLaunch(f.plan, f.catalog, p);
    ASSERT_TRUE(launch) << codes(launch);
    const auto& env = launch->launcher.env;
    EXPECT_NE(std::find(env.begin(), env.end(), std::pair<std::string, std::string>("NCCL_IB_HCA", "=mlx5_4:1,mlx5_4:2")), env.end());
}

TEST(TestLaunch, TrafficClassFromLosslessProfile)
{
    core::LosslessProfile profile;
    EXPECT_EQ(ncclTrafficClass(profile), 106);
    profile.ecn = false;
    EXPECT_EQ(ncclTrafficClass(profile), 104);
    profile.roceDscp = 24;
    profile.ecn = true;
    EXPECT_EQ(ncclTrafficClass(profile), 98);
}

TEST(TestLaunch, Whitelist)
{
    for (const char* tool : { "ib_write_bw", "ib_read_bw", "ib_write_lat", "ib_read_lat", "all_reduce_perf", "all_gather_perf",
             "reduce_scatter_perf", "mpirun", "srun" })
        EXPECT_TRUE(isWhitelistedTool(tool)) << tool;
    for (const char* tool : { "", "sh", "bash", "ib_send_bw", "/usr/bin/ib_write_bw", "MPIRUN", "ib_write_bw ", "sendrecv_perf" })
        EXPECT_FALSE(isWhitelistedTool(tool)) << tool;
}

TEST(TestLaunch, ValidationHelpers)
{
    EXPECT_TRUE(validateHostName("h", "node001"));
    EXPECT_TRUE(validateHostName("h", "gpu-17.cluster.example"));
    EXPECT_TRUE(validateHostName("h", "10.0.0.7"));
    for (const char* bad : { "", "10.0.0.256", "10.0.0", "a..b", ".a", "-a", "a-", "node_01", "a b", "a;b", "a\nb" })
        EXPECT_FALSE(validateHostName("h", bad)) << bad;
    EXPECT_FALSE(validateHostName("h", std::string(64, 'a')));
    EXPECT_TRUE(validateHostName("h", std::string(63, 'a')));

    EXPECT_TRUE(validateRdmaDevice("d", "mlx5_0"));
    EXPECT_TRUE(validateRdmaDevice("d", "rocep1s0f0"));
    EXPECT_FALSE(validateRdmaDevice("d", std::string(65, 'm')));
    EXPECT_FALSE(validateRdmaDevice("d", "0000:18:00.0"));
    EXPECT_FALSE(validateRdmaDevice("d", "mlx5/0"));

    EXPECT_TRUE(validateNetdevName("n", "ens1f0np0"));
    EXPECT_TRUE(validateNetdevName("n", "eth0.100"));
    EXPECT_FALSE(validateNetdevName("n", "enp0s31f6toolong"));
    EXPECT_FALSE(validateNetdevName("n", ".."));
    EXPECT_FALSE(validateNetdevName("n", "eth0;x"));

    EXPECT_TRUE(validateInRange("p", 1, 1, 65535));
    EXPECT_FALSE(validateInRange("p", 0, 1, 65535));
    EXPECT_FALSE(validateInRange("p", 65536, 1, 65535));

    EXPECT_EQ(parseByteSize("b", "8").value(), 8u);
    EXPECT_EQ(parseByteSize("b", "64K").value(), 65536u);
    EXPECT_EQ(parseByteSize("b", "8G").value(), std::uint64_t(8) << 30);
    EXPECT_EQ(parseByteSize("b", "16G").value(), std::uint64_t(1) << 34);
    for (const char* bad : { "", "0", "17G", "8T", "-8", "8 G", "G", "1.5G", "0x10" })
        EXPECT_FALSE(parseByteSize("b", bad)) << bad;

    EXPECT_TRUE(validateFilePath("f", "hostfile"));
    EXPECT_TRUE(validateFilePath("f", "/var/lib/railyard/run-7/hostfile"));
    for (const char* bad : { "", "-hostfile", "../etc/passwd", "a/../b", "host file", "h;x", "$HOME/h" })
        EXPECT_FALSE(validateFilePath("f", bad)) << bad;

    EXPECT_TRUE(validateNcclEnv("NCCL_IB_HCA", "=mlx5_0:1,mlx5_3:1"));
    EXPECT_TRUE(validateNcclEnv("NCCL_SOCKET_IFNAME", "^docker,lo"));
    EXPECT_FALSE(validateNcclEnv("LD_PRELOAD", "/opt/x.so"));
    EXPECT_FALSE(validateNcclEnv("NCCL_", "1"));
    EXPECT_FALSE(validateNcclEnv("NCCL_ib_hca", "x"));
    EXPECT_FALSE(validateNcclEnv("NCCL_DEBUG", ""));
}

// --- Refusals: a crafted parameter gives an error, never an argv

TEST(TestLaunchRefusal, ShellMetacharactersInDeviceAndHost)
{
    PerftestParams p;
    p.serverHost = "node001";
    p.clientHost = "node002";
    p.serverDevice = "mlx5_0; rm -rf /";
    p.clientDevice = "mlx5_0";
    auto r = perftestPair(p);
    ASSERT_FALSE(r);
    EXPECT_TRUE(hasError(r, "LAUNCH_PARAM", "serverDevice")) << codes(r);
    EXPECT_TRUE(hasError(r, "LAUNCH_PARAM", "mlx5_0; rm -rf /")) << codes(r);
    EXPECT_EQ(r.error().where, "serverDevice");

    for (const std::string& bad : std::vector<std::string> { "--exec=x", "-d", "mlx5_0 ", "$(reboot)", "`id`", "a|b", "a>b", "a&b", "a\tb",
             std::string("mlx5_0\0x", 8), "mlx5_0\n", "\"q\"", "'q'", "a*", "~root" }) {
        p.serverDevice = "mlx5_0";
        p.clientDevice = bad;
        auto refused = perftestPair(p);
        EXPECT_TRUE(hasError(refused, "LAUNCH_PARAM", "clientDevice")) << "device " << bad << " " << codes(refused);
        p.clientDevice = "mlx5_0";
        p.serverHost = bad;
        refused = perftestPair(p);
        EXPECT_TRUE(hasError(refused, "LAUNCH_PARAM", "serverHost")) << "host " << bad << " " << codes(refused);
        p.serverHost = "node001";
    }

    p.serverDevice = std::string("mlx5_0\0;id", 10);
    r = perftestPair(p);
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("\\x00"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("NUL"), std::string::npos) << r.error().message;

    p.serverDevice = "mlx5_0";
    p.clientHost = "node002; reboot";
    r = perftestPair(p);
    EXPECT_TRUE(hasError(r, "LAUNCH_PARAM", "clientHost")) << codes(r);
}

TEST(TestLaunchRefusal, EnvValuesAndNames)
{
    NcclTestsParams p;
    p.nodes = { "node001", "node002" };
    for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>> { { "NCCL_IB_HCA", "=mlx5_0:1;reboot" },
             { "NCCL_DEBUG", "INFO $(id)" }, { "NCCL_DEBUG", "--exec=x" }, { "NCCL_DEBUG", "`id`" },
             { "NCCL_DEBUG", std::string("INFO\0x", 6) }, { "LD_PRELOAD", "/opt/evil.so" }, { "PATH", "/opt" },
             { "NCCL_DEBUG;id", "INFO" }, { "", "x" } }) {
        p.extraEnv = { { name, value } };
        const auto r = ncclTestsLaunch(ibPlan().plan, ibPlan().catalog, p);
        EXPECT_TRUE(hasError(r, "LAUNCH_PARAM")) << name << "=" << value << " " << codes(r);
    }
    p.extraEnv = { { "NCCL_IB_HCA", "=mlx5_0:1;reboot" } };
    const auto r = ncclTestsLaunch(ibPlan().plan, ibPlan().catalog, p);
    EXPECT_TRUE(hasError(r, "LAUNCH_PARAM", "NCCL_IB_HCA")) << codes(r);
    EXPECT_TRUE(hasError(r, "LAUNCH_PARAM", "=mlx5_0:1;reboot")) << codes(r);
}

TEST(TestLaunchRefusal, OtherNcclParameters)
{
    auto refused = [](auto change, const std::string& code, const std::string& part) {
        NcclTestsParams p;
        p.nodes = { "node001", "node002" };
        change(p);
        const auto r = ncclTestsLaunch(ibPlan().plan, ibPlan().catalog, p);
        EXPECT_TRUE(hasError(r, code, part)) << part << ": " << codes(r);
    };
    refused([](NcclTestsParams& p) { p.hostfilePath = "--mca=x"; }, "LAUNCH_PARAM", "hostfilePath");
    refused([](NcclTestsParams& p) { p.hostfilePath = "hosts;id"; }, "LAUNCH_PARAM", "hostfilePath");
    refused([](NcclTestsParams& p) { p.minBytes = "8;id"; }, "LAUNCH_PARAM", "minBytes");
    refused([](NcclTestsParams& p) { p.maxBytes = "-e"; }, "LAUNCH_PARAM", "maxBytes");
    refused([](NcclTestsParams& p) { p.minBytes = "1G", p.maxBytes = "8M"; }, "LAUNCH_PARAM", "minBytes");
    refused([](NcclTestsParams& p) { p.stepFactor = "1"; }, "LAUNCH_PARAM", "stepFactor");
    refused([](NcclTestsParams& p) { p.stepFactor = "2 -x"; }, "LAUNCH_PARAM", "stepFactor");
    refused([](NcclTestsParams& p) { p.iters = 0; }, "LAUNCH_PARAM", "iters");
    refused([](NcclTestsParams& p) { p.warmupIters = -1; }, "LAUNCH_PARAM", "warmupIters");
    refused([](NcclTestsParams& p) { p.gpusPerNode = 9; }, "LAUNCH_PARAM", "gpusPerNode");
}

TEST(TestLaunchRefusal, UnknownTools)
{
    PerftestParams p;
    p.serverHost = "node001";
    p.clientHost = "node002";
    p.serverDevice = p.clientDevice = "mlx5_0";
    for (const char* tool : { "ib_send_bw", "/usr/bin/ib_write_bw", "mpirun", "all_reduce_perf", "sh", "ib_write_bw;id" }) {
        p.tool = tool;
        const auto r = perftestPair(p);
        EXPECT_TRUE(hasError(r, "LAUNCH_TOOL")) << tool << " " << codes(r);
    }
    NcclTestsParams n;
    n.nodes = { "node001", "node002" };
    n.tool = "sendrecv_perf";
    EXPECT_TRUE(hasError(ncclTestsLaunch(ibPlan().plan, ibPlan().catalog, n), "LAUNCH_TOOL", "tool"));
    n.tool = "ib_write_bw";
    EXPECT_TRUE(hasError(ncclTestsLaunch(ibPlan().plan, ibPlan().catalog, n), "LAUNCH_TOOL", "tool"));
    n.tool = "all_reduce_perf";
    for (const char* launcher : { "bash", "ssh", "mpiexec", "pdsh", "srun --pty" }) {
        n.launcher = launcher;
        EXPECT_TRUE(hasError(ncclTestsLaunch(ibPlan().plan, ibPlan().catalog, n), "LAUNCH_TOOL", "launcher")) << launcher;
    }

    ToolInvocation crafted { "sh", { "-c", "reboot" }, {}, "", "launcher" };
    EXPECT_FALSE(checkInvocation(crafted));
    crafted = { "ib_write_bw", { "-d", "mlx5_0;reboot" }, {}, "node001", "server" };
    EXPECT_FALSE(checkInvocation(crafted));
    crafted = { "mpirun", { "-x", "NCCL_DEBUG" }, { { "LD_PRELOAD", "/opt/x.so" } }, "", "launcher" };
    EXPECT_FALSE(checkInvocation(crafted));
    crafted = { "ib_write_bw", { "-d", "mlx5_0" }, {}, "node001", "root" };
    EXPECT_FALSE(checkInvocation(crafted));
}

TEST(TestLaunchRefusal, NodesNotInPlan)
{
    const Fixture& f = ibPlan();
    auto r = perftestRailPair(f.plan, f.catalog, "node001", "node999", 0, {});
    EXPECT_TRUE(hasError(r, "LAUNCH_NODE", "node999")) << codes(r);
    r = perftestRailPair(f.plan, f.catalog, "su1-rail0-leaf", "node001", 0, {});
    EXPECT_TRUE(hasError(r, "LAUNCH_NODE", "su1-rail0-leaf")) << "a switch is no node: " << codes(r);
    r = perftestRailPair(f.plan, f.catalog, "node001;id", "node002", 0, {});
    EXPECT_TRUE(hasError(r, "LAUNCH_NODE")) << codes(r);
    r = perftestRailPair(f.plan, f.catalog, "node001", "node001", 0, {});
    EXPECT_TRUE(hasError(r, "LAUNCH_NODE", "two nodes")) << codes(r);

    NcclTestsParams n;
    n.nodes = { "node001", "node999" };
    EXPECT_TRUE(hasError(ncclTestsLaunch(f.plan, f.catalog, n), "LAUNCH_NODE", "node999"));
    n.nodes = { "node001", "node001" };
    EXPECT_TRUE(hasError(ncclTestsLaunch(f.plan, f.catalog, n), "LAUNCH_NODE", "twice"));
    n.nodes = {};
    EXPECT_TRUE(hasError(ncclTestsLaunch(f.plan, f.catalog, n), "LAUNCH_NODE"));
}

TEST(TestLaunchRefusal, PlanNodeNamesThatAreNoHostNames)
{
    // The plan's node_names allow ';' (only '/', '"', '\', spaces and control characters are out),
    // so the plan itself can carry a crafted name: it must not reach an argv either.
    const Fixture f = makeFixture(R"({ "fabric": "infiniband", "nodes": 2, "node_type": "dgx-h100",
        "link": { "generation": "NDR" }, "node_names": ["node001", "evil;reboot"] })",
        "crafted.plan.json");
    NcclTestsParams n;
    n.nodes = { "node001", "evil;reboot" };
    const auto launch = ncclTestsLaunch(f.plan, f.catalog, n);
    EXPECT_TRUE(hasError(launch, "LAUNCH_NODE", "evil;reboot")) << codes(launch);
    const auto pair = perftestRailPair(f.plan, f.catalog, "node001", "evil;reboot", 0, {});
    EXPECT_TRUE(hasError(pair, "LAUNCH_PARAM", "clientHost")) << codes(pair);
}

TEST(TestLaunchRefusal, RailOutOfRange)
{
    const Fixture& f = ibPlan();
    for (int rail : { -1, 8, 100 }) {
        const auto r = perftestRailPair(f.plan, f.catalog, "node001", "node002", rail, {});
        EXPECT_TRUE(hasError(r, "LAUNCH_RAIL", "rail")) << rail << " " << codes(r);
    }
    NcclTestsParams n;
    n.nodes = { "node001", "node002" };
    n.isolateRail = 8;
    EXPECT_TRUE(hasError(ncclTestsLaunch(f.plan, f.catalog, n), "LAUNCH_RAIL", "isolateRail"));
    n.isolateRail = -1;
    EXPECT_TRUE(hasError(ncclTestsLaunch(f.plan, f.catalog, n), "LAUNCH_RAIL", "isolateRail"));
}

TEST(TestLaunchRefusal, RailMapByPciAddress)
{
    const Fixture f = makeFixture(R"({ "fabric": "infiniband", "nodes": 2, "node_type": "test-pci-8gpu", "link": { "generation": "NDR" } })",
        "pci.plan.json",
        R"({ "schema": 1, "node_types": [ { "id": "test-pci-8gpu", "name": "test", "gpus": 8, "rails": 8, "nic": "connectx-7",
             "rails_per_cage": 1, "cage_form": "OSFP", "flat_top_transceivers": true,
             "rail_map": ["10:00.0", "11:00.0", "12:00.0", "13:00.0", "14:00.0", "15:00.0", "16:00.0", "17:00.0"] } ] })");
    const auto pair = perftestRailPair(f.plan, f.catalog, "node001", "node002", 0, {});
    EXPECT_TRUE(hasError(pair, "LAUNCH_RAIL_MAP", "10:00.0")) << codes(pair);
    NcclTestsParams n;
    n.nodes = { "node001", "node002" };
    EXPECT_TRUE(hasError(ncclTestsLaunch(f.plan, f.catalog, n), "LAUNCH_RAIL_MAP"));
}

TEST(TestLaunchRefusal, PerftestNumbersAndCombinations)
{
    auto refused = [](auto change, const std::string& part) {
        PerftestParams p;
        p.serverHost = "node001";
        p.clientHost = "node002";
        p.serverDevice = p.clientDevice = "mlx5_0";
        change(p);
        const auto r = perftestPair(p);
        EXPECT_TRUE(hasError(r, "LAUNCH_PARAM", part)) << part << ": " << codes(r);
    };
    refused([](PerftestParams& p) { p.tcpPort = 0; }, "tcpPort");
    refused([](PerftestParams& p) { p.tcpPort = 65536; }, "tcpPort");
    refused([](PerftestParams& p) { p.ibPort = 0; }, "ibPort");
    refused([](PerftestParams& p) { p.gidIndex = 65; }, "gidIndex");
    refused([](PerftestParams& p) { p.gidIndex = -1; }, "gidIndex");
    refused([](PerftestParams& p) { p.serverGpu = 64; }, "serverGpu");
    refused([](PerftestParams& p) { p.clientGpu = -1; }, "clientGpu");
    refused([](PerftestParams& p) { p.qps = 0; }, "qps");
    refused([](PerftestParams& p) { p.qps = 65; }, "qps");
    refused([](PerftestParams& p) { p.size = 0; }, "size");
    refused([](PerftestParams& p) { p.size = std::uint64_t(1) << 34; }, "size");
    refused([](PerftestParams& p) { p.iterations = 4; }, "iterations");
    refused([](PerftestParams& p) { p.durationS = 0; }, "durationS");
    refused([](PerftestParams& p) { p.durationS = 5, p.iterations = 1000; }, "not both");
    refused([](PerftestParams& p) { p.durationS = 5, p.allSizes = true; }, "all sizes");
    refused([](PerftestParams& p) { p.trafficClass = 256; }, "trafficClass");
    refused([](PerftestParams& p) { p.dmabuf = true; }, "dmabuf");
    refused([](PerftestParams& p) { p.tool = "ib_write_lat", p.qps = 4; }, "qps");
    refused([](PerftestParams& p) { p.tool = "ib_read_lat", p.bidirectional = true; }, "bidirectional");

    // Every problem is reported, not only the first.
    PerftestParams p;
    p.serverHost = "a;b";
    p.clientHost = "c|d";
    p.serverDevice = "";
    p.clientDevice = "-x";
    p.tcpPort = 0;
    const auto r = perftestPair(p);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.errors().size(), 5u) << codes(r);

    // The port offset by the rail may not run past 65535.
    PerftestParams high;
    high.tcpPort = 65530;
    EXPECT_TRUE(hasError(perftestRailPair(ibPlan().plan, ibPlan().catalog, "node001", "node002", 7, high), "LAUNCH_PARAM", "tcpPort"));
}

TEST(TestLaunch, DisplayCommandQuotes)
{
    const ToolInvocation t { "mpirun", { "-x", "NCCL_IB_HCA", "it's" }, { { "NCCL_IB_HCA", "=mlx5_0:1,mlx5_3:1" } }, "", "launcher" };
    EXPECT_EQ(displayCommand(t), "NCCL_IB_HCA==mlx5_0:1,mlx5_3:1 mpirun -x NCCL_IB_HCA 'it'\\''s'");
}

} // namespace railyard::live
