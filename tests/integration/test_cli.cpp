// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// railyard-cli end to end: commands, help, exit statuses (interfaces.md §2), bad input
// (the bad-spec corpus, missing files, unknown examples, bad catalogs) and the exports.
#include "cli_test_support.h"

#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace {

using namespace railyard::clitest;

// --- commands, help, exit statuses --------------------------------------------------------

TEST(CliCommands, HelpExitsZeroForEveryCommand)
{
    const std::vector<std::vector<std::string>> commands { { "--help" }, { "plan", "--help" },
        { "export", "--help" }, { "export", "bom", "--help" }, { "export", "cables", "--help" },
        { "export", "ibnetdiscover", "--help" }, { "validate", "--help" }, { "catalog", "--help" } };
    const std::set<std::string> takeSpec { "plan", "bom", "cables", "ibnetdiscover", "validate" };
    for (const auto& args : commands) {
        const CliRun run = runCli(args);
        EXPECT_EQ(run.status, 0) << describe(args, run);
        EXPECT_NE(run.out.find("Usage"), std::string::npos) << describe(args, run);
        if (args.size() > 1 && takeSpec.contains(args[args.size() - 2])) {
            EXPECT_NE(run.out.find("--example"), std::string::npos) << describe(args, run);
            EXPECT_NE(run.out.find("--catalog"), std::string::npos) << describe(args, run);
        }
    }
}

TEST(CliCommands, CatalogListsTheParts)
{
    const CliRun run = runCli({ "catalog" });
    EXPECT_EQ(run.status, 0) << run.err;
    for (const char* id : { "qm9700", "q3400", "sn5600", "connectx-7", "dgx-h100", "hgx-8gpu-400g" })
        EXPECT_NE(run.out.find(id), std::string::npos) << id;
    const CliRun bad = runCli({ "catalog", "--catalog", "/nonexistent-railyard-dir/parts.json" });
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("parts.json"), std::string::npos) << bad.err;
}

TEST(CliCommands, VersionExitsZero)
{
    const CliRun run = runCli({ "--version" });
    EXPECT_EQ(run.status, 0);
    EXPECT_NE(run.out.find("railyard-cli"), std::string::npos);
}

TEST(CliCommands, BadCommandLinesAreBadInput)
{
    const std::vector<std::vector<std::string>> commands { {}, { "frobnicate" }, { "plan" },
        { "plan", "--no-such-option" }, { "export" }, { "export", "bom", "--example", "dgx-h100-superpod-1su",
        "--format", "pdf" }, { "plan", "x.plan.json", "--example", "dgx-h100-superpod-1su" },
        { "export", "ibnetdiscover", "--example", "dgx-h100-superpod-1su", "--plane", "0" } };
    for (const auto& args : commands) {
        const CliRun run = runCli(args);
        EXPECT_EQ(run.status, 2) << describe(args, run);
        EXPECT_FALSE(run.err.empty()) << describe(args, run);
    }
}

TEST(CliCommands, ListExamplesListsEveryExample)
{
    const std::vector<std::string> files = exampleFiles();
    const std::set<std::string> required { "dgx-h100-superpod-1su", "dgx-h100-superpod-2su",
        "dgx-h100-superpod-3su", "dgx-h100-superpod-4su", "dgx-b200-superpod-2su", "dgx-b200-superpod-4su",
        "dgx-b200-superpod-8su", "dgx-b200-superpod-16su", "dgx-b200-superpod-32su", "dgx-b200-superpod-64su",
        "dgx-b300-xdr-superpod-1su", "dgx-b300-xdr-superpod-2su", "dgx-b300-xdr-superpod-4su",
        "dgx-b300-xdr-superpod-8su", "dgx-b300-xdr-superpod-18su", "dgx-b300-spectrum4-2su",
        "dgx-b300-spectrum4-16su", "roce-128k-gpu-400g", "ib-ndr-2to1", "ib-ndr-grow", "roce-lossless-demo" };
    for (const std::string& name : required)
        EXPECT_TRUE(std::find(files.begin(), files.end(), name) != files.end()) << name;
    for (const std::vector<std::string>& args : { std::vector<std::string> { "plan", "--list-examples" },
             std::vector<std::string> { "--list-examples" } }) {
        const CliRun run = runCli(args);
        ASSERT_EQ(run.status, 0) << describe(args, run);
        std::set<std::string> listed;
        std::istringstream in(run.out);
        for (std::string line; std::getline(in, line);)
            listed.insert(line.substr(0, line.find(' ')));
        for (const std::string& name : files)
            EXPECT_TRUE(listed.contains(name)) << name << " missing from\n" << run.out;
    }
}

