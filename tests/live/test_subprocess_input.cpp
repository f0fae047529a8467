// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// ChildProcess with a pipe as the child's stdin (SpawnOptions::inputPipe): what ibsim's console
// is fed through.
#include "live/common/subprocess.h"
#include "tests/live/temp_dir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace railyard::live {
namespace {

    using namespace std::chrono_literals;

    std::string readAll(const std::filesystem::path& path)
    {
        std::ifstream in(path);
        std::ostringstream text;
        text << in.rdbuf();
        return text.str();
    }

    TEST(SubprocessInput, WritesReachTheChildAndClosingEndsIt)
    {
        const test::TempDir dir("railyard-subprocess-input");
        const auto log = dir.path() / "cat.log";
        SpawnOptions options;
        options.log = log;
        options.inputPipe = true;
        ChildProcess cat({ findProgram("cat") }, options);
        ASSERT_TRUE(cat.started()) << cat.error();
        // More than a pipe holds (64 KiB): the writer waits for the reader.
        const std::string line(1000, 'x');
        std::string all;
        for (int i = 0; i < 200; ++i)
            all += line + "\n";
        ASSERT_TRUE(cat.writeInput(all));
        cat.closeInput();
        const auto status = cat.waitFor(10s);
        ASSERT_TRUE(status.has_value());
        EXPECT_EQ(*status, 0);
        EXPECT_EQ(readAll(log), all);
    }

    TEST(SubprocessInput, WritingToAChildThatEndedFailsWithoutKillingUs)
    {
        SpawnOptions options;
        options.inputPipe = true;
        ChildProcess done({ findProgram("true") }, options);
        ASSERT_TRUE(done.started()) << done.error();
        ASSERT_TRUE(done.waitFor(10s).has_value());
        // The reader is gone: no SIGPIPE reaches this process, the write just fails.
        EXPECT_FALSE(done.writeInput(std::string(100000, 'y')));
        EXPECT_FALSE(done.writeInput("again\n"));
    }

    TEST(SubprocessInput, WithoutThePipeNothingIsWritten)
    {
        ChildProcess child({ findProgram("true") });
        ASSERT_TRUE(child.started());
        EXPECT_FALSE(child.writeInput("x"));
    }

} // namespace
} // namespace railyard::live
