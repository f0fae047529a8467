// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `railyard-cli live cabling`: the discovered fabric against the plan's cable map
// (interfaces.md §4). Sources: an ibnetdiscover output file, live discovery through
// libibnetdisc (--discover on a host of the subnet; --ibsim against the simulator through
// libumad2sim), or the agents' LLDP neighbours (RoCEv2).
#include "app/cli/commands.h"

#include "app/cli/agents_input.h"
#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/summary_printer.h"
#include "core/plan_json.h"
#include "live/client/agent_client.h"
#include "live/client/cabling.h"
#include "live/client/ib_discovery.h"
#include "live/client/ibnet_parse.h"
#include "live/client/identity.h"
#include "live/common/inventory_json.h"
#include "live/common/umad2sim.h"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include <unistd.h>

namespace railyard::app::cli {

namespace {

    namespace fs = std::filesystem;

    struct CablingOptions {
        InputOptions input;
        std::string ibnetdiscover;
        bool ibsim = false;
        bool discover = false;
        std::string ca;
        int caPort = 0;
        std::string umad2sim;
        std::string agents;
        std::string tokenFile;
        int plane = 1;
        int timeoutMs = 5000;
        bool json = false;
        std::string known;
        std::string nodeNameMap;
        std::string rootGuids;
        std::string identity;
    };


