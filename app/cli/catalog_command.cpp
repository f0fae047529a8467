// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/commands.h"

#include "app/cli/exit_codes.h"
#include "app/cli/inputs.h"
#include "app/cli/text_table.h"
#include "core/fabric.h"
#include "core/text.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>

namespace railyard::app::cli {

namespace {

    using Align = TextTable::Align;

    struct CatalogOptions {
        std::vector<std::string> catalogFiles;
        std::string kind;
    };

    std::string modesOf(const core::SwitchModel& sw)
    {
        std::string out;
        for (const core::SwitchMode& mode : sw.modes)
            out += (out.empty() ? "" : ", ") + std::to_string(mode.ports) + " x " + mode.rate.label();
        return out;
    }

    std::string ratesOf(const core::NicModel& nic)
    {
        std::string out;
        for (const auto* rates : { &nic.ibRates, &nic.ethernetRates }) {
            for (const core::PortRate& rate : *rates)
                out += (out.empty() ? "" : ", ") + rate.label();
        }
        return out;
    }

    std::string speedsOf(const core::CableModel& cable)
    {
        std::string out;
        for (int speed : cable.speedsGbps)
            out += (out.empty() ? "" : "/") + std::to_string(speed);
        out += "G";
        if (!cable.lengthsM.empty())
            out += ", " + core::formatNumber(cable.lengthsM.front()) + "-" + core::formatNumber(cable.maxLengthM()) + " m";
        return out;
    }

    void printSection(const char* title, TextTable& table, std::ostream& out)
    {
        out << title << '\n';
        table.print(out);
        out << '\n';
    }

    void printSwitches(const core::Catalog& catalog, std::ostream& out)
    {
        TextTable table({ Align::Left, Align::Left, Align::Left, Align::Left, Align::Left });
        table.addRow({ "id", "fabric", "name", "part", "ports" });
        for (const core::SwitchModel& sw : catalog.switches())
            table.addRow({ sw.id, std::string(core::toString(sw.fabric)), sw.name, sw.part, modesOf(sw) });
        printSection("Switches", table, out);
    }

    void printNics(const core::Catalog& catalog, std::ostream& out)
    {
        TextTable table({ Align::Left, Align::Left, Align::Left, Align::Left });
        table.addRow({ "id", "name", "part", "port rates" });
        for (const core::NicModel& nic : catalog.nics())
            table.addRow({ nic.id, nic.name, nic.part, ratesOf(nic) });
        printSection("NICs", table, out);
    }

    void printNodeTypes(const core::Catalog& catalog, std::ostream& out)
    {
        TextTable table({ Align::Left, Align::Left, Align::Right, Align::Right, Align::Left });
        table.addRow({ "id", "name", "GPUs", "rails", "NIC" });
        for (const core::NodeType& node : catalog.nodeTypes())
            table.addRow({ node.id, node.name, std::to_string(node.gpus), std::to_string(node.rails), node.nic });
        printSection("Node types", table, out);
    }

    void printCables(const core::Catalog& catalog, std::ostream& out)
    {
        TextTable table({ Align::Left, Align::Left, Align::Left, Align::Left, Align::Left });
        table.addRow({ "id", "medium", "name", "part", "speeds, lengths" });
        for (const core::CableModel& cable : catalog.cables())
            table.addRow({ cable.id, std::string(core::toString(cable.medium)), cable.name, cable.part, speedsOf(cable) });
        printSection("Cables", table, out);
    }

    void printTransceivers(const core::Catalog& catalog, std::ostream& out)
    {
        TextTable table({ Align::Left, Align::Left, Align::Left, Align::Left, Align::Left });
        table.addRow({ "id", "form", "name", "part", "links x speed, reach" });
        for (const core::TransceiverModel& t : catalog.transceivers())
            table.addRow({ t.id, t.form, t.name, t.part,
                std::to_string(t.ports) + " x " + std::to_string(t.speedGbps) + "G, " + core::formatNumber(t.reachM) + " m" });
        printSection("Transceivers", table, out);
    }

    int runCatalog(const CatalogOptions& options)
    {
        InputOptions input;
        input.catalogFiles = options.catalogFiles;
        core::Result<core::Catalog> catalog = loadCatalog(input);
        if (!catalog) {
            printErrors(catalog.errors());
            return kExitBadInput;
        }
        const std::string& k = options.kind;
        if (k.empty() || k == "switches")
            printSwitches(*catalog, std::cout);
        if (k.empty() || k == "nics")
            printNics(*catalog, std::cout);
        if (k.empty() || k == "node-types")
            printNodeTypes(*catalog, std::cout);
        if (k.empty() || k == "cables")
            printCables(*catalog, std::cout);
        if (k.empty() || k == "transceivers")
            printTransceivers(*catalog, std::cout);
        return kExitOk;
    }

} // namespace

Command addCatalogCommand(CLI::App& root)
{
    auto options = std::make_shared<CatalogOptions>();
    CLI::App* cmd = root.add_subcommand("catalog", "List the parts a spec may name: switches, NICs, node types, cables, transceivers");
    cmd->footer("Exit status: 0 listed, 2 a --catalog file is unreadable or invalid.");
    cmd->add_option("--catalog", options->catalogFiles, "Add the parts of a catalog FILE to the built-in catalog (repeatable)")
        ->type_name("FILE");
    cmd->add_option("--kind", options->kind, "Only one kind: switches, nics, node-types, cables, transceivers")
        ->check(CLI::IsMember({ "switches", "nics", "node-types", "cables", "transceivers" }));
    return { cmd, [options] { return runCatalog(*options); } };
}

} // namespace railyard::app::cli
