// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `export addresses`, `export switch-config`, `export host-config`: the network intent of a routed
// RoCEv2 plan (planner/addressing.h, switch_config.h, host_config.h), written to files.
#include "app/cli/commands.h"

#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/output_file.h"
#include "app/cli/summary_printer.h"
#include "planner/addressing.h"
#include "planner/host_config.h"
#include "planner/planner.h"
#include "planner/switch_config.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace railyard::app::cli {

namespace {

    struct IntentOptions {
        InputOptions input;
        std::string format;
        std::string out;
        std::string outDir;
        std::string os = "nvue";
        std::string node;
    };

    /// The plan and its address plan; prints the errors and returns nullopt on failure.
    struct Planned {
        Input input;
        core::Plan plan;
        planner::AddressPlan addresses;
    };

    std::optional<Planned> planWithAddresses(const IntentOptions& options)
    {
        core::Result<Input> input = loadInput(options.input);
        if (!input) {
            printErrors(input.errors(), options.input.specPath);
            return std::nullopt;
        }
        core::Result<core::Plan> plan = planner::makePlan(input->spec, input->catalog);
        if (!plan) {
            printErrors(plan.errors(), input->source);
            return std::nullopt;
        }
        core::Result<planner::AddressPlan> addresses = planner::planAddresses(*plan);
        if (!addresses) {
            printErrors(addresses.errors(), input->source);
            return std::nullopt;
        }
        if (plan->hasErrors())
            std::cerr << "warning: " << input->source << ": the plan has error findings (" << findingCounts(plan->findings)
                      << "); railyard-cli validate lists them\n";
        return Planned { std::move(*input), std::move(*plan), std::move(*addresses) };
    }

    int finish(const core::Status& written)
    {
        if (!written) {
            printErrors(written.errors());
            return kExitBadInput;
        }
        return kExitOk;
    }

    /// Writes each file it is given into `dir` (created first), each atomically; counts them.
    class FolderSink {
    public:
        explicit FolderSink(std::string dir)
            : m_dir(std::move(dir))
        {
        }
        core::Status open() const
        {
            std::error_code ec;
            std::filesystem::create_directories(m_dir, ec);
            if (ec)
                return core::Error { "EXPORT_WRITE", "cannot create the folder: " + ec.message(), m_dir,
                    "check that the parent folder exists and is writable" };
            return core::Status::success();
        }
        core::Status operator()(planner::ConfigFile&& f)
        {
            const std::string path = (std::filesystem::path(m_dir) / f.fileName).string();
            ++m_written;
            return writeOutput(path, [&](std::ostream& s) { s << f.text; });
        }
        int written() const { return m_written; }

    private:
        std::string m_dir;
        int m_written = 0;
    };

    int runAddresses(const IntentOptions& options)
    {
        std::optional<Planned> p = planWithAddresses(options);
        if (!p)
            return kExitBadInput;
        std::string format = options.format;
        if (format.empty())
            format = std::filesystem::path(options.out).extension() == ".json" ? "json" : "csv";
        return finish(writeOutput(options.out, [&](std::ostream& s) {
            if (format == "json")
                planner::writeAddressesJson(p->plan, p->addresses, s);
            else
                planner::writeAddressesCsv(p->plan, p->addresses, s);
        }));
    }

    int runSwitchConfig(const IntentOptions& options)
    {
        std::optional<Planned> p = planWithAddresses(options);
        if (!p)
            return kExitBadInput;
        const planner::SwitchOs os = options.os == "sonic" ? planner::SwitchOs::Sonic : planner::SwitchOs::Nvue;
        FolderSink sink(options.outDir);
        if (auto opened = sink.open(); !opened)
            return finish(opened);
        const core::Status made
            = planner::forEachSwitchConfig(p->plan, p->addresses, os, [&](planner::ConfigFile&& f) { return sink(std::move(f)); });
        if (!made) {
            printErrors(made.errors(), p->input.source);
            return kExitBadInput;
        }
        std::cerr << sink.written() << " switch configurations written to " << options.outDir << "\n";
        return kExitOk;
    }