    core::Status writeText(const std::string& path, const std::string& text, const char* what)
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out)
            return core::Error { "OUTPUT_UNWRITABLE", std::string("cannot write the ") + what, path, "check the folder" };
        return {};
    }

    void printText(const live::CablingReport& report, const std::string& source, const std::vector<core::Finding>& extra)
    {
        std::cout << source << '\n';
        int identified = 0;
        for (const auto& s : report.switches)
            identified += s.name.empty() ? 0 : 1;
        std::cout << "links: " << report.planned << " planned, " << report.matched << " found as planned, "
                  << report.discovered << " discovered; switches: " << identified << " of " << report.switches.size()
                  << " identified\n";
        std::vector<core::Finding> all = extra;
        all.insert(all.end(), report.findings.begin(), report.findings.end());
        printFindings(all, std::cout);
    }

    void printJson(const live::CablingReport& report, const std::vector<core::Finding>& extra)
    {
        nlohmann::json findings = nlohmann::json::array();
        for (const auto& f : extra)
            findings.push_back(core::toJson(f));
        for (const auto& f : report.findings)
            findings.push_back(core::toJson(f));
        nlohmann::json switches = nlohmann::json::array();
        for (const auto& s : report.switches) {
            nlohmann::json o { { "name", s.name }, { "how", s.how }, { "description", s.description } };
            o["guid"] = s.guid ? live::formatGuid(s.guid) : "";
            switches.push_back(std::move(o));
        }
        std::cout << nlohmann::json { { "findings", findings }, { "matched", report.matched }, { "planned", report.planned },
                         { "discovered", report.discovered }, { "switches", switches } }
                         .dump(2)
                  << '\n';
    }

    /// The agents' inventories; unreachable or malformed answers become findings in `problems`.
    core::Result<std::vector<live::Inventory>> fetchInventories(const CablingOptions& options,
        std::vector<core::Finding>& problems)
    {
        core::Result<AgentsInput> input = loadAgents(options.agents, options.tokenFile, options.timeoutMs);
        if (!input)
            return input.errors();
        std::vector<live::Inventory> out;
        for (const auto& reply : live::fetchAll(input->agents, "/v1/inventory", input->fetch)) {
            const std::string where = reply.agent.node + " (" + reply.agent.url + ")";
            if (reply.error || reply.status != 200) {
                const std::string why = reply.error ? reply.error->message : "HTTP status " + std::to_string(reply.status);
                problems.push_back({ core::Severity::Error, "AGENT_UNREACHABLE",
                    reply.agent.node + ": no inventory from the agent (" + why
                        + "): its cabling is not checked; check that railyard-agent runs and the token is right",
                    where });
                continue;
            }
            const auto doc = nlohmann::json::parse(reply.body, nullptr, false);
            auto inv = doc.is_discarded() ? core::Result<live::Inventory>(core::Error { "AGENT_JSON", "not JSON", where, "" })
                                          : live::inventoryFromJson(doc, reply.agent.url + "/v1/inventory");
            if (!inv) {
                problems.push_back({ core::Severity::Error, "AGENT_UNREACHABLE",
                    reply.agent.node + ": the inventory could not be read (" + inv.error().message
                        + "): its cabling is not checked",
                    where });
                continue;
            }
            inv->node = reply.agent.node;
            out.push_back(std::move(inv).value());
        }
        return out;
    }

    int runCabling(const CablingOptions& options)
    {
        const int sources = (options.ibnetdiscover.empty() ? 0 : 1) + (options.ibsim ? 1 : 0) + (options.discover ? 1 : 0)
            + (options.agents.empty() ? 0 : 1);
        if (sources != 1) {
            std::cerr << "live cabling: give exactly one of --ibnetdiscover FILE, --ibsim, --discover, --agents FILE\n";
            return kExitBadInput;
        }
        if (const auto failed = reexecForIbsim(options.ibsim, options.umad2sim, "live cabling"))
            return *failed;
        std::string source;
        core::Result<core::Plan> plan = planInput(options.input, source);
        if (!plan) {
            printErrors(plan.errors(), source);
            return kExitBadInput;
        }
        auto catalog = loadCatalog(options.input);
        if (!catalog) {
            printErrors(catalog.errors());
            return kExitBadInput;
        }
        const bool ib = plan->spec.fabric == core::Fabric::InfiniBand;
        if (ib == !options.agents.empty()) {
            std::cerr << source << ": "
                      << (ib ? "an InfiniBand plan is checked with --ibnetdiscover, --ibsim or --discover"
                             : "a RoCEv2 plan is checked from the agents' LLDP neighbours: give --agents FILE")
                      << '\n';
            return kExitBadInput;
        }
        live::Identity known;
        live::CablingOptions check;
        check.plane = options.plane;
        if (!options.known.empty()) {
            auto read = live::readIdentityFile(options.known);
            if (!read) {
                printErrors(read.errors());
                return kExitBadInput;
            }
            known = std::move(read).value();
            check.known = &known;
        }

        std::vector<core::Finding> problems;
        live::CablingReport report;
        if (!options.ibnetdiscover.empty()) {
            auto fabric = live::readIbnetdiscoverFile(options.ibnetdiscover);
            if (!fabric) {
                printErrors(fabric.errors());
                return kExitBadInput;
            }
            report = live::checkIbCabling(*plan, *catalog, *fabric, check);
        } else if (options.ibsim || options.discover) {
            live::DiscoveryOptions discovery;
            discovery.caName = options.ca;
            discovery.caPort = options.caPort;
            auto fabric = live::discoverFabric(discovery);
            if (!fabric) {
                printErrors(fabric.errors());
                return kExitIncomplete;
            }
            report = live::checkIbCabling(*plan, *catalog, *fabric, check);
        } else {
            auto inventories = fetchInventories(options, problems);
            if (!inventories) {
                printErrors(inventories.errors());
                return kExitBadInput;
            }
            report = live::checkLldpCabling(*plan, *catalog, *inventories, check);
        }

        if (options.json)
            printJson(report, problems);
        else
            printText(report, source, problems);
        std::cout.flush();

        bool writeFailed = false;
        auto save = [&](const core::Status& st) {
            if (!st) {
                printErrors(st.errors());
                writeFailed = true;
            }
        };
        if (!options.identity.empty())
            save(live::writeIdentityFile(report.identity, options.identity));
        if (!options.nodeNameMap.empty()) {
            std::ostringstream text;
            live::writeNodeNameMap(report.identity, text);
            save(writeText(options.nodeNameMap, text.str(), "node-name map"));
        }
        if (!options.rootGuids.empty()) {
            std::vector<std::string> missing;
            const auto guids = live::rootGuids(report.identity, *plan, &missing);
            std::ostringstream text;
            live::writeRootGuids(guids, text);
            save(writeText(options.rootGuids, text.str(), "root GUID file"));
            if (!missing.empty())
                std::cerr << options.rootGuids << ": " << missing.size()
                          << " root switches not identified, left out (first: " << missing.front() << ")\n";
        }
        if (writeFailed)
            return kExitBadInput;
        if (!problems.empty())
            return kExitIncomplete;
        return report.hasErrors() ? kExitFindings : kExitOk;
    }

} // namespace

