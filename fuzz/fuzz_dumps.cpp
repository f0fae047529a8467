// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `live check --dumps` as a whole (live/client/dumps.h, live_check.h): a node's folder of command
// outputs, read as one inventory and checked against a plan. Each tool's reader is fuzzed on its
// own in fuzz_node_tools; this target fuzzes what ties them together: devices from ibstat or
// ibdev2netdev, netdevs, rails, GPUs and their NICs, LLDP neighbours and QoS per netdev, the files
// no reader knows, the ethtool counters, and the checks of the result.
//
// The input: byte 0 bit 0 picks the InfiniBand or the RoCEv2 plan, bit 1 whether the folder is a
// planned node's (the plan's first) or an unplanned one's. The rest is the folder's files, each
// opened by a line "=== NAME" (a name with '/', a NUL or only dots is skipped with its text).
//
// Checked: the folder is read (an inventory, never an error); a device with a rail is the rail
// map's entry of that rail, and no two share one; every LLDP neighbour is on its device's netdev;
// every file that no reader takes is named in a warning (in UTF-8: a name is bytes), and a file of
// a netdev the inventory has is not named as a stray one (a netdev's name reads as UTF-8 too); the
// inventory goes through the agent's JSON and back unchanged, and so do the ethtool counters; the
// counters are of the inventory's devices and netdevs; the report dumps as `live check --json`
// prints it, every finding names a node or a node's port, and the report is incomplete (other
// planned nodes have no folder).
#include "live/client/dumps.h"
#include "live/client/live_check.h"
#include "live/common/inventory_json.h"
#include "live/common/text_scan.h"
#include "fuzz/fuzz_plans.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

using namespace railyard;
namespace fs = std::filesystem;

namespace {

constexpr const char* kTarget = "fuzz_dumps";
constexpr const char* kUnplanned = "spare042";

/// The dumps folder; the node's folder is made in it for each input. Removed at exit (not when
/// libFuzzer is stopped: it leaves with _Exit). The path is never destroyed: a static path would
/// be, before the handler that removes the folder runs (it is registered while the path is made).
const fs::path& dumpsDir()
{
    static const fs::path* const dir = [] {
        const auto* d = new fs::path(fs::temp_directory_path() / ("railyard-fuzz-dumps-" + std::to_string(::getpid())));
        std::error_code ec;
        fs::remove_all(*d, ec);
        fs::create_directories(*d, ec);
        if (ec)
            fuzz::fail(kTarget, "cannot make " + d->string() + ": " + ec.message());
        std::atexit([] {
            std::error_code ignored;
            fs::remove_all(dumpsDir(), ignored);
        });
        return d;
    }();
    return *dir;
}

/// The files of the input: "=== NAME" lines open them. Later files of the same name replace
/// earlier ones, as writing them one after the other would.
std::map<std::string, std::string> filesOf(std::string_view text)
{
    std::map<std::string, std::string> files;
    std::string* current = nullptr;
    for (const std::string_view line : fuzz::lines(text)) {
        if (line.substr(0, 4) == "=== ") {
            const std::string name(line.substr(4));
            const bool usable = !name.empty() && name.find_first_not_of('.') != std::string::npos
                && name.find('/') == std::string::npos && name.find('\0') == std::string::npos && name.size() < 200;
            current = usable ? &(files[name] = std::string()) : nullptr;
            continue;
        }
        if (current) {
            current->append(line);
            current->push_back('\n');
        }
    }
    return files;
}

bool anyWarningOf(const std::vector<std::string>& warnings, const std::string& file)
{
    const std::string prefix = file + ": ";
    for (const std::string& w : warnings)
        if (w.compare(0, prefix.size(), prefix) == 0)
            return true;
    return false;
}

void checkInventory(const live::Inventory& inv, const fuzz::FuzzPlan& planned, const std::map<std::string, std::string>& files)
{
    std::set<int> rails;
    std::set<std::string> netdevs;
    for (const live::RdmaDevice& d : inv.devices) {
        if (d.rail >= 0) {
            RAILYARD_FUZZ_CHECK(kTarget, static_cast<std::size_t>(d.rail) < planned.railMap.size() && planned.railMap[d.rail] == d.name,
                d.name + " has rail " + std::to_string(d.rail) + ", which the rail map gives another device");
            RAILYARD_FUZZ_CHECK(kTarget, rails.insert(d.rail).second, "two devices have rail " + std::to_string(d.rail));
        }
        for (const live::LldpNeighbor& n : d.lldp)
            RAILYARD_FUZZ_CHECK(kTarget, !d.netdev.empty() && n.localInterface == d.netdev,
                d.name + " (netdev '" + d.netdev + "') has a neighbour on '" + n.localInterface + "'");
        if (!d.netdev.empty())
            netdevs.insert(d.netdev);
    }

    // A file no reader takes is named, so that a typo in a name does not pass in silence.
    static const std::set<std::string> kFixed { "ibstat.txt", "ibdev2netdev.txt", "nvidia-smi-topo.txt", "lldpctl.txt", "lsmod.txt" };
    for (const auto& [name, text] : files) {
        if (kFixed.contains(name))
            continue;
        bool taken = false;
        for (const char* prefix : { "ethtool-S-", "mlnx_qos-", "dcb-pfc-" }) {
            const std::string p(prefix);
            if (name.size() > p.size() + 4 && name.compare(0, p.size(), p) == 0 && name.compare(name.size() - 4, 4, ".txt") == 0)
                taken = taken || netdevs.contains(live::text::validUtf8(name.substr(p.size(), name.size() - p.size() - 4)));
        }
        const std::string shown = live::text::validUtf8(name);
        if (!taken) {
            RAILYARD_FUZZ_CHECK(kTarget, anyWarningOf(inv.warnings, shown), name + " is read by no reader and named in no warning");
        } else {
            const bool stray = std::any_of(inv.warnings.begin(), inv.warnings.end(), [&](const std::string& w) {
                return w == shown + ": names a netdev that no RDMA device uses (ibdev2netdev.txt); not read";
            });
            RAILYARD_FUZZ_CHECK(kTarget, !stray, name + " is a file of a netdev the inventory has, and named as one no device uses");
        }
    }

    // What the dumps give goes through the agent's protocol as any inventory does.
    const nlohmann::json doc = live::toJson(inv);
    const std::string text = fuzz::dumpAsCli(doc);
    auto back = live::inventoryFromJson(nlohmann::json::parse(text), "fuzz");
    RAILYARD_FUZZ_CHECK(kTarget, back.ok(), "the inventory's JSON does not read back: " + (back ? std::string() : back.error().toString()));
    RAILYARD_FUZZ_CHECK(kTarget, live::toJson(*back) == doc, "the inventory's JSON reads back different");
}

void checkCounters(const live::CounterSnapshot& counters, const live::Inventory& inv)
{
    for (const live::PortCounters& pc : counters.ports) {
        const bool known = std::any_of(inv.devices.begin(), inv.devices.end(),
            [&](const live::RdmaDevice& d) { return d.name == pc.device && !d.netdev.empty() && d.netdev == pc.netdev && d.rail == pc.rail; });
        RAILYARD_FUZZ_CHECK(kTarget, known, "counters of " + pc.device + " on '" + pc.netdev + "', which the inventory does not have");
    }
    const nlohmann::json doc = live::toJson(counters);
    auto back = live::countersFromJson(nlohmann::json::parse(fuzz::dumpAsCli(doc)), "fuzz");
    RAILYARD_FUZZ_CHECK(kTarget, back.ok(), "the counters' JSON does not read back: " + (back ? std::string() : back.error().toString()));
    RAILYARD_FUZZ_CHECK(kTarget, live::toJson(*back) == doc, "the counters' JSON reads back different");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    (void)fuzz::fuzzPlans(kTarget);
    (void)dumpsDir();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size == 0)
        return 0;
    const fuzz::FuzzPlans& s = fuzz::fuzzPlans(kTarget);
    const fuzz::FuzzPlan& planned = s.plans[data[0] & 1];
    const fs::path& dir = dumpsDir();
    const std::string node = (data[0] & 2) ? std::string(kUnplanned) : planned.firstNode;
    const std::map<std::string, std::string> files = filesOf(fuzz::asText(data + 1, size - 1));

