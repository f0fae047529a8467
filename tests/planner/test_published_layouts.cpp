// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Every published layout of fabric-facts.md §1 and §8, reproduced exactly.
#include "planner_test_util.h"

using namespace railyard;
using railyard::test::plan;

namespace {

struct Row {
    int nodes;
    long long leaf, spine, core, nodeLeaf, leafSpine, spineCore;
};

void expectCounts(const core::Plan& p, const Row& r)
{
    const auto& s = p.summary;
    EXPECT_EQ(s.switches.leaf, r.leaf) << r.nodes << " nodes";
    EXPECT_EQ(s.switches.spine, r.spine) << r.nodes << " nodes";
    EXPECT_EQ(s.switches.core, r.core) << r.nodes << " nodes";
    EXPECT_EQ(s.cables.nodeLeaf, r.nodeLeaf) << r.nodes << " nodes";
    EXPECT_EQ(s.cables.leafSpine, r.leafSpine) << r.nodes << " nodes";
    EXPECT_EQ(s.cables.spineCore, r.spineCore) << r.nodes << " nodes";
    EXPECT_FALSE(p.hasErrors()) << r.nodes << " nodes: " << (p.findings.empty() ? "" : p.findings.front().message);
}

} // namespace

// RA-11333-001 Table 4: one DGX slot per fabric goes to UFM (4 ports).
TEST(PublishedLayouts, DgxH100Table4)
{
    const Row rows[] = {
        { 31, 8, 4, 0, 252, 256, 0 },
        { 63, 16, 8, 0, 508, 512, 0 },
        { 95, 24, 16, 0, 764, 768, 0 },
        { 127, 32, 16, 0, 1020, 1024, 0 },
    };
    for (const Row& r : rows)
        expectCounts(plan(test::h100(r.nodes, 4)), r);
}

// RA-11333-001 Table 3 and the DGX B200 RA table.
TEST(PublishedLayouts, DgxB200Table)
{
    const Row rows[] = {
        { 64, 16, 8, 0, 512, 512, 0 },
        { 128, 32, 16, 0, 1024, 1024, 0 },
        { 256, 64, 32, 0, 2048, 2048, 0 },
        { 512, 128, 128, 64, 4096, 4096, 4096 },
        { 1024, 256, 256, 128, 8192, 8192, 8192 },
        { 2048, 512, 512, 256, 16384, 16384, 16384 },
    };
    for (const Row& r : rows) {
        auto spec = test::ibSpec("dgx-b200", r.nodes, core::IbGeneration::NDR, "qm9700");
        expectCounts(plan(spec), r);
    }
}

// DGX B300 XDR RA Table 3 (the 18-SU row prints 9216 GPUs; 1296 x 8 = 10,368 is right).
TEST(PublishedLayouts, DgxB300Xdr)
{
    const Row rows[] = {
        { 72, 8, 4, 0, 576, 576, 0 },
        { 144, 16, 8, 0, 1152, 1152, 0 },
        { 288, 32, 18, 0, 2304, 2304, 0 },
        { 576, 64, 36, 0, 4608, 4608, 0 },
        { 1296, 144, 72, 0, 10368, 10368, 0 },
    };
    for (const Row& r : rows) {
        auto p = plan(test::ibSpec("dgx-b300", r.nodes, core::IbGeneration::XDR, "q3400"));
        expectCounts(p, r);
        EXPECT_EQ(p.summary.suSize, 72);
        EXPECT_EQ(p.summary.gpus, r.nodes * 8);
    }
}

// DGX B300 Spectrum-4 (RoCEv2), two planes of 400G; the RA prints cables per 800G cage.
TEST(PublishedLayouts, DgxB300SpectrumTwinPlane)
{
    const Row rows[] = {
        { 64, 16, 8, 0, 1024, 1024, 0 },
        { 128, 32, 16, 0, 2048, 2048, 0 },
        { 256, 64, 32, 0, 4096, 4096, 0 },
        { 512, 128, 64, 0, 8192, 8192, 0 },
        { 1024, 256, 128, 0, 16384, 16384, 0 },
    };
    for (const Row& r : rows) {
        core::PlanSpec s;
        s.fabric = core::Fabric::RoCEv2;
        s.nodeType = "dgx-b300";
        s.nodes = r.nodes;
        s.link.speedGbps = 400;
        s.link.lanes = 4;
        s.planes = 2;
        s.leafSwitch = s.spineSwitch = "sn5600";
        auto p = plan(s);
        expectCounts(p, r);
        EXPECT_EQ(p.summary.suSize, 64);
        EXPECT_EQ(p.summary.tiers, 2);
        EXPECT_DOUBLE_EQ(p.summary.perGpuGbps, 800);
    }
}

