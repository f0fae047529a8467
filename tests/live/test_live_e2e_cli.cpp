// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// End to end through the programs: railyard-sim emulates a plan with faults and serves it,
// `railyard-cli live check` checks it: the right findings and exit status, no false finding on
// the clean nodes, an unreachable, a hung and a killed agent (exit 3, the others still checked),
// and a refused token.
#include "core/store/telemetry_store.h"
#include "live/client/agent_client.h"
#include "live/common/counters_compact.h"

#include "tests/integration/ibsim_harness.h"
#include "tests/live/loopback_http.h"
#include "tests/live/scripted_agent.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace railyard::live {
namespace {

    namespace fs = std::filesystem;
    using test::unusedLoopbackPort;
    using Clock = std::chrono::steady_clock;

    /// A child process (stdout and stderr to `log`), killed when the object goes.
    class Child {
    public:
        Child(std::vector<std::string> argv, const fs::path& log)
        {
            std::vector<char*> cargv;
            for (std::string& a : argv)
                cargv.push_back(a.data());
            cargv.push_back(nullptr);
            const std::string logPath = log.string();
            m_pid = ::fork();
            if (m_pid == 0) {
                const int fd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
                if (fd >= 0) {
                    ::dup2(fd, STDOUT_FILENO);
                    ::dup2(fd, STDERR_FILENO);
                }
                ::execv(cargv[0], cargv.data());
                ::_exit(127);
            }
        }
        /// Ended with SIGTERM, so that railyard-sim stops what it started (ibsim, OpenSM: a
        /// SIGKILL would leave them running, an orphaned ibsim spinning on its closed console);
        /// SIGKILL after 10 s.
        ~Child()
        {
            if (m_pid <= 0 || m_reaped)
                return;
            ::kill(m_pid, SIGCONT);
            ::kill(m_pid, SIGTERM);
            for (int i = 0; i < 200; ++i) {
                if (::waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
                    m_reaped = true;
                    return;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
            kill(SIGKILL);
        }
        Child(const Child&) = delete;
        Child& operator=(const Child&) = delete;

        void signal(int sig) const
        {
            if (m_pid > 0 && !m_reaped)
                ::kill(m_pid, sig);
        }
        void kill(int sig)
        {
            if (m_pid <= 0 || m_reaped)
                return;
            ::kill(m_pid, SIGCONT);
            ::kill(m_pid, sig);
            ::waitpid(m_pid, nullptr, 0);
            m_reaped = true;
        }

    private:
        pid_t m_pid = -1;
        bool m_reaped = false;
    };

    struct ProgramRun {
        int status = -1;
        std::string out;
    };

    /// Runs a program to its end; stdout in `out` (stderr is appended to it after a marker).
    /// `interruptAfter`: SIGINT is sent that long after the start, as Ctrl+C would.
    ProgramRun run(std::vector<std::string> argv, std::optional<std::chrono::milliseconds> interruptAfter = std::nullopt)
    {
        int outPipe[2];
        if (::pipe2(outPipe, O_CLOEXEC) != 0)
            return {};
        std::vector<char*> cargv;
        for (std::string& a : argv)
            cargv.push_back(a.data());
        cargv.push_back(nullptr);
        const pid_t pid = ::fork();
        if (pid == 0) {
            ::dup2(outPipe[1], STDOUT_FILENO);
            ::dup2(outPipe[1], STDERR_FILENO);
            ::execv(cargv[0], cargv.data());
            ::_exit(127);
        }
        ::close(outPipe[1]);
        std::thread interrupter;
        if (interruptAfter && pid > 0)
            interrupter = std::thread([pid, after = *interruptAfter] {
                std::this_thread::sleep_for(after);
                ::kill(pid, SIGINT); // not reaped before the join below: the pid is still the program's
            });
        ProgramRun r;
        char buf[65536];
        ssize_t n;
        while ((n = ::read(outPipe[0], buf, sizeof buf)) > 0)
            r.out.append(buf, static_cast<std::size_t>(n));
        ::close(outPipe[0]);
        if (interrupter.joinable())
            interrupter.join();
        int wstatus = 0;
        ::waitpid(pid, &wstatus, 0);
        r.status = WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1;
        return r;
    }

    /// The JSON document that starts at the first '{' of `text` (the CLI prints nothing else on stdout;
    /// stderr lines, if any, come before or after it).
    nlohmann::json jsonOf(const std::string& text)
    {
        const std::size_t begin = text.find('{');
        const std::size_t end = text.rfind('}');
        if (begin == std::string::npos || end == std::string::npos)
            return nullptr;
        return nlohmann::json::parse(text.substr(begin, end - begin + 1), nullptr, false);
    }

    bool waitForFile(const fs::path& path, std::chrono::seconds deadline)
    {
        const auto end = Clock::now() + deadline;
        std::error_code ec;
        while (Clock::now() < end) {
            if (fs::exists(path, ec))
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return false;
    }

    /// Polls `url`/v1/health until it answers 200 (deadline bounded).
    bool waitForAgent(const std::string& url, std::chrono::seconds deadline)
    {
        const auto end = Clock::now() + deadline;
        FetchOptions options;
        options.deadline = std::chrono::milliseconds(1000);
        while (Clock::now() < end) {
            const std::vector<AgentReply> r = fetchAll({ { "probe", url } }, "/v1/health", options);
            if (!r.front().error && r.front().status == 200)
                return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        return false;
    }

    std::string programsMissing()
    {
        std::string missing;
        if (std::string(RAILYARD_SIM).empty())
            missing += " railyard-sim";
        if (std::string(RAILYARD_AGENT).empty())
            missing += " railyard-agent";
        return missing;
    }

    /// One emulated fabric served by railyard-sim for the whole suite.
    struct SimFabric {
        test::TempDir scratch;
        fs::path root;
        std::unique_ptr<Child> sim;
        std::vector<std::string> planArgs; ///< "--example", NAME or "--plan", FILE
        bool ready = false;
        std::string log;

        /// `extra`: more railyard-sim options (--ibsim); `traffic`: its --traffic.
        SimFabric(const std::string& tag, std::vector<std::string> plan, const std::string& faults,
            const std::string& traffic = "idle", const std::vector<std::string>& extra = {})
            : scratch(tag, test::TempDir::Place::PreferRam)
            , root(scratch.path())
            , planArgs(std::move(plan))
        {
            std::ofstream(root / "faults.json") << faults;
            std::vector<std::string> argv { RAILYARD_SIM };
            argv.insert(argv.end(), planArgs.begin(), planArgs.end());
            const fs::path dir = root / "sim";
            argv.insert(argv.end(),
                { "--root", dir.string(), "--faults", (root / "faults.json").string(),
                    "--traffic", traffic, "--seconds", "300" });
            argv.insert(argv.end(), extra.begin(), extra.end());
            sim = std::make_unique<Child>(argv, root / "sim.log");
            ready = waitForFile(dir / "agents.json", std::chrono::seconds(90));
            if (!ready) {
                std::ifstream in(root / "sim.log");
                log.assign(std::istreambuf_iterator<char>(in), {});
            }
        }
        ~SimFabric()
        {
            sim.reset(); // before the scratch folder goes
        }
        fs::path agentsJson() const { return root / "sim" / "agents.json"; }

        ProgramRun check(std::vector<std::string> extra) const
        {
            std::vector<std::string> argv { RAILYARD_CLI, "live", "check" };
            argv.insert(argv.end(), planArgs.begin(), planArgs.end());
            argv.insert(argv.end(), extra.begin(), extra.end());
            return run(argv);
        }
    };

    std::set<std::string> findingKeys(const nlohmann::json& doc)
    {
        std::set<std::string> out;
        for (const auto& f : doc["findings"])
            out.insert(f["code"].get<std::string>() + " " + f["where"].get<std::string>());
        return out;
    }

    class LiveCheckCli : public ::testing::Test {
    protected:
        static void SetUpTestSuite()
        {
            if (!programsMissing().empty())
                return;
            s_ib = new SimFabric("e2e-ib", { "--example", "dgx-h100-superpod-1su" }, R"([
                { "kind": "link_down", "node": "node002", "rail": 0 },
                { "kind": "degraded", "node": "node007", "rail": 3, "width": 2 },
                { "kind": "degraded", "node": "node008", "rail": 1, "generation": "HDR" },
                { "kind": "unplugged", "node": "node010", "rail": 5 },
                { "kind": "swap", "a": { "node": "node004", "rail": 1 }, "b": { "node": "node004", "rail": 2 } },
                { "kind": "no_gpudirect", "node": "node012" } ])");
        }
        static void TearDownTestSuite()
        {
            delete s_ib;
            s_ib = nullptr;
        }
        void SetUp() override
        {
            if (const std::string missing = programsMissing(); !missing.empty())
                FAIL() << "not built:" << missing << " (test_live depends on the programs; build them first)";
            ASSERT_TRUE(s_ib->ready) << "railyard-sim did not write agents.json in time:\n" << s_ib->log;
        }
        static SimFabric* s_ib;
    };
    SimFabric* LiveCheckCli::s_ib = nullptr;

    /// node001's answer to its request `n` (from 0): rail 0 has sent and received 10^9 words of 4
    /// bytes more than in the one before, 300 ms later.
    std::string nthSnapshot(int n)
    {
        PortCounters p;
        p.device = "mlx5_0";
        p.rail = 0;
        const auto words = static_cast<std::uint64_t>(n) * 1'000'000'000ull;
        p.counters["port_xmit_data"] = { words, CounterKind::Words4, 64, false };
        p.counters["port_rcv_data"] = { words, CounterKind::Words4, 64, false };
        return toCompactText({ "node001", 1'000'000 + n * 300, { p } }).value();
    }

    /// `railyard-cli live watch` over `agents`, with `options`: its plan (as many DGX H100 at
    /// NDR 4x as there are agents) and agents.json are written to `dir`.
    std::vector<std::string> watchArgs(const fs::path& dir, const std::vector<AgentEndpoint>& agents, const std::vector<std::string>& options)
    {
        const fs::path spec = dir / "spec.plan.json";
        std::ofstream(spec) << nlohmann::json { { "name", "watch" }, { "fabric", "infiniband" }, { "nodes", agents.size() },
            { "node_type", "dgx-h100" }, { "link", { { "generation", "NDR" }, { "width", 4 } } } };
        nlohmann::json list = nlohmann::json::array();
        for (const AgentEndpoint& a : agents)
            list.push_back({ { "node", a.node }, { "url", a.url } });
        const fs::path file = dir / "agents.json";
        std::ofstream(file) << nlohmann::json { { "agents", list } };
        std::vector<std::string> argv { RAILYARD_CLI, "live", "watch", "--plan", spec.string(), "--agents", file.string() };
        argv.insert(argv.end(), options.begin(), options.end());
        return argv;
    }

} // namespace

TEST_F(LiveCheckCli, InfiniBandFaultsGiveTheirFindingsAndNothingElse)
{
    // A deadline far above the agents' answers (as the watch's below): a machine loaded by other
    // tests, or by a sanitizer, slows the 31 inventories, and these tests are about the findings.
    const ProgramRun r = s_ib->check({ "--agents", s_ib->agentsJson().string(), "--json", "--timeout-ms", "20000" });
    EXPECT_EQ(r.status, 1) << r.out;
    const nlohmann::json doc = jsonOf(r.out);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["complete"], true);
    EXPECT_EQ(doc["nodes"].size(), 31u);
    // swap is a cabling fault: both links are up at full rate, `live cabling` finds it, not `live check`.
    const std::set<std::string> expected { "LINK_DOWN node002/nic0", "LINK_DEGRADED node007/nic3", "LINK_DEGRADED node008/nic1",
        "LINK_DOWN node010/nic5", "NO_GPUDIRECT node012" };
    EXPECT_EQ(findingKeys(doc), expected) << doc["findings"].dump(1);
    // The emulated hosts give all that a real one does (ip and /proc/sys/net/ipv4/conf too, which
    // an InfiniBand node's Ethernet NICs are read from): nothing is left unread.
    for (const auto& n : doc["nodes"])
        EXPECT_TRUE(n["warnings"].empty()) << n["node"] << ": " << n["warnings"].dump(1);
    for (const auto& f : doc["findings"]) {
        if (f["where"] == "node007/nic3") {
            EXPECT_NE(f["message"].get<std::string>().find(
                          "node007 rail 3 (mlx5_5): link trained at 2x NDR (200 Gb/s), planned 4x NDR (400 Gb/s): reseat or replace the cable "
                          "su1-rail3-leaf/7 <-> node007/nic3"),
                std::string::npos)
                << f["message"];
        }
        if (f["where"] == "node010/nic5") {
            EXPECT_NE(f["message"].get<std::string>().find("Polling"), std::string::npos);
        }
        if (f["where"] == "node002/nic0") {
            EXPECT_NE(f["message"].get<std::string>().find("Disabled"), std::string::npos);
        }
    }
}

TEST_F(LiveCheckCli, TextOutputGroupsByNodeAndSummarises)
{
    const ProgramRun r = s_ib->check({ "--agents", s_ib->agentsJson().string(), "--timeout-ms", "20000" });
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("\nnode007\n  error LINK_DEGRADED: node007 rail 3 (mlx5_5)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("summary: 31 nodes planned, 31 checked; findings: 5 errors, 0 warnings, 0 info"), std::string::npos) << r.out;
}

TEST_F(LiveCheckCli, WatchSamplesEveryRailAndLeaf)
{
    // The emulated fabric idles (management traffic only): every rail and leaf is healthy, the
    // degraded and down ports do not make congestion, and the watch prints one line per interval.
    std::vector<std::string> argv { RAILYARD_CLI, "live", "watch" };
    argv.insert(argv.end(), s_ib->planArgs.begin(), s_ib->planArgs.end());
    // A deadline far above the interval: a machine loaded by other tests slows the 31 agents'
    // answers, and this test is about the figures, not about the deadline.
    argv.insert(argv.end(),
        { "--agents", s_ib->agentsJson().string(), "--seconds", "2.2", "--interval-ms", "1000", "--timeout-ms", "20000", "--json" });
    const ProgramRun r = run(argv);
    EXPECT_EQ(r.status, 0) << r.out;
    const nlohmann::json doc = jsonOf(r.out);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["complete"], true);
    EXPECT_GE(doc["sweeps"].size(), 2u);
    ASSERT_EQ(doc["rails"].size(), 8u);
    ASSERT_EQ(doc["leaves"].size(), 8u);
    for (const auto& g : doc["leaves"]) {
        EXPECT_EQ(g["health"], "healthy") << g.dump();
        EXPECT_GT(g["ports"].get<int>(), 25) << g.dump(); // 31 nodes, less the down and unplugged ports
    }
    EXPECT_TRUE(doc["findings"].empty()) << doc["findings"].dump(1);
}

// The last round ends at its interval: an agent that answers it late but within the deadline is
// waited for and is not reported; one that never answers is reported with its timeout.
TEST(LiveWatchCli, ALateLastAnswerIsWaitedForAndAHungAgentIsReported)
{
    if (const std::string missing = programsMissing(); !missing.empty())
        FAIL() << "not built:" << missing;
    std::atomic<int> asked { 0 };
    test::ScriptedAgent slow([&asked](const std::string&) -> std::pair<int, std::string> {
        const int n = asked++;
        if (n == 2) // the last round's request: answered after the round ended
            std::this_thread::sleep_for(std::chrono::milliseconds(900));
        return { 200, nthSnapshot(n) };
    });
    test::NeverAnswers hung;
    ASSERT_TRUE(slow.ok());
    ASSERT_TRUE(hung.ok());
    const test::TempDir scratch("e2e-late");
    const ProgramRun r = run(watchArgs(scratch.path(), { { "node001", slow.url() }, { "node002", hung.url() } },
        { "--seconds", "0.6", "--interval-ms", "300", "--timeout-ms", "2500", "--json" }));
    EXPECT_EQ(asked.load(), 3); // the baseline and two intervals, nothing asked after the last
    EXPECT_EQ(r.status, 3) << r.out; // the hung agent: the watch is not complete
    EXPECT_NE(r.out.find("waiting for the answers of 2 agents (the deadline is 2500 ms)"), std::string::npos) << r.out;
    const nlohmann::json doc = jsonOf(r.out);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["complete"], false);
    // The late answer is in the last sweep's figures: node001's one port on rail 0, at the rate
    // between its snapshots (10^9 words of 4 bytes in 0.3 s each way).
    ASSERT_EQ(doc["sweeps"].size(), 2u) << r.out;
    const nlohmann::json& lastSweep = doc["sweeps"][1];
    ASSERT_EQ(lastSweep["rails"].size(), 1u) << lastSweep.dump();
    EXPECT_EQ(lastSweep["rails"][0]["ports"], 1) << lastSweep.dump();
    EXPECT_NEAR(lastSweep["rails"][0]["tx_gbps"].get<double>(), 4e9 * 8 / 0.3 / 1e9, 0.01) << lastSweep.dump();
    ASSERT_EQ(doc["findings"].size(), 1u) << doc["findings"].dump(1);
    const nlohmann::json& f = doc["findings"][0];
    EXPECT_EQ(f["code"], "NODE_UNREACHABLE");
    EXPECT_EQ(f["where"], "node002");
    EXPECT_NE(f["message"].get<std::string>().find("timed out"), std::string::npos) << f["message"];
}

TEST(LiveWatchCli, CtrlCWhileTheLastAnswersAreAwaitedEndsTheWatchAtOnce)
{
    if (const std::string missing = programsMissing(); !missing.empty())
        FAIL() << "not built:" << missing;
    // The last round's request is answered only when the test ends, long after Ctrl+C.
    std::atomic<int> asked { 0 };
    std::atomic<bool> released { false };
    test::ScriptedAgent agent([&asked, &released](const std::string&) -> std::pair<int, std::string> {
        const int n = asked++;
        for (int waited = 0; n == 2 && !released && waited < 600; ++waited)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return { 200, nthSnapshot(n) };
    });
    ASSERT_TRUE(agent.ok());
    const test::TempDir scratch("e2e-stop");
    // The baseline at once, rounds at 0.3 and 0.6 s; the last ends at 0.9 s and its answer is
    // awaited (the deadline is 30 s) when Ctrl+C comes at 2 s.
    const auto before = std::chrono::steady_clock::now();
    const ProgramRun r = run(watchArgs(scratch.path(), { { "node001", agent.url() } },
                                 { "--seconds", "0.6", "--interval-ms", "300", "--timeout-ms", "30000", "--json" }),
        std::chrono::milliseconds(2000));
    const auto took = std::chrono::steady_clock::now() - before;
    released = true;
    EXPECT_LT(took, std::chrono::seconds(15)) << r.out; // not the 30 s deadline
    EXPECT_EQ(asked.load(), 3);
    EXPECT_EQ(r.status, 3) << r.out; // the node's last answer is missing: not complete
    EXPECT_NE(r.out.find("waiting for the answers of 1 agents (the deadline is 30000 ms)"), std::string::npos) << r.out;
    const nlohmann::json doc = jsonOf(r.out);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["complete"], false);
    EXPECT_EQ(doc["sweeps"].size(), 2u) << r.out;
    ASSERT_EQ(doc["findings"].size(), 1u) << doc["findings"].dump(1);
    const nlohmann::json& f = doc["findings"][0];
    EXPECT_EQ(f["code"], "NODE_UNREACHABLE");
    EXPECT_EQ(f["where"], "node001");
    EXPECT_NE(f["message"].get<std::string>().find("no answer when the watch was stopped: asked "), std::string::npos) << f["message"];
}