    std::error_code ec;
    fs::remove_all(dir, ec);
    const fs::path folder = dir / node;
    fs::create_directories(folder, ec);
    if (ec)
        fuzz::fail(kTarget, "cannot make " + folder.string() + ": " + ec.message());
    for (const auto& [name, text] : files) {
        std::ofstream out(folder / name, std::ios::binary);
        out << text;
        if (!out)
            fuzz::fail(kTarget, "cannot write " + (folder / name).string());
    }

    auto observed = live::observeDumps(planned.plan, s.catalog, dir);
    RAILYARD_FUZZ_CHECK(kTarget, observed.ok(), "the dumps folder is refused: " + (observed ? std::string() : observed.error().toString()));
    const std::size_t expected = planned.nodes.size() + (planned.nodes.contains(node) ? 0 : 1);
    RAILYARD_FUZZ_CHECK(kTarget, observed->size() == expected, std::to_string(observed->size()) + " observations");
    const live::NodeObservation* ours = nullptr;
    for (const live::NodeObservation& o : *observed) {
        if (o.node == node)
            ours = &o;
        else
            RAILYARD_FUZZ_CHECK(kTarget, o.error && o.error->code == "DUMP_MISSING", o.node + " has no folder but no DUMP_MISSING");
    }
    RAILYARD_FUZZ_CHECK(kTarget, ours && ours->inventory && !ours->error,
        "the node's folder gave no inventory: " + (ours && ours->error ? ours->error->toString() : std::string()));
    const live::Inventory& inv = *ours->inventory;
    RAILYARD_FUZZ_CHECK(kTarget, inv.node == node, "the inventory names node '" + inv.node + "'");
    checkInventory(inv, planned, files);

    std::vector<std::string> warnings;
    checkCounters(live::countersFromDumps(folder, inv, warnings), inv);

    const live::LiveCheckReport report = live::checkFabric(planned.plan, s.catalog, *observed);
    (void)fuzz::dumpAsCli(live::toJson(report));
    RAILYARD_FUZZ_CHECK(kTarget, !report.complete, "the report is complete while planned nodes have no folder");
    for (const core::Finding& f : report.findings) {
        const std::string owner = f.where.substr(0, f.where.find('/'));
        RAILYARD_FUZZ_CHECK(kTarget, planned.nodes.contains(owner) || owner == node,
            f.code + " is about '" + f.where + "', which is no node");
    }
    return 0;
}