    int runHostConfig(const IntentOptions& options)
    {
        std::optional<Planned> p = planWithAddresses(options);
        if (!p)
            return kExitBadInput;
        const core::NodeType* type = p->input.catalog.findNodeType(p->plan.spec.nodeType);
        const std::vector<std::string> railMap = type ? type->railMap : std::vector<std::string> {};
        if (!options.node.empty()) {
            core::Result<std::vector<planner::ConfigFile>> files = planner::hostConfigs(p->plan, p->addresses, railMap, options.node);
            if (!files) {
                printErrors(files.errors(), p->input.source);
                return kExitBadInput;
            }
            return finish(writeOutput("-", [&](std::ostream& s) { s << files->front().text; }));
        }
        // The intents first (rail map, nodes): a refused plan leaves no folder behind.
        const std::string first = p->addresses.nics.empty() ? std::string() : p->addresses.nics.front().node;
        if (auto checked = planner::hostIntents(p->plan, p->addresses, railMap, first); !checked) {
            printErrors(checked.errors(), p->input.source);
            return kExitBadInput;
        }
        FolderSink sink(options.outDir);
        if (auto opened = sink.open(); !opened)
            return finish(opened);
        const core::Status made
            = planner::forEachHostConfig(p->plan, p->addresses, railMap, [&](planner::ConfigFile&& f) { return sink(std::move(f)); });
        if (!made) {
            printErrors(made.errors(), p->input.source);
            return kExitBadInput;
        }
        std::cerr << sink.written() << " host scripts written to " << options.outDir << "\n";
        return kExitOk;
    }

    Command addAddresses(CLI::App& parent)
    {
        auto options = std::make_shared<IntentOptions>();
        CLI::App* cmd = parent.add_subcommand("addresses",
            "IP addresses of a routed RoCEv2 fabric: a /31 per link or a subnet per leaf, loopbacks, BGP AS numbers");
        addInputOptions(*cmd, options->input);
        cmd->add_option("--format", options->format, "csv or json (default: from the --out extension, else csv)")
            ->type_name("FORMAT")
            ->check(CLI::IsMember({ "csv", "json" }));
        cmd->add_option("--out", options->out, "Write to FILE (atomically); '-' or none is standard output")->type_name("FILE");
        cmd->footer("The ranges and schemes come from the spec's addressing object (README \"Addressing\"), else the\n"
                    "defaults: p2p31 in 10.0.0.0/10, loopbacks in 10.255.0.0/16, a private 4-byte ASN per leaf.\n"
                    "Exit status: 0 written, 2 bad input (an InfiniBand plan, a range too small) or not written.");
        return { cmd, [options] { return runAddresses(*options); } };
    }

    Command addSwitchConfig(CLI::App& parent)
    {
        auto options = std::make_shared<IntentOptions>();
        CLI::App* cmd = parent.add_subcommand("switch-config",
            "Switch configuration from the plan: interfaces, loopback, eBGP, RoCE QoS (one file per switch)");
        addInputOptions(*cmd, options->input);
        cmd->add_option("--os", options->os, "nvue (Cumulus Linux NVUE commands, <switch>.nvue.sh) or sonic "
                                             "(config_db.json fragments, <switch>.config_db.json); default nvue")
            ->type_name("OS")
            ->check(CLI::IsMember({ "nvue", "sonic" }));
        cmd->add_option("--out-dir", options->outDir, "Write the files into DIR (created if missing; each atomically)")
            ->type_name("DIR")
            ->required();
        cmd->footer("Exit status: 0 written, 2 bad input (an InfiniBand plan, a range too small) or not written.");
        return { cmd, [options] { return runSwitchConfig(*options); } };
    }

    Command addHostConfig(CLI::App& parent)
    {
        auto options = std::make_shared<IntentOptions>();
        CLI::App* cmd = parent.add_subcommand("host-config",
            "Per node shell script: NIC addresses, source routing per NIC, ARP and rp_filter, mlnx_qos trust and PFC, "
            "ECN/DCQCN, RoCE ToS, and the NCCL environment");
        addInputOptions(*cmd, options->input);
        CLI::Option* dir = cmd->add_option("--out-dir", options->outDir, "Write <node>.sh for every node into DIR")
                               ->type_name("DIR");
        cmd->add_option("--node", options->node, "Only node NAME's script, to standard output")->type_name("NAME")->excludes(dir);
        cmd->footer("Give --out-dir DIR or --node NAME. The scripts find each rail's netdev from its RDMA device on the\n"
                    "host (/sys/class/infiniband/<dev>/device/net), so they need the node type's rail map.\n"
                    "Exit status: 0 written, 2 bad input (an InfiniBand plan, an unknown node, no rail map) or not written.");
        return { cmd, [options] {
                    if (options->outDir.empty() && options->node.empty()) {
                        printErrors({ core::Error { "CLI_USAGE", "give --out-dir DIR or --node NAME", "export host-config", {} } });
                        return kExitBadInput;
                    }
                    return runHostConfig(*options);
                } };
    }

} // namespace

std::vector<Command> addIntentExportCommands(CLI::App& root)
{
    CLI::App* exportCmd = root.get_subcommand("export");
    return { addAddresses(*exportCmd), addSwitchConfig(*exportCmd), addHostConfig(*exportCmd) };
}

} // namespace railyard::app::cli
