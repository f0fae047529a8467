// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 Railyard contributors
// nccl-tests output, line by line. Sections: text helpers; what the tests are (the table that
// tool inference works from); one line's kinds (NCCL and launcher lines, nccl-tests' own lines,
// table rows); the parser; finishing (tool, ranks, findings); the whole-text entry and JSON.
// The rules are stated in nccl_tests_output.h.
#include "live/common/nccl_tests_output.h"
#include "live/common/text_scan.h"

#include "core/plan_json.h"
#include "core/text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <utility>

namespace railyard::live {

namespace {

    using namespace text;

    // ---------------------------------------------------------------------------------------
    // Text helpers

    /// "1e-07", "3.5e+00", "1.23457e+06": printf's %e/%g exponent form, with its two-digit
    /// exponent (so a cut "1e-0" does not pass).
    bool isExponentForm(std::string_view s)
    {
        if (!s.empty() && (s.front() == '-' || s.front() == '+'))
            s.remove_prefix(1);
        const auto e = s.find_first_of("eE");
        if (e == std::string_view::npos || e == 0)
            return false;
        const std::string_view mant = s.substr(0, e);
        std::string_view expo = s.substr(e + 1);
        const auto dot = mant.find('.');
        if (dot == std::string_view::npos) {
            if (!allDigits(mant))
                return false;
        } else if (!allDigits(mant.substr(0, dot)) || (dot + 1 < mant.size() && !allDigits(mant.substr(dot + 1)))) {
            return false;
        }
        if (expo.empty() || (expo.front() != '+' && expo.front() != '-'))
            return false;
        expo.remove_prefix(1);
        return expo.size() >= 2 && allDigits(expo);
    }

    std::string joinNames(const std::vector<std::string>& names, std::size_t max = 6)
    {
        std::string out;
        for (std::size_t i = 0; i < names.size() && i < max; ++i)
            out += (i ? ", " : "") + names[i];
        if (names.size() > max)
            out += " and " + std::to_string(names.size() - max) + " more";
        return out;
    }

    std::string plural(std::size_t n, std::string_view one, std::string_view many)
    {
        return std::to_string(n) + " " + std::string(n == 1 ? one : many);
    }

    // ---------------------------------------------------------------------------------------
    // What the tests are: the facts of nccl-tests' src/*.cu that tell one test's table from another's.

    enum class Factor { AllReduce, NMinus1, One }; ///< busbw/algbw: 2(n-1)/n, (n-1)/n, 1

    struct ToolInfo {
        std::string_view name;
        bool reducing;   ///< 2.13+: prints a reduction op ("sum"), not "none"
        bool rooted;     ///< prints a root >= 0
        bool perRankCount; ///< count is per rank: bytes = count x word x ranks
        Factor factor;
        bool oldRedopColumn; ///< before 2.13: has a redop column
        bool oldRedopBlank;  ///< ... that is printed blank (alltoall)
        bool oldRootColumn;  ///< before 2.13: has a root column
        bool oldFactorOne;   ///< before June 2020 busbw was algbw (all_gather, reduce_scatter)
        bool inferable;      ///< the table alone can tell it (not alltoallv, hypercube)
    };

    constexpr std::array<ToolInfo, 11> kTools { {
        { "all_reduce_perf", true, false, false, Factor::AllReduce, true, false, false, false, true },
        { "all_gather_perf", false, false, true, Factor::NMinus1, false, false, false, true, true },
        { "reduce_scatter_perf", true, false, true, Factor::NMinus1, true, false, false, true, true },
        { "alltoall_perf", false, false, true, Factor::NMinus1, true, true, false, false, true },
        { "broadcast_perf", false, true, false, Factor::One, false, false, true, false, true },
        { "reduce_perf", true, true, false, Factor::One, true, false, true, false, true },
        { "gather_perf", false, true, true, Factor::NMinus1, false, false, true, false, true },
        { "scatter_perf", false, true, true, Factor::NMinus1, false, false, true, false, true },
        { "sendrecv_perf", true, false, false, Factor::One, false, false, false, false, true },
        { "alltoallv_perf", false, false, true, Factor::NMinus1, true, true, false, false, false },
        { "hypercube_perf", false, false, false, Factor::One, false, false, false, false, false },
    } };

    const ToolInfo* toolInfo(std::string_view name)
    {
        for (const ToolInfo& t : kTools)
            if (t.name == name)
                return &t;
        return nullptr;
    }

    /// "./build/all_reduce_perf", "all_reduce_perf_mpi", "allreduce", "AllReduce" -> "all_reduce_perf";
    /// empty when it names no known test.
    std::string canonicalTool(std::string_view text)
    {
        text = trim(text);
        if (const auto slash = text.rfind('/'); slash != std::string_view::npos)
            text = text.substr(slash + 1);
        std::string s = core::toLower(text);
        if (endsWith(s, "_mpi"))
            s.resize(s.size() - 4);
        if (endsWith(s, "_perf"))
            s.resize(s.size() - 5);
        std::erase(s, '_');
        std::erase(s, '-');
        for (const ToolInfo& t : kTools) {
            std::string bare(t.name.substr(0, t.name.size() - 5));
            std::erase(bare, '_');
            if (s == bare)
                return std::string(t.name);
        }
        return {};
    }

    /// Bytes per element of nccl-tests' type names (old and new); 0 when unknown.
    std::uint64_t wordSize(std::string_view type)
    {
        static const std::map<std::string, std::uint64_t, std::less<>> sizes {
            { "int8", 1 }, { "uint8", 1 }, { "char", 1 }, { "f8e4m3", 1 }, { "f8e5m2", 1 }, { "fp8_e4m3", 1 }, { "fp8_e5m2", 1 },
            { "half", 2 }, { "float16", 2 }, { "bfloat16", 2 }, { "bf16", 2 },
            { "float", 4 }, { "float32", 4 }, { "int32", 4 }, { "uint32", 4 }, { "int", 4 }, { "uint", 4 },
            { "double", 8 }, { "float64", 8 }, { "int64", 8 }, { "uint64", 8 }, { "long", 8 }, { "ulong", 8 },
        };
        const auto it = sizes.find(type);
        return it == sizes.end() ? 0 : it->second;
    }

    /// nccl-tests' pass mark for the old float error column (DeltaMaxValue in common.cu, times ranks-1).
    double errorTolerance(std::string_view type, int ranks)
    {
        double base = 1e-200;
        if (type == "half" || type == "bfloat16" || type == "float16")
            base = 1e-2;
        else if (type == "float" || type == "float32")
            base = 1e-5;
        else if (type == "double" || type == "float64")
            base = 1e-12;
        return base * std::max(ranks - 1, 1);
    }

    bool isReducingOp(std::string_view op) { return !op.empty() && op != "none"; }

    // ---------------------------------------------------------------------------------------
    // Launcher labels, NCCL lines and failure reports

    /// srun's "0: " / " 12: " and Open MPI's "[1,0]<stdout>:" labels.
    std::string_view stripLabel(std::string_view s)
    {
        std::size_t i = 0;
        while (i < s.size() && s[i] == ' ')
            ++i;
        std::size_t d = i;
        while (d < s.size() && isDigit(s[d]))
            ++d;
        if (d > i && d < s.size() && s[d] == ':' && (d + 1 == s.size() || s[d + 1] == ' ' || s[d + 1] == '\t'))
            return s.substr(std::min(d + 2, s.size()));
        if (startsWith(s, "[")) {
            const auto close = s.find("]<std");
            if (close != std::string_view::npos) {
                const auto colon = s.find(">:", close);
                if (colon != std::string_view::npos)
                    return s.substr(colon + 2);
            }
        }
        return s;
    }

    /// Whether `s` starts like an NCCL log line ("v100-gpu-1:14926:14926 [0] ...", the host may be
    /// empty); its host goes to `host`.
    bool ncclLinePrefix(std::string_view s, std::string* host = nullptr)
    {
        const auto words = splitWs(s);
        if (words.empty())
            return false;
        const auto w = words.front();
        const auto c1 = w.find(':');
        if (c1 == std::string_view::npos)
            return false;
        const auto c2 = w.find(':', c1 + 1);
        if (c2 == std::string_view::npos || !allDigits(w.substr(c1 + 1, c2 - c1 - 1)) || !allDigits(w.substr(c2 + 1)))
            return false;
        if (host)
            *host = std::string(w.substr(0, c1));
        return true;
    }

    /// The word before ": Test ..." ("node7: Test NCCL failure ..."), else "".
    std::string hostBefore(std::string_view s, std::size_t pos)
    {
        std::string_view head = trim(s.substr(0, pos));
        if (endsWith(head, ":"))
            head.remove_suffix(1);
        const auto words = splitWs(head);
        return words.empty() ? std::string() : std::string(words.back());
    }

    struct Report {
        core::Severity severity = core::Severity::Error;
        std::string key;     ///< groups repeats
        std::string message;
        std::string where;
        bool ncclWarn = false;
        bool relay = false;  ///< " .. host pid N: Test failure": the trace of an error already reported
        std::string host;
        int line = 0;
        int count = 1;
        std::vector<std::string> hosts;
    };

