// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Every parser refuses every other tool's real output with an error that names the tool.
#include "live/common/tool_parsers.h"
#include "tests/live/fixture_text.h"

#include <gtest/gtest.h>

#include <functional>

using namespace railyard::live;
using namespace railyard::live::test;

namespace {

struct Tool {
    std::string name; ///< as the parser's errors name it
    std::vector<std::string> fixtures;
    std::function<std::optional<railyard::core::Error>(std::string_view)> parse;
};

template <class R>
std::optional<railyard::core::Error> errorOf(const R& r)
{
    if (r)
        return std::nullopt;
    return r.error();
}

} // namespace

TEST(ParseCrossTool, EachParserRefusesTheOthersOutputs)
{
    const std::vector<Tool> tools {
        { "ibstat", { "ibstat-4ca-cx4lx-roce-plus-cx6-hdr-ib-mixed-nccl-tests-350.txt", "ibstat-cx6-hdr-ib-active-and-disabled-PARTIAL.txt" },
            [](std::string_view t) { return errorOf(parseIbstat(t)); } },
        { "ibdev2netdev", { "ibdev2netdev-and-ip-br-a-8rail-roce-h100-class-node.txt", "ibdev2netdev-h100-node-8x-cx7-ib-plus-cx6-eth-annotated.txt" },
            [](std::string_view t) { return errorOf(parseIbdev2netdev(t)); } },
        { "nvidia-smi topo -m", { "nvidia-smi-topo-m-8xB200-NV18-16nic-2numa-complete-with-legend.txt", "nvidia-smi-topo-mp-1gpu-10nic-r760xa.txt" },
            [](std::string_view t) { return errorOf(parseNvidiaSmiTopo(t)); } },
        { "lldpctl -f keyvalue", { "lldpctl-f-keyvalue-server-2nic-cumulus-dell-s4100-netbox-agent.txt",
                                     "lldpctl-f-keyvalue-server-cisco-2960x-multiline-descr-netbox-agent.txt" },
            [](std::string_view t) { return errorOf(parseLldpctlKeyvalue(t)); } },
        { "ethtool -S", { "ethtool-S-mlx5_core-cx4lx-2018-ethq-fixture.txt" }, [](std::string_view t) { return errorOf(parseEthtoolStats(t)); } },
        { "mlnx_qos", { "mlnx_qos-trust-dscp-pfc-prio3-script-trace.txt" }, [](std::string_view t) { return errorOf(parseMlnxQos(t)); } },
        { "dcb pfc show", { "dcb-pfc-show-mlxsw-port-requests-indications-iproute2-commit-example.txt" },
            [](std::string_view t) { return errorOf(parseDcbPfcShow(t)); } },
    };
    for (const Tool& parser : tools) {
        for (const Tool& other : tools) {
            for (const std::string& fixture : other.fixtures) {
                const std::string text = sharedFixture(fixture);
                const auto err = parser.parse(text);
                if (&parser == &other) {
                    EXPECT_FALSE(err) << parser.name << " on its own " << fixture << ": " << err->message;
                    continue;
                }
                ASSERT_TRUE(err) << parser.name << " accepted " << fixture;
                EXPECT_EQ(err->code, "TOOL_OUTPUT");
                EXPECT_EQ(err->message.rfind(parser.name + ": ", 0), 0u) << err->message;
                // The error quotes the line that did not fit, or names the other command the
                // transcript holds.
                EXPECT_NE(err->message.find('\''), std::string::npos) << parser.name << " on " << fixture << ": " << err->message;
            }
        }
    }
    // Other fixtures that are no output of these tools at all.
    for (const char* foreign : { "dcb-ets-show-mlxsw-port-iproute2-commit-example.txt", "show_gids-roce-v1-v2-12dev-h100-node.txt",
             "lldpcli-show-neighbors-plain-cumulus-switch-7-neighbors-nvidia-docs.txt" }) {
        const std::string text = sharedFixture(foreign);
        for (const Tool& parser : tools)
            EXPECT_TRUE(parser.parse(text)) << parser.name << " accepted " << foreign;
    }
}

TEST(ParseCrossTool, EmptyInputIsAnError)
{
    const auto r = parseIbstat("# source: nothing\n\n");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("empty"), std::string::npos) << r.error().message;
    EXPECT_FALSE(parseEthtoolStats(""));
    EXPECT_FALSE(parseNvidiaSmiTopo("\r\n"));
}
