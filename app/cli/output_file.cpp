// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "app/cli/output_file.h"

#include "core/pending_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>

namespace railyard::app::cli {

namespace {

    core::Error ioError(const std::string& path, const std::string& what, int err)
    {
        return { "OUTPUT_WRITE", what + ": " + std::strerror(err), path,
            "check that the folder exists and is writable" };
    }

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
    core::PendingFile temp(path, "OUTPUT_WRITE");
    if (!temp.status())
        return temp.status();
    if (core::Status written = write(temp.path()); !written)
        return written;
    return temp.commit();
}

} // namespace railyard::app::cli
