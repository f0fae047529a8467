// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/node/sysfs_read.h"

#include "core/text.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace railyard::live::sysfs {

namespace {

/// read() until EOF or `size` bytes; -1 with errno on error. A short read is taken as the end:
/// sysfs attributes and regular files return everything up to the end in one read, and
/// skipping the read() that would return 0 saves a system call per file.
ssize_t readAll(int fd, char* buffer, std::size_t size)
{
    std::size_t total = 0;
    while (total < size) {
        const ssize_t n = ::read(fd, buffer + total, size - total);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (n == 0)
            break;
        const bool shortRead = static_cast<std::size_t>(n) < size - total;
        total += static_cast<std::size_t>(n);
        if (shortRead)
            break;
    }
    return static_cast<ssize_t>(total);
}

std::optional<std::uint64_t> readUnsignedFd(int fd, std::string* error)
{
    std::array<char, 64> buffer {};
    const ssize_t n = readAll(fd, buffer.data(), buffer.size());
    const int readErrno = errno;
    ::close(fd);
    if (n < 0) {
        if (error)
            *error = errorText(readErrno);
        return std::nullopt;
    }
    const std::string_view text(buffer.data(), static_cast<std::size_t>(n));
    auto value = parseUnsigned(text);
    if (!value && error) {
        std::string_view t = text;
        while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back())))
            t.remove_suffix(1);
        *error = "not a number: \"" + std::string(t) + "\"";
    }
    return value;
}

/// The names in `dir` other than "." and "..", in the order readdir gives them; closes `dir`.
std::vector<std::string> entryNames(DIR* dir)
{
    std::vector<std::string> names;
    while (const dirent* entry = ::readdir(dir)) {
        const char* name = entry->d_name;
        if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
            continue;
        names.emplace_back(name);
    }
    ::closedir(dir);
    return names;
}

/// open(O_RDONLY | O_CLOEXEC); -1 with the reason in `error` (when given) on failure.
int openForReading(const std::string& path, std::string* error)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 && error)
        *error = errorText(errno);
    return fd;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && (std::isspace(static_cast<unsigned char>(text.back())) || text.back() == '\0'))
        text.remove_suffix(1);
    return text;
}

} // namespace

std::string errorText(int errnum)
{
    std::array<char, 256> buffer {};
    // GNU strerror_r returns the message pointer (which may not be `buffer`).
    return ::strerror_r(errnum, buffer.data(), buffer.size());
}

bool readText(const std::string& path, std::string& out, std::string* error, std::size_t maxBytes)
{
    out.clear();
    const int fd = openForReading(path, error);
    if (fd < 0)
        return false;
    std::array<char, 4096> stack {};
    std::string heap;
    char* buffer = stack.data();
    if (maxBytes > stack.size()) {
        heap.resize(maxBytes);
        buffer = heap.data();
    }
    const ssize_t n = readAll(fd, buffer, maxBytes);
    const int readErrno = errno;
    ::close(fd);
    if (n < 0) {
        if (error)
            *error = errorText(readErrno);
        return false;
    }
    const std::string_view text = trim(std::string_view(buffer, static_cast<std::size_t>(n)));
    out.assign(text.data(), text.size());
    return true;
}

bool readFile(const std::string& path, std::string& out, std::string* error, std::size_t maxBytes)
{
    out.clear();
    const int fd = openForReading(path, error);
    if (fd < 0)
        return false;
    std::array<char, 16384> chunk {};
    for (;;) {
        const ssize_t n = ::read(fd, chunk.data(), std::min(chunk.size(), maxBytes - out.size()));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            const int e = errno;
            ::close(fd);
            if (error)
                *error = errorText(e);
            return false;
        }
        if (n == 0 || out.size() + static_cast<std::size_t>(n) >= maxBytes) {
            out.append(chunk.data(), static_cast<std::size_t>(n));
            break;
        }
        out.append(chunk.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    return true;
}

std::optional<std::uint64_t> parseUnsigned(std::string_view text)
{
    text = trim(text);
    int base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    if (text.empty())
        return std::nullopt;
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

std::optional<std::uint64_t> readUnsigned(const std::string& path, std::string* error)
{
    const int fd = openForReading(path, error);
    if (fd < 0)
        return std::nullopt;
    return readUnsignedFd(fd, error);
}

Directory::Directory(const std::string& path)
    : m_fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
{
}

Directory::~Directory()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

std::vector<std::string> Directory::names() const
{
    std::vector<std::string> names;
    if (m_fd < 0)
        return names;
    // fdopendir takes ownership of its descriptor: give it a duplicate, rewound.
    const int fd = ::fcntl(m_fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        return names;
    ::lseek(fd, 0, SEEK_SET);
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return names;
    }
    return entryNames(dir);
}

std::optional<std::uint64_t> Directory::readUnsigned(const std::string& name) const
{
    if (m_fd < 0)
        return std::nullopt;
    const int fd = ::openat(m_fd, name.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    return readUnsignedFd(fd, nullptr);
}

std::vector<std::uint8_t> readBinary(const std::string& path, std::size_t maxBytes)
{
    std::vector<std::uint8_t> bytes;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return bytes;
    bytes.resize(maxBytes);
    const ssize_t n = readAll(fd, reinterpret_cast<char*>(bytes.data()), maxBytes);
    ::close(fd);
    bytes.resize(n < 0 ? 0 : static_cast<std::size_t>(n));
    return bytes;
}

std::vector<std::string> listDirectory(const std::string& path)
{
    DIR* dir = ::opendir(path.c_str());
    if (!dir)
        return {};
    std::vector<std::string> names = entryNames(dir);
    std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) { return core::naturalLess(a, b); });
    return names;
}

bool exists(const std::string& path)
{
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
}

std::string linkTargetName(const std::string& path)
{
    std::array<char, 4096> buffer {};
    const ssize_t n = ::readlink(path.c_str(), buffer.data(), buffer.size() - 1);
    if (n <= 0)
        return {};
    std::string_view target(buffer.data(), static_cast<std::size_t>(n));
    while (!target.empty() && target.back() == '/')
        target.remove_suffix(1);
    const auto slash = target.rfind('/');
    if (slash != std::string_view::npos)
        target.remove_prefix(slash + 1);
    return std::string(target);
}

} // namespace railyard::live::sysfs
