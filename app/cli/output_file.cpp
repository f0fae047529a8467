// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/output_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace railyard::app::cli {

namespace {

    core::Error ioError(const std::string& path, const std::string& what, int err)
    {
        return { "OUTPUT_WRITE", what + ": " + std::strerror(err), path,
            "check that the folder exists and is writable" };
    }

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

    /// A uniquely named temp file beside the target; removed again unless committed.
    class TempFile {
    public:
        explicit TempFile(const std::string& target)
            : m_target(target)
        {
            const std::filesystem::path p(target);
            m_folder = p.parent_path().empty() ? std::string(".") : p.parent_path().string();
            std::string pattern = m_folder + "/." + p.filename().string() + ".tmp-XXXXXX";
            const int fd = ::mkstemp(pattern.data());
            if (fd < 0) {
                m_error = errno;
                return;
            }
            // mkstemp creates 0600; give the result the permissions a new file would get.
            const mode_t mask = ::umask(0);
            ::umask(mask);
            ::fchmod(fd, 0666 & ~mask);
            ::close(fd);
            m_path = pattern;
        }
        ~TempFile()
        {
            if (!m_path.empty() && !m_committed)
                std::remove(m_path.c_str());
        }
        TempFile(const TempFile&) = delete;
        TempFile& operator=(const TempFile&) = delete;

        bool valid() const { return !m_path.empty(); }
        int error() const { return m_error; }
        const std::string& path() const { return m_path; }

        core::Status commit()
        {
            if (!syncPath(m_path, false))
                return ioError(m_target, "cannot flush the output to disk", errno);
            if (std::rename(m_path.c_str(), m_target.c_str()) != 0)
                return ioError(m_target, "cannot replace the output file", errno);
            m_committed = true;
            syncPath(m_folder, true); // best effort: makes the rename itself durable
            return core::Status::success();
        }

    private:
        std::string m_target;
        std::string m_folder;
        std::string m_path;
        int m_error = 0;
        bool m_committed = false;
    };

} // namespace

bool isStdout(const std::string& path)
{
    return path.empty() || path == "-";
}

core::Status writeOutput(const std::string& path, const std::function<void(std::ostream&)>& write)
{
    if (isStdout(path)) {
        write(std::cout);
        std::cout.flush();
        if (!std::cout)
            return core::Error { "OUTPUT_WRITE", "cannot write to standard output", "stdout", "" };
        return core::Status::success();
    }
    return writeOutputFile(path, [&](const std::string& tempPath) -> core::Status {
        std::ofstream out(tempPath, std::ios::binary | std::ios::trunc);
        if (!out)
            return ioError(path, "cannot open the temp file", errno);
        write(out);
        out.flush();
        if (!out)
            return ioError(path, "cannot write", errno);
        return core::Status::success();
    });
}

core::Status writeOutputFile(const std::string& path,
    const std::function<core::Status(const std::string& tempPath)>& write)
{
    if (isStdout(path))
        return core::Error { "OUTPUT_STDOUT", "this format cannot go to standard output", "--out",
            "give a file name with --out" };
    TempFile temp(path);
    if (!temp.valid())
        return ioError(path, "cannot create a file in the output folder", temp.error());
    if (core::Status written = write(temp.path()); !written)
        return written;
    return temp.commit();
}

} // namespace railyard::app::cli