TEST_F(LiveCheckCli, ChecksAndWatchesAreStoredInTheProjectWithTheirSeries)
{
    const test::TempDir scratch("e2e-project");
    const fs::path& dir = scratch.path();
    const std::string project = (dir / "bringup.railyard").string();
    std::vector<std::string> check { "--agents", s_ib->agentsJson().string(), "--project", project, "--timeout-ms", "20000" };
    EXPECT_EQ(s_ib->check(check).status, 1); // the faults are error findings
    std::vector<std::string> argv { RAILYARD_CLI, "live", "watch" };
    argv.insert(argv.end(), s_ib->planArgs.begin(), s_ib->planArgs.end());
    argv.insert(argv.end(), { "--agents", s_ib->agentsJson().string(), "--seconds", "2", "--timeout-ms", "20000", "--project", project });
    const ProgramRun watch = run(argv);
    EXPECT_EQ(watch.status, 0) << watch.out;
    EXPECT_NE(watch.out.find("stored as run 2 in"), std::string::npos) << watch.out;

    const ProgramRun list = run({ RAILYARD_CLI, "results", "list", "--project", project, "--json" });
    ASSERT_EQ(list.status, 0) << list.out;
    const nlohmann::json runs = nlohmann::json::parse(list.out, nullptr, false);
    ASSERT_TRUE(runs.is_array()) << list.out;
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[0]["kind"], "check");
    EXPECT_EQ(runs[0]["exit_status"], 1);
    EXPECT_NE(runs[0]["summary"].get<std::string>().find("31 nodes; 5 errors"), std::string::npos) << runs[0];
    EXPECT_EQ(runs[1]["kind"], "watch");
    const ProgramRun show = run({ RAILYARD_CLI, "results", "show", "2", "--project", project, "--json" });
    const nlohmann::json doc = jsonOf(show.out);
    ASSERT_TRUE(doc.is_object()) << show.out;
    EXPECT_EQ(doc["rails"].size(), 8u);

    // The series went to the telemetry database beside the project.
    auto series = core::store::TelemetryStore::open(dir / "bringup.telemetry");
    ASSERT_TRUE(series) << series.error().toString();
    const auto names = series->seriesNames();
    ASSERT_TRUE(names);
    EXPECT_TRUE(std::find(names->begin(), names->end(), "rail 0") != names->end());
    EXPECT_TRUE(std::find(names->begin(), names->end(), "node001/mlx5_0/1") != names->end());
    const auto points = series->query("rail 0", "tx_gbps", 0, std::numeric_limits<std::int64_t>::max());
    ASSERT_TRUE(points);
    EXPECT_GE(points->size(), 2u);
}