TEST(CliCommands, EveryExampleValidatesWithoutErrors)
{
    for (const std::string& name : exampleFiles()) {
        const CliRun run = runCli({ "validate", "--example", name });
        EXPECT_EQ(run.status, 0) << describe({ "validate", "--example", name }, run) << "\nstdout:\n" << run.out;
    }
}

TEST(CliCommands, GoodSpecFileExitsZero)
{
    const std::string spec = std::string(RAILYARD_SOURCE_DIR) + "/resources/examples/dgx-h100-superpod-4su.plan.json";
    for (const std::string command : { "validate", "plan" }) {
        const CliRun run = runCli({ command, spec });
        EXPECT_EQ(run.status, 0) << describe({ command, spec }, run);
    }
    const fs::path good = fs::path(RAILYARD_TEST_DATA_DIR) / "specs/good";
    if (!fs::is_directory(good))
        return;
    for (const auto& entry : fs::directory_iterator(good)) {
        if (entry.path().extension() != ".json")
            continue;
        const CliRun run = runCli({ "validate", entry.path().string() });
        EXPECT_EQ(run.status, 0) << describe({ "validate", entry.path().string() }, run);
    }
}

TEST(CliCommands, MissingSpecFileIsBadInput)
{
    const std::string missing = "/nonexistent-railyard-dir/cluster.plan.json";
    for (const std::string command : { "plan", "validate" }) {
        const CliRun run = runCli({ command, missing });
        EXPECT_EQ(run.status, 2) << describe({ command, missing }, run);
        EXPECT_NE(run.err.find(missing), std::string::npos) << run.err;
    }
    const CliRun run = runCli({ "export", "bom", missing, "--format", "csv" });
    EXPECT_EQ(run.status, 2) << run.err;
}

TEST(CliCommands, UnknownExampleIsBadInput)
{
    for (const std::string command : { "plan", "validate" }) {
        const CliRun run = runCli({ command, "--example", "no-such-example" });
        EXPECT_EQ(run.status, 2) << describe({ command, "--example", "no-such-example" }, run);
        EXPECT_NE(run.err.find("no-such-example"), std::string::npos) << run.err;
    }
}

TEST(CliCommands, BadCatalogFileIsBadInput)
{
    TempDir dir;
    const fs::path broken = dir.path() / "broken-catalog.json";
    std::ofstream(broken) << "{ \"switches\": [ { \"id\": ";
    const std::vector<std::string> cases { broken.string(), (dir.path() / "missing-catalog.json").string() };
    for (const std::string& catalog : cases) {
        const std::vector<std::string> args { "plan", "--example", "dgx-h100-superpod-1su", "--catalog", catalog };
        const CliRun run = runCli(args);
        EXPECT_EQ(run.status, 2) << describe(args, run);
        EXPECT_NE(run.err.find(fs::path(catalog).filename().string()), std::string::npos) << run.err;
    }
    const fs::path corpus = fs::path(RAILYARD_TEST_DATA_DIR) / "catalog/bad";
    if (!fs::is_directory(corpus))
        return;
    for (const auto& entry : fs::directory_iterator(corpus)) {
        if (entry.path().extension() != ".json")
            continue;
        const CliRun run = runCli({ "validate", "--example", "dgx-h100-superpod-1su", "--catalog", entry.path().string() });
        EXPECT_EQ(run.status, 2) << entry.path() << "\n" << run.err;
    }
}

