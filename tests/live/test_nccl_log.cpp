// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// The NCCL log analyser against the real logs in ../shared/fixtures (nccl-debug-*.txt,
// nccl-warn-*.txt, NCCL 2.4.7 to 2.29.3), then the forms no fixture holds, written after
// NCCL's own format strings (NVIDIA/nccl history).
#include "live/common/nccl_log.h"
#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace railyard::live {
namespace {

    using test::anyContains;
    using test::sharedFixture;

    NcclLogReport parseFixture(const std::string& name)
    {
        auto result = parseNcclLog(sharedFixture(name));
        EXPECT_TRUE(result.ok()) << name << ": " << (result.ok() ? std::string() : result.error().toString());
        return result.ok() ? std::move(result).value() : NcclLogReport {};
    }

    NcclLogReport parseText(const std::string& text)
    {
        auto result = parseNcclLog(text);
        EXPECT_TRUE(result.ok()) << (result.ok() ? std::string() : result.error().toString());
        return result.ok() ? std::move(result).value() : NcclLogReport {};
    }

    std::vector<std::string> codes(const NcclLogReport& r)
    {
        std::vector<std::string> out;
        for (const auto& f : r.findings)
            out.push_back(f.code);
        return out;
    }

    const core::Finding* finding(const NcclLogReport& r, const std::string& code, const std::string& where = "\x01")
    {
        for (const auto& f : r.findings)
            if (f.code == code && (where == "\x01" || f.where == where))
                return &f;
        return nullptr;
    }

    int countCode(const NcclLogReport& r, const std::string& code)
    {
        return static_cast<int>(std::count_if(r.findings.begin(), r.findings.end(), [&](const core::Finding& f) { return f.code == code; }));
    }

    std::vector<std::string> nicNames(const NcclHostReport& h)
    {
        std::vector<std::string> out;
        for (const auto& n : h.nics)
            out.push_back(n.name);
        return out;
    }

    const NcclHostReport* hostOf(const NcclLogReport& r, const std::string& name)
    {
        for (const auto& h : r.hosts)
            if (h.host == name)
                return &h;
        return nullptr;
    }

    // ---------------------------------------------------------------------------------------
    // The fixtures

    TEST(NcclLog, RoCE8RailGdrdmaDmabufGid3Tc106V2275)
    {
        const auto r = parseFixture("nccl-debug-info-2node-roce-8rail-gdrdma-dmabuf-gid3-tc106-v2.27.5.txt");
        EXPECT_EQ(r.version, "2.27.5");
        EXPECT_EQ(r.cuda, "12.9");
        ASSERT_EQ(r.hosts.size(), 1u);
        const auto& h = r.hosts[0];
        EXPECT_EQ(h.host, "tpgds-aihub0008");
        EXPECT_EQ(nicNames(h), (std::vector<std::string> { "mlx5_0", "mlx5_1", "mlx5_2", "mlx5_5", "mlx5_6", "mlx5_7", "mlx5_8", "mlx5_11" }));
        for (std::size_t i = 0; i < h.nics.size(); ++i) {
            EXPECT_EQ(h.nics[i].index, static_cast<int>(i));
            EXPECT_EQ(h.nics[i].port, 1);
            EXPECT_EQ(h.nics[i].link, "RoCE");
            EXPECT_EQ(h.nics[i].gdr, std::optional<bool>(true)) << h.nics[i].name; // every rail carries GDRDMA channels
        }
        EXPECT_EQ(h.ranks, (std::set<int> { 8, 9, 10, 11, 12, 13, 14, 15 }));
        EXPECT_EQ(h.gpus, (std::set<int> { 0, 1, 2, 3, 4, 5, 6, 7 }));
        EXPECT_EQ(h.netChannelsGdr, 64);
        EXPECT_EQ(h.netChannelsNoGdr, 0);
        EXPECT_EQ(h.dmaBuf, std::optional<bool>(true));
        EXPECT_EQ(h.netPlugin, "IB");
        EXPECT_EQ(h.oob, "enp25s0np0:10.99.91.63<0>");
        EXPECT_EQ(h.ringGdr, std::optional<bool>(true));
        EXPECT_EQ(h.ringPxn, std::optional<bool>(false));
        EXPECT_TRUE(h.gdrPaths.empty()); // no "GPU Direct RDMA Enabled" line in this log
        EXPECT_EQ(r.nics.size(), 8u);
        EXPECT_EQ(r.netChannelsGdr, 64);
        EXPECT_EQ(r.netChannelsNoGdr, 0);
        EXPECT_EQ(r.gidIndex, std::optional<int>(3));
        EXPECT_EQ(r.trafficClass, std::optional<int>(106));
        EXPECT_EQ(r.netPlugin, "IB");
        EXPECT_EQ(r.env.at("NCCL_NET_GDR_LEVEL"), "PIX");
        EXPECT_EQ(r.env.at("NCCL_IB_HCA"), "mlx5_0,mlx5_1,mlx5_2,mlx5_5,mlx5_6,mlx5_7,mlx5_8,mlx5_11");
        EXPECT_TRUE(std::find(r.pluginsLoaded.begin(), r.pluginsLoaded.end(), "net: AWS Libfabric") != r.pluginsLoaded.end());
        const auto& t = r.topology;
        EXPECT_EQ(t.nRanks, std::optional<int>(16));
        EXPECT_EQ(t.nNodes, std::optional<int>(2));
        EXPECT_EQ(t.localRanks, std::optional<int>(8));
        EXPECT_EQ(t.communicators, 1);
        EXPECT_EQ(t.nvls, std::optional<bool>(false)); // NCCL_NVLS_ENABLE=0, 0 nvls channels
        EXPECT_EQ(t.collChannels, std::optional<int>(16));
        EXPECT_EQ(t.crossNic, std::optional<int>(1));
        EXPECT_EQ(t.pxn, std::optional<bool>(false));
        EXPECT_TRUE(t.trees);
        EXPECT_FALSE(t.crossesRails.has_value()); // one host: no connection is seen at both ends
        EXPECT_EQ(t.netPeerGpuKnown, 64);
        EXPECT_EQ(t.netPeerOtherGpu, 32);
        EXPECT_EQ(r.initStarted, 8);
        EXPECT_EQ(r.initCompleted, 8);
        EXPECT_TRUE(r.complete());
        EXPECT_TRUE(r.errors.empty());
        EXPECT_EQ(codes(r), (std::vector<std::string> { "NCCL_CROSS_RAIL_LIKELY" }));
        const auto* likely = finding(r, "NCCL_CROSS_RAIL_LIKELY");
        ASSERT_NE(likely, nullptr);
        EXPECT_EQ(likely->severity, core::Severity::Info);
        EXPECT_NE(likely->message.find("32 of 64 network connections"), std::string::npos) << likely->message;

        const auto doc = toJson(r);
        EXPECT_EQ(doc["tool"], "nccl");
        EXPECT_EQ(doc["version"], "2.27.5");
        EXPECT_EQ(doc["nics"][3]["name"], "mlx5_5");
        EXPECT_EQ(doc["nics"][3]["port"], 1);
        EXPECT_EQ(doc["nics"][3]["link"], "RoCE");
        EXPECT_EQ(doc["nics"][3]["gdr"], true);
        EXPECT_EQ(doc["channels"]["net_gdrdma"], 64);
        EXPECT_EQ(doc["channels"]["net_no_gdrdma"], 0);
        EXPECT_EQ(doc["gid_index"], 3);
        EXPECT_EQ(doc["traffic_class"], 106);
        EXPECT_TRUE(doc["errors"].empty());
        EXPECT_EQ(doc["complete"], true);
        EXPECT_EQ(doc["hosts"][0]["ranks"].size(), 8u);
        EXPECT_EQ(doc["topology"]["n_nodes"], 2);
        EXPECT_EQ(doc["findings"][0]["severity"], "info");
    }

