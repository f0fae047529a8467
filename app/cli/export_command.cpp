// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/commands.h"

#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/output_file.h"
#include "app/cli/summary_printer.h"
#include "core/fabric.h"
#include "live/client/prometheus_file_sd.h"
#include "planner/exporters.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>

namespace railyard::app::cli {

namespace {

    enum class Kind { Bom, Cables, Ibnetdiscover, Topo, Netbox };

    struct ExportOptions {
        Kind kind = Kind::Bom;
        InputOptions input;
        std::string format;
        std::string out;
        int plane = 1;
        std::string speeds = "ibsim";
        std::string site = planner::NetboxOptions {}.site;
    };

    // --format may be left out: the --out file's extension decides, else CSV.
    std::string formatOf(const ExportOptions& options)
    {
        if (!options.format.empty())
            return options.format;
        const std::string ext = std::filesystem::path(options.out).extension().string();
        if (ext == ".xlsx" || (ext == ".json" && options.kind == Kind::Bom))
            return ext.substr(1);
        return "csv";
    }

    core::Status writeBom(const core::Plan& plan, const std::string& format, const std::string& out)
    {
        if (format == "xlsx")
            return writeOutputFile(out, [&](const std::string& temp) { return planner::writeBomXlsx(plan, temp); });
        return writeOutput(out, [&](std::ostream& stream) {
            if (format == "json")
                planner::writeBomJson(plan, stream);
            else
                planner::writeBomCsv(plan, stream);
        });
    }

    core::Status writeCables(const core::Plan& plan, const std::string& format, const std::string& out)
    {
        if (format == "xlsx")
            return writeOutputFile(out, [&](const std::string& temp) { return planner::writeCablesXlsx(plan, temp); });
        return writeOutput(out, [&](std::ostream& stream) { planner::writeCablesCsv(plan, stream); });
    }

    /// The checks the per-subnet exports share: an InfiniBand plan, and a plane it has.
    core::Status checkSubnet(const core::Plan& plan, const ExportOptions& options, const std::string& command)
    {
        if (plan.spec.fabric != core::Fabric::InfiniBand)
            return core::Error { "CLI_USAGE", "the plan is a RoCEv2 fabric; " + command + " describes InfiniBand subnets",
                "export " + command, "export cables gives the cable map of an Ethernet fabric" };
        if (options.plane > plan.summary.planes)
            return core::Error { "CLI_USAGE",
                "plane " + std::to_string(options.plane) + " does not exist; the plan has "
                    + std::to_string(plan.summary.planes),
                "--plane", "planes are numbered from 1" };
        return core::Status::success();
    }

    core::Status writeTopo(const core::Plan& plan, const ExportOptions& options)
    {
        if (auto checked = checkSubnet(plan, options, "topo"); !checked)
            return checked;
        return writeOutput(options.out, [&](std::ostream& stream) { planner::writeIbdmTopo(plan, stream, options.plane); });
    }

    core::Status writeNetbox(const core::Plan& plan, const ExportOptions& options)
    {
        if (isStdout(options.out))
            return core::Error { "CLI_USAGE", "the NetBox export writes three files and needs a folder", "--out",
                "give --out FOLDER" };
        const core::Result<core::Catalog> catalog = loadCatalog(options.input);
        if (!catalog)
            return catalog.errors();
        planner::NetboxOptions netbox;
        netbox.site = options.site;
        netbox.catalog = &*catalog;
        return planner::writeNetboxCsv(plan, options.out, netbox);
    }

    core::Status writeIbnet(const core::Plan& plan, const ExportOptions& options)
    {
        if (auto checked = checkSubnet(plan, options, "ibnetdiscover"); !checked)
            return checked;
        planner::IbnetdiscoverOptions ibnet;
        ibnet.plane = options.plane;
        ibnet.speeds = options.speeds == "planned" ? planner::IbnetSpeeds::Planned : planner::IbnetSpeeds::Ibsim;
        return writeOutput(options.out, [&](std::ostream& stream) { planner::writeIbnetdiscover(plan, stream, ibnet); });
    }