TEST(CliCommands, CatalogFilesAddParts)
{
    TempDir dir;
    // Two user catalogs (repeatable --catalog), each adding a renamed copy of the QM9700.
    auto writeCatalog = [&](const std::string& id) {
        const json sw = { { "id", id }, { "name", "Lab switch " + id }, { "vendor", "NVIDIA" },
            { "part", "LAB-" + id }, { "fabric", "infiniband" }, { "cages", 32 }, { "cage_form", "OSFP" },
            { "cage_ports", 2 }, { "rack_units", 1 },
            { "modes", { { { "rate", { { "generation", "NDR" }, { "width", 4 } } }, { "ports", 64 },
                           { "ports_per_cage", 2 } } } } };
        const fs::path path = dir.path() / (id + ".json");
        std::ofstream(path) << json { { "schema", 1 }, { "switches", { sw } } }.dump(2);
        return path.string();
    };
    const std::string leafCatalog = writeCatalog("lab-leaf");
    const std::string spineCatalog = writeCatalog("lab-spine");
    json spec = json::parse(readText(fs::path(RAILYARD_SOURCE_DIR) / "resources/examples/dgx-h100-superpod-1su.plan.json"));
    spec["leaf_switch"] = "lab-leaf";
    spec["spine_switch"] = "lab-spine";
    const std::string specPath = (dir.path() / "lab.plan.json").string();
    std::ofstream(specPath) << spec.dump(2);

    const CliRun withCatalogs = runCli({ "plan", specPath, "--json", "--catalog", leafCatalog, "--catalog", spineCatalog });
    ASSERT_EQ(withCatalogs.status, 0) << withCatalogs.err;
    const json doc = parsePlanDocument(withCatalogs.out);
    ASSERT_TRUE(doc.is_object());
    std::set<std::string> models;
    for (const json& sw : doc["switches"])
        models.insert(sw["model"].get<std::string>());
    EXPECT_EQ(models, (std::set<std::string> { "lab-leaf", "lab-spine" }));

    const CliRun withoutCatalogs = runCli({ "validate", specPath });
    EXPECT_EQ(withoutCatalogs.status, 2);
    EXPECT_NE(withoutCatalogs.err.find("leaf_switch"), std::string::npos) << withoutCatalogs.err;
}

TEST(CliCommands, ErrorFindingsExitOne)
{
    // Two tiers forced on 16 SUs of 64-port switches: beyond the two-tier limit (fabric-facts.md §1.8 rule 4).
    TempDir dir;
    json spec = json::parse(readText(fs::path(RAILYARD_SOURCE_DIR) / "resources/examples/dgx-b200-superpod-16su.plan.json"));
    spec["tiers"] = 2;
    const std::string specPath = (dir.path() / "two-tiers.plan.json").string();
    std::ofstream(specPath) << spec.dump(2);

    const CliRun validate = runCli({ "validate", specPath });
    EXPECT_EQ(validate.status, 1) << validate.err;
    EXPECT_NE(validate.out.find("error"), std::string::npos) << validate.out;
    const CliRun plan = runCli({ "plan", specPath, "--json" });
    EXPECT_EQ(plan.status, 1) << plan.err;
    const json doc = parsePlanDocument(plan.out);
    ASSERT_TRUE(doc.is_object());
    EXPECT_TRUE(std::any_of(doc["findings"].begin(), doc["findings"].end(),
        [](const json& f) { return f["severity"] == "error"; }));
    const CliRun bom = runCli({ "export", "bom", specPath, "--format", "csv" });
    EXPECT_EQ(bom.status, 0) << bom.err; // exports exit 0 / 2; the error findings are noted on stderr
    EXPECT_NE(bom.err.find("error"), std::string::npos);
}

// --- the bad-spec corpus (tests/fixtures/specs/bad/EXPECTED.tsv: file, field-substring, stage) --

struct BadSpec {
    std::string file;
    std::string field;
    std::string stage;
};

std::vector<BadSpec> readBadSpecManifest(const fs::path& manifest)
{
    std::vector<BadSpec> rows;
    std::istringstream in(readText(manifest));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#')
            continue;
        std::vector<std::string> cells;
        std::istringstream cellStream(line);
        for (std::string cell; std::getline(cellStream, cell, '\t');)
            cells.push_back(cell);
        if (cells.size() < 2 || cells[0] == "file")
            continue;
        rows.push_back({ cells[0], cells[1], cells.size() > 2 ? cells[2] : "" });
    }
    return rows;
}

