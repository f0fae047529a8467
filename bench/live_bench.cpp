// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
//
// The Live workspace with a large fabric streaming (issue #6 "Performance"), offscreen: the
// emulator (live/sim) of an N-node plan with every node served by the agent's own code in this
// process, an agents.json of them, and the workspace connected to it as to a real cluster (the
// poller thread GETs every agent's /v1/counters once a second, aggregates, hands the frame to the
// GUI thread). Every live view is kept on screen so each paints every sweep: the node x rail
// grid, the throughput and congestion charts, the leaf/spine view. Prints per view the p99 and
// worst paint time (each view times its own paintEvent), the event loop's latency (how late a
// 10 ms timer fires: p99 and worst), CPU (the process, which includes the emulator and the
// agents, and the GUI thread alone) and memory (RSS at the first sweep and at the end).
//
//   railyard-bench-live [--nodes 1000] [--seconds 60] [--hang K] [--size 1920x1080]
//
// --hang K: K of the nodes' agents are replaced by a local listener that accepts and never
// answers (a hung agent: each poll waits its deadline); the GUI thread's worst stall is the
// figure (issue #9: under 100 ms). The long run of the issue: --seconds 3600 (the series are
// bounded at an hour of samples, LiveSession::kSeriesCapacity; paint figures cover the last 1,000
// paints of each view).
//
// Targets: paint p99 under 16 ms per view, event-loop p99 under 50 ms (with --hang: worst under
// 100 ms). Exit status 0 when met, 3 when not, 1 when the fabric did not start or stream.

#include "app/models/live_session.h"
#include "app/widgets/live_fabric_view.h"
#include "app/widgets/live_grid.h"
#include "app/widgets/live_rail_chart.h"
#include "app/widgets/live_workspace.h"
#include "core/plan_spec.h"
#include "live/sim/agent_farm.h"
#include "live/sim/emulator.h"
#include "planner/planner.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTimer>
#include <QVBoxLayout>

#include <sys/resource.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <thread>
#include <vector>

using namespace railyard;

namespace {

double percentile(std::vector<double> v, double p)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
}