TEST_F(LiveCheckCli, UnreachableHungAndKilledAgentsGiveExit3AndTheOthersAreChecked)
{
    // Three nodes move to agents of their own: node003 to a port nothing listens on, node005 to an
    // agent that is stopped (SIGSTOP: it accepts nothing and answers nothing), node006 to an agent
    // killed before the check.
    const fs::path simDir = s_ib->root / "sim";
    const std::string hungPort = std::to_string(unusedLoopbackPort());
    const std::string killedPort = std::to_string(unusedLoopbackPort());
    auto agentArgs = [&](const std::string& node, const std::string& port) {
        return std::vector<std::string> { RAILYARD_AGENT, "--sysfs-root", (simDir / node / "sys").string(), "--emulated",
            (simDir / node / "sim").string(), "--listen", "127.0.0.1:" + port, "--token-file", (simDir / "token").string(), "--node", node,
            "--node-type", "dgx-h100" };
    };
    Child hung(agentArgs("node005", hungPort), s_ib->root / "hung.log");
    Child killed(agentArgs("node006", killedPort), s_ib->root / "killed.log");
    ASSERT_TRUE(waitForAgent("http://127.0.0.1:" + hungPort, std::chrono::seconds(30)));
    ASSERT_TRUE(waitForAgent("http://127.0.0.1:" + killedPort, std::chrono::seconds(30)));
    hung.signal(SIGSTOP);
    killed.kill(SIGKILL);

    std::ifstream in(s_ib->agentsJson());
    nlohmann::json agents = nlohmann::json::parse(in);
    for (auto& a : agents["agents"]) {
        if (a["node"] == "node003")
            a["url"] = "http://127.0.0.1:" + std::to_string(unusedLoopbackPort());
        if (a["node"] == "node005")
            a["url"] = "http://127.0.0.1:" + hungPort;
        if (a["node"] == "node006")
            a["url"] = "http://127.0.0.1:" + killedPort;
    }
    agents["token_file"] = (simDir / "token").string();
    const fs::path edited = s_ib->root / "agents-edited.json";
    std::ofstream(edited) << agents.dump(2);

    const ProgramRun r = s_ib->check({ "--agents", edited.string(), "--json", "--timeout-ms", "4000" });
    hung.kill(SIGKILL);
    EXPECT_EQ(r.status, 3) << r.out;
    const nlohmann::json doc = jsonOf(r.out);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["complete"], false);
    EXPECT_EQ(doc["summary"]["nodes_reachable"], 28);
    const std::set<std::string> keys = findingKeys(doc);
    for (const char* k : { "NODE_UNREACHABLE node003", "NODE_UNREACHABLE node005", "NODE_UNREACHABLE node006", "LINK_DOWN node002/nic0",
             "LINK_DEGRADED node007/nic3", "NO_GPUDIRECT node012" })
        EXPECT_EQ(keys.count(k), 1u) << k << "\n" << doc["findings"].dump(1);
    EXPECT_EQ(keys.size(), 8u) << doc["findings"].dump(1);
    for (const auto& f : doc["findings"]) {
        if (f["where"] == "node005") {
            EXPECT_NE(f["message"].get<std::string>().find("4000 ms"), std::string::npos) << f["message"];
        }
        if (f["where"] == "node006" || f["where"] == "node003") {
            EXPECT_NE(f["message"].get<std::string>().find("connection refused"), std::string::npos) << f["message"];
        }
    }
}

