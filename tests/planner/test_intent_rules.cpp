// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Findings about a RoCEv2 profile that the generated configurations depend on: the DSCP-to-priority
// mapping, the CNP priority and the MTU; the interface_mtu field; two-plane addressing.
#include "intent_test_util.h"

#include "planner/host_config.h"

#include <nlohmann/json.hpp>

namespace railyard::test {
namespace {

    const core::Finding* finding(const core::Plan& p, const std::string& code)
    {
        for (const auto& f : p.findings) {
            if (f.code == code)
                return &f;
        }
        return nullptr;
    }

    TEST(IntentRules, TheFixtureProfileIsConsistent)
    {
        const core::Plan p = plan(intentSpec());
        for (const char* code : { "ROCE_DSCP_NOT_ON_PFC_PRIORITY", "CNP_ON_LOSSLESS_PRIORITY", "MTU_TOO_SMALL_FOR_RDMA", "MTU_MISMATCH",
                 "RDMA_MTU_BELOW_4096", "ADDRESS_RANGE_TOO_SMALL", "ASN_RANGE_TOO_SMALL", "ASN_PER_TIER" })
            EXPECT_FALSE(hasFinding(p, code)) << code;
    }

    TEST(IntentRules, PfcPriorityNotWhereTheRoceDscpMaps)
    {
        core::PlanSpec spec = intentSpec();
        spec.lossless.pfcPriorities = { 4 };
        const core::Plan p = plan(spec);
        const core::Finding* f = finding(p, "ROCE_DSCP_NOT_ON_PFC_PRIORITY");
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->severity, core::Severity::Warning);
        EXPECT_EQ(f->where, "lossless.roce_dscp");
        EXPECT_NE(f->message.find("DSCP 26 maps to priority 3"), std::string::npos) << f->message;
        EXPECT_NE(f->message.find("Set roce_dscp to 34 (priority 4)"), std::string::npos) << f->message;

        spec.lossless.roceDscp = 34;
        EXPECT_FALSE(hasFinding(plan(spec), "ROCE_DSCP_NOT_ON_PFC_PRIORITY"));
        spec.lossless.mode = "lossy";
        spec.lossless.roceDscp = 26;
        EXPECT_FALSE(hasFinding(plan(spec), "ROCE_DSCP_NOT_ON_PFC_PRIORITY")) << "no PFC, no lossless priority to miss";
    }

    TEST(IntentRules, CnpOnALosslessPriority)
    {
        core::PlanSpec spec = intentSpec();
        spec.lossless.cnpDscp = 30; // priority 3, the PFC priority
        const core::Plan p = plan(spec);
        const core::Finding* f = finding(p, "CNP_ON_LOSSLESS_PRIORITY");
        ASSERT_NE(f, nullptr);
        EXPECT_NE(f->message.find("cnp_dscp 48"), std::string::npos);
        EXPECT_EQ(f->where, "lossless.cnp_dscp");
        spec.lossless.cnpDscp = 26; // the RoCE DSCP itself: CNP_ON_ROCE_DSCP says it, once
        const core::Plan same = plan(spec);
        EXPECT_TRUE(hasFinding(same, "CNP_ON_ROCE_DSCP"));
        EXPECT_FALSE(hasFinding(same, "CNP_ON_LOSSLESS_PRIORITY"));
    }

    TEST(IntentRules, MtuChecks)
    {
        core::PlanSpec spec = intentSpec();
        spec.lossless.interfaceMtu = 4000;
        const core::Plan small = plan(spec);
        const core::Finding* f = finding(small, "MTU_TOO_SMALL_FOR_RDMA");
        ASSERT_NE(f, nullptr);
        EXPECT_EQ(f->severity, core::Severity::Error);
        EXPECT_NE(f->message.find("RDMA MTU 4096 needs an Ethernet MTU of at least 4192"), std::string::npos) << f->message;
        spec.lossless.interfaceMtu = 4192;
        EXPECT_FALSE(hasFinding(plan(spec), "MTU_TOO_SMALL_FOR_RDMA"));

        spec.lossless.mtu = 9000;
        spec.lossless.interfaceMtu = 1500;
        EXPECT_TRUE(hasFinding(plan(spec), "MTU_MISMATCH"));
        spec.lossless.interfaceMtu.reset();
        EXPECT_FALSE(hasFinding(plan(spec), "MTU_MISMATCH"));
        EXPECT_EQ(core::interfaceMtu(spec.lossless), 9000);
        EXPECT_EQ(core::rdmaMtu(spec.lossless), 4096);

        spec.lossless.mtu = 1500;
        const core::Plan jumboless = plan(spec);
        EXPECT_TRUE(hasFinding(jumboless, "RDMA_MTU_BELOW_4096"));
        EXPECT_EQ(core::rdmaMtu(spec.lossless), 1024);
    }

    TEST(IntentRules, InterfaceMtuIsParsedStrictlyAndEchoed)
    {
        nlohmann::json doc = nlohmann::json::parse(readFixture("intent/roce-2su.plan.json"));
        doc["lossless"]["interface_mtu"] = 9216;
        auto spec = core::parsePlanSpec(doc, "t");
        ASSERT_TRUE(spec) << spec.error().toString();
        EXPECT_EQ(spec->lossless.interfaceMtu, 9216);
        EXPECT_EQ(core::toJson(*spec)["lossless"]["interface_mtu"], 9216);
        doc["lossless"]["interface_mtu"] = 1400;
        auto bad = core::parsePlanSpec(doc, "t");
        ASSERT_FALSE(bad);
        EXPECT_NE(bad.error().message.find("lossless.interface_mtu"), std::string::npos);
    }

    TEST(IntentRules, TwoPlanesNumberThePlanesAndTheTables)
    {
        core::PlanSpec spec = intentSpec();
        spec.planes = 2;
        const core::Plan p = plan(spec);
        auto a = planner::planAddresses(p);
        ASSERT_TRUE(a) << a.error().toString();
        ASSERT_EQ(a->nics.size(), 16U);
        EXPECT_EQ(a->nics[0].plane, 1);
        EXPECT_EQ(a->nics[1].plane, 2);
        EXPECT_EQ(a->nics[0].leaf.substr(0, 3), "p1-");
        EXPECT_EQ(a->nics[1].leaf.substr(0, 3), "p2-");
        EXPECT_EQ(a->nics[0].leafPort.substr(0, 3), "p1-");
        auto hosts = planner::hostIntents(p, *a, catalog().findNodeType("hgx-8gpu-400g")->railMap, "node001");
        ASSERT_TRUE(hosts) << hosts.error().toString();
        std::vector<int> tables, ports;
        for (const auto& n : hosts->front().nics) {
            tables.push_back(n.table);
            ports.push_back(n.devicePort);
        }
        EXPECT_EQ(tables, (std::vector<int> { 100, 101, 102, 103 }));
        EXPECT_EQ(ports, (std::vector<int> { 1, 2, 1, 2 })) << "plane p is port p of the rail's NIC";
    }

} // namespace
} // namespace railyard::test