    int runExport(const ExportOptions& options)
    {
        std::string source;
        core::Result<core::Plan> plan = planInput(options.input, source);
        if (!plan) {
            printErrors(plan.errors(), source);
            return kExitBadInput;
        }
        const std::string format = formatOf(options);
        core::Status written;
        switch (options.kind) {
        case Kind::Bom:
            written = writeBom(*plan, format, options.out);
            break;
        case Kind::Cables:
            written = writeCables(*plan, format, options.out);
            break;
        case Kind::Ibnetdiscover:
            written = writeIbnet(*plan, options);
            break;
        case Kind::Topo:
            written = writeTopo(*plan, options);
            break;
        case Kind::Netbox:
            written = writeNetbox(*plan, options);
            break;
        }
        if (!written) {
            printErrors(written.errors());
            return kExitBadInput;
        }
        if (plan->hasErrors())
            std::cerr << "warning: " << source << ": the plan has error findings (" << findingCounts(plan->findings)
                      << "); railyard-cli validate lists them\n";
        return kExitOk;
    }

    CLI::App* addExportSub(CLI::App& parent, const char* name, const char* description,
        const std::shared_ptr<ExportOptions>& options)
    {
        CLI::App* cmd = parent.add_subcommand(name, description);
        addInputOptions(*cmd, options->input);
        cmd->add_option("--out", options->out, "Write to FILE (atomically); '-' or none is standard output")
            ->type_name("FILE");
        cmd->footer("Exit status: 0 written (error findings of the plan are noted on stderr), 2 bad input or the\n"
                    "file could not be written.");
        return cmd;
    }

    Command addBom(CLI::App& parent)
    {
        auto options = std::make_shared<ExportOptions>();
        options->kind = Kind::Bom;
        CLI::App* cmd = addExportSub(parent, "bom", "Bill of materials: switches, NICs, cables, transceivers", options);
        cmd->add_option("--format", options->format, "csv, xlsx or json (default: from the --out extension, else csv)")
            ->type_name("FORMAT")
            ->check(CLI::IsMember({ "csv", "xlsx", "json" }));
        return { cmd, [options] { return runExport(*options); } };
    }

    Command addCables(CLI::App& parent)
    {
        auto options = std::make_shared<ExportOptions>();
        options->kind = Kind::Cables;
        CLI::App* cmd = addExportSub(parent, "cables",
            "Port-to-port cable map, one row per link (ends, tier, medium, length, cage)", options);
        cmd->add_option("--format", options->format, "csv or xlsx (default: from the --out extension, else csv)")
            ->type_name("FORMAT")
            ->check(CLI::IsMember({ "csv", "xlsx" }));
        return { cmd, [options] { return runExport(*options); } };
    }

    Command addIbnetdiscover(CLI::App& parent)
    {
        auto options = std::make_shared<ExportOptions>();
        options->kind = Kind::Ibnetdiscover;
        CLI::App* cmd = addExportSub(parent, "ibnetdiscover",
            "The planned InfiniBand fabric in ibnetdiscover's topology format (ibsim, ibdiagnet)", options);
        cmd->add_option("--plane", options->plane, "Plane N (from 1) of a multi-plane plan: one subnet each")
            ->type_name("N")
            ->check(CLI::PositiveNumber);
        cmd->add_option("--speeds", options->speeds,
               "ibsim: NDR and XDR written as HDR, the fastest grade Debian 12's ibsim reads (default); "
               "planned: the planned grades, as ibnetdiscover prints them on hardware")
            ->type_name("MODE")
            ->check(CLI::IsMember({ "ibsim", "planned" }));
        return { cmd, [options] { return runExport(*options); } };
    }

    Command addTopo(CLI::App& parent)
    {
        auto options = std::make_shared<ExportOptions>();
        options->kind = Kind::Topo;
        CLI::App* cmd = addExportSub(parent, "topo",
            "The planned InfiniBand fabric as an IBDM topology file (ibdiagnet --topo_file, ibdmchk -t)", options);
        cmd->add_option("--plane", options->plane, "Plane N (from 1) of a multi-plane plan: one subnet each")
            ->type_name("N")
            ->check(CLI::PositiveNumber);
        return { cmd, [options] { return runExport(*options); } };
    }