TEST_F(LiveCheckCli, WrongTokenIsRefusedWithExit3)
{
    const fs::path token = s_ib->root / "wrong-token";
    std::ofstream(token) << "not-the-token\n";
    const ProgramRun r = s_ib->check({ "--agents", s_ib->agentsJson().string(), "--token-file", token.string() });
    EXPECT_EQ(r.status, 3) << r.out;
    EXPECT_NE(r.out.find("TOKEN_REFUSED: node001: not checked: token refused: check --token-file (HTTP 401 Unauthorized)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("summary: 31 nodes planned, 0 checked"), std::string::npos) << r.out;
}

TEST_F(LiveCheckCli, BadInputIsExit2)
{
    EXPECT_EQ(s_ib->check({ "--agents", (s_ib->root / "missing.json").string() }).status, 2);
    EXPECT_EQ(s_ib->check({}).status, 2); // neither --agents nor --dumps
    EXPECT_EQ(s_ib->check({ "--agents", s_ib->agentsJson().string(), "--token-file", (s_ib->root / "none").string() }).status, 2);
    const ProgramRun r = run({ RAILYARD_CLI, "live", "check", "--example", "no-such-example", "--agents", s_ib->agentsJson().string() });
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.out.find("no-such-example"), std::string::npos) << r.out;
}

// What the nodes' outputs did not give (the inventories' warnings) is in the text output too, not
// only in --json: a dump file whose name no reader knows (a typo) must not pass in silence. Each
// note comes once, with the nodes that gave it, so that a fabric whose every node says the same
// does not bury the findings. `results show` prints the stored check's notes the same way.
TEST(LiveCheckDumpsCli, TextOutputNamesWhatTheNodesOutputsDidNotGive)
{
    if (const std::string missing = programsMissing(); !missing.empty())
        FAIL() << "not built:" << missing;
    const test::TempDir dumps("e2e-dumps-notes");
    const fs::path& root = dumps.path();
    for (int n = 1; n <= 12; ++n) {
        const std::string node = "node" + std::string(n < 10 ? "00" : "0") + std::to_string(n);
        fs::create_directories(root / node);
        std::ofstream(root / node / "ethtool-s-ib0.txt") << "NIC statistics:\n     rx_bytes: 1\n";
    }
    std::ofstream(root / "node003" / "ibstat.txt.bak") << "CA 'mlx5_0'\n";
    const test::TempDir projectDir("e2e-dumps-notes-project");
    const std::string project = projectDir.file("bringup.railyard").string();
    const ProgramRun r
        = run({ RAILYARD_CLI, "live", "check", "--example", "dgx-h100-superpod-1su", "--dumps", root.string(), "--project", project });
    const ProgramRun shown = run({ RAILYARD_CLI, "results", "show", "1", "--project", project });
    EXPECT_EQ(r.status, 3) << r.out; // planned nodes without a folder
    const std::size_t at = r.out.find("\nreading notes (");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string notes = r.out.substr(at, r.out.find("\nsummary: ") + 1 - at);
    EXPECT_NE(notes.find("\n  ethtool-s-ib0.txt: not a file the dumps reader knows; not read\n    on 12 nodes: node001, node002, "
                         "node003, node004, node005, node006, node007, node008, node009, node010, ...\n"),
        std::string::npos)
        << notes;
    EXPECT_NE(notes.find("\n  ibstat.txt.bak: not a file the dumps reader knows; not read\n    on node003\n"), std::string::npos) << notes;
    EXPECT_NE(notes.find("\n  ibstat.txt: missing; "), std::string::npos) << notes;
    std::size_t lines = 0;
    for (std::size_t p = notes.find("\n  "); p != std::string::npos; p = notes.find("\n  ", p + 1))
        lines += notes.compare(p, 7, "\n    on") != 0;
    EXPECT_LE(lines, 10u) << notes; // each note once, not once per node
    EXPECT_NE(r.out.find("summary: 31 nodes planned, 12 checked"), std::string::npos) << r.out;

    EXPECT_EQ(shown.status, 0) << shown.out;
    const std::size_t shownAt = shown.out.find("\nreading notes (");
    ASSERT_NE(shownAt, std::string::npos) << shown.out;
    EXPECT_EQ(shown.out.substr(shownAt), notes);
}

TEST_F(LiveCheckCli, RoceLosslessFaultsAndCleanNodes)
{
    const fs::path spec = s_ib->root / "roce.plan.json";
    std::ofstream(spec) << R"({ "fabric": "rocev2", "nodes": 6, "node_type": "hgx-8gpu-400g", "link": { "speed_gbps": 400 },
        "lossless": { "mode": "lossless", "pfc_priority": 3, "ecn": true, "dcqcn": true, "trust": "dscp", "mtu": 4096 } })";
    SimFabric roce("e2e-roce", { "--plan", spec.string() }, R"([
        { "kind": "no_pfc", "node": "node002" },
        { "kind": "no_ecn", "node": "node003" },
        { "kind": "degraded", "node": "node004", "rail": 2, "width": 2 },
        { "kind": "link_down", "node": "node005", "rail": 7 },
        { "kind": "no_gpudirect", "node": "node006" } ])");
    ASSERT_TRUE(roce.ready) << roce.log;
    const ProgramRun r = roce.check({ "--agents", roce.agentsJson().string(), "--json" });
    EXPECT_EQ(r.status, 1) << r.out;
    const nlohmann::json doc = jsonOf(r.out);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["complete"], true);
    std::map<std::string, std::set<std::string>> byNode; // node -> codes
    for (const auto& f : doc["findings"]) {
        const std::string where = f["where"];
        byNode[where.substr(0, where.find('/'))].insert(f["code"].get<std::string>());
    }
    EXPECT_EQ(byNode.count("node001"), 0u) << doc["findings"].dump(1); // the clean node
    EXPECT_EQ(byNode["node002"], (std::set<std::string> { "PFC_MISSING" })) << doc["findings"].dump(1);
    EXPECT_TRUE(byNode["node003"].count("ECN_DISABLED")) << doc["findings"].dump(1);
    for (const std::string& code : byNode["node003"])
        EXPECT_TRUE(code == "ECN_DISABLED" || code == "DCQCN_DISABLED") << code;
    EXPECT_EQ(byNode["node004"], (std::set<std::string> { "LINK_DEGRADED" })) << doc["findings"].dump(1);
    EXPECT_EQ(byNode["node005"], (std::set<std::string> { "LINK_DOWN" })) << doc["findings"].dump(1);
    EXPECT_EQ(byNode["node006"], (std::set<std::string> { "NO_GPUDIRECT" })) << doc["findings"].dump(1);
    EXPECT_EQ(byNode.size(), 5u) << doc["findings"].dump(1);
}

} // namespace railyard::live

