// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// Small, allocation-light readers of sysfs attribute files and directories. Every function
// takes a full path (the caller joins it to the sysfs root) and never throws.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace railyard::live::sysfs {

/// Reads a small attribute file (at most `maxBytes`) into `out`, without trailing whitespace
/// or newline. On failure returns false and puts the system's reason ("No such file or
/// directory") into `error` when given.
bool readText(const std::string& path, std::string& out, std::string* error = nullptr,
    std::size_t maxBytes = 4096);

/// Reads a whole text file as is (tool outputs the emulator writes); at most `maxBytes`.
bool readFile(const std::string& path, std::string& out, std::string* error = nullptr,
    std::size_t maxBytes = std::size_t { 16 } << 20);

/// Reads an attribute as an unsigned decimal (or "0x"-prefixed hexadecimal) number; nullopt
/// when unreadable or not a number. Uses a stack buffer: no allocation.
std::optional<std::uint64_t> readUnsigned(const std::string& path, std::string* error = nullptr);

/// Parses "123", "0x1a" (whole text, surrounding whitespace allowed).
std::optional<std::uint64_t> parseUnsigned(std::string_view text);

/// Reads a whole (binary) file, up to `maxBytes`: PCI config space. Empty when unreadable.
std::vector<std::uint8_t> readBinary(const std::string& path, std::size_t maxBytes);

/// Names in a directory (no "." or ".."), in natural order ("2" before "10", "mlx5_2" before
/// "mlx5_10"); empty when the directory is missing or unreadable.
std::vector<std::string> listDirectory(const std::string& path);

/// An open directory whose files are listed and read relative to it (openat): for the many
/// small counter files of one folder, this spares the kernel a walk of the full path per file.
class Directory {
public:
    explicit Directory(const std::string& path);
    ~Directory();
    Directory(const Directory&) = delete;
    Directory& operator=(const Directory&) = delete;
    bool isOpen() const { return m_fd >= 0; }
    /// Names in it, unsorted; empty when it could not be opened.
    std::vector<std::string> names() const;
    /// readUnsigned() of the file `name` in it.
    std::optional<std::uint64_t> readUnsigned(const std::string& name) const;

private:
    int m_fd = -1;
};

/// True when something (file, directory, symlink target) exists at `path`.
bool exists(const std::string& path);

/// The last component of a symlink's target ("../../../0000:18:00.0" -> "0000:18:00.0");
/// empty when `path` is not a readable symlink.
std::string linkTargetName(const std::string& path);

/// The C library's text for `errnum` ("No such file or directory").
std::string errorText(int errnum);

} // namespace railyard::live::sysfs
