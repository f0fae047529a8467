// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
//
// Plans fabrics of 1K to 128K GPUs (cable map, media, BOM, graph analysis, findings) and
// prints, per size, the planning time, the time to stream the plan document, and the peak
// memory of a process that did only that. Each size runs in its own child process so the
// peak resident set is that size's own (getrusage of the child).
//
//   railyard-bench-plan [--repeat N] [--sizes 1024,16384,...]
//
// Target (issue #2): 128K GPUs in under 0.5 s and 512 MiB on one core; time growing no
// faster than linearly with the GPU count.

#include "core/catalog.h"
#include "core/plan_json.h"
#include "planner/planner.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

using namespace railyard;

namespace {

/// Counts bytes and drops them: the cost of formatting, not of a disk.
class CountingBuf : public std::streambuf {
public:
    std::size_t bytes = 0;

protected:
    std::streamsize xsputn(const char*, std::streamsize n) override
    {
        bytes += static_cast<std::size_t>(n);
        return n;
    }
    int overflow(int c) override
    {
        ++bytes;
        return c;
    }
};

core::PlanSpec specFor(long long gpus)
{
    core::PlanSpec s;
    s.gpus = gpus;
    if (gpus <= 1024) {
        // The DGX H100 SuperPOD class: InfiniBand NDR on 64-port switches.
        s.fabric = core::Fabric::InfiniBand;
        s.nodeType = "dgx-h100";
        s.link.generation = core::IbGeneration::NDR;
        s.leafSwitch = s.spineSwitch = "qm9700";
    } else {
        // RoCEv2 at 400G on 128-port switches.
        s.fabric = core::Fabric::RoCEv2;
        s.nodeType = "hgx-8gpu-400g";
        s.link.speedGbps = 400;
        s.leafSwitch = s.spineSwitch = "sn5600";
    }
    return s;
}

double seconds(std::chrono::steady_clock::duration d)
{
    return std::chrono::duration<double>(d).count();
}

/// In the child: plan `repeat` times, report the best times on `fd`.
int runChild(long long gpus, int repeat, int fd)
{
    auto catalog = core::Catalog::builtin();
    if (!catalog) {
        std::fprintf(stderr, "%s\n", catalog.error().toString().c_str());
        return 2;
    }
    double bestPlan = 1e9, bestJson = 1e9;
    std::size_t links = 0, bytes = 0;
    for (int i = 0; i < repeat; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        auto plan = planner::makePlan(specFor(gpus), *catalog);
        const auto t1 = std::chrono::steady_clock::now();
        if (!plan) {
            std::fprintf(stderr, "%s\n", plan.error().toString().c_str());
            return 2;
        }
        CountingBuf buf;
        std::ostream out(&buf);
        core::writePlanJson(*plan, out);
        const auto t2 = std::chrono::steady_clock::now();
        bestPlan = std::min(bestPlan, seconds(t1 - t0));
        bestJson = std::min(bestJson, seconds(t2 - t1));
        links = plan->links.size();
        bytes = buf.bytes;
    }
    const std::string line = std::to_string(bestPlan) + " " + std::to_string(bestJson) + " " + std::to_string(links) + " "
        + std::to_string(bytes) + "\n";
    return write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) ? 0 : 2;
}

} // namespace

int main(int argc, char** argv)
{
    int repeat = 3;
    std::vector<long long> sizes { 1024, 16384, 65536, 131072 };
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeat" && i + 1 < argc) {
            repeat = std::max(1, std::atoi(argv[++i]));
        } else if (a == "--sizes" && i + 1 < argc) {
            sizes.clear();
            std::stringstream list(argv[++i]);
            for (std::string item; std::getline(list, item, ',');)
                sizes.push_back(std::atoll(item.c_str()));
        } else {
            std::fprintf(stderr, "usage: %s [--repeat N] [--sizes 1024,16384,...]\n", argv[0]);
            return 2;
        }
    }
    std::printf("%8s %8s %10s %10s %10s %12s %10s %12s\n", "GPUs", "links", "plan s", "json s", "json MiB", "peak MiB", "us/GPU",
        "target");
    for (long long gpus : sizes) {
        int fds[2];
        if (pipe(fds) != 0)
            return 2;
        const pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            _exit(runChild(gpus, repeat, fds[1]));
        }
        close(fds[1]);
        char buf[256] = {};
        const ssize_t n = read(fds[0], buf, sizeof buf - 1);
        close(fds[0]);
        int status = 0;
        struct rusage usage { };
        wait4(pid, &status, 0, &usage);
        double planS = 0, jsonS = 0;
        unsigned long long links = 0, bytes = 0;
        if (n <= 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0
            || std::sscanf(buf, "%lf %lf %llu %llu", &planS, &jsonS, &links, &bytes) != 4) {
            std::fprintf(stderr, "size %lld failed\n", gpus);
            return 1;
        }
        const double peakMiB = static_cast<double>(usage.ru_maxrss) / 1024.0;
        const bool target = gpus < 131072 || (planS < 0.5 && peakMiB < 512);
        std::printf("%8lld %8llu %10.3f %10.3f %10.1f %12.1f %10.2f %12s\n", gpus, links, planS, jsonS,
            static_cast<double>(bytes) / 1048576.0, peakMiB, planS * 1e6 / static_cast<double>(gpus),
            gpus < 131072 ? "-" : (target ? "met" : "MISSED"));
        std::fflush(stdout);
    }
    return 0;
}