Command addLiveCablingCommand(CLI::App& live)
{
    auto options = std::make_shared<CablingOptions>();
    CLI::App* cmd = live.add_subcommand("cabling", "Check the cabling of a running fabric against the plan's cable map");
    cmd->footer("Sources: --ibnetdiscover FILE (ibnetdiscover or ibnetdiscover -p output), --discover (libibnetdisc,\n"
                "on a host of the subnet), --ibsim (the same against ibsim through libumad2sim), or --agents FILE\n"
                "(RoCEv2: the agents' LLDP neighbours).\n"
                "Exit status: 0 no error findings, 1 error findings, 2 bad input, 3 could not finish.");
    cmd->add_option("--plan", options->input.specPath, "Plan spec file (*.plan.json)")->type_name("SPEC");
    cmd->add_option("--example", options->input.example, "Use the built-in example NAME as the plan")->type_name("NAME");
    cmd->add_option("--catalog", options->input.catalogFiles, "Add a catalog FILE (repeatable)")->type_name("FILE");
    cmd->add_option("--ibnetdiscover", options->ibnetdiscover, "Read the fabric from ibnetdiscover output")->type_name("FILE");
    cmd->add_flag("--ibsim", options->ibsim, "Discover the fabric ibsim simulates (libumad2sim; IBSIM_SOCKNAME)");
    cmd->add_flag("--discover", options->discover, "Discover the fabric from this host (libibnetdisc)");
    cmd->add_option("--ca", options->ca, "Local HCA to discover from (default: the first active)")->type_name("NAME");
    cmd->add_option("--ca-port", options->caPort, "Port of that HCA")->type_name("N");
    cmd->add_option("--umad2sim", options->umad2sim, "Path of libumad2sim.so for --ibsim")->type_name("FILE");
    cmd->add_option("--agents", options->agents, "agents.json: check RoCEv2 cabling from LLDP")->type_name("FILE");
    cmd->add_option("--token-file", options->tokenFile, "Bearer token for the agents")->type_name("FILE");
    cmd->add_option("--timeout-ms", options->timeoutMs, "Deadline per agent request")->type_name("MS");
    cmd->add_option("--plane", options->plane, "Plans with planes: the plane discovered (1-based)")->type_name("N");
    cmd->add_option("--known", options->known, "A stored identity (from --identity) to match GUIDs and hostnames first")
        ->type_name("FILE");
    cmd->add_flag("--json", options->json, "Print the result as JSON");
    cmd->add_option("--node-name-map", options->nodeNameMap, "Write the OpenSM node-name map (GUID -> planned name)")
        ->type_name("OUT");
    cmd->add_option("--root-guids", options->rootGuids, "Write the ftree root GUID file (spines; cores with 3 tiers)")
        ->type_name("OUT");
    cmd->add_option("--identity", options->identity, "Write the identity mapping as JSON")->type_name("OUT");
    return { cmd, [options] {
                if (options->input.specPath.empty() == options->input.example.empty()) {
                    std::cerr << "live cabling: give exactly one of --plan SPEC or --example NAME\n";
                    return kExitBadInput;
                }
                return runCabling(*options);
            } };
}

} // namespace railyard::app::cli
