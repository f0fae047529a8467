// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Helpers of the railyard-cli end-to-end tests: run the binary, capture its output and status.
#pragma once

#include "tests/live/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace railyard::clitest {

namespace fs = std::filesystem;
using nlohmann::json;

struct CliRun {
    int status = -1;
    std::string out;
    std::string err;
};

inline std::string readText(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

using live::test::TempDir;

/// Runs railyard-cli with `args`; stdout and stderr go to files (no pipe deadlock on big output).
inline CliRun runCli(const std::vector<std::string>& args)
{
    TempDir dir;
    const std::string outPath = (dir.path() / "stdout").string();
    const std::string errPath = (dir.path() / "stderr").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<std::string> argStrings { RAILYARD_CLI };
    argStrings.insert(argStrings.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argStrings)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    CliRun run;
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, RAILYARD_CLI, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        run.err = "posix_spawn failed";
        return run;
    }
    int status = 0;
    ::waitpid(pid, &status, 0);
    run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    run.out = readText(outPath);
    run.err = readText(errPath);
    return run;
}

inline std::string describe(const std::vector<std::string>& args, const CliRun& run)
{
    std::string text = "railyard-cli";
    for (const std::string& a : args)
        text += " " + a;
    return text + "\nexit " + std::to_string(run.status) + "\nstderr:\n" + run.err.substr(0, 4000);
}

/// Parses a plan document, dropping the `cables` array (hundreds of thousands of rows at scale).
inline json parsePlanDocument(const std::string& text, bool keepCables = false)
{
    const json::parser_callback_t dropCables = [keepCables](int depth, json::parse_event_t event, json& parsed) {
        return keepCables || !(depth == 1 && event == json::parse_event_t::key && parsed == "cables");
    };
    return json::parse(text, dropCables, false);
}

/// The plan document of a built-in example (cached: the large ones take a while).
inline std::vector<std::string> exampleFiles()
{
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(fs::path(RAILYARD_SOURCE_DIR) / "resources/examples")) {
        const std::string file = entry.path().filename().string();
        const std::string suffix = ".plan.json";
        if (file.size() > suffix.size() && file.ends_with(suffix))
            names.push_back(file.substr(0, file.size() - suffix.size()));
    }
    std::sort(names.begin(), names.end());
    return names;
}

inline long long countLinesStartingWith(const std::string& text, const std::string& prefix)
{
    long long n = 0;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        n += line.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
}

inline long long countLines(const std::string& text)
{
    return std::count(text.begin(), text.end(), '\n');
}

} // namespace railyard::clitest
