// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Runs ibsim on the emulator's fabric.ibnet and OpenSM against it (through libumad2sim), so
// that discovery (ibnetdiscover, libibnetdisc) can run against the emulated subnet. Each
// instance has its own IBSIM_SOCKNAME. The processes run in their own process groups and end
// with the runner.
#pragma once

#include "core/result.h"

#include <filesystem>
#include <memory>
#include <string>

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

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace railyard::live