TEST(CliBadSpecs, EveryBadSpecIsBadInputNamingTheField)
{
    const fs::path folder = fs::path(RAILYARD_TEST_DATA_DIR) / "specs/bad";
    const fs::path manifest = folder / "EXPECTED.tsv";
    if (!fs::exists(manifest))
        GTEST_SKIP() << "no bad-spec corpus at " << manifest;
    const std::vector<BadSpec> rows = readBadSpecManifest(manifest);
    ASSERT_FALSE(rows.empty());
    std::set<std::string> listed;
    for (const BadSpec& row : rows) {
        listed.insert(row.file);
        const std::string path = (folder / row.file).string();
        const CliRun run = runCli({ "validate", path });
        // A spec that plans but breaks a design rule is reported as an error finding (exit 1, stdout).
        const bool finding = row.stage.find("finding") != std::string::npos;
        EXPECT_EQ(run.status, finding ? 1 : 2) << row.file << " (" << row.stage << ")\n" << run.err;
        const std::string& text = finding ? run.out : run.err;
        EXPECT_NE(text.find(row.field), std::string::npos)
            << row.file << ": expected '" << row.field << "' in:\n" << text;
    }
    for (const auto& entry : fs::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() == ".json") {
            EXPECT_TRUE(listed.contains(name)) << name << " has no row in EXPECTED.tsv";
        }
    }
}

// Specs that plan but break a design rule: reported as findings (exit 1 for errors), never as bad input.
TEST(CliFindings, RuleBreakingSpecsAreReportedAsFindings)
{
    const fs::path folder = fs::path(RAILYARD_TEST_DATA_DIR) / "specs/findings";
    std::ifstream manifest(folder / "EXPECTED.tsv");
    ASSERT_TRUE(manifest) << folder;
    std::string line;
    std::getline(manifest, line);
    ASSERT_EQ(line, "file\tcode\texit");
    std::set<std::string> listed;
    while (std::getline(manifest, line)) {
        std::stringstream row(line);
        std::string file, code, exit;
        std::getline(row, file, '\t');
        std::getline(row, code, '\t');
        std::getline(row, exit, '\t');
        listed.insert(file);
        const CliRun run = runCli({ "validate", (folder / file).string() });
        EXPECT_EQ(run.status, std::stoi(exit)) << file << "\n" << run.out << run.err;
        EXPECT_NE(run.out.find(code), std::string::npos) << file << ": expected " << code << " in:\n" << run.out;
    }
    for (const auto& entry : fs::directory_iterator(folder)) {
        if (entry.path().extension() == ".json") {
            EXPECT_TRUE(listed.contains(entry.path().filename().string())) << entry.path().filename() << " is not in EXPECTED.tsv";
        }
    }
}

TEST(CliPlan, HumanSummaryNamesTheDesign)
{
    const CliRun run = runCli({ "plan", "--example", "dgx-h100-superpod-4su" });
    ASSERT_EQ(run.status, 0) << run.err;
    for (const char* text : { "DGX H100 SuperPOD", "qm9700", "Switches", "Links", "Bisection", "Per GPU", "LIDs",
             "Bill of materials", "Findings" })
        EXPECT_NE(run.out.find(text), std::string::npos) << text << " missing from\n" << run.out;
}

TEST(CliPlan, JsonToFileEqualsJsonToStdout)
{
    TempDir dir;
    const std::string out = (dir.path() / "plan.json").string();
    const CliRun toFile = runCli({ "plan", "--example", "dgx-h100-superpod-1su", "--json", "--out", out });
    ASSERT_EQ(toFile.status, 0) << toFile.err;
    const CliRun toStdout = runCli({ "plan", "--example", "dgx-h100-superpod-1su", "--json" });
    EXPECT_EQ(readText(out), toStdout.out);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1)
        << "temp files left behind";
}

// --- exports ----------------------------------------------------------------------------------

