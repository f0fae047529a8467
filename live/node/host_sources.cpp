// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
#include "live/node/host_sources.h"

#include "live/common/tool_parsers.h"
#include "live/node/ethtool_ioctl.h"
#include "live/node/netlink_dcb.h"
#include "live/node/node_reader.h"
#include "live/node/sysfs_read.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace railyard::live {

namespace {

std::string_view trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.remove_suffix(1);
    return text;
}

class HostDcb final : public DcbSource {
public:
    QosConfig read(const std::string& netdev) const override
    {
        auto qos = dcb::queryIeee(netdev);
        return qos ? *qos : QosConfig {};
    }
};

class HostEthtool final : public EthtoolSource {
public:
    std::map<std::string, std::uint64_t> read(const std::string& netdev) const override
    {
        auto stats = ethtool::readStats(netdev);
        return stats ? std::move(*stats) : std::map<std::string, std::uint64_t> {};
    }
};

/// lldpd's client: `lldpctl -f keyvalue`. No lldpd: no neighbours.
class HostLldp final : public LldpSource {
public:
    std::vector<LldpNeighbor> read() const override
    {
        const std::string program = findProgram("lldpctl");
        if (program.empty())
            return {};
        auto output = runProgram({ program, "-f", "keyvalue" }, std::chrono::seconds(3));
        if (!output)
            return {};
        auto neighbours = parseLldpctlKeyvalue(*output);
        return neighbours ? std::move(*neighbours) : std::vector<LldpNeighbor> {};
    }
};

/// The NVIDIA driver's procfs files. dma-buf: no file of the driver says whether it can
/// export GPU memory as dma-buf (that depends on the open kernel modules, the driver version
/// and the kernel's CONFIG_DMA_SHARED_BUFFER), so it stays Unknown rather than guessed.
class HostGpuDriver final : public GpuDriverSource {
public:
    std::map<std::string, std::string> modelNames() const override
    {
        std::map<std::string, std::string> models;
        const std::string base = "/proc/driver/nvidia/gpus/";
        std::string text;
        for (const auto& address : sysfs::listDirectory(base)) {
            if (!sysfs::readFile(base + address + "/information", text, nullptr, 65536))
                continue;
            if (auto model = parseNvidiaInformationModel(text); !model.empty())
                models[address] = std::move(model);
        }
        return models;
    }
    Tri dmabuf() const override { return Tri::Unknown; }
};

} // namespace

std::string parseNvidiaInformationModel(std::string_view text)
{
    while (!text.empty()) {
        const auto end = text.find('\n');
        const std::string_view line = text.substr(0, end);
        if (line.starts_with("Model:"))
            return std::string(trimmed(line.substr(6)));
        if (end == std::string_view::npos)
            break;
        text.remove_prefix(end + 1);
    }
    return {};
}

std::string parseOpensmRoutingEngine(std::string_view log)
{
    static constexpr std::string_view kMarker = " tables configured on all switches";
    const auto at = log.rfind(kMarker);
    if (at == std::string_view::npos)
        return {};
    const std::string_view before = log.substr(0, at);
    const auto start = before.find_last_of(" \t\n");
    const std::string_view word = start == std::string_view::npos ? before : before.substr(start + 1);
    return std::string(word);
}

std::string findProgram(const std::string& name)
{
    for (const char* folder : { "/usr/sbin/", "/usr/bin/", "/sbin/", "/bin/", "/usr/local/sbin/", "/usr/local/bin/" }) {
        std::string path = std::string(folder) + name;
        if (::access(path.c_str(), X_OK) == 0)
            return path;
    }
    return {};
}

core::Result<std::string> runProgram(const std::vector<std::string>& argv, std::chrono::milliseconds timeout)
{
    const std::string where = argv.empty() ? std::string() : argv.front();
    const auto fail = [&](const std::string& what) { return core::Error { "RUN_PROGRAM", what, where, "" }; };
    if (argv.empty())
        return fail("nothing to run");
    std::array<int, 2> pipeFds {};
    if (::pipe2(pipeFds.data(), O_CLOEXEC) != 0)
        return fail(std::string("pipe: ") + sysfs::errorText(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    std::vector<char*> args;
    for (const auto& arg : argv)
        args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = ::posix_spawn(&pid, argv.front().c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(pipeFds[1]);
    if (spawned != 0) {
        ::close(pipeFds[0]);
        return fail("cannot start: " + sysfs::errorText(spawned));
    }
    std::string output;
    bool timedOut = false;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::array<char, 8192> chunk {};
    for (;;) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timedOut = true;
            break;
        }
        pollfd pfd { pipeFds[0], POLLIN, 0 };
        const int ready = ::poll(&pfd, 1, static_cast<int>(left.count()));
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0) {
            timedOut = ready == 0;
            break;
        }
        const ssize_t n = ::read(pipeFds[0], chunk.data(), chunk.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        output.append(chunk.data(), static_cast<std::size_t>(n));
    }
    ::close(pipeFds[0]);
    if (timedOut)
        ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timedOut)
        return fail("did not finish within " + std::to_string(timeout.count()) + " ms; killed");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return fail("exited with status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)));
    return output;
}

NodeSources hostSources()
{
    NodeSources sources;
    sources.dcb = std::make_shared<HostDcb>();
    sources.ethtool = std::make_shared<HostEthtool>();
    sources.lldp = std::make_shared<HostLldp>();
    sources.gpu = std::make_shared<HostGpuDriver>();
    return sources;
}

} // namespace railyard::live
