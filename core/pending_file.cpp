// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "core/pending_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace railyard::core {

namespace {

    // Flushes a file (or folder) to disk through a fresh descriptor; fsync applies to the inode.
    bool syncPath(const std::string& path, bool directory)
    {
        const int fd = ::open(path.c_str(), (directory ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC);
        if (fd < 0)
            return false;
        const bool ok = ::fsync(fd) == 0;
        ::close(fd);
        return ok;
    }

} // namespace

PendingFile::PendingFile(std::string target, std::string code)
    : m_target(std::move(target))
    , m_code(std::move(code))
{
    const std::filesystem::path p(m_target);
    m_folder = p.parent_path().empty() ? std::string(".") : p.parent_path().string();
    std::string pattern = m_folder + "/." + p.filename().string() + ".tmp-XXXXXX";
    const int fd = ::mkstemp(pattern.data());
    if (fd < 0) {
        m_status = error("cannot create a file in the folder", errno);
        return;
    }
    // mkstemp creates 0600; give the result the permissions a new file would get.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
    ::close(fd);
    m_temp = std::move(pattern);
}

PendingFile::~PendingFile()
{
    if (!m_temp.empty() && !m_committed)
        std::remove(m_temp.c_str());
}

Error PendingFile::error(const std::string& what, int err) const
{
    return { m_code, what + (err ? std::string(": ") + std::strerror(err) : std::string()), m_target,
        "check that the folder exists, is writable and has free space" };
}

Status PendingFile::write(std::string_view text)
{
    if (!m_status)
        return m_status;
    const int fd = ::open(m_temp.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0)
        return error("cannot open the temp file", errno);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const int err = n < 0 ? errno : ENOSPC;
            ::close(fd);
            return error("cannot write", err);
        }
        done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0)
        return error("cannot write", errno);
    return Status::success();
}

Status PendingFile::commit()
{
    if (!m_status)
        return m_status;
    if (!syncPath(m_temp, false))
        return error("cannot flush the file to disk", errno);
    if (std::rename(m_temp.c_str(), m_target.c_str()) != 0)
        return error("cannot replace the file", errno);
    m_committed = true;
    syncPath(m_folder, true);
    return Status::success();
}

} // namespace railyard::core