    std::string signalHint(int signal, const std::string& node)
    {
        switch (signal) {
        case 9:
            return "signal 9 is usually the out-of-memory killer or the scheduler (time or memory limit): check `dmesg` and the job's limits on " + node;
        case 11:
        case 7:
            return "it crashed: check that nccl-tests, NCCL and MPI come from the same build environment, and rerun with NCCL_DEBUG=INFO";
        case 15:
            return "it was terminated (signal 15), usually by the scheduler or by mpirun after another rank failed: look for the first error above";
        default:
            return "look for the first error above (Test NCCL failure, NCCL WARN) and rerun with NCCL_DEBUG=INFO";
        }
    }

    /// A line of a launcher, of NCCL or of nccl-tests that tells of a failure (or an NCCL WARN).
    std::optional<Report> reportOf(std::string_view raw)
    {
        Report r;
        const std::string_view s = trim(raw);
        // NCCL's own warning lines: "host:pid:tid [dev] file.cc:63 NCCL WARN ...", or bare "NCCL WARN ...".
        const std::string_view unlabelled = trim(stripLabel(s));
        if (const auto p = s.find("NCCL WARN");
            p != std::string_view::npos && (startsWith(unlabelled, "NCCL WARN") || ncclLinePrefix(unlabelled, &r.host))) {
            r.ncclWarn = true;
            r.severity = core::Severity::Warning;
            r.key = std::string(trim(s.substr(p + 9)));
            return r;
        }
        for (const std::string_view what : { std::string_view("Test NCCL failure"), std::string_view("Test CUDA failure") }) {
            const auto p = s.find(what);
            if (p == std::string_view::npos)
                continue;
            r.host = hostBefore(s, p);
            const std::string detail(trim(s.substr(p + what.size())));
            const bool nccl = what == "Test NCCL failure";
            r.message = std::string(nccl ? "An NCCL call failed" : "A CUDA call failed") + (r.host.empty() ? "" : " on " + r.host)
                + " (" + detail + "), so the test stopped. ";
            r.message += nccl ? "Rerun with NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET and read that log (`results import --kind "
                                "nccl-log`): 'unhandled system error' is usually the network (a port down, a wrong GID or "
                                "interface, a firewall), 'remote process exited' a peer that died first."
                              : "Check the GPUs with nvidia-smi and `dmesg` (Xid errors), and that the driver supports the CUDA "
                                "runtime nccl-tests was built with.";
            r.where = r.host;
            r.key = std::string(s);
            return r;
        }
        if (const auto p = s.find("Test timeout"); p != std::string_view::npos) {
            r.host = hostBefore(s, p);
            r.message = "The test timed out" + (r.host.empty() ? std::string() : " on " + r.host) + " ("
                + std::string(trim(s.substr(p + 12))) + "): a collective hung, often on a network path that does not "
                "pass traffic; check the links and rerun with NCCL_DEBUG=INFO.";
            r.where = r.host;
            r.key = std::string(s);
            return r;
        }
        if (startsWith(s, ".. ") && contains(s, ": Test failure")) {
            r.relay = true;
            const auto words = splitWs(s);
            r.host = words.size() > 1 ? std::string(words[1]) : std::string();
            r.message = "nccl-tests reported a failure" + (r.host.empty() ? std::string() : " on " + r.host) + " ("
                + std::string(trim(s.substr(s.find(": Test failure") + 14))) + "): look for the first error above it.";
            r.where = r.host;
            r.key = "relay " + r.host;
            return r;
        }
        if (const auto p = s.find("mpirun noticed that process rank"); p != std::string_view::npos) {
            const auto w = splitWs(s.substr(p));
            // mpirun noticed that process rank 3 with PID 123 on node X exited on signal 9 (Killed).
            std::string rank = w.size() > 5 ? std::string(w[5]) : "?";
            std::string node;
            int signal = -1;
            for (std::size_t i = 0; i + 1 < w.size(); ++i) {
                if (w[i] == "node")
                    node = std::string(w[i + 1]);
                if (w[i] == "signal")
                    signal = toNumber<int>(w[i + 1]).value_or(-1);
            }
            r.host = node;
            r.message = "MPI rank " + rank + (node.empty() ? "" : " on " + node) + " died: " + std::string(s.substr(p)) + " "
                + signalHint(signal, node.empty() ? "that node" : node) + ".";
            r.where = "rank " + rank + (node.empty() ? "" : " on " + node);
            r.key = std::string(s.substr(p));
            return r;
        }
        if (contains(s, "Primary job") && contains(s, "terminated normally")) {
            r.message = "mpirun: " + std::string(s.substr(s.find("but") == std::string_view::npos ? 0 : s.find("but") + 4))
                + " (the job was aborted). Look for that rank's own error above (Test NCCL failure, NCCL WARN) and rerun.";
            r.key = "primary job";
            return r;
        }
        if (contains(s, "mpirun detected that one or more processes exited with non-zero status")
            || contains(s, "has lost communication with")) {
            r.message = "mpirun: " + std::string(s) + " Look for the first error above and rerun.";
            r.key = std::string(s);
            return r;
        }
        if (const auto p = s.find("srun: error:"); p != std::string_view::npos) {
            const std::string rest(trim(s.substr(p + 12)));
            const auto tasks = rest.find(": task");
            r.host = tasks == std::string::npos ? std::string() : rest.substr(0, tasks);
            r.message = "Slurm: " + rest + ". " + (tasks == std::string::npos ? "The job step did not run to its end." : "Look at that task's own output above for the cause.");
            r.where = r.host;
            r.key = std::string(s.substr(p));
            return r;
        }
        if (const auto p = s.find("slurmstepd: error:"); p != std::string_view::npos) {
            r.message = "Slurm stopped the job step: " + std::string(trim(s.substr(p + 18)));
            r.key = std::string(s.substr(p));
            return r;
        }
        if (contains(s, "*** Process received signal ***") || contains(s, "Segmentation fault") || contains(s, "(core dumped)")
            || startsWith(s, "terminate called after throwing")) {
            r.message = "A process crashed: " + std::string(s) + ". " + signalHint(11, "");
            r.key = "crash";
            return r;
        }
        if (startsWith(s, "Invalid number of GPUs:")) {
            r.message = "nccl-tests stopped: " + std::string(s) + " Give -g (GPUs per process) and the process count so that they fit the GPUs of each node.";
            r.key = std::string(s);
            return r;
        }
        return std::nullopt;
    }

    std::string ncclWarnHint(std::string_view text)
    {
        if (contains(text, "libibverbs"))
            return "NCCL could not load libibverbs, so it cannot use InfiniBand or RoCE and falls back to TCP sockets: install "
                   "rdma-core (libibverbs) where the test runs, inside the container too.";
        if (contains(text, "NET/IB") || contains(text, "ibv_"))
            return "An InfiniBand/RoCE call failed: check the ports (ibstat), the GID index and the NIC firmware, and read the "
                   "NCCL_DEBUG=INFO log (`results import --kind nccl-log`).";
        return "Read the NCCL log around it (NCCL_DEBUG=INFO; `results import --kind nccl-log`).";
    }

    /// "22602" -> "2.26.2", "2804" -> "2.8.4" (NCCL_VERSION_CODE before and after 2.9).
    std::string versionFromCode(std::string_view code)
    {
        const auto v = toNumber<long>(code);
        if (!v || *v <= 0)
            return {};
        const long major = *v >= 10000 ? *v / 10000 : *v / 1000;
        const long minor = *v >= 10000 ? (*v % 10000) / 100 : (*v % 1000) / 100;
        return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(*v % 100);
    }

    // ---------------------------------------------------------------------------------------
    // The results table

    struct Layout {
        bool known = false;
        bool guessed = false;  ///< from the first row, no header line seen
        bool hasRedop = false;
        bool hasRoot = false;
        int groups = 0;        ///< 2: out-of-place and in-place
        bool perIter = false;  ///< i_min i_max i_p99 i_cv% after each group
        bool errorColumn = false; ///< the old float error / res column (before 2.13)
        bool timestamp = false;
        bool cpuTime = false;  ///< "cputime" columns (-C 1)
        double timeScale = 1;  ///< 1000 when times are in ms (oldest format)
        std::string signature; ///< the header's words, to compare repeats

        std::size_t groupWidth() const { return perIter ? 8 : 4; }
    };

