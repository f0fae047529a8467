// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// core/pending_file.h: a file is replaced whole or not at all, and no temp file is left behind.
#include "core/pending_file.h"

#include "tests/live/temp_dir.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sys/stat.h>

using railyard::core::PendingFile;
using railyard::live::test::TempDir;
namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

std::vector<std::string> namesIn(const fs::path& dir)
{
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    return names;
}

} // namespace

TEST(PendingFile, ReplacesTheTargetOnlyOnCommit)
{
    const TempDir dir("pending-file");
    const fs::path target = dir.write("bom.csv", "old\n");
    {
        PendingFile file(target.string(), "EXPORT_WRITE");
        ASSERT_TRUE(file.status()) << file.status().error().toString();
        EXPECT_EQ(fs::path(file.path()).parent_path(), target.parent_path()); // same folder: the rename is atomic
        EXPECT_NE(fs::path(file.path()).filename(), target.filename());
        ASSERT_TRUE(file.write("new\n"));
        EXPECT_EQ(readText(target), "old\n"); // written, not yet committed
        ASSERT_TRUE(file.commit());
        EXPECT_EQ(readText(target), "new\n");
    }
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string> { "bom.csv" });
}

TEST(PendingFile, DroppedWithoutCommitLeavesTheTargetAsItWas)
{
    const TempDir dir("pending-file");
    const fs::path target = dir.write("cables.csv", "kept\n");
    {
        PendingFile file(target.string(), "EXPORT_WRITE");
        ASSERT_TRUE(file.write("half a cable ma"));
    }
    EXPECT_EQ(readText(target), "kept\n");
    EXPECT_EQ(namesIn(dir.path()), std::vector<std::string> { "cables.csv" });
}

TEST(PendingFile, AWriterThatOpensTheTempFileByNameIsCommittedToo)
{
    const TempDir dir("pending-file");
    const fs::path target = dir.file("new.xlsx");
    PendingFile file(target.string(), "EXPORT_WRITE");
    std::ofstream(file.path(), std::ios::binary | std::ios::trunc) << "PK";
    ASSERT_TRUE(file.commit());
    EXPECT_EQ(readText(target), "PK");
}

TEST(PendingFile, TheNewFileHasThePermissionsOfAnyNewFile)
{
    const TempDir dir("pending-file");
    const mode_t old = ::umask(022);
    PendingFile file(dir.file("plan.json").string(), "OUTPUT_WRITE");
    ::umask(old);
    ASSERT_TRUE(file.write("{}\n"));
    ASSERT_TRUE(file.commit());
    struct stat st {};
    ASSERT_EQ(::stat(dir.file("plan.json").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0644u); // not mkstemp's 0600
}

TEST(PendingFile, AMissingFolderIsAnErrorThatNamesTheTarget)
{
    const TempDir dir("pending-file");
    const std::string target = dir.file("no-such-folder/bom.csv").string();
    PendingFile file(target, "EXPORT_WRITE");
    ASSERT_FALSE(file.status());
    EXPECT_EQ(file.status().error().code, "EXPORT_WRITE");
    EXPECT_EQ(file.status().error().where, target);
    EXPECT_NE(file.status().error().message.find("No such file or directory"), std::string::npos) << file.status().error().message;
    const auto written = file.write("x");
    ASSERT_FALSE(written);
    EXPECT_EQ(written.error().code, "EXPORT_WRITE");
    EXPECT_FALSE(file.commit());
    EXPECT_FALSE(fs::exists(target));
}

TEST(PendingFile, ATargetThatIsAFolderIsRefusedAndLeftAlone)
{
    const TempDir dir("pending-file");
    fs::create_directories(dir.file("out/keep"));
    PendingFile file(dir.file("out").string(), "OUTPUT_WRITE");
    ASSERT_TRUE(file.write("text"));
    const auto committed = file.commit();
    ASSERT_FALSE(committed);
    EXPECT_NE(committed.error().message.find("cannot replace the file"), std::string::npos) << committed.error().message;
    EXPECT_TRUE(fs::is_directory(dir.file("out/keep")));
}
