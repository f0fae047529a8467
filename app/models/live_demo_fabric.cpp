// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/models/live_demo_fabric.h"

#include "live/sim/agent_farm.h"
#include "live/common/subprocess.h"
#include "live/sim/emulator.h"
#include "live/sim/nccl_tests_model.h"
#include "live/sim/perftest_tools.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <fstream>
#include <random>

namespace railyard::app {

namespace {

    std::string randomToken()
    {
        std::random_device random;
        static const char kHex[] = "0123456789abcdef";
        std::string token;
        for (int i = 0; i < 48; ++i)
            token += kHex[random() % 16];
        return token;
    }

    QString scratchBase(const QString& baseDir)
    {
        if (!baseDir.isEmpty())
            return baseDir;
        // A RAM file system for thousands of small files rewritten every second: the runtime
        // folder of the session (XDG_RUNTIME_DIR) or /dev/shm; the cache folder otherwise.
        if (qEnvironmentVariableIsSet("XDG_RUNTIME_DIR"))
            return QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
        if (const QFileInfo shm(QStringLiteral("/dev/shm")); shm.isDir() && shm.isWritable())
            return shm.filePath();
        return QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    }

    live::FarmOptions farmOptions(const std::string& token, int port, const std::filesystem::path& tools)
    {
        live::FarmOptions options;
        options.token = token;
        options.basePort = port;
        options.threadsPerAgent = 1;
        options.toolsDir = tools;
        return options;
    }