TEST(CliExport, BomCsvJsonXlsx)
{
    TempDir dir;
    const std::string csv = (dir.path() / "bom.csv").string();
    const std::string js = (dir.path() / "bom.json").string();
    const std::string xlsx = (dir.path() / "bom.xlsx").string();
    for (const auto& [format, path] : { std::pair { "csv", csv }, { "json", js }, { "xlsx", xlsx } }) {
        const CliRun run = runCli({ "export", "bom", "--example", "dgx-h100-superpod-4su", "--format", format, "--out", path });
        EXPECT_EQ(run.status, 0) << format << ": " << run.err;
        EXPECT_GT(fs::exists(path) ? fs::file_size(path) : 0, 0u) << path;
    }
    EXPECT_GE(countLines(readText(csv)), 3);
    const json bom = json::parse(readText(js), nullptr, false);
    ASSERT_TRUE(bom.is_object());
    EXPECT_FALSE(bom["lines"].empty());
    EXPECT_EQ(readText(xlsx).substr(0, 2), "PK");
    EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 3);
}

TEST(CliExport, BomToStdoutButNotXlsx)
{
    const CliRun csv = runCli({ "export", "bom", "--example", "dgx-h100-superpod-1su", "--format", "csv" });
    EXPECT_EQ(csv.status, 0) << csv.err;
    EXPECT_GE(countLines(csv.out), 3);
    const CliRun xlsx = runCli({ "export", "bom", "--example", "dgx-h100-superpod-1su", "--format", "xlsx" });
    EXPECT_EQ(xlsx.status, 2);
    EXPECT_NE(xlsx.err.find("--out"), std::string::npos) << xlsx.err;
}

TEST(CliExport, CablesOneRowPerLink)
{
    TempDir dir;
    const std::string csv = (dir.path() / "cables.csv").string();
    const std::string xlsx = (dir.path() / "cables.xlsx").string();
    CliRun run = runCli({ "export", "cables", "--example", "dgx-h100-superpod-4su", "--format", "csv", "--out", csv });
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(countLines(readText(csv)), 2044 + 1); // header + one row per link
    run = runCli({ "export", "cables", "--example", "dgx-h100-superpod-4su", "--format", "xlsx", "--out", xlsx });
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(readText(xlsx).substr(0, 2), "PK");
}

TEST(CliExport, Ibnetdiscover)
{
    TempDir dir;
    const std::string topo = (dir.path() / "fabric.ibnet").string();
    const CliRun run = runCli({ "export", "ibnetdiscover", "--example", "dgx-h100-superpod-4su", "--out", topo });
    ASSERT_EQ(run.status, 0) << run.err;
    const std::string text = readText(topo);
    EXPECT_EQ(countLinesStartingWith(text, "Switch"), 48);
    EXPECT_GE(countLinesStartingWith(text, "Ca"), 127);
    const CliRun noPlane = runCli({ "export", "ibnetdiscover", "--example", "dgx-h100-superpod-4su", "--plane", "2" });
    EXPECT_EQ(noPlane.status, 2);
    EXPECT_NE(noPlane.err.find("--plane"), std::string::npos) << noPlane.err;
    const CliRun roce = runCli({ "export", "ibnetdiscover", "--example", "roce-lossless-demo" });
    EXPECT_EQ(roce.status, 2);
}

TEST(CliExport, UnwritableOutputIsBadInputAndNamesThePath)
{
    const std::string out = "/nonexistent-railyard-dir/bom.csv";
    const CliRun run = runCli({ "export", "bom", "--example", "dgx-h100-superpod-1su", "--format", "csv", "--out", out });
    EXPECT_EQ(run.status, 2);
    EXPECT_NE(run.err.find(out), std::string::npos) << run.err;
}

// --- topo and NetBox exports --------------------------------------------------------------------

TEST(CliExport, TopoAndNetboxHelp)
{
    for (const std::string sub : { "topo", "netbox" }) {
        const CliRun run = runCli({ "export", sub, "--help" });
        EXPECT_EQ(run.status, 0) << run.err;
        for (const char* option : { "Usage", "--example", "--catalog", "--out", "Exit status" })
            EXPECT_NE(run.out.find(option), std::string::npos) << sub << ": " << option << "\n" << run.out;
    }
    EXPECT_NE(runCli({ "export", "topo", "--help" }).out.find("--plane"), std::string::npos);
    EXPECT_NE(runCli({ "export", "netbox", "--help" }).out.find("--site"), std::string::npos);
}