    TEST(NcclLog, RoCEGdrdmaGinPluginV2293)
    {
        const auto r = parseFixture("nccl-debug-info-2node-roce-gdrdma-gin-plugin-v2.29.3-poster-elided.txt");
        EXPECT_EQ(r.version, "2.29.3");
        EXPECT_EQ(r.cuda, "13.1");
        ASSERT_EQ(r.hosts.size(), 1u);
        const auto& h = r.hosts[0];
        EXPECT_EQ(h.host, "tpgds-aihub0003");
        ASSERT_EQ(h.nics.size(), 9u);
        EXPECT_EQ(h.nics[8].name, "mlx5_10");
        EXPECT_EQ(h.nics[8].index, 8);
        EXPECT_EQ(h.nics[8].link, "RoCE");
        EXPECT_FALSE(h.nics[8].gdr.has_value()); // listed, but no channel uses it
        EXPECT_EQ(h.nics[0].gdr, std::optional<bool>(true));
        EXPECT_EQ(h.netChannelsGdr, 64);
        EXPECT_EQ(h.netChannelsNoGdr, 0);
        EXPECT_EQ(h.ranks, (std::set<int> { 0, 1, 2, 3, 4, 5, 6, 7 }));
        EXPECT_EQ(r.gidIndex, std::optional<int>(3));
        EXPECT_EQ(r.trafficClass, std::optional<int>(106));
        EXPECT_EQ(r.topology.ringChannels, std::optional<int>(16));
        EXPECT_EQ(r.topology.nRanks, std::optional<int>(16));
        EXPECT_EQ(r.topology.nNodes, std::optional<int>(2));
        EXPECT_TRUE(std::find(r.pluginsLoaded.begin(), r.pluginsLoaded.end(), "gin: GIN_IB_GDAKI") != r.pluginsLoaded.end());
        EXPECT_EQ(r.initStarted, 8);
        EXPECT_EQ(r.initCompleted, 0); // the paste ends at "Connected all trees"
        EXPECT_FALSE(r.complete());
        EXPECT_EQ(r.otherLines, 3); // the source line, the SGLang line, the poster's "..."
        EXPECT_NE(finding(r, "NCCL_INIT_INCOMPLETE"), nullptr);
        EXPECT_NE(finding(r, "NCCL_CROSS_RAIL_LIKELY"), nullptr);
        EXPECT_EQ(finding(r, "NCCL_NET_NO_GDRDMA"), nullptr);
    }

    TEST(NcclLog, RoceCompletionStatus4VendorErr81HangV2275)
    {
        const auto r = parseFixture("nccl-debug-warn-roce-completion-status4-vendor-err81-hang-v2.27.5.txt");
        // The first line lost its 't': the same process logs as tpgds-aihub0007 further down.
        ASSERT_EQ(r.hosts.size(), 1u);
        EXPECT_EQ(r.hosts[0].host, "tpgds-aihub0007");
        EXPECT_TRUE(anyContains(r.warnings, "'pgds-aihub0007', read as 'tpgds-aihub0007'"));
        EXPECT_EQ(r.hosts[0].ranks, (std::set<int> { 0, 1, 2, 3, 4, 5, 6, 7 }));
        ASSERT_EQ(r.errors.size(), 1u);
        const auto& e = r.errors[0];
        EXPECT_EQ(e.status, 4);
        EXPECT_EQ(e.statusName, "IBV_WC_LOC_PROT_ERR");
        EXPECT_EQ(e.vendorErr, std::optional<int>(81));
        EXPECT_EQ(e.opcode, std::optional<int>(0));
        EXPECT_EQ(e.hca, "mlx5_0");
        EXPECT_EQ(e.host, "tpgds-aihub0007");
        EXPECT_EQ(e.direction, "Send");
        EXPECT_EQ(e.peer, "10.99.91.63<36473>");
        EXPECT_EQ(e.localGid, "::ffff:10.99.91.59");
        EXPECT_EQ(e.remoteGid, "::ffff:10.99.91.63");
        EXPECT_EQ(e.lineNumber, 85);
        EXPECT_EQ(e.count, 1);
        EXPECT_NE(e.line.find("vendor err 81 (Send)"), std::string::npos);
        const auto* f = finding(r, "NCCL_IB_COMPLETION_ERROR", "tpgds-aihub0007/mlx5_0");
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->severity, core::Severity::Error);
        EXPECT_NE(f->message.find("local protection"), std::string::npos) << f->message;
        EXPECT_NE(f->message.find("ACS"), std::string::npos) << f->message;
        EXPECT_EQ(r.topology.algorithm, "Ring");
        EXPECT_EQ(r.topology.protocol, "Simple");
        EXPECT_EQ(r.topology.nRanks, std::optional<int>(16));
        EXPECT_EQ(r.topology.nvlsChannels, std::optional<int>(0));
        EXPECT_EQ(r.initCompleted, 8);
        EXPECT_FALSE(r.complete()); // an error
        EXPECT_TRUE(r.version.empty());

