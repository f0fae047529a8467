// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// A scratch folder for a test, removed with everything in it when the test is done.
#pragma once

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

#include <stdlib.h>
#include <unistd.h>

namespace railyard::live::test {

/// A new folder under the system's temporary folder (mkdtemp: "railyard-<tag>-XXXXXX"),
/// removed with its contents by the destructor. Throws std::runtime_error when it cannot be
/// created (the test then fails with the reason).
class TempDir {
public:
    /// Where the folder goes: the system's temporary folder, or a RAM file system (/dev/shm) when
    /// there is a writable one, for the emulated trees of thousands of small files.
    enum class Place { Temp, PreferRam };

    explicit TempDir(const std::string& tag = "test", Place place = Place::Temp)
    {
        std::string pattern = (base(place) / ("railyard-" + tag + "-XXXXXX")).string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("cannot create a temporary folder " + pattern + ": "
                + std::system_category().message(errno));
        m_path = pattern;
    }
    ~TempDir()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    /// The path of `name` in the folder (nothing is created).
    std::filesystem::path file(const std::string& name) const { return m_path / name; }

    /// Writes `text` to the file `name` (relative to the folder; parent folders are created)
    /// and returns its path.
    std::filesystem::path write(const std::string& name, const std::string& text) const
    {
        const std::filesystem::path file = m_path / name;
        std::filesystem::create_directories(file.parent_path());
        std::ofstream(file, std::ios::binary) << text;
        return file;
    }

private:
    static std::filesystem::path base(Place place)
    {
        std::error_code ec;
        if (place == Place::PreferRam && std::filesystem::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0)
            return "/dev/shm";
        return std::filesystem::temp_directory_path();
    }

    std::filesystem::path m_path;
};

} // namespace railyard::live::test