    Command addNetbox(CLI::App& parent)
    {
        auto options = std::make_shared<ExportOptions>();
        options->kind = Kind::Netbox;
        CLI::App* cmd = parent.add_subcommand("netbox",
            "NetBox bulk-import CSV files: devices.csv, interfaces.csv, cables.csv (import in that order)");
        addInputOptions(*cmd, options->input);
        cmd->add_option("--out", options->out, "Write the three files into FOLDER (created if missing; each atomically)")
            ->type_name("FOLDER")
            ->required();
        cmd->add_option("--site", options->site, "NetBox site the devices go to; it must exist (default: railyard)")
            ->type_name("NAME");
        cmd->footer("Device roles (GPU server, Leaf switch, Spine switch, Core switch, Fabric management), the\n"
                    "manufacturers, the device types (named by catalog id) and the site must exist in NetBox.\n"
                    "Exit status: 0 written (error findings of the plan are noted on stderr), 2 bad input or the\n"
                    "files could not be written.");
        return { cmd, [options] { return runExport(*options); } };
    }

    struct FileSdOptions {
        InputOptions input;
        std::string agentsFile;
        int port = 9473;
        std::string out;
    };

    int runFileSd(const FileSdOptions& options)
    {
        std::string source;
        core::Result<core::Plan> plan = planInput(options.input, source);
        if (!plan) {
            printErrors(plan.errors(), source);
            return kExitBadInput;
        }
        std::optional<live::AgentsFile> agents;
        if (!options.agentsFile.empty()) {
            core::Result<live::AgentsFile> read = live::readAgentsFile(options.agentsFile);
            if (!read) {
                printErrors(read.errors());
                return kExitBadInput;
            }
            agents = std::move(*read);
        }
        core::Result<nlohmann::json> targets = live::prometheusFileSd(*plan, agents ? &agents->agents : nullptr, options.port);
        if (!targets) {
            printErrors(targets.errors(), options.agentsFile);
            return kExitBadInput;
        }
        const core::Status written = writeOutput(options.out, [&](std::ostream& stream) { stream << targets->dump(2) << '\n'; });
        if (!written) {
            printErrors(written.errors());
            return kExitBadInput;
        }
        return kExitOk;
    }

    Command addFileSd(CLI::App& parent)
    {
        auto options = std::make_shared<FileSdOptions>();
        CLI::App* cmd = parent.add_subcommand("file-sd",
            "Prometheus file_sd targets: one group per node and rail with node, rail, su and leaf labels");
        addInputOptions(*cmd, options->input);
        CLI::Option* agentsOpt = cmd->add_option("--agents", options->agentsFile, "Each node's agent URL from FILE (agents.json)")
                                     ->type_name("FILE");
        cmd->add_option("--port", options->port, "Or every node as <node>:N (the plan's node names as host names)")
            ->type_name("N")
            ->check(CLI::Range(1, 65535))
            ->excludes(agentsOpt);
        cmd->add_option("--out", options->out, "Write to FILE (atomically); '-' or none is standard output")->type_name("FILE");
        cmd->footer("Each group asks the agent for one rail (__param_rail: /metrics?rail=K; __param_port on two-plane\n"
                    "plans), so every series carries the leaf it loads: sum by (leaf) (rate(...)). Scrape with\n"
                    "honor_labels: true (live/README.md has a scrape config).\n"
                    "Exit status: 0 written, 2 bad input or the file could not be written.");
        return { cmd, [options] { return runFileSd(*options); } };
    }

} // namespace

std::vector<Command> addExportCommands(CLI::App& root)
{
    CLI::App* exportCmd = root.add_subcommand("export",
        "Write the bill of materials, the cable map, the topology, NetBox import files or Prometheus targets");
    exportCmd->require_subcommand(1);
    exportCmd->footer("Each export takes a SPEC file or --example NAME, and --catalog FILE (repeatable).\n"
                      "Exit status: 0 written (error findings are noted on stderr), 2 bad input.\n"
                      "Example: railyard-cli export cables --example dgx-h100-superpod-4su --format xlsx --out cables.xlsx");
    return { addBom(*exportCmd), addCables(*exportCmd), addIbnetdiscover(*exportCmd), addTopo(*exportCmd),
        addNetbox(*exportCmd), addFileSd(*exportCmd) };
}

} // namespace railyard::app::cli
