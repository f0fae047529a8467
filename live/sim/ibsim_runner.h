// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Runs ibsim on the emulator's fabric.ibnet and OpenSM against it (through libumad2sim), so
// that discovery (ibnetdiscover, libibnetdisc) can run against the emulated subnet. Each
// instance has its own IBSIM_SOCKNAME. The processes run in their own process groups and end
// with the runner.
//
// ibsim runs with its console on a pipe: the emulator sets the switch ports' PMA counters
// through it (PerformanceSet), so that the switch counters a PMA query reads (perfquery, or
// Railyard's own sweep, live/client/ib_perf.h) move with the emulated traffic. The console's
// output goes to <workDir>/ibsim.log without the one acknowledgement per counter set.
#pragma once

#include "core/plan.h"
#include "core/result.h"
#include "live/sim/emulator.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace railyard::live {

/// How to reach the running subnet.
struct IbsimSubnet {
    std::string sockName;            ///< IBSIM_SOCKNAME of this ibsim
    std::filesystem::path umad2sim;  ///< LD_PRELOAD for tools that talk to it
    std::string routingEngine;       ///< the engine OpenSM configured ("ftree", "updn")
    std::string note;                ///< e.g. why OpenSM fell back to updn; empty when ftree ran
    std::filesystem::path opensmLog;
    std::filesystem::path envFile;   ///< <workDir>/ibsim.env: IBSIM_SOCKNAME=... and LD_PRELOAD=...
};

/// One switch port's PMA counters, as ibsim is to report them.
struct IbsimPortCounters {
    std::string node; ///< ibsim's node id: the quoted name of the `Switch` line ("S-5259010000008300")
    int port = 0;
    std::uint64_t xmitDataWords = 0, rcvDataWords = 0; ///< PortCountersExtended: octets / 4
    std::uint64_t xmitPkts = 0, rcvPkts = 0;           ///< PortCountersExtended
    std::uint32_t xmitWait = 0;                        ///< PortCounters.PortXmitWait (ticks; saturates)
    bool operator==(const IbsimPortCounters&) const = default;
};

/// The emulator's switch port counters for ibsim's subnet `plane` (1-based; fabric.ibnet is plane
/// 1): ibsim node ids as the ibnetdiscover export names the switches ("S-" and the GUID in 16 hex
/// digits), the data counters in 4-byte words, XmitWait saturated at 32 bits. `plan` is the
/// emulator's cabledPlan().
std::vector<IbsimPortCounters> ibsimPortCounters(
    const core::Plan& plan, const std::vector<SwitchPortCounters>& ports, int plane = 1);

class IbsimRunner {
public:
    IbsimRunner();
    ~IbsimRunner(); ///< ends OpenSM and ibsim
    IbsimRunner(const IbsimRunner&) = delete;
    IbsimRunner& operator=(const IbsimRunner&) = delete;

    /// Starts ibsim on `ibnet` and OpenSM (routing engine ftree, updn when ftree cannot route
    /// the fabric) and waits until the subnet is up. Logs go to `workDir`. Fails, naming the
    /// missing Debian package or the log to read, when a tool is missing or does not come up.
    core::Result<IbsimSubnet> start(const std::filesystem::path& ibnet, const std::filesystem::path& workDir);
    void stop();

    /// Sets these ports' counters in the running ibsim (console command PerformanceSet; only the
    /// values that changed since the last call are sent). Error SIM_IBSIM when ibsim is not
    /// running or does not take the commands.
    core::Status setPortCounters(const std::vector<IbsimPortCounters>& ports);
    /// Console lines ibsim refused since the start ("# field not found in command", unknown
    /// node), for the tests and the log reader.
    std::size_t refusedCommands() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace railyard::live