namespace railyard::live {
namespace {

    /// IBSIM_SOCKNAME from railyard-sim's ibsim.env.
    std::string ibsimSocket(const fs::path& envFile)
    {
        std::ifstream in(envFile);
        for (std::string line; std::getline(in, line);)
            if (line.rfind("IBSIM_SOCKNAME=", 0) == 0)
                return line.substr(15);
        return {};
    }

} // namespace

// The switches' own counters, read through their PMAs (perfquery's path) from the subnet ibsim
// simulates: the leaf whose first uplinks carry a quarter of their share shows congested, naming the
// uplink and the spine port it goes to; every other switch is healthy; the agents' view of the
// same fabric (host ports' XmitWait) blames the same leaf.
TEST(LiveWatchSwitchesCli, ACongestedUplinkShowsOnItsLeafFromTheSwitchesOwnCounters)
{
    if (const std::string missing = programsMissing(); !missing.empty())
        FAIL() << "not built:" << missing;
    if (const auto tools = ibsimtest::findTools(); !tools.missing.empty())
        GTEST_SKIP() << tools.missing;
    const test::TempDir scratch("e2e-switches-spec");
    const fs::path& dir = scratch.path();
    const fs::path spec = dir / "spec.plan.json";
    std::ofstream(spec) << R"({ "name": "switch counters", "fabric": "infiniband", "nodes": 8, "su_size": 4,
        "node_type": "dgx-h100", "link": { "generation": "NDR", "width": 4 } })";
    SimFabric fabric("e2e-switches", { "--plan", spec.string() },
        R"([{ "kind": "congested", "switch": "su1-rail2-leaf", "uplinks": 2, "factor": 0.25 }])", "allreduce",
        // Counters move every 200 ms, so each 1 s sample sees about five updates, never none.
        { "--ibsim", "--update-ms", "200" });
    ASSERT_TRUE(fabric.ready) << fabric.log;
    const std::string socket = ibsimSocket(fabric.root / "sim" / "ibsim.env");
    ASSERT_FALSE(socket.empty());
    ::setenv("IBSIM_SOCKNAME", socket.c_str(), 1);
    const ProgramRun r = run({ RAILYARD_CLI, "live", "watch", "--plan", spec.string(), "--agents", fabric.agentsJson().string(),
        "--switches", "--ibsim", "--seconds", "3", "--json" });
    ::unsetenv("IBSIM_SOCKNAME");
    EXPECT_EQ(r.status, 0) << r.out; // congestion is a warning
    const nlohmann::json doc = jsonOf(r.out);
    ASSERT_TRUE(doc.is_object()) << r.out;
    EXPECT_EQ(doc["complete"], true) << r.out;
    ASSERT_TRUE(doc["switches"].is_array()) << r.out;
    EXPECT_GT(doc["switches"].size(), 16u) << r.out; // 2 SUs x 8 rails of leaves, and the spines
    for (const auto& sw : doc["switches"]) {
        if (sw["name"] == "su1-rail2-leaf") {
            EXPECT_EQ(sw["health"], "congested") << sw.dump(1);
            EXPECT_NE(sw["reason"].get<std::string>().find("(uplink to spine"), std::string::npos) << sw["reason"];
            EXPECT_GT(sw["uplink_tx_gbps"].get<double>(), 0);
        } else {
            EXPECT_EQ(sw["health"], "healthy") << sw.dump(1);
        }
        if (sw["tier"] == "leaf") { // allreduce traffic crosses the spines
            EXPECT_GT(sw["busiest_uplink_percent"].get<double>(), 10) << sw.dump(1);
        }
    }
    std::set<std::string> fromSwitches, fromHosts;
    for (const auto& f : doc["findings"]) {
        if (f["code"] == "SWITCH_CONGESTED")
            fromSwitches.insert(f["where"].get<std::string>());
        if (f["code"] == "CONGESTION_CONGESTED")
            fromHosts.insert(f["where"].get<std::string>());
    }
    EXPECT_EQ(fromSwitches, std::set<std::string> { "su1-rail2-leaf" }) << doc["findings"].dump(1);
    EXPECT_EQ(fromHosts, (std::set<std::string> { "su1-rail2-leaf", "rail 2" })) << doc["findings"].dump(1);
}

} // namespace railyard::live

