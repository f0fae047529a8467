// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/sim/file_writer.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace railyard::live {

AtomicWriter::AtomicWriter(std::filesystem::path tempDir)
    : m_tempDir(std::move(tempDir))
{
    std::error_code ec;
    std::filesystem::create_directories(m_tempDir, ec);
    m_tempFile = (m_tempDir / ("w" + std::to_string(::getpid()))).string();
}

bool AtomicWriter::writeFast(const char* path, std::string_view content) noexcept
{
    const int fd = ::open(m_tempFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return false;
    std::size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            const int saved = errno;
            ::close(fd);
            ::unlink(m_tempFile.c_str());
            errno = saved;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0) {
        const int saved = errno;
        ::unlink(m_tempFile.c_str());
        errno = saved;
        return false;
    }
    if (::rename(m_tempFile.c_str(), path) != 0) {
        const int saved = errno;
        ::unlink(m_tempFile.c_str());
        errno = saved;
        return false;
    }
    return true;
}

core::Status AtomicWriter::write(const std::string& path, std::string_view content)
{
    if (writeFast(path.c_str(), content))
        return {};
    return core::Error { "SIM_WRITE", std::string("cannot write: ") + std::strerror(errno), path,
        "check that the emulator's --root is writable and not full" };
}

core::Status makeDirs(const std::filesystem::path& dir)
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        return core::Error { "SIM_WRITE", "cannot create the folder: " + ec.message(), dir.string(),
            "check that the emulator's --root is writable" };
    return {};
}

core::Status makeSymlink(const std::string& target, const std::filesystem::path& link)
{
    ::unlink(link.c_str());
    if (::symlink(target.c_str(), link.c_str()) != 0)
        return core::Error { "SIM_WRITE", std::string("cannot create the link: ") + std::strerror(errno), link.string(),
            "check that the emulator's --root is writable" };
    return {};
}

} // namespace railyard::live