    /// ROOT/tools as railyard-sim lays it out, from the stand-ins next to this program (the
    /// build's bin folder, or the installed one). The reason when tests cannot run; empty when they can.
    std::string writeTools(const std::filesystem::path& tools)
    {
        std::error_code error;
        const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
        const std::filesystem::path perftest = error ? std::filesystem::path() : live::perftestEmulatorNextTo(self);
        const std::filesystem::path nccl = error ? std::filesystem::path() : live::emulatorToolNextTo(self, live::kNcclTestsEmulatorName);
        std::string note;
        if (perftest.empty())
            note += std::string("no ") + std::string(live::kPerftestEmulatorName) + " next to this program: the bandwidth test cannot run; ";
        else if (auto s = live::writePerftestTools(tools, perftest); !s)
            note += s.error().toString() + "; ";
        if (nccl.empty())
            note += std::string("no ") + std::string(live::kNcclTestsEmulatorName) + " next to this program: the all-reduce cannot run; ";
        else if (const std::string mpirun = live::findProgram("mpirun"); mpirun.empty())
            note += "no mpirun (Open MPI, Debian package openmpi-bin) on PATH: the all-reduce cannot run; ";
        else if (auto s = live::writeNcclTestsTools(tools, nccl, mpirun); !s)
            note += s.error().toString() + "; ";
        if (!note.empty())
            note += "install the railyard-sim package (or build its targets) for tests on the demo fabric";
        return note;
    }

} // namespace

LiveDemoFabric::LiveDemoFabric(std::shared_ptr<const core::Plan> plan, std::shared_ptr<const core::Catalog> catalog, OnError onError)
    : m_plan(std::move(plan))
    , m_catalog(std::move(catalog))
    , m_onError(std::move(onError))
{
}

LiveDemoFabric::~LiveDemoFabric()
{
    shutdown();
}

core::Result<LiveDemoFabric::Started> LiveDemoFabric::start(const QString& baseDir)
{
    const QString base = scratchBase(baseDir);
    if (!QDir().mkpath(base))
        return core::Error { "DEMO_FOLDER", "cannot create the folder for the demo fabric", base.toStdString(),
            "check that your cache folder is writable" };
    m_dir = std::make_unique<QTemporaryDir>(base + QStringLiteral("/railyard-demo-XXXXXX"));
    if (!m_dir->isValid())
        return core::Error { "DEMO_FOLDER", "cannot create a scratch folder for the demo fabric: " + m_dir->errorString().toStdString(),
            base.toStdString(), "check that the folder is writable and not full" };
    const std::filesystem::path root = m_dir->path().toStdString();

    live::EmulatorOptions options;
    options.root = root;
    options.traffic = live::TrafficKind::AllReduce;
    options.slowEvery = m_plan->summary.nodes > 256 ? 4 : 1; // as railyard-sim: 8,192 ports under a core
    auto emulator = live::FabricEmulator::create(*m_plan, *m_catalog, {}, options);
    if (!emulator)
        return emulator.errors();
    m_emulator = std::move(*emulator);
    if (auto s = m_emulator->writeTree(); !s)
        return s.errors();

    m_token = randomToken();
    Started started;
    started.token = m_token;
    started.root = m_dir->path();
    m_tools = root / "tools";
    started.toolsDir = m_tools.string();
    started.toolsNote = writeTools(m_tools);
    m_faults.clear();
    if (auto s = writeFabricFacts(); !s)
        started.toolsNote += (started.toolsNote.empty() ? "" : "; ") + s.error().toString();
    std::vector<live::AgentListing> listings;
    for (const live::EmulatedNode& node : m_emulator->nodes()) {
        auto farm = std::make_unique<live::AgentFarm>();
        if (auto s = farm->start({ node }, farmOptions(m_token, 0, m_tools)); !s) {
            shutdown();
            return s.errors();
        }
        m_ports.push_back(farm->ports().front());
        listings.push_back(farm->listings().front());
        started.agents.push_back({ node.name, farm->listings().front().url });
        m_farms.push_back(std::move(farm));
    }
    // agents.json and the token, so that railyard-cli can be pointed at the same demo.
    {
        std::ofstream token(root / "token");
        token << m_token << '\n';
    }
    if (auto s = live::writeAgentsJson(root / "agents.json", "token", listings); !s) {
        shutdown();
        return s.errors();
    }

    m_last = std::chrono::steady_clock::now();
    return started;
}

void LiveDemoFabric::update()
{
    if (!m_emulator)
        return;
    const auto now = std::chrono::steady_clock::now();
    auto stats = m_emulator->update(std::chrono::duration<double>(now - m_last).count());
    m_last = now;
    if (!stats && m_onError)
        m_onError(QString::fromStdString(stats.error().toString()));
}

core::Status LiveDemoFabric::inject(const live::Fault& fault)
{
    if (!m_emulator)
        return core::Error { "DEMO_STOPPED", "the demo fabric is not running", "Live", "connect to a demo fabric first" };
    if (auto s = m_emulator->injectFault(fault); !s)
        return s;
    m_faults.push_back(fault);
    return writeFabricFacts();
}

core::Status LiveDemoFabric::writeFabricFacts()
{
    const auto& nodes = m_emulator->nodes();
    return live::writeNcclEmuFabric(m_tools / "nccl-tests-fabric.json",
        live::ncclEmuFabricOf(m_emulator->cabledPlan(), m_faults, nodes.empty() ? std::vector<std::string>() : nodes.front().railMap));
}

namespace {
    template <class Nodes>
    std::ptrdiff_t indexOf(const Nodes& nodes, const std::string& name)
    {
        const auto it = std::find_if(nodes.begin(), nodes.end(), [&](const auto& n) { return n.name == name; });
        return it == nodes.end() ? -1 : it - nodes.begin();
    }
} // namespace

core::Status LiveDemoFabric::stopAgent(const std::string& node)
{
    const auto i = m_emulator ? indexOf(m_emulator->nodes(), node) : -1;
    if (i < 0)
        return core::Error { "DEMO_NODE", "no such node in the demo fabric", node, "choose a node of the plan" };
    m_farms[static_cast<std::size_t>(i)]->stop();
    return {};
}

core::Status LiveDemoFabric::startAgent(const std::string& node)
{
    const auto i = m_emulator ? indexOf(m_emulator->nodes(), node) : -1;
    if (i < 0)
        return core::Error { "DEMO_NODE", "no such node in the demo fabric", node, "choose a node of the plan" };
    const auto k = static_cast<std::size_t>(i);
    if (!m_farms[k]->listings().empty())
        return {};
    // On its old port, so that agents.json and the poller still find it.
    return m_farms[k]->start({ m_emulator->nodes()[k] }, farmOptions(m_token, m_ports[k], m_tools));
}

void LiveDemoFabric::shutdown()
{
    m_farms.clear(); // each farm stops its agent
    m_ports.clear();
    m_emulator.reset();
    m_dir.reset(); // removes the folder and everything in it
}

} // namespace railyard::app