// P1 in full: transceivers, bisection, per-GPU bandwidth, LIDs.
TEST(PublishedLayouts, P1DgxH100FourSu)
{
    const auto p = plan(test::h100(127, 4));
    EXPECT_EQ(p.summary.suCount, 4);
    EXPECT_EQ(p.summary.linksPerLeafSpine, 2);
    EXPECT_EQ(p.summary.cables.total(), 2044);
    EXPECT_DOUBLE_EQ(p.summary.bisectionGbps, 1016 * 400 / 2.0);
    EXPECT_DOUBLE_EQ(p.summary.perGpuGbps, 400);
    EXPECT_DOUBLE_EQ(p.summary.port.dataGbps, 400);
    EXPECT_DOUBLE_EQ(p.summary.port.signalingGbps, 425);
    EXPECT_EQ(p.summary.lidsPerSubnet, 1016 + 4 + 48);
    // RA-11333-001 Table 8: all multimode; 1536 switch twin-port, 508 DGX flat-top, 4 UFM single-port.
    for (const auto& l : p.links)
        EXPECT_EQ(l.medium, core::Medium::Mmf);
    long long switchSide = 0, nodeSide = 0;
    for (const auto& line : p.bom) {
        if (line.category != "transceiver")
            continue;
        (line.item.find("switch side") != std::string::npos ? switchSide : nodeSide) += line.quantity;
    }
    EXPECT_EQ(switchSide, 1536);
    EXPECT_EQ(nodeSide, 508 + 4);
    EXPECT_EQ(p.summary.transceivers, 1536 + 508 + 4);
    EXPECT_EQ(test::bomCategory(p, "switch"), 48);
}

// P2: 3 SUs need 16 spines, not 12 (12 does not divide 32 uplinks).
TEST(PublishedLayouts, P2SpineDivisibility)
{
    const auto p = plan(test::h100(95, 4));
    EXPECT_EQ(p.summary.spinesPerGroup, 16);
    EXPECT_EQ(p.summary.linksPerLeafSpine, 2);
    EXPECT_EQ(p.summary.spineDownlinks, 48);
    EXPECT_EQ(p.summary.transceivers, 380 + 1152 + 4);
    EXPECT_DOUBLE_EQ(p.summary.bisectionGbps, 760 * 400 / 2.0);
}

// P3: 64 SUs in the SU-pod form, one link per spine-core pair.
TEST(PublishedLayouts, P3DgxB200SixtyFourSu)
{
    const auto p = plan(test::ibSpec("dgx-b200", 2048, core::IbGeneration::NDR, "qm9700"));
    EXPECT_EQ(p.summary.tiers, 3);
    EXPECT_EQ(p.summary.susPerPod, 1);
    EXPECT_EQ(p.summary.spinesPerGroup, 8);
    EXPECT_EQ(p.summary.linksPerSpineCore, 1);
    EXPECT_EQ(p.summary.transceivers, 8192 + 1280 * 32);
    EXPECT_EQ(p.summary.lidsPerSubnet, 16384 + 1280);
    EXPECT_DOUBLE_EQ(p.summary.bisectionGbps, 16384 * 400 / 2.0);
    for (const auto& d : p.devices) {
        if (d.kind == core::DeviceKind::Switch && d.tier == core::SwitchTier::Core) {
            EXPECT_EQ(d.portsUsed, 64) << d.name;
        }
    }
    EXPECT_FALSE(test::hasFinding(p, "LID_SPACE_EXCEEDED"));
}

TEST(PublishedLayouts, Q6FirstThreeTierSize)
{
    const auto p = plan(test::ibSpec("dgx-b200", 512, core::IbGeneration::NDR, "qm9700"));
    EXPECT_EQ(p.summary.linksPerSpineCore, 4);
}

// P4: 4 SUs of 72 need 18 spines (16 does not divide 72 uplinks).
TEST(PublishedLayouts, P4DgxB300XdrFourSu)
{
    const auto p = plan(test::ibSpec("dgx-b300", 288, core::IbGeneration::XDR, "q3400"));
    EXPECT_EQ(p.summary.spinesPerGroup, 18);
    EXPECT_EQ(p.summary.linksPerLeafSpine, 4);
    EXPECT_EQ(p.summary.spineDownlinks, 128);
    EXPECT_DOUBLE_EQ(p.summary.bisectionGbps, 2304 * 800 / 2.0);
    EXPECT_DOUBLE_EQ(p.summary.perGpuGbps, 800);
    EXPECT_EQ(p.summary.transceivers, 2304 + 32 * 72 + 18 * 64);
}

// P5: 2 SUs of 64, each leaf 8 x 400G to each of its plane's 8 spines.
TEST(PublishedLayouts, P5DgxB300Spectrum)
{
    core::PlanSpec s;
    s.fabric = core::Fabric::RoCEv2;
    s.nodeType = "dgx-b300";
    s.nodes = 128;
    s.link.speedGbps = 400;
    s.planes = 2;
    s.leafSwitch = s.spineSwitch = "sn5600";
    const auto p = plan(s);
    EXPECT_EQ(p.summary.linksPerLeafSpine, 8);
    EXPECT_EQ(p.summary.leafDownlinks, 64);
    EXPECT_EQ(p.summary.leafUplinks, 64);
    EXPECT_DOUBLE_EQ(p.summary.bisectionGbps, 2048 * 400 / 2.0);
    EXPECT_EQ(p.summary.transceivers, 1024 + 32 * 64 + 16 * 64);
    EXPECT_EQ(p.devices[p.links.front().b.device].name, "p1-su1-rail0-leaf");
    EXPECT_EQ(p.portName(p.links.front().a), "node001/nic0-p1");
}