    /// "size count type redop root time algbw busbw #wrong time algbw busbw #wrong" and every
    /// older form; nullopt when the words are no table header.
    std::optional<Layout> parseTableHeader(const std::vector<std::string_view>& w)
    {
        if (w.size() < 7)
            return std::nullopt;
        Layout l;
        if (w[0] == "size" && w[1] == "count") {
        } else if (w[0] == "bytes" && w[1] == "N") {
            l.timeScale = 1000; // the 2017 format printed ms
        } else {
            return std::nullopt;
        }
        if (w[2] != "type")
            return std::nullopt;
        std::size_t i = 3;
        if (i < w.size() && (w[i] == "redop" || w[i] == "op")) {
            l.hasRedop = true;
            ++i;
        }
        if (i < w.size() && w[i] == "root") {
            l.hasRoot = true;
            ++i;
        }
        bool sawWrong = false;
        bool sawError = false;
        while (i + 4 <= w.size() && (w[i] == "time" || w[i] == "cputime")) {
            if (w[i + 1] != "algbw" || w[i + 2] != "busbw")
                return std::nullopt;
            const auto e = w[i + 3];
            l.cpuTime = l.cpuTime || w[i] == "cputime";
            if (e == "#wrong" || e == "wrong")
                sawWrong = true;
            else if (e == "error" || e == "res")
                sawError = true;
            else
                return std::nullopt;
            i += 4;
            const bool per = i + 4 <= w.size() && w[i] == "i_min" && w[i + 1] == "i_max" && w[i + 2] == "i_p99" && w[i + 3] == "i_cv%";
            if (l.groups == 0)
                l.perIter = per;
            else if (per != l.perIter)
                return std::nullopt;
            if (per)
                i += 4;
            ++l.groups;
        }
        if (l.groups == 0 || (sawWrong && sawError))
            return std::nullopt;
        l.errorColumn = sawError;
        if (i < w.size() && w[i] == "timestamp") {
            l.timestamp = true;
            ++i;
        }
        // Words left over: a header cut in its last group (the rest is ignored, rows say if it fits).
        l.known = true;
        for (std::size_t k = 0; k < i; ++k)
            l.signature += (k ? " " : "") + std::string(w[k]);
        return l;
    }

    bool wellFormedCheck(std::string_view s, bool errorColumn)
    {
        if (s == "N/A")
            return true;
        if (errorColumn)
            return isExponentForm(s); // "%5.0le": "1e-07", "0e+00"
        return allDigits(s) || isExponentForm(s); // "%6g" of a count: "0", "12", "1.23457e+06"
    }

    std::optional<NcclTestsResult> parseGroup(const std::vector<std::string_view>& w, std::size_t i, const Layout& l)
    {
        NcclTestsResult r;
        const auto t = toNumber<double>(w[i]);
        const auto a = toNumber<double>(w[i + 1]);
        const auto b = toNumber<double>(w[i + 2]);
        if (!t || !a || !b || *t < 0 || *a < 0 || *b < 0)
            return std::nullopt;
        r.timeUs = *t * l.timeScale;
        r.algbwGBs = *a;
        r.busbwGBs = *b;
        const auto check = w[i + 3];
        if (!wellFormedCheck(check, l.errorColumn))
            return std::nullopt;
        if (check != "N/A") {
            const auto v = toNumber<double>(check);
            if (!v || *v < 0)
                return std::nullopt;
            if (l.errorColumn)
                r.error = *v;
            else
                r.wrong = static_cast<long long>(std::llround(*v));
        }
        if (l.perIter) {
            std::array<double, 4> it {};
            for (std::size_t k = 0; k < 4; ++k) {
                const auto v = toNumber<double>(w[i + 4 + k]);
                if (!v)
                    return std::nullopt;
                it[k] = *v;
            }
            r.iterMinUs = it[0];
            r.iterMaxUs = it[1];
            r.iterP99Us = it[2];
            r.iterCvPct = it[3];
        }
        return r;
    }

    /// One table row under layout `l`; nullopt when a column is missing or malformed (a cut line).
    std::optional<NcclTestsRow> parseRow(const std::vector<std::string_view>& w, const Layout& l)
    {
        if (w.size() < 3 || !allDigits(w[0]) || !allDigits(w[1]))
            return std::nullopt;
        if (!std::isalpha(static_cast<unsigned char>(w[2].front())))
            return std::nullopt;
        const std::size_t perf = static_cast<std::size_t>(l.groups) * l.groupWidth();
        const std::size_t stamp = l.timestamp ? 2 : 0;
        const std::size_t leading = (l.hasRedop ? 1 : 0) + (l.hasRoot ? 1 : 0);
        const std::size_t have = w.size() - 3;
        bool redopBlank = false;
        if (have == leading + perf + stamp) {
        } else if (l.hasRedop && have + 1 == leading + perf + stamp) {
            redopBlank = true; // the old alltoall prints an empty redop column
        } else {
            return std::nullopt;
        }
        NcclTestsRow row;
        row.bytes = toNumber<std::uint64_t>(w[0]).value_or(0);
        row.count = toNumber<std::uint64_t>(w[1]).value_or(0);
        row.type = std::string(w[2]);
        row.redop = "none";
        std::size_t i = 3;
        if (l.hasRedop && !redopBlank) {
            if (toNumber<double>(w[i]))
                return std::nullopt;
            row.redop = std::string(w[i]);
            ++i;
        }
        if (l.hasRoot) {
            const auto root = toNumber<int>(w[i]);
            if (!root)
                return std::nullopt;
            row.root = *root;
            ++i;
        }
        const auto oop = parseGroup(w, i, l);
        if (!oop)
            return std::nullopt;
        row.outOfPlace = *oop;
        i += l.groupWidth();
        if (l.groups >= 2) {
            const auto ip = parseGroup(w, i, l);
            if (!ip)
                return std::nullopt;
            row.inPlace = *ip;
            row.hasInPlace = true;
            i += l.groupWidth() * static_cast<std::size_t>(l.groups - 1);
        }
        if (l.timestamp) {
            row.timestamp = std::string(w[i]) + " " + std::string(w[i + 1]);
        }
        return row;
    }

    /// A layout for a row met without a header line ('#' lines dropped by the publisher, or a
    /// table pasted alone): 11, 12 or 13 words with a known type name.
    std::optional<Layout> guessLayout(const std::vector<std::string_view>& w)
    {
        if (w.size() < 11 || w.size() > 13 || !allDigits(w[0]) || !allDigits(w[1]) || wordSize(w[2]) == 0)
            return std::nullopt;
        Layout l;
        l.known = true;
        l.guessed = true;
        l.groups = 2;
        if (w.size() == 13) {
            l.hasRedop = l.hasRoot = true;
        } else if (w.size() == 12) {
            (toNumber<int>(w[3]) ? l.hasRoot : l.hasRedop) = true;
        }
        const auto check = w[w.size() - 1];
        l.errorColumn = check == "N/A" ? w.size() < 13 : isExponentForm(check);
        l.signature = "(guessed)";
        return l;
    }

    // ---------------------------------------------------------------------------------------
    // Evidence for the tool and the rank count, from the table

    struct Evidence {
        bool rows = false;
        bool oldLayout = false;
        bool hasRedopColumn = false;
        bool hasRootColumn = false;
        bool anyReducing = false; ///< a row with "sum", "max", ...
        bool anyNone = false;     ///< a row with "none" or a blank op
        bool anyRooted = false;   ///< a row with root >= 0
        bool anyUnrooted = false;
        std::set<std::uint64_t> k; ///< bytes / (count x word size) over rows with count > 0
        std::optional<double> ratio; ///< busbw / algbw of the widest cell (algbw >= 0.05 GB/s)
        double ratioTolerance = 0;
        int rankLines = 0; ///< distinct ranks from rank lines; 0 when none
    };

    double printedError(double v) { return 0.005 + 5e-5 * std::fabs(v); } ///< rounding bound of a %6.2f-ish value

    double factorValue(Factor f, int n)
    {
        switch (f) {
        case Factor::AllReduce: return 2.0 * (n - 1) / n;
        case Factor::NMinus1: return static_cast<double>(n - 1) / n;
        case Factor::One: break;
        }
        return 1.0;
    }

    struct Fit {
        bool ok = false;
        int ranks = 0; ///< 0: the evidence does not fix it
        std::string source;
    };

    /// Whether the table fits test `t`, and the rank count it then implies.
    Fit fitTool(const ToolInfo& t, const Evidence& ev)
    {
        Fit fit;
        if (ev.oldLayout) {
            if (ev.hasRedopColumn != t.oldRedopColumn || ev.hasRootColumn != t.oldRootColumn)
                return fit;
            if (t.oldRedopColumn && t.oldRedopBlank && ev.anyReducing)
                return fit;
            if (t.oldRedopColumn && !t.oldRedopBlank && ev.anyNone)
                return fit;
        } else {
            if (ev.anyReducing && !t.reducing)
                return fit;
            if (ev.anyNone && t.reducing)
                return fit;
        }
        if (ev.hasRootColumn && ((ev.anyRooted && !t.rooted) || (ev.anyUnrooted && t.rooted)))
            return fit;
        int n = ev.rankLines;
        if (n > 0)
            fit.source = "rank_lines";
        if (!ev.k.empty()) {
            if (t.perRankCount) {
                if (ev.k.size() != 1)
                    return fit;
                const auto k = static_cast<int>(*ev.k.begin());
                if (n > 0 && k != n)
                    return fit;
                if (n == 0) {
                    n = k;
                    fit.source = "bytes_per_count";
                }
            } else if (ev.k.size() != 1 || *ev.k.begin() != 1) {
                return fit;
            }
        }
        if (ev.ratio) {
            std::vector<Factor> factors { t.factor };
            if (ev.oldLayout && t.oldFactorOne)
                factors.push_back(Factor::One);
            bool any = false;
            int found = 0;
            int foundCount = 0;
            for (const Factor f : factors) {
                if (n > 0) {
                    if (std::fabs(factorValue(f, n) - *ev.ratio) <= ev.ratioTolerance)
                        any = true;
                    continue;
                }
                if (f == Factor::One) {
                    if (std::fabs(1.0 - *ev.ratio) <= ev.ratioTolerance)
                        any = true;
                    continue;
                }
                const double r = *ev.ratio;
                const double limit = f == Factor::AllReduce ? 2.0 : 1.0; // f(n) rises towards it
                if (r + ev.ratioTolerance >= limit) {
                    if (r - ev.ratioTolerance <= limit) {
                        any = true; // fits some large n, too imprecise to say which
                        foundCount += 2;
                    }
                    continue;
                }
                const double guess = f == Factor::AllReduce ? 2.0 / (2.0 - r) : 1.0 / (1.0 - r);
                const int g = static_cast<int>(std::lround(guess));
                for (int c = std::max(1, g - 2); c <= g + 2; ++c) {
                    if (std::fabs(factorValue(f, c) - r) <= ev.ratioTolerance) {
                        any = true;
                        if (found != c) {
                            found = c;
                            ++foundCount;
                        }
                    }
                }
            }
            if (!any)
                return fit;
            if (n == 0 && foundCount == 1) {
                n = found;
                fit.source = "busbw_ratio";
            }
        }
        fit.ok = true;
        fit.ranks = n;
        if (n == 0)
            fit.source.clear();
        return fit;
    }