        const auto doc = toJson(r);
        EXPECT_EQ(doc["errors"][0]["status"], 4);
        EXPECT_EQ(doc["errors"][0]["vendor_err"], 81);
        EXPECT_EQ(doc["errors"][0]["vendor_err_hex"], "0x51");
        EXPECT_EQ(doc["errors"][0]["hca"], "mlx5_0");
        EXPECT_FALSE(doc.contains("version")); // not printed: left out, so doc.value("version", ...) works
        EXPECT_EQ(doc.value("version", std::string("none")), "none");
    }

    TEST(NcclLog, IbCompletionStatus12VendorErr129HpcxPlugin)
    {
        const auto r = parseFixture("nccl-warn-ib-completion-status12-vendor-err129-hpcx-plugin-ipv6-gid-PARTIAL.txt");
        ASSERT_EQ(r.errors.size(), 3u); // three distinct (peer port, GID pair) completions
        for (const auto& e : r.errors) {
            EXPECT_EQ(e.status, 12);
            EXPECT_EQ(e.statusName, "IBV_WC_RETRY_EXC_ERR");
            EXPECT_EQ(e.vendorErr, std::optional<int>(129));
            EXPECT_EQ(e.hca, ""); // the plugin does not print it
            EXPECT_EQ(e.direction, "Recv");
            EXPECT_EQ(e.host, "kp-ddp-worker-0");
        }
        EXPECT_EQ(r.errors[0].peer, "10.216.210.236<54862>");
        EXPECT_EQ(r.errors[0].localGid, "fd00:1148:9000:5000:4:200:3:ff22");
        EXPECT_EQ(r.errors[0].remoteGid, "fd00:1148:9000:5000:4:200:3:ff1f"); // "remoteGidsfd00:..." (no space)
        EXPECT_EQ(r.errors[1].opcode, std::optional<int>(32616));
        EXPECT_EQ(r.errors[2].peer, "10.216.210.236<49892>");
        EXPECT_EQ(countCode(r, "NCCL_IB_COMPLETION_ERROR"), 1); // one per host, HCA, status and vendor error
        const auto* f = finding(r, "NCCL_IB_COMPLETION_ERROR", "kp-ddp-worker-0");
        ASSERT_NE(f, nullptr);
        EXPECT_NE(f->message.find("3 completion errors"), std::string::npos) << f->message;
        EXPECT_NE(f->message.find("retry counter exceeded"), std::string::npos) << f->message;
        EXPECT_NE(f->message.find("GID index"), std::string::npos) << f->message;
        EXPECT_NE(f->message.find("PFC"), std::string::npos) << f->message;
        EXPECT_NE(f->message.find("129 (0x81)"), std::string::npos) << f->message;
        const auto doc = toJson(r);
        EXPECT_EQ(doc["errors"].size(), 3u);
        EXPECT_EQ(doc["errors"][0]["vendor_err_hex"], "0x81");
        EXPECT_FALSE(doc["errors"][0].contains("hca"));
        EXPECT_EQ(doc["errors"][0]["line"].get<std::string>().substr(0, 26), "kp-ddp-worker-0:3468:3905 ");
    }

    TEST(NcclLog, IbNoGdrRingViaNetIb0GdrDisabledDistanceV247)
    {
        const auto r = parseFixture("nccl-debug-info-ib-no-gdr-ring-via-net-ib-0-gdr-disabled-distance-v2.4.7-PARTIAL.txt");
        ASSERT_EQ(r.hosts.size(), 2u);
        EXPECT_EQ(r.hosts[0].host, "master_node");
        EXPECT_EQ(r.hosts[1].host, "secondary_node");
        const auto& m = r.hosts[0];
        EXPECT_EQ(m.ranks, (std::set<int> { 0, 1, 2, 3 }));
        EXPECT_EQ(r.hosts[1].ranks, (std::set<int> { 4, 5, 6, 7 }));
        ASSERT_EQ(m.nics.size(), 1u);
        EXPECT_EQ(m.nics[0].index, 0);
        EXPECT_EQ(m.nics[0].name, ""); // this excerpt has no "NET/IB : Using" line
        EXPECT_EQ(m.nics[0].gdr, std::optional<bool>(false));
        EXPECT_NE(m.nics[0].gdrReason.find("too far"), std::string::npos);
        ASSERT_EQ(m.gdrPaths.size(), 2u);
        EXPECT_EQ(m.gdrPaths[0].gpu, "2[2]");
        EXPECT_FALSE(m.gdrPaths[0].gpuIsRank);
        EXPECT_EQ(m.gdrPaths[0].hca, 0);
        EXPECT_FALSE(m.gdrPaths[0].enabled);
        EXPECT_EQ(m.gdrPaths[0].distance, std::optional<int>(3));
        EXPECT_EQ(m.gdrPaths[0].limit, std::optional<int>(2));
        EXPECT_EQ(m.gdrPaths[0].distanceName, "NODE"); // 2.4's scale: PIX PXB PHB NODE SYS
        EXPECT_EQ(m.gdrPaths[0].limitName, "PHB");
        EXPECT_EQ(m.gdrPaths[1].gpu, "3[3]");
        EXPECT_EQ(m.netChannelsGdr, 0);
        EXPECT_EQ(m.netChannelsNoGdr, 2);
        EXPECT_EQ(r.netChannelsNoGdr, 4);
        EXPECT_EQ(countCode(r, "NCCL_GDR_DISABLED"), 2);
        const auto* gdr = finding(r, "NCCL_GDR_DISABLED", "master_node/HCA 0");
        ASSERT_NE(gdr, nullptr);
        EXPECT_EQ(gdr->severity, core::Severity::Error);
        EXPECT_NE(gdr->message.find("GPU 2[2] and GPU 3[3]"), std::string::npos) << gdr->message;
        EXPECT_NE(gdr->message.find("too far apart in the PCI tree"), std::string::npos) << gdr->message;
        EXPECT_NE(gdr->message.find("NCCL_NET_GDR_LEVEL"), std::string::npos) << gdr->message;
        EXPECT_NE(finding(r, "NCCL_GDR_DISABLED", "secondary_node/HCA 0"), nullptr);
        EXPECT_EQ(countCode(r, "NCCL_NET_NO_GDRDMA"), 2);
        const auto* noGdr = finding(r, "NCCL_NET_NO_GDRDMA", "master_node");
        ASSERT_NE(noGdr, nullptr);
        EXPECT_EQ(noGdr->severity, core::Severity::Warning);
        // "Ring 00 : 6 -> 2": [send] on secondary_node and [receive] on master_node, both via NET/IB/0.
        EXPECT_EQ(r.topology.sameRailPairs, 1);
        EXPECT_EQ(r.topology.crossRailPairs, 0);
        EXPECT_EQ(r.topology.crossesRails, std::optional<bool>(false));
        EXPECT_TRUE(anyContains(r.warnings, "the last line 17"));
        EXPECT_TRUE(anyContains(r.warnings, "GPU Direct RDMA Disab"));
    }

    TEST(NcclLog, RoceChannelsWithoutGdrdmaGdr0)
    {
        const auto r = parseFixture("nccl-debug-info-roce-channels-via-net-ib-without-gdrdma-gdr0-PARTIAL.txt");
        ASSERT_EQ(r.hosts.size(), 1u);
        const auto& h = r.hosts[0];
        EXPECT_EQ(h.host, ""); // the poster removed it: ":22901:22901 [0] NCCL INFO ..."
        ASSERT_EQ(h.nics.size(), 2u);
        EXPECT_EQ(h.nics[0].index, 4);
        EXPECT_EQ(h.nics[1].index, 5);
        EXPECT_EQ(h.nics[0].gdr, std::optional<bool>(false));
        EXPECT_EQ(h.nics[1].gdr, std::optional<bool>(false));
        EXPECT_EQ(h.netChannelsGdr, 0);
        EXPECT_EQ(h.netChannelsNoGdr, 16);
        EXPECT_EQ(h.ringGdr, std::optional<bool>(false));
        EXPECT_EQ(h.ranks, (std::set<int> { 0 }));
        EXPECT_EQ(r.gidIndex, std::optional<int>(3));
        EXPECT_FALSE(r.trafficClass.has_value());
        const auto* f = finding(r, "NCCL_NET_NO_GDRDMA", "");
        ASSERT_NE(f, nullptr);
        EXPECT_NE(f->message.find("16 of 16 network connections"), std::string::npos) << f->message;
        EXPECT_NE(f->message.find("NET/IB/4 and NET/IB/5"), std::string::npos) << f->message;
        EXPECT_EQ(countCode(r, "NCCL_GDR_DISABLED"), 0);
        const auto doc = toJson(r);
        EXPECT_EQ(doc["channels"]["net_no_gdrdma"], 16);
        EXPECT_EQ(doc["nics"][0]["gdr"], false);
        EXPECT_EQ(doc["nics"][0]["index"], 4);
        EXPECT_FALSE(doc["nics"][0].contains("name"));
        EXPECT_FALSE(doc["nics"][0].contains("link"));
        EXPECT_EQ(doc["gid_index"], 3);
        EXPECT_EQ(doc["traffic_class"], nullptr);
    }

    TEST(NcclLog, RoceGdrDisabledForHcaDespitePeermem)
    {
        const auto r = parseFixture("nccl-debug-info-roce-gdr-disabled-for-hca-despite-peermem-PARTIAL.txt");
        ASSERT_EQ(r.hosts.size(), 1u);
        const auto& h = r.hosts[0];
        EXPECT_EQ(h.host, "hostname1");
        EXPECT_EQ(nicNames(h), (std::vector<std::string> { "mlx5_0", "mlx5_1" }));
        for (const auto& n : h.nics) {
            EXPECT_EQ(n.link, "RoCE");
            EXPECT_EQ(n.gdr, std::optional<bool>(false));
            EXPECT_NE(n.gdrReason.find("neither nvidia-peermem nor dma-buf"), std::string::npos) << n.gdrReason;
        }
        EXPECT_EQ(h.oob, "primaryip:10.10.10.10<0>");
        EXPECT_EQ(r.netPlugin, "IB");
        EXPECT_EQ(r.topology.nRanks, std::optional<int>(16));
        const auto* f = finding(r, "NCCL_GDR_DISABLED", "hostname1");
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->severity, core::Severity::Error);
        EXPECT_NE(f->message.find("mlx5_0 [0] and mlx5_1 [1]"), std::string::npos) << f->message;
        EXPECT_NE(f->message.find("nvidia-peermem"), std::string::npos) << f->message;
        EXPECT_NE(finding(r, "NCCL_INIT_INCOMPLETE"), nullptr);
        EXPECT_EQ(r.initStarted, 1);
        EXPECT_EQ(toJson(r)["nics"][1]["gdr"], false);
    }

    TEST(NcclLog, SubsysAllNetIbDeviceProbeV2275)
    {
        const auto r = parseFixture("nccl-debug-subsys-all-net-ib-device-probe-roce-v2.27.5-PARTIAL.txt");
        ASSERT_EQ(r.hosts.size(), 1u);
        const auto& h = r.hosts[0];
        EXPECT_EQ(h.host, "tpgds-aihub0007");
        // Known by name only: the probe's [n] is the verbs device number, not NCCL's index.
        EXPECT_EQ(nicNames(h), (std::vector<std::string> { "mlx5_2", "mlx5_0", "mlx5_5" }));
        for (const auto& n : h.nics) {
            EXPECT_EQ(n.link, "RoCE");
            EXPECT_EQ(n.speedMbps, std::optional<int>(400000));
            EXPECT_EQ(n.index, -1);
            EXPECT_FALSE(n.gdr.has_value());
        }
        EXPECT_EQ(r.env.at("NCCL_IB_DISABLE"), "0");
        EXPECT_EQ(r.env.at("NCCL_SOCKET_IFNAME"), "enp25s0np0");
        EXPECT_EQ(r.env.at("NCCL_IB_HCA"), "mlx5_0,mlx5_1,mlx5_2,mlx5_5,mlx5_6,mlx5_7,mlx5_8,mlx5_11");
        EXPECT_TRUE(r.findings.empty());
        EXPECT_EQ(toJson(r)["nics"][0]["speed_mbps"], 400000);
    }

    TEST(NcclLog, TraceMixedRoceIbGdrEnabledDistanceDmabufV2165)
    {
        const auto r = parseFixture("nccl-debug-trace-2node-mixed-roce-ib-gdr-enabled-distance-dmabuf-v2.16.5.txt");
        EXPECT_EQ(r.version, "2.16.5"); // the bare "NCCL version 2.16.5+cuda11.8" line
        EXPECT_EQ(r.cuda, "11.8");
        ASSERT_EQ(r.hosts.size(), 1u);
        const auto& h = r.hosts[0];
        EXPECT_EQ(h.host, "n013");
        ASSERT_EQ(h.nics.size(), 2u);
        EXPECT_EQ(h.nics[0].name, "mlx5_0");
        EXPECT_EQ(h.nics[0].link, "RoCE");
        EXPECT_EQ(h.nics[1].name, "mlx5_2");
        EXPECT_EQ(h.nics[1].link, "IB");
        EXPECT_EQ(h.nics[0].gdr, std::optional<bool>(true));
        EXPECT_EQ(h.nics[1].gdr, std::optional<bool>(true));
        ASSERT_EQ(h.gdrPaths.size(), 2u); // repeated lines count once
        EXPECT_EQ(h.gdrPaths[0].gpu, "81000");
        EXPECT_FALSE(h.gdrPaths[0].gpuIsRank);
        EXPECT_EQ(h.gdrPaths[0].hca, 1);
        EXPECT_TRUE(h.gdrPaths[0].enabled);
        EXPECT_EQ(h.gdrPaths[0].distance, std::optional<int>(6));
        EXPECT_EQ(h.gdrPaths[0].distanceName, "PHB");
        EXPECT_EQ(h.gdrPaths[0].limitName, "SYS"); // NCCL_NET_GDR_LEVEL=SYS
        EXPECT_EQ(h.gdrPaths[1].hca, 0);
        EXPECT_EQ(h.netChannelsGdr, 6); // four GDRDMA, two GDRDMA/Shared
        EXPECT_EQ(h.netChannelsNoGdr, 0);
        EXPECT_EQ(h.dmaBuf, std::optional<bool>(true));
        EXPECT_EQ(h.oob, "ibp209s0f0:10.128.3.13<0>");
        EXPECT_EQ(r.topology.nRanks, std::optional<int>(2));
        EXPECT_EQ(r.topology.ringChannels, std::optional<int>(2));
        EXPECT_EQ(r.topology.crossNic, std::optional<int>(0));
        EXPECT_TRUE(r.topology.trees);
        EXPECT_EQ(r.topology.netPeerGpuKnown, 0); // "[81000]" are bus ids, not device indices
        EXPECT_EQ(r.initCompleted, 1);
        EXPECT_TRUE(r.complete());
        EXPECT_TRUE(r.findings.empty());
        EXPECT_EQ(r.otherLines, 17); // the source line and nccl-tests' lines
        EXPECT_TRUE(anyContains(r.warnings, "17 lines that are not NCCL's"));
    }

    TEST(NcclLog, EveryFixtureParses)
    {
        for (const char* name : { "nccl-debug-info-2node-roce-8rail-gdrdma-dmabuf-gid3-tc106-v2.27.5.txt",
                 "nccl-debug-info-2node-roce-gdrdma-gin-plugin-v2.29.3-poster-elided.txt",
                 "nccl-debug-info-ib-no-gdr-ring-via-net-ib-0-gdr-disabled-distance-v2.4.7-PARTIAL.txt",
                 "nccl-debug-info-roce-channels-via-net-ib-without-gdrdma-gdr0-PARTIAL.txt",
                 "nccl-debug-info-roce-gdr-disabled-for-hca-despite-peermem-PARTIAL.txt",
                 "nccl-debug-subsys-all-net-ib-device-probe-roce-v2.27.5-PARTIAL.txt",
                 "nccl-debug-trace-2node-mixed-roce-ib-gdr-enabled-distance-dmabuf-v2.16.5.txt",
                 "nccl-debug-warn-roce-completion-status4-vendor-err81-hang-v2.27.5.txt",
                 "nccl-warn-ib-completion-status12-vendor-err129-hpcx-plugin-ipv6-gid-PARTIAL.txt" }) {
            const auto r = parseFixture(name);
            EXPECT_FALSE(r.hosts.empty()) << name;
            const auto doc = toJson(r);
            for (const char* key : { "tool", "nics", "channels", "gid_index", "traffic_class", "errors", "findings", "hosts", "warnings" })
                EXPECT_TRUE(doc.contains(key)) << name << " " << key;
            // Read as the CLI reads it: strings by value(key, default), which throws on a null.
            EXPECT_NO_THROW({
                (void)doc.value("version", std::string());
                for (const auto& h : doc["hosts"])
                    for (const auto& n : h["nics"])
                        (void)(n.value("name", std::string("?")) + n.value("link", std::string("?")));
                for (const auto& e : doc["errors"])
                    (void)e.value("hca", std::string());
            }) << name;
            for (const auto& f : doc["findings"]) {
                EXPECT_FALSE(f["message"].get<std::string>().empty());
                EXPECT_TRUE(f.contains("where"));
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // Input that is not NCCL's

    TEST(NcclLog, NoNcclLineIsAnError)
    {
        for (const std::string& text : { std::string(), std::string("hello\nworld\n"), std::string("\x01\x02garbage\xff\n\n"),
                 sharedFixture("nccl-allreduce-2node-16xH100-ib-nebius-dstack.txt"),
                 sharedFixture("ibstat-4ca-cx4lx-roce-plus-cx6-hdr-ib-mixed-nccl-tests-350.txt"),
                 // Prose that names NCCL's markers is no log line.
                 std::string("# the log shows interleaved NCCL WARN lines and NCCL INFO lines\n") }) {
            const auto result = parseNcclLog(text);
            ASSERT_FALSE(result.ok()) << text.substr(0, 60);
            EXPECT_EQ(result.error().code, "TOOL_OUTPUT");
            EXPECT_NE(result.error().message.find("no NCCL log line"), std::string::npos);
        }
    }

    TEST(NcclLog, OneNcclLineInANcclTestsRunIsRecognised)
    {
        // nccl-tests output with one stray INFO line: NCCL's, though it says little.
        const auto r = parseFixture("nccl-allreduce-1node-8xA100-pre2.13-format-validation0.txt");
        ASSERT_EQ(r.hosts.size(), 1u);
        EXPECT_EQ(r.hosts[0].host, "hostname");
        EXPECT_EQ(r.ncclLines, 1);
        EXPECT_TRUE(r.findings.empty());
    }

    // ---------------------------------------------------------------------------------------
    // Streaming

    TEST(NcclLog, StreamingEqualsWholeTextWithCrlfAndNoFinalNewline)
    {
        const std::string text = sharedFixture("nccl-debug-info-2node-roce-8rail-gdrdma-dmabuf-gid3-tc106-v2.27.5.txt");
        NcclLogParser parser;
        EXPECT_FALSE(parser.recognised());
        std::size_t pos = 0;
        int lines = 0;
        while (pos < text.size()) {
            auto end = text.find('\n', pos);
            if (end == std::string::npos)
                end = text.size();
            parser.feed(text.substr(pos, end - pos) + "\r\n");
            if (++lines == 1) {
                EXPECT_FALSE(parser.recognised()); // the source line
            }
            pos = end + 1;
        }
        EXPECT_TRUE(parser.recognised());
        const auto streamed = toJson(parser.finish());
        auto whole = parseNcclLog(text);
        ASSERT_TRUE(whole.ok());
        EXPECT_EQ(streamed, toJson(*whole));
        EXPECT_EQ(streamed["channels"]["net_gdrdma"], 64);
    }

    TEST(NcclLog, CutLastLineIsToleratedAnywhere)
    {
        const std::string text = sharedFixture("nccl-debug-warn-roce-completion-status4-vendor-err81-hang-v2.27.5.txt");
        const auto full = parseText(text);
        ASSERT_EQ(full.errors.size(), 1u);
        // Cut the WARN line at every position: never an error, never a wrong status.
        const auto warnAt = text.find("[2026-03-03 12:35:26]");
        ASSERT_NE(warnAt, std::string::npos);
        const auto warnEnd = text.find('\n', warnAt);
        for (std::size_t cut = warnAt + 1; cut < warnEnd; cut += 7) {
            const auto r = parseText(text.substr(0, cut));
            for (const auto& e : r.errors) {
                EXPECT_EQ(e.status, 4) << cut;
                if (e.vendorErr) {
                    EXPECT_TRUE(*e.vendorErr == 81 || *e.vendorErr == 8) << cut; // "vendor err 8" of a cut "81"
                }
            }
            EXPECT_EQ(r.hosts.size(), 1u) << cut;
        }
        // Cut inside "with status=": the error cannot be read, and a warning says the last line is cut.
        const auto status = text.find("status=4", warnAt);
        const auto r = parseText(text.substr(0, status + 3));
        EXPECT_TRUE(r.errors.empty());
        EXPECT_TRUE(anyContains(r.warnings, "the last line 85")) << testing::PrintToString(r.warnings);
    }

    TEST(NcclLog, CutChannelLineIsNotCountedAsNoGdr)
    {
        const auto r = parseText("h1:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA\n"
                                 "h1:1:1 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDR");
        EXPECT_EQ(r.netChannelsGdr, 1);
        EXPECT_EQ(r.netChannelsNoGdr, 0);
        EXPECT_TRUE(anyContains(r.warnings, "the last line 2"));
    }

    // ---------------------------------------------------------------------------------------
    // Forms no fixture holds (NCCL's format strings over its history)

    TEST(NcclLog, CompletionErrorFormsOfEveryRelease)
    {
        const auto r = parseText(
            // 2.4-2.9
            "a:1:2 [0] NCCL WARN NET/IB : Got completion with error 12, opcode 1, len 32561, vendor err 129\n"
            // 2.10-2.19
            "a:1:2 [0] transport/net_ib.cc:1045 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<45678> with error 5, opcode 0, "
            "len 0, vendor err 249 (Recv)\n"
            // 2.28.9+
            "b:3:4 [1] transport/net_ib/p2p.cc:688 NCCL WARN NET/IB: Got completion from peer 10.0.0.1<1234> with status=IBV_WC_RETRY_EXC_ERR(12) "
            "opcode=IBV_WC_RDMA_WRITE(1) reqSize=0 vendor_err=129 req_type=Send localGid ::ffff:10.0.0.2 remoteGids::ffff:10.0.0.1 hca mlx5_3\n"
            "b:3:4 [1] transport/net_ib/p2p.cc:688 NCCL WARN NET/IB: Got completion from peer 10.0.0.1<1234> with status=IBV_WC_RETRY_EXC_ERR(12) "
            "opcode=IBV_WC_RDMA_WRITE(1) reqSize=0 vendor_err=129 req_type=Send localGid ::ffff:10.0.0.2 remoteGids::ffff:10.0.0.1 hca mlx5_3\n"
            // TRACE of a successful completion: no error
            "b:3:4 [1] 12.345678 ncclIbCompletionEventProcess:712 NCCL TRACE Got completion from peer 10.0.0.1<1234> with status=0 opcode=0 len=0\n");
        ASSERT_EQ(r.errors.size(), 3u);
        EXPECT_EQ(r.errors[0].status, 12);
        EXPECT_EQ(r.errors[0].vendorErr, std::optional<int>(129));
        EXPECT_EQ(r.errors[0].opcode, std::optional<int>(1));
        EXPECT_EQ(r.errors[0].peer, "");
        EXPECT_EQ(r.errors[1].status, 5);
        EXPECT_EQ(r.errors[1].statusName, "IBV_WC_WR_FLUSH_ERR");
        EXPECT_EQ(r.errors[1].vendorErr, std::optional<int>(249));
        EXPECT_EQ(r.errors[1].peer, "10.0.0.2<45678>");
        EXPECT_EQ(r.errors[2].status, 12);
        EXPECT_EQ(r.errors[2].statusName, "IBV_WC_RETRY_EXC_ERR");
        EXPECT_EQ(r.errors[2].opcode, std::optional<int>(1));
        EXPECT_EQ(r.errors[2].vendorErr, std::optional<int>(129));
        EXPECT_EQ(r.errors[2].hca, "mlx5_3");
        EXPECT_EQ(r.errors[2].host, "b");
        EXPECT_EQ(r.errors[2].direction, "Send");
        EXPECT_EQ(r.errors[2].remoteGid, "::ffff:10.0.0.1");
        EXPECT_EQ(r.errors[2].count, 2);
        EXPECT_EQ(countCode(r, "NCCL_IB_COMPLETION_ERROR"), 3);
        const auto* flush = finding(r, "NCCL_IB_COMPLETION_ERROR", "a");
        ASSERT_NE(flush, nullptr);
        EXPECT_NE(finding(r, "NCCL_IB_COMPLETION_ERROR", "b/mlx5_3"), nullptr);
        EXPECT_TRUE(r.findings.size() == 3u) << testing::PrintToString(codes(r)); // completion WARNs are not NCCL_WARN too
    }

    TEST(NcclLog, OldRingFormsAndSendsWithoutGdrRead)
    {
        // 2.5.7's connection lines (bus ids in brackets), 2.4's ring orders, PXN and "(PCI)" forms of 2.2x.
        const auto r = parseText("NCCL version 2.5.7+cuda10.1\n"
                                 "s:1:1 [0] NCCL INFO Ring 00 :    0   1   2   3\n"
                                 "s:1:1 [0] NCCL INFO Ring 01 :    0   1   2   3\n"
                                 "s:1:1 [0] NCCL INFO Ring 00 : 15[41000] -> 0[1b000] [receive] via NET/IB/0/GDRDMA\n"
                                 "s:1:1 [0] NCCL INFO Ring 00 : 0[1b000] -> 1[1c000] via P2P/IPC\n"
                                 "s:1:1 [0] NCCL INFO Ring 01 : 0[1b000] -> 15[41000] [send] via NET/IB/0\n"
                                 "s:1:1 [0] NCCL INFO Channel 02/0 : 0[0] -> 8[0] [send] via NET/IB/1(3)/GDRDMA(PCI)/Shared\n");
        EXPECT_EQ(r.topology.ringChannels, std::optional<int>(2));
        const auto& h = r.hosts.at(0);
        EXPECT_EQ(h.ranks, (std::set<int> { 0, 1 }));
        EXPECT_EQ(h.netChannelsGdr, 2);
        EXPECT_EQ(h.netChannelsNoGdr, 1);
        EXPECT_EQ(r.topology.netPeerGpuKnown, 0); // bus ids: the GPU comparison is off
        const auto* f = finding(r, "NCCL_NET_NO_GDRDMA", "s");
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->severity, core::Severity::Info); // sends only: GDR read off, NCCL's default before Ampere
        EXPECT_NE(f->message.find("NCCL_NET_GDR_READ"), std::string::npos) << f->message;
    }

    TEST(NcclLog, SocketTransportInsteadOfRdma)
    {
        const auto r = parseText("n1:10:10 [0] NCCL INFO NET/IB : No device found.\n"
                                 "n1:10:10 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0> [1]eth1:10.1.0.1<0>\n"
                                 "n1:10:10 [0] NCCL INFO Using network Socket\n"
                                 "n1:10:10 [0] NCCL INFO comm 0x1 rank 0 nRanks 2 nNodes 2 localRanks 1 localRank 0 MNNVL 0\n"
                                 "n1:10:10 [0] NCCL INFO Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Socket/0\n"
                                 "n1:10:10 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/Socket/1\n");
        ASSERT_EQ(r.hosts.size(), 1u);
        EXPECT_EQ(r.netPlugin, "Socket");
        EXPECT_EQ(r.hosts[0].socketInterfaces, (std::vector<std::string> { "eth0:10.0.0.1<0>", "eth1:10.1.0.1<0>" }));
        EXPECT_EQ(r.hosts[0].netChannelsSocket, 2);
        EXPECT_TRUE(r.nics.empty()); // sockets are no RDMA NICs
        const auto* f = finding(r, "NCCL_SOCKET_TRANSPORT", "n1");
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->severity, core::Severity::Warning);
        EXPECT_NE(f->message.find("No device found"), std::string::npos) << f->message;
        EXPECT_EQ(finding(r, "NCCL_NET_NO_GDRDMA"), nullptr);
    }

    TEST(NcclLog, RingsCrossRailsWhenBothEndsAreInTheLog)
    {
        const auto r = parseText(
            "a:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.0.1<0>\n"
            "b:2:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [1]mlx5_1:1/IB [RO]; OOB ib0:10.0.0.2<0>\n"
            "a:1:1 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [send] via NET/IB/0/GDRDMA\n"
            "b:2:2 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] [receive] via NET/IB/1/GDRDMA\n"
            "a:1:1 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] [send] via NET/IB/1/GDRDMA\n"
            "b:2:2 [0] NCCL INFO Channel 01/0 : 0[0] -> 1[1] [receive] via NET/IB/1/GDRDMA\n");
        EXPECT_EQ(r.topology.crossRailPairs, 1);
        EXPECT_EQ(r.topology.sameRailPairs, 1);
        EXPECT_EQ(r.topology.crossesRails, std::optional<bool>(true));
        const auto* f = finding(r, "NCCL_RING_CROSSES_RAILS");
        ASSERT_NE(f, nullptr);
        EXPECT_NE(f->message.find("1 of 2 network connections"), std::string::npos) << f->message;
        EXPECT_EQ(finding(r, "NCCL_CROSS_RAIL_LIKELY"), nullptr); // the confirmed answer replaces the guess
        EXPECT_EQ(r.nics.size(), 2u); // the union: mlx5_0:1 and mlx5_1:1
        ASSERT_NE(hostOf(r, "b"), nullptr);
        EXPECT_EQ(hostOf(r, "b")->nics.at(1).gdr, std::optional<bool>(true));
        EXPECT_FALSE(hostOf(r, "b")->nics.at(0).gdr.has_value());
    }

    TEST(NcclLog, GdrLinesReadWithTheReleasesRules)
    {
        // 2.27: "GPU %d" is the rank, "HCA %lx" a hex id; the scale has C2C and P2C.
        const auto r = parseText("NCCL version 2.27.5+cuda12.9\n"
                                 "h:5:5 [3] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [10]mlx5_10:1/RoCE [RO]; OOB eth0:10.0.0.1<0>\n"
                                 "h:5:5 [3] NCCL INFO GPU Direct RDMA Disabled for GPU 3 / HCA a (distance 9 > 5)\n"
                                 "h:5:5 [3] NCCL INFO GPU Direct RDMA Disabled for GPU 4 / HCA a (distance 9 > 5)\n"
                                 "h:5:5 [3] NCCL INFO GPU Direct RDMA Enabled for GPU 4 / HCA 0 (distance 4 <= 5), read 0 mode Default\n");
        ASSERT_EQ(r.hosts.size(), 1u);
        const auto& h = r.hosts[0];
        ASSERT_EQ(h.gdrPaths.size(), 3u);
        EXPECT_EQ(h.gdrPaths[0].hca, 10);
        EXPECT_TRUE(h.gdrPaths[0].gpuIsRank);
        EXPECT_EQ(h.gdrPaths[0].distanceName, "SYS");
        EXPECT_EQ(h.gdrPaths[0].limitName, "PXB");
        EXPECT_EQ(h.gdrPaths[2].distanceName, "PIX");
        // Rank 4 has GPUDirect RDMA through mlx5_0; rank 3 has none at all: only rank 3 is a finding.
        ASSERT_EQ(countCode(r, "NCCL_GDR_DISABLED"), 1);
        const auto* f = finding(r, "NCCL_GDR_DISABLED", "h/mlx5_10");
        ASSERT_NE(f, nullptr);
        EXPECT_NE(f->message.find("the GPU of rank 3"), std::string::npos) << f->message;
        EXPECT_EQ(f->message.find("rank 4"), std::string::npos) << f->message;
        EXPECT_NE(f->message.find("(SYS)"), std::string::npos) << f->message;
        EXPECT_EQ(h.nics[0].gdr, std::optional<bool>(true));
        EXPECT_EQ(h.nics[1].gdr, std::optional<bool>(false));

        // 2.29: "GPU/0-1 (rank 1) - NET/0-3 (distance ...)"; 2.5-2.23: a bus id and a decimal HCA.
        const auto r29 = parseText("NCCL version 2.29.3+cuda13.1\n"
                                   "h:5:5 [1] NCCL INFO GPU Direct RDMA Disabled for GPU/0-1 (rank 1) - NET/0-3 (distance 9 > 5)\n");
        ASSERT_EQ(r29.hosts.at(0).gdrPaths.size(), 1u);
        EXPECT_EQ(r29.hosts[0].gdrPaths[0].gpu, "1");
        EXPECT_TRUE(r29.hosts[0].gdrPaths[0].gpuIsRank);
        EXPECT_EQ(r29.hosts[0].gdrPaths[0].hca, 3);
        const auto r18 = parseText("NCCL version 2.18.3+cuda12.2\n"
                                   "h:5:5 [0] NCCL INFO GPU Direct RDMA Disabled for GPU 1b000 / HCA 10 (distance 7 > 4)\n");
        EXPECT_EQ(r18.hosts.at(0).gdrPaths.at(0).hca, 10);
        EXPECT_FALSE(r18.hosts[0].gdrPaths[0].gpuIsRank);
        EXPECT_EQ(r18.hosts[0].gdrPaths[0].distanceName, "SYS");
        EXPECT_EQ(r18.hosts[0].gdrPaths[0].limitName, "PXB");
        EXPECT_NE(finding(r18, "NCCL_GDR_DISABLED", "h/HCA 10"), nullptr);
    }

    TEST(NcclLog, NoPeermemModule)
    {
        const auto r = parseText("g:7:7 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB ib0:192.168.11.1<0>\n"
                                 "g:7:7 [0] NCCL INFO NET/IB : GPU Direct RDMA Disabled for HCA 0 'mlx5_0' (no module)\n");
        const auto& h = r.hosts.at(0);
        EXPECT_EQ(h.peermem, std::optional<bool>(false));
        EXPECT_EQ(h.nics.at(0).gdr, std::optional<bool>(false));
        const auto* f = finding(r, "NCCL_GDR_DISABLED", "g/mlx5_0");
        ASSERT_NE(f, nullptr);
        EXPECT_NE(f->message.find("nvidia-peermem kernel module"), std::string::npos) << f->message;
    }

    TEST(NcclLog, PrefixesAndInterleavedLines)
    {
        const auto r = parseText(
            "[1,0]<stdout>:nodeA:100:100 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB [RO]; OOB ib0:10.0.0.1<0>\n"
            "0: nodeB:200:200 [0] NCCL INFO NET/IB : Using [0]mlx5_4:1/IB [RO]; OOB ib0:10.0.0.2<0>\n"
            "2026-03-03 12:35:26 nodeC:300:300 [2] NCCL INFO Using network IB\n"
            "[rank3]:nodeD:400:400 [3] NCCL INFO Using network IB\n"
            // Two processes wrote at once, with and without a blank between the messages.
            "nodeA:100:100 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [send] via NET/IB/0/GDRDMA"
            "nodeB:200:200 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0/GDRDMA\n"
            "nodeA:100:100 [0] NCCL INFO Connected all trees nodeB:200:200 [0] NCCL INFO NCCL_IB_TC set by environment to 106.\n"
            "mpirun noise line\n");
        std::vector<std::string> names;
        for (const auto& h : r.hosts)
            names.push_back(h.host);
        ASSERT_EQ(names, (std::vector<std::string> { "nodeA", "nodeB", "nodeC", "nodeD" }));
        EXPECT_EQ(hostOf(r, "nodeC")->gpus, (std::set<int> { 2 }));
        EXPECT_EQ(hostOf(r, "nodeA")->netChannelsGdr, 1);
        EXPECT_EQ(hostOf(r, "nodeB")->netChannelsGdr, 1);
        EXPECT_EQ(r.topology.crossRailPairs, 1); // mlx5_0 against mlx5_4
        EXPECT_EQ(r.trafficClass, std::optional<int>(106));
        EXPECT_TRUE(r.topology.trees);
        EXPECT_TRUE(anyContains(r.warnings, "two NCCL messages run together"));
        EXPECT_EQ(r.otherLines, 1);
    }

    TEST(NcclLog, NvlsCollnetSharpAndEnvConflicts)
    {
        const auto r = parseText("x:1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB/SHARP [1]mlx5_1:1:1/IB/SHARP [RO]; OOB ib0:10.0.0.1<0>\n"
                                 "x:1:1 [0] NCCL INFO NVLS multicast support is available on dev 0\n"
                                 "x:1:1 [0] NCCL INFO 32 coll channels, 32 collnet channels, 16 nvls channels, 32 p2p channels, 32 p2p channels per peer\n"
                                 "x:1:1 [0] NCCL INFO CollNet 00/0 : 0 [send] via COLLNET/SHARP/0/GDRDMA\n"
                                 "x:1:1 [0] NCCL INFO Connected NVLS\n"
                                 "x:1:1 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 3.\n"
                                 "y:2:2 [0] NCCL INFO NCCL_IB_GID_INDEX set by environment to 5.\n"
                                 "y:2:2 [0] NCCL INFO HINT: In many cases this error occurs when NICs are not cross-rail connected.\n");
        EXPECT_EQ(r.topology.nvls, std::optional<bool>(true));
        EXPECT_EQ(r.topology.nvlsChannels, std::optional<int>(16));
        EXPECT_EQ(r.topology.collChannels, std::optional<int>(32));
        EXPECT_EQ(r.topology.collnet, std::optional<bool>(true));
        EXPECT_TRUE(r.topology.sharp);
        ASSERT_EQ(r.nics.size(), 2u);
        EXPECT_TRUE(r.nics[0].sharp);
        EXPECT_EQ(r.nics[0].link, "IB");
        EXPECT_EQ(r.nics[1].rail, std::optional<int>(1));
        EXPECT_EQ(r.gidIndex, std::optional<int>(3));
        EXPECT_TRUE(anyContains(r.warnings, "NCCL_IB_GID_INDEX differs between processes: 3 and 5"));
        EXPECT_EQ(r.hints, (std::vector<std::string> { "In many cases this error occurs when NICs are not cross-rail connected." }));
    }

    TEST(NcclLog, OtherWarnLinesAreSummarised)
    {
        const auto r = parseText("v1:9:9 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
                                 "v1:9:9 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n"
                                 "v2:8:8 [0] misc/ibvwrap.cc:63 NCCL WARN Failed to open libibverbs.so[.1]\n");
        ASSERT_EQ(countCode(r, "NCCL_WARN"), 2); // per host and message
        ASSERT_EQ(r.findings.size(), 2u);
        EXPECT_EQ(r.findings[0].where, "v1");
        EXPECT_NE(r.findings[0].message.find("(2 times)"), std::string::npos) << r.findings[0].message;
        EXPECT_NE(r.findings[0].message.find("[misc/ibvwrap.cc:63]"), std::string::npos) << r.findings[0].message;
        EXPECT_EQ(r.findings[1].where, "v2");
    }

    // Found by fuzz/fuzz_nccl_log (fuzz/regressions/fuzz_nccl_log/invalid-utf8-in-json-document):
    // a byte that is not UTF-8 in the log made the report's dump() throw.
    TEST(NcclLog, AByteThatIsNotUtf8StillGivesADocumentThatDumps)
    {
        const NcclLogReport r = parseText("h\xffst:1234:1234 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>\n"
                                          "h\xffst:1234:1234 [0] NCCL INFO comm 0x1 rank 0 nranks 2 cudaDev 0 nvmlDev 0 busId 1b000 commId 0x2 - Init START\n");
        std::string dumped;
        ASSERT_NO_THROW(dumped = toJson(r).dump(2));
        EXPECT_NE(dumped.find("h\xef\xbf\xbdst"), std::string::npos) << "the byte is shown as U+FFFD";
    }

} // namespace
} // namespace railyard::live
