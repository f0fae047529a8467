// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// `railyard-cli live cabling --ibsim` end to end: the plan's ibnetdiscover export with a swapped
// and an unplugged cable (edited as the emulator writes them: both ends of each link), loaded
// into ibsim, brought up by OpenSM, and discovered through libibnetdisc under libumad2sim.
// Skipped when ibsim-utils, opensm or infiniband-diags is missing.
#include "live/client/ib_discovery.h"

#include "core/catalog.h"
#include "core/plan_spec.h"
#include "planner/exporters.h"
#include "planner/planner.h"
#include "tests/integration/ibsim_harness.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <sstream>

using namespace railyard;
using namespace railyard::ibsimtest;

namespace {

constexpr const char* kSpec = R"({ "name": "cabling under ibsim", "fabric": "infiniband", "nodes": 12,
    "node_type": "dgx-h100", "link": { "generation": "NDR", "width": 4 },
    "leaf_switch": "qm9700", "spine_switch": "qm9700" })";

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

/// Index of the port line `[port]` in the block of the node described `node`.
std::size_t portLine(const std::vector<std::string>& text, const std::string& node, int port)
{
    bool inBlock = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto& l = text[i];
        if (l.rfind("Switch", 0) == 0 || l.rfind("Ca", 0) == 0)
            inBlock = l.find("# \"" + node + "\"") != std::string::npos;
        else if (inBlock && l.rfind("[" + std::to_string(port) + "]", 0) == 0)
            return i;
    }
    ADD_FAILURE() << "no port " << port << " on " << node;
    return 0;
}

/// A CA port line's local part ("[1](guid) ") and the rest (the peer).
std::pair<std::string, std::string> splitCaLine(const std::string& line)
{
    const auto at = line.find('"');
    return { line.substr(0, at), line.substr(at) };
}

/// The export with node004's NICs 1 and 2 swapped and node010's NIC 5 unplugged.
std::string faultyExport(const core::Plan& plan)
{
    std::ostringstream out;
    planner::writeIbnetdiscover(plan, out, 1);
    auto text = lines(out.str());
    // Swap: the leaves' port 4 lines trade places, and so do the two adapters' peers.
    const auto leaf1 = portLine(text, "su1-rail1-leaf", 4);
    const auto leaf2 = portLine(text, "su1-rail2-leaf", 4);
    std::swap(text[leaf1], text[leaf2]);
    const auto nic1 = portLine(text, "node004/nic1", 1);
    const auto nic2 = portLine(text, "node004/nic2", 1);
    auto [local1, peer1] = splitCaLine(text[nic1]);
    auto [local2, peer2] = splitCaLine(text[nic2]);
    text[nic1] = local1 + peer2;
    text[nic2] = local2 + peer1;
    // Unplugged: the link disappears from both ends.
    const auto leaf5 = portLine(text, "su1-rail5-leaf", 10);
    const auto nic5 = portLine(text, "node010/nic5", 1);
    text[leaf5] = "# unplugged";
    text[nic5] = "# unplugged";
    std::string joined;
    for (const auto& l : text)
        joined += l + "\n";
    return joined;
}

} // namespace

TEST(IbDiscovery, RateTexts)
{
    EXPECT_EQ(live::linkWidthText(2), "4x");
    EXPECT_EQ(live::linkWidthText(16), "2x");
    EXPECT_EQ(live::linkSpeedText(4, 0, 0), "QDR");
    EXPECT_EQ(live::linkSpeedText(4, 8, 0), "NDR");
    EXPECT_EQ(live::linkSpeedText(4, 0, 1), "FDR10");
    EXPECT_EQ(live::linkSpeedText(0, 0, 0), "");
}

