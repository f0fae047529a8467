// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Hostfiles as the agents' list (live/client/hostfile.h): plain hosts, Open MPI's slots=,
// MPICH's host:N, comments, fully qualified names mapped to the plan's nodes, IPv6, and every
// malformed line named with its line number.
#include "live/client/hostfile.h"

#include "tests/live/temp_dir.h"
#include "tests/live/test_sim_support.h"

#include <gtest/gtest.h>

namespace railyard::live {
namespace {

    std::string codes(const core::Errors& errors)
    {
        std::string out;
        for (const auto& e : errors)
            out += e.code + "@" + e.where + " ";
        return out;
    }

} // namespace

TEST(Hostfile, OpenMpiAndPlainLinesGiveOneAgentEach)
{
    const auto agents = parseHostfile("# the cluster\nnode001 slots=8\n\n  node002   slots=8 max_slots=8  # spare\nnode003\nnode004:8\r\n", "hosts");
    ASSERT_TRUE(agents) << codes(agents.errors());
    ASSERT_EQ(agents->size(), 4u);
    EXPECT_EQ((*agents)[0].node, "node001");
    EXPECT_EQ((*agents)[0].url, "http://node001:9473");
    EXPECT_EQ((*agents)[1].node, "node002");
    EXPECT_EQ((*agents)[2].node, "node003");
    EXPECT_EQ((*agents)[3].node, "node004");
    EXPECT_EQ((*agents)[3].url, "http://node004:9473");
}

TEST(Hostfile, PortAddressesAndQualifiedNames)
{
    const auto fabric = simtest::planOf(simtest::kIbSpec);
    const auto agents = parseHostfile("node001.cluster.local\n10.0.0.7 slots=4\n[fe80::1]\nfd00::2\n", "hosts", 19473, &fabric.plan);
    ASSERT_TRUE(agents) << codes(agents.errors());
    ASSERT_EQ(agents->size(), 4u);
    // The first label is a plan node: that node, at the name as written.
    EXPECT_EQ((*agents)[0].node, "node001");
    EXPECT_EQ((*agents)[0].url, "http://node001.cluster.local:19473");
    // An address stays its own name (the agent names its node in its counters).
    EXPECT_EQ((*agents)[1].node, "10.0.0.7");
    EXPECT_EQ((*agents)[1].url, "http://10.0.0.7:19473");
    EXPECT_EQ((*agents)[2].url, "http://[fe80::1]:19473");
    EXPECT_EQ((*agents)[3].url, "http://[fd00::2]:19473");
    // Without a plan the qualified name is kept.
    const auto plain = parseHostfile("node001.cluster.local\n", "hosts");
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->front().node, "node001.cluster.local");
}

TEST(Hostfile, EveryBadLineIsNamed)
{
    const auto bad = parseHostfile("node001\nnode002 slots=eight\nnode003 cpus=4\nnode004:x\nnode/5\nnode001\n", "hosts");
    ASSERT_FALSE(bad);
    EXPECT_EQ(codes(bad.errors()),
        "HOSTFILE_SYNTAX@hosts:2 HOSTFILE_SYNTAX@hosts:3 HOSTFILE_SYNTAX@hosts:4 HOSTFILE_SYNTAX@hosts:5 HOSTFILE_DUPLICATE@hosts:6 ");
    EXPECT_NE(bad.errors()[0].message.find("slots=eight"), std::string::npos) << bad.errors()[0].message;
    EXPECT_FALSE(bad.errors()[0].hint.empty());

    const auto empty = parseHostfile("# nothing\n\n", "hosts");
    ASSERT_FALSE(empty);
    EXPECT_EQ(empty.error().code, "HOSTFILE_EMPTY");
    const auto port = parseHostfile("node001\n", "hosts", 70000);
    ASSERT_FALSE(port);
    EXPECT_EQ(port.error().code, "HOSTFILE_PORT");
}

TEST(Hostfile, ReadFromAFile)
{
    test::TempDir dir("hostfile");
    const auto agents = readHostfile(dir.write("hosts", "node001 slots=8\nnode002 slots=8\n"));
    ASSERT_TRUE(agents) << codes(agents.errors());
    EXPECT_EQ(agents->size(), 2u);
    const auto missing = readHostfile(dir.path() / "absent");
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().code, "FILE_UNREADABLE");
    EXPECT_EQ(missing.error().where, (dir.path() / "absent").string());
    const auto folder = readHostfile(dir.path());
    ASSERT_FALSE(folder);
    EXPECT_EQ(folder.error().code, "FILE_UNREADABLE");
}

} // namespace railyard::live
