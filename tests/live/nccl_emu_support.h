// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// An emulated fabric for the nccl-tests stand-in's tests: the trees, DIR/tools as railyard-sim lays
// it out (the stand-in's links, railyard-emu-ssh, mpirun, nccl-tests-fabric.json) and, on request,
// in-process agents whose tools are those.
#pragma once

#include "live/client/agent_client.h"
#include "live/common/subprocess.h"
#include "live/sim/agent_farm.h"
#include "live/sim/emulator.h"
#include "live/sim/faults.h"
#include "live/sim/nccl_tests_model.h"
#include "live/sim/perftest_tools.h"
#include "tests/live/temp_dir.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <memory>
#include <string>

namespace railyard::live::nccltest {

namespace fs = std::filesystem;

inline const std::string kEmulator = RAILYARD_NCCL_TESTS_EMU;

struct Fabric {
    simtest::PlannedFabric planned;
    test::TempDir dir { "nccl-emu", test::TempDir::Place::PreferRam };
    fs::path root;
    std::unique_ptr<FabricEmulator> emulator;
    AgentFarm farm;
    std::map<std::string, AgentEndpoint> agents;
    FetchOptions fetch;
    fs::path tools() const { return root / "tools"; }
};

/// `spec` emulated with `faults` (idle traffic unless `traffic`), DIR/tools laid out; agents too with `agents`.
inline std::unique_ptr<Fabric> emulate(const char* spec, const std::string& faultsJson, bool agents = false, bool traffic = false)
{
    auto f = std::make_unique<Fabric>();
    f->planned = simtest::planOf(spec);
    f->root = f->dir.path() / "fabric";
    auto faults = parseFaults(faultsJson, "faults.json", f->planned.plan);
    EXPECT_TRUE(faults) << faults.error().toString();
    if (!faults)
        return nullptr;
    EmulatorOptions options;
    options.root = f->root;
    options.traffic = traffic ? TrafficKind::AllReduce : TrafficKind::Idle;
    auto emulator = FabricEmulator::create(f->planned.plan, f->planned.catalog, *faults, options);
    EXPECT_TRUE(emulator) << emulator.error().toString();
    if (!emulator)
        return nullptr;
    f->emulator = std::move(emulator).value();
    EXPECT_TRUE(f->emulator->writeTree());
    EXPECT_TRUE(writeNcclTestsTools(f->tools(), kEmulator, findProgram("mpirun")));
    EXPECT_TRUE(writeNcclEmuFabric(f->tools() / "nccl-tests-fabric.json",
        ncclEmuFabricOf(f->emulator->cabledPlan(), *faults, f->emulator->nodes().front().railMap)));
    if (agents) {
        FarmOptions farmOptions;
        farmOptions.token = "nccl-test-token";
        farmOptions.toolsDir = f->tools();
        const core::Status started = f->farm.start(f->emulator->nodes(), farmOptions);
        EXPECT_TRUE(started) << (started ? "" : started.error().toString());
        for (const AgentListing& l : f->farm.listings())
            f->agents[l.node] = { l.node, l.url };
        f->fetch.token = "nccl-test-token";
        f->fetch.deadline = std::chrono::milliseconds(10000);
    }
    return f;
}

} // namespace railyard::live::nccltest