TEST(IbDiscovery, CablingUnderIbsimFindsSwapAndUnplugged)
{
    const Tools tools = findTools();
    if (!tools.missing.empty())
        GTEST_SKIP() << tools.missing;
    auto catalog = core::Catalog::builtin();
    ASSERT_TRUE(catalog.ok());
    auto spec = core::parsePlanSpecText(kSpec, "ibsim.plan.json");
    ASSERT_TRUE(spec.ok()) << spec.error().toString();
    auto plan = planner::makePlan(*spec, *catalog);
    ASSERT_TRUE(plan.ok());

    TempDir dir;
    ASSERT_FALSE(dir.path().empty());
    std::ofstream(dir.path() / "spec.plan.json") << kSpec;
    std::ofstream(dir.path() / "fabric.ibnet") << faultyExport(*plan);
    const std::string socket = uniqueSocketName();

    const auto ibsimLog = dir.path() / "ibsim.log";
    Child ibsim({ tools.ibsim.string(), "-s", "-n", (dir.path() / "fabric.ibnet").string() },
        Env { { "IBSIM_SOCKNAME", socket } }, ibsimLog);
    ASSERT_TRUE(ibsim.started());
    ASSERT_TRUE(waitForText(ibsim, ibsimLog, "Network simulator ready", 15s)) << readFile(ibsimLog);

    Env env { { "IBSIM_SOCKNAME", socket }, { "SIM_HOST", "node001/nic0" }, { "LD_PRELOAD", tools.umad2sim.string() },
        { "OSM_CACHE_DIR", (dir.path() / "cache").string() }, { "OSM_TMP_DIR", dir.path().string() } };
    fs::create_directories(dir.path() / "cache");
    {
        Child opensm({ tools.opensm.string(), "--once", "-f", (dir.path() / "opensm.log").string() }, env,
            dir.path() / "opensm.out");
        const auto status = opensm.waitFor(90s);
        ASSERT_TRUE(status && *status == 0) << readFile(dir.path() / "opensm.out");
        EXPECT_NE(readFile(dir.path() / "opensm.log").find("SUBNET UP"), std::string::npos);
    }

    const auto out = dir.path() / "cabling.json";
    // For a sanitizer build of railyard-cli (no effect on other builds): libumad2sim is preloaded ahead
    // of the ASan runtime, which is intended; and Debian's libumad2sim 0.10 read() copies a whole
    // 320-byte MAD out of a shorter buffer, an overread in that library, not ours: in this one child
    // process the range checks of memcpy/memmove/memset are off; every other ASan check stays on.
    Env cliEnv = env;
    const char* asan = std::getenv("ASAN_OPTIONS");
    cliEnv["ASAN_OPTIONS"] = std::string(asan ? asan : "") + (asan && *asan ? ":" : "") + "verify_asan_link_order=0:replace_intrin=0:intercept_intrin=0";
    Child cli({ RAILYARD_CLI, "live", "cabling", "--plan", (dir.path() / "spec.plan.json").string(), "--ibsim", "--json",
                  "--root-guids", (dir.path() / "roots.txt").string(), "--node-name-map", (dir.path() / "map.txt").string() },
        cliEnv, out);
    const auto status = cli.waitFor(90s);
    ASSERT_TRUE(status) << "railyard-cli did not finish";
    const std::string text = readFile(out);
    EXPECT_EQ(*status, 1) << text;
    // stdout and stderr share the log: libumad2sim prints an "ibwarn:" line before the document.
    const auto open = text.find("{\n");
    ASSERT_NE(open, std::string::npos) << text;
    const auto doc = nlohmann::json::parse(text.substr(open, text.rfind('}') + 1 - open), nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << text;
    std::vector<std::string> got;
    for (const auto& f : doc["findings"])
        got.push_back(f["code"].get<std::string>() + " " + f["where"].get<std::string>());
    const std::vector<std::string> want { "CABLE_MISSING node010/nic5", "CABLE_MISWIRED su1-rail1-leaf/4",
        "CABLE_MISWIRED su1-rail2-leaf/4" };
    EXPECT_EQ(got, want) << text;
    EXPECT_EQ(doc["planned"].get<int>() - 3, doc["matched"].get<int>());
    for (const auto& s : doc["switches"])
        EXPECT_EQ(s["how"], "description") << s.dump();
    // Roots: the spines, by the GUIDs the export gave them (ibsim keeps them).
    const auto roots = readFile(dir.path() / "roots.txt");
    std::size_t spines = 0;
    for (std::uint32_t d = 0; d < plan->devices.size(); ++d) {
        const auto& dev = plan->devices[d];
        if (dev.kind == core::DeviceKind::Switch && dev.tier == core::SwitchTier::Spine) {
            ++spines;
            char guid[24];
            std::snprintf(guid, sizeof guid, "0x%016llx",
                static_cast<unsigned long long>(planner::ibnetdiscoverGuid(*plan, { d, 0, 0 }, 1)));
            EXPECT_NE(roots.find(guid), std::string::npos) << dev.name << " missing from\n" << roots;
        }
    }
    EXPECT_EQ(std::count(roots.begin(), roots.end(), '\n'), static_cast<long>(spines));
    EXPECT_NE(readFile(dir.path() / "map.txt").find("\"su1-rail3-leaf\""), std::string::npos);
}