TEST(CliExport, Topo)
{
    TempDir dir;
    const std::string topo = (dir.path() / "fabric.topo").string();
    const CliRun run = runCli({ "export", "topo", "--example", "dgx-h100-superpod-4su", "--out", topo });
    ASSERT_EQ(run.status, 0) << run.err;
    const std::string text = readText(topo);
    // 48 switches, 127 nodes and 4 UFM ports, each a system section; 2044 links, each listed
    // from both ends.
    EXPECT_EQ(countLinesStartingWith(text, "MQM9700 "), 48);
    EXPECT_EQ(countLinesStartingWith(text, "DGX_H100 "), 127);
    EXPECT_EQ(countLinesStartingWith(text, "HCA mgmt"), 4);
    EXPECT_EQ(countLinesStartingWith(text, "   "), 2 * 2044);
    EXPECT_NE(text.find(" -4x-100G-> "), std::string::npos);
    const CliRun toStdout = runCli({ "export", "topo", "--example", "dgx-h100-superpod-1su" });
    EXPECT_EQ(toStdout.status, 0) << toStdout.err;
    EXPECT_NE(toStdout.out.find("MQM9700 su1-rail0-leaf\n"), std::string::npos);
    const CliRun noPlane = runCli({ "export", "topo", "--example", "dgx-h100-superpod-4su", "--plane", "2" });
    EXPECT_EQ(noPlane.status, 2);
    EXPECT_NE(noPlane.err.find("--plane"), std::string::npos) << noPlane.err;
    const CliRun roce = runCli({ "export", "topo", "--example", "roce-lossless-demo" });
    EXPECT_EQ(roce.status, 2);
    EXPECT_FALSE(roce.err.empty());
}

TEST(CliExport, Netbox)
{
    TempDir dir;
    const fs::path folder = dir.path() / "netbox";
    const CliRun run = runCli({ "export", "netbox", "--example", "dgx-h100-superpod-4su", "--out", folder.string(),
        "--site", "DC 1" });
    ASSERT_EQ(run.status, 0) << run.err;
    const std::string devices = readText(folder / "devices.csv");
    const std::string interfaces = readText(folder / "interfaces.csv");
    const std::string cables = readText(folder / "cables.csv");
    EXPECT_EQ(devices.substr(0, devices.find('\n')), "name,role,manufacturer,device_type,status,site,description");
    EXPECT_EQ(countLines(devices), 1 + 127 + 4 + 48);
    EXPECT_EQ(countLines(interfaces), 1 + 2 * 2044);
    EXPECT_EQ(countLines(cables), 1 + 2044);
    EXPECT_NE(devices.find(",planned,DC 1,"), std::string::npos);
    EXPECT_NE(interfaces.find(",infiniband-ndr,"), std::string::npos);
    EXPECT_NE(cables.find(",C000001 node001/nic0 <-> "), std::string::npos);
    EXPECT_EQ(std::distance(fs::directory_iterator(folder), fs::directory_iterator()), 3);
    const CliRun noOut = runCli({ "export", "netbox", "--example", "dgx-h100-superpod-1su" });
    EXPECT_EQ(noOut.status, 2);
    EXPECT_NE(noOut.err.find("--out"), std::string::npos) << noOut.err;
    const CliRun roce = runCli({ "export", "netbox", "--example", "roce-lossless-demo", "--out",
        (dir.path() / "roce").string() });
    EXPECT_EQ(roce.status, 0) << roce.err;
    EXPECT_NE(readText(dir.path() / "roce" / "interfaces.csv").find(",400gbase-x-"), std::string::npos);
    const fs::path notAFolder = dir.path() / "not-a-folder";
    std::ofstream(notAFolder) << "x";
    const std::string blocked = (notAFolder / "netbox").string();
    const CliRun unwritable = runCli({ "export", "netbox", "--example", "dgx-h100-superpod-1su", "--out", blocked });
    EXPECT_EQ(unwritable.status, 2);
    EXPECT_NE(unwritable.err.find(blocked), std::string::npos) << unwritable.err;
}

} // namespace