    std::string describeEvidence(const Evidence& ev)
    {
        std::vector<std::string> parts;
        if (ev.oldLayout)
            parts.push_back(std::string("the pre-2.13 columns (") + (ev.hasRedopColumn ? "redop" : "no redop") + ", "
                + (ev.hasRootColumn ? "root" : "no root") + ")");
        if (ev.anyReducing)
            parts.push_back("a reduction op");
        else if (ev.anyNone && !ev.oldLayout)
            parts.push_back("redop 'none'");
        if (ev.hasRootColumn)
            parts.push_back(ev.anyRooted ? "a root >= 0" : "root -1");
        if (!ev.k.empty())
            parts.push_back("bytes = " + std::string(*ev.k.begin() == 1 ? "count x word size" : std::to_string(*ev.k.begin()) + " x count x word size"));
        if (ev.ratio)
            parts.push_back("busbw/algbw " + core::formatFixed(*ev.ratio, 3));
        return joinNames(parts, 10);
    }

} // namespace

// -------------------------------------------------------------------------------------------
// The parser

struct NcclTestsParser::State {
    std::string hint;
    NcclTestsRun run;
    Layout layout;
    int lineNo = 0;
    bool started = false;
    int preambleSkipped = 0;
    int otherSkipped = 0;
    int firstOtherLine = 0;
    std::string firstOther;

    int headerLines = 0; ///< "nThread ..." lines before the first footer
    int usingDevices = 0;
    int tableHeaders = 0;
    std::vector<std::string> duplicateNotes;
    bool duplicated = false;
    std::set<std::pair<int, int>> rankKeys;

    std::string printedTool;
    int printedToolLine = 0;
    std::string commandTool; ///< last command line naming a test before the first row
    int commandToolLine = 0;
    bool outOfBoundsSeen = false;
    int footers = 0;
    bool concluded = false;
    bool secondRun = false;
    int secondRunLine = 0;
    int ignoredAfterFooter = 0;

    std::vector<Report> reports;
    std::vector<std::string> ncclErrors;
    std::string lastCutRow; ///< the last line that began like a row but did not fit
    int lastCutRowLine = 0;
    bool lastLineWasCutRow = false;
    bool lastLineUsed = false; ///< the last line fed was understood (nccl-tests', NCCL's or a failure report)
    std::vector<std::string> notes; ///< warnings collected while reading

    // mpirun forwards each rank's output in pieces that need not end at a line's end, so another
    // rank's NCCL line can land inside a row of rank 0's table: "   268435456  67108864  float  "
    // then "node005:2170:2170 [5] NCCL INFO ..." on the same line, and the row's rest
    // ("sum  -1  1035.86 ...") at the start of the next line of rank 0's.
    std::set<std::string, std::less<>> hosts; ///< of the rank lines and NCCL's lines: where such a line may begin
    std::string rowHead;      ///< the start of a row cut off that way, waiting for its rest
    std::string rowGlue;      ///< and the host word's start glued to it, some of which may be the row's
    int rowHeadLine = 0;
    int rowsJoined = 0;       ///< rows read from two pieces
    std::string firstJoined;  ///< "lines 150 and 152"
    int rowHeadsLost = 0;     ///< starts of rows whose rest never came
    int firstLostLine = 0;