double cpuSeconds(int who)
{
    rusage u {};
    ::getrusage(who, &u);
    return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double rssMiB()
{
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

/// A TCP listener on 127.0.0.1 that accepts every connection and never answers: a hung agent.
class HangingListener {
public:
    bool start()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t len = sizeof addr;
        if (m_fd < 0 || ::bind(m_fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(m_fd, 4096) != 0
            || ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
            return false;
        m_port = ntohs(addr.sin_port);
        m_thread = std::thread([this] {
            while (!m_stop) {
                pollfd p { m_fd, POLLIN, 0 };
                if (::poll(&p, 1, 100) > 0) {
                    const int c = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC);
                    if (c >= 0)
                        m_held.push_back(c); // read nothing, answer nothing: the client waits its deadline
                }
                // Connections the client gave up on are closed from its side; drop ours after a while.
                if (m_held.size() > 8192) {
                    for (int c : m_held)
                        ::close(c);
                    m_held.clear();
                }
            }
        });
        return true;
    }
    ~HangingListener()
    {
        m_stop = true;
        if (m_thread.joinable())
            m_thread.join();
        for (int c : m_held)
            ::close(c);
        if (m_fd >= 0)
            ::close(m_fd);
    }
    int port() const { return m_port; }

private:
    int m_fd = -1;
    int m_port = 0;
    std::atomic<bool> m_stop { false };
    std::thread m_thread;
    std::vector<int> m_held;
};

struct Figures {
    double p99 = 0, max = 0;
    std::size_t samples = 0;
};

Figures figuresOf(const std::deque<double>& ms)
{
    const std::vector<double> v(ms.begin(), ms.end());
    return { percentile(v, 0.99), percentile(v, 1.0), v.size() };
}

} // namespace

int main(int argc, char** argv)
{
    if (std::getenv("QT_QPA_PLATFORM") == nullptr)
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication application(argc, argv);
    int nodes = 1000, seconds = 60, hang = 0, width = 1920, height = 1080;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--nodes")
            nodes = std::max(2, std::atoi(argv[i + 1]));
        else if (flag == "--seconds")
            seconds = std::max(5, std::atoi(argv[i + 1]));
        else if (flag == "--hang")
            hang = std::max(0, std::atoi(argv[i + 1]));
        else if (flag == "--size" && std::sscanf(argv[i + 1], "%dx%d", &width, &height) == 2) {
        } else {
            std::fprintf(stderr, "usage: railyard-bench-live [--nodes N] [--seconds S] [--hang K] [--size WxH]\n");
            return 2;
        }
    }
    if (argc % 2 == 0) {
        std::fprintf(stderr, "usage: railyard-bench-live [--nodes N] [--seconds S] [--hang K] [--size WxH]\n");
        return 2;
    }

    // The plan: DGX H100 nodes on NDR, full bisection (1,000 nodes: 32 SUs, 3 tiers, 640 switches).
    auto catalog = std::make_shared<const core::Catalog>(core::Catalog::builtin().value());
    const std::string specText = R"({ "name": "live bench", "fabric": "infiniband", "nodes": )" + std::to_string(nodes)
        + R"(, "node_type": "dgx-h100", "link": { "generation": "NDR", "width": 4 }, "oversubscription": { "leaf": "1:1", "spine": "1:1" } })";
    auto spec = core::parsePlanSpecText(specText, "bench.plan.json");
    auto made = spec ? planner::makePlan(*spec, *catalog) : core::Result<core::Plan>(spec.errors());
    if (!made) {
        std::fprintf(stderr, "plan: %s\n", made.error().toString().c_str());
        return 1;
    }
    auto plan = std::make_shared<const core::Plan>(std::move(made).value());

    // The fabric: trees on a RAM file system where there is one, every node's agent in this process.
    const bool ram = QFileInfo(QStringLiteral("/dev/shm")).isWritable();
    QTemporaryDir dir((ram ? QStringLiteral("/dev/shm") : QDir::tempPath()) + QStringLiteral("/railyard-live-bench-XXXXXX"));
    live::EmulatorOptions options;
    options.root = dir.path().toStdString();
    options.slowEvery = nodes > 256 ? 4 : 1; // as the demo fabric
    auto emulator = live::FabricEmulator::create(*plan, *catalog, {}, options);
    if (!emulator || !(*emulator)->writeTree()) {
        std::fprintf(stderr, "emulator: %s\n", emulator ? "cannot write the trees" : emulator.error().toString().c_str());
        return 1;
    }
    live::AgentFarm farm;
    live::FarmOptions farmOptions;
    farmOptions.token = "bench-token";
    if (const core::Status s = farm.start((*emulator)->nodes(), farmOptions); !s) {
        std::fprintf(stderr, "agents: %s\n", s.error().toString().c_str());
        return 1;
    }
    HangingListener hung;
    std::vector<live::AgentListing> listings = farm.listings();
    if (hang > 0) {
        if (!hung.start()) {
            std::fprintf(stderr, "cannot start the hanging listener: %s\n", std::strerror(errno));
            return 1;
        }
        // Spread over the fabric: every (N / K)-th node hangs.
        const int step = std::max(1, nodes / hang);
        for (int k = 0; k < hang && k * step < nodes; ++k)
            listings[static_cast<std::size_t>(k * step)].url = "http://127.0.0.1:" + std::to_string(hung.port());
    }
    std::ofstream(std::filesystem::path(options.root) / "token") << farmOptions.token << '\n';
    if (!live::writeAgentsJson(std::filesystem::path(options.root) / "agents.json", "token", listings)) {
        std::fprintf(stderr, "cannot write agents.json\n");
        return 1;
    }
    // The counters move at 1 Hz on a thread of their own, as hardware counters do between polls.
    std::atomic<bool> stop { false };
    std::thread traffic([&] {
        auto last = std::chrono::steady_clock::now();
        while (!stop) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1000));
            const auto now = std::chrono::steady_clock::now();
            (void)(*emulator)->update(std::chrono::duration<double>(now - last).count());
            last = now;
        }
    });

    // The workspace, and its bottom pages in a second window so that every view paints each sweep.
    app::LiveWorkspace ws;
    ws.resize(width, height);
    ws.setPlan(plan, catalog);
    ws.show();
    QWidget views;
    auto* layout = new QVBoxLayout(&views);
    layout->addWidget(ws.throughputChart());
    layout->addWidget(ws.congestionChart());
    layout->addWidget(ws.fabricView());
    views.resize(width, height);
    views.show();
    std::printf("plan: %d nodes, %d rails, %lld switches (%lld leaves, %lld spines, %lld cores); %d hung agents\n", plan->summary.nodes,
        plan->summary.rails, plan->summary.switches.total(), plan->summary.switches.leaf, plan->summary.switches.spine, plan->summary.switches.core, hang);

    QElapsedTimer clock;
    clock.start();
    if (!ws.session().connectAgentsFile(dir.filePath(QStringLiteral("agents.json")))) {
        std::fprintf(stderr, "connect failed\n");
        return 1;
    }
    // Wait (bounded) for the first sweep with rates; the event loop runs meanwhile.
    while (ws.session().framesReceived() < 2 && clock.elapsed() < 120'000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
    if (ws.session().framesReceived() < 2) {
        std::fprintf(stderr, "no sweep within two minutes\n");
        stop = true;
        traffic.join();
        return 1;
    }
    std::printf("first sweeps after %.1f s\n", static_cast<double>(clock.elapsed()) / 1000.0);

    // The measured run: a 10 ms timer's lateness, CPU and memory.
    const double rssStart = rssMiB();
    const double cpuStart = cpuSeconds(RUSAGE_SELF), guiStart = cpuSeconds(RUSAGE_THREAD);
    const std::size_t framesStart = ws.session().framesReceived();
    std::vector<double> lateness;
    lateness.reserve(static_cast<std::size_t>(seconds) * 100 + 16);
    double rssMax = rssStart;
    QElapsedTimer tick, run;
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    probe.setInterval(10);
    QObject::connect(&probe, &QTimer::timeout, [&] {
        lateness.push_back(std::max(0.0, static_cast<double>(tick.nsecsElapsed()) / 1e6 - 10.0));
        tick.restart();
        if (lateness.size() % 500 == 0)
            rssMax = std::max(rssMax, rssMiB());
    });
    QEventLoop loop;
    QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
    run.start();
    tick.start();
    probe.start();
    loop.exec();
    probe.stop();
    const double wall = static_cast<double>(run.nsecsElapsed()) / 1e9;
    const double cpu = cpuSeconds(RUSAGE_SELF) - cpuStart, gui = cpuSeconds(RUSAGE_THREAD) - guiStart;
    const double rssEnd = rssMiB();
    const std::size_t frames = ws.session().framesReceived() - framesStart;
    const auto frame = ws.session().frame();
    int lost = 0, connected = 0;
    for (const app::NodeConnection& n : frame->nodes) {
        lost += n.link == app::NodeLink::Lost;
        connected += n.link == app::NodeLink::Connected;
    }

    std::printf("\n%d nodes x %d rails streaming for %.0f s: %zu sweeps (last: %d ms, %d connected, %d lost, %zu ports)\n", nodes,
        plan->summary.rails, wall, frames, frame->pollMs, connected, lost, frame->sweep.ports.size());
    std::printf("%-22s %10s %10s %8s\n", "paint (ms)", "p99", "max", "paints");
    bool met = true;
    const std::pair<const char*, Figures> views4[] = {
        { "node x rail grid", figuresOf(ws.grid()->paintTimesMs()) },
        { "throughput chart", figuresOf(ws.throughputChart()->paintTimesMs()) },
        { "congestion chart", figuresOf(ws.congestionChart()->paintTimesMs()) },
        { "leaf/spine view", figuresOf(ws.fabricView()->paintTimesMs()) },
    };
    for (const auto& [name, f] : views4) {
        std::printf("%-22s %10.2f %10.2f %8zu\n", name, f.p99, f.max, f.samples);
        met = met && f.p99 < 16 && f.samples > 0;
    }
    const double loopP99 = percentile(lateness, 0.99), loopMax = percentile(lateness, 1.0);
    std::printf("event loop lateness (10 ms timer, %zu ticks): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", lateness.size(), percentile(lateness, 0.5), loopP99,
        loopMax);
    std::printf("CPU: process %.0f %% of one core (emulator, agents, poller and GUI), GUI thread %.1f %%\n", 100 * cpu / wall, 100 * gui / wall);
    std::printf("memory: RSS %.0f MiB at the first sweep, %.0f MiB at the end, %.0f MiB at most\n", rssStart, rssEnd, rssMax);
    met = met && loopP99 < 50 && frames > 0;
    if (hang > 0) {
        std::printf("hung agents: %d, shown lost: %d; GUI thread's worst stall %.1f ms (target < 100 ms)\n", hang, lost, loopMax);
        met = met && loopMax < 100 && lost >= hang;
    }
    std::printf("targets (paint p99 < 16 ms, loop p99 < 50 ms%s): %s\n", hang > 0 ? ", stall < 100 ms" : "", met ? "met" : "NOT met");

    ws.session().disconnectFabric();
    stop = true;
    traffic.join();
    return met ? 0 : 3;
}
