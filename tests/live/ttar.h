// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A reader of the ttar format (prometheus/procfs testdata/fixtures.ttar: "Directory: p",
// "Path: p" + "Lines: n" + n lines, "SymlinkTo: t", "Mode: m", "# ttar - - -" separators; a
// last line ending in "EOF" has no trailing newline), extracting into a folder so that tests
// read real fixture trees from disk.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace railyard::test {

/// Extracts `text` under `destination`, dropping `stripPrefix` ("fixtures/sys/") from every
/// path. Lines starting with "#" between entries (the fixture's "# source:" line, separators)
/// are skipped. Throws std::runtime_error on malformed input.
inline void extractTtar(std::string_view text, const std::filesystem::path& destination, std::string_view stripPrefix)
{
    namespace fs = std::filesystem;
    std::istringstream in { std::string(text) };
    std::string line;
    const auto target = [&](std::string_view rest) {
        std::string_view path = rest;
        if (path.starts_with(stripPrefix))
            path.remove_prefix(stripPrefix.size());
        return destination / fs::path(std::string(path));
    };
    fs::path pending; // "Path:" seen, waiting for "Lines:" or "SymlinkTo:"
    while (std::getline(in, line)) {
        if (line.empty() || line.starts_with("#") || line.starts_with("Mode: "))
            continue;
        if (line.starts_with("Directory: ")) {
            fs::create_directories(target(std::string_view(line).substr(11)));
        } else if (line.starts_with("Path: ")) {
            pending = target(std::string_view(line).substr(6));
            fs::create_directories(pending.parent_path());
        } else if (line.starts_with("SymlinkTo: ")) {
            if (pending.empty())
                throw std::runtime_error("ttar: SymlinkTo without Path");
            fs::create_symlink(line.substr(11), pending);
            pending.clear();
        } else if (line.starts_with("Lines: ")) {
            if (pending.empty())
                throw std::runtime_error("ttar: Lines without Path");
            const int count = std::stoi(line.substr(7));
            std::string content;
            for (int i = 0; i < count; ++i) {
                if (!std::getline(in, line))
                    throw std::runtime_error("ttar: file " + pending.string() + " cut short");
                if (i + 1 == count && line.ends_with("EOF")) {
                    content += line.substr(0, line.size() - 3);
                } else {
                    content += line;
                    content += '\n';
                }
            }
            std::ofstream(pending, std::ios::binary) << content;
            pending.clear();
        } else {
            throw std::runtime_error("ttar: unexpected line \"" + line + "\"");
        }
    }
}

} // namespace railyard::test