    const NcclTestsRow* feed(std::string_view line);
    /// Where another rank's NCCL line begins inside `line` when `line` begins like a row: the row's
    /// piece is line[0, pieceEnd), line[pieceEnd, glueEnd) may be either's, NCCL's line begins at
    /// or after pieceEnd.
    struct Cut {
        std::size_t pieceEnd = 0, glueEnd = 0;
    };
    std::optional<Cut> cutRow(std::string_view line) const;
    /// True when `rest` completed the row whose start is waiting (the row in *row; null when it is ignored).
    bool joinRowHead(std::string_view rest, const NcclTestsRow** row);
    bool classify(std::string_view body, bool hashed, const NcclTestsRow** row);
    void addReport(Report r);
    void duplicate(std::string note);
    int distinctRanks() const { return static_cast<int>(rankKeys.size()); }
};

NcclTestsParser::NcclTestsParser(std::string toolHint)
    : m_state(std::make_unique<State>())
{
    m_state->hint = std::move(toolHint);
}
NcclTestsParser::~NcclTestsParser() = default;
NcclTestsParser::NcclTestsParser(NcclTestsParser&&) noexcept = default;
NcclTestsParser& NcclTestsParser::operator=(NcclTestsParser&&) noexcept = default;

const NcclTestsRow* NcclTestsParser::feed(std::string_view line) { return m_state->feed(line); }
bool NcclTestsParser::recognised() const { return m_state->started; }
bool NcclTestsParser::lastLineRead() const { return m_state->lastLineUsed; }

void NcclTestsParser::State::addReport(Report r)
{
    r.line = lineNo;
    for (Report& old : reports) {
        if (old.key == r.key && old.ncclWarn == r.ncclWarn) {
            ++old.count;
            if (!r.host.empty() && std::find(old.hosts.begin(), old.hosts.end(), r.host) == old.hosts.end())
                old.hosts.push_back(r.host);
            return;
        }
    }
    if (!r.host.empty())
        r.hosts.push_back(r.host);
    reports.push_back(std::move(r));
}

void NcclTestsParser::State::duplicate(std::string note)
{
    duplicated = true;
    if (std::find(duplicateNotes.begin(), duplicateNotes.end(), note) == duplicateNotes.end())
        duplicateNotes.push_back(std::move(note));
}

std::optional<NcclTestsParser::State::Cut> NcclTestsParser::State::cutRow(std::string_view line) const
{
    constexpr auto npos = std::string_view::npos;
    const std::size_t first = line.find_first_not_of(" \t");
    // (srun --label and the like forward whole lines: a labelled line is never cut.)
    if (!layout.known || first == npos || !isDigit(line[first]) || stripLabel(line).size() != line.size())
        return std::nullopt;
    // NCCL's "host:pid:tid [dev] NCCL INFO|WARN|TRACE ...": the word before " [dev] NCCL ".
    const std::size_t marker = line.find("] NCCL ", first);
    const std::size_t open = marker == npos ? npos : line.rfind(" [", marker);
    if (open == npos || open <= first || !toNumber<int>(line.substr(open + 2, marker - open - 2)))
        return std::nullopt;
    const std::size_t blank = line.find_last_of(" \t", open - 1);
    const std::size_t wordStart = blank == npos ? 0 : blank + 1;
    std::string host;
    if (!ncclLinePrefix(line.substr(wordStart, open - wordStart), &host) || host.size() > 255) // (DNS: 253 at most)
        return std::nullopt;
    // The row's piece may be glued to the host ("...flonode005:2170:2170"): the host begins where
    // a known host name does (the longest that fits); else the piece may reach into the word
    // (joinRowHead tells how far).
    Cut cut { wordStart, wordStart + host.size() };
    for (const std::string& h : hosts)
        if (!h.empty() && host.size() >= h.size() && endsWith(host, h))
            cut.pieceEnd = cut.glueEnd = std::min(cut.glueEnd, wordStart + host.size() - h.size());
    // What may be the row's reads like a row's start: blanks (nccl-tests right-aligns the size),
    // a number, no colon (no time of day).
    if (cut.pieceEnd == 0 || cut.glueEnd <= first || line.substr(0, cut.glueEnd).find(':') != npos)
        return std::nullopt;
    return cut;
}

bool NcclTestsParser::State::joinRowHead(std::string_view rest, const NcclTestsRow** row)
{
    if (rowHead.empty() && rowGlue.empty())
        return false;
    const std::string head = std::exchange(rowHead, {});
    const std::string glue = std::exchange(rowGlue, {});
    // The longest share of the glued word that makes a row with the rest: a host name does not
    // go on a number.
    for (std::size_t k = glue.size() + 1; k-- > 0;) {
        const std::string joined = head + glue.substr(0, k) + std::string(rest);
        const std::string_view body = trim(joined);
        const auto w = splitWs(body);
        if (w.empty() || !allDigits(w.front()) || !parseRow(w, layout))
            continue;
        if (!classify(body, false, row))
            break;
        if (*row && !trim(head + glue.substr(0, k)).empty()) { // (a piece of blanks only joins nothing)
            run.rows.back().line = rowHeadLine;
            if (rowsJoined++ == 0)
                firstJoined = "lines " + std::to_string(rowHeadLine) + " and " + std::to_string(lineNo);
        }
        return true;
    }
    if (rowHeadsLost++ == 0)
        firstLostLine = rowHeadLine;
    return false;
}

const NcclTestsRow* NcclTestsParser::State::feed(std::string_view line)
{
    ++lineNo;
    lastLineWasCutRow = false;
    lastLineUsed = false;
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.remove_suffix(1);
    if (trim(line).empty()) {
        // A row cut just before its line's end: the piece was the whole row.
        const NcclTestsRow* row = nullptr;
        lastLineUsed = joinRowHead({}, &row);
        return row;
    }
    if (secondRun) {
        ++ignoredAfterFooter;
        return nullptr;
    }
    bool cutHere = false;
    if (const auto cut = cutRow(line)) {
        if ((!rowHead.empty() || !rowGlue.empty()) && rowHeadsLost++ == 0)
            firstLostLine = rowHeadLine;
        rowHead = std::string(line.substr(0, cut->pieceEnd));
        rowGlue = std::string(line.substr(cut->pieceEnd, cut->glueEnd - cut->pieceEnd));
        rowHeadLine = lineNo;
        line.remove_prefix(cut->glueEnd);
        cutHere = true;
    }
    if (auto report = reportOf(line)) {
        // nccl-tests' own failure lines mean its output has begun.
        if (contains(line, "Test NCCL failure") || contains(line, "Test CUDA failure") || contains(line, "Test timeout"))
            started = true;
        addReport(std::move(*report));
        lastLineUsed = true;
        return nullptr;
    }
    std::string_view s = stripLabel(line);
    // NCCL's own log lines ("host:pid:tid [0] NCCL INFO ...", "NCCL version 2.9.6+cuda11.2").
    if (const auto v = s.find("NCCL version "); v != std::string_view::npos && (contains(s, "NCCL INFO") || trim(s).substr(0, 12) == "NCCL version")) {
        const auto words = splitWs(s.substr(v + 13));
        if (!words.empty() && run.ncclVersion.empty())
            run.ncclVersion = std::string(words.front());
        lastLineUsed = true;
        return nullptr;
    }
    if (contains(s, " NCCL INFO") || contains(s, " NCCL TRACE") || startsWith(trim(s), "NCCL INFO")) {
        if (std::string host; !cutHere && ncclLinePrefix(trim(s), &host) && !host.empty() && hosts.size() < 4096)
            hosts.insert(std::move(host));
        lastLineUsed = true;
        return nullptr;
    }
    // The first line of rank 0's after a row's piece holds the row's rest.
    if (const NcclTestsRow* row = nullptr; joinRowHead(s, &row)) {
        lastLineUsed = true;
        return row;
    }

    std::string_view body = trim(s);
    bool hashed = false;
    while (!body.empty() && body.front() == '#') {
        hashed = true;
        body.remove_prefix(1);
        body = trim(body);
    }
    if (body.empty()) {
        lastLineUsed = hashed;
        return nullptr; // nccl-tests' "#" separators: neutral
    }
    const NcclTestsRow* row = nullptr;
    if (classify(body, hashed, &row)) {
        lastLineUsed = true;
        return row;
    }
    // A prefix of another program before an nccl-tests line: "node001: " (pdsh, clush), a time
    // stamp ("2025-06-01T12:00:00.123Z ", kubectl --timestamps), a bracketed tag ("[node01] ").
    {
        std::string_view rest;
        const auto first = splitWs(body);
        if (const auto colon = body.find(": "); colon != std::string_view::npos && colon > 0
            && body.substr(0, colon).find_first_of(" \t#") == std::string_view::npos) {
            rest = body.substr(colon + 2);
        } else if (!first.empty() && first.size() > 1
            && ((first[0].size() >= 10 && allDigits(first[0].substr(0, 4)) && first[0][4] == '-') || (first[0].front() == '[' && first[0].back() == ']'))) {
            rest = body.substr(static_cast<std::size_t>(first[0].data() + first[0].size() - body.data()));
        }
        rest = trim(rest);
        bool restHashed = false;
        while (!rest.empty() && rest.front() == '#') {
            restHashed = true;
            rest = trim(rest.substr(1));
        }
        if (!rest.empty() && classify(rest, restHashed, &row)) {
            lastLineUsed = true;
            return row;
        }
    }
    // A command line that runs a test names the tool ("mpirun ... ./build/all_reduce_perf -b 8").
    if (run.rows.empty()) {
        for (const auto w : splitWs(body)) {
            if (!contains(w, "_perf"))
                continue;
            if (const auto tool = canonicalTool(w); !tool.empty()) {
                commandTool = tool;
                commandToolLine = lineNo;
                break;
            }
        }
    }
    const auto words = splitWs(body);
    if (layout.known && !words.empty() && allDigits(words.front())) {
        lastCutRow = std::string(body);
        lastCutRowLine = lineNo;
        lastLineWasCutRow = true;
    }
    if (started) {
        if (otherSkipped++ == 0) {
            firstOtherLine = lineNo;
            firstOther = std::string(trim(line));
        }
    } else {
        ++preambleSkipped;
    }
    return nullptr;
}

bool NcclTestsParser::State::classify(std::string_view body, bool hashed, const NcclTestsRow** row)
{
    const auto w = splitWs(body);
    if (w.empty())
        return false;
    const bool afterFooter = footers > 0 && !duplicated;
    auto beginsRun = [&]() {
        if (afterFooter) {
            secondRun = true;
            secondRunLine = lineNo;
            ++ignoredAfterFooter;
            return false;
        }
        started = true;
        return true;
    };

    if (startsWith(body, "nccl-tests version")) {
        if (!beginsRun())
            return true;
        if (w.size() > 2)
            run.testsVersion = std::string(w[2]);
        for (const auto word : w) {
            if (startsWith(word, "nccl-library=")) {
                if (const auto v = versionFromCode(word.substr(13)); !v.empty())
                    run.ncclVersion = v;
            } else if (startsWith(word, "nccl-headers=") && run.ncclVersion.empty()) {
                run.ncclVersion = versionFromCode(word.substr(13));
            }
        }
        return true;
    }
    if (startsWith(body, "Collective test starting:") || startsWith(body, "Collective test concluded:")) {
        const bool starting = startsWith(body, "Collective test starting:");
        if (starting && !beginsRun())
            return true;
        started = true;
        const std::string_view name = trim(body.substr(body.find(':') + 1));
        if (!name.empty() && printedTool.empty()) {
            const std::string canon = canonicalTool(name);
            printedTool = canon.empty() ? std::string(name) : canon;
            printedToolLine = lineNo;
        }
        if (!starting)
            concluded = true;
        return true;
    }
    if (w[0] == "nThread") {
        if (!beginsRun())
            return true;
        if (++headerLines > 1)
            duplicate("the parameter line (\"nThread ...\") is printed " + std::to_string(headerLines) + " times");
        if (headerLines > 1)
            return true;
        std::string pending;
        for (std::size_t i = 0; i < w.size();) {
            const std::string_view word = w[i];
            if ((word == "nThread" || word == "nGpus" || word == "minBytes" || word == "maxBytes") && i + 1 < w.size()) {
                const auto v = w[i + 1];
                if (word == "nThread")
                    run.nThread = toNumber<int>(v);
                else if (word == "nGpus")
                    run.nGpus = toNumber<int>(v);
                else if (word == "minBytes")
                    run.minBytes = toNumber<std::uint64_t>(v);
                else
                    run.maxBytes = toNumber<std::uint64_t>(v);
                pending.clear();
                i += 2;
                continue;
            }
            if (endsWith(word, ":") && i + 1 < w.size()) {
                const std::string key = (pending.empty() ? "" : pending + " ") + std::string(word.substr(0, word.size() - 1));
                const std::string_view v = w[i + 1];
                if (key == "step") {
                    const auto paren = v.find('(');
                    run.step = toNumber<std::uint64_t>(v.substr(0, paren));
                    if (paren != std::string_view::npos && endsWith(v, ")"))
                        run.stepKind = std::string(v.substr(paren + 1, v.size() - paren - 2));
                } else if (key == "warmup iters") {
                    run.warmupIters = toNumber<int>(v);
                } else if (key == "iters") {
                    run.iters = toNumber<int>(v);
                } else if (key == "agg iters") {
                    run.aggIters = toNumber<int>(v);
                } else if (key == "validation") {
                    run.validation = toNumber<int>(v);
                } else if (key == "graph") {
                    run.graph = toNumber<int>(v);
                } else {
                    run.otherParams[key] = std::string(v);
                }
                pending.clear();
                i += 2;
                continue;
            }
            pending = pending.empty() ? std::string(word) : pending + " " + std::string(word);
            ++i;
        }
        return true;
    }
    if (body == "Using devices") {
        if (!beginsRun())
            return true;
        if (++usingDevices > 1)
            duplicate("\"Using devices\" is printed " + std::to_string(usingDevices) + " times");
        return true;
    }
    if (w[0] == "Rank" && w.size() >= 6) {
        NcclTestsRank rank;
        const auto r = toNumber<int>(w[1]);
        if (!r)
            return false;
        rank.rank = *r;
        std::size_t i = 2;
        if (i + 1 < w.size() && w[i] == "Group") {
            rank.group = toNumber<int>(w[i + 1]).value_or(-1);
            i += 2;
        }
        if (i + 1 < w.size() && w[i] == "Pid") {
            rank.pid = toNumber<int>(w[i + 1]).value_or(-1);
            i += 2;
        }
        if (i + 3 >= w.size() || w[i] != "on" || w[i + 2] != "device")
            return false;
        rank.host = std::string(w[i + 1]);
        const auto dev = toNumber<int>(w[i + 3]);
        if (!dev)
            return false;
        rank.device = *dev;
        const std::size_t after = static_cast<std::size_t>(w[i + 3].data() + w[i + 3].size() - body.data());
        const std::string_view tail = trim(body.substr(after));
        if (startsWith(tail, "[")) {
            const auto close = tail.find(']');
            rank.busId = std::string(tail.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
            if (close != std::string_view::npos)
                rank.gpu = std::string(trim(tail.substr(close + 1)));
        } else {
            rank.gpu = std::string(tail);
        }
        if (afterFooter) {
            ++ignoredAfterFooter;
            return true;
        }
        started = true;
        rank.line = lineNo;
        const std::pair<int, int> key { rank.group, rank.rank };
        if (!rankKeys.insert(key).second) {
            std::vector<std::string> onHosts;
            for (const auto& other : run.rankList)
                if (other.rank == rank.rank && other.group == rank.group)
                    onHosts.push_back(other.host);
            onHosts.push_back(rank.host);
            duplicate("Rank " + std::to_string(rank.rank) + " appears on more than one line (" + joinNames(onHosts) + ")");
        }
        if (hosts.size() < 4096)
            hosts.insert(rank.host);
        run.rankList.push_back(std::move(rank));
        return true;
    }
    if (const auto layoutFound = parseTableHeader(w)) {
        if (afterFooter) {
            ++ignoredAfterFooter;
            return true;
        }
        started = true;
        if (++tableHeaders > 1)
            duplicate("the table header is printed " + std::to_string(tableHeaders) + " times");
        if (!layout.known) {
            const double scale = layout.timeScale != 1 ? layout.timeScale : layoutFound->timeScale;
            layout = *layoutFound;
            layout.timeScale = scale;
            run.cpuTime = layout.cpuTime;
        } else if (layout.signature != layoutFound->signature && !layout.guessed) {
            notes.push_back("line " + std::to_string(lineNo) + ": a second table header with other columns " + quoteLine(body)
                + "; the rows are read with the first one's");
        }
        return true;
    }
    if (w[0] == "(B)") { // units line: "(B) (elements) (us) (GB/s) ..."
        started = true;
        if (contains(body, "(ms)"))
            layout.timeScale = 1000;
        else if (contains(body, "(us)"))
            layout.timeScale = 1;
        return true;
    }
    if (contains(body, "out-of-place") && contains(body, "in-place")) {
        started = true;
        return true;
    }
    if (startsWith(body, "Out of bounds values")) {
        const auto colon = body.find(':');
        const auto v = colon == std::string_view::npos ? std::vector<std::string_view> {} : splitWs(body.substr(colon + 1));
        if (v.size() < 2 || !toNumber<long long>(v[0]) || (v[1] != "OK" && v[1] != "FAILED"))
            return false;
        started = true;
        if (afterFooter)
            return true;
        outOfBoundsSeen = true;
        run.outOfBounds = run.outOfBounds.value_or(0) + *toNumber<long long>(v[0]);
        run.outOfBoundsFailed = run.outOfBoundsFailed || v[1] == "FAILED";
        return true;
    }
    if (startsWith(body, "Avg bus bandwidth")) {
        const auto colon = body.find(':');
        const auto v = colon == std::string_view::npos ? std::vector<std::string_view> {} : splitWs(body.substr(colon + 1));
        if (v.empty() || !toNumber<double>(v[0]))
            return false;
        started = true;
        if (afterFooter)
            return true;
        ++footers;
        if (!run.avgBusbwGBs)
            run.avgBusbwGBs = *toNumber<double>(v[0]);
        if (v.size() > 1 && v[1] == "FAILED")
            run.avgBusbwFailed = true;
        run.footerSeen = true;
        return true;
    }
    if (startsWith(body, "Reducing maxBytes to")) {
        started = true;
        if (w.size() > 3)
            if (const auto v = toNumber<std::uint64_t>(w[3])) {
                run.maxBytes = *v;
                notes.push_back("nccl-tests reduced maxBytes to " + std::to_string(*v) + " for lack of GPU memory");
            }
        return true;
    }
    if (startsWith(body, "Blocking Enabled") || startsWith(body, "Per-Iteration Report") || startsWith(body, "Parallel Init Enabled")
        || startsWith(body, "GPU memory usage") || startsWith(body, "Writing JSON output") || startsWith(body, "skipping json output")) {
        if (hashed || started) {
            started = true;
            return true;
        }
        return false;
    }
    if (startsWith(body, "error:") && (hashed || footers > 0)) {
        ncclErrors.push_back(std::string(trim(body.substr(6))));
        return true;
    }
    // A table row.
    if (!w.empty() && allDigits(w[0])) {
        if (!layout.known) {
            const auto guessed = guessLayout(w);
            if (!guessed)
                return false;
            layout = *guessed;
            notes.push_back("line " + std::to_string(lineNo) + ": no table header before the first row; its columns were taken from the row");
        }
        auto parsed = parseRow(w, layout);
        if (!parsed)
            return false;
        started = true;
        if (afterFooter) {
            ++ignoredAfterFooter;
            return true;
        }
        parsed->line = lineNo;
        if (!parsed->outOfPlace.wrong && parsed->outOfPlace.error)
            parsed->outOfPlace.wrong = *parsed->outOfPlace.error > errorTolerance(parsed->type, distinctRanks()) ? 1 : 0;
        if (parsed->hasInPlace && !parsed->inPlace.wrong && parsed->inPlace.error)
            parsed->inPlace.wrong = *parsed->inPlace.error > errorTolerance(parsed->type, distinctRanks()) ? 1 : 0;
        run.rows.push_back(std::move(*parsed));
        *row = &run.rows.back();
        return true;
    }
    return false;
}

// -------------------------------------------------------------------------------------------
// Finishing: tool, ranks, findings

NcclTestsRun NcclTestsParser::finish() const
{
    const State& st = *m_state;
    NcclTestsRun run = st.run;
    run.warnings = st.notes;
    auto finding = [&](core::Severity sev, std::string code, std::string message, std::string where) {
        run.findings.push_back({ sev, std::move(code), std::move(message), std::move(where) });
    };

    // Evidence from the table.
    Evidence ev;
    ev.rows = !run.rows.empty();
    ev.oldLayout = st.layout.known && st.layout.errorColumn;
    ev.hasRedopColumn = st.layout.hasRedop;
    ev.hasRootColumn = st.layout.hasRoot;
    ev.rankLines = st.distinctRanks();
    double widest = 0;
    for (const NcclTestsRow& row : run.rows) {
        if (isReducingOp(row.redop))
            ev.anyReducing = true;
        else
            ev.anyNone = true;
        (row.root >= 0 ? ev.anyRooted : ev.anyUnrooted) = true;
        const std::uint64_t ws = wordSize(row.type);
        if (row.count > 0 && ws > 0 && row.bytes % (row.count * ws) == 0)
            ev.k.insert(row.bytes / (row.count * ws));
        for (const NcclTestsResult* r : { &row.outOfPlace, row.hasInPlace ? &row.inPlace : nullptr }) {
            // The widest cell gives the best ratio; below 0.05 GB/s its rounding says too little.
            if (r && r->algbwGBs >= 0.05 && r->algbwGBs > widest && std::isfinite(r->algbwGBs) && std::isfinite(r->busbwGBs)) {
                widest = r->algbwGBs;
                ev.ratio = r->busbwGBs / r->algbwGBs;
                ev.ratioTolerance = (printedError(r->busbwGBs) + *ev.ratio * printedError(r->algbwGBs)) / r->algbwGBs + 1e-9;
            }
        }
    }

    // The tool.
    std::vector<std::string> candidates;
    std::map<std::string, Fit> fits;
    for (const ToolInfo& t : kTools) {
        const Fit f = fitTool(t, ev);
        fits[std::string(t.name)] = f;
        if (f.ok && t.inferable && ev.rows)
            candidates.emplace_back(t.name);
    }
    const std::string hint = st.hint.empty() ? std::string() : (canonicalTool(st.hint).empty() ? st.hint : canonicalTool(st.hint));
    std::string how;
    bool fromTable = false;
    if (!st.printedTool.empty()) {
        run.tool = st.printedTool;
        if (!hint.empty() && hint != run.tool)
            run.warnings.push_back("the output says it is " + run.tool + " (line " + std::to_string(st.printedToolLine) + "), not "
                + hint + " as the caller said; the output's name is kept");
    } else if (!hint.empty()) {
        run.tool = hint;
        run.toolInferred = true;
        how = "given by the caller";
    } else if (!st.commandTool.empty()) {
        run.tool = st.commandTool;
        run.toolInferred = true;
        how = "taken from the command line at line " + std::to_string(st.commandToolLine);
    } else if (candidates.size() == 1) {
        run.tool = candidates.front();
        run.toolInferred = true;
        fromTable = true;
        how = "inferred from the table (" + describeEvidence(ev) + ")";
    } else if (ev.rows) {
        run.toolInferred = true;
        run.toolCandidates = candidates;
        run.warnings.push_back("the output does not name its test and the table fits "
            + (candidates.empty() ? std::string("none of the known tests") : joinNames(candidates)) + " (" + describeEvidence(ev)
            + "); the tool is left as \"nccl-tests\"");
    } else {
        run.toolInferred = true;
    }
    if (!how.empty())
        run.warnings.push_back("the output does not name its test; " + run.tool + " was " + how);
    const ToolInfo* info = toolInfo(run.tool);
    if (info && info->inferable && ev.rows && !fromTable && !fits[run.tool].ok)
        run.warnings.push_back("the table does not look like " + run.tool + "'s (" + describeEvidence(ev) + ")");

    // The rank count.
    if (ev.rankLines > 0) {
        run.ranks = ev.rankLines;
        run.ranksSource = "rank_lines";
    } else if (info && fits[run.tool].ok && fits[run.tool].ranks > 0) {
        run.ranks = fits[run.tool].ranks;
        run.ranksSource = fits[run.tool].source;
        run.warnings.push_back("no rank lines; " + std::to_string(run.ranks) + " ranks inferred from the table ("
            + (run.ranksSource == "bytes_per_count" ? "bytes per element count" : "busbw/algbw for " + run.tool) + ")");
    } else if (info == nullptr && !candidates.empty()) {
        std::set<int> ns;
        for (const auto& c : candidates)
            ns.insert(fits[c].ranks);
        if (ns.size() == 1 && *ns.begin() > 0) {
            run.ranks = *ns.begin();
            run.ranksSource = fits[candidates.front()].source;
        }
    }

    // The old error column against the final rank count.
    for (NcclTestsRow& row : run.rows) {
        for (NcclTestsResult* r : { &row.outOfPlace, &row.inPlace })
            if (r->error)
                r->wrong = *r->error > errorTolerance(row.type, run.ranks) ? 1 : 0;
    }

    // Process failures and NCCL warnings.
    int firstFailureLine = 0;
    bool anyFailure = false;
    bool anyPrimary = false;
    for (const Report& r : st.reports) {
        if (!r.ncclWarn && !r.relay) {
            anyFailure = true;
            anyPrimary = true;
            firstFailureLine = firstFailureLine ? std::min(firstFailureLine, r.line) : r.line;
        }
    }
    for (const Report& r : st.reports) {
        if (r.relay) {
            if (anyPrimary)
                continue; // the trace of an error already reported
            anyFailure = true;
            firstFailureLine = firstFailureLine ? std::min(firstFailureLine, r.line) : r.line;
        }
    }
    for (const Report& r : st.reports) {
        if (r.relay && anyPrimary)
            continue;
        if (r.ncclWarn) {
            const bool followed = anyFailure && std::any_of(st.reports.begin(), st.reports.end(), [&](const Report& o) {
                return !o.ncclWarn && o.line > r.line && !(o.relay && anyPrimary);
            });
            std::string msg = "NCCL warned" + (r.hosts.empty() ? std::string() : " on " + joinNames(r.hosts))
                + (r.count > 1 ? " (" + std::to_string(r.count) + " lines)" : std::string()) + ": '" + r.key + "'. " + ncclWarnHint(r.key);
            if (followed)
                msg += " The run failed after it, so this is the likely cause.";
            finding(followed ? core::Severity::Error : core::Severity::Warning, "NCCL_TESTS_RANK_FAILED", msg,
                r.hosts.empty() ? "line " + std::to_string(r.line) : joinNames(r.hosts));
            continue;
        }
        std::string msg = r.message;
        if (r.count > 1)
            msg += " (" + plural(static_cast<std::size_t>(r.count), "line", "lines") + " like it)";
        finding(core::Severity::Error, "NCCL_TESTS_RANK_FAILED", msg, r.where.empty() ? "line " + std::to_string(r.line) : r.where);
    }

    // Output that stops before the footer.
    if (!run.footerSeen && st.started) {
        std::string msg;
        std::string where;
        if (!run.rows.empty()) {
            const NcclTestsRow& last = run.rows.back();
            msg = "The output stops after the " + std::to_string(last.bytes) + "-byte row (line " + std::to_string(last.line) + ", "
                + plural(run.rows.size(), "row", "rows") + ")";
            where = "after size " + std::to_string(last.bytes);
            if (run.maxBytes && last.bytes < *run.maxBytes)
                msg += ", short of maxBytes " + std::to_string(*run.maxBytes);
        } else {
            msg = "The output stops before the first result row";
            where = "line " + std::to_string(st.lineNo);
        }
        msg += ", without the footer (\"Out of bounds values\", \"Avg bus bandwidth\")";
        if (st.lastLineWasCutRow)
            msg += "; its last line is a cut row " + quoteLine(st.lastCutRow);
        msg += anyFailure ? ". A process failed (see NCCL_TESTS_RANK_FAILED); fix that and rerun."
                          : ". The test was stopped (killed, timed out) or the log was cut: rerun it and keep the whole output.";
        finding(core::Severity::Error, "NCCL_TESTS_TRUNCATED", msg, where);
    }

    // Wrong results.
    {
        std::vector<std::string> bad;
        std::string firstWhere;
        for (const NcclTestsRow& row : run.rows) {
            std::vector<std::string> parts;
            for (const auto& [r, name] : { std::pair { &row.outOfPlace, "out-of-place" }, std::pair { &row.inPlace, "in-place" } }) {
                if ((r != &row.inPlace || row.hasInPlace) && r->wrong && *r->wrong > 0) {
                    std::string part = name;
                    if (r->error) {
                        char buf[32];
                        std::snprintf(buf, sizeof buf, "%g", *r->error);
                        part += std::string(" error ") + buf;
                    } else {
                        part += " #wrong " + std::to_string(*r->wrong);
                    }
                    parts.push_back(part);
                }
            }
            if (!parts.empty()) {
                bad.push_back(std::to_string(row.bytes) + " B " + row.type + " (" + joinNames(parts) + ")");
                if (firstWhere.empty())
                    firstWhere = "size " + std::to_string(row.bytes);
            }
        }
        if (!bad.empty() || run.outOfBoundsFailed) {
            std::string msg = "nccl-tests found wrong results";
            if (!bad.empty())
                msg += " at " + plural(bad.size(), "size", "sizes") + ": " + joinNames(bad, 4);
            if (run.outOfBoundsFailed)
                msg += std::string(bad.empty() ? "" : ";") + " the footer says 'Out of bounds values : " + std::to_string(run.outOfBounds.value_or(0)) + " FAILED'";
            msg += ". The collective returned corrupted data, so its bandwidths mean nothing: check the GPUs for memory and Xid "
                   "errors (nvidia-smi -q -d ECC, dmesg), NVLink errors (nvidia-smi nvlink -e) and the NICs' and PCIe links' error "
                   "counters, then rerun (NCCL_PROTO=Simple or NCCL_ALGO=Ring help to isolate the path).";
            finding(core::Severity::Error, "NCCL_TESTS_WRONG", msg, firstWhere.empty() ? "footer" : firstWhere);
        }
    }

    if (run.avgBusbwFailed)
        finding(core::Severity::Error, "NCCL_TESTS_AVG_BW_FAILED",
            "The average bus bandwidth is below the expected figure given with -a (nccl-tests says FAILED): compare it with the "
            "plan's expected figures and look for a slow link or rail.",
            "footer");

    if (!st.ncclErrors.empty())
        finding(core::Severity::Warning, "NCCL_TESTS_NCCL_ERROR",
            "nccl-tests ended with NCCL's last error: '" + st.ncclErrors.front()
                + "'. It may be harmless (a plugin that failed to load), or the reason for a failure above; the NCCL_DEBUG=INFO log tells which.",
            "footer");

    // Duplicated headers.
    if (st.duplicated) {
        finding(core::Severity::Warning, "NCCL_TESTS_DUPLICATED",
            "The output repeats what one job prints once: " + joinNames(st.duplicateNotes, 4)
                + ". Each process ran its own single-process test instead of joining one job: nccl-tests was built without MPI "
                  "support (rebuild with `make MPI=1 MPI_HOME=...`) or started with another MPI's launcher. The figures measure each "
                  "process alone, not the network.",
            "rank lines");
    }

    // Validation off.
    const bool allNa = !run.rows.empty() && std::all_of(run.rows.begin(), run.rows.end(), [](const NcclTestsRow& r) {
        return !r.outOfPlace.wrong && !r.outOfPlace.error && (!r.hasInPlace || (!r.inPlace.wrong && !r.inPlace.error));
    });
    if ((run.validation && *run.validation == 0) || (!run.validation && allNa))
        finding(core::Severity::Info, "NCCL_TESTS_VALIDATION_OFF",
            "The results were not checked (validation: 0, run with -c 0): #wrong/error is N/A, so corrupted data would go "
            "unnoticed. Rerun with -c 1 to check the data (it does not change the bandwidths).",
            run.validation ? "header: validation: 0" : "rows");

    if (run.ranks == 1 && !st.duplicated)
        finding(core::Severity::Info, "NCCL_TESTS_SINGLE_RANK",
            "The test ran on one GPU only: bus bandwidth is 0 by definition and nothing crossed NVLink or the network. Run it "
            "over several GPUs (-g N, or one process per GPU with mpirun/srun) and nodes to measure them.",
            run.rankList.empty() ? "" : run.rankList.front().host);

    // Reading notes.
    if (st.preambleSkipped > 0)
        run.warnings.push_back("skipped " + plural(static_cast<std::size_t>(st.preambleSkipped), "line", "lines")
            + " before the nccl-tests output began (job banner, transcript)");
    if (st.otherSkipped > 0)
        run.warnings.push_back("skipped " + plural(static_cast<std::size_t>(st.otherSkipped), "line", "lines")
            + " inside the output that are not nccl-tests lines (first: line " + std::to_string(st.firstOtherLine) + " "
            + quoteLine(st.firstOther) + ")");
    if (st.rowsJoined > 0)
        run.warnings.push_back("read " + plural(static_cast<std::size_t>(st.rowsJoined), "row", "rows")
            + " that another rank's NCCL line had cut in two (mpirun forwards each rank's output in pieces; first: "
            + st.firstJoined + ")");
    if (const bool waiting = !st.rowHead.empty() || !st.rowGlue.empty(); st.rowHeadsLost > 0 || waiting)
        run.warnings.push_back(plural(static_cast<std::size_t>(st.rowHeadsLost + (waiting ? 1 : 0)), "row was", "rows were")
            + " cut off by another rank's NCCL line and never went on (first: line "
            + std::to_string(st.rowHeadsLost > 0 ? st.firstLostLine : st.rowHeadLine) + "); not read");
    if (st.secondRun || st.ignoredAfterFooter > 0)
        run.warnings.push_back("the output goes on after the footer"
            + (st.secondRun ? " with another run (line " + std::to_string(st.secondRunLine) + ")" : std::string())
            + "; only the first run is read (" + plural(static_cast<std::size_t>(st.ignoredAfterFooter), "line", "lines") + " ignored)");

    run.complete = run.footerSeen && !anyFailure;

    std::stable_sort(run.findings.begin(), run.findings.end(), [](const core::Finding& a, const core::Finding& b) {
        return static_cast<int>(a.severity) < static_cast<int>(b.severity);
    });
    return run;
}

// -------------------------------------------------------------------------------------------
// The whole text, and JSON

core::Result<NcclTestsRun> parseNcclTestsOutput(std::string_view text, std::string toolHint)
{
    NcclTestsParser parser(std::move(toolHint));
    std::size_t pos = 0;
    bool lastCut = false;
    int lines = 0;
    std::string firstLine;
    while (pos < text.size()) {
        auto end = text.find('\n', pos);
        const bool terminated = end != std::string_view::npos;
        if (!terminated)
            end = text.size();
        const std::string_view line = text.substr(pos, end - pos);
        pos = end + 1;
        ++lines;
        const std::string_view t = trim(line);
        if (firstLine.empty() && !t.empty() && !startsWith(t, "# source:"))
            firstLine = quoteLine(line) + " (line " + std::to_string(lines) + ")";
        parser.feed(line);
        lastCut = !terminated && !t.empty() && !parser.lastLineRead();
    }
    if (!parser.recognised()) {
        core::Error e;
        e.code = "TOOL_OUTPUT";
        e.message = "nccl-tests: " + (firstLine.empty() ? std::string("empty input, no nccl-tests output") : "no nccl-tests line in " + plural(static_cast<std::size_t>(lines), "line", "lines") + ", first " + firstLine);
        e.hint = "give the output of an nccl-tests program (all_reduce_perf, ...) as it printed it";
        return e;
    }
    NcclTestsRun run = parser.finish();
    if (lastCut)
        run.warnings.push_back("the last line has no line end and was not read as nccl-tests output: it may be cut");
    return run;
}

namespace {

    nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

    nlohmann::json resultJson(const NcclTestsResult& r, bool errorColumn)
    {
        nlohmann::json j { { "time_us", number(r.timeUs) }, { "algbw_gbs", number(r.algbwGBs) }, { "busbw_gbs", number(r.busbwGBs) },
            { "wrong", r.wrong ? nlohmann::json(*r.wrong) : nlohmann::json(nullptr) } };
        if (errorColumn)
            j["error"] = r.error ? number(*r.error) : nlohmann::json(nullptr);
        if (r.iterMinUs) {
            j["iter_min_us"] = number(*r.iterMinUs);
            j["iter_max_us"] = number(r.iterMaxUs.value_or(0));
            j["iter_p99_us"] = number(r.iterP99Us.value_or(0));
            j["iter_cv_pct"] = number(r.iterCvPct.value_or(0));
        }
        return j;
    }

    template <class T>
    nlohmann::json opt(const std::optional<T>& v)
    {
        return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    }

} // namespace

nlohmann::json toJson(const NcclTestsRun& run)
{
    bool errorColumn = false;
    for (const NcclTestsRow& row : run.rows)
        errorColumn = errorColumn || row.outOfPlace.error || row.inPlace.error;
    nlohmann::json rows = nlohmann::json::array();
    for (const NcclTestsRow& row : run.rows) {
        nlohmann::json j { { "bytes", row.bytes }, { "count", row.count }, { "type", row.type }, { "redop", row.redop }, { "root", row.root },
            { "out_of_place", resultJson(row.outOfPlace, errorColumn) },
            { "in_place", row.hasInPlace ? resultJson(row.inPlace, errorColumn) : nlohmann::json(nullptr) } };
        if (!row.timestamp.empty())
            j["timestamp"] = row.timestamp;
        rows.push_back(std::move(j));
    }
    nlohmann::json findings = nlohmann::json::array();
    for (const core::Finding& f : run.findings)
        findings.push_back(core::toJson(f));
    std::vector<std::string> hosts;
    nlohmann::json rankList = nlohmann::json::array();
    for (const NcclTestsRank& r : run.rankList) {
        if (std::find(hosts.begin(), hosts.end(), r.host) == hosts.end())
            hosts.push_back(r.host);
        rankList.push_back({ { "rank", r.rank }, { "group", r.group < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.group) },
            { "pid", r.pid < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.pid) }, { "host", r.host }, { "device", r.device },
            { "bus_id", r.busId }, { "gpu", r.gpu } });
    }
    nlohmann::json params { { "nthread", opt(run.nThread) }, { "ngpus", opt(run.nGpus) }, { "min_bytes", opt(run.minBytes) },
        { "max_bytes", opt(run.maxBytes) }, { "step", opt(run.step) }, { "step_kind", run.stepKind }, { "warmup_iters", opt(run.warmupIters) },
        { "iters", opt(run.iters) }, { "agg_iters", opt(run.aggIters) }, { "validation", opt(run.validation) }, { "graph", opt(run.graph) } };
    for (const auto& [k, v] : run.otherParams)
        params[k] = v;
    // The text of the output as it came: made valid UTF-8 so that the document always dumps.
    return withValidUtf8({
        { "tool", run.tool },
        { "tool_inferred", run.toolInferred },
        { "tool_candidates", run.toolCandidates },
        { "ranks", run.ranks > 0 ? nlohmann::json(run.ranks) : nlohmann::json(nullptr) },
        { "ranks_source", run.ranksSource },
        { "complete", run.complete },
        { "cpu_time", run.cpuTime },
        { "rows", std::move(rows) },
        { "avg_busbw_gbs", run.avgBusbwGBs ? number(*run.avgBusbwGBs) : nlohmann::json(nullptr) },
        { "out_of_bounds", opt(run.outOfBounds) },
        { "out_of_bounds_failed", run.outOfBoundsFailed },
        { "findings", std::move(findings) },
        { "nccl_tests_version", run.testsVersion },
        { "nccl_version", run.ncclVersion },
        { "hosts", hosts },
        { "rank_list", std::move(rankList) },
        { "params", std::move(params) },
        { "warnings", run.warnings },
    });
}

} // namespace railyard::live
